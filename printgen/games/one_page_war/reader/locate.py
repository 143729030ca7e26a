"""Finding the sheet in a photo: which sheet it is, and the homography from the photo to the
sheet's millimetres, with the checks that say whether the photo is good enough.

    markers (markers.py: found, then a missing one looked for again where the others put it)
    -> for each sheet this printgen knows (layout, version, paper): a homography from the
       markers, refined on the printed grid (grid.py) when fewer than four were found
    -> the QR code, read where that homography puts it: it names the sheet
    -> without a readable QR code, the sheet whose printed grid the photo fits best, its mode
       (duel, solo, team) from the printed text, and the sheet id reported as unread.

All positions come from `geometry.py`, the one geometry the sheet was drawn from."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property

import cv2
import numpy as np

from printgen.errors import LayoutError
from printgen.games.one_page_war.geometry import (
    GAME_NAME,
    Element,
    Kind,
    SheetGeometry,
    SheetTag,
    sheet_geometry,
)
from printgen.games.one_page_war.layout import layout_names, layout_versions, load_layout
from printgen.games.one_page_war.reader import grid
from printgen.games.one_page_war.reader.blur import (
    BLURRED_PHOTO_PX,
    BlurField,
    BlurSpot,
    blur_mm,
    blur_spots,
    photo_blur_px,
    readable_blur_mm,
    spots_median,
    too_soft,
)
from printgen.games.one_page_war.reader.errors import (
    RETAKE,
    ForeignSheet,
    MarkerMissing,
    NoSheet,
    PoorPhoto,
    SeveralSheets,
    SquaresTooSmall,
)
from printgen.games.one_page_war.reader.markers import (
    CORNER_NAMES,
    Markers,
    find_markers,
    marker_corners_mm,
    placement,
    search_again,
    sheet_to_photo,
)
from printgen.games.one_page_war.reader.quantile import percentile
from printgen.render.units import Paper

# The rectified sheet's resolution: a 14 mm square becomes 84 pixels.
PX_PER_MM = 6.0
# Where cv2.perspectiveTransform takes a point for one at infinity (Located._in_photo).
FLT_EPSILON = float(np.finfo(np.float32).eps)
# Below this many photo pixels across a square, digits are too small to read safely. Measured
# (docs/reader.md, "Resolution"): squares of 22 to 26 px still read with no misread accepted,
# more of them unsure; under 22 px too few photos were seen to vouch for it, so 24 is the floor.
# Under 28 px the photo is read with advice to move closer.
MIN_SQUARE_PX = 24.0
WARN_SQUARE_PX = 28.0
# Marker corners further than this from where the sheet puts them: the sheet is not flat.
WARN_FIT_MM = 0.8
MAX_FIT_MM = 2.5
# Edge blur (Gaussian sigma, mm on the sheet) at the markers over which the photo is called soft
# in the advice. Whether it is too soft to read is judged against the squares' own writing
# (reader/reading.py), not here.
WARN_BLUR_MM = 0.3
# The printed grid, found where fewer than four markers put it, must agree this well: this share
# of the squares and tick boxes found, at this RMS distance (mm) from the fitted homography.
MIN_GRID_MATCHED = 0.6
MAX_GRID_RESIDUAL_MM = 0.35
# Without the QR code, the sheet is the one whose printed outlines the photo fits: at least this
# contrast (ink on the lines against beside them), and this many times the next sheet's.
MIN_FIT_SCORE = 0.012
FIT_MARGIN = 3.0


@dataclass(frozen=True)
class Candidate:
    """A sheet this printgen can read: a layout at one of its versions, on one paper."""

    layout: str
    version: int
    paper: Paper
    geometry: SheetGeometry

    @property
    def label(self) -> str:
        return f"layout {self.layout} v{self.version} on {self.paper.label}"


@cache
def known_sheets() -> tuple[Candidate, ...]:
    """Every layout, version and paper a One Page War sheet may have been printed from."""
    found = []
    for name in layout_names():
        for version in reversed(layout_versions(name)):  # the newest first
            layout = load_layout(name, version)
            for paper in (Paper.A4, Paper.LETTER):
                try:
                    geometry = sheet_geometry(layout, paper)
                except LayoutError:
                    continue  # a layout that does not fit this paper was never printed on it
                found.append(Candidate(name, version, paper, geometry))
    return tuple(found)


@dataclass(frozen=True)
class SheetIdentity:
    """Which sheet a photo shows: from its QR code, or, when that cannot be read, from what the
    markers and the printed sheet fit best (then the sheet id is None: unread)."""

    layout: str
    version: int
    paper: Paper
    mode: str  # duel, solo or team
    sheet_id: str | None

    @classmethod
    def of(cls, tag: SheetTag) -> SheetIdentity:
        return cls(tag.layout, tag.version, tag.paper, tag.mode, tag.sheet_id)

    @property
    def shown_id(self) -> str:
        return self.sheet_id or "(id unread)"


@dataclass(frozen=True)
class Located:
    """A sheet found in a photo: which sheet, and how photo pixels map to its millimetres."""

    tag: SheetIdentity
    geometry: SheetGeometry
    homography: np.ndarray  # photo pixels -> rectified pixels (PX_PER_MM)
    fit_error_mm: float  # RMS distance of the marker corners (or the grid) from the fit
    square_px: float  # the smallest square's side in photo pixels
    blur_mm: float  # edge blur at the markers, as a Gaussian sigma in mm on the sheet
    markers: tuple[int, ...]  # the markers the homography rests on
    advice: tuple[str, ...]  # what to improve, when the photo is readable but not ideal
    blur_px: float = 0.0  # the same blur in photo pixels
    blur_spots: tuple[BlurSpot, ...] = ()  # each marker's blur (pixels) and place in the photo
    # Found in the photo turned over left to right (a front camera's or a webcam's picture):
    # the homography and the blur spots are those of the turned photo.
    mirrored: bool = False

    def blur_at(self, e: Element) -> float:
        """The blur (Gaussian sigma, mm on the sheet) where element `e` stands: the photo's
        blur in pixels there over how many pixels a millimetre spans there."""
        known = self._blur_by_element.get(e)
        if known is not None:
            return known
        x, y = e.centre
        blur = self._blur_field.at(*self._in_photo(x * PX_PER_MM, y * PX_PER_MM))
        self._blur_by_element[e] = found = blur / max(self.photo_px_per_mm(x, y), 1e-6)
        return found

    def photo_px_per_mm(self, x: float, y: float) -> float:
        """How many photo pixels a millimetre of the sheet spans at (x, y) mm: the square root
        of the photo's area a square millimetre there covers."""
        k = PX_PER_MM
        ax, ay = self._in_photo(x * k, y * k)
        bx, by = self._in_photo((x + 1) * k, y * k)
        cx, cy = self._in_photo(x * k, (y + 1) * k)
        (ux, uy), (vx, vy) = (bx - ax, by - ay), (cx - ax, cy - ay)
        return math.sqrt(abs(ux * vy - uy * vx))

    def _in_photo(self, x: float, y: float) -> tuple[float, float]:
        """A rectified pixel's place in the photo (cv2.perspectiveTransform's arithmetic, in
        plain floats: on three points numpy's arrays cost ten times the sums)."""
        m = self._to_photo
        w = x * m[6] + y * m[7] + m[8]
        w = 1.0 / w if abs(w) > FLT_EPSILON else 0.0
        return (x * m[0] + y * m[1] + m[2]) * w, (x * m[3] + y * m[4] + m[5]) * w

    # Worked out once per photo: a sheet asks for the blur at each of its cells, some twice.
    @cached_property
    def _to_photo(self) -> tuple[float, ...]:
        return tuple(np.linalg.inv(self.homography).ravel().tolist())

    @cached_property
    def _blur_field(self) -> BlurField:
        return BlurField.of(self.blur_spots, self.blur_px)

    @cached_property
    def _blur_by_element(self) -> dict[Element, float]:
        return {}


@dataclass(frozen=True)
class Fit:
    """One candidate sheet laid on the photo."""

    candidate: Candidate
    to_mm: np.ndarray  # photo pixels -> sheet mm
    error_mm: float  # marker corners' RMS distance from the fit (the grid's, when refined)
    grid_matched: float | None  # when refined on the grid: the share of its elements found

    @property
    def homography(self) -> np.ndarray:
        return np.diag([PX_PER_MM, PX_PER_MM, 1.0]) @ self.to_mm

    @property
    def grid_ok(self) -> bool:
        return self.grid_matched is None or (
            self.grid_matched >= MIN_GRID_MATCHED and self.error_mm <= MAX_GRID_RESIDUAL_MM
        )


def _anchors(markers: Markers, geometry: SheetGeometry) -> tuple[np.ndarray, np.ndarray]:
    targets = marker_corners_mm(geometry)
    ids = sorted(markers.found)
    photo = np.vstack([markers.found[i] for i in ids]).astype(np.float64)
    return photo, np.vstack([targets[i] for i in ids])


def _marker_error(to_mm: np.ndarray, anchors: tuple[np.ndarray, np.ndarray]) -> float:
    photo, mm = anchors
    projected = cv2.perspectiveTransform(photo.reshape(-1, 1, 2), to_mm).reshape(-1, 2)
    return float(np.sqrt(np.mean(np.sum((projected - mm) ** 2, axis=1))))


def _fit(grey: np.ndarray, markers: Markers, candidate: Candidate) -> Fit | None:
    geometry = candidate.geometry
    to_photo = sheet_to_photo(markers, geometry)
    if to_photo is None:
        return None
    to_mm = np.linalg.inv(to_photo)
    anchors = _anchors(markers, geometry)
    if len(markers.found) == 4 and not markers.recovered:
        return Fit(candidate, to_mm, _marker_error(to_mm, anchors), None)
    # Fewer markers, or one found again less sharply: the printed grid makes the fit certain.
    refined = grid.refine(grey, to_mm, geometry, anchors)
    return Fit(candidate, refined.to_mm, refined.residual_mm, refined.matched)


def _on_one_sheet(markers: Markers, geometries: list[SheetGeometry]) -> Markers:
    """Of a marker found at two places (a corner of another sheet in the photo too), the place
    that lies on one flat sheet with the other markers (the least RMS error over the sheets it
    may be). The larger of the two, kept first, was the other sheet's as often as not, and the
    photo was refused: a sheet bent by 58 to 61 mm, or one photographed from the side."""
    (marker_id,) = markers.twice

    def error(m: Markers) -> float:
        fits = []
        for geometry in geometries:
            to_photo = sheet_to_photo(m, geometry)
            if to_photo is not None:
                fits.append(_marker_error(np.linalg.inv(to_photo), _anchors(m, geometry)))
        return min(fits, default=np.inf)

    return min((markers, markers.swapped(marker_id)), key=error)


def _fits(grey: np.ndarray, markers: Markers, candidates: tuple[Candidate, ...]) -> list[Fit]:
    """Each candidate sheet laid on the photo; those refined on the grid must agree with it."""
    fits = [f for c in candidates if (f := _fit(grey, markers, c)) is not None]
    return [f for f in fits if f.grid_ok]


def locate(grey: np.ndarray, source: str, found: Markers | None = None) -> Located:
    """Where the sheet lies in the photo and which sheet it is (`found`: the markers
    `find_markers` gave already)."""
    candidates = known_sheets()
    geometries = [c.geometry for c in candidates]
    markers = found if found is not None else find_markers(grey)
    if not markers.found:
        _refuse_too_few_pixels(grey.shape, geometries, source)
        _refuse_no_markers(grey, source)
    if len(markers.twice) >= 2:
        # Which sheet the player meant is theirs to say, and the larger of each marker could
        # come from either sheet (one photo read so gave one sheet's cells, the other ignored).
        corners = ", ".join(CORNER_NAMES[i] for i in sorted(markers.twice))
        twice = (
            "all four corner markers are"
            if len(markers.twice) == 4
            else f"the {corners} markers are each"
        )
        raise SeveralSheets(
            f"{source}: the photo holds more than one sheet ({twice} in it twice): "
            "photograph one sheet at a time, the others out of the picture"
        )
    if markers.twice:
        markers = _on_one_sheet(markers, geometries)
    markers = search_again(grey, markers, geometries)
    if not markers.enough:
        _refuse_missing(grey, markers, geometries, source)

    fits = _fits(grey, markers, candidates)
    if not fits and markers.recovered:
        # A marker found again that the printed grid does not confirm was not that marker.
        markers = Markers({i: q for i, q in markers.found.items() if i not in markers.recovered})
        fits = _fits(grey, markers, candidates) if markers.enough else []
    if not fits:
        _refuse_missing(grey, markers, geometries, source, grid_failed=markers.enough)
    fits.sort(key=lambda f: (-(f.grid_matched or 0.0), f.error_mm))
    # Too small to read digits is also too small for the QR code: say the useful thing first.
    geometry = fits[0].candidate.geometry
    _refuse_small(_square_sides_px(fits[0].homography, geometry), grey.shape, geometry, source)

    text, hidden = _read_qr(grey, fits, all_four=not markers.missing)
    # A code whose corner squares do not show is covered (a finger, a torn corner), not soft.
    keep = "uncovered and in view" if hidden else "in focus and free of glare"
    if text is not None:
        tag = _tag(text, source)
        fit = _fit_for(tag, fits, grey, source)
        identity = SheetIdentity.of(tag)
        advice: list[str] = []
    else:
        fit = _best_fit(grey, fits, markers, source)
        c = fit.candidate
        mode = _printed_mode(grey, fit, fits)
        if mode is None:
            raise NoSheet(
                f"{source}: found the markers but could not read the sheet's QR code (in the "
                "right-hand column), and cannot tell from the printed text whether it is a duel, "
                f"solo or team sheet;{_soft_note(grey, markers, c.geometry)} make sure the QR "
                f"code is {keep}, and {RETAKE}"
            )
        c = fit.candidate
        identity = SheetIdentity(c.layout, c.version, c.paper, mode, None)
        why = "is covered (its corner squares do not show)" if hidden else "could not be read"
        advice = [
            f"the QR code {why}, so the sheet id is unknown (the paper and layout come from the "
            f"printed grid): keep the QR code {keep}"
        ]
    geometry = fit.candidate.geometry
    if fit.error_mm > MAX_FIT_MM:
        raise PoorPhoto(
            f"{source}: the markers sit {fit.error_mm:.1f} mm (RMS) from where a flat sheet puts "
            f"them; the sheet is bent or folded. Lay it flat and {RETAKE}"
        )
    h = fit.homography
    sides_px = _square_sides_px(h, geometry)
    _refuse_small(sides_px, grey.shape, geometry, source)
    square_px = sides_px[0]
    blur = blur_mm(grey, markers, geometry)
    spots = blur_spots(grey, markers)
    spread_px = spots_median(spots)
    if blur > WARN_BLUR_MM:
        advice.append(f"the photo is a little soft (edges spread over {blur:.1f} mm): focus")
    if square_px < WARN_SQUARE_PX:
        advice.append(f"the squares are only {square_px:.0f} pixels across: move closer next time")
    if fit.error_mm > WARN_FIT_MM:
        advice.append(
            f"the sheet is not quite flat (markers {fit.error_mm:.1f} mm off): flatten it next time"
        )
    if markers.missing:
        names = ", ".join(CORNER_NAMES[i] for i in markers.missing)
        advice.append(
            f"read from {len(markers.found)} corner markers and the printed grid ({names} not "
            "found): keep all four corners in view and uncovered"
        )
    return Located(
        identity,
        geometry,
        h,
        fit.error_mm,
        square_px,
        blur,
        tuple(sorted(markers.found)),
        tuple(advice),
        spread_px,
        spots,
    )


def _read_qr(grey: np.ndarray, fits: list[Fit], all_four: bool) -> tuple[str | None, bool]:
    """The QR code's text, read where each candidate sheet puts it (the best-fitting first; a
    place already tried is not tried again), then anywhere in the photo unless it was hidden
    where the fit of `all_four` markers puts it; and whether, unread, it was hidden: under two
    of its finder patterns at every place tried."""
    tried: list[np.ndarray] = []
    hidden = True
    for fit in fits:
        qr = fit.candidate.geometry.find(Kind.QR).rect
        corners = np.array(
            [(qr.x, qr.y), (qr.right, qr.y), (qr.right, qr.bottom), (qr.x, qr.bottom)]
        )
        quad = cv2.perspectiveTransform(
            corners.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(fit.to_mm)
        ).reshape(4, 2)
        side = float(np.linalg.norm(quad[1] - quad[0]))
        if any(np.abs(quad - t).max() < 0.05 * side for t in tried):
            continue
        tried.append(quad)
        text, shown = _decode_qr(grey, fit.homography, fit.candidate.geometry)
        if text:
            return text, False
        hidden = hidden and not shown
    if hidden and all_four and fits[0].error_mm <= WARN_FIT_MM:
        # Four markers on a flat sheet put the code within a millimetre of where it was looked
        # for: hidden there, it is nowhere else (the search anywhere took 50 ms of 0.24 s).
        return None, True
    text = _decode_qr_anywhere(grey)
    return text, hidden and text is None


def _fit_for(tag: SheetTag, fits: list[Fit], grey: np.ndarray, source: str) -> Fit:
    """The fit of the sheet the QR code names, checked against the printed grid: a QR code that
    contradicts the sheet it stands on (pasted from another, or of another paper) is an error."""
    named = [
        f
        for f in fits
        if (f.candidate.layout, f.candidate.version, f.candidate.paper)
        == (tag.layout, tag.version, tag.paper)
    ]
    if not named:
        others = ", ".join(sorted({f.candidate.label for f in fits}))
        raise ForeignSheet(
            f"{source}: the QR code names {tag.layout} v{tag.version} on {tag.paper.label}, but "
            f"the markers fit none of the sheets that could be ({others}); the QR code may belong "
            f"to another sheet. Type the sheet in, or {RETAKE.split(', or')[0]}"
        )
    fit = named[0]
    different = [f for f in fits if not _reads_alike(f.candidate, fit.candidate)]
    if not different:
        return fit
    inks: dict[tuple[bytes, float, float], np.ndarray] = {}

    def score(f: Fit) -> float:
        # Sheets placed alike (the versions of one paper) share the photo's ink there.
        g = f.candidate.geometry
        key = (f.to_mm.tobytes(), g.width, g.height)
        if key not in inks:
            inks[key] = grid.sheet_ink(grey, f.to_mm, g)
        return grid.fit_score(grey, f.to_mm, g, inked=inks[key])

    rivals = {id(f): score(f) for f in different}
    best_other = max(different, key=lambda f: rivals[id(f)])
    # Only a rival whose lines are there at all is weighed against the named sheet.
    if rivals[id(best_other)] >= MIN_FIT_SCORE and score(fit) * FIT_MARGIN < rivals[id(best_other)]:
        raise ForeignSheet(
            f"{source}: the QR code says {fit.candidate.label}, but the printed sheet is "
            f"{best_other.candidate.label}; the QR code belongs to another sheet. Type the sheet "
            "in, or photograph it with its own QR code"
        )
    return fit


def _soft_note(grey: np.ndarray, markers: Markers, geometry: SheetGeometry) -> str:
    blur = blur_mm(grey, markers, geometry)
    if blur <= WARN_BLUR_MM:
        return ""
    return f" the photo is soft (edges spread over {blur:.2f} mm): hold still and focus;"


def _best_fit(grey: np.ndarray, fits: list[Fit], markers: Markers, source: str) -> Fit:
    """Without the QR code: the sheet whose printed outlines the photo fits best, clearly."""
    scored = sorted(
        ((grid.fit_score(grey, f.to_mm, f.candidate.geometry), f) for f in fits),
        key=lambda sf: -sf[0],
    )
    best_score, best = scored[0]
    rivals = [s for s, f in scored[1:] if not _reads_alike(f.candidate, best.candidate)]
    clear = not rivals or best_score >= FIT_MARGIN * max(rivals[0], 0.0)
    if best_score < MIN_FIT_SCORE or not clear:
        raise NoSheet(
            f"{source}: found the markers but could not read the sheet's QR code (in the "
            "right-hand column), and the printed grid does not say which sheet it is;"
            f"{_soft_note(grey, markers, best.candidate.geometry)} make sure the QR code is in "
            f"focus and free of glare, and {RETAKE}"
        )
    # Versions that put every square, tick box and S space in the same place read alike; the
    # one whose whole line work (dice and S spaces, frames) fits best is named.
    alike = [f for _, f in scored if _reads_alike(f.candidate, best.candidate)]
    if len(alike) > 1:
        every_line = (*grid.OUTLINED, *grid.ROUNDED)
        best = max(
            alike,
            key=lambda f: grid.fit_score(grey, f.to_mm, f.candidate.geometry, every_line, True),
        )
    return best


def _printed_mode(grey: np.ndarray, fit: Fit, fits: list[Fit]) -> str | None:
    """The mode from the printed text, as the chosen version prints it, else as another that
    reads alike does (their text may differ); None when unclear, or when they disagree."""
    alike = [fit] + [f for f in fits if f is not fit and _reads_alike(f.candidate, fit.candidate)]
    told = set()
    for f in alike:
        c = f.candidate
        mode = grid.printed_mode(grey, f.to_mm, c.layout, c.paper, c.version)
        if mode is not None:
            told.add(mode)
    return told.pop() if len(told) == 1 else None


READ_KINDS = (Kind.SQUARE, Kind.TICK, Kind.ALLIES, Kind.QR)


def _reads_alike(a: Candidate, b: Candidate) -> bool:
    """Sheets whose read elements (and QR code) stand in the same places on the same paper."""
    return a.paper is b.paper and all(
        a.geometry.select(kind) == b.geometry.select(kind) for kind in READ_KINDS
    )


def _refuse_no_markers(grey: np.ndarray, source: str) -> None:
    text = _decode_qr_anywhere(grey)
    if text is None:
        spread = photo_blur_px(grey)
        hint = (
            f"; the photo is blurred (its edges spread over {spread:.0f} pixels one way): hold "
            "the phone still and tap the sheet to focus"
            if spread > BLURRED_PHOTO_PX
            else ""
        )
        raise NoSheet(
            f"{source}: no One Page War sheet found (none of its four corner markers and no "
            # A sheet too small in the picture shows no marker either (a screenshot of a
            # gallery, a shot from across the table): say how large it should be.
            f"QR code){hint}; retake the photo with the whole sheet flat in view, filling most "
            f"of the picture, or type the sheet in{_shrunk_hint(grey.shape)}"
        )
    tag = _tag(text, source)  # a foreign QR code is the clearer error
    # A sheet printed at 100 % on the other paper loses its corners: an A4 page is 17.6 mm
    # wider than Letter, and its markers stand 7 mm in from its edges.
    other = "US Letter" if tag.paper is Paper.A4 else "A4"
    article = "an" if tag.paper.label.startswith("A") else "a"
    raise MarkerMissing(
        f"{source}: found the QR code of sheet {tag.sheet_id} but none of its four corner "
        f"markers; the whole sheet must be in the photo, its corners printed ({article} "
        f"{tag.paper.label} sheet printed on {other} paper at 100 % loses them: print the "
        f"sheet made for {other}, or this one on {tag.paper.label}). Uncover all four corners "
        f"and {RETAKE}"
    )


def _refuse_missing(
    grey: np.ndarray,
    markers: Markers,
    geometries: list[SheetGeometry],
    source: str,
    grid_failed: bool = False,
) -> None:
    _refuse_too_few_pixels(grey.shape, geometries, source)
    text = _decode_qr_anywhere(grey) if not grid_failed else None
    if text is not None:
        _tag(text, source)  # a foreign QR code is the clearer error
    # Blur that would wash out ordinary writing is the likelier cause of the lost markers.
    blur = blur_mm(grey, markers, geometries[0])
    if too_soft(blur, None):
        raise PoorPhoto(
            f"{source}: the photo is too blurred to find the sheet's corner markers or read "
            f"its digits (edges spread over {blur:.2f} mm; ordinary writing reads up to "
            f"{readable_blur_mm(None):.2f} mm); hold the phone still, tap the sheet to focus, "
            f"use more light, and {RETAKE.split(', or')[0]}{_shrunk_hint(grey.shape)}"
        )
    seen = ", ".join(CORNER_NAMES[i] for i in sorted(markers.found)) or "none"
    missing = placement(markers, geometries, grey.shape)
    why = (
        "the printed grid did not confirm where the found ones put the sheet"
        if grid_failed
        else "three are needed, or two in opposite corners"
    )
    soft = (
        f" The photo is soft, too (edges spread over {blur:.2f} mm): hold still and focus."
        if blur > WARN_BLUR_MM
        else ""
    )
    # What helps is what lost them: a frame that cut a corner off wants the corners in it.
    cut_off, in_view = "(outside the photo: cut off)" in missing, "(in the photo" in missing
    helps = (
        "Get all four corners in the frame"
        if cut_off and not in_view
        else "Get all four corners in the frame, uncovered,"
        if cut_off or "(at the photo's edge" in missing
        else "Uncover all four corners"
    )
    raise MarkerMissing(
        f"{source}: found {len(markers.found)} of the sheet's 4 corner markers (seen: {seen}; "
        f"missing: {missing}); {why}.{soft} {helps} and {RETAKE}"
    )


# QR decoding of a small, soft code is hit-or-miss at any one resolution: the crop is tried at
# these scales (px/mm), as it is, sharpened and binarised, with both of OpenCV's QR detectors.
QR_SCALES = (8.0, 6.0, 4.0, 5.0, 3.0)


def _binary(image: np.ndarray) -> np.ndarray:
    return cv2.threshold(image, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]


def _decode_qr(grey: np.ndarray, h: np.ndarray, geometry: SheetGeometry) -> tuple[str | None, bool]:
    """The QR code's text, read from a small rectified crop where the sheet puts it, and
    whether two or more of its finder patterns show there."""
    qr = geometry.find(Kind.QR)
    margin = 4.0

    def looks(scale: float) -> tuple[np.ndarray, ...]:
        """The crop at `scale` px/mm: as it is, binarised, sharpened, sharpened and binarised."""
        x0, y0 = qr.x - margin, qr.y - margin
        size = int((qr.w + 2 * margin) * scale)
        to_crop = np.array([[scale, 0, -x0 * scale], [0, scale, -y0 * scale], [0, 0, 1]]) @ (
            np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1]) @ h
        )
        crop = cv2.warpPerspective(grey, to_crop, (size, size), flags=cv2.INTER_CUBIC)
        # Sharpened (unsharp mask) copies give soft codes back their module edges.
        sharp = cv2.addWeighted(crop, 2.5, cv2.GaussianBlur(crop, (0, 0), 0.6 * scale), -1.5, 0)
        return crop, _binary(crop), sharp, _binary(sharp)

    crops = {scale: looks(scale) for scale in QR_SCALES[:1]}
    if not _finders_show(crops[QR_SCALES[0]], QR_SCALES[0]):
        crops.update((scale, looks(scale)) for scale in QR_SCALES[1:])
        if not any(_finders_show(images, scale) for scale, images in crops.items()):
            return None, False  # covered or torn: none of the 40 tries below could read it
    detectors = (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco())
    for scale in QR_SCALES:
        for image in crops.get(scale) or looks(scale):
            for detector in detectors:
                try:
                    text, _, _ = detector.detectAndDecode(image)
                except cv2.error:
                    continue
                if text:
                    return str(text), True
    return None, True


def _finders_show(images: tuple[np.ndarray, ...], scale: float) -> bool:
    """Whether two or more finder patterns show in a crop at `scale` px/mm (`_decode_qr`'s
    looks), however it is binarised: as `_decode_qr` does, with thin gaps in its black filled
    (a clogged nozzle's white stripes cut every ring of a code the detectors still read, the
    printers set's sheet 51017; a closing of half a module, about 0.5 mm, joins them), or
    against the paper around each pixel (a laser's worn drum fades part of a code the search
    of the whole photo still reads, sheet 51031: one threshold for the crop loses its faded
    finders). The cheapest looks first: a code in view shows its finders at once."""
    if percentile(images[0], 98) - percentile(images[0], 2) < QR_MIN_CONTRAST:
        return False  # paper alone (a code torn off, or under glare): its noise is no code
    kernel = np.ones((max(2, round(scale / 2)),) * 2, np.uint8)
    block = int(3 * scale) | 1  # some three modules

    def looks() -> Iterator[np.ndarray]:
        yield from (images[1], images[3])
        for binary in (images[1], images[3]):
            yield 255 - cv2.morphologyEx(255 - binary, cv2.MORPH_CLOSE, kernel)
        yield cv2.adaptiveThreshold(
            images[0], 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, 5
        )

    return any(finder_patterns(look) >= 2 for look in looks())


# Grey levels between a crop's darkest and lightest (2nd and 98th percentiles) under which it
# holds no code: a flat crop's noise, split at one threshold, made thousands of outlines.
QR_MIN_CONTRAST = 24

# A QR code's finder pattern: a black ring of 7 x 7 modules round a solid 3 x 3 square, the
# ring's outline enclosing 49 / 9 times the square's area (loosely: perspective and blur move
# it).
FINDER_AREAS = (2.5, 12.0)
FINDER_MIN_PX = 7


def finder_patterns(binary: np.ndarray) -> int:
    """How many QR finder patterns (square rings holding a square) a black-on-white image
    shows. Both of OpenCV's detectors need three: where under two show however the crop is
    looked at (a finger or a torn corner over the code), decoding is not tried, which took
    0.3 s of a photo whose code was covered (docs/reader.md, "Locating")."""
    contours, hierarchy = cv2.findContours(255 - binary, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return 0
    parent = hierarchy[0][:, 3]
    # Outlines two levels in (ink, hole, ink), with the ring two levels out: the ring's hole
    # may hold specks too. Found with numpy: a noisy crop has thousands of outlines.
    grand = np.where(parent >= 0, parent[np.maximum(parent, 0)], -1)
    low, high = FINDER_AREAS
    rings: set[int] = set()
    for inner in np.flatnonzero(grand >= 0).tolist():
        ring = int(grand[inner])
        if ring in rings:
            continue
        _, _, w, h = cv2.boundingRect(contours[ring])
        inner_area = cv2.contourArea(contours[inner])
        if (
            min(w, h) >= FINDER_MIN_PX
            and 0.6 <= w / h <= 1.6
            and inner_area > 0
            and low <= cv2.contourArea(contours[ring]) / inner_area <= high
        ):
            rings.add(ring)
    return len(rings)


def _decode_qr_anywhere(grey: np.ndarray) -> str | None:
    k = min(1.0, 1600 / max(grey.shape))
    small = cv2.resize(grey, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else grey
    try:
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(small)
    except cv2.error:
        return None
    return str(text) if text else None


def _tag(text: str, source: str) -> SheetTag:
    if not text.lower().startswith(f"{GAME_NAME}/"):
        shown = repr(text) if len(text) <= 60 else f"{text[:60]!r}... ({len(text)} characters)"
        raise ForeignSheet(
            f"{source}: the QR code says {shown}, which is not a One Page War sheet; "
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


# Squares on the sheet's far side this many times narrower than its widest: a photo taken from
# the side. Up to 35 degrees off straight down (what the reader promises) they are 1.3 to 1.46
# times narrower; at 45 degrees 1.44 to 1.71, at 55 degrees 1.53 to 1.88. Moving closer helps
# such a photo less than holding the phone above the sheet.
STEEP_RATIO = 1.5


def _refuse_small(
    sides_px: tuple[float, float],
    shape: tuple[int, ...],
    geometry: SheetGeometry,
    source: str,
) -> None:
    """Refuse a photo whose narrowest square (of `sides_px`, its narrowest and widest) is too
    small to read, saying what would help (`shape`: the photo's, of this sheet)."""
    narrowest, widest = sides_px
    if narrowest >= MIN_SQUARE_PX:
        return
    _refuse_too_few_pixels(shape, [geometry], source)  # moving closer would not do
    if widest >= STEEP_RATIO * narrowest:
        where, what_helps = (
            " on the sheet's far side",
            "the photo is taken at a steep angle: hold the phone above the sheet, close enough "
            "that the sheet fills the photo,",
        )
    else:
        where, what_helps = "", "move closer so the sheet fills the photo,"
    raise SquaresTooSmall(
        f"{source}: the squares are only {int(narrowest)} pixels across{where} in the photo (at "
        f"least {MIN_SQUARE_PX:.0f} are needed); {what_helps} and {RETAKE.split(', or')[0]}"
        f"{_shrunk_hint(shape)}",
        narrowest,
    )


# Phones take photos of 8 MP and more. One of fewer pixels was most likely made smaller on its
# way (a messaging app sends about 1600 pixels on the long side, an e-mail's "small" size
# 640 x 480), and the original, not a closer photo, is what helps.
SHRUNK_PIXELS = 2_000_000


def _shrunk_hint(shape: tuple[int, ...]) -> str:
    height, width = shape[:2]
    if width * height >= SHRUNK_PIXELS:
        return ""
    return (
        f" (the photo is {width} x {height} pixels: if an app or an e-mail made it smaller, "
        "the original may read as it is)"
    )


def _most_square_px(shape: tuple[int, ...], geometries: list[SheetGeometry]) -> float:
    """The most pixels across any sheet's squares could span in a photo of `shape`: the sheet
    filling the picture, either way round, seen straight on."""
    height, width = shape[:2]
    most = 0.0
    for g in geometries:
        side_mm = max(min(e.w, e.h) for e in g.select(Kind.SQUARE))
        px_per_mm = max(
            min(width / g.width, height / g.height), min(width / g.height, height / g.width)
        )
        most = max(most, side_mm * px_per_mm)
    return most


def _refuse_too_few_pixels(
    shape: tuple[int, ...], geometries: list[SheetGeometry], source: str
) -> None:
    """Refuse a photo too small to read any sheet even filling it: its pixels, not blur or a
    hidden corner, lost the markers, and only a larger photo helps."""
    most = _most_square_px(shape, geometries)
    if most >= MIN_SQUARE_PX:
        return
    height, width = shape[:2]
    raise PoorPhoto(
        f"{source}: the photo is only {width} x {height} pixels: even filling it, a sheet's "
        f"squares would be {int(most)} pixels across (at least {MIN_SQUARE_PX:.0f} are needed); "
        "take it at the camera's full size, or send the original if an app or an e-mail made "
        "it smaller"
    )


def _square_sides_px(h: np.ndarray, geometry: SheetGeometry) -> tuple[float, float]:
    """The narrowest and the widest square's shortest side in the photo, in pixels."""
    inverse = np.linalg.inv(h)
    sides = []
    for e in geometry.select(Kind.SQUARE):
        quad = np.array(
            [(e.x, e.y), (e.x + e.w, e.y), (e.x + e.w, e.y + e.h), (e.x, e.y + e.h)], np.float64
        )
        photo = cv2.perspectiveTransform((quad * PX_PER_MM).reshape(-1, 1, 2), inverse)
        photo = photo.reshape(4, 2)
        sides.append(min(np.linalg.norm(photo[i] - photo[(i + 1) % 4]) for i in range(4)))
    return float(min(sides)), float(max(sides))


def rectify(grey: np.ndarray, located: Located) -> np.ndarray:
    """The sheet, straightened and cleared of haze, at PX_PER_MM."""
    size = (
        int(round(located.geometry.width * PX_PER_MM)),
        int(round(located.geometry.height * PX_PER_MM)),
    )
    spread = _antialias_sigma(located)
    if spread > 0:
        grey = cv2.GaussianBlur(grey, (0, 0), spread)
    sheet = cv2.warpPerspective(
        grey, located.homography, size, flags=cv2.INTER_LINEAR, borderValue=255
    )
    return clear_haze(sheet)


# A veil over the whole sheet (a plastic sleeve, glare spread over the lens, a photo faded in
# an app, a picture made half transparent) lifts every grey towards the paper's, so that its
# printed black is grey and every mark reads fainter: ink is judged as a share of the paper's
# brightness (cells.Ink). Where even the sheet's darkest half percent (its markers, the QR code,
# the printed lines and the writing) stands above HAZE_SHARE of its paper's brightness, the
# veil is taken off, down to CLEARED_BLACK of the paper. The bench's photos stand at 0 to 2 %,
# a sheet faded to half its contrast at 52 %. A light print with a light pen can stand there
# too (its printers set: up to 54 %); cleared, it reads as a darker print does, no worse
# (docs/reader.md, "A veil, and sharpening turned up").
HAZE_SHARE = 0.35
CLEARED_BLACK = 0.15
# Past this the veil is thicker than the sheet shows through: taking it off would multiply the
# noise more than four times. Such a photo is read as it is.
HAZE_MOST = 0.8


def clear_haze(sheet: np.ndarray) -> np.ndarray:
    """`sheet` with its darkest grey brought down to CLEARED_BLACK of its paper's where a veil
    had lifted it past HAZE_SHARE (to HAZE_MOST); the paper's grey stays as it was."""
    counts = cv2.calcHist([sheet], [0], None, [256], [0, 256]).ravel().cumsum()
    darkest = float(np.searchsorted(counts, 0.005 * counts[-1]))
    paper = float(np.searchsorted(counts, 0.9 * counts[-1]))
    if not HAZE_SHARE * paper < darkest <= HAZE_MOST * paper:
        return sheet
    veil = (darkest - CLEARED_BLACK * paper) / (1 - CLEARED_BLACK)
    greys = (np.arange(256, dtype=np.float32) - veil) * (paper / (paper - veil))
    return cv2.LUT(sheet, np.clip(np.round(greys), 0, 255).astype(np.uint8))


# Photo pixels per rectified pixel past which the photo is smoothed before it is resampled.
FINER = 1.25


def _antialias_sigma(located: Located) -> float:
    """How far to spread a photo finer than the rectified sheet before sampling it (a Gaussian's
    sigma, photo pixels): sampled bare, every other pixel of a 300 dpi scan is skipped, and a
    halftone's dots or the grain of a pale stroke come out as scattered specks."""
    g = located.geometry
    finer = located.photo_px_per_mm(g.width / 2, g.height / 2) / PX_PER_MM
    return 0.5 * math.sqrt(finer**2 - 1) if finer > FINER else 0.0
