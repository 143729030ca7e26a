"""What ONE prints: the circular board (one sheet, or two sheets that tile into a larger one) and
the score sheet; the counter sheet is in `counters.py`. Geometry comes from `layouts/one/*.toml`;
the functions that place each intersection on the page serve the drawing, `printgen layout one`
and the tests alike.

Every board keeps neighbouring intersections far enough apart for counters (the layout's
`min_spacing`, an error at build time if the paper cannot give it), says the largest counter that
fits, and prints how to set up and play at its foot."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import Color, black
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from printgen.errors import LayoutError
from printgen.games.one.engine import Board, Point
from printgen.games.one.layout import Drawing, OneLayout, load_layout
from printgen.materials import BuildOptions, Progress
from printgen.render.fonts import BODY, BOLD
from printgen.render.marks import MARK_INSET_MM, cut_line, scale_bar, sheet_footer
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.text import Anchor, Box, draw_in_box, draw_text, paragraph, text_width
from printgen.render.units import SAFE_MARGIN_MM, PageSize, Paper, mm, to_mm

LINE_GREY = Color(0.2, 0.2, 0.2)
OVERLAP_TINT = Color(0.88, 0.88, 0.88)
TITLE_BLOCK_MM = 17.0  # title and subtitle above a board
# Where the board's outer ring and the title's capitals may reach: the ring's stroke, centred on
# it, and a round letter's overshoot above the capitals' height keep inside the 6 mm margin.
INK_MARGIN_MM = MARK_INSET_MM
# Cap height of DejaVu Sans as a share of the font size: centres a label on its spot.
CAP_HEIGHT = 0.73
PT_MM = 25.4 / 72.0
GAME = "ONE"
# The ONE rulebook names no designer, so the footers credit nobody (docs/rulings.md).
CREDIT = ""

# The foot of a board: the scale bar and the sheet footer along the bottom margin, and above them
# the rules a player needs at the table beside the counter circle.
BAR_Y_MM = SAFE_MARGIN_MM + 5.0
FOOT_TEXT_BOTTOM_MM = BAR_Y_MM + 5.5
COUNTER_COLUMN_MM = 36.0
FOOT_GAP_MM = 3.0  # between the board's spoke numbers and the text below


# ---------------------------------------------------------------------------------------------
# What a board says


def how_to_play(layout: OneLayout) -> str:
    """The rules at a board's foot, as paragraph markup: set-up, the turn, the capture, the end
    and how to read the labels. Stone counts come from the layout, as the engine's do."""
    counts = sorted(layout.stones_per_player.items())
    first_players, first_stones = counts[0]
    rest = ", ".join(f"{stones} with {players}" for players, stones in counts[1:])
    return (
        "<b>Setting up.</b> The board starts empty. Each player takes the stones of one colour: "
        f"{first_stones} each with {first_players} players, {rest}. Coins, glass gems or "
        "the ONE counter sheet make good stones; the circle shows the largest that fit."
        "<br/><b>Your turn:</b> place one stone on any empty intersection, or <b>capture</b>: "
        "jump one of your stones over a rival's stone next to it along a ring or a spoke, "
        "landing on the empty intersection straight beyond, and keep the stone you jumped "
        "(2 points). From where you land you may jump again, over any rival colour and turning "
        "as you please; never diagonally, never over your own stone, never across the centre. "
        "Capturing is never compulsory."
        "<br/><b>The end.</b> Once anyone has placed their last stone, finish the round: play "
        "stops as the starting player's turn comes round again. <b>Score</b> = stones in your "
        "largest connected group + 2 \u00d7 stones you captured; the highest score wins, and "
        "players level on the top score share the win."
        "<br/><b>Reading the board.</b> Each intersection is labelled <b>ring,spoke</b>: ring 1 "
        "is the innermost, spoke 1 points to the top of the page and spokes count clockwise. "
        "Stones on neighbouring intersections joined by a line are connected, round a ring's "
        "whole circle too; diagonals are not, and there is no centre point."
    )


TILING = (
    "<br/><b>Sheet 2 of 2, the bottom half.</b> Lay sheet 1's cut edge on the line along the "
    "foot of the grey strip so that the marks A, B, C and every ring and spoke run on unbroken, "
    "then tape the sheets together from behind."
)


def _foot_paragraph(layout: OneLayout, extra: str) -> Paragraph:
    size = layout.drawing.note_size
    style = ParagraphStyle("one-foot", fontName=BODY, fontSize=size, leading=size * 1.25)
    return paragraph(how_to_play(layout) + extra, style, "board foot")


def foot_height(layout: OneLayout, page: PageSize, extra: str = "") -> float:
    """Height in mm the foot needs above the bottom margin: the rules text wrapped to the page's
    width beside the counter circle, and the scale bar and footer under it."""
    width = page.width_mm - 2 * SAFE_MARGIN_MM - COUNTER_COLUMN_MM
    _, height = _foot_paragraph(layout, extra).wrap(mm(width), mm(page.height_mm))
    counter_room = max(layout.min_spacing.values()) + 12.0
    return FOOT_TEXT_BOTTOM_MM - SAFE_MARGIN_MM + max(to_mm(height), counter_room)


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
    def with_outer(
        cls, layout: OneLayout, outer_radius: float, centre_x: float, centre_y: float
    ) -> BoardGeometry:
        rings = layout.board.rings
        pitch = outer_radius / (layout.inner_gap + rings - 1)
        radii = tuple(pitch * (layout.inner_gap + k) for k in range(rings))
        return cls(layout.board, centre_x, centre_y, radii, layout.drawing.scaled_for(radii[-1]))

    @classmethod
    def fit(
        cls, layout: OneLayout, extent: float, centre_x: float, centre_y: float
    ) -> BoardGeometry:
        """The largest board whose spoke numbers stay within `extent` of its centre."""
        outer = extent
        # The band outside the outer ring grows a little with the dots: a few steps settle it.
        for _ in range(8):
            geometry = cls.with_outer(layout, outer, centre_x, centre_y)
            outer -= geometry.extent - extent
        return cls.with_outer(layout, outer - 1e-9, centre_x, centre_y)

    @property
    def outer(self) -> float:
        return self.radii[-1]

    @property
    def pitch(self) -> float:
        return self.radii[1] - self.radii[0]

    @property
    def extent(self) -> float:
        """Radius of everything drawn: the outer ring and the spoke numbers around it."""
        return max(self.number_corner(spoke) for spoke in range(1, self.board.spokes + 1))

    def angle(self, spoke: int) -> float:
        """Clockwise from the top, in radians."""
        return (spoke - 1) * 2 * math.pi / self.board.spokes

    def at(self, radius: float, spoke: int) -> tuple[float, float]:
        a = self.angle(spoke)
        return (self.centre_x + radius * math.sin(a), self.centre_y + radius * math.cos(a))

    def xy(self, point: Point) -> tuple[float, float]:
        return self.at(self.radii[point.ring - 1], point.spoke)

    def neighbour_spacing(self) -> float:
        """The least distance between two neighbouring intersections, in mm."""
        return min(
            math.dist(self.xy(p), self.xy(q))
            for p in self.board.points
            for q in self.board.neighbours(p)
        )

    def largest_counter(self) -> int:
        """The widest round counter, in whole millimetres, that fits on every intersection at
        once without touching its neighbours."""
        return math.floor(self.neighbour_spacing() + 1e-9)

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

    def number_size(self, spoke: int) -> tuple[float, float]:
        """(width, height) of a spoke's number in mm, along its own baseline and up."""
        size = self.drawing.spoke_number_size
        width = to_mm(text_width(str(spoke), BOLD, size))
        if spoke_is_dotted(spoke):
            width += 2 * number_dot_radius(size) + number_dot_gap(size)
        return width, size * CAP_HEIGHT * PT_MM

    def number_xy(self, spoke: int) -> tuple[float, float]:
        """Centre of a spoke's number just outside the outer ring's dot. The number stands
        across its spoke, so it takes only its cap height of the band's depth, whichever way
        the spoke points."""
        _, height = self.number_size(spoke)
        d = self.drawing
        return self.at(self.outer + d.dot_radius + d.number_gap + height / 2, spoke)

    def number_turn(self, spoke: int) -> float:
        """Degrees anticlockwise the number is turned: across its spoke, and as near upright
        as that allows for a reader at the foot of the page, like the rest of the sheet (tops
        outward on the upper half of the board, towards the centre on the lower half)."""
        a = math.degrees(self.angle(spoke))
        return -a if math.cos(self.angle(spoke)) > 1e-9 else 180.0 - a

    def number_corner(self, spoke: int) -> float:
        """Distance from the centre of the number's farthest corner."""
        width, height = self.number_size(spoke)
        d = self.drawing
        return math.hypot(self.outer + d.dot_radius + d.number_gap + height, width / 2)

    def number_y_range(self, spoke: int) -> tuple[float, float]:
        """The page y the number's box spans."""
        width, height = self.number_size(spoke)
        a = self.angle(spoke)
        _, y = self.number_xy(spoke)
        half = abs(math.sin(a)) * width / 2 + abs(math.cos(a)) * height / 2
        return (y - half, y + half)

    @property
    def hub_radius(self) -> float:
        """Room at the centre, inside ring 1's labels."""
        return self.radii[0] - self.drawing.label_inward - 2.5


def spoke_is_dotted(spoke: int) -> bool:
    """6 and 9 read as each other upside down, as they are to a player across the table: they
    carry a dot after them, as dice and pool balls do."""
    return spoke in (6, 9)


def number_dot_radius(size: float) -> float:
    return size * 0.06 * PT_MM


def number_dot_gap(size: float) -> float:
    return size * 0.08 * PT_MM


def check_spacing(layout: OneLayout, g: BoardGeometry, board: str, label: str) -> None:
    """LayoutError unless neighbouring intersections are as far apart as the layout promises."""
    want = layout.min_spacing[board]
    have = g.neighbour_spacing()
    if have < want - 1e-9:
        raise LayoutError(
            f"the {label} board's neighbouring intersections are {have:.2f} mm apart; "
            f"layout {layout.name!r} asks for at least {want:g} mm (min_spacing.{board})"
        )


def single_board(layout: OneLayout, paper: Paper) -> tuple[PageSize, BoardGeometry]:
    """The largest board one portrait sheet allows, under the title and above the rules."""
    page = paper.size.portrait()
    top = page.height_mm - INK_MARGIN_MM - TITLE_BLOCK_MM
    bottom = SAFE_MARGIN_MM + foot_height(layout, page) + FOOT_GAP_MM
    extent = min(page.width_mm / 2 - INK_MARGIN_MM, (top - bottom) / 2)
    # Right under the title, so the rules follow the board and any spare paper is at the foot.
    geometry = BoardGeometry.fit(layout, extent, page.width_mm / 2, top - extent)
    check_spacing(layout, geometry, paper.value, paper.label)
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
    tick_reach: float  # alignment marks stand this far either side of the centre

    @property
    def tick_xs(self) -> tuple[float, ...]:
        x = self.geometry.centre_x
        return (x - self.tick_reach, x, x + self.tick_reach)


def tiled_board(layout: OneLayout, paper: Paper) -> tuple[TileSheet, TileSheet]:
    """Two landscape sheets, top half and bottom half, overlapping by `overlap` mm.

    The board spans the sheet's width; it shrinks only if sheet 2 would not keep room for the
    rules at its foot."""
    page = paper.size.landscape()
    tiled = layout.tiled
    cut = tiled.cut_from_edge
    seam = page.height_mm - SAFE_MARGIN_MM - tiled.overlap - 2.0
    floor = SAFE_MARGIN_MM + foot_height(layout, page, TILING) + FOOT_GAP_MM
    extent = page.width_mm / 2 - INK_MARGIN_MM
    # The join depends on the board's size and the room at the foot on the join: a few rounds.
    for _ in range(6):
        probe = BoardGeometry.fit(layout, extent, 0.0, 0.0)
        join = _join_offset(probe, tiled.join_clearance)
        room = seam - join - floor
        if probe.extent <= room + 1e-6:
            break
        extent = room
    else:
        raise LayoutError(
            f"the tiled board's bottom half leaves no room for its rules on {paper.label}"
        )
    above = tuple(p for p in layout.board.points if probe.xy(p)[1] > join)
    below = tuple(p for p in layout.board.points if probe.xy(p)[1] < join)
    reach = _tick_reach(probe, join, tiled.tick_length, tiled.overlap)

    top_geometry = BoardGeometry.fit(layout, extent, page.width_mm / 2, cut - join)
    if top_geometry.centre_y + top_geometry.extent > page.height_mm - SAFE_MARGIN_MM - 12:
        raise LayoutError(f"the tiled board's top half does not fit {paper.label} landscape")
    top = TileSheet(1, page, top_geometry, cut, (cut, page.height_mm), above, reach)
    bottom_geometry = BoardGeometry.fit(layout, extent, page.width_mm / 2, seam - join)
    bottom = TileSheet(2, page, bottom_geometry, seam, (0.0, seam + tiled.overlap), below, reach)
    check_spacing(layout, top_geometry, "tiled", f"two-sheet {paper.label}")
    return top, bottom


def _tick_reach(g: BoardGeometry, join: float, tick_length: float, overlap: float) -> float:
    """How far either side of the centre the outer alignment marks stand: in the empty hub,
    where the join crosses no line, as far out as keeps them and their letters clear of ring 1
    and its labels (whole millimetres)."""
    # Sheet 2's marks run from under the join (their letters below them) to the overlap's top.
    low, high = join - tick_length - 5.0, join + overlap
    half_width = 1.5  # a mark's letter, either side of the mark
    clearance = 3.0
    taken = [g.label_box(p) for p in g.board.points if p.ring == 1]
    taken += [(x - r, y - r, x + r, y + r) for x, y in map(g.xy, g.board.points) for r in [2.0]]
    for reach in range(math.floor(g.radii[0]), 9, -1):
        corner = math.hypot(reach + half_width, max(abs(low), abs(high)))
        if corner > g.radii[0] - clearance:
            continue
        marks = [
            (side * reach - half_width, low, side * reach + half_width, high) for side in (-1, 1)
        ]
        if not any(_boxes_meet(m, t, clearance) for m in marks for t in taken):
            return float(reach)
    raise LayoutError("the hub leaves no room for the alignment marks clear of ring 1")


def _boxes_meet(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float], gap: float
) -> bool:
    return not (
        a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]
    )


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
    for spoke in range(1, geometry.board.spokes + 1):
        low, high = geometry.number_y_range(spoke)
        taken.append((low - 0.3, high + 0.3))
    # Marks farther than this from the searched band cannot be the nearest: skip them.
    near = [(lo, hi) for lo, hi in taken if lo < 45.0 and hi > -45.0]

    def distance(y: float) -> float:
        return min(0.0 if lo <= y <= hi else min(abs(y - lo), abs(y - hi)) for lo, hi in near)

    candidates = [tenth / 10 for tenth in range(-200, 201)]
    # The clearest line, then the nearest the middle; of two mirror images, the lower, which
    # leaves sheet 2 more room for the rules at its foot.
    best = max(candidates, key=lambda y: (round(distance(y), 3), -abs(y), -y))
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
    for spoke in range(1, g.board.spokes + 1):
        bottom, top = g.number_y_range(spoke)
        if low <= bottom and top <= high:
            _draw_number(canvas, g, spoke)


def _draw_number(canvas: Canvas, g: BoardGeometry, spoke: int) -> None:
    """A spoke's number beyond its outer dot, turned across its spoke."""
    size = g.drawing.spoke_number_size
    width, height = g.number_size(spoke)
    x, y = g.number_xy(spoke)
    canvas.saveState()
    canvas.translate(mm(x), mm(y))
    canvas.rotate(g.number_turn(spoke))
    draw_text(
        canvas,
        str(spoke),
        mm(-width / 2),
        mm(-height / 2),
        BOLD,
        size,
        where=f"spoke number {spoke}",
    )
    if spoke_is_dotted(spoke):
        r = number_dot_radius(size)
        canvas.circle(mm(width / 2 - r), mm(-height / 2 + r), mm(r), stroke=0, fill=1)
    canvas.restoreState()


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
        6.5,
        "board centre note",
        max_width=hub * 1.6,
        min_size=6.0,
    )


def _foot(
    canvas: Canvas,
    layout: OneLayout,
    page: PageSize,
    top: float,
    counter_mm: int,
    purpose: str,
    extra: str = "",
) -> None:
    """The rules beside the largest counter's circle, then the scale bar and the footer, in the
    strip between `top` (page mm) and the bottom margin."""
    width = page.width_mm - 2 * SAFE_MARGIN_MM - COUNTER_COLUMN_MM
    box = Box(mm(SAFE_MARGIN_MM), mm(FOOT_TEXT_BOTTOM_MM), mm(width), mm(top - FOOT_TEXT_BOTTOM_MM))
    draw_in_box(canvas, _foot_paragraph(layout, extra), box, "board foot")
    _counter_circle(canvas, page.width_mm - SAFE_MARGIN_MM - COUNTER_COLUMN_MM / 2, top, counter_mm)
    scale_bar(canvas, mm(SAFE_MARGIN_MM), mm(BAR_Y_MM))
    footer_line(canvas, page, BAR_Y_MM - 3.5, purpose)


COUNTER_CAPTION = ("the largest counter", "that fits this board")
COUNTER_CAPTION_SIZE = 7.0


def _counter_circle(canvas: Canvas, x: float, top: float, diameter: int) -> None:
    """A circle as wide as the largest counter that fits, its size inside, a caption under it."""
    bottom = top - diameter - 2 * COUNTER_CAPTION_SIZE * PT_MM * 1.3 - 1.0
    if bottom < FOOT_TEXT_BOTTOM_MM:
        raise LayoutError(f"a {diameter} mm counter circle does not fit the board's foot")
    r = diameter / 2
    cy = top - r
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(mm(0.35))
    canvas.circle(mm(x), mm(cy), mm(r), stroke=1, fill=0)
    canvas.restoreState()
    _text(canvas, f"{diameter} mm", x, cy - 1.0, BOLD, 7.5, "counter size", max_width=diameter)
    line = top - diameter - COUNTER_CAPTION_SIZE * PT_MM * 1.3
    for text in COUNTER_CAPTION:
        _text(canvas, text, x, line, BODY, COUNTER_CAPTION_SIZE, "counter caption")
        line -= COUNTER_CAPTION_SIZE * PT_MM * 1.3


def footer_line(canvas: Canvas, page: PageSize, baseline: float, purpose: str) -> None:
    """The sheet footer (game, purpose, printgen's version) ending at the right margin."""
    sheet_footer(
        canvas,
        mm(page.width_mm - SAFE_MARGIN_MM),
        mm(baseline),
        GAME,
        purpose,
        credit=CREDIT,
        anchor=Anchor.RIGHT,
        max_width=mm(page.width_mm / 2 - SAFE_MARGIN_MM),
    )


def _title(canvas: Canvas, page: PageSize, title: str, subtitle: str, size: float) -> None:
    top = page.height_mm - INK_MARGIN_MM
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
    foot_top = g.centre_y - g.extent - FOOT_GAP_MM
    _foot(canvas, layout, page, foot_top, g.largest_counter(), "the board")
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
    corner = page.height_mm - SAFE_MARGIN_MM - 24.0
    scale_bar(canvas, mm(SAFE_MARGIN_MM), mm(corner))
    footer_line(canvas, page, corner - 3.5, "the board, sheet 1 of 2")
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
        min_size=6.0,
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
    foot_top = g.centre_y - g.extent - FOOT_GAP_MM
    _foot(canvas, layout, page, foot_top, g.largest_counter(), "the board, sheet 2 of 2", TILING)


@dataclass(frozen=True)
class ScoreBlock:
    """One game's block on the score sheet, in page mm: what is drawn and what tests read."""

    number: int
    heading_baseline: float
    write_lines: tuple[tuple[float, float, float], ...]  # (x from, x to, y): Date, Starting player
    rule_ys: tuple[float, ...]  # the table's rules, top first
    column_xs: tuple[float, ...]  # the table's column edges, left first
    tick_boxes: tuple[tuple[float, float, float], ...]  # (centre x, centre y, side)

    @property
    def left(self) -> float:
        return self.column_xs[0]

    @property
    def right(self) -> float:
        return self.column_xs[-1]


SCORE_TOP_MM = 20.0  # title and rule above the first block
SCORE_NOTES_MM = 15.0  # two lines of notes and the sheet footer below the last
WRITE_LABEL_SIZE = 8.0
DATE_AT, DATE_WIDTH, STARTER_AT = 24.0, 34.0, 66.0  # mm from the block's left


def score_sheet_plan(layout: OneLayout, paper: Paper) -> tuple[PageSize, tuple[ScoreBlock, ...]]:
    """As many game blocks as the page holds (at most the layout's `games`)."""
    page = paper.size.portrait()
    spec = layout.score_sheet
    left = SAFE_MARGIN_MM + 4.0
    width = page.width_mm - 2 * left
    top = page.height_mm - SAFE_MARGIN_MM - SCORE_TOP_MM
    block = spec.heading_height + (spec.rows + 1) * spec.row_height
    room = top - SAFE_MARGIN_MM - SCORE_NOTES_MM
    games = min(spec.games, int((room + spec.block_gap) // (block + spec.block_gap)))
    if games < 1:
        raise LayoutError(f"not one game's block fits the score sheet on {paper.label}")
    edges = [left]
    for _, share in spec.columns:
        edges.append(edges[-1] + share * width)
    blocks = []
    for number in range(1, games + 1):
        block_top = top - (number - 1) * (block + spec.block_gap)
        heading = block_top - spec.heading_height + 2.5
        table_top = block_top - spec.heading_height
        rules = tuple(table_top - row * spec.row_height for row in range(spec.rows + 2))
        side = min(spec.row_height - 2.5, 4.0)
        ticks = tuple(
            ((edges[-2] + edges[-1]) / 2, (upper + lower) / 2, side)
            for upper, lower in zip(rules[1:], rules[2:], strict=False)
        )
        writes = (
            _write_line("Date", left + DATE_AT, heading, DATE_WIDTH),
            _write_line("Starting player", left + STARTER_AT, heading, width - STARTER_AT),
        )
        blocks.append(ScoreBlock(number, heading, writes, rules, tuple(edges), ticks))
    return page, tuple(blocks)


def _write_line(label: str, x: float, baseline: float, width: float) -> tuple[float, float, float]:
    """Where the line to write on runs after its label."""
    start = x + to_mm(text_width(label, BODY, WRITE_LABEL_SIZE)) + 1.5
    return (start, x + width - 3.0, baseline - 0.8)


def render_score_sheet(layout: OneLayout, paper: Paper) -> bytes:
    page, blocks = score_sheet_plan(layout, paper)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, page, _meta("ONE score sheet", paper))
    left = blocks[0].left
    width = blocks[0].right - left
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
    for block in blocks:
        _score_block(canvas, layout, block)
    stones = ", ".join(f"{n} players {each}" for n, each in layout.stones_per_player.items())
    note_lines = (
        f"Stones per player: {stones}.",
        "Once anyone has placed their last stone, finish the round: play stops before the "
        "starting player's next turn.",
    )
    for index, line in enumerate(note_lines):
        _text(
            canvas,
            line,
            page.width_mm / 2,
            SAFE_MARGIN_MM + 10.0 - index * 3.5,
            BODY,
            7.5,
            "score sheet notes",
            max_width=width,
            min_size=6.0,
        )
    footer_line(canvas, page, SAFE_MARGIN_MM + 1.5, "score sheet")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _score_block(canvas: Canvas, layout: OneLayout, block: ScoreBlock) -> None:
    spec = layout.score_sheet
    left, right = block.left, block.right
    _text(
        canvas,
        f"Game {block.number}",
        left,
        block.heading_baseline,
        BOLD,
        11.0,
        "game heading",
        anchor=Anchor.LEFT,
    )
    canvas.saveState()
    canvas.setStrokeColor(black)
    for label, at, (x1, x2, y) in zip(
        ("Date", "Starting player"), (DATE_AT, STARTER_AT), block.write_lines, strict=True
    ):
        where = f"{label} field"
        _text(
            canvas,
            label,
            left + at,
            block.heading_baseline,
            BODY,
            WRITE_LABEL_SIZE,
            where,
            Anchor.LEFT,
        )
        canvas.setLineWidth(mm(spec.rule_width))
        canvas.line(mm(x1), mm(y), mm(x2), mm(y))
    # The heading's rule and the table's outline heavier than the rules between players.
    last = len(block.rule_ys) - 1
    for row, y in enumerate(block.rule_ys):
        heavy = row in (0, 1, last)
        canvas.setLineWidth(mm(spec.heavy_rule_width if heavy else spec.rule_width))
        canvas.line(mm(left), mm(y), mm(right), mm(y))
    top, bottom = block.rule_ys[0], block.rule_ys[-1]
    for index, x in enumerate(block.column_xs):
        heavy = index in (0, len(block.column_xs) - 1)
        canvas.setLineWidth(mm(spec.heavy_rule_width if heavy else spec.rule_width))
        canvas.line(mm(x), mm(top), mm(x), mm(bottom))
    # A box to tick in the last column, one per player row.
    canvas.setLineWidth(mm(spec.rule_width))
    for x, y, side in block.tick_boxes:
        canvas.rect(mm(x - side / 2), mm(y - side / 2), mm(side), mm(side), stroke=1, fill=0)
    canvas.restoreState()
    header_base = top - spec.row_height + 2.0
    xs = block.column_xs
    for (title, _), x0, x1 in zip(spec.columns, xs, xs[1:], strict=False):
        _text(
            canvas,
            title,
            (x0 + x1) / 2,
            header_base,
            BOLD,
            7.5,
            f"column {title!r}",
            max_width=x1 - x0 - 2.0,
            min_size=6.0,
        )


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
        "neighbour_spacing_mm": round(g.neighbour_spacing(), 3),
        "largest_counter_mm": g.largest_counter(),
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
