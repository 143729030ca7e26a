"""Finding the sheet in a photo: the four corner markers, the QR code, and the homography from
the photo to the sheet's millimetres, with the checks that say whether the photo is good enough.

All positions come from `geometry.py`, the one geometry the sheet was drawn from."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from printgen.errors import LayoutError
from printgen.games.one_page_war.geometry import (
    ARUCO_DICTIONARY,
    GAME_NAME,
    MARKER_IDS,
    Kind,
    SheetGeometry,
    SheetTag,
    sheet_geometry,
)
from printgen.games.one_page_war.layout import layout_names, layout_versions
from printgen.games.one_page_war.reader.errors import (
    RETAKE,
    ForeignSheet,
    MarkerMissing,
    NoSheet,
    PoorPhoto,
)
from printgen.render.units import Paper

# The rectified sheet's resolution: a 14 mm square becomes 84 pixels.
PX_PER_MM = 6.0
# Below this many photo pixels across a square, digits are too small to read safely.
MIN_SQUARE_PX = 28.0
# Edge blur (Gaussian sigma, mm on the sheet) measured across the markers' black-white edges:
# over the first the photo is soft (a warning), over the second pencil digits wash out.
WARN_BLUR_MM = 0.3
MAX_BLUR_MM = 0.5
# Marker corners further than this from where the sheet puts them: the sheet is not flat.
WARN_FIT_MM = 0.8
MAX_FIT_MM = 2.5

CORNER_NAMES = {marker_id: corner for corner, marker_id in MARKER_IDS.items()}


@dataclass(frozen=True)
class Markers:
    found: dict[int, np.ndarray]  # ArUco id -> its 4 corners in the photo (x, y)


@dataclass(frozen=True)
class Located:
    """A sheet found in a photo: which sheet, and how photo pixels map to its millimetres."""

    tag: SheetTag
    geometry: SheetGeometry
    homography: np.ndarray  # photo pixels -> rectified pixels (PX_PER_MM)
    fit_error_mm: float  # RMS distance of the marker corners from where the sheet puts them
    square_px: float  # the smallest square's side in photo pixels
    blur_mm: float  # edge blur at the markers, as a Gaussian sigma in mm on the sheet
    advice: tuple[str, ...]  # what to improve, when the photo is readable but not ideal


# Markers are searched on a copy of the photo this size (long side), then their corners refined
# on the photo itself: the search is most of the locating time, and markers stay large enough.
SEARCH_LONG_SIDE = 1100


def _detect(grey: np.ndarray) -> dict[int, np.ndarray]:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    found: dict[int, np.ndarray] = {}
    if ids is not None:
        for quad, marker_id in zip(corners, ids.ravel(), strict=True):
            mid = int(marker_id)
            if mid not in CORNER_NAMES:
                continue
            quad = quad.reshape(4, 2)
            # Two candidates with one id: keep the larger (the real marker, not a reflection).
            if mid not in found or cv2.contourArea(quad) > cv2.contourArea(found[mid]):
                found[mid] = quad
    return found


def find_markers(grey: np.ndarray) -> Markers:
    k = min(1.0, SEARCH_LONG_SIDE / max(grey.shape))
    if k < 1.0:
        small = cv2.resize(grey, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        found = {i: (q + 0.5) / k - 0.5 for i, q in _detect(small).items()}
        if len(found) < 4:  # small markers: search the whole photo
            found = _detect(grey)
    else:
        found = _detect(grey)
    refined = {}
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    for i, quad in found.items():
        side = float(np.sqrt(max(cv2.contourArea(quad), 1.0)))
        window = int(max(2, min(8, side / 10)))
        points = quad.astype(np.float32).reshape(-1, 1, 2).copy()
        cv2.cornerSubPix(grey, points, (window, window), (-1, -1), criteria)
        refined[i] = points.reshape(4, 2)
    return Markers(refined)


def _marker_points(geometry: SheetGeometry) -> dict[int, np.ndarray]:
    """Each marker's corners in mm, in ArUco's order: its own top-left, then clockwise."""
    points = {}
    for e in geometry.select(Kind.MARKER):
        points[e.index] = np.array(
            [(e.x, e.y), (e.x + e.w, e.y), (e.x + e.w, e.y + e.h), (e.x, e.y + e.h)], np.float64
        )
    return points


def _homography(markers: Markers, geometry: SheetGeometry) -> tuple[np.ndarray, float]:
    targets = _marker_points(geometry)
    src = np.vstack([markers.found[i] for i in sorted(markers.found)]).astype(np.float64)
    dst = np.vstack([targets[i] for i in sorted(markers.found)])
    h, _ = cv2.findHomography(src, dst * PX_PER_MM, 0)
    if h is None:
        raise PoorPhoto(f"the four markers do not form a sheet; {RETAKE}")
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2) / PX_PER_MM
    error = float(np.sqrt(np.mean(np.sum((projected - dst) ** 2, axis=1))))
    return h, error


# QR decoding of a small, soft code is hit-or-miss at any one resolution: the crop is tried at
# these scales (px/mm), as it is, sharpened and binarised, with both of OpenCV's QR detectors.
QR_SCALES = (8.0, 6.0, 4.0, 5.0, 3.0)


def _binary(image: np.ndarray) -> np.ndarray:
    return cv2.threshold(image, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]


def _decode_qr(grey: np.ndarray, h: np.ndarray, geometry: SheetGeometry) -> str | None:
    """The QR code's text, read from a small rectified crop where the sheet puts it."""
    qr = geometry.find(Kind.QR)
    margin = 4.0
    detectors = (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco())
    for scale in QR_SCALES:
        x0, y0 = qr.x - margin, qr.y - margin
        size = int((qr.w + 2 * margin) * scale)
        to_crop = np.array([[scale, 0, -x0 * scale], [0, scale, -y0 * scale], [0, 0, 1]]) @ (
            np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1]) @ h
        )
        crop = cv2.warpPerspective(grey, to_crop, (size, size), flags=cv2.INTER_CUBIC)
        # Sharpened (unsharp mask) copies give soft codes back their module edges.
        sharp = cv2.addWeighted(crop, 2.5, cv2.GaussianBlur(crop, (0, 0), 0.6 * scale), -1.5, 0)
        for image in (crop, _binary(crop), sharp, _binary(sharp)):
            for detector in detectors:
                try:
                    text, _, _ = detector.detectAndDecode(image)
                except cv2.error:
                    continue
                if text:
                    return str(text)
    return None


def _decode_qr_anywhere(grey: np.ndarray) -> str | None:
    k = min(1.0, 1600 / max(grey.shape))
    small = cv2.resize(grey, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else grey
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(small)
    return str(text) if text else None


def _tag(text: str, source: str) -> SheetTag:
    if not text.lower().startswith(f"{GAME_NAME}/"):
        raise ForeignSheet(
            f"{source}: the QR code says {text!r}, which is not a One Page War sheet; "
            "score that game's sheet with its own game, or type this sheet in"
        )
    try:
        tag = SheetTag.from_text(text)
    except LayoutError as error:
        raise ForeignSheet(f"{source}: {error}; type the sheet in") from None
    if tag.layout not in layout_names():
        raise ForeignSheet(
            f"{source}: the QR code names layout {tag.layout!r}, which this printgen does not "
            f"know (known: {', '.join(layout_names())}); update printgen or type the sheet in"
        )
    versions = layout_versions(tag.layout)
    if tag.version not in versions:
        raise ForeignSheet(
            f"{source}: the sheet was printed from layout {tag.layout!r} version {tag.version}, "
            f"but this printgen reads versions {', '.join(map(str, versions))}; its squares may "
            "stand elsewhere, so type the sheet in (or read it with the printgen that printed it)"
        )
    return tag


def locate(grey: np.ndarray, source: str) -> Located:
    markers = find_markers(grey)
    if len(markers.found) < 4:
        qr_text = _decode_qr_anywhere(grey)
        if not markers.found and qr_text is None:
            raise NoSheet(
                f"{source}: no One Page War sheet found (none of its four corner markers and no "
                f"QR code); {RETAKE}"
            )
        if qr_text is not None:
            _tag(qr_text, source)  # a foreign QR code is the clearer error
        if markers.found:
            _refuse_blur(blur_mm(grey, markers, sheet_geometry("standard", Paper.A4)), source)
        seen = ", ".join(CORNER_NAMES[i] for i in sorted(markers.found)) or "none"
        missing = ", ".join(CORNER_NAMES[i] for i in sorted(set(CORNER_NAMES) - set(markers.found)))
        raise MarkerMissing(
            f"{source}: found {len(markers.found)} of the sheet's 4 corner markers (seen: {seen}; "
            f"missing: {missing}); a marker may be covered, cut off or in glare. Uncover all "
            f"four corners and {RETAKE}"
        )

    # The layout, its version and the paper decide where everything is: try each (the
    # best-fitting first), and the QR code says which it is.
    tries = []
    for name in layout_names():
        for version in layout_versions(name):
            for paper in (Paper.A4, Paper.LETTER):
                try:
                    geometry = sheet_geometry(name, paper, version)
                except LayoutError:
                    continue  # a layout that does not fit this paper was never printed on it
                h, error = _homography(markers, geometry)
                tries.append((error, paper, h, geometry))
    tries.sort(key=lambda t: t[0])
    # Too small to read digits is also too small for the QR code: say the useful thing first.
    _refuse_small(_smallest_square_px(tries[0][2], tries[0][3]), source)
    text = None
    looked = set()
    for _, _, h, geometry in tries:
        # Versions that kept the markers and the QR code in place need only one look.
        where = (geometry.find(Kind.QR).rect, *(m.rect for m in geometry.select(Kind.MARKER)))
        if where in looked:
            continue
        looked.add(where)
        text = _decode_qr(grey, h, geometry)
        if text:
            break
    if text is None:
        text = _decode_qr_anywhere(grey)
    if text is None:
        raise NoSheet(
            f"{source}: found the four markers but could not read the sheet's QR code (in the "
            f"right-hand column); make sure it is in focus and free of glare, and {RETAKE}"
        )
    tag = _tag(text, source)
    geometry = sheet_geometry(tag.layout, tag.paper, tag.version)
    h, error = _homography(markers, geometry)
    if error > MAX_FIT_MM:
        raise PoorPhoto(
            f"{source}: the markers sit {error:.1f} mm (RMS) from where a flat sheet puts them; "
            f"the sheet is bent or folded. Lay it flat and {RETAKE}"
        )
    square_px = _smallest_square_px(h, geometry)
    _refuse_small(square_px, source)
    blur = blur_mm(grey, markers, geometry)
    _refuse_blur(blur, source)
    advice = []
    if blur > WARN_BLUR_MM:
        advice.append(f"the photo is a little soft (edges spread over {blur:.1f} mm): focus")
    if error > WARN_FIT_MM:
        advice.append(
            f"the sheet is not quite flat (markers {error:.1f} mm off): flatten it next time"
        )
    return Located(tag, geometry, h, error, square_px, blur, tuple(advice))


def _refuse_small(square_px: float, source: str) -> None:
    if square_px < MIN_SQUARE_PX:
        raise PoorPhoto(
            f"{source}: the squares are only {int(square_px)} pixels across in the photo (at least "
            f"{MIN_SQUARE_PX:.0f} are needed); move closer so the sheet fills the photo, and "
            f"{RETAKE.split(', or')[0]}"
        )


def _refuse_blur(blur: float, source: str) -> None:
    if blur > MAX_BLUR_MM:
        raise PoorPhoto(
            f"{source}: the photo is too blurred to read pencil digits (edges spread over "
            f"{blur:.2f} mm, at most {MAX_BLUR_MM} mm reads safely); hold the phone still, "
            "tap the sheet to focus, use more light, and "
            f"{RETAKE.split(', or')[0]}"
        )


def blur_mm(grey: np.ndarray, markers: Markers, geometry: SheetGeometry) -> float:
    """How far edges are spread, from the markers' black-white edges: for a step blurred by a
    Gaussian of sigma s, the steepest gradient is contrast / (s * sqrt(2 pi))."""
    sigmas = []
    size_mm = geometry.find(Kind.MARKER, index=next(iter(markers.found))).w
    for quad in markers.found.values():
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 3
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 3
        patch = grey[max(0, y0) : y1, max(0, x0) : x1].astype(np.float32)
        if patch.size < 64:
            continue
        gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
        gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
        steepest = float(np.percentile(np.hypot(gx, gy), 99.5))
        contrast = float(np.percentile(patch, 95) - np.percentile(patch, 5))
        if steepest <= 0 or contrast <= 10:
            continue
        px_per_mm = float(np.sqrt(cv2.contourArea(quad))) / size_mm
        sigma_px = contrast / (steepest * np.sqrt(2 * np.pi))
        sigmas.append(sigma_px / px_per_mm)
    return float(np.median(sigmas)) if sigmas else 0.0


def _smallest_square_px(h: np.ndarray, geometry: SheetGeometry) -> float:
    inverse = np.linalg.inv(h)
    sides = []
    for e in geometry.select(Kind.SQUARE):
        quad = np.array(
            [(e.x, e.y), (e.x + e.w, e.y), (e.x + e.w, e.y + e.h), (e.x, e.y + e.h)], np.float64
        )
        photo = cv2.perspectiveTransform((quad * PX_PER_MM).reshape(-1, 1, 2), inverse)
        photo = photo.reshape(4, 2)
        sides.append(min(np.linalg.norm(photo[i] - photo[(i + 1) % 4]) for i in range(4)))
    return float(min(sides))


def rectify(grey: np.ndarray, located: Located) -> np.ndarray:
    size = (
        int(round(located.geometry.width * PX_PER_MM)),
        int(round(located.geometry.height * PX_PER_MM)),
    )
    return cv2.warpPerspective(
        grey, located.homography, size, flags=cv2.INTER_LINEAR, borderValue=255
    )
