"""Writing PDFs: reproducible bytes, print settings, metadata, and atomic files."""

from __future__ import annotations

import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

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


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename: never a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file private (0600); a built file should read like any other.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))
