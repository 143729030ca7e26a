"""Reading a built PDF back: its text with positions, its line work, its fonts, and pixels.

Tests use this to check that what was drawn is where the layout says; `make preview` uses it to
render PNGs. It reads the PDF, never printgen's own drawing state, so it checks the real output."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from pypdf import PdfReader
from pypdf.generic import ContentStream

from printgen.render.units import to_mm


@dataclass(frozen=True)
class TextRun:
    text: str
    x_mm: float  # origin of the run, from the page's left edge
    y_mm: float  # baseline, from the page's bottom edge
    font: str
    size: float
    upside_down: bool


@dataclass(frozen=True)
class Segment:
    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float
    dashed: bool
    dash_mm: tuple[float, ...] = ()  # the dash pattern, on and off lengths in millimetres


def _reader(pdf: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(pdf))


def page_count(pdf: bytes) -> int:
    return len(_reader(pdf).pages)


def page_size_mm(pdf: bytes, page: int = 0) -> tuple[float, float]:
    box = _reader(pdf).pages[page].mediabox
    return (to_mm(float(box.width)), to_mm(float(box.height)))


def text_runs(pdf: bytes, page: int = 0) -> list[TextRun]:
    runs: list[TextRun] = []

    def visit(text: str, cm: list, tm: list, font: dict | None, size: float) -> None:
        if not text.strip():
            return
        # Text space to page space: the text matrix, then the current transformation matrix.
        a, b, c, d, e, f = (float(v) for v in tm)
        ca, cb, cc, cd, ce, cf = (float(v) for v in cm)
        x = e * ca + f * cc + ce
        y = e * cb + f * cd + cf
        yscale = b * cc + d * cd
        name = str(font.get("/BaseFont", "")) if font else ""
        runs.append(TextRun(text, to_mm(x), to_mm(y), name, size, upside_down=yscale < 0))

    _reader(pdf).pages[page].extract_text(visitor_text=visit)
    return runs


def page_text(pdf: bytes, page: int = 0) -> str:
    return _reader(pdf).pages[page].extract_text() or ""


def all_text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() or "" for p in _reader(pdf).pages)


def segments(pdf: bytes, page: int = 0) -> list[Segment]:
    """Straight strokes (`m`/`l` pairs) in page millimetres, with their dash state, including
    those inside form XObjects the page draws (a sheet's fixed art is often one form)."""
    reader = _reader(pdf)
    pg = reader.pages[page]
    found: list[Segment] = []
    _walk_strokes(ContentStream(pg.get_contents(), reader), pg.get("/Resources"), _IDENTITY, found)
    return found


Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_PAINT = frozenset({b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"})


def _concat(a: Matrix, m: Matrix) -> Matrix:
    """The matrix `a` applied in the space of `m` (PDF's `cm`: a x m)."""
    return (
        a[0] * m[0] + a[1] * m[2],
        a[0] * m[1] + a[1] * m[3],
        a[2] * m[0] + a[3] * m[2],
        a[2] * m[1] + a[3] * m[3],
        a[4] * m[0] + a[5] * m[2] + m[4],
        a[4] * m[1] + a[5] * m[3] + m[5],
    )


def _walk_strokes(content: Any, resources: Any, ctm: Matrix, found: list[Segment]) -> None:
    stack: list[tuple[Matrix, tuple[float, ...]]] = []
    dash: tuple[float, ...] = ()
    current: tuple[float, float] | None = None
    start: tuple[float, float] | None = None

    def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
        return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])

    for operands, op in content.operations:
        if op == b"q":
            stack.append((ctm, dash))
        elif op == b"Q" and stack:
            ctm, dash = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            ctm = _concat((a, b, c, d, e, f), ctm)
        elif op == b"d":
            dash = tuple(to_mm(float(v)) for v in operands[0])
        elif op == b"m":
            current = start = apply(ctm, float(operands[0]), float(operands[1]))
        elif op in (b"c", b"v", b"y", b"re"):
            # Curves and rectangles are not straight strokes, but they move the current point.
            x, y = (operands[-2], operands[-1]) if op != b"re" else (operands[0], operands[1])
            current = apply(ctm, float(x), float(y))
        elif op == b"h":
            current = start
        elif op in _PAINT:
            current = start = None
        elif op == b"l" and current is not None:
            end = apply(ctm, float(operands[0]), float(operands[1]))
            found.append(
                Segment(
                    to_mm(current[0]),
                    to_mm(current[1]),
                    to_mm(end[0]),
                    to_mm(end[1]),
                    bool(dash),
                    dash,
                )
            )
            current = end
        elif op == b"Do" and resources is not None:
            xobjects = resources.get_object().get("/XObject")
            form = xobjects.get_object().get(operands[0]) if xobjects is not None else None
            form = form.get_object() if form is not None else None
            if form is not None and form.get("/Subtype") == "/Form":
                matrix = tuple(float(v) for v in form.get("/Matrix", _IDENTITY))
                inner = _concat(matrix, ctm)  # type: ignore[arg-type]
                reader = form.indirect_reference.pdf if form.indirect_reference else None
                _walk_strokes(
                    ContentStream(form, reader), form.get("/Resources", resources), inner, found
                )


def embedded_fonts(pdf: bytes) -> dict[str, bool]:
    """Every font the PDF uses, and whether its program is embedded in the file."""
    fonts: dict[str, bool] = {}
    for page in _reader(pdf).pages:
        resources = page.get("/Resources")
        if resources is None:
            continue
        font_dict = resources.get_object().get("/Font")
        if font_dict is None:
            continue
        for ref in font_dict.get_object().values():
            font = ref.get_object()
            descriptors = [font.get("/FontDescriptor")]
            for descendant in font.get("/DescendantFonts", []) or []:
                descriptors.append(descendant.get_object().get("/FontDescriptor"))
            embedded = any(
                d is not None
                and any(k in d.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                for d in descriptors
            )
            fonts[str(font.get("/BaseFont"))] = embedded
    return fonts


def render_page(pdf: bytes, page: int = 0, dpi: float = 100.0) -> np.ndarray:
    """The page as an RGB array at `dpi`."""
    document = pdfium.PdfDocument(pdf)
    try:
        bitmap = document[page].render(scale=dpi / 72.0, rev_byteorder=True)
        image = bitmap.to_numpy()
        return np.ascontiguousarray(image[:, :, :3])
    finally:
        document.close()


def render_pngs(pdf_path: Path, out_dir: Path, dpi: float = 100.0) -> list[Path]:
    """Render every page of a PDF to PNGs named after it; returns the files written."""
    import cv2

    data = pdf_path.read_bytes()
    written = []
    for index in range(page_count(data)):
        target = out_dir / f"{pdf_path.stem}-p{index + 1}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        rgb = render_page(data, index, dpi)
        cv2.imwrite(str(target), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
        written.append(target)
    return written


def preview_main() -> None:
    """`make preview`: every PDF in output/ to PNG pages under output/preview/."""
    import sys

    from printgen.paths import OUTPUT_DIR

    pdfs = sorted(OUTPUT_DIR.glob("*.pdf"))
    if not pdfs:
        print("no PDFs in output/: run `make print` first", file=sys.stderr)
        sys.exit(1)
    for pdf in pdfs:
        for png in render_pngs(pdf, OUTPUT_DIR / "preview"):
            print(f"wrote {png}")


if __name__ == "__main__":
    preview_main()
