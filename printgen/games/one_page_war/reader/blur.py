"""How soft a photo is, and whether it is too soft for the writing it holds.

The blur is measured at the corner markers' black-white edges. It is judged against the writing
in the squares, not against one fixed limit: large, bold digits survive a blur that washes out
small ones."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from printgen.games.one_page_war.geometry import Kind, SheetGeometry
from printgen.games.one_page_war.reader.markers import Markers
from printgen.games.one_page_war.reader.quantile import median, percentile

# Blur is judged against the writing it blurs. Measured on 1,518 written squares photographed
# at blurs up to a fifth of the writing's height (docs/reader.md, "Blur"): up to a tenth, the
# recogniser's own confidence flags every doubtful square (no square misread and accepted); past
# it, half the squares come back unsure anyway and marks washed down to fragments are read as
# confidently empty. So a square whose writing is h mm high is unsure under a blur over h / 10,
# and a photo too soft for most of its squares is refused; a sheet with no writing is judged
# for writing NOMINAL_GLYPH_MM high.
SOFT_PER_HEIGHT = 0.08
NOMINAL_GLYPH_MM = 8.0
SOFT_WHY = "the photo is too soft for writing this size"


# Nothing written is seen as nothing only while a faint mark would still show. A light pencil
# stroke, 0.4 mm wide and 40 % grey, blurred by a Gaussian of sigma s peaks at
# 0.4 * erf(0.4 / (2 sqrt(2) s)), which falls under the reader's ink floor (0.16,
# digits.INK_FLOOR) past s = 0.38 mm: past EMPTY_BLUR_MM an empty square, tick box or S space is
# unsure. (Photos shaken by 1.5 mm, about this blur, read pencil ticks as surely empty.)
EMPTY_BLUR_MM = 0.35
FAINT_WHY = "the photo is too soft to be sure nothing faint is written here"


def hides_faint_marks(blur_mm: float) -> bool:
    return blur_mm > EMPTY_BLUR_MM


def readable_blur_mm(glyph_mm: float | None) -> float:
    """The most blur (Gaussian sigma, mm) under which writing this high is read."""
    return SOFT_PER_HEIGHT * (glyph_mm if glyph_mm is not None else NOMINAL_GLYPH_MM)


def too_soft(blur_mm: float, glyph_mm: float | None) -> bool:
    return blur_mm > readable_blur_mm(glyph_mm)


# With no marker to measure it at: a photo whose sharpest edges spread over more than this many
# pixels (at the reader's working size, about 1800 px long) is called blurred in the error.
BLURRED_PHOTO_PX = 3.0
STRONG_EDGE = 60  # grey levels between a tile's dark and light


def _step_sigma(patch: np.ndarray, normal: np.ndarray | None = None) -> float | None:
    """The Gaussian sigma (pixels) of the sharpest black-white steps in `patch`: for a step
    blurred by a Gaussian of sigma s, the steepest gradient is contrast / (s * sqrt(2 pi)).
    With `normal` (a unit vector), only the steps across it: the gradient along it."""
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
    across = np.hypot(gx, gy) if normal is None else np.abs(gx * normal[0] + gy * normal[1])
    steepest = percentile(across, 99.5)
    contrast = percentile(patch, 95) - percentile(patch, 5)
    if steepest <= 0 or contrast <= 10:
        return None
    return contrast / (steepest * np.sqrt(2 * np.pi))


def _marker_sigma(grey: np.ndarray, quad: np.ndarray) -> float | None:
    """The blur (pixels) at one marker, in the worse of its two edge directions. A phone that
    moved during the exposure smears edges across its motion and leaves those along it sharp;
    the steepest steps alone would report the sharp ones, while the writing is read across
    both (a thin upright 1 is washed out by a sideways shake)."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 3
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 3
    patch = grey[max(0, y0) : y1, max(0, x0) : x1].astype(np.float32)
    if patch.size < 64:
        return None
    sigmas = []
    for a, b in ((quad[1] - quad[0], quad[2] - quad[3]), (quad[3] - quad[0], quad[2] - quad[1])):
        side = a / np.linalg.norm(a) + b / np.linalg.norm(b)
        normal = np.array([-side[1], side[0]]) / np.linalg.norm(side)
        if (sigma := _step_sigma(patch, normal)) is not None:
            sigmas.append(sigma)
    return max(sigmas) if sigmas else None


# The directions steps are measured across where no marker shows which way a shake went.
STEP_NORMALS = tuple(
    np.array([math.cos(math.radians(a)), math.sin(math.radians(a))]) for a in (0, 45, 90, 135)
)


def photo_blur_px(grey: np.ndarray) -> float:
    """How soft the whole photo is, in pixels, in the worst direction: for each, the median
    over the tiles holding a strong edge (the faint ones are noise as much as edges). A shake
    smears the edges across its motion and leaves those along it sharp: a photo shaken by 25
    px gave 0.8 px by its steepest steps, and was refused with no word of the blur."""
    sigmas: list[list[float]] = [[] for _ in STEP_NORMALS]
    h, w = grey.shape
    tile = max(32, max(h, w) // 12)
    for y in range(0, h - tile + 1, tile):
        for x in range(0, w - tile + 1, tile):
            patch = grey[y : y + tile, x : x + tile].astype(np.float32)
            if percentile(patch, 95) - percentile(patch, 5) < STRONG_EDGE:
                continue
            for found, normal in zip(sigmas, STEP_NORMALS, strict=True):
                if (sigma := _step_sigma(patch, normal)) is not None:
                    found.append(sigma)
    return max((median(found) for found in sigmas if found), default=0.0)


def blur_px(grey: np.ndarray, markers: Markers) -> float:
    """How far edges are spread in the photo (pixels), from the markers' black-white edges: the
    camera's blur, about the same across the frame (in mm it grows towards the far edge of a
    tilted sheet, where a pixel spans more of it)."""
    return spots_median(blur_spots(grey, markers))


def spots_median(spots: tuple[BlurSpot, ...]) -> float:
    return median([sigma for _, _, sigma in spots]) if spots else 0.0


# One marker's blur (pixels) and where it stands in the photo (pixels, its centre).
BlurSpot = tuple[float, float, float]


def blur_spots(grey: np.ndarray, markers: Markers) -> tuple[BlurSpot, ...]:
    """Each marker's blur and place. The camera's blur is not the same across the frame when
    the sheet is close and steep, or the phone in a portrait mode: a shallow depth of field
    leaves one end of the sheet sharp and the other soft (docs/reader.md, "Blur")."""
    return tuple(
        (float(x), float(y), sigma)
        for quad in markers.found.values()
        if (sigma := _marker_sigma(grey, quad)) is not None
        for x, y in [quad.mean(axis=0)]
    )


def blur_px_at(spots: tuple[BlurSpot, ...], x: float, y: float, floor: float) -> float:
    """The blur (pixels) at photo point (x, y): a plane through the markers' blurs (least
    squares, kept within the least and most blur measured), never under `floor` (the photo's
    median blur: one marker measured sharper than it is must not make its corner look sharp).

    A flat sheet's depth varies linearly across the photo, and how far out of focus a point is
    grows with its depth's distance from the focus, so between the corners the blur is at most
    what a plane through the corners' blurs gives there."""
    return BlurField.of(spots, floor).at(x, y)


@dataclass(frozen=True)
class BlurField:
    """`blur_px_at` with its plane fitted once: a sheet asks for the blur at every cell."""

    plane: tuple[float, float, float] | None  # None: under three markers measured
    least: float
    most: float
    floor: float

    @classmethod
    def of(cls, spots: tuple[BlurSpot, ...], floor: float) -> BlurField:
        if len(spots) < 3:
            return cls(None, floor, floor, floor)
        at = np.array([(1.0, sx, sy) for sx, sy, _ in spots])
        sigmas = np.array([s for _, _, s in spots])
        plane, *_ = np.linalg.lstsq(at, sigmas, rcond=None)
        a, b, c = (float(v) for v in plane)
        return cls((a, b, c), float(sigmas.min()), float(sigmas.max()), floor)

    def at(self, x: float, y: float) -> float:
        if self.plane is None:
            return self.floor
        a, b, c = self.plane
        return max(min(max(a + b * x + c * y, self.least), self.most), self.floor)


def blur_mm(grey: np.ndarray, markers: Markers, geometry: SheetGeometry) -> float:
    """How far edges are spread (mm on the sheet), from the markers' black-white edges."""
    sigmas = []
    size_mm = geometry.find(Kind.MARKER, index=next(iter(markers.found))).w
    for quad in markers.found.values():
        sigma_px = _marker_sigma(grey, quad)
        if sigma_px is None:
            continue
        px_per_mm = float(np.sqrt(cv2.contourArea(quad))) / size_mm
        sigmas.append(sigma_px / px_per_mm)
    return median(sigmas) if sigmas else 0.0
