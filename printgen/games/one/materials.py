"""What ONE prints: the circular board (one sheet, or two sheets that tile into a larger one) and
the score sheet. Geometry comes from `layouts/one/*.toml`; the functions that place each
intersection on the page serve the drawing, `printgen layout one` and the tests alike."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import Color, black, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas

from printgen.errors import LayoutError
from printgen.games.one.engine import Board, Point
from printgen.games.one.layout import Drawing, OneLayout, load_layout
from printgen.materials import BuildOptions, Progress
from printgen.render.fonts import BODY, BOLD
from printgen.render.marks import cut_line, scale_bar
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.text import Anchor, Box, draw_in_box, draw_text, paragraph, text_width
from printgen.render.units import SAFE_MARGIN_MM, PageSize, Paper, mm, to_mm

LINE_GREY = Color(0.2, 0.2, 0.2)
OVERLAP_TINT = Color(0.88, 0.88, 0.88)
TITLE_BLOCK_MM = 17.0  # title and subtitle above a board
NOTES_BLOCK_MM = 27.0  # notes and scale bar below a board
# Cap height of DejaVu Sans as a share of the font size: centres a label on its spot.
CAP_HEIGHT = 0.73
PT_MM = 25.4 / 72.0

HOW_TO_READ = (
    "Each intersection is labelled <b>ring,spoke</b>: ring 1 is the innermost ring, spoke 1 "
    "points to the top and spokes count clockwise. Stones on neighbouring intersections joined "
    "by a line (along a ring, round the ring's whole circle, or along a spoke) are connected; "
    "diagonals are not, and there is no centre point. Score: stones in your largest connected "
    "group + 2 \u00d7 stones you captured."
)


# ---------------------------------------------------------------------------------------------
# Where things go


@dataclass(frozen=True)
class BoardGeometry:
    """A board placed on a page: its centre and ring radii in millimetres from the page's
    bottom-left corner."""

    board: Board
    centre_x: float
    centre_y: float
    radii: tuple[float, ...]  # ring 1 first
    drawing: Drawing

    @classmethod
    def fit(
        cls, layout: OneLayout, outer_radius: float, centre_x: float, centre_y: float
    ) -> BoardGeometry:
        rings = layout.board.rings
        pitch = outer_radius / (layout.inner_gap + rings - 1)
        radii = tuple(pitch * (layout.inner_gap + k) for k in range(rings))
        return cls(layout.board, centre_x, centre_y, radii, layout.drawing.scaled_for(radii[-1]))

    @property
    def outer(self) -> float:
        return self.radii[-1]

    @property
    def extent(self) -> float:
        """Radius of everything drawn: the outer ring and the spoke numbers around it."""
        return self.outer + self.drawing.outer_band

    def angle(self, spoke: int) -> float:
        """Clockwise from the top, in radians."""
        return (spoke - 1) * 2 * math.pi / self.board.spokes

    def at(self, radius: float, spoke: int) -> tuple[float, float]:
        a = self.angle(spoke)
        return (self.centre_x + radius * math.sin(a), self.centre_y + radius * math.cos(a))

    def xy(self, point: Point) -> tuple[float, float]:
        return self.at(self.radii[point.ring - 1], point.spoke)

    def label_xy(self, point: Point) -> tuple[float, float]:
        """Centre of the point's label: inward and clockwise of it, off both its lines."""
        a = self.angle(point.spoke)
        x, y = self.xy(point)
        d = self.drawing
        # Clockwise tangent (cos a, -sin a); outward radial (sin a, cos a).
        return (
            x + d.label_along * math.cos(a) - d.label_inward * math.sin(a),
            y - d.label_along * math.sin(a) - d.label_inward * math.cos(a),
        )

    def label_box(self, point: Point) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the label, in mm."""
        x, y = self.label_xy(point)
        width = to_mm(text_width(point.to_text(), BODY, self.drawing.label_size))
        height = self.drawing.label_size * CAP_HEIGHT * PT_MM
        return (x - width / 2, y - height / 2, x + width / 2, y + height / 2)

    def number_xy(self, spoke: int) -> tuple[float, float]:
        """Centre of a spoke's number outside the outer ring, just clear of the outer dot."""
        size = self.drawing.spoke_number_size
        width = to_mm(text_width(str(spoke), BOLD, size))
        height = size * CAP_HEIGHT * PT_MM
        a = self.angle(spoke)
        reach = abs(math.sin(a)) * width / 2 + abs(math.cos(a)) * height / 2
        return self.at(self.outer + self.drawing.dot_radius + 0.8 + reach, spoke)

    @property
    def hub_radius(self) -> float:
        """Room at the centre, inside ring 1's labels."""
        return self.radii[0] - self.drawing.label_inward - 2.5


def single_board(layout: OneLayout, paper: Paper) -> tuple[PageSize, BoardGeometry]:
    """The largest board one portrait sheet allows, with room for a title and notes."""
    page = paper.size.portrait()
    band = layout.drawing.outer_band
    top = page.height_mm - SAFE_MARGIN_MM - TITLE_BLOCK_MM
    bottom = SAFE_MARGIN_MM + NOTES_BLOCK_MM
    extent = min(page.width_mm / 2 - SAFE_MARGIN_MM, (top - bottom) / 2)
    # Right under the title, so the notes follow the board and the spare paper is at the foot.
    geometry = BoardGeometry.fit(layout, extent - band, page.width_mm / 2, top - extent)
    return page, geometry


@dataclass(frozen=True)
class TileSheet:
    """One of the two sheets of the tiled board."""

    number: int  # 1 the top half, 2 the bottom half
    page: PageSize
    geometry: BoardGeometry
    join_y: float  # page y of the join (sheet 1: its cut line; sheet 2: where that edge lies)
    clip: tuple[float, float]  # page y range the board is drawn in
    points: tuple[Point, ...]  # the intersections this sheet shows

    @property
    def tick_xs(self) -> tuple[float, ...]:
        g = self.geometry
        side = g.extent + (self.page.width_mm / 2 - SAFE_MARGIN_MM - g.extent) / 2
        return (g.centre_x - side, g.centre_x, g.centre_x + side)


def tiled_board(layout: OneLayout, paper: Paper) -> tuple[TileSheet, TileSheet]:
    """Two landscape sheets, top half and bottom half, overlapping by `overlap` mm."""
    page = paper.size.landscape()
    tiled = layout.tiled
    band = layout.drawing.outer_band
    outer = page.width_mm / 2 - SAFE_MARGIN_MM - tiled.side_room - band
    probe = BoardGeometry.fit(layout, outer, 0.0, 0.0)
    join = _join_offset(probe, tiled.join_clearance)
    above = tuple(p for p in layout.board.points if probe.xy(p)[1] > join)
    below = tuple(p for p in layout.board.points if probe.xy(p)[1] < join)

    cut = tiled.cut_from_edge
    top_geometry = BoardGeometry.fit(layout, outer, page.width_mm / 2, cut - join)
    if top_geometry.centre_y + top_geometry.extent > page.height_mm - SAFE_MARGIN_MM - 12:
        raise LayoutError(f"the tiled board's top half does not fit {paper.label} landscape")
    top = TileSheet(1, page, top_geometry, cut, (cut, page.height_mm), above)

    seam = page.height_mm - SAFE_MARGIN_MM - tiled.overlap - 2.0
    bottom_geometry = BoardGeometry.fit(layout, outer, page.width_mm / 2, seam - join)
    if bottom_geometry.centre_y - bottom_geometry.extent < SAFE_MARGIN_MM + NOTES_BLOCK_MM:
        raise LayoutError(f"the tiled board's bottom half does not fit {paper.label} landscape")
    bottom = TileSheet(2, page, bottom_geometry, seam, (0.0, seam + tiled.overlap), below)
    return top, bottom


def _join_offset(geometry: BoardGeometry, clearance: float) -> float:
    """Board y (from the centre) of the line where the two halves meet.

    It passes as far as it can from every intersection, label and spoke number near the middle,
    so that none is cut in two."""
    taken: list[tuple[float, float]] = []
    for point in geometry.board.points:
        _, y = geometry.xy(point)
        r = geometry.drawing.dot_radius
        taken.append((y - r, y + r))
        _, bottom, _, top = geometry.label_box(point)
        taken.append((bottom, top))
    number_half = geometry.drawing.spoke_number_size * CAP_HEIGHT * PT_MM / 2 + 0.3
    for spoke in range(1, geometry.board.spokes + 1):
        _, y = geometry.number_xy(spoke)
        taken.append((y - number_half, y + number_half))

    def distance(y: float) -> float:
        return min(0.0 if lo <= y <= hi else min(abs(y - lo), abs(y - hi)) for lo, hi in taken)

    candidates = [tenth / 10 for tenth in range(-200, 201)]
    best = max(candidates, key=lambda y: (distance(y), -abs(y)))
    if distance(best) < clearance:
        raise LayoutError(f"no join line keeps {clearance} mm clear of the board's marks")
    return best


# ---------------------------------------------------------------------------------------------
# Drawing


def _text(
    canvas: Canvas,
    text: str,
    x: float,
    y: float,
    font: str,
    size: float,
    where: str,
    anchor: Anchor = Anchor.CENTRE,
    max_width: float | None = None,
    min_size: float | None = None,
) -> float:
    """Draw text at page mm; returns the size used."""
    return draw_text(
        canvas,
        text,
        mm(x),
        mm(y),
        font,
        size,
        where=where,
        anchor=anchor,
        max_width=mm(max_width) if max_width is not None else None,
        min_size=min_size,
    )


def draw_board(
    canvas: Canvas,
    g: BoardGeometry,
    points: Iterable[Point],
    clip: tuple[float, float] | None = None,
    page: PageSize | None = None,
) -> None:
    """Rings, spokes, the given intersections with their labels, and the spoke numbers.

    Lines are clipped to the page band `clip` (y from, y to) when the board is split."""
    d = g.drawing
    canvas.saveState()
    if clip is not None and page is not None:
        path = canvas.beginPath()
        path.rect(0, mm(clip[0]), mm(page.width_mm), mm(clip[1] - clip[0]))
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.setStrokeColor(LINE_GREY)
    canvas.setLineWidth(mm(d.line_width))
    for radius in g.radii:
        canvas.circle(mm(g.centre_x), mm(g.centre_y), mm(radius), stroke=1, fill=0)
    # Spokes stop at ring 1: a line through the middle would join ring-1 intersections that the
    # rules (no centre point) keep apart.
    for spoke in range(1, g.board.spokes + 1):
        x1, y1 = g.at(g.radii[0], spoke)
        x2, y2 = g.at(g.outer, spoke)
        canvas.line(mm(x1), mm(y1), mm(x2), mm(y2))
    canvas.restoreState()

    drawn = tuple(points)
    canvas.setFillColor(black)
    for point in drawn:
        x, y = g.xy(point)
        canvas.circle(mm(x), mm(y), mm(d.dot_radius), stroke=0, fill=1)
    size = d.label_size
    for point in drawn:
        x, y = g.label_xy(point)
        _text(canvas, point.to_text(), x, y - size * CAP_HEIGHT * PT_MM / 2, BODY, size, "label")

    low, high = clip if clip is not None else (-math.inf, math.inf)
    number_size = d.spoke_number_size
    for spoke in range(1, g.board.spokes + 1):
        x, y = g.number_xy(spoke)
        if low + number_size * PT_MM < y < high - number_size * PT_MM:
            where = f"spoke number {spoke}"
            baseline = y - number_size * CAP_HEIGHT * PT_MM / 2
            _text(canvas, str(spoke), x, baseline, BOLD, number_size, where)


def _draw_hub(canvas: Canvas, g: BoardGeometry) -> None:
    hub = g.hub_radius
    size = _text(
        canvas,
        "ONE",
        g.centre_x,
        g.centre_y - 2.0,
        BOLD,
        16.0,
        "board centre title",
        max_width=hub * 1.4,
        min_size=8.0,
    )
    _text(
        canvas,
        "no centre point",
        g.centre_x,
        g.centre_y - 2.0 - size * PT_MM * 0.9,
        BODY,
        6.0,
        "board centre note",
        max_width=hub * 1.6,
        min_size=5.0,
    )


def _notes(canvas: Canvas, page: PageSize, top: float, size: float, extra: str = "") -> None:
    """How to read the board, and the scale bar, in the strip above the bottom margin."""
    style = ParagraphStyle("one-notes", fontName=BODY, fontSize=size, leading=size * 1.25)
    width = page.width_mm - 2 * SAFE_MARGIN_MM
    bar_y = SAFE_MARGIN_MM + 5.0
    box = Box(mm(SAFE_MARGIN_MM), mm(bar_y + 3.0), mm(width), mm(top - bar_y - 3.0))
    draw_in_box(canvas, paragraph(HOW_TO_READ + extra, style, "board notes"), box, "board notes")
    scale_bar(canvas, mm(SAFE_MARGIN_MM), mm(bar_y))


def _title(canvas: Canvas, page: PageSize, title: str, subtitle: str, size: float) -> None:
    top = page.height_mm - SAFE_MARGIN_MM
    width = page.width_mm - 2 * SAFE_MARGIN_MM
    used = _text(
        canvas,
        title,
        page.width_mm / 2,
        top - size * CAP_HEIGHT * PT_MM,
        BOLD,
        size,
        "board title",
        max_width=width,
        min_size=10.0,
    )
    _text(
        canvas,
        subtitle,
        page.width_mm / 2,
        top - used * CAP_HEIGHT * PT_MM - 6.0,
        BODY,
        8.5,
        "board subtitle",
        max_width=width,
        min_size=6.5,
    )


def _meta(title: str, paper: Paper) -> PdfMeta:
    return PdfMeta(title=title, subject=f"ONE, for 2 to 6 players, on {paper.label}")


def render_board(layout: OneLayout, paper: Paper) -> bytes:
    page, g = single_board(layout, paper)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, page, _meta("ONE board", paper))
    b = layout.board
    _title(
        canvas,
        page,
        "ONE",
        f"The board: {b.spokes} spokes \u00d7 {b.rings} rings, for 2 to 6 players",
        layout.drawing.title_size,
    )
    draw_board(canvas, g, b.points)
    _draw_hub(canvas, g)
    _notes(canvas, page, g.centre_y - g.extent - 2.0, layout.drawing.note_size)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def render_tiled_board(layout: OneLayout, paper: Paper) -> bytes:
    top, bottom = tiled_board(layout, paper)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, top.page, _meta("ONE board on two sheets", paper))
    _draw_top_sheet(canvas, layout, top)
    canvas.showPage()
    _draw_bottom_sheet(canvas, layout, bottom)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


TICK_LETTERS = "ABC"


def _ticks(canvas: Canvas, sheet: TileSheet, y1: float, y2: float, letter_y: float) -> None:
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.9)
    for letter, x in zip(TICK_LETTERS, sheet.tick_xs, strict=True):
        canvas.line(mm(x), mm(y1), mm(x), mm(y2))
        _text(canvas, letter, x, letter_y, BOLD, 7.0, f"alignment mark {letter}")
    canvas.restoreState()


def _draw_top_sheet(canvas: Canvas, layout: OneLayout, sheet: TileSheet) -> None:
    page, g, tiled = sheet.page, sheet.geometry, layout.tiled
    b = layout.board
    _title(
        canvas,
        page,
        "ONE \u2013 sheet 1 of 2: the top half",
        f"{b.spokes} spokes \u00d7 {b.rings} rings. Cut along the dashed line at the foot "
        "and lay this sheet over the grey strip of sheet 2.",
        layout.drawing.title_size,
    )
    scale_bar(canvas, mm(SAFE_MARGIN_MM), mm(page.height_mm - SAFE_MARGIN_MM - 24.0))
    draw_board(canvas, g, sheet.points, sheet.clip, page)
    cut_line(
        canvas,
        mm(SAFE_MARGIN_MM),
        mm(sheet.join_y),
        mm(page.width_mm - SAFE_MARGIN_MM),
        mm(sheet.join_y),
    )
    _ticks(
        canvas,
        sheet,
        sheet.join_y,
        sheet.join_y + tiled.tick_length,
        sheet.join_y + tiled.tick_length + 1.2,
    )
    _text(
        canvas,
        "Cut along the dashed line above; this strip is waste. Marks A, B, C meet their "
        "twins on sheet 2.",
        page.width_mm / 2,
        SAFE_MARGIN_MM + 1.5,
        BODY,
        6.5,
        "cut note",
        max_width=page.width_mm - 2 * SAFE_MARGIN_MM,
        min_size=5.5,
    )


def _draw_bottom_sheet(canvas: Canvas, layout: OneLayout, sheet: TileSheet) -> None:
    page, g, tiled = sheet.page, sheet.geometry, layout.tiled
    seam = sheet.join_y
    canvas.saveState()
    canvas.setFillColor(OVERLAP_TINT)
    canvas.rect(
        mm(SAFE_MARGIN_MM),
        mm(seam),
        mm(page.width_mm - 2 * SAFE_MARGIN_MM),
        mm(tiled.overlap),
        stroke=0,
        fill=1,
    )
    canvas.restoreState()
    draw_board(canvas, g, sheet.points, sheet.clip, page)
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.6)
    canvas.line(mm(SAFE_MARGIN_MM), mm(seam), mm(page.width_mm - SAFE_MARGIN_MM), mm(seam))
    canvas.restoreState()
    _ticks(
        canvas,
        sheet,
        seam - tiled.tick_length,
        seam + tiled.overlap,
        seam - tiled.tick_length - 3.2,
    )
    middle = seam + tiled.overlap / 2 - 1.0
    _text(
        canvas,
        "sheet 1 covers",
        g.centre_x - 2.0,
        middle,
        BODY,
        6.0,
        "overlap note",
        anchor=Anchor.RIGHT,
    )
    _text(
        canvas,
        "this grey strip",
        g.centre_x + 2.0,
        middle,
        BODY,
        6.0,
        "overlap note",
        anchor=Anchor.LEFT,
    )
    _notes(
        canvas,
        page,
        g.centre_y - g.extent - 2.0,
        layout.drawing.note_size,
        " <b>Sheet 2 of 2, the bottom half.</b> Lay sheet 1's cut edge on the line along the "
        "foot of the grey strip so that the marks A, B, C and every ring and spoke run on "
        "unbroken, then tape the sheets together from behind.",
    )


def render_score_sheet(layout: OneLayout, paper: Paper) -> bytes:
    page = paper.size.portrait()
    spec = layout.score_sheet
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, page, _meta("ONE score sheet", paper))
    left = SAFE_MARGIN_MM + 4.0
    width = page.width_mm - 2 * left
    top = page.height_mm - SAFE_MARGIN_MM
    _text(
        canvas,
        "ONE \u2013 score sheet",
        page.width_mm / 2,
        top - 7.0,
        BOLD,
        18.0,
        "score sheet title",
        max_width=width,
        min_size=12.0,
    )
    rule = (
        "Score = stones in your largest connected group + 2 \u00d7 stones you captured. "
        "The highest score wins; players level on the top score share the win."
    )
    _text(
        canvas,
        rule,
        page.width_mm / 2,
        top - 14.0,
        BODY,
        8.0,
        "score sheet rule",
        max_width=width,
        min_size=6.5,
    )
    block = spec.heading_height + (spec.rows + 1) * spec.row_height
    footer = 8.0
    room = top - 20.0 - SAFE_MARGIN_MM - footer
    games = min(spec.games, int((room + spec.block_gap) // (block + spec.block_gap)))
    if games < 1:
        raise LayoutError(f"not one game's block fits the score sheet on {paper.label}")
    y = top - 20.0
    for number in range(1, games + 1):
        _score_block(canvas, layout, left, y, width, number)
        y -= block + spec.block_gap
    stones = ", ".join(f"{n} players {each}" for n, each in layout.stones_per_player.items())
    footer_lines = (
        f"Stones per player: {stones}.",
        "The game ends just before the starting player's turn once anyone has run out of stones.",
    )
    for index, line in enumerate(footer_lines):
        _text(
            canvas,
            line,
            page.width_mm / 2,
            SAFE_MARGIN_MM + 6.0 - index * 3.5,
            BODY,
            7.5,
            "score sheet footer",
            max_width=width,
            min_size=6.0,
        )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _score_block(
    canvas: Canvas, layout: OneLayout, left: float, top: float, width: float, number: int
) -> None:
    spec = layout.score_sheet
    heading_base = top - spec.heading_height + 2.5
    _text(
        canvas, f"Game {number}", left, heading_base, BOLD, 11.0, "game heading", anchor=Anchor.LEFT
    )
    _write_on(canvas, "Date", left + 24.0, heading_base, 34.0)
    _write_on(canvas, "Starting player", left + 66.0, heading_base, width - 66.0)
    table_top = top - spec.heading_height
    rows = spec.rows + 1
    bottom = table_top - rows * spec.row_height
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.5)
    for row in range(rows + 1):
        yy = table_top - row * spec.row_height
        canvas.setLineWidth(1.0 if row in (0, 1, rows) else 0.5)
        canvas.line(mm(left), mm(yy), mm(left + width), mm(yy))
    x = left
    edges = [x]
    for _, share in spec.columns:
        x += share * width
        edges.append(x)
    for index, edge in enumerate(edges):
        canvas.setLineWidth(1.0 if index in (0, len(edges) - 1) else 0.5)
        canvas.line(mm(edge), mm(table_top), mm(edge), mm(bottom))
    canvas.restoreState()
    header_base = table_top - spec.row_height + 2.0
    for (title, _), x0, x1 in zip(spec.columns, edges, edges[1:], strict=False):
        _text(
            canvas,
            title,
            (x0 + x1) / 2,
            header_base,
            BOLD,
            7.5,
            f"column {title!r}",
            max_width=x1 - x0 - 2.0,
            min_size=5.5,
        )
    # A box to tick in the last column, one per player row.
    x0, x1 = edges[-2], edges[-1]
    side = min(spec.row_height - 2.5, 4.0)
    canvas.saveState()
    canvas.setLineWidth(0.5)
    canvas.setFillColor(white)
    for row in range(1, rows):
        cy = table_top - (row + 0.5) * spec.row_height
        canvas.rect(
            mm((x0 + x1 - side) / 2), mm(cy - side / 2), mm(side), mm(side), stroke=1, fill=0
        )
    canvas.restoreState()


def _write_on(canvas: Canvas, label: str, x: float, baseline: float, width: float) -> None:
    """A label followed by a line to write on."""
    _text(canvas, label, x, baseline, BODY, 8.0, f"{label} field", anchor=Anchor.LEFT)
    start = x + to_mm(text_width(label, BODY, 8.0)) + 1.5
    canvas.saveState()
    canvas.setLineWidth(0.4)
    canvas.line(mm(start), mm(baseline - 0.8), mm(x + width - 3.0), mm(baseline - 0.8))
    canvas.restoreState()


# ---------------------------------------------------------------------------------------------
# Materials


def build_board(options: BuildOptions, _progress: Progress | None) -> bytes:
    return render_board(load_layout(options.layout), options.paper)


def build_tiled_board(options: BuildOptions, _progress: Progress | None) -> bytes:
    return render_tiled_board(load_layout(options.layout), options.paper)


def build_score_sheet(options: BuildOptions, _progress: Progress | None) -> bytes:
    return render_score_sheet(load_layout(options.layout), options.paper)


def layout_data(name: str, paper: Paper) -> Mapping[str, Any]:
    """`printgen layout one --paper P`: where each intersection of the one-sheet board lies."""
    layout = load_layout(name)
    page, g = single_board(layout, paper)
    return {
        "game": "one",
        "layout": layout.name,
        "paper": paper.value,
        "page_mm": [page.width_mm, page.height_mm],
        "board": {"spokes": layout.board.spokes, "rings": layout.board.rings},
        "centre_mm": [round(g.centre_x, 3), round(g.centre_y, 3)],
        "ring_radii_mm": [round(r, 3) for r in g.radii],
        "stones_per_player": {str(k): v for k, v in layout.stones_per_player.items()},
        "intersections": [
            {
                "ring": p.ring,
                "spoke": p.spoke,
                "x_mm": round(g.xy(p)[0], 3),
                "y_mm": round(g.xy(p)[1], 3),
            }
            for p in layout.board.points
        ],
    }
