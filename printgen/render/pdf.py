"""Writing PDFs: reproducible bytes, print settings and metadata (files are written by
printgen.files.write_atomic)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from printgen import __version__
from printgen.render.fonts import register_fonts
from printgen.render.units import PageSize


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
