"""Writing PDFs: reproducible bytes, print settings and metadata (files are written by
printgen.files.write_atomic)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from printgen import __version__
from printgen.render.fonts import register_fonts
from printgen.render.units import PageSize, Rect, mm


@dataclass(frozen=True)
class PdfMeta:
    title: str
    subject: str
    author: str = "printgen"

    @property
    def creator(self) -> str:
        return f"printgen {__version__}"


def new_canvas(buffer: io.BytesIO, page: PageSize, meta: PdfMeta) -> Canvas:
    """A canvas in invariant mode (same inputs, same bytes) with printgen's print settings."""
    register_fonts()
    canvas = Canvas(buffer, pagesize=page.points, invariant=1, pageCompression=1)
    apply_document_settings(canvas, meta)
    return canvas


def apply_document_settings(canvas: Canvas, meta: PdfMeta) -> None:
    canvas.setTitle(meta.title)
    canvas.setSubject(meta.subject)
    canvas.setAuthor(meta.author)
    canvas.setCreator(meta.creator)
    # Sizes are exact in millimetres only at 100 %: ask viewers not to shrink to fit.
    canvas.setViewerPreference("PrintScaling", "None")
    set_page_boxes(canvas)


def set_page_boxes(canvas: Canvas, trim: Rect | None = None, bleed_mm: float = 0.0) -> None:
    """The page boxes a print shop reads, for the page being drawn and the pages after it.

    TrimBox is the finished piece after cutting: the whole sheet, unless `trim` (page mm) says
    otherwise, as on a sheet of cards cut from it. BleedBox is the trim grown by `bleed_mm`: the
    ink that runs past the cut so a miscut shows no white edge. Without bleed there is none."""
    width, height = canvas._pagesize  # ReportLab keeps the page size only here
    if trim is None:
        if bleed_mm:
            raise ValueError("bleed needs a trim inside the sheet to run past")
        canvas.setTrimBox((0, 0, width, height))
        canvas.setBleedBox(None)
        return
    bleed = Rect(
        trim.x - bleed_mm, trim.y - bleed_mm, trim.width + 2 * bleed_mm, trim.height + 2 * bleed_mm
    )
    if (
        bleed.x < 0
        or bleed.y < 0
        or mm(bleed.right) > width + 1e-6
        or mm(bleed.top) > height + 1e-6
    ):
        raise ValueError(f"trim {trim} with {bleed_mm:g} mm of bleed reaches past the page")
    canvas.setTrimBox(_points(trim))
    canvas.setBleedBox(_points(bleed) if bleed_mm > 0 else None)


def _points(rect: Rect) -> tuple[float, float, float, float]:
    return (mm(rect.x), mm(rect.y), mm(rect.right), mm(rect.top))
