"""Text that knows its box: checked against the font, fitted, and an error when it cannot fit."""

from __future__ import annotations

import re
from enum import Enum
from html import unescape

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printgen.errors import FitError
from printgen.render.fonts import (
    bold_of,
    check_glyphs,
    fallback_runs,
    register_fonts,
    use_face,
)
from printgen.render.platypus import Flowable, Paragraph
from printgen.render.units import Box, to_mm


class Anchor(Enum):
    LEFT = "left"
    CENTRE = "centre"
    RIGHT = "right"


def text_width(text: str, font: str, size: float) -> float:
    register_fonts()
    use_face(font)
    return float(stringWidth(text, font, size))


def fit_size(
    text: str, font: str, size: float, max_width: float, where: str, min_size: float | None = None
) -> float:
    """The largest size from `size` down to `min_size` at which `text` fits `max_width` points.

    Raises FitError (naming `where`) when even `min_size` is too wide."""
    return _fit_runs([(text, font)], size, max_width, where, min_size)


def _runs_width(runs: list[tuple[str, str]], size: float) -> float:
    return sum(text_width(run, face, size) for run, face in runs)


def _fit_runs(
    runs: list[tuple[str, str]], size: float, max_width: float, where: str, min_size: float | None
) -> float:
    floor = size if min_size is None else min_size
    current = size
    while current >= floor - 1e-9:
        if _runs_width(runs, current) <= max_width + 1e-6:
            return current
        current -= 0.25
    text = "".join(run for run, _ in runs)
    raise FitError(
        f"{where}: {text!r} is {to_mm(_runs_width(runs, floor)):.1f} mm wide at {floor:g} pt "
        f"but its box is {to_mm(max_width):.1f} mm"
    )


def draw_text(
    canvas: Canvas,
    text: str,
    x: float,
    y: float,
    font: str,
    size: float,
    *,
    where: str,
    anchor: Anchor = Anchor.LEFT,
    max_width: float | None = None,
    min_size: float | None = None,
    fallback: str | None = None,
) -> float:
    """Draw one line of text, checked for glyphs and, given `max_width`, for fit.

    With `fallback`, the characters `font` lacks are set in that face at the same size (kana
    beside Latin), and the line is fitted and anchored as a whole.
    Returns the size used (shrunk towards `min_size` if that is what it takes to fit)."""
    runs = fallback_runs(text, font, fallback) if fallback is not None else [(text, font)]
    for run, face in runs:
        check_glyphs(run, face, where)
    if max_width is not None:
        size = _fit_runs(runs, size, max_width, where, min_size)
    if len(runs) > 1:
        width = _runs_width(runs, size)
        left = {Anchor.LEFT: x, Anchor.CENTRE: x - width / 2, Anchor.RIGHT: x - width}[anchor]
        for run, face in runs:
            canvas.setFont(face, size)
            canvas.drawString(left, y, run)
            left += text_width(run, face, size)
        return size
    canvas.setFont(font, size)
    if anchor is Anchor.LEFT:
        canvas.drawString(x, y, text)
    elif anchor is Anchor.CENTRE:
        canvas.drawCentredString(x, y, text)
    else:
        canvas.drawRightString(x, y, text)
    return size


_TAG = re.compile(r"<[^>]+>")


def plain_text(markup: str) -> str:
    """The characters a paragraph's markup prints (tags dropped, entities decoded)."""
    return unescape(_TAG.sub("", markup))


def paragraph(
    markup: str, style: ParagraphStyle, where: str, bullet: str | None = None
) -> Paragraph:
    """A ReportLab paragraph whose characters are each checked against the face that draws them
    (the style's font, its bold for <b>, or a <font face="..."> run)."""
    register_fonts()
    if bullet is not None:
        check_glyphs(bullet, style.bulletFontName, where)
    for text, face in _face_runs(markup, style.fontName):
        check_glyphs(text, face, where)
    return Paragraph(markup, style, bulletText=bullet)


_MARKUP = re.compile(r"<(/?)(\w+)([^>]*)>|([^<]+)")
_FACE = re.compile(r"""(?:face|name)\s*=\s*["']([^"']+)["']""")


def _face_runs(markup: str, font: str) -> list[tuple[str, str]]:
    faces: list[str | None] = []
    bold = 0
    runs = []
    for match in _MARKUP.finditer(markup):
        closing, tag, attributes, text = match.groups()
        if text is not None:
            face = next((f for f in reversed(faces) if f), None)
            runs.append((unescape(text), face or (bold_of(font) if bold else font)))
        elif tag == "b":
            bold += -1 if closing else 1
        elif tag == "font":
            if closing:
                faces.pop()
            else:
                found = _FACE.search(attributes)
                faces.append(found.group(1) if found else None)
    return runs


def draw_in_box(canvas: Canvas, flowable: Flowable, box: Box, where: str) -> None:
    """Draw a flowable at the top of `box`; FitError if it is taller or wider than the box."""
    width, height = flowable.wrapOn(canvas, box.width, box.height)
    if height > box.height + 1e-6 or width > box.width + 1e-6:
        raise FitError(
            f"{where}: the text needs {to_mm(height):.1f} mm x {to_mm(width):.1f} mm "
            f"but its box is {to_mm(box.height):.1f} mm tall x {to_mm(box.width):.1f} mm wide "
            f"({to_mm(height - box.height):.1f} mm did not fit)"
        )
    flowable.drawOn(canvas, box.x, box.y + box.height - height)


def hanging_indent(bullet: str, font: str, size: float, bullet_indent: float = 0.0) -> float:
    """The leftIndent (points) at which a bulleted paragraph's wrapped lines start exactly where
    its first line's text does. ReportLab pushes the first line past the bullet when the bullet,
    and the gap of 0.6 x its size that it adds, overrun leftIndent; the other lines stay put."""
    return bullet_indent + text_width(bullet, font, size) + 0.6 * size
