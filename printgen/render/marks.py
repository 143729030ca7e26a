"""Marks for folding, tearing, cutting and checking the print scale."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from reportlab.lib.colors import Color, black
from reportlab.pdfgen.canvas import Canvas

from printgen.render.fonts import BODY, KANA
from printgen.render.text import Anchor, draw_text
from printgen.render.units import SAFE_MARGIN_MM, Rect, mm, to_mm

# Dark enough to see on a cheap inkjet; dashed so it reads as a mark, not as art.
MARK_GREY = Color(0.25, 0.25, 0.25)
FOLD_DASH = (mm(3.0), mm(1.5))
TEAR_DASH = (mm(1.2), mm(1.2))
CUT_DASH = (mm(2.0), mm(1.0))
MARK_WIDTH = 0.8
# Where a mark may start or end so that its whole stroke stays inside the sheet's safe margin.
# A stroke is centred on its line, so half its width lies past the line's end; a full width is
# kept because a PDF viewer's (and a checker's) bounding box pads a stroke by that much.
MARK_INSET_MM = SAFE_MARGIN_MM + to_mm(MARK_WIDTH)
SCALE_BAR_WIDTH = 0.6


def _dashed(canvas: Canvas, x1: float, y1: float, x2: float, y2: float, dash: tuple) -> None:
    canvas.saveState()
    canvas.setStrokeColor(MARK_GREY)
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setDash(list(dash), 0)
    canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def fold_line(canvas: Canvas, x1: float, y1: float, x2: float, y2: float) -> None:
    _dashed(canvas, x1, y1, x2, y2, FOLD_DASH)


def tear_line(canvas: Canvas, x1: float, y1: float, x2: float, y2: float) -> None:
    _dashed(canvas, x1, y1, x2, y2, TEAR_DASH)


def cut_line(canvas: Canvas, x1: float, y1: float, x2: float, y2: float) -> None:
    _dashed(canvas, x1, y1, x2, y2, CUT_DASH)


# Write-in lines (boxes, tick boxes, name lines, score cells) must survive a photocopier in text
# mode and a 50 % black-and-white scan: at least 0.35 mm wide and 80 % black. Lighter or
# thinner line work is for decoration only.
WRITE_IN_WIDTH = mm(0.36)
WRITE_IN_INK = Color(0.15, 0.15, 0.15)


# Crop marks: solid and black, as print shops expect, and unlike every dashed mark above.
CROP_WIDTH = 0.5
MarkSegment = tuple[float, float, float, float]


def crop_mark_segments(
    trim: Rect, xs: Sequence[float], ys: Sequence[float], *, offset: float, length: float
) -> list[MarkSegment]:
    """Where crop marks go, in page mm: for each cut at x a mark above and below `trim`, for
    each cut at y one to its left and right. Each starts `offset` mm outside the trim (clear of
    any bleed) and runs `length` mm outwards, so nothing is printed on the cut itself."""
    marks: list[MarkSegment] = []
    for x in xs:
        marks.append((x, trim.top + offset, x, trim.top + offset + length))
        marks.append((x, trim.y - offset, x, trim.y - offset - length))
    for y in ys:
        marks.append((trim.x - offset, y, trim.x - offset - length, y))
        marks.append((trim.right + offset, y, trim.right + offset + length, y))
    return marks


def crop_marks(canvas: Canvas, marks: Sequence[MarkSegment]) -> None:
    """Draw crop marks (page mm segments, from crop_mark_segments)."""
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(CROP_WIDTH)
    for x1, y1, x2, y2 in marks:
        canvas.line(mm(x1), mm(y1), mm(x2), mm(y2))
    canvas.restoreState()


class FoldDirection(Enum):
    """Which way a fold goes, seen from the face the line is printed on."""

    MOUNTAIN = "mountain"  # away from the viewer: the crease points at them, like a ridge
    VALLEY = "valley"  # towards the viewer: the paper rises on both sides of the crease

    @property
    def opposite(self) -> FoldDirection:
        return FoldDirection.VALLEY if self is FoldDirection.MOUNTAIN else FoldDirection.MOUNTAIN


# Origami's convention, which folding diagrams have taught for decades: a valley fold is dashed,
# a mountain fold dash-dot. The valley dash is FOLD_DASH, so an undirected fold reads as a valley.
MOUNTAIN_DASH = (mm(3.0), mm(1.0), mm(0.6), mm(1.0))
VALLEY_DASH = FOLD_DASH


def directed_fold_line(
    canvas: Canvas, x1: float, y1: float, x2: float, y2: float, direction: FoldDirection
) -> None:
    """A fold line drawn so its direction can be seen: dash-dot for mountain, dashed for valley."""
    dash = MOUNTAIN_DASH if direction is FoldDirection.MOUNTAIN else VALLEY_DASH
    _dashed(canvas, x1, y1, x2, y2, dash)


def scale_bar(canvas: Canvas, x: float, y: float, length_mm: float = 50.0) -> None:
    """A bar exactly `length_mm` long with end ticks and a label, to check the print scale.
    Its ink starts at `x`: the first tick's stroke, centred on its line, stands a stroke's
    width right of `x` (see MARK_INSET_MM), so a bar set at the safe margin keeps inside it."""
    length = mm(length_mm)
    label_x = x
    x += SCALE_BAR_WIDTH
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(SCALE_BAR_WIDTH)
    canvas.line(x, y, x + length, y)
    for tick_mm in range(0, int(length_mm) + 1, 10):
        tick = mm(2.5) if tick_mm in (0, int(length_mm)) else mm(1.2)
        canvas.line(x + mm(tick_mm), y, x + mm(tick_mm), y + tick)
    canvas.restoreState()
    draw_text(
        canvas,
        f"{length_mm:g} mm: measure this bar; if it is not {length_mm:g} mm, the print was scaled",
        label_x,
        y - mm(3.5),
        BODY,
        6.5,
        where="scale bar label",
        anchor=Anchor.LEFT,
    )


# The footer every printed sheet carries: which game, what the sheet is for, and which printgen
# made it, so a loose sheet found in a box (or a photo of one) says what it is.
FOOTER_SIZE = 6.0


def footer_text(game: str, purpose: str, credit: str = "") -> str:
    """The footer's words: game, purpose, the designer's credit where the rulebook names one."""
    from printgen import __version__

    parts = [game, purpose] + ([credit] if credit else []) + [f"printgen {__version__}"]
    return " · ".join(parts)


def sheet_footer(
    canvas: Canvas,
    x: float,
    y: float,
    game: str,
    purpose: str,
    *,
    credit: str = "",
    anchor: Anchor = Anchor.CENTRE,
    max_width: float | None = None,
) -> None:
    """Draw the sheet footer with its baseline at (x, y) points; FitError if it cannot fit."""
    canvas.saveState()
    canvas.setFillColor(MARK_GREY)
    draw_text(
        canvas,
        footer_text(game, purpose, credit),
        x,
        y,
        BODY,
        FOOTER_SIZE,
        where=f"{game} {purpose} footer",
        anchor=anchor,
        max_width=max_width,
        # A game named in Japanese: its name in the kana face, as the card's body sets it.
        fallback=KANA.name,
    )
    canvas.restoreState()
