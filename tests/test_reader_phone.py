"""Photos as phones make them: sharpened (a bright halo along every printed line), shaken during
the exposure (edges smeared one way only). Each reads with every cell right or unsure, or is
refused with advice; the blur is measured in the worse direction; and nothing is surely empty in
a photo too soft to show a faint mark (where a side is two numbers short of the other:
test_reader_read)."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from printgen.games.one_page_war.geometry import Element, Kind
from printgen.games.one_page_war.reader import read
from printgen.games.one_page_war.reader.blur import (
    EMPTY_BLUR_MM,
    FAINT_WHY,
    blur_px,
    blur_px_at,
)
from printgen.games.one_page_war.reader.cells import FAINT_SIDE_WHY, PAPER_WHY, Ink, read_sheet
from printgen.games.one_page_war.reader.digits import INK_FLOOR
from printgen.games.one_page_war.reader.errors import NoSheet, PoorPhoto
from printgen.games.one_page_war.reader.locate import PX_PER_MM, clear_haze
from printgen.games.one_page_war.reader.markers import Markers

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402
from photo_corpus import GENTLE, SMALL  # noqa: E402

# A 2 MP photo tilted by a third of a right angle, under a shadow: seed 1105's sheet as the
# corpus photographs it, for which a sharpening halo once made two empty boxes read as ticked.
TILTED = photo_corpus.Shot(
    size=SMALL,
    tilt_deg=34,
    rotation_deg=-6.4,
    fill=0.75,
    blur=0.2,
    noise=3.3,
    jpeg_quality=95,
    shadow=0.38,
    gradient=0.19,
    exif_orientation=8,
    seed=1805141834,
)
PLAIN = photo_corpus.Shot(
    size=SMALL, tilt_deg=20, blur=0.6, noise=3, jpeg_quality=80, shadow=0.2, gradient=0.3, seed=5
)


def _right_or_unsure(path: Path, photo: photo_corpus.CorpusPhoto) -> list[str]:
    """Every cell right or unsure; the cells left unsure, by key."""
    unsure = []
    for r in read(path).reading.all:
        key = photo_corpus.key(r.element)
        assert r.value == photo.truth[key] or r.unsure, (
            f"{key} is {photo.truth[key]}, read {r.value}"
        )
        if r.unsure:
            unsure.append(key)
    return unsure


def test_a_sharpened_photo_reads_no_empty_box_as_ticked(tmp_path: Path) -> None:
    # The halo is brighter than the paper: taken for the paper, it made the paper inside a small
    # box look inked, and two empty boxes (one a side, as one use ticks them) read as ticked.
    # Read again against the paper found over the least bright of each 1.2 mm, they are empty.
    path = tmp_path / "sharpened.jpg"
    photo = photo_corpus.make_photo(path, 1105, SMALL, shot=replace(TILTED, sharpen=1.2))
    _right_or_unsure(path, photo)
    espionage = [r for r in read(path).reading.ticks if r.element.arena == "Espionage"]
    empty = [r for r in espionage if photo.truth[photo_corpus.key(r.element)] == "empty"]
    assert len(empty) == 2
    why = PAPER_WHY.format(value="ticked", other="empty")
    assert all(r.value == "empty" or why in r.why for r in empty)


# Sharpened harder, as a phone's "structure" or "details" slider does: a halo 3 px wide.
HARD = replace(PLAIN, tilt_deg=15, blur=0.5, shadow=0.35, sharpen=2.5, sharpen_px=3.0)


@pytest.mark.parametrize("seed", [1100, 1106])
def test_a_hard_sharpened_flat_sheet_is_not_taken_for_one_that_does_not_lie_flat(
    seed: int, tmp_path: Path
) -> None:
    # The halo inside every box, taken for the paper, inked the paper there as darkly as the
    # clipped printed lines: the outlines were matched a millimetre off, and the cells moved.
    path = tmp_path / "sharpened.jpg"
    photo = photo_corpus.make_photo(path, seed, SMALL, shot=replace(HARD, seed=seed))
    assert not any("does not lie flat" in a for a in read(path).located.advice)
    _right_or_unsure(path, photo)


def test_a_hard_sharpened_photo_reads_no_empty_box_as_ticked(tmp_path: Path) -> None:
    # Two empty boxes of this sheet read as ticked, surely: other boxes of the sheet looked
    # clearly empty, so the second reading of the boxes was not taken.
    path = tmp_path / "sharpened.jpg"
    photo = photo_corpus.make_photo(path, 1107, SMALL, shot=replace(HARD, seed=1107))
    _right_or_unsure(path, photo)


@pytest.mark.parametrize("seed", [1100, 1102])
def test_a_hazy_photo_reads_as_the_clear_one(seed: int, tmp_path: Path) -> None:
    # A veil of 60 % white: the printed black is a light grey, and every mark read faint. Most
    # cells were unsure (17 and 14 of 61 accepted, against 52 and 53).
    shot = replace(PLAIN, tilt_deg=15, blur=0.5, shadow=0.2, gradient=0.2, seed=seed)
    accepted = []
    for haze in (0.0, 0.6):
        path = tmp_path / f"haze-{haze}.jpg"
        photo = photo_corpus.make_photo(path, seed, SMALL, shot=replace(shot, haze=haze))
        accepted.append(len(photo.truth) - len(_right_or_unsure(path, photo)))
    assert accepted[1] >= accepted[0] - 3, accepted


def test_haze_is_cleared_only_from_a_sheet_whose_darkest_is_grey() -> None:
    rng = np.random.default_rng(1)
    sheet = np.full((600, 400), 230, np.uint8)
    sheet[100:140, 100:300] = 20  # a printed black: 9 % of the paper
    sheet += rng.integers(0, 5, sheet.shape, dtype=np.uint8)
    assert clear_haze(sheet) is sheet
    hazy = (0.4 * sheet + 0.6 * 255).astype(np.uint8)  # black 165, paper 245
    cleared = clear_haze(hazy)
    paper = float(np.median(cleared))
    assert abs(paper - np.median(hazy)) <= 1  # the paper stays as it was
    assert float(np.median(cleared[100:140, 100:300])) == pytest.approx(0.15 * paper, abs=6)
    # A veil the sheet hardly shows through is read as it is.
    faint = (0.1 * sheet + 0.9 * 255).astype(np.uint8)
    assert clear_haze(faint) is faint


@pytest.mark.parametrize("seed", [1100, 1107])
def test_a_shaken_photo_leaves_a_washed_out_1_unsure(seed: int, tmp_path: Path) -> None:
    # A 5 px shake at 2 MP (about a millimetre) smears the thin upright stroke of a 1 in the
    # Land arena's first square into almost nothing; it was read as surely empty.
    path = tmp_path / "shaken.jpg"
    photo = photo_corpus.make_photo(path, seed, SMALL, shot=replace(PLAIN, seed=seed, shake_px=5))
    first = ("square", "Land", "first", 0)
    assert photo.truth[first] == "1"
    assert first in _right_or_unsure(path, photo)


def test_a_photo_shaken_by_more_than_the_writing_bears_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "shaken.jpg"
    photo_corpus.make_photo(path, 1107, SMALL, shot=replace(PLAIN, seed=1107, shake_px=7))
    with pytest.raises(PoorPhoto, match="too blurred.*hold the phone still"):
        read(path)


def test_a_photo_shaken_past_finding_its_markers_is_said_to_be_blurred(tmp_path: Path) -> None:
    # A 20 px streak leaves the edges along it sharp: measured by its steepest steps the photo
    # was sharp, and it was refused as showing no sheet, with no word of the shake.
    path = tmp_path / "shaken.jpg"
    photo_corpus.make_photo(path, 1101, SMALL, shot=replace(GENTLE, shake_px=20))
    with pytest.raises(NoSheet, match="no One Page War sheet found.*the photo is blurred"):
        read(path)


def _marker_photo(blur: str) -> tuple[np.ndarray, Markers]:
    """A black square on white, 60 px a side, soft by a Gaussian or a sideways streak."""
    grey = np.full((160, 160), 255, np.float32)
    grey[50:110, 50:110] = 0
    if blur == "gaussian":
        grey = cv2.GaussianBlur(grey, (0, 0), 2.0)
    else:
        streak = np.zeros((1, 13), np.float32)
        streak[0, :] = 1 / 13
        grey = cv2.filter2D(grey, -1, streak)
    quad = np.array([(50, 50), (110, 50), (110, 110), (50, 110)], np.float64)
    return grey.astype(np.uint8), Markers({0: quad})


def test_the_blur_is_measured_across_the_smear_not_along_it() -> None:
    # A 13 px streak ramps an edge across it evenly over 13 px, as steep as a Gaussian of
    # 13 / sqrt(2 pi) = 5.2 px makes it at its steepest, and leaves the edges along it sharp:
    # the blur is the smeared direction's.
    grey, markers = _marker_photo("streak")
    assert blur_px(grey, markers) == pytest.approx(13 / math.sqrt(2 * math.pi), rel=0.15)
    grey, markers = _marker_photo("gaussian")
    assert blur_px(grey, markers) == pytest.approx(2.0, rel=0.15)


def test_an_empty_cell_is_unsure_where_the_photo_is_too_soft_for_a_faint_mark(
    tmp_path: Path,
) -> None:
    path = tmp_path / "plain.jpg"
    photo_corpus.make_photo(path, 1101, SMALL, shot=PLAIN)
    result = read(path)
    ink, geometry = Ink.of(result.rectified), result.located.geometry

    def empties(blur_mm: float) -> list[object]:
        sheet = read_sheet(ink, geometry, result.rectified, lambda e: blur_mm)
        return [r for r in sheet.all if r.value in ("_", "empty")]

    sharp, soft = empties(EMPTY_BLUR_MM - 0.05), empties(EMPTY_BLUR_MM + 0.05)
    kinds = {r.element.kind for r in sharp}  # type: ignore[attr-defined]
    assert {Kind.TICK, Kind.ALLIES} <= kinds
    assert any(not r.unsure for r in sharp)  # type: ignore[attr-defined]
    assert soft and all(r.unsure and FAINT_WHY in r.why for r in soft)  # type: ignore[attr-defined]


def test_the_faint_mark_limit_follows_from_the_ink_floor() -> None:
    # A light pencil stroke, 0.4 mm wide and 40 % grey, blurred by sigma s, peaks at
    # 0.4 erf(0.4 / (2 sqrt(2) s)): still above the ink floor at the limit, under it soon after.
    def peak(sigma_mm: float) -> float:
        return 0.4 * math.erf(0.4 / (2 * math.sqrt(2) * sigma_mm))

    assert peak(EMPTY_BLUR_MM) > INK_FLOOR > peak(EMPTY_BLUR_MM + 0.05)


def test_the_blur_between_the_markers_lies_on_a_plane_through_theirs() -> None:
    spots = ((0.0, 0.0, 1.0), (100.0, 0.0, 3.0), (0.0, 100.0, 1.0), (100.0, 100.0, 3.0))
    assert blur_px_at(spots, 50, 50, floor=0.5) == pytest.approx(2.0)
    assert blur_px_at(spots, 100, 20, floor=0.5) == pytest.approx(3.0)
    # Never past the blurs measured, nor under the photo's median.
    assert blur_px_at(spots, 400, 0, floor=0.5) == pytest.approx(3.0)
    assert blur_px_at(spots, 0, 50, floor=2.0) == pytest.approx(2.0)
    # Two markers say nothing of a plane: the photo's blur is the median.
    assert blur_px_at(spots[:2], 100, 0, floor=2.0) == 2.0


def _focus_falls_off(path: Path, most_px: float) -> None:
    """The photo sharp at its left edge and softer to the right, up to `most_px` (a Gaussian's
    sigma): a shallow depth of field, the phone close and the sheet steep."""
    photo = cv2.imread(str(path)).astype(np.float32)
    levels = np.linspace(0, most_px, 8)
    copies = [photo] + [cv2.GaussianBlur(photo, (0, 0), s) for s in levels[1:]]
    at = np.linspace(0, len(levels) - 1, photo.shape[1])  # each column's place among the levels
    lower = np.minimum(at.astype(int), len(levels) - 2)
    share = (at - lower)[None, :, None]
    out = np.zeros_like(photo)
    for i in range(len(levels) - 1):
        here = (lower == i)[None, :, None]
        out += here * ((1 - share) * copies[i] + share * copies[i + 1])
    cv2.imwrite(str(path), out.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 90])


def test_an_empty_cell_is_unsure_where_a_shallow_focus_leaves_that_end_of_the_sheet_soft(
    tmp_path: Path,
) -> None:
    # The corner markers' median blur is under the faint-mark limit, so the whole sheet was
    # taken as sharp enough; the cells at the soft end stand past it.
    path = tmp_path / "focus.jpg"
    shot = replace(PLAIN, blur=0.3, exif_orientation=1)
    photo = photo_corpus.make_photo(path, 1101, SMALL, shot=shot)
    _focus_falls_off(path, 2.4)
    result = read(path)
    located = result.located
    assert located.blur_mm < EMPTY_BLUR_MM
    to_photo = np.linalg.inv(located.homography)

    def photo_x(e: Element) -> float:
        centre = np.array([e.centre], np.float64) * PX_PER_MM
        return float(cv2.perspectiveTransform(centre.reshape(1, 1, 2), to_photo)[0, 0, 0])

    one_blur = replace(located, blur_spots=())  # the photo's median blur everywhere, as before
    newly_soft = [
        r
        for r in result.reading.all
        if photo.truth[photo_corpus.key(r.element)] in ("", "empty")
        and one_blur.blur_at(r.element) <= EMPTY_BLUR_MM < located.blur_at(r.element)
    ]
    assert newly_soft
    assert all(r.unsure and FAINT_WHY in r.why for r in newly_soft)
    middle = float(np.median([photo_x(r.element) for r in result.reading.all]))
    assert all(photo_x(r.element) > middle for r in newly_soft)  # at the soft end
    _right_or_unsure(path, photo)


def _smoothed_in_dim_light(path: Path, seed: int) -> photo_corpus.CorpusPhoto:
    """Sheet `seed` in a light pencil, photographed as a phone does in dim light at 2 MP: the
    scene at 35 %, sensor noise, the gain that brings it back, then noise reduction (non-local
    means) on the small picture, where a pencil stroke is 1 to 2 pixels wide."""
    from training import real_digits

    # The tests' sample of the measure part, which is there with or without ../shared/.
    photo = photo_corpus.make_photo(
        path, seed, SMALL, real=real_digits.test_sample(), pen=real_digits.Pen(0.05, 0.45, True)
    )
    rng = np.random.default_rng(seed)
    taken = cv2.imread(str(path)).astype(np.float32)
    lit = np.clip((taken * 0.35 + rng.normal(0, 5, taken.shape)) * 2.7, 0, 255).astype(np.uint8)
    cv2.imwrite(str(path), cv2.fastNlMeansDenoisingColored(lit, None, 12, 12, 7, 21))
    return photo


def test_a_light_pencil_smoothed_away_by_noise_reduction_is_never_read_surely_empty(
    tmp_path: Path,
) -> None:
    """Sheet 3007: 14 of its digits (the measure part's, as it was written until 2026-12-06)
    read as empty squares, surely, before FAINT_SIDE (what is left of them stands 5 % darker
    than the paper). The digits that still show stand at 0.17 of black, barely over the ink
    floor: on such a side no empty square is sure."""
    photo = _smoothed_in_dim_light(tmp_path / "sheet.jpg", 3007)
    assert photo_corpus.unsure_for(photo, FAINT_SIDE_WHY) >= 5


def test_a_faint_digit_that_lost_a_lighter_stroke_is_read_with_it_too(tmp_path: Path) -> None:
    """Sheet 3009: a 2 whose lighter strokes stand under the ink floor reads as 1; cut at the
    faint floor, its mark reads 2, so it is unsure and 2 is offered beside the 1, though the
    rules rank 7 second (until 2026-12-06 they offered 7, and the player had to type the 2 the
    reason named)."""
    photo = _smoothed_in_dim_light(tmp_path / "sheet.jpg", 3009)
    assert photo_corpus.unsure_for(photo, "read with its lighter strokes too") >= 1
    # What it reads with them is the other reading offered to pick.
    offered = 0
    for r in read(photo.path).reading.squares:
        if "read with its lighter strokes too, it is " in r.why:
            assert r.why.endswith(f"it is {r.second}") and r.second != r.value
            offered += r.second == photo.truth[photo_corpus.key(r.element)]
    assert offered >= 1


def test_an_ordinary_pencil_leaves_an_unfinished_sheets_empty_squares_sure(
    tmp_path: Path,
) -> None:
    """A pencil at 40 % of black, photographed as the corpus does: its marks stand well over
    FAINT_SIDE, so the empty squares of an unfinished game stay sure."""
    from training import real_digits

    photo = photo_corpus.make_photo(
        tmp_path / "sheet.jpg",
        5003,
        SMALL,
        real=real_digits.part("measure"),
        pen=real_digits.Pen(0.05, 0.4, True),
        finished=False,
    )
    readings = read(photo.path).reading
    assert not any(FAINT_SIDE_WHY in r.why for r in readings.all)
    empties = [r for r in readings.squares if r.value == "_"]
    assert len(empties) >= 10 and sum(not r.unsure for r in empties) >= 10


def test_a_printer_s_streak_across_empty_squares_is_no_blur(tmp_path: Path) -> None:
    # A grey band 0.85 mm wide through every row of squares of an unfinished game: its pieces
    # in the empty squares, a millimetre tall, had been judged as writing, and the sharp photo
    # was refused as "too blurred to read the digits (... writing 1 mm high ...)".
    def streak(sheet: np.ndarray, geometry: object) -> None:
        k = photo_corpus.SHEET_PX_PER_MM
        rows = {round(e.y + e.h / 2, 1) for e in geometry.select(Kind.SQUARE)}  # type: ignore[attr-defined]
        for y in rows:
            band = sheet[int((y - 0.42) * k) : int((y + 0.43) * k)]
            band[:] = (band * 0.55).astype(np.uint8)

    path = tmp_path / "streaked.jpg"
    shot = replace(PLAIN, size=(4032, 3024), blur=0.8, seed=81107)
    photo = photo_corpus.make_photo(
        path, 81107, (4032, 3024), mode="solo", shot=shot, finished=False, edit=streak
    )
    assert sum(v == "_" for k, v in photo.truth.items() if k[0] == "square") >= 10
    _right_or_unsure(path, photo)
