"""Reading a built PDF back: its text with positions, its line work, its fonts, and pixels.

Tests use this to check that what was drawn is where the layout says; `make preview` uses it to
render PNGs. It reads the PDF, never printgen's own drawing state, so it checks the real output."""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
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
    size: float  # as set in the PDF (Tf)
    upside_down: bool
    printed_size: float = 0.0  # on paper: `size` scaled by the text and page matrices


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
        # The text's vertical unit vector on the page: its length is how much the size grows.
        height = float(np.hypot(c * ca + d * cc, c * cb + d * cd))
        name = str(font.get("/BaseFont", "")) if font else ""
        runs.append(TextRun(text, to_mm(x), to_mm(y), name, size, yscale < 0, float(size) * height))

    _reader(pdf).pages[page].extract_text(visitor_text=visit)
    return runs


def page_text(pdf: bytes, page: int = 0) -> str:
    return _reader(pdf).pages[page].extract_text() or ""


def all_text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() or "" for p in _reader(pdf).pages)


def segments(pdf: bytes, page: int = 0) -> list[Segment]:
    """Straight strokes (`m`/`l` pairs) in page millimetres, with their dash state, including
    those inside form XObjects the page draws (a sheet's fixed art is often one form)."""
    return [
        Segment(s.x1_mm, s.y1_mm, s.x2_mm, s.y2_mm, s.dashed, s.dash_mm)
        for s in _line_work(pdf, page)
        if not s.from_rect
    ]


@dataclass(frozen=True)
class Stroke:
    """One straight piece of a path as printed: from a `l` or a side of a `re` rectangle."""

    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float
    dashed: bool
    width_mm: float  # the line width on paper
    darkness: float  # 0 white .. 1 black, of the stroke colour
    stroked: bool  # False for a piece of a path that is only filled (or not painted)
    from_rect: bool = False
    dash_mm: tuple[float, ...] = ()  # the dash pattern, on and off lengths in millimetres

    @property
    def length_mm(self) -> float:
        return float(np.hypot(self.x2_mm - self.x1_mm, self.y2_mm - self.y1_mm))


def strokes(pdf: bytes, page: int = 0) -> list[Stroke]:
    """The page's straight line work that is actually stroked, with width and darkness: what a
    photocopier sees of each ruled line and box edge."""
    return [s for s in _line_work(pdf, page) if s.stroked]


def _line_work(pdf: bytes, page: int) -> list[Stroke]:
    reader = _reader(pdf)
    pg = reader.pages[page]
    found: list[Stroke] = []
    _walk_strokes(
        ContentStream(pg.get_contents(), reader), pg.get("/Resources"), _Graphics(), found
    )
    return found


Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_STROKING = frozenset({b"S", b"s", b"B", b"B*", b"b", b"b*"})
_PAINT = _STROKING | {b"f", b"F", b"f*", b"n"}


@dataclass(frozen=True)
class _Graphics:
    """The parts of the PDF graphics state that decide how a stroke prints."""

    ctm: Matrix = _IDENTITY
    dash: tuple[float, ...] = ()  # on and off lengths in millimetres; () a solid line
    width: float = 1.0  # user space units
    darkness: float = 1.0  # PDF's initial stroke colour is black


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


def _darkness(op: bytes, values: list[float]) -> float | None:
    """How dark a stroke colour prints (1 - luminance); None for a colour space not read."""
    if op == b"G" and len(values) == 1:
        return 1.0 - values[0]
    if op == b"RG" and len(values) == 3:
        r, g, b = values
        return 1.0 - (0.299 * r + 0.587 * g + 0.114 * b)
    if op == b"K" and len(values) == 4:
        c, m, y, k = values
        r, g, b = ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
        return 1.0 - (0.299 * r + 0.587 * g + 0.114 * b)
    return None


def _walk_strokes(content: Any, resources: Any, gs: _Graphics, found: list[Stroke]) -> None:
    stack: list[_Graphics] = []
    current: tuple[float, float] | None = None
    start: tuple[float, float] | None = None
    # Straight pieces of the path being built: (x1, y1, x2, y2) in points, and whether a `re`.
    pieces: list[tuple[float, float, float, float, bool]] = []

    def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
        return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])

    for operands, op in content.operations:
        if op == b"q":
            stack.append(gs)
        elif op == b"Q" and stack:
            gs = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            gs = replace(gs, ctm=_concat((a, b, c, d, e, f), gs.ctm))
        elif op == b"d":
            gs = replace(gs, dash=tuple(to_mm(float(v)) for v in operands[0]))
        elif op == b"w":
            gs = replace(gs, width=float(operands[0]))
        elif op in (b"G", b"RG", b"K"):
            darkness = _darkness(op, [float(v) for v in operands])
            if darkness is not None:
                gs = replace(gs, darkness=darkness)
        elif op == b"m":
            current = start = apply(gs.ctm, float(operands[0]), float(operands[1]))
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            corners = [apply(gs.ctm, cx, cy) for cx, cy in ((x, y), (x + w, y), (x + w, y + h))]
            corners.append(apply(gs.ctm, x, y + h))
            for i in range(4):
                (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
                pieces.append((ax, ay, bx, by, True))
            current = start = corners[0]
        elif op in (b"c", b"v", b"y"):
            # Curves are not straight strokes, but they move the current point.
            current = apply(gs.ctm, float(operands[-2]), float(operands[-1]))
        elif op == b"h":
            current = start
        elif op in _PAINT:
            # Line width scales with the matrix; printgen never draws with a skewed one.
            scale = float(np.sqrt(abs(gs.ctm[0] * gs.ctm[3] - gs.ctm[1] * gs.ctm[2])))
            for x1, y1, x2, y2, from_rect in pieces:
                found.append(
                    Stroke(
                        to_mm(x1),
                        to_mm(y1),
                        to_mm(x2),
                        to_mm(y2),
                        bool(gs.dash),
                        to_mm(gs.width * scale),
                        gs.darkness,
                        op in _STROKING,
                        from_rect,
                        gs.dash,
                    )
                )
            pieces = []
            current = start = None
        elif op == b"l" and current is not None:
            end = apply(gs.ctm, float(operands[0]), float(operands[1]))
            pieces.append((current[0], current[1], end[0], end[1], False))
            current = end
        elif op == b"Do" and resources is not None:
            xobjects = resources.get_object().get("/XObject")
            form = xobjects.get_object().get(operands[0]) if xobjects is not None else None
            form = form.get_object() if form is not None else None
            if form is not None and form.get("/Subtype") == "/Form":
                matrix = tuple(float(v) for v in form.get("/Matrix", _IDENTITY))
                inner = replace(gs, ctm=_concat(matrix, gs.ctm))  # type: ignore[arg-type]
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


@dataclass(frozen=True)
class FontSubset:
    tag: str  # the six letters before the '+'; '' for a font not embedded as a subset
    name: str  # the font's name after the tag
    program: bytes  # the embedded font program (empty when not embedded)

    @property
    def base_font(self) -> str:
        return f"{self.tag}+{self.name}" if self.tag else self.name


def font_subsets(pdf: bytes) -> list[FontSubset]:
    """Every font dictionary the file's pages and their forms use, once each."""
    seen: dict[Any, FontSubset] = {}

    def visit(resources: Any) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        fonts = resources.get("/Font")
        for ref in fonts.get_object().values() if fonts is not None else []:
            key = getattr(ref, "idnum", None) or id(ref.get_object())
            if key not in seen:
                seen[key] = _subset(ref.get_object())
        xobjects = resources.get("/XObject")
        for ref in xobjects.get_object().values() if xobjects is not None else []:
            form = ref.get_object()
            if form.get("/Subtype") == "/Form":
                visit(form.get("/Resources"))

    for page in _reader(pdf).pages:
        visit(page.get("/Resources"))
    return list(seen.values())


def _subset(font: Any) -> FontSubset:
    base = str(font.get("/BaseFont", "")).lstrip("/")
    tag, plus, name = base.partition("+")
    if not plus or len(tag) != 6 or not tag.isupper():
        tag, name = "", base
    descriptors = [font.get("/FontDescriptor")]
    descriptors += [d.get_object().get("/FontDescriptor") for d in font.get("/DescendantFonts", [])]
    program = b""
    for descriptor in descriptors:
        if descriptor is None:
            continue
        for key in ("/FontFile", "/FontFile2", "/FontFile3"):
            stream = descriptor.get_object().get(key)
            if stream is not None:
                program = stream.get_object().get_data()
    return FontSubset(tag, name, program)


def page_boxes(pdf: bytes, page: int = 0) -> dict[str, tuple[float, float, float, float]]:
    """The page's boxes written in the file (MediaBox, TrimBox, BleedBox, ...) as
    (left, bottom, right, top) in mm; a box the file leaves out is absent, not defaulted."""
    pg = _reader(pdf).pages[page]
    boxes = {}
    for name in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
        if name in pg:
            box: Any = pg[name]
            left, bottom, right, top = (to_mm(float(v)) for v in box)
            boxes[name.lstrip("/")] = (left, bottom, right, top)
    return boxes


def render_page(pdf: bytes, page: int = 0, dpi: float = 100.0) -> np.ndarray:
    """The page as an RGB array at `dpi`."""
    document = pdfium.PdfDocument(pdf)
    try:
        bitmap = document[page].render(scale=dpi / 72.0, rev_byteorder=True)
        image = bitmap.to_numpy()
        return np.ascontiguousarray(image[:, :, :3])
    finally:
        document.close()


def ink_profile(
    image: np.ndarray,
    dpi: float,
    start: tuple[float, float],
    end: tuple[float, float],
    *,
    threshold: int = 128,
    reach_mm: float = 0.6,
) -> np.ndarray:
    """Along the line from `start` to `end` (page mm, origin at the bottom-left), one entry per
    pixel step: True where a pixel within `reach_mm` of the line is darker than `threshold`.

    With the default threshold this is what a copier in text mode, or a black-and-white scan at
    50 %, keeps of a ruled line: grey that is too light comes back all False."""
    gray = image.mean(axis=2) if image.ndim == 3 else image
    rows, cols = gray.shape
    px = dpi / 25.4
    (x1, y1), (x2, y2) = start, end
    steps = max(int(np.hypot(x2 - x1, y2 - y1) * px), 1)
    length = float(np.hypot(x2 - x1, y2 - y1)) or 1.0
    # The unit normal, to look a little to either side of the line.
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    # Half-pixel steps across the line, so that rounding to pixels never skips a row.
    offsets = np.linspace(-reach_mm, reach_mm, max(int(4 * reach_mm * px) + 1, 3))
    t = (np.arange(steps) + 0.5) / steps
    # Sample points: one row per step along the line, one column per offset across it.
    xs = (x1 + (x2 - x1) * t)[:, None] + nx * offsets[None, :]
    ys = (y1 + (y2 - y1) * t)[:, None] + ny * offsets[None, :]
    cs = np.clip(np.round(xs * px).astype(int), 0, cols - 1)
    # Image rows count down from the top edge of the page.
    rs = np.clip(np.round(rows - ys * px).astype(int), 0, rows - 1)
    found: np.ndarray = (gray[rs, cs] < threshold).any(axis=1)
    return found


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
