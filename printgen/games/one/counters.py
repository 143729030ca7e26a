"""ONE's counter sheet: stones to cut out for players without enough of their own.

Six colours, each with its own pattern and letter, so that colour-blind players and a
black-and-white printer tell them apart; as many counters per colour as the most stones a player
can have; each as wide as the largest counter that fits every board printgen prints, so one sheet
serves them all. The colour runs a little past each round cut line, so a cut slightly wide of it
shows no white."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab.lib.colors import Color, black, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas

from printgen.errors import LayoutError
from printgen.games import material_named
from printgen.games.one.layout import CounterColour, OneLayout, Pattern, load_layout
from printgen.games.one.materials import footer_line, single_board, tiled_board
from printgen.materials import BuildOptions, Progress
from printgen.render.fonts import BODY, BOLD
from printgen.render.marks import scale_bar
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.text import Anchor, Box, draw_in_box, draw_text, paragraph
from printgen.render.units import SAFE_MARGIN_MM, PageSize, Paper, mm

TITLE_BLOCK_MM = 30.0  # title and instructions
HEADING_MM = 5.0  # a colour's name above its counters
FOOT_MM = 10.0  # scale bar and footer
CUT_LINE_MM = 0.3
PT_MM = 25.4 / 72.0


def counter_diameter(layout: OneLayout) -> int:
    """The largest counter (whole mm) that fits every board printgen prints for this layout:
    the one-sheet boards on each paper and the two-sheet boards."""
    sizes = [single_board(layout, paper)[1].largest_counter() for paper in _papers("one-board")]
    sizes += [
        tiled_board(layout, paper)[0].geometry.largest_counter()
        for paper in _papers("one-board-tiled")
    ]
    return min(sizes)


def _papers(material: str) -> tuple[Paper, ...]:
    found = material_named(material)
    if found is None:
        raise LayoutError(f"no material {material!r} in printgen's registry")
    return found.papers


@dataclass(frozen=True)
class Counter:
    colour: CounterColour
    x: float  # centre, page mm
    y: float


@dataclass(frozen=True)
class Heading:
    colour: CounterColour
    x: float  # left end of the baseline, page mm
    y: float


@dataclass(frozen=True)
class CounterSheetPlan:
    """Where everything on the counter sheet goes: one definition for drawing and for tests."""

    page: PageSize
    diameter: float
    pitch: float
    per_colour: int
    counters: tuple[Counter, ...]
    headings: tuple[Heading, ...]


def plan_counter_sheet(layout: OneLayout, paper: Paper) -> CounterSheetPlan:
    """Each colour's counters in rows under its name, centred across the page."""
    spec = layout.counter_sheet
    page = paper.size.portrait()
    diameter = float(counter_diameter(layout))
    pitch = diameter + 2 * spec.bleed + spec.gap
    per_colour = layout.most_stones
    usable = page.width_mm - 2 * SAFE_MARGIN_MM
    columns = min(per_colour, math.floor((usable + spec.gap) / pitch))
    rows = math.ceil(per_colour / columns)
    block = HEADING_MM + rows * pitch
    top = page.height_mm - SAFE_MARGIN_MM - TITLE_BLOCK_MM
    room = top - SAFE_MARGIN_MM - FOOT_MM
    if block * len(spec.colours) > room:
        raise LayoutError(
            f"{len(spec.colours)} colours of {per_colour} counters {diameter:g} mm across need "
            f"{block * len(spec.colours):.0f} mm of the page's height; {paper.label} has "
            f"{room:.0f} mm"
        )
    grid_width = columns * pitch - spec.gap
    left = (page.width_mm - grid_width) / 2 + pitch / 2 - spec.gap / 2
    counters: list[Counter] = []
    headings: list[Heading] = []
    # The spare height is shared out between the colour blocks, so the sheet is evenly filled.
    spread = (room - block * len(spec.colours)) / len(spec.colours)
    y = top
    for colour in spec.colours:
        headings.append(Heading(colour, left - pitch / 2 + spec.gap / 2, y - HEADING_MM + 1.5))
        row_top = y - HEADING_MM
        for index in range(per_colour):
            row, column = divmod(index, columns)
            cy = row_top - row * pitch - pitch / 2
            counters.append(Counter(colour, left + column * pitch, cy))
        y -= block + spread
    return CounterSheetPlan(page, diameter, pitch, per_colour, tuple(counters), tuple(headings))


# ---------------------------------------------------------------------------------------------
# Drawing


def _overlay(rgb: tuple[float, float, float]) -> Color:
    """White marks on a dark colour, near-black marks on a light one."""
    luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    return white if luminance < 0.5 else Color(0.12, 0.12, 0.12)


def _pattern(canvas: Canvas, colour: CounterColour, x: float, y: float, r: float) -> None:
    """The colour's pattern over the whole coloured disc (radius `r`, page mm), clipped to it."""
    pattern = colour.pattern
    if pattern is Pattern.PLAIN:
        return
    mark = _overlay(colour.rgb)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.circle(mm(x), mm(y), mm(r))
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setStrokeColor(mark)
    canvas.setFillColor(mark)
    if pattern is Pattern.RING:
        canvas.setLineWidth(mm(r * 0.12))
        canvas.circle(mm(x), mm(y), mm(r * 0.58), stroke=1, fill=0)
    elif pattern in (Pattern.STRIPES, Pattern.GRID):
        step = r * (0.32 if pattern is Pattern.STRIPES else 0.38)
        canvas.setLineWidth(mm(r * (0.12 if pattern is Pattern.STRIPES else 0.08)))
        count = math.ceil(r / step) + 1
        for k in range(-count, count + 1):
            offset = k * step
            # Diagonal, so no edge of the sheet lines up with them.
            canvas.line(
                mm(x - r + offset), mm(y - r - offset), mm(x + r + offset), mm(y + r - offset)
            )
            if pattern is Pattern.GRID:
                canvas.line(
                    mm(x - r + offset), mm(y + r + offset), mm(x + r + offset), mm(y - r + offset)
                )
    elif pattern is Pattern.DOTS:
        step, dot = r * 0.36, r * 0.075
        count = math.ceil(r / step) + 1
        for i in range(-count, count + 1):
            for j in range(-count, count + 1):
                # Every other row shifted half a step: an even scatter of dots.
                dx = (i + (j % 2) / 2) * step
                dy = j * step * 0.87
                if math.hypot(dx, dy) < r + dot:  # the clip hides the rest: skip them
                    canvas.circle(mm(x + dx), mm(y + dy), mm(dot), stroke=0, fill=1)
    elif pattern is Pattern.QUARTERS:
        # Half-tone quarters: solid ones would hide half the colour.
        canvas.setFillColor(
            Color(*((c + m) / 2 for c, m in zip(colour.rgb, mark.rgb(), strict=True)))
        )
        for start in (0, 180):
            wedge = canvas.beginPath()
            wedge.moveTo(mm(x), mm(y))
            wedge.arcTo(mm(x - r), mm(y - r), mm(x + r), mm(y + r), start + 45, 90)
            wedge.close()
            canvas.drawPath(wedge, stroke=0, fill=1)
    canvas.restoreState()


def draw_counter(
    canvas: Canvas, counter: Counter, diameter: float, bleed: float, size: float
) -> None:
    """One counter: its colour (past the cut by `bleed`), its pattern, its letter on a white
    spot, and the round cut line."""
    colour = counter.colour
    x, y = counter.x, counter.y
    r = diameter / 2
    fill = Color(*colour.rgb)
    canvas.saveState()
    canvas.setFillColor(fill)
    canvas.circle(mm(x), mm(y), mm(r + bleed), stroke=0, fill=1)
    _pattern(canvas, colour, x, y, r + bleed)
    spot = size * PT_MM * 0.62
    canvas.setFillColor(white)
    canvas.setStrokeColor(black)
    canvas.setLineWidth(mm(0.2))
    canvas.circle(mm(x), mm(y), mm(spot), stroke=1, fill=1)
    canvas.setFillColor(black)
    cap = size * 0.73 * PT_MM
    draw_text(
        canvas,
        colour.letter,
        mm(x),
        mm(y - cap / 2),
        BOLD,
        size,
        where=f"{colour.name} counter letter",
        anchor=Anchor.CENTRE,
        max_width=mm(spot * 1.7),
    )
    canvas.setStrokeColor(black)
    canvas.setLineWidth(mm(CUT_LINE_MM))
    canvas.circle(mm(x), mm(y), mm(r), stroke=1, fill=0)
    canvas.restoreState()


def _instructions(layout: OneLayout, plan: CounterSheetPlan) -> str:
    bleed = layout.counter_sheet.bleed
    return (
        f"{plan.per_colour} counters in each colour, the most stones one player can have. Each "
        f"is {plan.diameter:g} mm across, so it fits every ONE board printgen prints (one "
        "sheet on A4, Letter or A3, or the two-sheet board). Cut along each black circle: the "
        f"colour runs {bleed:g} mm past it, so a cut a little wide shows no white. Every colour "
        "has its own pattern and letter as well, for colour-blind players and black-and-white "
        "printers. Print on thin card, or glue the sheet to card before cutting."
    )


def render_counter_sheet(layout: OneLayout, paper: Paper) -> bytes:
    plan = plan_counter_sheet(layout, paper)
    page = plan.page
    spec = layout.counter_sheet
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        page,
        PdfMeta(title="ONE counters", subject=f"ONE counters to cut out, on {paper.label}"),
    )
    top = page.height_mm - SAFE_MARGIN_MM
    width = page.width_mm - 2 * SAFE_MARGIN_MM
    draw_text(
        canvas,
        "ONE \u2013 counters",
        mm(page.width_mm / 2),
        mm(top - 6.5),
        BOLD,
        18.0,
        where="counter sheet title",
        anchor=Anchor.CENTRE,
    )
    style = ParagraphStyle("one-counters", fontName=BODY, fontSize=8.0, leading=10.0)
    box = Box(
        mm(SAFE_MARGIN_MM), mm(top - TITLE_BLOCK_MM + 2.0), mm(width), mm(TITLE_BLOCK_MM - 12.0)
    )
    draw_in_box(
        canvas, paragraph(_instructions(layout, plan), style, "counter sheet"), box, "counter sheet"
    )
    for heading in plan.headings:
        colour = heading.colour
        draw_text(
            canvas,
            f"{colour.name} \u00b7 {colour.letter} \u00b7 {colour.pattern.value}",
            mm(heading.x),
            mm(heading.y),
            BOLD,
            7.5,
            where=f"{colour.name} heading",
        )
    for counter in plan.counters:
        draw_counter(canvas, counter, plan.diameter, spec.bleed, spec.letter_size)
    scale_bar(canvas, mm(SAFE_MARGIN_MM), mm(SAFE_MARGIN_MM + 5.0))
    footer_line(canvas, page, SAFE_MARGIN_MM + 1.5, "counter sheet")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def build_counter_sheet(options: BuildOptions, _progress: Progress | None) -> bytes:
    return render_counter_sheet(load_layout(options.layout), options.paper)
