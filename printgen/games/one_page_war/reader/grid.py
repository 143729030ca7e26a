"""The sheet's printed line work (arena frames, square and tick box outlines, the S and dice
spaces), drawn from the one geometry the sheet is printed from, and matched against a photo.

Three uses: how well a photo fits a candidate sheet (which paper and layout, when the QR code
cannot say); a homography refined on the printed grid where the markers alone leave it loose
(two markers in opposite corners): each arena column, then each square and tick box, is found
near where the current homography puts it, and the homography is fitted again to all of them;
and a sheet that does not lie flat, which no homography follows: each cell read where the
printed boxes around it are found (`settle`)."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from printgen.games.one_page_war.geometry import (
    Element,
    Kind,
    Rect,
    SheetGeometry,
    sheet_geometry,
)
from printgen.games.one_page_war.reader.errors import ModelFileError
from printgen.games.one_page_war.reader.quantile import median
from printgen.render.units import Paper

# Lines are drawn this wide (mm) in the template: wider than printed, since a photo spreads them.
LINE_MM = 0.6
# Ink is judged against the paper's brightness over this distance (mm): more than a line's width,
# less than a shadow's.
PAPER_MM = 4.0
# The fit score: lines against the paper this far beside them (mm).
BESIDE_MM = (1.0, 2.2)

OUTLINED = (Kind.SQUARE, Kind.TICK)
ROUNDED = {Kind.ALLIES: 3.0, Kind.DICE: 2.5}  # corner radius (mm) of the dashed spaces
FRAME_RADIUS_MM = 2.0


def _rounded(canvas: np.ndarray, rect: Rect, radius: float, k: float, width: int) -> None:
    x0, y0, x1, y1 = rect.x * k, rect.y * k, rect.right * k, rect.bottom * k
    r = radius * k
    shift = 4  # cv2 draws sub-pixel positions in fixed point

    def p(x: float, y: float) -> tuple[int, int]:
        return (int(round(x * 2**shift)), int(round(y * 2**shift)))

    for a, b in (
        ((x0 + r, y0), (x1 - r, y0)),
        ((x0 + r, y1), (x1 - r, y1)),
        ((x0, y0 + r), (x0, y1 - r)),
        ((x1, y0 + r), (x1, y1 - r)),
    ):
        cv2.line(canvas, p(*a), p(*b), 1.0, width, cv2.LINE_AA, shift)
    if r >= 1:
        axes = (int(round(r * 2**shift)), int(round(r * 2**shift)))
        for centre, start in (
            ((x0 + r, y0 + r), 180),
            ((x1 - r, y0 + r), 270),
            ((x1 - r, y1 - r), 0),
            ((x0 + r, y1 - r), 90),
        ):
            cv2.ellipse(
                canvas, p(*centre), axes, 0, start, start + 90, 1.0, width, cv2.LINE_AA, shift
            )


def line_art(
    geometry: SheetGeometry,
    k: float,
    kinds: tuple[Kind, ...] = (*OUTLINED, *ROUNDED),
    frames: bool = True,
) -> np.ndarray:
    """The printed outlines of `kinds` (and the arena frames) at `k` px/mm: 1 on a line."""
    canvas = np.zeros((int(round(geometry.height * k)), int(round(geometry.width * k))), np.float32)
    width = max(1, int(round(LINE_MM * k)))
    if frames:
        for _, frame in geometry.frames:
            _rounded(canvas, frame, FRAME_RADIUS_MM, k, width)
    for e in geometry.elements:
        if e.kind not in kinds:
            continue
        if e.kind in OUTLINED:
            _rounded(canvas, e.rect, 0.0, k, width)
        elif e.kind in ROUNDED:
            _rounded(canvas, e.rect, ROUNDED[e.kind], k, width)
    return canvas


def rectify(grey: np.ndarray, to_mm: np.ndarray, geometry: SheetGeometry, k: float) -> np.ndarray:
    """The photo warped onto the sheet at `k` px/mm (`to_mm`: photo pixels to sheet mm)."""
    size = (int(round(geometry.width * k)), int(round(geometry.height * k)))
    scale = np.diag([k, k, 1.0])
    return cv2.warpPerspective(grey, scale @ to_mm, size, flags=cv2.INTER_AREA, borderValue=255)


def ink(rectified: np.ndarray, k: float, clip: float = 1.0, halo_mm: float = 0.0) -> np.ndarray:
    """0 where the sheet is paper, towards 1 where it is dark, whatever the light; at most
    `clip`, so that a bold pen stroke weighs no more than a faint printed line. The paper's
    brightness is the local maximum over PAPER_MM, found at 1 px/mm (it varies slowly); with
    `halo_mm`, the maximum of the least bright of each `halo_mm` (as `cells.Ink` takes it)."""
    h, w = rectified.shape
    seen = rectified
    if halo_mm > 0:
        size = int(round(halo_mm * k)) | 1
        seen = cv2.erode(rectified, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    small = cv2.resize(seen, (max(1, int(w / k)), max(1, int(h / k))), interpolation=cv2.INTER_AREA)
    size = int(round(PAPER_MM)) | 1
    paper = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    paper = cv2.GaussianBlur(paper.astype(np.float32), (0, 0), PAPER_MM / 2)
    paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    # In place: a whole sheet at 4 px/mm is 4 MB a copy, and each copy counts in the peak.
    np.maximum(paper, 8.0, out=paper)
    dark = rectified.astype(np.float32)
    np.divide(dark, paper, out=dark)
    np.subtract(1.0, dark, out=dark)
    return np.clip(dark, 0.0, clip, out=dark)


SCORE_PX_PER_MM = 3.0


def sheet_ink(grey: np.ndarray, to_mm: np.ndarray, geometry: SheetGeometry) -> np.ndarray:
    """The photo's ink on the sheet that `to_mm` places, as `fit_score` measures it."""
    return ink(rectify(grey, to_mm, geometry, SCORE_PX_PER_MM), SCORE_PX_PER_MM)


def fit_score(
    grey: np.ndarray,
    to_mm: np.ndarray,
    geometry: SheetGeometry,
    kinds: tuple[Kind, ...] = OUTLINED,
    frames: bool = False,
    inked: np.ndarray | None = None,
) -> float:
    """How much darker the sheet is on its printed outlines (of `kinds`) than just beside them,
    where `to_mm` puts them: near the printed lines' own contrast when the sheet is this one,
    near 0 when its lines fall elsewhere. `inked`: `sheet_ink` of the same, when already made."""
    k = SCORE_PX_PER_MM
    if inked is None:
        inked = sheet_ink(grey, to_mm, geometry)
    lines = line_art(geometry, k, kinds, frames) > 0.3
    near = _dilate(lines, BESIDE_MM[1] * k) & ~_dilate(lines, BESIDE_MM[0] * k)
    if not lines.any() or not near.any():
        return 0.0
    return float(inked[lines].mean() - inked[near].mean())


def _dilate(mask: np.ndarray, radius_px: float) -> np.ndarray:
    r = max(1, int(round(radius_px)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return cv2.dilate(mask.astype(np.uint8), kernel) > 0


@dataclass(frozen=True)
class Match:
    """Where a printed element was found, relative to where the homography put it (mm)."""

    rect: Rect
    shift: tuple[float, float]
    strength: float  # the normalised correlation at the peak


def _match(
    inked: np.ndarray,
    art: np.ndarray,
    rect: Rect,
    k: float,
    reach: float,
    pad: float,
    guess: tuple[float, float] = (0.0, 0.0),
) -> Match | None:
    """Find `rect`'s line art within `reach` mm of where it should be, moved by `guess` mm."""
    h, w = inked.shape
    tx0, ty0 = int(round((rect.x - pad) * k)), int(round((rect.y - pad) * k))
    tx1, ty1 = int(round((rect.right + pad) * k)), int(round((rect.bottom + pad) * k))
    gx, gy = int(round(guess[0] * k)), int(round(guess[1] * k))
    r = int(round(reach * k))
    wx0, wy0 = tx0 + gx - r, ty0 + gy - r
    # Both the template and the window searched must lie on the sheet.
    if min(tx0, ty0, wx0, wy0) < 0 or max(tx1, tx1 + gx + r) > w or max(ty1, ty1 + gy + r) > h:
        return None
    template = art[ty0:ty1, tx0:tx1]
    if template.std() < 1e-3:
        return None
    window = inked[wy0 : ty1 + gy + r, wx0 : tx1 + gx + r]
    scores = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
    _, peak, _, (px, py) = cv2.minMaxLoc(scores)
    if not np.isfinite(peak):
        return None
    # Sub-pixel peak by a parabola through the neighbours.
    dx = _parabola(scores, px, py, axis=1)
    dy = _parabola(scores, px, py, axis=0)
    return Match(rect, ((gx + px + dx - r) / k, (gy + py + dy - r) / k), float(peak))


def _parabola(scores: np.ndarray, px: int, py: int, axis: int) -> float:
    if axis == 1:
        if not 0 < px < scores.shape[1] - 1:
            return 0.0
        a, b, c = scores[py, px - 1], scores[py, px], scores[py, px + 1]
    else:
        if not 0 < py < scores.shape[0] - 1:
            return 0.0
        a, b, c = scores[py - 1, px], scores[py, px], scores[py + 1, px]
    denominator = a - 2 * b + c
    return float(0.5 * (a - c) / denominator) if denominator < 0 else 0.0


@dataclass(frozen=True)
class Refined:
    to_mm: np.ndarray  # photo pixels to sheet mm
    residual_mm: float  # RMS distance of the matched elements from where the homography puts them
    matched: float  # share of the squares and tick boxes found where the homography puts them


# Coarse: whole arena columns at 2 px/mm, as far as 16 mm off (less than half the columns'
# spacing, so a column is never taken for its neighbour). Fine: each square and tick box at
# 4 px/mm, then 6 px/mm, within a few mm (less than half the squares' spacing).
COARSE = (2.0, 16.0)
FINE = ((4.0, 3.0), (6.0, 1.2))
MIN_STRENGTH = 0.3
# Matching sees ink up to this level only: handwriting in the squares is much darker than the
# printed outlines, and would otherwise decide where the outlines are.
MATCH_CLIP = 0.15


def _elements(geometry: SheetGeometry) -> tuple[Element, ...]:
    return tuple(e for e in geometry.elements if e.kind in OUTLINED)


def _found(
    grey: np.ndarray, to_mm: np.ndarray, geometry: SheetGeometry, k: float, reach: float
) -> tuple[list[Match], int]:
    """Every square and tick box found near where `to_mm` puts it, and how many were sought."""
    inked = ink(rectify(grey, to_mm, geometry, k), k, MATCH_CLIP)
    outlines = _outlines(inked, geometry, k, reach)
    return [m for m in outlines if m is not None], len(outlines)


def _outlines(
    inked: np.ndarray,
    geometry: SheetGeometry,
    k: float,
    reach: float,
    guesses: list[tuple[float, float]] | None = None,
) -> list[Match | None]:
    """Each square's and tick box's outline (`_elements` order) found in `inked` at `k` px/mm
    within `reach` mm of its place, moved by its guess (mm); None where not found clearly."""
    art = line_art(geometry, k, OUTLINED, frames=False)
    elements = _elements(geometry)
    out = []
    for e, guess in zip(elements, guesses or [(0.0, 0.0)] * len(elements), strict=True):
        m = _match(inked, art, e.rect, k, reach, 1.2, guess)
        out.append(m if m is not None and m.strength >= MIN_STRENGTH else None)
    return out


# An element found within this distance (mm) of where the fitted homography puts it agrees.
AGREE_MM = 0.6


def refine(
    grey: np.ndarray,
    to_mm: np.ndarray,
    geometry: SheetGeometry,
    anchors: tuple[np.ndarray, np.ndarray],
    coarse: bool = True,
) -> Refined:
    """The homography fitted again to the printed grid, found near where `to_mm` puts it.

    `anchors`: (photo points, their sheet mm), the marker corners, always part of the fit."""
    if coarse:
        k, reach = COARSE
        inked = ink(rectify(grey, to_mm, geometry, k), k, MATCH_CLIP)
        art = line_art(geometry, k)
        columns = [
            m
            for a in geometry.arenas
            if (m := _match(inked, art, geometry.arena_frame(a.name), k, reach, 2.0)) is not None
            and m.strength >= MIN_STRENGTH
        ]
        to_mm = _refit(to_mm, columns, anchors, threshold_mm=3.0)
    for k, reach in FINE:
        matches, _ = _found(grey, to_mm, geometry, k, reach)
        to_mm = _refit(to_mm, matches, anchors, threshold_mm=AGREE_MM)
    k, reach = FINE[-1]
    matches, total = _found(grey, to_mm, geometry, k, reach)
    close = [np.hypot(*m.shift) for m in matches if np.hypot(*m.shift) <= AGREE_MM]
    residual = float(np.sqrt(np.mean(np.square(close)))) if close else float("inf")
    return Refined(to_mm, residual, len(close) / max(1, total))


def _correspondences(to_mm: np.ndarray, matches: list[Match]) -> tuple[np.ndarray, np.ndarray]:
    """Photo points and the sheet mm they show, from where each element was found."""
    from_mm = np.linalg.inv(to_mm)
    photo, sheet = [], []
    for m in matches:
        r = m.rect
        corners = np.array([(r.x, r.y), (r.right, r.y), (r.right, r.bottom), (r.x, r.bottom)])
        photo.append(_apply(from_mm, corners + np.array(m.shift)))
        sheet.append(corners)
    if not photo:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.vstack(photo), np.vstack(sheet)


def _apply(transform: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), transform).reshape(
        -1, 2
    )


def _refit(
    to_mm: np.ndarray,
    matches: list[Match],
    anchors: tuple[np.ndarray, np.ndarray],
    threshold_mm: float,
) -> np.ndarray:
    photo, sheet = _correspondences(to_mm, matches)
    if len(photo) < 8:
        return to_mm
    anchor_photo, anchor_mm = anchors
    # The markers' corners count as much as a dozen elements each: they are sharp and certain.
    src = np.vstack([photo, *([anchor_photo] * 12)])
    dst = np.vstack([sheet, *([anchor_mm] * 12)])
    h, _ = cv2.findHomography(src, dst, cv2.RANSAC, threshold_mm, maxIters=500, confidence=0.999)
    return np.asarray(h, np.float64) if h is not None else to_mm


# A sheet that does not lie flat (folded to be carried, curled by the printer) is no plane: the
# markers' homography holds at its corners and misses its middle by as much as a box line's
# distance from the writing, so an empty tick box read its own outline as a tick. So every square
# and tick box is found again on the rectified sheet near where the homography put it, and
# where some cell stands more than NOT_FLAT_MM off, every cell is read where its neighbours were
# found: moved by the median of the shifts of the SETTLE_NEAREST outlines found nearest to it
# (its own included), none farther than SETTLE_RADIUS_MM. A bend is smooth over tens of
# millimetres; one outline hidden under handwriting, or matched a little off, is outvoted.
# The outlines are sought at SETTLE_COARSE (px/mm, within mm) around where the homography put
# them, then, on a sheet that is not flat, on the rectified sheet itself within SETTLE_FINE_MM
# of that first answer. 4 mm is less than half the tick boxes' spacing (8.4 mm), so a box is
# never taken for its neighbour.
SETTLE_COARSE = (3.0, 4.0)
SETTLE_FINE_MM = 1.2
# A phone's sharpening draws a bright halo along each printed line. Taken for the paper, it
# made the paper inside every box ink as dark as the clipped lines, and the outlines were
# matched a millimetre off on a flat sheet: the paper is found past such halos.
SETTLE_HALO_MM = 1.2
SETTLE_NEAREST = 5
SETTLE_RADIUS_MM = 50.0
# A flat sheet's outlines are found within 0.1 mm of where its corners put them, and a photo
# shaken sideways draws them out by up to 0.5 mm: no reason to move a cell (moved, the shaken
# photo of test_reader_phone read its blurred digits as sharp enough to read). The blurrier the
# photo, the farther its outlines are drawn out: a shake's streak moves a line's middle by up to
# half its length, about 1.7 times the blur (a Gaussian's sigma) it is measured as, and a 5 px
# shake (0.57 mm of blur) put outlines 0.8 to 0.9 mm off. So a sheet is flat within NOT_FLAT_MM,
# or NOT_FLAT_BLURS times the photo's blur if more (the folded sheets measured had at most
# 0.34 mm of blur, and moved 0.8 to 2.6 mm).
NOT_FLAT_MM = 0.75
NOT_FLAT_BLURS = 2.0
# The cells a reading looks into, each moved with the outlines around it.
READ = (Kind.SQUARE, Kind.TICK, Kind.ALLIES)


@dataclass(frozen=True)
class Settled:
    geometry: SheetGeometry  # every cell where the printed outlines around it were found
    largest_shift_mm: float  # the farthest any cell was moved from where the homography put it


def _median_shifts(
    elements: tuple[Element, ...],
    found: dict[int, tuple[float, float]],
    outlined: tuple[Element, ...],
) -> list[tuple[float, float]]:
    """For each of `elements`, the median shift of the outlines `found` (by index into
    `outlined`) nearest to it."""
    centres = np.array([e.centre for e in outlined])
    shifts = np.array([found.get(i, (np.nan, np.nan)) for i in range(len(outlined))])
    known = ~np.isnan(shifts[:, 0])
    centres, shifts = centres[known], shifts[known]
    out = []
    for e in elements:
        distance = np.hypot(*(centres - np.array(e.centre)).T)
        nearest = np.argsort(distance)[:SETTLE_NEAREST]
        nearest = nearest[distance[nearest] <= SETTLE_RADIUS_MM]
        if nearest.size == 0:
            out.append((0.0, 0.0))
            continue
        chosen = shifts[nearest]
        out.append((median(chosen[:, 0].tolist()), median(chosen[:, 1].tolist())))
    return out


def settle(
    rectified: np.ndarray, geometry: SheetGeometry, k: float, blur_mm: float = 0.0
) -> Settled | None:
    """Every cell of `geometry` where the printed outlines around it stand on `rectified` (the
    photo warped onto the sheet at `k` px/mm by the markers' homography); None where the sheet
    lies flat, every outline as near where the homography put it as NOT_FLAT_MM, or as a photo
    with `blur_mm` of blur draws it out."""
    outlined = _elements(geometry)
    at, reach = SETTLE_COARSE
    small = cv2.resize(rectified, None, fx=at / k, fy=at / k, interpolation=cv2.INTER_AREA)
    found = _shifts(_outlines(ink(small, at, MATCH_CLIP, SETTLE_HALO_MM), geometry, at, reach))
    guesses = _median_shifts(outlined, found, outlined)
    if _largest(guesses) <= max(NOT_FLAT_MM, NOT_FLAT_BLURS * blur_mm):
        return None
    inked = ink(rectified, k, MATCH_CLIP, SETTLE_HALO_MM)
    found = _shifts(_outlines(inked, geometry, k, SETTLE_FINE_MM, guesses))
    read = tuple(e for e in geometry.elements if e.kind in READ)
    moved = dict(zip(read, _median_shifts(read, found, outlined), strict=True))
    elements = tuple(
        replace(e, x=e.x + moved[e][0], y=e.y + moved[e][1]) if e in moved else e
        for e in geometry.elements
    )
    return Settled(replace(geometry, elements=elements), _largest(list(moved.values())))


def _shifts(outlines: list[Match | None]) -> dict[int, tuple[float, float]]:
    return {i: m.shift for i, m in enumerate(outlines) if m is not None}


def _largest(shifts: list[tuple[float, float]]) -> float:
    return max((float(np.hypot(*v)) for v in shifts), default=0.0)


# The duel, solo and team sheets differ in their printed text only (name lines, the die space,
# the solo AI's rules): the mode of a sheet whose QR code cannot be read is told by comparing the
# photo with each two modes' printed pages where those two differ.
MODES = ("duel", "solo", "team")
TEXT_PX_PER_MM = 4.0
TEXT_KINDS = (Kind.NAME, Kind.DICE, Kind.POWERS)
# Where two pages differ, the photo must follow its mode's page against the other's at least
# this well (the correlation of the photo with their difference).
MODE_MARGIN = 0.25


def printed_page(layout: str, paper: Paper, version: int, mode: str) -> np.ndarray:
    """The blank sheet of `mode` as printgen prints it, as ink at TEXT_PX_PER_MM. A rendered
    page is evenly lit white paper, so its ink is its darkness: nothing to even out."""
    from printgen.games.one_page_war.sheets import build_duel, build_solo, build_team
    from printgen.materials import BuildOptions
    from printgen.render.readback import render_page

    k = TEXT_PX_PER_MM
    build = {"duel": build_duel, "solo": build_solo, "team": build_team}[mode]
    pdf = build(BuildOptions(paper=paper, layout=layout), None, version=version)
    grey = cv2.cvtColor(render_page(pdf, 0, dpi=k * 25.4), cv2.COLOR_RGB2GRAY)
    geometry = sheet_geometry(layout, paper, version)
    size = (int(round(geometry.width * k)), int(round(geometry.height * k)))
    grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return 1.0 - grey.astype(np.float32) / 255.0


SOFTEN_MM = 0.35  # photo and pages alike are softened this much (Gaussian sigma) to compare


Window = tuple[slice, slice]


def _text_windows(geometry: SheetGeometry) -> tuple[tuple[Window, Window], ...]:
    """Where the modes' printed text may differ, at TEXT_PX_PER_MM: for each text element, a
    window of the page around its rectangle, wide enough that softening the window alone gives
    inside the rectangle what softening the whole page would; and the rectangle within it."""
    k = TEXT_PX_PER_MM
    reach = int(np.ceil(4 * SOFTEN_MM * k))
    height, width = int(round(geometry.height * k)), int(round(geometry.width * k))
    windows = []
    for e in geometry.elements:
        if e.kind in TEXT_KINDS:
            r = e.rect
            top, bottom = int(r.y * k), int(np.ceil(r.bottom * k))
            left, right = int(r.x * k), int(np.ceil(r.right * k))
            outer_top, outer_left = max(0, top - reach), max(0, left - reach)
            outer = (
                slice(outer_top, min(height, bottom + reach)),
                slice(outer_left, min(width, right + reach)),
            )
            inner = (
                slice(top - outer_top, bottom - outer_top),
                slice(left - outer_left, right - outer_left),
            )
            windows.append((outer, inner))
    return tuple(windows)


def _text_ink(page: np.ndarray, windows: tuple[tuple[Window, Window], ...]) -> np.ndarray:
    """A page's ink in its text rectangles, softened, one after another as one flat array."""
    k = TEXT_PX_PER_MM
    parts = []
    for outer, inner in windows:
        softened = cv2.GaussianBlur(np.minimum(page[outer], 0.5), (0, 0), SOFTEN_MM * k)
        parts.append(softened[inner].ravel())
    return np.concatenate(parts)


# Where the modes' printed texts differ by more than this (ink, 0 paper .. 0.5 clipped), a pixel
# tells one mode from another.
DIFFERS = 0.05
# The shipped layouts' texts, rendered once by `write_printed_text` (`make printed-text`): where
# any two modes differ, each mode's ink there. Reading them back spares the reader ReportLab, its
# fonts and the PDF renderer on a photo whose QR code cannot be read: about 40 MB of its peak
# memory and a second. A test renders them again and compares.
PRINTED_TEXT = Path(__file__).with_name("printed_text.npz")
INK_STEPS = 510  # stored as uint8 steps of 1/510: the ink is clipped at 0.5


def rendered_text(
    layout: str, paper: Paper, version: int
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Rendered afresh: where (as indices into the text windows' ink, `_text_ink`) the modes'
    printed pages differ, and each mode's ink there. Each page is cut down to its text windows
    as soon as it is rendered: three whole pages at a time would add some 25 MB."""
    windows = _text_windows(sheet_geometry(layout, paper, version))
    texts = {mode: _text_ink(printed_page(layout, paper, version, mode), windows) for mode in MODES}
    stacked = np.stack([texts[mode] for mode in MODES])
    where = np.flatnonzero(stacked.max(axis=0) - stacked.min(axis=0) > DIFFERS)
    return where, {mode: text[where] for mode, text in texts.items()}


def _text_key(layout: str, paper: Paper, version: int) -> str:
    return f"{layout}/{paper.value}/{version}"


def write_printed_text(path: Path = PRINTED_TEXT) -> None:
    """Render the modes of every sheet the reader knows (each layout, version and paper) into
    `path`, atomically."""
    from printgen.games.one_page_war.reader.locate import known_sheets

    arrays: dict[str, np.ndarray] = {}
    for sheet in known_sheets():
        where, texts = rendered_text(sheet.layout, sheet.paper, sheet.version)
        key = _text_key(sheet.layout, sheet.paper, sheet.version)
        # Gaps between the indices: small numbers, which compress well.
        arrays[f"{key}/gaps"] = np.diff(where, prepend=0).astype(np.uint32)
        for mode, text in texts.items():
            arrays[f"{key}/{mode}"] = np.round(text * INK_STEPS).astype(np.uint8)
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]
    temporary.replace(path)


@cache
def _stored_text() -> dict[str, np.ndarray]:
    try:
        with np.load(PRINTED_TEXT, allow_pickle=False) as stored:
            return {name: stored[name] for name in stored.files}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise ModelFileError(
            f"{PRINTED_TEXT}: the sheets' printed text cannot be read ({error}); "
            "`make printed-text` writes it again"
        ) from error


def printed_text(
    layout: str, paper: Paper, version: int
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """As `rendered_text`, from the shipped file where it holds the layout, else rendered."""
    key = _text_key(layout, paper, version)
    stored = _stored_text()
    if f"{key}/gaps" not in stored:
        return rendered_text(layout, paper, version)
    where = np.cumsum(stored[f"{key}/gaps"], dtype=np.int64)
    return where, {mode: stored[f"{key}/{mode}"].astype(np.float32) / INK_STEPS for mode in MODES}


@cache
def _mode_differences(
    layout: str, paper: Paper, version: int
) -> dict[str, list[tuple[np.ndarray, np.ndarray]]]:
    """For each mode, against each other mode: where their pages differ (in the printed text), as
    indices into the text windows' ink (`_text_ink`), and their difference there."""
    where, texts = printed_text(layout, paper, version)
    differences: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for mode, text in texts.items():
        differences[mode] = []
        for other, other_text in texts.items():
            if other != mode:
                differ = np.abs(text - other_text) > DIFFERS
                difference = text[differ] - other_text[differ]
                differences[mode].append((where[differ].astype(np.int32), difference))
    return differences


def printed_mode(
    grey: np.ndarray, to_mm: np.ndarray, layout: str, paper: Paper, version: int
) -> str | None:
    """duel, solo or team: the mode whose printed text the photo follows against each other
    mode's, or None when that is unclear."""
    geometry = sheet_geometry(layout, paper, version)
    k = TEXT_PX_PER_MM
    photo = _text_ink(ink(rectify(grey, to_mm, geometry, k), k, 0.5), _text_windows(geometry))
    worst = {}
    for mode, pairs in _mode_differences(layout, paper, version).items():
        towards = []
        for where, difference in pairs:
            seen = photo[where]
            if seen.size < 50 or seen.std() < 1e-4 or difference.std() < 1e-4:
                towards.append(0.0)
            else:
                towards.append(float(np.corrcoef(seen, difference)[0, 1]))
        worst[mode] = min(towards)
    best = max(worst, key=lambda m: worst[m])
    return best if worst[best] >= MODE_MARGIN else None
