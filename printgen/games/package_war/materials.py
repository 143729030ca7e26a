"""The score pad and the play mat.

Geometry comes from `layouts/package-war/{pad,mat}.toml`; the reminders printed on both come
from the rules-text source `seeds/package-war.md` (its `## Reminder: stacking` and
`## Reminder: scoring` sections), so the rules are written once. `pad_geometry()` and
`mat_geometry()` give every element's box in page millimetres: the drawing uses them,
and so do the tests that read the PDF back."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, black
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas

from printgen import layouts
from printgen.errors import InputError, LayoutError
from printgen.games.package_war.engine import (
    LINE_LENGTH,
    LOSE_SCORE,
    RECOMMENDED_DICE,
    START_SCORE,
    WIN_SCORE,
)
from printgen.materials import BuildOptions, Progress
from printgen.paths import SEEDS_DIR
from printgen.render.fonts import BODY, BOLD
from printgen.render.fonts import COND as COND_FACE
from printgen.render.fonts import COND_BOLD as COND_BOLD_FACE
from printgen.render.marks import (
    MARK_INSET_MM,
    WRITE_IN_INK,
    WRITE_IN_WIDTH,
    scale_bar,
    sheet_footer,
)
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.text import Anchor, draw_in_box, draw_text, hanging_indent, paragraph
from printgen.render.units import SAFE_MARGIN_MM, PageSize, Paper, Rect, mm
from printgen.rules_text import RulesText, Run, load_rules

LAYOUT_FOLDER = "package-war"
RULES_SOURCE = SEEDS_DIR / "package-war.md"

INK = black
GREY = Color(0.45, 0.45, 0.45)
LIGHT = Color(0.93, 0.93, 0.93)
# Thresholds in a colour the eye finds, and still dark enough on a black-and-white printer.
ALERT = Color(0.62, 0.08, 0.08)
COND = COND_FACE.name
COND_BOLD = COND_BOLD_FACE.name


# -- data ---------------------------------------------------------------------------------------


@cache
def load_layout(name: str) -> Mapping[str, Any]:
    return layouts.read_layout(LAYOUT_FOLDER, name, "Package War!")[1]


def _size(layout: Mapping[str, Any], table: str, key: str) -> float:
    try:
        value = layout[table][key]
    except KeyError:
        raise LayoutError(
            f"Package War! {layout.get('name')} layout: missing {table}.{key}"
        ) from None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise LayoutError(
            f"Package War! {layout.get('name')} layout: {table}.{key} = {value!r} is not a size"
        )
    return float(value)


REMINDER_PREFIX = "Reminder: "


@dataclass(frozen=True)
class Reminders:
    """The rules source's `## Reminder: TOPIC` sections: short lines, printed as they stand."""

    topics: tuple[tuple[str, tuple[str, ...]], ...]  # (topic, paragraph markup per bullet)

    def topic(self, title: str) -> tuple[str, ...]:
        for name, lines in self.topics:
            if name.lower() == title.lower():
                return lines
        known = ", ".join(name for name, _ in self.topics) or "none"
        raise InputError(
            f"the rules source has no '## {REMINDER_PREFIX}{title.lower()}' section "
            f"(its reminders: {known})"
        )


def load_reminders(path: Path = RULES_SOURCE) -> Reminders:
    return reminders_of(load_rules(path))


def reminders_of(rules: RulesText) -> Reminders:
    topics = []
    for section in rules.sections:
        if section.title.lower().startswith(REMINDER_PREFIX.lower()):
            topic = section.title[len(REMINDER_PREFIX) :].strip()
            topics.append((topic, tuple(_markup(block.runs) for block in section.blocks)))
    if not topics:
        raise InputError(f"{rules.source}: no '## {REMINDER_PREFIX}...' sections to print")
    return Reminders(tuple(topics))


def _markup(runs: tuple[Run, ...]) -> str:
    """Paragraph markup for styled runs: the text escaped, bold kept, sums kept on one line."""
    parts = []
    for run in runs:
        text = _keep_together(escape(run.text, quote=False))
        parts.append(f"<b>{text}</b>" if run.bold else text)
    return "".join(parts)


def _keep_together(text: str) -> str:
    """No line break inside a sum or before a lone -1: '1 + 2 + 3 + 4 = 10' stays whole."""
    text = re.sub(r" ([+=]) ", "\u00a0\\1\u00a0", text)
    return re.sub(r"(?<=\s)-(?=\d)", "\u2212", text)


# -- geometry -----------------------------------------------------------------------------------


def _check_inside(page: PageSize, rects: Mapping[str, Rect], what: str, paper: Paper) -> None:
    margin = SAFE_MARGIN_MM
    for name, rect in rects.items():
        if (
            rect.x < margin - 1e-6
            or rect.y < margin - 1e-6
            or rect.right > page.width_mm - margin + 1e-6
            or rect.top > page.height_mm - margin + 1e-6
        ):
            raise LayoutError(
                f"Package War! {what} on {paper.label}: {name} {rect} reaches past the "
                f"{margin:g} mm margin"
            )


def _check_apart(rects: Mapping[str, Rect], what: str, paper: Paper) -> None:
    items = list(rects.items())
    for i, (name, rect) in enumerate(items):
        for other_name, other in items[i + 1 :]:
            if rect.overlaps(other):
                raise LayoutError(
                    f"Package War! {what} on {paper.label}: {name} overlaps {other_name}"
                )


@dataclass(frozen=True)
class MatGeometry:
    page: PageSize
    spaces: tuple[Rect, ...]  # oldest first, left to right as the first player sees them
    pool: Rect
    pool_bands: tuple[Rect, Rect]  # the label band at the near end and at the far end
    join: Rect  # where the 'new in' arrow runs, right of the line
    # Per player, near first; the far player's are the near ones turned about the page centre.
    tables: tuple[tuple[Rect, Rect], tuple[Rect, Rect]]
    titles: tuple[Rect, Rect]  # the game's name and its designers, over each player's tables
    round_reminders: tuple[Rect, Rect]  # packaging and distribution
    rule_reminders: tuple[Rect, Rect]  # stacking and scoring
    name_lines: tuple[Rect, Rect]  # the write-in line for each player's name (height 0)
    footer: Rect
    die: float  # the die the spaces, tables and pool are sized for

    @property
    def pool_capacity(self) -> int:
        """How many dice lie flat, side by side, in the pool between its label bands."""
        inner = self.pool.height - sum(band.height for band in self.pool_bands)
        return int(self.pool.width // self.die) * int(inner // self.die)

    def named(self) -> dict[str, Rect]:
        rects = {f"space {i}": r for i, r in enumerate(self.spaces, start=1)}
        rects["pool"] = self.pool
        rects["join"] = self.join
        rects["footer"] = self.footer
        for seat, who in enumerate(("near", "far")):
            for number, table in enumerate(self.tables[seat], start=1):
                rects[f"{who} table {number}"] = table
            rects[f"{who} title"] = self.titles[seat]
            rects[f"{who} round reminder"] = self.round_reminders[seat]
            rects[f"{who} rules reminder"] = self.rule_reminders[seat]
        return rects


def mat_geometry(paper: Paper) -> MatGeometry:
    data = load_layout("mat")
    page = paper.size.landscape()

    def size(table: str, key: str) -> float:
        return _size(data, table, key)

    # The reminder boxes' frames stand at the margin: their strokes, centred on the frame, keep
    # wholly inside it (a reviewer measured ink at 5.75 mm from the edge).
    margin = MARK_INSET_MM
    cx, cy = page.width_mm / 2, page.height_mm / 2
    count = int(size("line", "spaces"))
    if count != LINE_LENGTH:
        raise LayoutError(f"the mat's line has {count} spaces but the rules say {LINE_LENGTH}")
    space, gap = size("line", "space"), size("line", "gap")
    line_width = count * space + (count - 1) * gap
    pool_w, pool_h, pool_gap = size("pool", "width"), size("pool", "height"), size("pool", "gap")
    join_gap, arrow = size("join", "gap"), size("join", "arrow")
    # Pool, way out, line and way in stand as one group, centred across the sheet.
    left = cx - (pool_w + pool_gap + line_width + join_gap + arrow) / 2
    pool = Rect(left, cy - pool_h / 2, pool_w, pool_h)
    band_h = size("pool", "label_band")
    pool_bands = (
        Rect(pool.x, pool.y, pool.width, band_h),
        Rect(pool.x, pool.top - band_h, pool.width, band_h),
    )
    first = pool.right + pool_gap
    spaces = tuple(
        Rect(first + i * (space + gap), cy - space / 2, space, space) for i in range(count)
    )
    join = Rect(spaces[-1].right + join_gap, cy - space / 2, arrow, space)

    band = size("band", "height")
    table, table_gap, rise = size("tables", "size"), size("tables", "gap"), size("tables", "rise")
    near_tables = (
        Rect(cx - table_gap / 2 - table, margin + rise, table, table),
        Rect(cx + table_gap / 2, margin + rise, table, table),
    )
    title_h = size("tables", "title_height")
    title_w = size("tables", "title_width")
    near_title = Rect(cx - title_w / 2, near_tables[0].top + 2.0, title_w, title_h)
    name_w = size("tables", "name_width")
    near_name = Rect(cx - name_w / 2 + NAME_LABEL_ROOM / 2, margin + 4.5, name_w, 0.0)
    rem_w, rem_h = size("reminders", "width"), size("reminders", "height")
    rem_y = margin + size("reminders", "rise")
    near_round = Rect(margin, rem_y, rem_w, rem_h)
    near_rules = Rect(page.width_mm - margin - rem_w, rem_y, rem_w, rem_h)
    for rect in (*near_tables, near_title, near_round, near_rules):
        if rect.top > margin + band + 1e-6:
            raise LayoutError(f"Package War! mat: {rect} rises above its {band:g} mm band")
    if pool.y < margin + band - 1e-6:
        raise LayoutError(f"Package War! mat on {paper.label}: the pool reaches into a band")

    def both(rect: Rect) -> tuple[Rect, Rect]:
        return (rect, rect.turned(page))

    geometry = MatGeometry(
        page=page,
        spaces=spaces,
        pool=pool,
        pool_bands=pool_bands,
        join=join,
        tables=(near_tables, (near_tables[0].turned(page), near_tables[1].turned(page))),
        titles=both(near_title),
        round_reminders=both(near_round),
        rule_reminders=both(near_rules),
        name_lines=both(near_name),
        # Under the near player's name line, no wider than the tables and a little more.
        footer=Rect(cx - (table + table_gap / 2) - 6, margin, 2 * table + table_gap + 12, 3.0),
        die=size("pool", "die"),
    )
    if geometry.pool_capacity < RECOMMENDED_DICE:
        raise LayoutError(
            f"Package War! mat: the pool holds {geometry.pool_capacity} dice of "
            f"{geometry.die:g} mm, not the {RECOMMENDED_DICE} the game is best with"
        )
    rects = geometry.named()
    _check_inside(page, rects, "mat", paper)
    _check_apart(rects, "mat", paper)
    return geometry


# Room left of a name line for its "Player" label.
NAME_LABEL_ROOM = 14.0


@dataclass(frozen=True)
class PadGeometry:
    page: PageSize
    title: Rect
    names: tuple[Rect, Rect]
    name_lines: tuple[Rect, Rect]  # the write-in line in each name band (height 0)
    round_column: Rect  # header and all rows
    headers: tuple[tuple[Rect, Rect, Rect], tuple[Rect, Rect, Rect]]  # stacks, crushed, total
    start_row: Rect
    rows: tuple[Rect, ...]  # one per round, full width
    column_x: tuple[tuple[float, float, float], tuple[float, float, float]]  # left edges
    column_width: float
    reminders: tuple[Rect, Rect]  # a round (packaging, distribution); scoring
    scale: Rect

    def named(self) -> dict[str, Rect]:
        rects = {
            "title": self.title,
            "round reminder": self.reminders[0],
            "scoring reminder": self.reminders[1],
            "scale": self.scale,
        }
        rects["grid"] = Rect(
            self.round_column.x,
            self.rows[-1].y,
            self.rows[0].width,
            self.names[0].top - self.rows[-1].y,
        )
        return rects


def pad_geometry(paper: Paper) -> PadGeometry:
    data = load_layout("pad")
    page = paper.size.portrait()

    def size(table: str, key: str) -> float:
        return _size(data, table, key)

    margin = SAFE_MARGIN_MM
    round_w, col_w = size("grid", "round_width"), size("grid", "column_width")
    player_gap = size("grid", "player_gap")
    width = round_w + 2 * (player_gap + 3 * col_w)
    left = (page.width_mm - width) / 2
    top = page.height_mm - margin
    title = Rect(left, top - size("title", "height"), width, size("title", "height"))
    name_h, header_h = size("grid", "name_height"), size("grid", "header_height")
    row_h = size("grid", "row_height")
    names_y = title.y - name_h
    header_y = names_y - header_h
    column_x: list[tuple[float, float, float]] = []
    names: list[Rect] = []
    headers: list[tuple[Rect, Rect, Rect]] = []
    for seat in range(2):
        x0 = left + round_w + player_gap + seat * (player_gap + 3 * col_w)
        xs = (x0, x0 + col_w, x0 + 2 * col_w)
        column_x.append(xs)
        names.append(Rect(x0, names_y, 3 * col_w, name_h))
        headers.append(
            (
                Rect(xs[0], header_y, col_w, header_h),
                Rect(xs[1], header_y, col_w, header_h),
                Rect(xs[2], header_y, col_w, header_h),
            )
        )
    name_lines = tuple(
        Rect(name.x + NAME_LABEL_ROOM + 1.0, name.y + 2.5, name.width - NAME_LABEL_ROOM - 2.0, 0.0)
        for name in names
    )
    start_row = Rect(left, header_y - row_h, width, row_h)
    scale = Rect(left, margin, width, size("scale", "height"))
    reminder_h, reminder_gap = size("reminder", "height"), size("reminder", "between")
    # Clear of the scale bar's ticks and label, so neither reads as part of the box.
    reminder_y = scale.top + size("scale", "clearance")
    box_w = (width - reminder_gap) * size("reminder", "round_share")
    reminders = (
        Rect(left, reminder_y, box_w, reminder_h),
        Rect(left + box_w + reminder_gap, reminder_y, width - box_w - reminder_gap, reminder_h),
    )
    floor = reminder_y + reminder_h + size("reminder", "gap")
    count = int((start_row.y - floor) // row_h)
    if count < 10:
        raise LayoutError(f"Package War! pad on {paper.label}: room for {count} rounds only")
    rows = tuple(Rect(left, start_row.y - (i + 1) * row_h, width, row_h) for i in range(count))
    geometry = PadGeometry(
        page=page,
        title=title,
        names=(names[0], names[1]),
        name_lines=(name_lines[0], name_lines[1]),
        round_column=Rect(left, rows[-1].y, round_w, header_y + header_h - rows[-1].y),
        headers=(headers[0], headers[1]),
        start_row=start_row,
        rows=rows,
        column_x=(column_x[0], column_x[1]),
        column_width=col_w,
        reminders=reminders,
        scale=scale,
    )
    rects = geometry.named()
    _check_inside(page, rects, "pad", paper)
    _check_apart(rects, "pad", paper)
    return geometry


def layout_data(name: str, paper: Paper) -> Mapping[str, Any]:
    """For `printgen layout package-war`: every element of both sheets, in page millimetres."""
    if name != "standard":
        raise LayoutError(f"Package War! has one layout, 'standard', not {name!r}")
    mat = mat_geometry(paper)
    pad = pad_geometry(paper)
    return {
        "game": "package-war",
        "paper": paper.value,
        "mat": {
            "page": {"width": mat.page.width_mm, "height": mat.page.height_mm},
            **{k: r.to_json() for k, r in mat.named().items()},
        },
        "pad": {
            "page": {"width": pad.page.width_mm, "height": pad.page.height_mm},
            "rounds": len(pad.rows),
            **{k: r.to_json() for k, r in pad.named().items()},
        },
    }


# -- drawing helpers ----------------------------------------------------------------------------


def _label(
    canvas: Canvas,
    text: str,
    x_mm: float,
    y_mm: float,
    font: str,
    size: float,
    *,
    where: str,
    upside_down: bool = False,
    anchor: Anchor = Anchor.CENTRE,
    max_width_mm: float | None = None,
    color: Color = INK,
) -> None:
    """One line of text, upright for the near player or turned to face the far one."""
    canvas.saveState()
    canvas.setFillColor(color)
    canvas.translate(mm(x_mm), mm(y_mm))
    if upside_down:
        canvas.rotate(180)
    draw_text(
        canvas,
        text,
        0,
        0,
        font,
        size,
        where=where,
        anchor=anchor,
        max_width=None if max_width_mm is None else mm(max_width_mm),
    )
    canvas.restoreState()


def _rect(
    canvas: Canvas,
    rect: Rect,
    *,
    width: float = 0.8,
    fill: Color | None = None,
    radius: float = 0.0,
    dash: tuple[float, float] | None = None,
) -> None:
    canvas.saveState()
    canvas.setLineWidth(width)
    canvas.setStrokeColor(INK)
    if dash is not None:
        canvas.setDash([mm(dash[0]), mm(dash[1])], 0)
    if fill is not None:
        canvas.setFillColor(fill)
    args = (mm(rect.x), mm(rect.y), mm(rect.width), mm(rect.height))
    if radius:
        canvas.roundRect(*args, mm(radius), stroke=1, fill=int(fill is not None))
    else:
        canvas.rect(*args, stroke=1, fill=int(fill is not None))
    canvas.restoreState()


def _arrow(canvas: Canvas, x1: float, y: float, x2: float, width: float = 1.4) -> None:
    """A horizontal arrow from x1 to x2 (mm), its head at x2."""
    head = 3.2 if x2 > x1 else -3.2
    canvas.saveState()
    canvas.setLineWidth(width)
    canvas.setStrokeColor(INK)
    canvas.setFillColor(INK)
    canvas.line(mm(x1), mm(y), mm(x2 - head), mm(y))
    path = canvas.beginPath()
    path.moveTo(mm(x2), mm(y))
    path.lineTo(mm(x2 - head), mm(y + 1.8))
    path.lineTo(mm(x2 - head), mm(y - 1.8))
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


REMINDER_BULLET = "\u2022"


def _reminder(
    canvas: Canvas,
    rect: Rect,
    sections: tuple[tuple[str, tuple[str, ...]], ...],
    sizes: Mapping[str, Any],
    where: str,
) -> None:
    """A boxed reminder: per section a bold title, then one bullet per line of the rules
    source, each wrapped line starting under the text of its first. `sizes` is the layout's
    table with the padding (mm) and the title and body sizes (pt)."""
    padding, title_size = float(sizes["padding"]), float(sizes["title_size"])
    body_size = float(sizes["body_size"])
    _rect(canvas, rect, width=0.7, radius=2.0)
    style = ParagraphStyle(
        "reminder",
        fontName=BODY,
        bulletFontName=BODY,  # ReportLab's default bullet font is the unembedded Helvetica
        bulletFontSize=body_size,
        fontSize=body_size,
        leading=body_size * 1.2,
        leftIndent=hanging_indent(REMINDER_BULLET, BODY, body_size),
        bulletIndent=0,
        spaceAfter=body_size * 0.25,
    )
    title_style = ParagraphStyle(
        "reminder title",
        fontName=BOLD,
        fontSize=title_size,
        leading=title_size * 1.2,
        spaceBefore=title_size * 0.3,
        spaceAfter=title_size * 0.25,
    )
    from reportlab.platypus.flowables import Flowable

    flows: list[Flowable] = []
    for title, lines in sections:
        flows.append(paragraph(title, title_style, f"{where} title"))
        for number, line in enumerate(lines, start=1):
            flows.append(
                paragraph(line, style, f"{where} {title} line {number}", bullet=REMINDER_BULLET)
            )
    inner = Rect(
        rect.x + padding, rect.y + padding, rect.width - 2 * padding, rect.height - 2 * padding
    )
    _draw_flows(canvas, flows, inner, where)


def _draw_flows(canvas: Canvas, flows: list[Any], rect: Rect, where: str) -> None:
    from reportlab.platypus.flowables import Flowable

    class Column(Flowable):
        """The paragraphs one under the other, measured as one piece so a FitError is whole."""

        def wrap(self, avail_w: float, avail_h: float) -> tuple[float, float]:
            self._sizes = [f.wrap(avail_w, avail_h) for f in flows]
            # The space between two flowables: the first one's after, the second one's before.
            self._gaps = [0.0] + [
                a.getSpaceAfter() + b.getSpaceBefore()
                for a, b in zip(flows, flows[1:], strict=False)
            ]
            self.width = avail_w
            self.height = sum(h for _, h in self._sizes) + sum(self._gaps)
            return (avail_w, self.height)

        def draw(self) -> None:
            y = self.height
            for flow, (_, height), gap in zip(flows, self._sizes, self._gaps, strict=True):
                y -= gap + height
                flow.drawOn(self.canv, 0, y)

    draw_in_box(canvas, Column(), rect.box(), where)


# -- the mat ------------------------------------------------------------------------------------


GAME = "Package War!"
# The rulebook's own credit line.
CREDIT = "\u00a9 2004 Rasmus Pechuel and Monica Shellman"


def build_mat(options: BuildOptions, progress: Progress | None = None) -> bytes:
    geometry = mat_geometry(options.paper)
    data = load_layout("mat")
    reminders = load_reminders(options.rules or RULES_SOURCE)
    a_round = (("A round", reminders.topic("a round")),)
    rules = (("Stacking", reminders.topic("stacking")), ("Scoring", reminders.topic("scoring")))
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        geometry.page,
        PdfMeta("Package War! play mat", f"Play mat, {options.paper.label} landscape"),
    )
    _draw_centre(canvas, geometry, data)
    rem = data["reminders"]
    for seat in range(2):
        turned = seat == 1
        who = "far" if turned else "near"
        _draw_tables(canvas, geometry, data, seat)
        for rect, sections in (
            (geometry.round_reminders[seat], a_round),
            (geometry.rule_reminders[seat], rules),
        ):
            with _facing(canvas, rect, turned):
                _reminder(canvas, rect, sections, rem, f"mat {who} reminder {sections[0][0]!r}")
    footer = geometry.footer
    sheet_footer(canvas, mm(footer.centre[0]), mm(footer.y + 0.6), GAME, "play mat")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


@contextmanager
def _facing(canvas: Canvas, rect: Rect, turned: bool) -> Iterator[None]:
    """Draw in `rect` the near player's way round; for the far player, turned about its centre."""
    canvas.saveState()
    if turned:
        cx, cy = rect.centre
        canvas.translate(mm(cx), mm(cy))
        canvas.rotate(180)
        canvas.translate(-mm(cx), -mm(cy))
    try:
        yield
    finally:
        canvas.restoreState()


def _draw_centre(canvas: Canvas, g: MatGeometry, data: Mapping[str, Any]) -> None:
    line, pool = data["line"], data["pool"]
    label_size, label_gap = float(line["label_size"]), float(line["label_gap"])
    for number, space in enumerate(g.spaces, start=1):
        _rect(canvas, space, width=1.2, radius=2.5)
        _label(
            canvas,
            str(number),
            space.x + 2.2,
            space.top - 4.2,
            COND,
            7.0,
            where=f"mat line space {number}",
            anchor=Anchor.LEFT,
            color=GREY,
        )
    first, last = g.spaces[0], g.spaces[-1]
    line_cx = (first.x + last.right) / 2
    text = "THE LINE: five packages at most; a sixth pushes the oldest out"
    below = first.y - label_gap - label_size * 0.3528
    _label(canvas, text, line_cx, below, BOLD, label_size, where="mat line label")
    above = first.top + label_gap
    _label(
        canvas,
        text,
        line_cx,
        above,
        BOLD,
        label_size,
        where="mat line label (far)",
        upside_down=True,
    )
    # The pool, labelled in a band at each end, facing the player at that end.
    _rect(canvas, g.pool, width=1.0, fill=LIGHT, radius=4.0, dash=(2.5, 1.5))
    title_size, note_size = float(pool["title_size"]), float(pool["note_size"])
    note = f"all {RECOMMENDED_DICE} dice wait here; sixes and crushed packages come back"
    for band, turned in ((g.pool_bands[0], False), (g.pool_bands[1], True)):
        with _facing(canvas, band, turned):
            baseline = band.y + band.height / 2 - 1.2
            _label(
                canvas,
                "PACKAGE POOL",
                band.x + 5.0,
                baseline,
                COND_BOLD,
                title_size,
                where="mat pool title",
                anchor=Anchor.LEFT,
            )
            _label(
                canvas,
                note,
                band.right - 5.0,
                baseline,
                COND,
                note_size,
                where="mat pool note",
                anchor=Anchor.RIGHT,
                max_width_mm=band.width - 34.0,
            )
    _arrow(canvas, first.x - 2.0, first.centre[1], g.pool.right + 1.5)
    mid = (g.pool.right + first.x) / 2
    room = first.x - g.pool.right - 1.0
    for sign, turned in ((-1.0, False), (1.0, True)):
        _label(
            canvas,
            "oldest out",
            mid,
            first.centre[1] + sign * 5.5,
            COND,
            6.5,
            where="mat way out label",
            upside_down=turned,
            max_width_mm=room,
        )
    # Where new packages come in.
    join, ay = g.join, last.centre[1]
    _arrow(canvas, join.right, ay, last.right + 1.0)
    for sign, turned in ((-1.0, False), (1.0, True)):
        _label(
            canvas,
            "new in",
            join.centre[0],
            ay + sign * 5.5,
            COND,
            7.0,
            where="mat join label",
            upside_down=turned,
            max_width_mm=join.width,
        )


def _draw_tables(canvas: Canvas, g: MatGeometry, data: Mapping[str, Any], seat: int) -> None:
    tables = data["tables"]
    label_size, name_size = float(tables["label_size"]), float(tables["name_size"])
    turned = seat == 1
    who = "far" if turned else "near"
    for number, rect in enumerate(g.tables[seat], start=1):
        _rect(canvas, rect, width=1.4, radius=3.0)
        with _facing(canvas, rect, turned):
            # Labels sit at the table's edge nearest its owner.
            _label(
                canvas,
                f"TABLE {number}",
                rect.centre[0],
                rect.y + 3.0,
                BOLD,
                label_size,
                where=f"mat {who} table {number}",
            )
            _label(
                canvas,
                "lighter on heavier",
                rect.centre[0],
                rect.top - 5.0,
                COND,
                6.5,
                where=f"mat {who} table hint",
                color=GREY,
                max_width_mm=rect.width - 2,
            )
    title = g.titles[seat]
    with _facing(canvas, title, turned):
        _label(
            canvas,
            GAME,
            title.centre[0],
            title.top - 5.5,
            BOLD,
            float(tables["title_size"]),
            where=f"mat {who} title",
            max_width_mm=title.width,
        )
        _label(
            canvas,
            CREDIT,
            title.centre[0],
            title.y + 0.8,
            BODY,
            float(tables["credit_size"]),
            where=f"mat {who} credit",
            max_width_mm=title.width,
            color=GREY,
        )
    # The label, then the line, as each player sees them: drawn the near way round in a box that
    # for the far player is the near one turned.
    near = g.name_lines[0]
    box = Rect(near.x - NAME_LABEL_ROOM, near.y - 1.0, near.width + NAME_LABEL_ROOM, 4.0)
    if turned:
        box = box.turned(g.page)
    with _facing(canvas, box, turned):
        _label(
            canvas,
            "Player",
            box.x + NAME_LABEL_ROOM - 1.5,
            box.y + 1.5,
            BODY,
            name_size,
            where=f"mat {who} name label",
            anchor=Anchor.RIGHT,
        )
        _write_in_line(canvas, box.x + NAME_LABEL_ROOM, box.y + 1.0, box.right)


def _write_in_box(canvas: Canvas, rect: Rect) -> None:
    """A box to write in (mm), ruled like a write-in line."""
    canvas.saveState()
    canvas.setStrokeColor(WRITE_IN_INK)
    canvas.setLineWidth(WRITE_IN_WIDTH)
    canvas.rect(mm(rect.x), mm(rect.y), mm(rect.width), mm(rect.height), stroke=1, fill=0)
    canvas.restoreState()


def _write_in_line(canvas: Canvas, x1: float, y: float, x2: float) -> None:
    """A line to write on (mm): dark and wide enough to survive a photocopier."""
    canvas.saveState()
    canvas.setStrokeColor(WRITE_IN_INK)
    canvas.setLineWidth(WRITE_IN_WIDTH)
    canvas.line(mm(x1), mm(y), mm(x2), mm(y))
    canvas.restoreState()


# -- the pad ------------------------------------------------------------------------------------

COLUMN_HEADS = (("+ stacks", "stack points"), ("\u2212 crushed", "packages"), ("= total", ""))


def build_pad(options: BuildOptions, progress: Progress | None = None) -> bytes:
    g = pad_geometry(options.paper)
    data = load_layout("pad")
    grid, rem = data["grid"], data["reminder"]
    reminders = load_reminders(options.rules or RULES_SOURCE)
    a_round, scoring = reminders.topic("a round"), reminders.topic("scoring")
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer, g.page, PdfMeta("Package War! score pad", f"Score pad, {options.paper.label}")
    )
    label_size, number_size = float(grid["label_size"]), float(grid["number_size"])
    _label(
        canvas,
        "Package War! score pad",
        g.title.x,
        g.title.y + 3.0,
        BOLD,
        float(data["title"]["size"]),
        where="pad title",
        anchor=Anchor.LEFT,
        max_width_mm=g.title.width * 0.55,
    )
    _label(
        canvas,
        f"{WIN_SCORE} wins",
        g.title.right,
        g.title.y + 7.0,
        BOLD,
        10.0,
        where="pad thresholds",
        anchor=Anchor.RIGHT,
        color=ALERT,
    )
    _label(
        canvas,
        f"{LOSE_SCORE} or below loses",
        g.title.right,
        g.title.y + 2.0,
        BOLD,
        10.0,
        where="pad thresholds",
        anchor=Anchor.RIGHT,
        color=ALERT,
    )
    bottom = g.rows[-1].y
    for seat in range(2):
        name = g.names[seat]
        _label(
            canvas,
            "Player:",
            name.x + 1.0,
            name.y + 3.0,
            BOLD,
            9.0,
            where="pad name",
            anchor=Anchor.LEFT,
        )
        line = g.name_lines[seat]
        _write_in_line(canvas, line.x, line.y, line.right)
        for index, head in enumerate(g.headers[seat]):
            total = index == 2
            _rect(canvas, head, width=0.8, fill=LIGHT if not total else None)
            title, note = COLUMN_HEADS[index]
            cx = head.centre[0]
            _label(
                canvas,
                title,
                cx,
                head.top - 5.0,
                BOLD,
                label_size,
                where="pad column head",
                max_width_mm=head.width - 2,
            )
            if total:
                # The thresholds where the eye is when it writes a total.
                _label(
                    canvas,
                    f"{WIN_SCORE} wins",
                    cx,
                    head.y + 6.0,
                    BOLD,
                    float(grid["threshold_size"]),
                    where="pad total threshold",
                    color=ALERT,
                    max_width_mm=head.width - 2,
                )
                _label(
                    canvas,
                    f"\u2264 {LOSE_SCORE} loses",
                    cx,
                    head.y + 2.2,
                    BOLD,
                    float(grid["threshold_size"]),
                    where="pad total threshold",
                    color=ALERT,
                    max_width_mm=head.width - 2,
                )
            elif note:
                _label(
                    canvas,
                    note,
                    cx,
                    head.y + 3.0,
                    COND,
                    label_size - 1.0,
                    where="pad column note",
                    color=GREY,
                    max_width_mm=head.width - 2,
                )
        xs = g.column_x[seat]
        width = g.column_width
        # The starting 5, printed; the other cells of the start row are closed.
        start = g.start_row
        for index, x in enumerate(xs):
            cell = Rect(x, start.y, width, start.height)
            _rect(canvas, cell, width=0.8, fill=LIGHT if index < 2 else None)
        _label(
            canvas,
            str(START_SCORE),
            xs[2] + width / 2,
            start.y + 2.3,
            BOLD,
            number_size,
            where="pad starting score",
        )
        for row in g.rows:
            for x in xs:
                _write_in_box(canvas, Rect(x, row.y, width, row.height))
        # A heavy frame around the totals column.
        _rect(canvas, Rect(xs[2], bottom, width, g.headers[seat][2].top - bottom), width=1.6)
    # The round numbers.
    rc = g.round_column
    head = Rect(rc.x, g.headers[0][0].y, rc.width, g.headers[0][0].height)
    _rect(canvas, head, width=0.8, fill=LIGHT)
    _label(
        canvas,
        "round",
        head.centre[0],
        head.top - 5.0,
        BOLD,
        label_size,
        where="pad round head",
        max_width_mm=head.width - 1,
    )
    start = g.start_row
    _rect(canvas, Rect(rc.x, start.y, rc.width, start.height), width=0.8)
    _label(
        canvas,
        "start",
        rc.x + rc.width / 2,
        start.y + 2.6,
        COND_BOLD,
        label_size,
        where="pad start label",
        max_width_mm=rc.width - 1,
    )
    for number, row in enumerate(g.rows, start=1):
        _write_in_box(canvas, Rect(rc.x, row.y, rc.width, row.height))
        _label(
            canvas,
            str(number),
            rc.x + rc.width / 2,
            row.y + 2.5,
            COND,
            label_size + 1,
            where="pad round number",
        )
    for rect, sections, where in (
        (g.reminders[0], (("A round", a_round),), "pad round reminder"),
        (g.reminders[1], (("Scoring, at the end of each distribution", scoring),), "pad scoring"),
    ):
        _reminder(canvas, rect, sections, rem, where)
    scale_bar(canvas, mm(g.scale.x), mm(g.scale.top - 2.5), float(data["scale"]["length"]))
    sheet_footer(
        canvas,
        mm(g.scale.right),
        mm(g.scale.top - 6.0),
        GAME,
        "score pad",
        credit=CREDIT,
        anchor=Anchor.RIGHT,
        max_width=mm(g.scale.width - float(data["scale"]["length"]) - 35),
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
