"""The sheet's four corner markers in a photo.

ArUco's detector first looks over the whole photo. A marker it misses (soft, small, foreshortened
at the far edge, in a shadow) is then looked for again where the markers it found put it: that
spot is warped to a frontal view, upscaled and contrast-stretched, and searched alone. A marker
still missing is told apart as cut off (its place lies outside the photo) or unreadable (its place
is in the photo: covered, in glare or in deep shadow).

All positions come from `geometry.py`, the one geometry the sheet was drawn from."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from printgen.games.one_page_war.geometry import (
    ARUCO_DICTIONARY,
    MARKER_IDS,
    Kind,
    SheetGeometry,
)
from printgen.games.one_page_war.reader.quantile import percentile

CORNER_NAMES = {marker_id: corner for corner, marker_id in MARKER_IDS.items()}
# Markers in opposite corners: with the printed grid, two of these are enough to place the sheet.
DIAGONALS = (frozenset({0, 2}), frozenset({1, 3}))

# Markers are searched on a copy of the photo this size (long side), then their corners refined
# on the photo itself: the search is most of the locating time, and markers stay large enough.
SEARCH_LONG_SIDE = 1100
# The second look at a missing marker: its spot warped frontal at this resolution, with this much
# of the sheet around it (mm), so that a prediction a few millimetres off still holds it.
RESEARCH_PX_PER_MM = 8.0
RESEARCH_MARGIN_MM = 7.0
# A marker found again must stand this close (mm) to where the others put it.
RESEARCH_TOLERANCE_MM = 5.0


@dataclass(frozen=True)
class Markers:
    found: dict[int, np.ndarray]  # ArUco id -> its 4 corners in the photo (x, y)
    recovered: frozenset[int] = field(default_factory=frozenset)  # found by the second look
    # An id's second place, far from the first (`_seen_twice`): another sheet in the photo.
    others: dict[int, np.ndarray] = field(default_factory=dict)

    @property
    def twice(self) -> frozenset[int]:
        return frozenset(self.others)

    def swapped(self, marker_id: int) -> Markers:
        """The same markers with `marker_id` taken at its other place."""
        found = {**self.found, marker_id: self.others[marker_id]}
        return Markers(found, self.recovered, {marker_id: self.found[marker_id]})

    @property
    def ids(self) -> frozenset[int]:
        return frozenset(self.found)

    @property
    def missing(self) -> tuple[int, ...]:
        return tuple(sorted(set(CORNER_NAMES) - set(self.found)))

    @property
    def enough(self) -> bool:
        """Three markers fix a homography; two in opposite corners do with the printed grid."""
        return len(self.found) >= 3 or self.ids in DIAGONALS


def _detector(tolerant: bool) -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    parameters = cv2.aruco.DetectorParameters()
    if tolerant:
        # One marker alone in a small frontal patch: thresholds at every scale, rounder corners
        # and a softer border accepted; false markers are ruled out by id and by position.
        parameters.adaptiveThreshWinSizeMin = 5
        parameters.adaptiveThreshWinSizeMax = 75
        parameters.adaptiveThreshWinSizeStep = 10
        parameters.polygonalApproxAccuracyRate = 0.06
        parameters.maxErroneousBitsInBorderRate = 0.5
        parameters.minMarkerPerimeterRate = 0.1
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def _candidates(grey: np.ndarray, tolerant: bool = False) -> list[tuple[int, np.ndarray]]:
    """Every corner marker ArUco finds in `grey`: (id, its 4 corners)."""
    corners, ids, _ = _detector(tolerant).detectMarkers(grey)
    if ids is None:
        return []
    return [
        (int(marker_id), quad.reshape(4, 2))
        for quad, marker_id in zip(corners, ids.ravel(), strict=True)
        if int(marker_id) in CORNER_NAMES
    ]


def _largest(candidates: list[tuple[int, np.ndarray]]) -> dict[int, np.ndarray]:
    """One marker an id: of two candidates, the larger (the real marker, not a reflection)."""
    found: dict[int, np.ndarray] = {}
    for mid, quad in candidates:
        if mid not in found or cv2.contourArea(quad) > cv2.contourArea(found[mid]):
            found[mid] = quad
    return found


def _seen_twice(
    candidates: list[tuple[int, np.ndarray]], found: dict[int, np.ndarray]
) -> dict[int, np.ndarray]:
    """For each id also found more than three marker sides away from where it was kept
    (`found`), its largest such place: a second sheet's marker (the same marker found in the
    small copy and in the photo lies at one place)."""
    others: dict[int, np.ndarray] = {}
    for mid, quad in candidates:
        kept = found[mid]
        side = np.sqrt(max(cv2.contourArea(quad), cv2.contourArea(kept), 1.0))
        if np.linalg.norm(quad.mean(axis=0) - kept.mean(axis=0)) <= 3 * side:
            continue
        if mid not in others or cv2.contourArea(quad) > cv2.contourArea(others[mid]):
            others[mid] = quad
    return others


def detect(grey: np.ndarray, tolerant: bool = False) -> dict[int, np.ndarray]:
    """The sheet's markers ArUco finds in `grey`, by id."""
    return _largest(_candidates(grey, tolerant))


def _refine(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    side = float(np.sqrt(max(cv2.contourArea(quad), 1.0)))
    window = int(max(2, min(8, side / 10)))
    points = quad.astype(np.float32).reshape(-1, 1, 2).copy()
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    cv2.cornerSubPix(grey, points, (window, window), (-1, -1), criteria)
    return points.reshape(4, 2)


def find_markers(grey: np.ndarray) -> Markers:
    """The markers ArUco finds over the whole photo, their corners refined on the photo."""
    k = min(1.0, SEARCH_LONG_SIDE / max(grey.shape))
    if k < 1.0:
        small = cv2.resize(grey, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        candidates = [(i, (q + 0.5) / k - 0.5) for i, q in _candidates(small)]
        found = _largest(candidates)
        if len(found) < 4:  # small markers: search the whole photo
            in_photo = _candidates(grey)
            found |= _largest(in_photo)
            candidates += in_photo
    else:
        candidates = _candidates(grey)
        found = _largest(candidates)
    others = _seen_twice(candidates, found)
    return Markers(
        {i: _refine(grey, quad) for i, quad in found.items()},
        others={i: _refine(grey, quad) for i, quad in others.items()},
    )


def marker_corners_mm(geometry: SheetGeometry) -> dict[int, np.ndarray]:
    """Each marker's corners in mm, in ArUco's order: its own top-left, then clockwise."""
    points = {}
    for e in geometry.select(Kind.MARKER):
        points[e.index] = np.array(
            [(e.x, e.y), (e.x + e.w, e.y), (e.x + e.w, e.y + e.h), (e.x, e.y + e.h)], np.float64
        )
    return points


def sheet_to_photo(markers: Markers, geometry: SheetGeometry) -> np.ndarray | None:
    """A 3x3 transform from the sheet's mm to photo pixels, from the markers found: a homography
    from two or more, an affine map from one (its own corners are too close together to say
    more). None with no marker."""
    if not markers.found:
        return None
    targets = marker_corners_mm(geometry)
    ids = sorted(markers.found)
    mm = np.vstack([targets[i] for i in ids])
    photo = np.vstack([markers.found[i] for i in ids]).astype(np.float64)
    if len(ids) >= 2:
        h, _ = cv2.findHomography(mm, photo, 0)
        if h is not None:
            return np.asarray(h, np.float64)
    affine, _ = cv2.estimateAffine2D(mm, photo, method=cv2.LMEDS)
    if affine is None:
        return None
    return np.vstack([affine, [0.0, 0.0, 1.0]])


def project(transform: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), transform).reshape(
        -1, 2
    )


def _stretched(patch: np.ndarray) -> Iterable[np.ndarray]:
    """The patch with its contrast stretched, then also evened out locally and sharpened."""
    lo, hi = percentile(patch, 1), percentile(patch, 99)
    if hi - lo < 8:
        return
    stretched = np.clip((patch.astype(np.float32) - lo) * (255.0 / (hi - lo)), 0, 255).astype(
        np.uint8
    )
    yield stretched
    yield cv2.createCLAHE(clipLimit=3.0, tileGridSize=(4, 4)).apply(stretched)
    soft = cv2.GaussianBlur(stretched, (0, 0), 2.0)
    yield cv2.addWeighted(stretched, 2.0, soft, -1.0, 0)


def _search_one(
    grey: np.ndarray, marker_id: int, to_photo: np.ndarray, geometry: SheetGeometry
) -> np.ndarray | None:
    e = geometry.find(Kind.MARKER, index=marker_id)
    k, margin = RESEARCH_PX_PER_MM, RESEARCH_MARGIN_MM
    x0, y0 = e.x - margin, e.y - margin
    size = int(round((e.w + 2 * margin) * k))
    patch_to_photo = to_photo @ np.array([[1 / k, 0, x0], [0, 1 / k, y0], [0, 0, 1]])
    corners = project(patch_to_photo, np.array([(0, 0), (size, 0), (size, size), (0, size)]))
    h, w = grey.shape
    if (
        corners[:, 0].max() < 0
        or corners[:, 1].max() < 0
        or corners[:, 0].min() > w
        or corners[:, 1].min() > h
    ):
        return None  # its place is outside the photo
    patch = cv2.warpPerspective(
        grey,
        patch_to_photo,
        (size, size),
        flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    expected = np.array([margin + e.w / 2, margin + e.h / 2]) * k
    for image in _stretched(patch):
        quad = detect(image, tolerant=True).get(marker_id)
        if quad is None:
            continue
        if np.linalg.norm(quad.mean(axis=0) - expected) > RESEARCH_TOLERANCE_MM * k:
            continue
        quad = _refine(image, quad)
        return project(patch_to_photo, quad.astype(np.float64)).astype(np.float32)
    quad = _match_pattern(patch, marker_id, e.w * k, expected)
    if quad is None:
        return None
    return project(patch_to_photo, quad).astype(np.float32)


# A marker too soft for ArUco's thresholds is still recognisable by its pattern: the frontal
# patch is matched against the expected marker's cells, softened by each of these (mm), and the
# match must be this good and this much better than any other marker's pattern there.
PATTERN_SOFTNESS_MM = (0.0, 0.4, 0.8, 1.2)
MIN_PATTERN_MATCH = 0.8
PATTERN_MARGIN = 0.1


def _pattern(marker_id: int, side: int, soften_px: float) -> np.ndarray:
    from printgen.render.fiducials import aruco_cells

    cells = np.array(aruco_cells(ARUCO_DICTIONARY, marker_id), np.float32)
    module = side / len(cells)
    quiet = int(round(module))
    image = cv2.resize(1.0 - cells, (side, side), interpolation=cv2.INTER_NEAREST)
    image = cv2.copyMakeBorder(image, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=1.0)
    return cv2.GaussianBlur(image, (0, 0), soften_px) if soften_px > 0 else image


def _match_pattern(
    patch: np.ndarray, marker_id: int, side_px: float, expected: np.ndarray
) -> np.ndarray | None:
    """The marker's corners in the frontal patch, found by its cell pattern, or None."""
    side = int(round(side_px))
    reach = int(round(RESEARCH_TOLERANCE_MM * RESEARCH_PX_PER_MM))
    image = patch.astype(np.float32)
    best: tuple[float, tuple[int, int], float] | None = None
    for soften in PATTERN_SOFTNESS_MM:
        template = _pattern(marker_id, side, soften * RESEARCH_PX_PER_MM)
        half = template.shape[0] / 2
        x0 = int(round(expected[0] - half)) - reach
        y0 = int(round(expected[1] - half)) - reach
        x1, y1 = x0 + template.shape[1] + 2 * reach, y0 + template.shape[0] + 2 * reach
        if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0]:
            return None
        scores = cv2.matchTemplate(image[y0:y1, x0:x1], template, cv2.TM_CCOEFF_NORMED)
        _, peak, _, (px, py) = cv2.minMaxLoc(scores)
        if best is None or peak > best[0]:
            best = (float(peak), (x0 + px, y0 + py), soften)
    assert best is not None
    peak, (tx, ty), soften = best
    if peak < MIN_PATTERN_MATCH:
        return None
    template_size = _pattern(marker_id, side, 0).shape[0]
    window = image[ty : ty + template_size, tx : tx + template_size]
    for other in CORNER_NAMES:
        if other == marker_id or window.shape != (template_size, template_size):
            continue
        rival = _pattern(other, side, soften * RESEARCH_PX_PER_MM)
        score = float(cv2.matchTemplate(window, rival, cv2.TM_CCOEFF_NORMED).max())
        if score > peak - PATTERN_MARGIN:
            return None
    quiet = (template_size - side) / 2
    x, y = tx + quiet, ty + quiet
    return np.array([(x, y), (x + side, y), (x + side, y + side), (x, y + side)], np.float64)


def search_again(
    grey: np.ndarray, markers: Markers, geometries: Iterable[SheetGeometry]
) -> Markers:
    """Each missing marker looked for where the found ones put it, for each sheet it may be (A4
    and Letter place the corners differently). Needs two markers to predict from."""
    if len(markers.found) < 2 or not markers.missing:
        return markers
    found = dict(markers.found)
    recovered: set[int] = set()
    tried: list[np.ndarray] = []
    for geometry in geometries:
        to_photo = sheet_to_photo(markers, geometry)
        if to_photo is None:
            continue
        for marker_id in markers.missing:
            if marker_id in found:
                continue
            # Sheets that place this marker within a millimetre of one tried are not tried again.
            spot = project(to_photo, marker_corners_mm(geometry)[marker_id]).mean(axis=0)
            if any(np.linalg.norm(spot - t) < 2.0 for t in tried):
                continue
            tried.append(spot)
            quad = _search_one(grey, marker_id, to_photo, geometry)
            if quad is not None:
                found[marker_id] = quad
                recovered.add(marker_id)
    return Markers(found, markers.recovered | frozenset(recovered), markers.others)


def placement(markers: Markers, geometries: Iterable[SheetGeometry], shape: tuple[int, ...]) -> str:
    """Where each missing marker is, as words for an error: cut off or in the photo but
    unreadable, as the found markers place it (on every sheet it may be, or 'probably')."""
    h, w = shape[:2]
    words = []
    transforms = [(g, t) for g in geometries if (t := sheet_to_photo(markers, g)) is not None]
    for marker_id in markers.missing:
        outside = []
        for geometry, to_photo in transforms:
            quad = project(to_photo, marker_corners_mm(geometry)[marker_id])
            outside.append(
                bool(
                    quad[:, 0].min() < 0
                    or quad[:, 1].min() < 0
                    or quad[:, 0].max() > w - 1
                    or quad[:, 1].max() > h - 1
                )
            )
        name = CORNER_NAMES[marker_id]
        if not outside:
            words.append(name)
        elif all(outside):
            words.append(f"{name} (outside the photo: cut off)")
        elif not any(outside):
            words.append(f"{name} (in the photo but unreadable: covered, in glare or in shadow)")
        else:
            words.append(f"{name} (at the photo's edge, or covered)")
    return ", ".join(words)
