"""The score pad and the play mat.

Geometry comes from `layouts/package-war/{pad,mat}.toml`; the reminders printed on both come
from the rules-text source `seeds/package-war.md` (its `## Reminder: stacking` and
`## Reminder: scoring` sections), so the rules are written once. `pad_geometry()` and
`mat_geometry()` give every element's box in page millimetres: the drawing uses them,
and so do the tests that read the PDF back."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
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
from printgen.games.package_war.engine import LINE_LENGTH, LOSE_SCORE, START_SCORE, WIN_SCORE
from printgen.materials import BuildOptions, Progress
from printgen.paths import SEEDS_DIR
from printgen.render.fonts import BODY, BOLD
from printgen.render.fonts import COND as COND_FACE
from printgen.render.fonts import COND_BOLD as COND_BOLD_FACE
from printgen.render.marks import scale_bar
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.text import Anchor, draw_in_box, draw_text, paragraph
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
    join: Rect  # where the title and the 'new packages join' arrow stand
    tables: tuple[tuple[Rect, Rect], tuple[Rect, Rect]]  # per player: table 1, table 2
    stacking: tuple[Rect, Rect]  # per player
    scoring: tuple[Rect, Rect]

    def named(self) -> dict[str, Rect]:
        rects = {f"space {i}": r for i, r in enumerate(self.spaces, start=1)}
        rects["pool"] = self.pool
        rects["join"] = self.join
        for seat, who in enumerate(("near", "far")):
            for number, table in enumerate(self.tables[seat], start=1):
                rects[f"{who} table {number}"] = table
            rects[f"{who} stacking"] = self.stacking[seat]
            rects[f"{who} scoring"] = self.scoring[seat]
        return rects


def mat_geometry(paper: Paper) -> MatGeometry:
    data = load_layout("mat")
    page = paper.size.landscape()

    def size(table: str, key: str) -> float:
        return _size(data, table, key)

    cx, cy = page.width_mm / 2, page.height_mm / 2
    count = int(size("line", "spaces"))
    if count != LINE_LENGTH:
        raise LayoutError(f"the mat's line has {count} spaces but the rules say {LINE_LENGTH}")
    space, gap = size("line", "space"), size("line", "gap")
    line_width = count * space + (count - 1) * gap
    left = cx - line_width / 2
    spaces = tuple(
        Rect(left + i * (space + gap), cy - space / 2, space, space) for i in range(count)
    )
    pool_w, pool_h = size("pool", "width"), size("pool", "height")
    pool = Rect(left - size("pool", "gap") - pool_w, cy - pool_h / 2, pool_w, pool_h)
    join_x = spaces[-1].right + size("join", "gap")
    join = Rect(join_x, cy - pool_h / 2, page.width_mm - SAFE_MARGIN_MM - join_x, pool_h)

    margin = SAFE_MARGIN_MM
    band = size("band", "height")
    table_size, table_gap = size("tables", "size"), size("tables", "gap")
    rise = size("tables", "rise")
    near_tables = (
        Rect(cx - table_gap / 2 - table_size, margin + rise, table_size, table_size),
        Rect(cx + table_gap / 2, margin + rise, table_size, table_size),
    )
    rem_w, rem_h = size("reminders", "width"), size("reminders", "height")
    rem_y = margin + size("reminders", "rise")
    near_stacking = Rect(margin, rem_y, rem_w, rem_h)
    near_scoring = Rect(page.width_mm - margin - rem_w, rem_y, rem_w, rem_h)
    for rect in (*near_tables, near_stacking, near_scoring):
        if rect.top > margin + band + 1e-6:
            raise LayoutError(f"Package War! mat: {rect} rises above its {band:g} mm band")
    geometry = MatGeometry(
        page=page,
        spaces=spaces,
        pool=pool,
        join=join,
        # The far player's side is the near one turned about the page centre.
        tables=(near_tables, (near_tables[0].turned(page), near_tables[1].turned(page))),
        stacking=(near_stacking, near_stacking.turned(page)),
        scoring=(near_scoring, near_scoring.turned(page)),
    )
    rects = geometry.named()
    _check_inside(page, rects, "mat", paper)
    _check_apart(rects, "mat", paper)
    return geometry


@dataclass(frozen=True)
class PadGeometry:
    page: PageSize
    title: Rect
    names: tuple[Rect, Rect]
    round_column: Rect  # header and all rows
    headers: tuple[tuple[Rect, Rect, Rect], tuple[Rect, Rect, Rect]]  # stacks, crushed, total
    start_row: Rect
    rows: tuple[Rect, ...]  # one per round, full width
    column_x: tuple[tuple[float, float, float], tuple[float, float, float]]  # left edges
    column_width: float
    reminder: Rect
    scale: Rect

    def named(self) -> dict[str, Rect]:
        rects = {"title": self.title, "reminder": self.reminder, "scale": self.scale}
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
    start_row = Rect(left, header_y - row_h, width, row_h)
    scale = Rect(left, margin, width, size("scale", "height"))
    reminder_h = size("reminder", "height")
    reminder = Rect(left, scale.top + 1.0, width, reminder_h)
    floor = reminder.top + size("reminder", "gap")
    count = int((start_row.y - floor) // row_h)
    if count < 10:
        raise LayoutError(f"Package War! pad on {paper.label}: room for {count} rounds only")
    rows = tuple(Rect(left, start_row.y - (i + 1) * row_h, width, row_h) for i in range(count))
    geometry = PadGeometry(
        page=page,
        title=title,
        names=(names[0], names[1]),
        round_column=Rect(left, rows[-1].y, round_w, header_y + header_h - rows[-1].y),
        headers=(headers[0], headers[1]),
        start_row=start_row,
        rows=rows,
        column_x=(column_x[0], column_x[1]),
        column_width=col_w,
        reminder=reminder,
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


def _reminder(
    canvas: Canvas,
    rect: Rect,
    title: str,
    lines: tuple[str, ...],
    *,
    padding: float,
    title_size: float,
    body_size: float,
    where: str,
) -> None:
    """A boxed reminder: a bold title, then one bullet per line of the rules source."""
    _rect(canvas, rect, width=0.7, radius=2.0)
    style = ParagraphStyle(
        "reminder",
        fontName=BODY,
        bulletFontName=BODY,  # ReportLab's default bullet font is the unembedded Helvetica
        fontSize=body_size,
        leading=body_size * 1.22,
        leftIndent=mm(2.6),
        bulletIndent=0,
        spaceAfter=body_size * 0.28,
    )
    title_style = ParagraphStyle(
        "reminder title",
        fontName=BOLD,
        fontSize=title_size,
        leading=title_size * 1.25,
        spaceAfter=title_size * 0.35,
    )
    from reportlab.platypus.flowables import Flowable

    flows: list[Flowable] = [paragraph(title, title_style, f"{where} title")]
    for number, line in enumerate(lines, start=1):
        flows.append(paragraph(f"<bullet>\u2022</bullet>{line}", style, f"{where} line {number}"))
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
            gaps = sum(f.getSpaceAfter() for f in flows[:-1])
            self.width = avail_w
            self.height = sum(h for _, h in self._sizes) + gaps
            return (avail_w, self.height)

        def draw(self) -> None:
            y = self.height
            for flow, (_, height) in zip(flows, self._sizes, strict=True):
                y -= height
                flow.drawOn(self.canv, 0, y)
                y -= flow.getSpaceAfter()

    draw_in_box(canvas, Column(), rect.box(), where)


# -- the mat ------------------------------------------------------------------------------------


def build_mat(options: BuildOptions, progress: Progress | None = None) -> bytes:
    geometry = mat_geometry(options.paper)
    data = load_layout("mat")
    reminders = load_reminders(options.rules or RULES_SOURCE)
    stacking, scoring = reminders.topic("stacking"), reminders.topic("scoring")
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
        _draw_tables(canvas, geometry, data, seat)
        for rect, title, lines in (
            (geometry.stacking[seat], "Stacking", stacking),
            (geometry.scoring[seat], "Scoring", scoring),
        ):
            where = f"mat {'far' if turned else 'near'} {title.lower()} reminder"
            canvas.saveState()
            if turned:
                # Draw the far player's reminder the near way round, turned about its centre.
                cx, cy = rect.centre
                canvas.translate(mm(cx), mm(cy))
                canvas.rotate(180)
                canvas.translate(-mm(cx), -mm(cy))
            _reminder(
                canvas,
                rect,
                title,
                lines,
                padding=float(rem["padding"]),
                title_size=float(rem["title_size"]),
                body_size=float(rem["body_size"]),
                where=where,
            )
            canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_centre(canvas: Canvas, g: MatGeometry, data: Mapping[str, Any]) -> None:
    line, pool, join = data["line"], data["pool"], data["join"]
    label_size, label_gap = float(line["label_size"]), float(line["label_gap"])
    for number, space in enumerate(g.spaces, start=1):
        _rect(canvas, space, width=1.2, radius=2.5)
        cx, cy = space.centre
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
    below = first.y - label_gap - label_size * 0.3528
    above = first.top + label_gap
    text = "THE LINE: five packages at most; a sixth pushes the oldest out"
    _label(canvas, text, line_cx, below, BOLD, label_size, where="mat line label")
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
    # The pool, with the oldest package's way out of the line into it.
    _rect(canvas, g.pool, width=1.0, fill=LIGHT, radius=4.0, dash=(2.5, 1.5))
    pcx, pcy = g.pool.centre
    title_size, note_size = float(pool["title_size"]), float(pool["note_size"])
    for upside_down, sign in ((False, -1.0), (True, 1.0)):
        _label(
            canvas,
            "PACKAGE POOL",
            pcx,
            pcy + sign * 5.0 - (title_size * 0.3528 / 2) * -sign,
            COND_BOLD,
            title_size,
            where="mat pool title",
            upside_down=upside_down,
            max_width_mm=g.pool.width - 4,
        )
        _label(
            canvas,
            "crushed packages and sixes",
            pcx,
            pcy + sign * 13.0,
            COND,
            note_size,
            where="mat pool note",
            upside_down=upside_down,
            max_width_mm=g.pool.width - 4,
        )
        _label(
            canvas,
            "come back here",
            pcx,
            pcy + sign * 17.0 + sign * 0.3,
            COND,
            note_size,
            where="mat pool note",
            upside_down=upside_down,
            max_width_mm=g.pool.width - 4,
        )
    _arrow(canvas, first.x - 2.0, first.centre[1], g.pool.right + 1.5)
    mid = (g.pool.right + first.x) / 2
    _label(canvas, "oldest out", mid, first.centre[1] - 5.5, COND, 7.0, where="mat way out label")
    _label(
        canvas,
        "oldest out",
        mid,
        first.centre[1] + 5.5,
        COND,
        7.0,
        where="mat way out label (far)",
        upside_down=True,
    )
    # Where new packages come in, and the title.
    arrow_len = float(join["arrow"])
    ay = last.centre[1]
    _arrow(canvas, last.right + 2.0 + arrow_len, ay, last.right + 1.5)
    _label(
        canvas,
        "new in",
        last.right + 2.0 + arrow_len / 2,
        ay - 5.5,
        COND,
        7.0,
        where="mat join label",
    )
    _label(
        canvas,
        "new in",
        last.right + 2.0 + arrow_len / 2,
        ay + 5.5,
        COND,
        7.0,
        where="mat join label (far)",
        upside_down=True,
    )
    title_x = last.right + 4.0 + arrow_len + (g.join.right - (last.right + 4.0 + arrow_len)) / 2
    room = g.join.right - (last.right + 4.0 + arrow_len) - 2.0
    size = float(join["title_size"])
    _label(
        canvas,
        "Package War!",
        title_x,
        g.join.y + 4.0,
        BOLD,
        size,
        where="mat title",
        max_width_mm=room,
        anchor=Anchor.CENTRE,
    )
    _label(
        canvas,
        "Package War!",
        title_x,
        g.join.top - 4.0,
        BOLD,
        size,
        where="mat title (far)",
        upside_down=True,
        max_width_mm=room,
    )
    _label(
        canvas,
        "a 6 starts the distribution",
        title_x,
        ay - 7.0,
        COND,
        7.5,
        where="mat six note",
        max_width_mm=room,
    )
    _label(
        canvas,
        "a 6 starts the distribution",
        title_x,
        ay + 7.0,
        COND,
        7.5,
        where="mat six note (far)",
        upside_down=True,
        max_width_mm=room,
    )


def _draw_tables(canvas: Canvas, g: MatGeometry, data: Mapping[str, Any], seat: int) -> None:
    tables = data["tables"]
    label_size, name_size = float(tables["label_size"]), float(tables["name_size"])
    turned = seat == 1
    who = "far" if turned else "near"
    for number, rect in enumerate(g.tables[seat], start=1):
        _rect(canvas, rect, width=1.4, radius=3.0)
        cx, _ = rect.centre
        # Labels sit at the table's edge nearest its owner.
        y = rect.y + 3.0 if not turned else rect.top - 3.0
        _label(
            canvas,
            f"TABLE {number}",
            cx,
            y,
            BOLD,
            label_size,
            where=f"mat {who} table {number}",
            upside_down=turned,
        )
        hint_y = rect.top - 5.0 if not turned else rect.y + 5.0
        _label(
            canvas,
            "lighter on heavier",
            cx,
            hint_y,
            COND,
            6.5,
            where=f"mat {who} table hint",
            upside_down=turned,
            color=GREY,
        )
    left, right = g.tables[seat]
    span_x = (min(left.x, right.x) + max(left.right, right.right)) / 2
    name_y = (left.y - 5.0) if not turned else (left.top + 5.0)
    _label(
        canvas,
        "Player: ________________________",
        span_x,
        name_y,
        BODY,
        name_size,
        where=f"mat {who} name line",
        upside_down=turned,
    )


# -- the pad ------------------------------------------------------------------------------------

COLUMN_HEADS = (("+ stacks", "stack points"), ("\u2212 crushed", "packages"), ("= total", ""))


def build_pad(options: BuildOptions, progress: Progress | None = None) -> bytes:
    g = pad_geometry(options.paper)
    data = load_layout("pad")
    grid, rem = data["grid"], data["reminder"]
    scoring = load_reminders(options.rules or RULES_SOURCE).topic("scoring")
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
        canvas.setLineWidth(0.5)
        canvas.line(mm(name.x + 15.0), mm(name.y + 2.5), mm(name.right - 1.0), mm(name.y + 2.5))
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
                _rect(canvas, Rect(x, row.y, width, row.height), width=0.5)
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
        _rect(canvas, Rect(rc.x, row.y, rc.width, row.height), width=0.5)
        _label(
            canvas,
            str(number),
            rc.x + rc.width / 2,
            row.y + 2.5,
            COND,
            label_size + 1,
            where="pad round number",
        )
    _reminder(
        canvas,
        g.reminder,
        "Scoring, at the end of each distribution phase",
        scoring,
        padding=float(rem["padding"]),
        title_size=float(rem["title_size"]),
        body_size=float(rem["body_size"]),
        where="pad scoring reminder",
    )
    scale_bar(canvas, mm(g.scale.x), mm(g.scale.top - 2.5), float(data["scale"]["length"]))
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
