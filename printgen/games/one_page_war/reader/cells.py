"""Reading each element of a rectified sheet: squares (empty, a number, or a star), tick boxes
(judged against this sheet's own empty boxes) and S spaces, each with a confidence and its two
likeliest readings."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from printgen.games.one_page_war.geometry import Element, Kind, Rect, SheetGeometry, Side
from printgen.games.one_page_war.layout import ArenaSpec
from printgen.games.one_page_war.reader import digits
from printgen.games.one_page_war.reader.blur import (
    FAINT_WHY,
    NOMINAL_GLYPH_MM,
    SOFT_WHY,
    hides_faint_marks,
    too_soft,
)
from printgen.games.one_page_war.reader.locate import PX_PER_MM
from printgen.games.one_page_war.reader.quantile import median, percentile, percentiles_along
from printgen.games.one_page_war.sheet import ALLIES_POWER, Mode

# How far inside a printed box its interior starts: clear of the printed line and of a small
# misregistration of the homography.
SQUARE_INSET_MM = 1.1
TICK_INSET_MM = 0.9
ALLIES_INSET_MM = 1.0
# A glyph this much narrower than the square cannot be half of a two-digit number.
TWO_DIGIT_MIN_HEIGHT = 0.45
# A square's readings down to this probability are kept: the rules (joint.py) may rule out every
# likelier one.
KEPT_SHARE = 1e-9


@dataclass(frozen=True)
class Reading:
    """What one element holds: the likeliest reading, the runner-up, and whether it is sure.

    `value` is as the typed-in sheet writes it: "3", "12", "*", "_" for a square; "ticked" or
    "empty" for a tick box; "S" or "empty" for an S space. "?" is a mark that is none of these."""

    element: Element
    value: str
    confidence: float
    second: str
    second_confidence: float
    unsure: bool
    why: str = ""  # why it is unsure, when it is
    # Every reading considered, likeliest first (squares), for picking a legal one when unsure.
    candidates: tuple[tuple[str, float], ...] = ()
    glyph_mm: float | None = None  # a square's written mark: its height in mm (None: no ink)
    # Unsure only because the recogniser is not sure enough which value it is: the rules of the
    # game may settle it (crosscheck.py). Any other doubt (glare, blur, no digit) they may not.
    only_low_confidence: bool = False
    settled_by_rules: bool = False  # sure because the rules settled what the writing left open
    # What a second look at the mark read instead (its lighter strokes, its pieces joined), with
    # how surely: the reason names it, so it stays the reading offered beside the first, whatever
    # the rules rank second (crosscheck.py), and a player need not type it.
    offered: tuple[str, float] | None = None

    def doubt(self, why: str) -> Reading:
        reason = f"{self.why}; {why}" if self.why else why
        return replace(self, unsure=True, why=reason, only_low_confidence=False)


def percent(p: float) -> str:
    """A probability as a person reads it: never "100%" for a reading the reader is unsure of,
    nor "0%" for one it gave a chance (the bar to be sure is 99.7 % or more)."""
    if 0.995 <= p < 1:
        return f"{math.floor(p * 1000) / 10:.1f}%"
    if 0 < p < 0.005:
        return "under 1%"
    return f"{p:.0%}"


PAPER_SCALE = 0.25  # the paper's brightness is estimated at quarter resolution
# ...and kept, smoothed, at an eighth: it changes over millimetres, and blurring it over 7 mm
# at a quarter cost more than the rest of Ink.of (1.6 ms of 2.5 a 12 MP sheet).
PAPER_KEPT_SCALE = PAPER_SCALE / 2


@dataclass(frozen=True)
class Ink:
    """Ink of a rectified sheet: 0 where it is paper, 1 where it is black, whatever the light.

    The paper's brightness is estimated everywhere (at quarter resolution) as the local maximum
    over an area larger than any stroke, smoothed (at an eighth); each pixel is judged against
    it. Only the regions asked for are computed (`ink[rows, cols]`), which is all a reading
    needs."""

    rectified: np.ndarray
    paper: np.ndarray  # float32, PAPER_KEPT_SCALE of the rectified size (or of `within`)
    origin: tuple[int, int] = (0, 0)  # the pixel (row, column) where `paper` starts

    @classmethod
    def of(cls, rectified: np.ndarray, halo_mm: float = 0.0, within: Rect | None = None) -> Ink:
        """With `halo_mm`, the maximum is taken over the least bright of each `halo_mm`, so that
        anything brighter than the paper around it and narrower is not taken for the paper.
        With `within`, only the paper in that part of the sheet (mm) is estimated."""
        top, left = 0, 0
        seen = rectified
        if within is not None:
            step = int(round(1 / PAPER_KEPT_SCALE))  # whole paper pixels: both grids line up
            top = max(0, int(within.y * PX_PER_MM) // step * step)
            left = max(0, int(within.x * PX_PER_MM) // step * step)
            seen = rectified[
                top : int(np.ceil(within.bottom * PX_PER_MM)),
                left : int(np.ceil(within.right * PX_PER_MM)),
            ]
        if halo_mm > 0:
            size = int(round(halo_mm * PX_PER_MM)) | 1
            seen = cv2.erode(seen, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
        small = cv2.resize(seen, None, fx=PAPER_SCALE, fy=PAPER_SCALE, interpolation=cv2.INTER_AREA)
        k = max(3, int(round(7 * PX_PER_MM * PAPER_SCALE)) | 1)
        brightest = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        kept = cv2.resize(brightest, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        paper = cv2.GaussianBlur(kept.astype(np.float32), (0, 0), k / 2)
        return cls(rectified, paper, (top, left))

    def __getitem__(self, key: tuple[slice, slice]) -> np.ndarray:
        return self.regions([key])[0]

    def regions(self, keys: list[tuple[slice, slice]]) -> list[np.ndarray]:
        """`self[key]` for each of `keys`, the regions of one size worked out stacked: a
        sheet's squares in one remap and one pass of each sum, not 38 of each."""
        greys = [self.rectified[rows, cols] for rows, cols in keys]
        alike: dict[tuple[int, ...], list[int]] = {}
        for i, grey in enumerate(greys):
            alike.setdefault(grey.shape, []).append(i)
        found: list[np.ndarray] = [np.empty(0)] * len(keys)
        for (h, w), members in alike.items():
            if h * w == 0:
                for i in members:
                    found[i] = greys[i].astype(np.float32)
                continue
            n = len(members)
            # Each region's places on the paper's grid, filled by broadcasting (np.meshgrid
            # cost more than the remap itself on a cell).
            map_x = np.empty((n, h, w), np.float32)
            map_y = np.empty((n, h, w), np.float32)
            for j, i in enumerate(members):
                rows, cols = keys[i]
                map_x[j] = _on_the_paper((cols.start or 0) - self.origin[1], w)
                map_y[j] = _on_the_paper((rows.start or 0) - self.origin[0], h)[:, None]
            paper = cv2.remap(
                self.paper,
                map_x.reshape(n * h, w),
                map_y.reshape(n * h, w),
                cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
            grey = np.stack([greys[i] for i in members]).astype(np.float32).reshape(n * h, w)
            ink = _against(grey, paper).reshape(n, h, w)
            for j, i in enumerate(members):
                found[i] = ink[j]
        return found

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.rectified.shape)


def _against(grey: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Ink from grey and the paper's brightness there (float32, both overwritten): 1.1 (1 -
    grey / paper), clipped to 0..1, in place (a sheet asks for some 100 regions)."""
    ink = np.divide(grey, np.maximum(paper, 8.0, out=paper), out=grey)
    np.subtract(1.0, ink, out=ink)
    ink *= 1.1
    return np.minimum(np.maximum(ink, 0, out=ink), 1, out=ink)  # np.clip costs twice as much


# Where pixels 0 to 4095 of a row or column fall on the paper's grid; a sheet asks for the
# places of a few thousand pixels, and working them out afresh cost a tenth of reading a cell.
_PAPER_PLACES = (np.arange(4096, dtype=np.float32) + 0.5) * PAPER_KEPT_SCALE - 0.5


def _on_the_paper(start: int, count: int) -> np.ndarray:
    """Where `count` pixels from `start` fall on the paper's grid (Ink.paper): the same float32
    sums either way, exact for such pixels."""
    if start >= 0 and start + count <= len(_PAPER_PLACES):
        return _PAPER_PLACES[start : start + count]
    return (np.arange(count, dtype=np.float32) + start + 0.5) * PAPER_KEPT_SCALE - 0.5


def even_lighting(rectified: np.ndarray) -> np.ndarray:
    """The whole sheet's ink map (see `Ink`)."""
    h, w = rectified.shape
    return Ink.of(rectified)[0:h, 0:w]


InkMap = np.ndarray | Ink


def _inside(e: Element, inset: float) -> tuple[slice, slice]:
    """The rows and columns of the sheet `inset` mm in from element `e`'s outline."""
    x0 = int(round((e.x + inset) * PX_PER_MM))
    y0 = int(round((e.y + inset) * PX_PER_MM))
    x1 = int(round((e.x + e.w - inset) * PX_PER_MM))
    y1 = int(round((e.y + e.h - inset) * PX_PER_MM))
    return slice(y0, y1), slice(x0, x1)


def _upright(patch: np.ndarray, e: Element) -> np.ndarray:
    # The far player's marks are written upside down: turn them to read them upright.
    return np.ascontiguousarray(patch[::-1, ::-1]) if e.upside_down else patch


def crop(ink: InkMap, e: Element, inset: float) -> np.ndarray:
    return _upright(ink[_inside(e, inset)], e)


def crops(ink: InkMap, elements: Sequence[Element], inset: float) -> list[np.ndarray]:
    """`crop` of each of `elements`, those of one size worked out together (`Ink.regions`)."""
    keys = [_inside(e, inset) for e in elements]
    patches = ink.regions(keys) if isinstance(ink, Ink) else [ink[key] for key in keys]
    return [_upright(patch, e) for patch, e in zip(patches, elements, strict=True)]


def _clusters(marks: digits.Marks) -> list[tuple[int, int]]:
    """Column spans of ink, parts whose columns overlap (or nearly touch) merged."""
    spans: list[tuple[int, int]] = []
    gap = max(1, int(0.04 * marks.ink.shape[1]))
    for x, _, w, _ in marks.boxes:
        if spans and x <= spans[-1][1] + gap:
            spans[-1] = (spans[-1][0], max(spans[-1][1], x + w))
        else:
            spans.append((x, x + w))
    return spans


def _only(marks: digits.Marks, span: tuple[int, int]) -> digits.Marks:
    mask = np.zeros_like(marks.mask)
    mask[:, span[0] : span[1]] = marks.mask[:, span[0] : span[1]]
    boxes = tuple(b for b in marks.boxes if span[0] <= b[0] < span[1])
    return digits.Marks(marks.ink, mask, boxes, marks.level)


def _ranked(candidates: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(candidates.items(), key=lambda kv: -kv[1])


@dataclass(frozen=True)
class _Asked:
    """One patch's marks and the rows it asks the recogniser about: the whole mark, and for a
    square whose ink falls in two groups side by side, each group alone (a two-digit number)."""

    marks: digits.Marks
    whole: int | None  # index of its row in the batch, None when the patch holds no ink
    halves: tuple[int, int] | None
    faint: bool = False  # the marks are only above digits.FAINT_FLOOR: never a sure reading
    # Where the mark reads as 6 without the line under it (`without_underlines`): what it reads
    # as with the line.
    underlined: str | None = None


# A faint mark this tall (mm) is writing, not a shadow's edge or a speck (empty cells show
# none: docs/reader.md, "Faint writing").
FAINT_MARK_MM = 3.0
WRITTEN_FAINTLY_WHY = "written too faintly to be sure (a light pencil?)"


def _marks(patch: np.ndarray) -> tuple[digits.Marks, bool]:
    """The patch's significant ink; where there is none or too little to be writing (under
    FAINT_MARK_MM tall: a faint stroke's darkest specks, a pencil's grain breaking a thin stroke
    into crumbs too small to keep), writing too faint for it, if a mark at least FAINT_MARK_MM
    tall stands above the faint floor (and whether it is that)."""
    marks = digits.significant_ink(patch)
    if (marks_mm(marks) or 0.0) >= FAINT_MARK_MM:
        return marks, False
    faint = digits.significant_ink(patch, digits.FAINT_FLOOR)
    if (marks_mm(faint) or 0.0) >= FAINT_MARK_MM:
        return faint, True
    return marks, False


# Writing that runs over a square's line is cut off where the square's inside ends, and what is
# left can surely be another digit: a 2 without its foot is a 7 (docs/reader.md, "Writing over
# the line"). Between these distances (mm) outside a square's line a printed sheet holds only
# paper (every other element stands at least 2 mm away; a test checks each layout): nearer, a
# blurred or slightly misplaced line still shows.
OVER_THE_LINE_MM = (0.7, 1.3)
# Writing that ends nearer the line than this (mm) lost only a stroke's tip, as writing inside
# the square may too (its patch starts SQUARE_INSET_MM in from the line), and is read as such:
# on the bench's real digits at 2 MP, that spares 8 of the 26 squares whose writing crosses.
OVER_THE_LINE_PAST_MM = 1.1
# How far (mm) from where the mark reaches its patch's edge ink outside still counts as its own:
# across the inset and the line, with room for a slanting stroke.
OVER_THE_LINE_REACH_MM = 3.0
# Ink outside the line along this much of it (mm) is a stroke, not a tip, however near the line
# it stays: a 3 written too big, its top's turn running 1 mm above the top line, read as 5 at
# 99.98 % without it (the bench's `big` set from fresh seeds, sheet 94001).
OVER_THE_LINE_ALONG_MM = 2.0
OVER_THE_LINE_WHY = "written over the square's line: part of it lies outside what was read"


def runs_over_the_line(ink: InkMap, e: Element, marks: digits.Marks, turned: bool = False) -> bool:
    """Whether the mark read in square `e` (its significant ink, cropped SQUARE_INSET_MM in, and
    with `turned` read the other way up from its side's usual) reaches its patch's edge where
    written ink stands outside the square's line."""
    ph, pw = marks.mask.shape
    if not any(
        x <= 1 or y <= 1 or x + w >= pw - 1 or y + h >= ph - 1 for x, y, w, h in marks.boxes
    ):
        return False  # no part reaches the patch's two outer pixels (its parts' boxes say)
    mask = marks.mask[::-1, ::-1] if e.upside_down != turned else marks.mask
    rim = np.zeros_like(mask)
    rim[:2], rim[-2:], rim[:, :2], rim[:, -2:] = True, True, True, True
    edge_y, edge_x = np.nonzero(mask & rim)
    if edge_y.size == 0:
        return False
    k = PX_PER_MM
    # Where the mark reaches its patch's edge, in sheet pixels.
    edge = np.stack(
        [edge_x + round((e.x + SQUARE_INSET_MM) * k), edge_y + round((e.y + SQUARE_INSET_MM) * k)],
        axis=1,
    ).astype(np.float32)
    near, far = OVER_THE_LINE_MM
    left, top = round((e.x - far) * k), round((e.y - far) * k)
    right, bottom = round((e.x + e.w + far) * k), round((e.y + e.h + far) * k)
    if left < 0 or top < 0 or bottom > ink.shape[0] or right > ink.shape[1]:
        return False
    depth = round((far - near) * k)  # the band's pixels across, from its outer edge in
    # Its rows OVER_THE_LINE_PAST_MM or more past the line, from the outer edge in (pixel centres).
    past = max(1, math.floor((far - OVER_THE_LINE_PAST_MM) * k + 0.5))
    along = OVER_THE_LINE_ALONG_MM * k
    around = ink[top:bottom, left:right]  # in one: four strips cut apart cost half as much again
    # The band as four strips (the corners in the top and bottom ones), each with the (x, y) of
    # its corner, turned so that its rows run along the side, row 0 the farthest from the line.
    strips = (
        (left, top, around[:depth]),
        (left, bottom - depth, around[-depth:][::-1]),
        (left, top + depth, around[depth:-depth, :depth].T),
        (right - depth, top + depth, around[depth:-depth, -depth:].T[::-1]),
    )
    for side, (x0, y0, band) in enumerate(strips):
        written = (band > marks.level).astype(np.uint8)
        if not written.any():
            continue
        count, labels, stats, _ = cv2.connectedComponentsWithStats(written, connectivity=8)
        for i in range(1, count):
            x, y, w, h, area = stats[i]
            # Along most of a side is a printed line (misplaced or blurred), not writing; ink
            # only nearer the line than OVER_THE_LINE_PAST_MM, and along less of it than
            # OVER_THE_LINE_ALONG_MM, is a stroke's tip.
            if area < 4 or w >= 0.8 * e.w * k or (y >= past and w < along):
                continue
            # The part's box on the sheet, and how near the mark's edge pixels come to it.
            if side in (1, 3):
                y = depth - y - h
            bx, by, bw, bh = (x + x0, y + y0, w, h) if side < 2 else (y + x0, x + y0, h, w)
            dx = np.maximum(np.maximum(bx - edge[:, 0], edge[:, 0] - (bx + bw - 1)), 0)
            dy = np.maximum(np.maximum(by - edge[:, 1], edge[:, 1] - (by + bh - 1)), 0)
            if (dx * dx + dy * dy).min() <= (OVER_THE_LINE_REACH_MM * k) ** 2:
                return True
    return False


# Between the square's printed line and the patch read (SQUARE_INSET_MM in from it) lies a band
# the reader does not look at, and digits.significant_ink drops a thin part along the patch's
# edge (what a printed line a fit put off its place leaves): a stroke written there, along the
# line (a 1 hugging the square's side), is not seen, and the square reads as empty, surely.
# Ink this far (mm) in from the line, plus BY_THE_LINE_BLURS times the blur there, and never
# nearer than BY_THE_LINE_NEAREST_MM, is no part of a printed line of either version; ink lying
# along the line this long (mm) there is writing, unless it runs along BY_THE_LINE_SIDE_SHARE of
# a side (a printed line a fit put off its place).
BY_THE_LINE_MM = 0.35
BY_THE_LINE_BLURS = 1.5
BY_THE_LINE_NEAREST_MM = 0.6
BY_THE_LINE_LONG_MM = 2.0
BY_THE_LINE_SIDE_SHARE = 0.9
# The band reaches this far (mm) into the patch, over the part significant_ink may drop.
BY_THE_LINE_INSIDE_MM = 0.5
BY_THE_LINE_WHY = "read as empty, but ink lies along the square's line, outside what was read"


def written_by_the_line(ink: InkMap, e: Element, level: float, blur_mm: float = 0.0) -> bool:
    """Whether ink over `level` lies along square `e`'s line, in the band from
    BY_THE_LINE_MM + BY_THE_LINE_BLURS * `blur_mm` in from it to BY_THE_LINE_INSIDE_MM into the
    patch read, for BY_THE_LINE_LONG_MM or more (but not along BY_THE_LINE_SIDE_SHARE of a
    side)."""
    return _ink_by_the_line(ink, e, level, blur_mm, BY_THE_LINE_INSIDE_MM, BY_THE_LINE_LONG_MM)


def by_the_line_inset(blur_mm: float) -> float:
    """How far (mm) in from a square's line ink is surely no part of it, where the blur is
    `blur_mm`: the band's outer edge (written_by_the_line)."""
    return max(BY_THE_LINE_MM + BY_THE_LINE_BLURS * blur_mm, BY_THE_LINE_NEAREST_MM)


def _ink_by_the_line(
    ink: InkMap, e: Element, level: float, blur_mm: float, inside_mm: float, long_mm: float
) -> bool:
    start = by_the_line_inset(blur_mm)
    if start >= SQUARE_INSET_MM + inside_mm:
        return False
    return _long_ink_by_the_line(crop(ink, e, start), level, start, inside_mm, long_mm)


def _long_ink_by_the_line(
    band: np.ndarray, level: float, start: float, inside_mm: float, long_mm: float
) -> bool:
    """Whether ink over `level` lies along the line for `long_mm` or more in `band` (the square
    cropped `start` mm in from its line), from its edge to `inside_mm` into the patch read."""
    k = PX_PER_MM
    depth = round((SQUARE_INSET_MM + inside_mm - start) * k)
    if depth < 1 or min(band.shape) <= 2 * depth:
        return False
    written = (band > level).astype(np.uint8)
    written[depth:-depth, depth:-depth] = 0
    count, _, stats, _ = cv2.connectedComponentsWithStats(written, connectivity=8)
    for i in range(1, count):
        _, _, w, h, _ = stats[i]
        if long_mm * k <= max(w, h) < BY_THE_LINE_SIDE_SHARE * min(band.shape):
            return True
    return False


# A mark written against the square's line has a part between the line and the patch read, and
# what is left can surely be another digit: a 6 in a corner, its loop against the line, reads 5
# at 99.9 % (docs/reader.md, "Writing by the line"). Where ink lies along the line there, outside
# the patch, for CUT_LONG_MM or more, the mark is read again from the band's outer edge
# (by_the_line_inset) in; a reading it does not share is unsure. On the bench's real and stress
# photos every such mark read wider reads the same. So is one it shares only unsurely: the wider
# view has more of the mark, and a 3 whose flat top was written on the line read 5 surely
# without it (given the rules) and 5 at 86 % with what of it lies clear of the line.
CUT_LONG_MM = 1.5
CUT_WHY = "part of its mark lies between the square's line and what was read; read with it, {other}"
CUT_UNSURE_WHY = (
    "part of its mark lies between the square's line and what was read; read with it, "
    "only {share} sure"
)


def cut_by_the_line(band: np.ndarray, level: float, start: float) -> bool:
    """Whether ink over `level` lies along a square's line, outside its patch but clear of the
    line itself, for CUT_LONG_MM or more (`band`: the square cropped `start` mm in from its
    line, by_the_line_inset)."""
    return start < SQUARE_INSET_MM and _long_ink_by_the_line(band, level, start, 0.0, CUT_LONG_MM)


# A pen that skips breaks a stroke into pieces, and a digit in pieces can surely read as another
# (a 0 broken open at its top as 5: docs/reader.md, "A pen that skips"). Pieces closer than this
# (mm) are joined and read again; a reading the joined mark does not share is unsure, and for
# a reason the rules never lift: a reading unsure only of its confidence would otherwise be
# settled by them as the broken mark's (a 0 broken open read as 5 at 99 %, the rules settling
# the 5 where the ticks leave room for either).
JOIN_MM = 1.3
JOINED_WHY = "its strokes joined across their gaps read {other} (a pen that skipped?)"


def read_with_the_cut_part(
    ink: InkMap,
    elements: tuple[Element, ...],
    asked: list[_Asked],
    turned: tuple[bool, ...],
    blur: Callable[[Element], float] | None,
    model: digits.Model,
    s_weights: list[float],
) -> list[tuple[str, float] | None]:
    """For each square whose mark may have lost a part by its line (cut_by_the_line), its
    likeliest value read from by_the_line_inset in, and how surely (an S weighed as
    `s_weights` says for that square, as its own reading weighs it); None for the others."""
    wide: list[np.ndarray] = []
    where: list[int] = []
    for i, (e, a, t) in enumerate(zip(elements, asked, turned, strict=True)):
        start = by_the_line_inset(blur(e) if blur else 0.0)
        if a.whole is None or start >= SQUARE_INSET_MM or not _reaches_the_edge(a.marks):
            continue
        band = crop(ink, e, start)  # both where the part is looked for and what is read again
        if not cut_by_the_line(band, a.marks.level, start):
            continue
        wide.append(np.ascontiguousarray(band[::-1, ::-1]) if t else band)
        where.append(i)
    found: list[tuple[str, float] | None] = [None] * len(asked)
    if wide:
        asked_wide, _, p = _asked(wide, [], model)
        for i, a in zip(where, asked_wide, strict=True):
            found[i] = _ranked(_square_candidates(a, p, s_weights[i]))[0]
    return found


def _reaches_the_edge(marks: digits.Marks) -> bool:
    """Whether a mark (as significant_ink found it) touches its patch's outer pixel on any side
    (it may go on past it): one of its parts' boxes does."""
    h, w = marks.mask.shape
    return any(x == 0 or y == 0 or x + bw == w or y + bh == h for x, y, bw, bh in marks.boxes)


def cut_doubt(reading: Reading, wide: tuple[str, float] | None, model: digits.Model) -> Reading:
    """`reading` made unsure where its mark, read with the part by its line (`wide`: the value
    and its probability), reads another single digit or star, or the same one under the bar the
    model sets for it. Read so, a mark read as no digit, as empty or as two digits took in a
    crease's shadow or a neighbour's ink, not the rest of itself: on the bench's folded and
    crumpled photos, that is what such readings were."""
    if wide is None:
        return reading
    value, p = wide
    if len(value) != 1 or value in "_?":
        return reading
    if value != reading.value:
        return reading.doubt(CUT_WHY.format(other=value))
    if p < model.threshold_for(value):
        return reading.doubt(CUT_UNSURE_WHY.format(share=percent(p)))
    return reading


def square_value(name: str) -> str:
    """A class of the networks as a square's reading writes it: "_" for empty, "?" for another
    mark or an S (a number square holds none)."""
    return {digits.EMPTY: "_", digits.OTHER: "?", "S": "?"}.get(name, name)


def joined_readings(asked: list[_Asked], model: digits.Model) -> list[tuple[str, float] | None]:
    """For each square whose mark is in pieces (not two digits side by side), the likeliest
    class of the networks with its pieces joined across gaps under JOIN_MM, as a square's value,
    and its probability; None for others."""
    size = int(round(JOIN_MM * PX_PER_MM)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    rows: list[np.ndarray] = []
    where: list[int] = []
    for i, a in enumerate(asked):
        if a.whole is None or a.halves is not None or len(a.marks.boxes) < 2:
            continue
        mask = a.marks.mask.astype(np.uint8)
        closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel).astype(bool)
        if closed.sum() == mask.sum():
            continue
        ink = a.marks.ink.copy()
        ink[closed & ~a.marks.mask] = percentile(a.marks.ink[a.marks.mask], 90)
        row = digits.features(replace(a.marks, ink=ink, mask=closed))
        if row is not None:
            rows.append(row)
            where.append(i)
    found: list[tuple[str, float] | None] = [None] * len(asked)
    if rows:
        for i, q in zip(where, on_a_square(digits.classify(rows, model)), strict=True):
            found[i] = square_value(digits.CLASSES[int(q.argmax())]), float(q.max())
    return found


def offering(reading: Reading, other: str, surely: float) -> Reading:
    """`reading` with `other` as the reading offered beside its first (the web page's second
    button), `surely` as sure as the second look found it."""
    return replace(reading, second=other, second_confidence=surely, offered=(other, surely))


def in_words(value: str) -> str:
    """A square's reading as a reason names it: a player reads "?" and "_" as nothing."""
    return {"?": "a mark that is no number", "_": "empty"}.get(value, value)


def joined_doubt(reading: Reading, joined: tuple[str, float] | None) -> Reading:
    """`reading` made unsure where its mark, joined across its gaps, reads otherwise (`joined`:
    a value and its probability), which is then offered beside it."""
    if joined is None or joined[0] == reading.value:
        return reading
    other, surely = joined
    doubted = reading.doubt(JOINED_WHY.format(other=in_words(other)))
    return doubted if other == "?" else offering(doubted, other, surely)


# Players underline a 6 (and a 9) to tell it apart whichever way up it is read. Read with the
# line, an underlined 6 is seldom sure: 3 % of held-out writers' accepted, none wrongly. Read
# without it, it reads as a plain 6. But a 5's flat foot can be such a line too, and without it
# the 5 can read as 6; so the reading without the line confirms a 6 the mark already reads as,
# and where the mark reads as another value, the square is unsure, shown as the likelier of the
# two looks taken alike. Not so for a 9: a 2's flat base is such a line, and without it a 2
# reads as 9 at 0.9998; the sheet holds no 9 but the solo player's (docs/reader.md,
# "Underlined").
UNDERLINE_WHY = "it reads {other} with the line under it and 6 without (an underlined 6?)"


def without_underlines(
    asked: list[_Asked], p: np.ndarray, model: digits.Model
) -> tuple[list[_Asked], np.ndarray]:
    """The squares read unsure (rows of `p`) whose mark has a line under it, read again without
    it (in one batch, as most sheets hold none). Where that reads 6: if the mark read 6 too, `p`
    holds the reading without the line (how sure a 6 it is once the line is left out); if not,
    the mean of the two (either look may be the right one). Either way the square's
    `underlined` says what it read with the line."""
    where, rows = [], []
    for i, a in enumerate(asked):
        if a.whole is None or a.halves is not None:
            continue
        row = p[a.whole]
        if row.max() >= model.threshold_for(digits.CLASSES[int(row.argmax())]):
            continue  # no held-out writer's underlined 6 was read so surely as another digit
        bare = digits.without_underline(a.marks)
        features = None if bare is None else digits.features(bare)
        if features is not None:
            where.append(i)
            rows.append(features)
    if not rows:
        return asked, p
    six = digits.CLASSES.index("6")
    asked = list(asked)
    for i, bare_row in zip(where, digits.classify(rows, model), strict=True):
        a = asked[i]
        if int(bare_row.argmax()) != six:
            continue
        with_line = int(p[a.whole].argmax())
        asked[i] = replace(a, underlined=square_value(digits.CLASSES[with_line]))
        if with_line != six:
            bare_row = (p[a.whole] + bare_row) / 2
        p[a.whole] = bare_row
    return asked, p


def underline_doubt(reading: Reading, with_line: str | None) -> Reading:
    """`reading` made unsure where its mark reads as 6 without the line under it and as
    `with_line` with it (`_Asked.underlined`); of the two, the one it is not shown as is offered
    beside it, as likely as the two looks taken alike make it."""
    if with_line in (None, "6"):
        return reading
    doubted = reading.doubt(UNDERLINE_WHY.format(other=in_words(with_line)))
    other = with_line if reading.value == "6" else "6"
    if other in ("?", "_"):
        return doubted
    return offering(doubted, other, dict(reading.candidates).get(other, 0.0))


def _ask(patch: np.ndarray, rows: list[np.ndarray], two_digits: bool) -> _Asked:
    marks, faint = _marks(patch)
    row = digits.features(marks)
    if row is None:
        return _Asked(marks, None, None)
    rows.append(row)
    whole = len(rows) - 1
    spans = _clusters(marks)
    if not two_digits or len(spans) != 2:
        return _Asked(marks, whole, None, faint)
    ys = np.nonzero(marks.mask)[0]
    height = ys.max() - ys.min() + 1
    halves = [_only(marks, s) for s in spans]
    tall = all(
        (int(np.ptp(np.nonzero(m.mask)[0])) + 1) >= TWO_DIGIT_MIN_HEIGHT * height for m in halves
    )
    half_rows = [digits.features(m) for m in halves]
    if not tall or half_rows[0] is None or half_rows[1] is None:
        return _Asked(marks, whole, None, faint)
    rows.extend([half_rows[0], half_rows[1]])
    return _Asked(marks, whole, (len(rows) - 2, len(rows) - 1), faint)


# Which way up each side was written. The far side is read turned (its player sits across the
# sheet), but a solo player may write the AI's numbers their own way up, and one scorekeeper
# both sides: read the wrong way up, an upright 7 is surely a 6. So a side's marks are read
# turned too, and a side whose marks are likelier turned by TURNED_NATS (the natural log of the
# likelihood ratio, summed over the side's marks, each mark's likelihood that of the likeliest
# of TURNED_VALUES) was written the other way up; one likelier as usual by USUAL_NATS, as usual
# (most players write as the sheet asks); in between, the way up is open (docs/reader.md,
# "Which way up").
TURNED_NATS = 10.0
USUAL_NATS = 5.0
# What a square holds on nearly every sheet: the die's numbers, one step of Armored support, the
# solo AI's die + 1 and its star. A 9 is none of them, so a 6 is likelier than a 9 turned.
TURNED_VALUES = ("1", "2", "3", "4", "5", "6", "7", "*")
# Marks of a side read turned first; the rest only when these leave the way up open (they
# settle 38 of the 40 sides of 20 finished bench sheets, and reading every mark twice would
# double the networks' time).
TURNED_SAMPLE = 8
TURNED_NOTE = (
    "the {side} side's squares were written the other way up (as one person writing both sides "
    "might): read that way"
)
WAY_UP_WHY = "its side could be written either way up, and turned it reads {other}"


def turned_odds(usual: np.ndarray, turned: np.ndarray) -> float:
    """How much likelier (natural log) marks read turned show what squares hold than the same
    marks read as usual (rows of probabilities, one per mark, in the same order)."""
    likely = [digits.CLASSES.index(v) for v in TURNED_VALUES]

    def fit(p: np.ndarray) -> float:
        if len(p) == 0:
            return 0.0
        return float(np.log(np.maximum(p[:, likely].max(axis=1), 1e-6)).sum())

    return fit(turned) - fit(usual)


def read_turned_instead(usual: np.ndarray, turned: np.ndarray) -> str | None:
    """What a mark reads turned, where that is a number (or star) other than what it reads as
    usual (one row of probabilities each); else None."""
    one, other = int(usual.argmax()), int(turned.argmax())
    value = digits.CLASSES[other]
    return value if other != one and value in TURNED_VALUES else None


@dataclass(frozen=True)
class WaysUp:
    """For each square: whether it is read the other way up from its side's usual, and, where
    which way up its side was written is open, what it reads turned when that differs."""

    turned: tuple[bool, ...]
    doubt: tuple[str | None, ...]
    notes: tuple[str, ...]


def _turned_marks(marks: digits.Marks) -> digits.Marks:
    """The same marks turned the other way up (what significant_ink finds in the turned patch)."""
    h, w = marks.mask.shape
    boxes = sorted((w - x - bw, h - y - bh, bw, bh) for x, y, bw, bh in marks.boxes)
    return digits.Marks(
        np.ascontiguousarray(marks.ink[::-1, ::-1]),
        np.ascontiguousarray(marks.mask[::-1, ::-1]),
        tuple(boxes),
        marks.level,
    )


def _turned_rows(
    usual: list[_Asked], which: list[int], model: digits.Model
) -> dict[int, np.ndarray]:
    """The recogniser's probabilities for the marks of the squares `which` (each holding a
    mark) turned the other way up, in one batch."""
    rows = [_turned_features(usual[i].marks) for i in which]
    if not rows:
        return {}
    return dict(zip(which, digits.classify(rows, model), strict=True))


def _turned_features(marks: digits.Marks) -> np.ndarray:
    """The network's input for marks turned the other way up (marks that hold ink)."""
    row = digits.features(_turned_marks(marks))
    assert row is not None, "turned marks hold the same ink"
    return row


def turned_sample(squares: tuple[Element, ...], usual: list[_Asked]) -> list[int]:
    """The squares whose marks are read turned first: each side's first TURNED_SAMPLE marks."""
    return [
        i
        for side in (Side.FIRST, Side.SECOND)
        for i in [
            j
            for j, (e, a) in enumerate(zip(squares, usual, strict=True))
            if e.side is side and a.whole is not None
        ][:TURNED_SAMPLE]
    ]


def ways_up(
    squares: tuple[Element, ...],
    usual: list[_Asked],
    p: np.ndarray,
    model: digits.Model,
    sampled: dict[int, np.ndarray] | None = None,
) -> WaysUp:
    """Which way up each side of the sheet was written, from its squares' marks as read the
    usual way (`usual`, rows of `p`); `sampled`, the `turned_sample` already read turned."""
    sides = (Side.FIRST, Side.SECOND)
    as_usual = {
        side: {
            i: p[a.whole]
            for i, (e, a) in enumerate(zip(squares, usual, strict=True))
            if e.side is side and a.whole is not None
        }
        for side in sides
    }
    sample = {side: list(as_usual[side])[:TURNED_SAMPLE] for side in sides}
    if sampled is None:
        sampled = _turned_rows(usual, turned_sample(squares, usual), model)
    read = dict(sampled)
    turned = {side: {i: read[i] for i in sample[side]} for side in sides}
    open_sides = [
        side
        for side in sides
        if -USUAL_NATS < _odds(as_usual[side], turned[side]) < TURNED_NATS
        and len(as_usual[side]) > TURNED_SAMPLE
    ]
    rest = [i for side in open_sides for i in list(as_usual[side])[TURNED_SAMPLE:]]
    read |= _turned_rows(usual, rest, model)
    for side in open_sides:
        turned[side] = {i: read[i] for i in as_usual[side]}

    flip = [False] * len(squares)
    doubt: list[str | None] = [None] * len(squares)
    notes = []
    for side in sides:
        found = _odds(as_usual[side], turned[side])
        if found >= TURNED_NATS:
            for i, e in enumerate(squares):
                flip[i] = flip[i] or e.side is side
            notes.append(TURNED_NOTE.format(side="far" if side is Side.SECOND else "near"))
        elif found > -USUAL_NATS:
            for i, row in turned[side].items():
                doubt[i] = read_turned_instead(as_usual[side][i], row)
    return WaysUp(tuple(flip), tuple(doubt), tuple(notes))


def _odds(as_usual: dict[int, np.ndarray], turned: dict[int, np.ndarray]) -> float:
    if not turned:
        return 0.0
    return turned_odds(np.stack([as_usual[i] for i in turned]), np.stack(list(turned.values())))


# A number square holds a number, a star or nothing: an S belongs in the S space beside it. The
# recogniser learnt S as one mark among others, and real fives lean towards it; on a square
# its S counts this much (ruling 13), which still leaves a plain S written there unsure.
SQUARE_S_WEIGHT = 0.1
# On a sheet whose every use of Allies shows its S in an S space, no use is left that an S in a
# number square could stand for: there its S counts a hundredth (ruling 13), still enough to
# leave a plain S unsure.
ACCOUNTED_S_WEIGHT = 0.01


def on_a_square(p: np.ndarray, s_weight: float = SQUARE_S_WEIGHT) -> np.ndarray:
    """The recogniser's class probabilities (rows in CLASSES order) for marks on a number
    square: S weighed at `s_weight`, each row summing to one again."""
    weighed = np.array(p, np.float64)
    weighed[..., digits.CLASSES.index("S")] *= s_weight
    return weighed / weighed.sum(axis=-1, keepdims=True)


def ticked(ticks: tuple[Reading, ...], arena: str, side: Side, unsure_ticked: bool = False) -> int:
    """The boxes of one arena's side read as ticked (with `unsure_ticked`, or read unsure)."""
    return sum(
        1
        for r in ticks
        if r.element.arena == arena
        and r.element.side is side
        and (r.value == "ticked" or (unsure_ticked and r.unsure))
    )


def power_uses(
    ticks: tuple[Reading, ...],
    arenas: tuple[ArenaSpec, ...],
    power: str,
    unsure_ticked: bool = False,
) -> int:
    """How many times the tick boxes say a power was used (one use ticks both sides); with
    `unsure_ticked`, the most they may say, a box read unsure counted as ticked."""
    return sum(
        max(ticked(ticks, a.name, side, unsure_ticked) for side in (Side.FIRST, Side.SECOND))
        for a in arenas
        if a.power == power
    )


def square_s_weight(
    arenas: tuple[ArenaSpec, ...],
    ticks: tuple[Reading, ...],
    allies: tuple[Reading, ...],
    ai_ticked: int = 0,
) -> float:
    """What an S counts on this sheet's number squares: a hundredth when the S spaces read as
    an S (their likeliest reading) are at least as many as the uses of Allies its tick boxes
    may show, less `ai_ticked` (the solo AI's ticks there, which want no S), else a tenth."""
    uses = power_uses(ticks, arenas, ALLIES_POWER, unsure_ticked=True) - ai_ticked
    written = sum(1 for r in allies if r.value == "S")
    return ACCOUNTED_S_WEIGHT if written >= uses else SQUARE_S_WEIGHT


def ai_ticked_allies(
    arenas: tuple[ArenaSpec, ...],
    squares: tuple[Element, ...],
    asked: list[_Asked],
    p: np.ndarray,
    model: digits.Model,
) -> int:
    """On a solo sheet, the Allies arenas where a square of the AI's side (the second) holds a
    star read surely: the AI ticked there, as it stars at its first tick (ruling 6), and it
    never writes an S."""
    allies_arenas = {a.name for a in arenas if a.power == ALLIES_POWER}
    star, bar = digits.CLASSES.index("*"), model.threshold_for("*")
    return len(
        {
            e.arena
            for e, a in zip(squares, asked, strict=True)
            if e.arena in allies_arenas
            and e.side is Side.SECOND
            and a.whole is not None
            and p[a.whole, star] >= bar
        }
    )


def _square_candidates(
    asked: _Asked, p: np.ndarray, s_weight: float = SQUARE_S_WEIGHT
) -> dict[str, float]:
    if asked.whole is None:
        return {"_": 1.0}
    row = on_a_square(p[asked.whole], s_weight).tolist()  # floats: numpy's scalars cost more
    candidates: dict[str, float] = {}
    for name, q in zip(digits.CLASSES, row, strict=True):
        key = square_value(name)
        candidates[key] = candidates.get(key, 0.0) + q
    if asked.halves is not None:
        pa, pb = p[asked.halves[0]].tolist(), p[asked.halves[1]].tolist()
        # The mass the whole-patch model gave "a mark that is no single glyph" is shared among
        # the two-digit readings as the halves' model sees them.
        other = candidates.get("?", 0.0)
        shared = 0.0
        for a in range(1, 10):
            for b in range(10):
                q = other * pa[a] * pb[b]
                if q > 1e-6:
                    candidates[f"{a}{b}"] = q
                    shared += q
        candidates["?"] = other - shared
    return candidates


# An S space holds an S or nothing: a number or a star belongs in a square. Held-out writers'
# S marks lean towards 5 there (nearly all the rest of their weight), as real fives lean
# towards S in a square; in an S space a digit or a star counts this much (ruling 15), which
# still leaves a real five written there unsure.
SPACE_NUMBER_WEIGHT = 0.1
_NUMBERS = [digits.CLASSES.index(c) for c in "0123456789*"]


def _allies_candidates(asked: _Asked, p: np.ndarray) -> dict[str, float]:
    if asked.whole is None:
        return {"_": 1.0}
    row = p[asked.whole]
    s = float(row[digits.CLASSES.index("S")])
    empty = float(row[digits.CLASSES.index(digits.EMPTY)])
    other = float(row[digits.CLASSES.index(digits.OTHER)])
    # Another mark (a scribble, an S struck out) keeps its whole weight: it is what to catch.
    rest = other + SPACE_NUMBER_WEIGHT * float(row[_NUMBERS].sum())
    total = s + empty + rest
    return {"S": s / total, "_": empty / total, "?": rest / total}


def candidates_of(
    squares: list[np.ndarray], allies: list[np.ndarray], using: digits.Model | None = None
) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    """What each square patch and each S space patch holds, as probabilities of typed-in values
    ("?" for no legal reading), all marks recognised in one batch; read with no sheet around
    them, a square's S counts a tenth."""
    asked_squares, asked_allies, p = _asked(squares, allies, using)
    return [_square_candidates(a, p) for a in asked_squares], [
        _allies_candidates(a, p) for a in asked_allies
    ]


def _asked(
    squares: list[np.ndarray], allies: list[np.ndarray], using: digits.Model | None
) -> tuple[list[_Asked], list[_Asked], np.ndarray]:
    """Every mark recognised in one batch: the squares' and the S spaces' marks, and their
    rows' probabilities (candidates still to weigh)."""
    rows: list[np.ndarray] = []
    asked_squares = [_ask(patch, rows, two_digits=True) for patch in squares]
    asked_allies = [_ask(patch, rows, two_digits=False) for patch in allies]
    p = digits.classify(rows, using)
    asked_squares, p = without_underlines(asked_squares, p, using or digits.model())
    return asked_squares, asked_allies, p


def _asked_with_turned_sample(
    cells: tuple[Element, ...],
    squares: list[np.ndarray],
    allies: list[np.ndarray],
    model: digits.Model,
) -> tuple[list[_Asked], list[_Asked], np.ndarray, dict[int, np.ndarray]]:
    """As `_asked`, and the `turned_sample` of the squares (`cells`) read turned, all in one
    batch: a second batch for the sample cost 1.5 ms of a sheet's 45."""
    rows: list[np.ndarray] = []
    asked_squares = [_ask(patch, rows, two_digits=True) for patch in squares]
    asked_allies = [_ask(patch, rows, two_digits=False) for patch in allies]
    usual = len(rows)
    sample = turned_sample(cells, asked_squares)
    rows.extend(_turned_features(asked_squares[i].marks) for i in sample)
    p = digits.classify(rows, model)
    asked_squares, usual_p = without_underlines(asked_squares, p[:usual], model)
    return asked_squares, asked_allies, usual_p, dict(zip(sample, p[usual:], strict=True))


def square_candidates(patch: np.ndarray, using: digits.Model | None = None) -> dict[str, float]:
    """Probabilities of what one square holds, as typed-in values ("?" for no legal reading)."""
    return candidates_of([patch], [], using)[0][0]


def allies_candidates(patch: np.ndarray, using: digits.Model | None = None) -> dict[str, float]:
    """Probabilities of what one S space holds: "S", "_" (nothing) or "?" (another mark)."""
    return candidates_of([], [patch], using)[1][0]


def median_glyph_mm(readings: list[Reading]) -> float:
    heights = [r.glyph_mm for r in readings if r.glyph_mm is not None]
    return median(heights) if heights else NOMINAL_GLYPH_MM


def marks_mm(marks: digits.Marks) -> float | None:
    """The height of a square's written mark (its significant ink), in mm; None for none."""
    if not marks.boxes:
        return None
    # Its parts' boxes bound it, as significant_ink found them (np.nonzero cost more).
    top = min(y for _, y, _, _ in marks.boxes)
    bottom = max(y + h for _, y, _, h in marks.boxes)
    return (bottom - top) / PX_PER_MM


# A square whose significant ink stands this tall (mm) holds a mark: "empty" is no sure reading.
MARK_MM = 3.0


def holds_a_mark(height: float | None) -> bool:
    """Whether a square whose mark stands `height` mm tall (marks_mm) holds one, whatever the
    networks say: neither the networks nor the rules may read it as empty."""
    return height is not None and height >= MARK_MM


# A second mark squeezed in beside a digit (a small second digit in the square's corner) is
# no two-digit pair by its columns, which touch the digit's (_clusters), and the networks read
# the digit alone, surely: a 65 read as 6 at 0.9999. So a part of the ink at least
# SECOND_MARK_SHARE as tall as its tallest part, standing beside it (over at most
# SECOND_MARK_OVERLAP of its own width of the tallest part's columns), leaves the square
# unsure. The parts of one digit mostly stand over each other's columns; a pen that skips
# leaves some beside (docs/reader.md, "A veil, and sharpening turned up"). A second digit that
# touches the first is one mark, and still read as the first alone.
SECOND_MARK_SHARE = 0.25
SECOND_MARK_OVERLAP = 0.25
SECOND_MARK_WHY = "a second mark stands beside the one read"


def second_mark_beside(marks: digits.Marks) -> bool:
    """Whether `marks` holds a part at least SECOND_MARK_SHARE as tall as its tallest part,
    standing beside it (SECOND_MARK_OVERLAP)."""
    tallest = max(range(len(marks.boxes)), key=lambda i: marks.boxes[i][3], default=None)
    if tallest is None:
        return False
    mx, _, mw, mh = marks.boxes[tallest]
    return any(
        h >= SECOND_MARK_SHARE * mh
        and max(0, min(x + w, mx + mw) - max(x, mx)) <= SECOND_MARK_OVERLAP * w
        for i, (x, _, w, h) in enumerate(marks.boxes)
        if i != tallest
    )


# A square whose ink stands in two marks side by side, each as tall as a digit, read as one
# digit surely is left sure; read so only unsurely, the rules may not settle it: they know one
# digit's chances, not what a second mark means (a 16 read as 6 was settled as 6).
TWO_MARKS_WHY = "its ink stands in two marks side by side, read as one digit"


def square_reading(
    e: Element,
    candidates: dict[str, float],
    model: digits.Model,
    height: float | None,
    blur_mm: float = 0.0,
    two_marks: bool = False,
) -> Reading:
    """A square's reading from its candidates; `height` is its mark's height (marks_mm);
    `two_marks` whether its ink stands in two marks side by side (_Asked.halves)."""
    ranked = _ranked(candidates)
    ranked += [("?", 0.0)] * (3 - len(ranked))
    kept = tuple((v, p) for v, p in ranked if p >= KEPT_SHARE)
    (top, p1), (second, p2) = ranked[0], ranked[1]
    reading = Reading(e, top, p1, second, p2, False, candidates=kept, glyph_mm=height)
    if top == "?":
        # No digit or star: show the likeliest reading, but never as sure, and say how
        # surely it is none (the two readings shown are both unlikely).
        why = f"a mark that is no digit or star ({percent(p1)})"
        (top, p1), (second, p2) = ranked[1], ranked[2]
        reading = Reading(e, top, p1, second, p2, True, why, kept)
        reading = replace(reading, glyph_mm=height)
    elif p1 < model.threshold_for(top):
        reading = replace(reading.doubt(f"only {percent(p1)} sure"), only_low_confidence=True)
        if two_marks and len(top) == 1:
            reading = reading.doubt(TWO_MARKS_WHY)
    if height is not None and too_soft(blur_mm, height):
        reading = reading.doubt(f"{SOFT_WHY} (blur {blur_mm:.2f} mm)")
    # Even when only unsure: the rules may settle a low confidence, and must not settle this.
    if reading.value == "_" and holds_a_mark(height):
        reading = reading.doubt(f"read as empty, but ink {height:.0f} mm high is in it")
    return reading


def allies_reading(e: Element, candidates: dict[str, float], model: digits.Model) -> Reading:
    named = {{"_": "empty"}.get(k, k): v for k, v in candidates.items()}
    ranked = _ranked(named) + [("?", 0.0), ("?", 0.0)]
    (top, p1), (second, p2) = ranked[0], ranked[1]
    if top == "?":
        # The two shown are its likeliest readings as an S space, both unlikely: say how.
        return Reading(
            e, second, p2, ranked[2][0], ranked[2][1], True, f"a mark that is no S ({percent(p1)})"
        )
    reading = Reading(e, top, p1, second, p2, False)
    return reading.doubt(f"only {percent(p1)} sure") if p1 < model.threshold_for(top) else reading


def _covered(marks: digits.Marks) -> float:
    """The share of a patch its significant ink covers."""
    return np.count_nonzero(marks.mask) / marks.mask.size


def tick_scores(ink: InkMap, boxes: tuple[Element, ...]) -> list[float]:
    """Share of each tick box's inside covered by written ink."""
    return [_covered(digits.significant_ink(patch)) for patch in crops(ink, boxes, TICK_INSET_MM)]


# Brighter than the paper around it, and narrower than this (mm): a sharpening halo, not paper.
TICK_HALO_MM = 1.2
# Why a box the two readings disagree on is unsure: {value} and {other} are its two readings.
PAPER_WHY = (
    "{value} against the paper around the box, {other} against the paper between its printed "
    "lines (a sharpened photo's bright edges?)"
)
# A tick box less covered than this is empty whatever its neighbours; one more covered, ticked.
TICK_EMPTY_MAX = 0.02
TICK_TICKED_MIN = 0.12


def read_ticks(ink: InkMap, boxes: tuple[Element, ...]) -> list[Reading]:
    """Ticked or not, against this sheet's own empty boxes: the boxes fall into two groups with
    the widest gap in coverage between them, and a box near that gap is unsure."""
    return _judge_ticks(boxes, tick_scores(ink, boxes))


def _judge_ticks(boxes: tuple[Element, ...], scores: list[float]) -> list[Reading]:
    order = sorted(scores)
    cut = TICK_TICKED_MIN
    # The widest gap between consecutive coverages, among those that could separate empty from
    # ticked, puts the sheet's own threshold in its middle.
    best_gap = 0.0
    for lo, hi in zip(order, order[1:], strict=False):
        if hi > TICK_EMPTY_MAX and lo < TICK_TICKED_MIN * 2 and hi - lo > best_gap:
            best_gap, cut = hi - lo, (lo + hi) / 2
    cut = min(max(cut, TICK_EMPTY_MAX * 1.5), TICK_TICKED_MIN)
    empties = [s for s in scores if s < cut]
    noise = percentile(np.array(empties), 90) if empties else 0.0
    readings = []
    for e, s in zip(boxes, scores, strict=True):
        is_ticked = s >= cut
        # Confidence grows with the distance from the threshold, measured in this sheet's noise.
        margin = abs(s - cut) / max(cut, 1e-3)
        confidence = float(min(0.999, 0.5 + margin))
        value, other = ("ticked", "empty") if is_ticked else ("empty", "ticked")
        r = Reading(e, value, confidence, other, 1 - confidence, False)
        clear = s >= TICK_TICKED_MIN if is_ticked else s < max(TICK_EMPTY_MAX, noise * 1.2)
        if clear:
            readings.append(r)
        else:
            readings.append(r.doubt(f"{s:.0%} of the box inked, near this sheet's cut {cut:.0%}"))
    return readings


# A crease or a shadow's edge near a tick box leaves it in a pale, even shade that the paper's
# brightness, found over 7 mm, does not follow: taken for ink, it made empty boxes of a crumpled
# sheet lit from the side read as ticked. So each box is read again against the paper right
# around it (in strips AROUND_NEAR to AROUND_FAR mm outside its outline, the paper on the
# darkest side, or beside each of its rows and columns where a shade crosses it: see
# `_paper_beside`), and a box the two readings disagree on is unsure.
AROUND_NEAR, AROUND_FAR = 0.8, 2.5
SHADE_WHY = (
    "{value} against the paper of the sheet, {other} against the paper right around the box "
    "(a crease, a shadow or a band of shade?)"
)


# A shade's edge runs a little aslant of the rows and columns beside a box: the paper beside
# each row is the darkest within this (mm) of it.
BESIDE_ROWS_MM = 0.5
# Paper beside a box's row this much darker than its sides' paper is a shade, and followed:
# half the shade that makes ink at the ink floor (a shade s reads as ink 1.1 s). Less is noise,
# and no ink either way.
SHADE_BESIDE = 0.5 * digits.INK_FLOOR / 1.1
_BESIDE_ROWS = np.ones((1, 2 * max(1, int(round(BESIDE_ROWS_MM * PX_PER_MM))) + 1), np.uint8)


@dataclass(frozen=True)
class _BoxSurround:
    """The parts of the rectified sheet that a tick box's inside is judged against: the box's
    inside (as `crop` cuts it, before turning), the strips outside its four sides (top, bottom,
    left, right; AROUND_NEAR to AROUND_FAR mm out), and the strips level with its inside beside
    it (left, right, above, below), None for a box too near the sheet's edge to have them."""

    inside: np.ndarray
    sides: tuple[np.ndarray, ...]
    beside: tuple[np.ndarray, ...] | None

    @classmethod
    def of(cls, rectified: np.ndarray, e: Element) -> _BoxSurround:
        near, far = AROUND_NEAR, AROUND_FAR
        right, bottom = e.x + e.w, e.y + e.h
        sides = (
            _pixels(rectified, e.x, e.y - far, right, e.y - near),
            _pixels(rectified, e.x, bottom + near, right, bottom + far),
            _pixels(rectified, e.x - far, e.y, e.x - near, bottom),
            _pixels(rectified, right + near, e.y, right + far, bottom),
        )
        px = PX_PER_MM
        rows, cols = _inside(e, TICK_INSET_MM)
        inside = rectified[rows, cols]
        y0, x0 = rows.start, cols.start
        if min(y0, x0) < 0:
            return cls(inside, sides, None)
        h, w = rectified.shape
        y1, x1 = y0 + inside.shape[0], x0 + inside.shape[1]

        def span(a: float, b: float, limit: int) -> slice:
            return slice(max(0, int(round(a * px))), min(limit, int(round(b * px))))

        beside = (
            rectified[y0:y1, span(e.x - far, e.x - near, w)],
            rectified[y0:y1, span(right + near, right + far, w)],
            rectified[span(e.y - far, e.y - near, h), x0:x1],
            rectified[span(bottom + near, bottom + far, h), x0:x1],
        )
        return cls(inside, sides, beside)

    @property
    def shapes(self) -> tuple[object, ...]:
        beside = None if self.beside is None else tuple(b.shape for b in self.beside)
        return self.inside.shape, tuple(s.shape for s in self.sides), beside


def _inks_against_the_paper_around(
    rectified: np.ndarray, boxes: tuple[Element, ...]
) -> list[np.ndarray]:
    """Each tick box's inside (as `crop` gives it) as ink against the paper right around it:
    the paper on the box's darkest side (each side's 90th percentile, over print, writing and
    what blur spreads of them), or, where a shade crosses the box, the paper beside its rows
    and columns (the darker of left and right for a row, of above and below for a column: a
    rolling shutter's band under a flickering lamp, a pen's shadow, crosses the strips too,
    where the paper of the box's whole side, most of it out of the shade, is brighter).
    Boxes cut alike are worked out together: one by one, the strips' few pixels cost dozens of
    numpy calls a box, a fifth of reading a sheet."""
    surrounds = [_BoxSurround.of(rectified, e) for e in boxes]
    alike: dict[tuple[object, ...], list[int]] = {}
    for i, surround in enumerate(surrounds):
        alike.setdefault(surround.shapes, []).append(i)
    inks: list[np.ndarray] = [np.empty(0)] * len(boxes)
    for members in alike.values():
        group = [surrounds[i] for i in members]
        grey = np.stack([g.inside for g in group]).astype(np.float32)
        levels = [
            percentiles_along(side.reshape(len(group), -1), 90, 1, np.float64)
            for k in range(4)
            if (side := np.stack([g.sides[k] for g in group])).size
        ]
        around = np.minimum.reduce(levels) if levels else np.full(len(group), 255.0)
        beside = _paper_beside([g.beside for g in group], grey.shape)
        # Compared at float32, as a box's float32 paper was with its level as a Python float.
        shade = (around * (1 - SHADE_BESIDE)).astype(np.float32)[:, None, None]
        paper = np.where(beside < shade, beside, around.astype(np.float32)[:, None, None])
        ink = np.clip((1.0 - grey / np.maximum(paper, 8.0)) * 1.1, 0, 1)
        for j, i in enumerate(members):
            inks[i] = np.ascontiguousarray(ink[j, ::-1, ::-1]) if boxes[i].upside_down else ink[j]
    return inks


def _paper_beside(
    strips: list[tuple[np.ndarray, ...] | None], shape: tuple[int, ...]
) -> np.ndarray:
    """For boxes cut alike (`shape`: their insides stacked), each pixel of each inside: the
    paper in the strips beside the box level with it (see `_inks_against_the_paper_around`);
    255 for boxes without strips."""
    if strips[0] is None:
        return np.full(shape, 255.0, np.float32)

    def along(k: int, axis: int) -> np.ndarray:
        """The strips' paper along the boxes: the 90th percentile across each, the darkest of
        each BESIDE_ROWS_MM either way (a shade's edge runs a little aslant)."""
        stack = np.stack([s[k] for s in strips])  # type: ignore[index]
        if stack.size == 0:
            return np.full((shape[0], stack.shape[2 - axis]), 255.0, np.float32)
        return cv2.erode(percentiles_along(stack, 90, axis + 1), _BESIDE_ROWS)

    rows = np.minimum(along(0, 1), along(1, 1))[:, :, None]
    return np.minimum(rows, np.minimum(along(2, 0), along(3, 0))[:, None, :])


def _shade_checked(
    rectified: np.ndarray, boxes: tuple[Element, ...], readings: list[Reading]
) -> list[Reading]:
    """The tick boxes' readings, each unsure where it reads otherwise against the paper right
    around it (see AROUND_NEAR)."""
    inks = _inks_against_the_paper_around(rectified, boxes)
    again = _judge_ticks(boxes, [_covered(digits.significant_ink(ink)) for ink in inks])
    return [
        r if r.value == other.value else r.doubt(SHADE_WHY.format(value=r.value, other=other.value))
        for r, other in zip(readings, again, strict=True)
    ]


def _ticks_either_paper(ink: InkMap, boxes: tuple[Element, ...]) -> list[Reading]:
    """The tick boxes; on a sheet where no box looks clearly empty, read again with the paper's
    brightness found over the least bright of each TICK_HALO_MM, and a box the two read apart
    is unsure. A tick box is small enough for all its paper to lie in the bright halo that a
    phone's sharpening draws along its printed outline: taken for the paper, the halo makes the
    paper in every box look inked. But the second way also finds the paper darker in a soft
    photo, where a faint tick then fades: neither way is right in every photo."""
    scores = tick_scores(ink, boxes)
    readings = _judge_ticks(boxes, scores)
    if not isinstance(ink, Ink) or not boxes:
        return readings
    readings = _shade_checked(ink.rectified, boxes, readings)
    # Where a box looks clearly empty the sheet's cut is sound, but a halo can still fill the
    # boxes in the dimmer part of a sharpened photo: only its ticks are looked at again then.
    some_empty = min(scores) < TICK_EMPTY_MAX
    if some_empty and all(r.value != "ticked" for r in readings):
        return readings
    margin = 10.0  # mm, more than the 7 mm the paper's brightness is looked for over
    rects = [e.rect for e in boxes]
    left, top = min(r.x for r in rects) - margin, min(r.y for r in rects) - margin
    right, bottom = max(r.right for r in rects) + margin, max(r.bottom for r in rects) + margin
    around = Rect(left, top, right - left, bottom - top)
    again = read_ticks(Ink.of(ink.rectified, TICK_HALO_MM, around), boxes)
    return [
        r
        if r.value == other.value or (some_empty and r.value != "ticked")
        else r.doubt(PAPER_WHY.format(value=r.value, other=other.value))
        for r, other in zip(readings, again, strict=True)
    ]


@dataclass(frozen=True)
class SheetReading:
    squares: tuple[Reading, ...]
    ticks: tuple[Reading, ...]
    allies: tuple[Reading, ...]
    notes: tuple[str, ...] = ()  # what the rules made of the sheet, as advice for the reader

    @property
    def all(self) -> tuple[Reading, ...]:
        return self.squares + self.ticks + self.allies


# A cell this much washed out to pure white (glare off the paper) may hide pencil. Paper at
# 250 to 252 is bright, not clipped (a scanner whose white lies just above the paper's puts it
# there), and loses no mark: docs/reader.md, "Scans".
GLARE_LEVEL = 253
GLARE_SHARE = 0.08
# A spot of glare brighter than the paper around the cell needs less: one 5 mm across, over 5
# to 8 % of a square, took the strokes that tell a 3 from a 2 and a 4 from a 1, and the rest
# read surely as the other digit.
GLARE_SPOT_SHARE = 0.03
# Glare is light reflected off the sheet's surface, over ink and print alike; white paper shot
# bright (a phone exposing for a dark table) clips the paper and the lightest writing with it,
# while printed lines and dark strokes stay dark. So where the paper around a cell is as washed
# out as the cell, the cell is under glare unless its printed line is intact (the darkest pixel
# across it, LINE_BAND mm either side, lighter than LINE_WASHED along less than
# LINE_WASHED_SHARE of its length) and it holds writing dark enough that no exposure of the
# paper clipped it (the median of its strokes' ink at least DARK_INK): an empty square there
# may hide a light pencil mark, as a test photo's 6 vanished (docs/reader.md, "What phones do
# to a photo").
LINE_BAND = 0.6
LINE_WASHED = 200
LINE_WASHED_SHARE = 0.05
DARK_INK = 0.5
# The paper around a cell: a ring this far beyond its line.
AROUND_MM = 2.5


def _pixels(rectified: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The rectified sheet between two corners given in mm, clipped to the sheet."""
    h, w = rectified.shape
    rows = slice(max(0, int(round(y0 * PX_PER_MM))), min(h, int(round(y1 * PX_PER_MM))))
    cols = slice(max(0, int(round(x0 * PX_PER_MM))), min(w, int(round(x1 * PX_PER_MM))))
    return rectified[rows, cols]


def _white(rectified: np.ndarray, e: Element, beyond: float = 0.0) -> tuple[int, int]:
    """How many pixels of the cell (and `beyond` mm around it) are pure white, of how many."""
    area = _pixels(rectified, e.x - beyond, e.y - beyond, e.x + e.w + beyond, e.y + e.h + beyond)
    return int((area >= GLARE_LEVEL).sum()), area.size


def glare_share(rectified: np.ndarray, e: Element) -> float:
    white, size = _white(rectified, e)
    return white / size if size else 0.0


def line_washed_share(rectified: np.ndarray, e: Element) -> float:
    """How much of the cell's printed outline is washed out: the share of places along it
    where even the darkest pixel across the line is as light as LINE_WASHED."""
    b = LINE_BAND
    x0, y0, x1, y1 = e.x, e.y, e.x + e.w, e.y + e.h
    across = [
        _pixels(rectified, x0, y0 - b, x1, y0 + b).min(axis=0, initial=255),  # top
        _pixels(rectified, x0, y1 - b, x1, y1 + b).min(axis=0, initial=255),  # bottom
        _pixels(rectified, x0 - b, y0, x0 + b, y1).min(axis=1, initial=255),  # left
        _pixels(rectified, x1 - b, y0, x1 + b, y1).min(axis=1, initial=255),  # right
    ]
    darkest = np.concatenate(across)
    return float((darkest >= LINE_WASHED).mean()) if darkest.size else 1.0


BRIGHT_WHY = (
    "the paper is washed out over {share:.0%} of it (shot too bright): a light mark may be lost"
)


def under_glare(
    rectified: np.ndarray, e: Element, intact: bool = False
) -> tuple[float, str] | None:
    """The share of the cell washed out and why it is unsure, or None when nothing washed out
    can hide what it holds. Glare is a bright spot on the cell alone, or washed-out paper that
    takes the cell's printed line with it; paper shot too bright, a cell on washed-out paper
    unless it is `intact`: what it shows is nothing clipping the paper could have changed
    (writing too dark to lose a stroke, a tick seen in its box: clipping only takes ink away)."""
    white, size = _white(rectified, e)
    share = white / size if size else 0.0
    if share <= GLARE_SPOT_SHARE:
        return None
    glare = (share, f"glare over {share:.0%} of it")
    wide_white, wide_size = _white(rectified, e, AROUND_MM)
    around = (wide_white - white) / max(wide_size - size, 1)
    spot = around < share / 2  # brighter than the paper around it: light off the surface
    if share <= GLARE_SHARE:
        return glare if spot else None
    # An S space's outline is dashed: its gaps are paper, so its line tells nothing.
    print_lost = e.kind is not Kind.ALLIES and line_washed_share(rectified, e) >= LINE_WASHED_SHARE
    if spot or print_lost:
        return glare  # a spot of glare, or light over the print as well as the paper
    return None if intact else (share, BRIGHT_WHY.format(share=share))


def dark_writing(marks: digits.Marks) -> bool:
    """Whether a patch holds writing too dark for a bright exposure to have clipped any of it."""
    return bool(marks.mask.any()) and percentile(marks.ink[marks.mask], 50) >= DARK_INK


def read_sheet(
    ink: InkMap,
    geometry: SheetGeometry,
    rectified: np.ndarray | None = None,
    blur: Callable[[Element], float] | None = None,
    using: digits.Model | None = None,
    mode: Mode = Mode.DUEL,
    pale: Ink | None = None,
) -> SheetReading:
    """Every square, tick box and S space; `blur` gives the blur (mm) where an element stands;
    with `rectified`, cells under glare made unsure; `mode` the sheet's (duel, solo or a team
    pack's); `pale`, the ink of the photo's darkest colour channel, where a cell read as empty
    must look empty too (`marked_empties_doubted`).
    The shipped recogniser and its thresholds unless `using` names another model."""
    model = using or digits.model()
    square_cells = geometry.select(Kind.SQUARE)
    allies_cells = geometry.select(Kind.ALLIES)
    patches = crops(ink, square_cells, SQUARE_INSET_MM)
    allies_patches = crops(ink, allies_cells, ALLIES_INSET_MM)
    asked, asked_allies, p, sampled = _asked_with_turned_sample(
        square_cells, patches, allies_patches, model
    )
    way = ways_up(square_cells, asked, p, model, sampled)
    if any(way.turned):
        patches = [
            np.ascontiguousarray(q[::-1, ::-1]) if t else q
            for q, t in zip(patches, way.turned, strict=True)
        ]
        asked, asked_allies, p = _asked(patches, allies_patches, model)

    def written_faintly(readings: tuple[Reading, ...], asked: list[_Asked]) -> tuple[Reading, ...]:
        # The networks never learnt ink this light, so what they read of it is a suggestion.
        return tuple(
            r.doubt(WRITTEN_FAINTLY_WHY) if a.faint else r
            for r, a in zip(readings, asked, strict=True)
        )

    def glare(
        readings: tuple[Reading, ...], intact: list[bool] | None = None
    ) -> tuple[Reading, ...]:
        if rectified is None:
            return readings
        out = []
        for r, kept in zip(readings, intact or [False] * len(readings), strict=True):
            washed = under_glare(rectified, r.element, kept)
            out.append(r.doubt(washed[1]) if washed is not None else r)
        return tuple(out)

    def faint(readings: tuple[Reading, ...]) -> tuple[Reading, ...]:
        if blur is None:
            return readings
        out = []
        for r in readings:
            b = blur(r.element)
            hidden = r.value in ("_", "empty") and not r.unsure and hides_faint_marks(b)
            out.append(r.doubt(f"{FAINT_WHY} (blur {b:.2f} mm)") if hidden else r)
        return tuple(out)

    ticks = tuple(_ticks_either_paper(ink, geometry.select(Kind.TICK)))
    ticks = faint(glare(ticks, [r.value == "ticked" for r in ticks]))
    allies = tuple(
        allies_reading(e, _allies_candidates(a, p), model)
        for e, a in zip(allies_cells, asked_allies, strict=True)
    )
    # An S read surely from strokes too dark to lose any ink is what was written, whatever the
    # paper around it: clipping only takes ink away. An empty S space may have lost a light S.
    allies = faint(
        glare(
            written_faintly(allies, asked_allies),
            [
                r.value == "S" and dark_writing(a.marks)
                for r, a in zip(allies, asked_allies, strict=True)
            ],
        )
    )
    # A team-mate may give a use of Allies (rulebook), so a team sheet's ticks explain nothing.
    # The solo AI ticks but never writes an S: its ticks want none, and its side holds none.
    ai_side = Side.SECOND if mode is Mode.SOLO else None
    ai_ticked = (
        ai_ticked_allies(geometry.arenas, square_cells, asked, p, model)
        if ai_side is not None
        else 0
    )
    s_weight = (
        SQUARE_S_WEIGHT
        if mode is Mode.TEAM
        else square_s_weight(geometry.arenas, ticks, allies, ai_ticked)
    )
    s_weights = [ACCOUNTED_S_WEIGHT if e.side is ai_side else s_weight for e in square_cells]
    squares = tuple(
        square_reading(
            e,
            _square_candidates(a, p, w),
            model,
            marks_mm(a.marks),
            blur(e) if blur else 0.0,
            a.halves is not None,
        )
        for e, a, w in zip(square_cells, asked, s_weights, strict=True)
    )
    # A mark with a line under it is in pieces, and joined it reads as with its line: what it
    # reads without is weighed instead (underline_doubt).
    squares = tuple(
        joined_doubt(r, None if a.underlined else other)
        for r, a, other in zip(squares, asked, joined_readings(asked, model), strict=True)
    )
    squares = tuple(underline_doubt(r, a.underlined) for r, a in zip(squares, asked, strict=True))
    squares = tuple(
        r.doubt(SECOND_MARK_WHY) if r.value != "_" and second_mark_beside(a.marks) else r
        for r, a in zip(squares, asked, strict=True)
    )
    squares = tuple(
        cut_doubt(r, wide, model)
        for r, wide in zip(
            squares,
            read_with_the_cut_part(ink, square_cells, asked, way.turned, blur, model, s_weights),
            strict=True,
        )
    )
    squares = tuple(
        r.doubt(OVER_THE_LINE_WHY) if runs_over_the_line(ink, e, a.marks, t) else r
        for r, e, a, t in zip(squares, square_cells, asked, way.turned, strict=True)
    )
    squares = tuple(
        r.doubt(BY_THE_LINE_WHY)
        if r.value == "_"
        and not r.unsure
        and written_by_the_line(ink, e, a.marks.level, blur(e) if blur else 0.0)
        else r
        for r, e, a in zip(squares, square_cells, asked, strict=True)
    )
    squares = tuple(
        r.doubt(WAY_UP_WHY.format(other=other)) if other is not None else r
        for r, other in zip(squares, way.doubt, strict=True)
    )
    squares = faint(glare(written_faintly(squares, asked), [dark_writing(a.marks) for a in asked]))
    # A tick in a light pencil, too faint for the ink floor, covers too little of its box to
    # count; the mark is still there above the faint floor, as a square's faint writing is.
    ticks = marked_empties_doubted(
        ticks, ink, TICK_INSET_MM, PALE_TICK_MM, digits.FAINT_FLOOR, FAINT_TICK_WHY
    )
    # A dot is a tick to some players; where every tick on the sheet is one, the sheet's own
    # cut between empty and ticked boxes can fall above them all.
    ticks = marked_empties_doubted(
        ticks, ink, TICK_INSET_MM, DOT_TICK_MM, digits.INK_FLOOR, DOT_TICK_WHY
    )
    if pale is not None:
        floor = pale_floor(ink, pale)
        squares = marked_empties_doubted(squares, pale, SQUARE_INSET_MM, floor=floor)
        ticks = marked_empties_doubted(ticks, pale, TICK_INSET_MM, PALE_TICK_MM, floor)
        # Clear of the S space's rounded dashed corners (2 mm radius), which its own reading
        # drops as it finds them but which, cut off at the inset, stand as tall as a mark.
        allies = marked_empties_doubted(allies, pale, ALLIES_INSET_MM + 1.5, floor=floor)
    squares = lighter_strokes_doubted(squares, asked, patches, model)
    # Last, so that a more telling reason (a pale ink, a faint tick) is the one given.
    squares, allies, ticks = faint_sides_doubted(squares, allies, ticks, asked, patches, model)
    return SheetReading(squares, ticks, allies, way.notes)


# A side whose marks are typically this little darker than the ink floor is written so faintly
# that a lighter stroke, or a whole digit written lighter, falls under the floor and its square
# reads as surely empty: a light pencil photographed in dim light and smoothed by the phone's
# noise reduction at 2 MP lost 100 digits so on 24 sheets, the marks still read there standing
# at 0.17 to 0.23 of black, where every side of the bench's sheets in pen or pencil, finished
# or not, stands at 0.25 or more (docs/reader.md, "What phones do to a photo").
FAINT_SIDE = 1.5 * digits.INK_FLOOR
FAINT_SIDE_MARKS = 3  # numbers a side needs for its writing to be judged
FAINT_SIDE_WHY = (
    "read as empty, but the writing on this side is barely darker than the paper and a lighter "
    "mark may not show (a light pencil in dim light?)"
)
# With the marks of a faint side cut at the faint floor instead, what a lighter stroke adds
# shows: on 48 smoothed sheets (two lights), 6 marks read otherwise so were misread (a 5 whose
# bar was lost read as 3, a 2 as 7) and 6 read right; on the bench's faint and stress sheets
# no mark read otherwise.
FAINT_STROKES_WHY = (
    "written barely darker than the paper; read with its lighter strokes too, it is {other}"
)


def _mark_ink(marks: digits.Marks) -> float | None:
    """How dark a mark is written: the median ink of its significant ink (None: no mark)."""
    return percentile(marks.ink[marks.mask], 50) if marks.mask.any() else None


def faint_sides(squares: tuple[Reading, ...], asked: list[_Asked]) -> set[Side | None]:
    """The sides whose numbers' marks (`_mark_ink`) are typically under FAINT_SIDE. A side of
    fewer than FAINT_SIDE_MARKS numbers is judged by the whole sheet's: noise reduction can wipe
    out all but one of a side's digits, and the one left is the evidence."""
    levels: dict[Side | None, list[float]] = {r.element.side: [] for r in squares}
    for r, a in zip(squares, asked, strict=True):
        # Numbers only: a star drawn in pen beside numbers in pencil says nothing of them.
        if r.value.isdigit() and (level := _mark_ink(a.marks)) is not None:
            levels[r.element.side].append(level)
    every = [level for found in levels.values() for level in found]
    sheet_faint = bool(every) and median(every) < FAINT_SIDE
    return {
        side
        for side, found in levels.items()
        if (median(found) < FAINT_SIDE if len(found) >= FAINT_SIDE_MARKS else sheet_faint)
    }


def read_with_lighter_strokes(
    patches: list[np.ndarray], asked: list[_Asked], which: list[int], model: digits.Model
) -> dict[int, tuple[str, float]]:
    """What the squares `which` read with their marks cut at the faint floor, where that finds
    more ink than was read, and how surely (all in one batch)."""
    rows: dict[int, np.ndarray] = {}
    for i in which:
        marks = digits.significant_ink(patches[i], digits.FAINT_FLOOR)
        if int(marks.mask.sum()) > int(asked[i].marks.mask.sum()):
            row = digits.features(marks)
            if row is not None:
                rows[i] = row
    p = on_a_square(digits.classify(list(rows.values()), model))
    return {
        i: (square_value(digits.CLASSES[int(np.argmax(row))]), float(row.max()))
        for i, row in zip(rows, p, strict=True)
    }


def faint_sides_doubted(
    squares: tuple[Reading, ...],
    allies: tuple[Reading, ...],
    ticks: tuple[Reading, ...],
    asked: list[_Asked],
    patches: list[np.ndarray],
    model: digits.Model,
) -> tuple[tuple[Reading, ...], tuple[Reading, ...], tuple[Reading, ...]]:
    """On a side written faintly (`faint_sides`): its squares and tick boxes read surely empty
    made unsure, and its marks that read otherwise with their lighter strokes
    (`read_with_lighter_strokes`); the S spaces read surely empty when either side is faint,
    since either player may write an S."""
    faint = faint_sides(squares, asked)
    if not faint:
        return squares, allies, ticks
    marked = [
        i
        for i, r in enumerate(squares)
        if not r.unsure and r.value != "_" and r.element.side in faint
    ]
    lighter = read_with_lighter_strokes(patches, asked, marked, model)

    def square(i: int, r: Reading) -> Reading:
        if r.unsure or r.element.side not in faint:
            return r
        if r.value == "_":
            return r.doubt(FAINT_SIDE_WHY)
        other, surely = lighter.get(i, (r.value, 0.0))
        if other == r.value:
            return r
        doubted = r.doubt(FAINT_STROKES_WHY.format(other=in_words(other)))
        return doubted if other == "?" else offering(doubted, other, surely)

    def empty(r: Reading, faint_here: bool) -> Reading:
        sure_empty = r.value in ("_", "empty") and not r.unsure
        return r.doubt(FAINT_SIDE_WHY) if sure_empty and faint_here else r

    return (
        tuple(square(i, r) for i, r in enumerate(squares)),
        tuple(empty(r, True) for r in allies),
        tuple(empty(r, r.element.side in faint) for r in ticks),
    )


# A digit written in pencil with one stroke pressed hard, or in a pen running dry, holds
# strokes lighter than digits.DARKEST_SHARE of its darkest, and its significant ink keeps the
# dark stroke alone: a 6 whose stem is dark and loop light read as 1, surely (an outside
# probe: 38 squares, each read at a glance by a person). So each square read surely, or
# unsure only for the recogniser's confidence, is looked at again at the faint floor whatever
# its darkest, over what stands out from the paper within LIGHTER_SHADE_MM (a crease's or a
# shadow's shade is broader, and drops out). Where that shows LIGHTER_ADDS as much ink again,
# beyond LIGHTER_HALO_MM of the ink read (its halo), the mark is read again with every stroke
# as dark as its darkest near it, and where that reads another digit, the square is unsure.
LIGHTER_ADDS = 0.1
LIGHTER_HALO_MM = 0.35
LIGHTER_SHADE_MM = 2.3
LIGHTER_STROKE_MM = 1.0  # how near a stroke's own darkest lies, to even it out by
LIGHTER_WHY = "part of it is written much lighter than the rest; read with it, it is {other}"


def _kernel(mm: float, shape: int = cv2.MORPH_ELLIPSE) -> np.ndarray:
    """A kernel `mm` across at the patches' scale, round unless `shape` says otherwise."""
    across = 2 * max(1, round(mm * PX_PER_MM / 2)) + 1
    return cv2.getStructuringElement(shape, (across, across))


# The shade's kernel is square: OpenCV opens with a rectangle in a fifth of a disc's time
# (0.025 ms a patch against 0.12, some 4 ms of a sheet), and a shade is broad either way.
_HALO, _SHADE, _STROKE = (
    _kernel(2 * LIGHTER_HALO_MM),
    _kernel(LIGHTER_SHADE_MM, cv2.MORPH_RECT),
    _kernel(LIGHTER_STROKE_MM),
)


def with_lighter_strokes(patch: np.ndarray, marks: digits.Marks) -> np.ndarray | None:
    """The network's input for the mark with its lighter strokes, evened out; None where they
    add too little ink (LIGHTER_ADDS) to tell."""
    near = cv2.dilate(marks.mask.view(np.uint8), _HALO).view(bool)
    enough = LIGHTER_ADDS * np.count_nonzero(marks.mask)
    # What stands out from the shade is never darker than the patch: most marks have too
    # little ink over the faint floor beyond their halo even before the shade is taken out.
    if np.count_nonzero((patch > digits.FAINT_FLOOR) & ~near) < enough:
        return None
    strokes = cv2.morphologyEx(patch, cv2.MORPH_TOPHAT, _SHADE)
    light = digits.significant_ink(strokes, digits.FAINT_FLOOR, darkest_share=0.0)
    if np.count_nonzero(light.mask & ~near) < enough:
        return None
    darkest_near = np.maximum(cv2.dilate(light.ink, _STROKE), digits.FAINT_FLOOR)
    evened = np.minimum(light.ink / darkest_near, 1.0).astype(np.float32)
    return digits.features(replace(light, ink=evened))


def lighter_strokes_doubted(
    squares: tuple[Reading, ...],
    asked: list[_Asked],
    patches: list[np.ndarray],
    model: digits.Model,
) -> tuple[Reading, ...]:
    """The squares whose marks read as another digit with their lighter strokes, unsure (all
    read again in one batch)."""
    rows: dict[int, np.ndarray] = {}
    for i, (r, a) in enumerate(zip(squares, asked, strict=True)):
        doubted_already = r.unsure and not r.only_low_confidence
        if doubted_already or r.value == "_" or a.faint or not a.marks.boxes:
            continue
        row = with_lighter_strokes(patches[i], a.marks)
        if row is not None:
            rows[i] = row
    if not rows:
        return squares
    p = on_a_square(digits.classify(list(rows.values()), model))
    out = list(squares)
    for i, row in zip(rows, p, strict=True):
        other = square_value(digits.CLASSES[int(np.argmax(row))])
        # Read as no digit at all, the lighter ink is a printer's or the paper's, not a stroke
        # (a printer's show-through had made two squares so on the bench's printers set).
        if other not in (squares[i].value, "?"):
            doubted = squares[i].doubt(LIGHTER_WHY.format(other=in_words(other)))
            out[i] = offering(doubted, other, float(row.max()))
    return tuple(out)


PALE_WHY = "read as empty, but a mark in a pale colour stands in it (a yellow or light pen?)"
FAINT_TICK_WHY = "read as empty, but a faint mark stands in the box (a light pencil?)"
# A tick box's inside is 4.2 mm: a short slash across it stands 2.5 mm tall.
PALE_TICK_MM = 2.0
# A dark mark this tall (mm) in a box read as empty: a dot, which dust seldom makes.
DOT_TICK_MM = 0.9
DOT_TICK_WHY = "read as empty, but a dark mark stands in the box (a dot for a tick?)"


def pale_floor(ink: InkMap, pale: Ink) -> float:
    """The ink floor in the darkest colour channel: digits.INK_FLOOR, raised as much as that
    channel's paper is darker than the grey's. Under a lamp's warm light the darkest channel
    is blue, at half the paper's brightness, and the noise and JPEG's coarse colour it carries
    stand as dark as the ink floor once evened out (a pale pen stands at four fifths there)."""
    grey = ink.rectified if isinstance(ink, Ink) else None
    if grey is None:
        return digits.INK_FLOOR
    ratio = percentile(grey[::4, ::4], 50) / max(percentile(pale.rectified[::4, ::4], 50), 8.0)
    return digits.INK_FLOOR * max(1.0, ratio)


def marked_empties_doubted(
    readings: tuple[Reading, ...],
    ink: InkMap,
    inset: float,
    tallest: float = FAINT_MARK_MM,
    floor: float = digits.INK_FLOOR,
    why: str = PALE_WHY,
) -> tuple[Reading, ...]:
    """Cells read as empty surely where `ink` holds a mark `tallest` mm tall above `floor`.
    With the ink of the photo's darkest colour channel: writing in a yellow or light pen,
    which in grey stands under the faint floor, so that a sheet written so read as empty
    squares and unticked boxes, surely. There above `pale_floor`, never the faint floor: in a
    colour channel JPEG's coarser colour leaves blocks that the faint floor takes for marks.
    With the grey ink of tick boxes above the faint floor: a light pencil's ticks."""
    empty = [i for i, r in enumerate(readings) if r.value in ("_", "empty") and not r.unsure]
    out = list(readings)
    for i, patch in zip(
        empty, crops(ink, [readings[i].element for i in empty], inset), strict=True
    ):
        if (marks_mm(digits.significant_ink(patch, floor)) or 0.0) >= tallest:
            out[i] = readings[i].doubt(why)
    return tuple(out)
