"""Reading aids a camera finds on a printed sheet: ArUco markers and QR codes, drawn as vectors.

ArUco markers come from OpenCV's predefined dictionaries (so a reader using the same dictionary
finds them), drawn cell by cell as filled squares: sharp at any print resolution. QR codes use
ReportLab's own QR encoder (reportlab.graphics.barcode.qrencoder, the one its QR widget uses),
drawn the same way as the markers."""

from __future__ import annotations

from functools import cache

from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel
from reportlab.lib.colors import black, white
from reportlab.pdfgen.canvas import Canvas

from printgen.errors import LayoutError


@cache
def aruco_cells(dictionary: str, marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """The marker's cells, its black border included, row by row from the top: True is black."""
    import cv2  # only the sheets that carry markers pay for OpenCV's import

    code = getattr(cv2.aruco, dictionary, None)
    if not isinstance(code, int):
        raise LayoutError(f"OpenCV has no ArUco dictionary {dictionary!r}")
    table = cv2.aruco.getPredefinedDictionary(code)
    if not 0 <= marker_id < len(table.bytesList):
        raise LayoutError(f"ArUco {dictionary} has no marker {marker_id}")
    cells = table.markerSize + 2
    # One pixel per cell: the image is the dictionary's bits with the black border around them.
    image = cv2.aruco.generateImageMarker(table, marker_id, cells)
    return tuple(tuple(bool(v < 128) for v in row) for row in image)


def draw_aruco(
    canvas: Canvas, dictionary: str, marker_id: int, x: float, y: float, size: float
) -> None:
    """Draw a marker `size` points wide with its bottom-left corner at (x, y) in points."""
    cells = aruco_cells(dictionary, marker_id)
    _fill_runs(canvas, cells, x, y, size / len(cells))


@cache
def qr_modules(text: str, level: str = "L") -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules for `text`, row by row from the top: True is dark. ReportLab's own
    encoder picks the smallest version and the densest mode the text allows."""
    code = QRCode(None, getattr(QRErrorCorrectLevel, level))
    code.addData(text)
    code.make()
    return tuple(tuple(bool(v) for v in row) for row in code.modules)


def _fill_runs(
    canvas: Canvas, cells: tuple[tuple[bool, ...], ...], x: float, y: float, cell: float
) -> None:
    """Fill the dark cells of a grid whose top-left cell sits at (x, y + height) in points.

    Runs of dark cells along a row become one rectangle of one path: fewer shapes, and no
    hairline seams between neighbouring cells."""
    path = canvas.beginPath()
    n = len(cells)
    for r, row in enumerate(cells):
        bottom = y + (n - r - 1) * cell
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            path.rect(x + start * cell, bottom, (c - start) * cell, cell)
    canvas.saveState()
    canvas.setFillColor(black)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def draw_qr(
    canvas: Canvas, text: str, x: float, y: float, size: float, border: int = 2, level: str = "L"
) -> None:
    """Draw a QR code for `text`, `size` points square including a quiet zone of `border`
    modules, with its bottom-left corner at (x, y) in points.

    The caller keeps the space around the code blank: the quiet zone a reader needs is the
    border plus that space. Level L keeps the modules big for a short text, which matters more
    for a phone photo of a clean print than recovering from damage."""
    modules = qr_modules(text, level)
    cell = size / (len(modules) + 2 * border)
    canvas.saveState()
    canvas.setFillColor(white)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.restoreState()
    _fill_runs(canvas, modules, x + border * cell, y + border * cell, cell)
