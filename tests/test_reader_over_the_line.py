"""Writing that runs over a square's printed line: the reader sees only the square's inside, and
what is left of a digit cut there can surely be another (a 2 without its foot reads as a 7).
Such a square is always listed to check; writing that only touches the line is not."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from printgen.games.one_page_war.geometry import Element, Kind, Paper, Side, sheet_geometry
from printgen.games.one_page_war.layout import layout_names, layout_versions
from printgen.games.one_page_war.reader import cells, digits, read
from printgen.games.one_page_war.reader.locate import PX_PER_MM

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from training import real_digits  # noqa: E402

SQUARE = Element(Kind.SQUARE, "Land", Side.FIRST, 0, 20.0, 20.0, 14.0, 14.0)


def _sheet_with_a_square(line_offset_mm: float = 0.0) -> np.ndarray:
    """An ink map of 54 mm square holding SQUARE's printed outline (0.4 mm, black), drawn
    `line_offset_mm` lower than the geometry says (a fit a little off)."""
    k = PX_PER_MM
    ink = np.zeros((int(54 * k), int(54 * k)), np.float32)
    x0, y0 = int(SQUARE.x * k), int((SQUARE.y + line_offset_mm) * k)
    x1, y1 = int((SQUARE.x + SQUARE.w) * k), int((SQUARE.y + line_offset_mm + SQUARE.h) * k)
    ink[y0 - 1 : y1 + 2, x0 - 1 : x0 + 2] = 1.0
    ink[y0 - 1 : y1 + 2, x1 - 1 : x1 + 2] = 1.0
    ink[y0 - 1 : y0 + 2, x0 - 1 : x1 + 2] = 1.0
    ink[y1 - 1 : y1 + 2, x0 - 1 : x1 + 2] = 1.0
    return ink


def _stroke(ink: np.ndarray, x_mm: float, y0_mm: float, y1_mm: float) -> None:
    """An upright pen stroke, 0.6 mm wide, from y0 to y1 (mm)."""
    k = PX_PER_MM
    ink[int(y0_mm * k) : int(y1_mm * k), int(x_mm * k) - 2 : int(x_mm * k) + 2] = 0.9


def _over(ink: np.ndarray) -> bool:
    patch = cells.crop(ink, SQUARE, cells.SQUARE_INSET_MM)
    return cells.runs_over_the_line(ink, SQUARE, digits.significant_ink(patch))


def test_a_stroke_across_the_line_runs_over_it() -> None:
    ink = _sheet_with_a_square()
    _stroke(ink, 27.0, 24.0, 36.0)  # from inside down across the bottom line, 2 mm past it
    assert _over(ink)


@pytest.mark.parametrize("end_mm", [33.9, 34.4])
def test_writing_up_to_the_line_or_into_it_does_not(end_mm: float) -> None:
    ink = _sheet_with_a_square()
    _stroke(ink, 27.0, 24.0, end_mm)
    assert not _over(ink)


@pytest.mark.parametrize(("along_mm", "over"), [(1.0, False), (3.0, True)])
def test_a_stroke_running_along_outside_the_line_is_more_than_a_tip(
    along_mm: float, over: bool
) -> None:
    """A stroke 0.9 mm outside the bottom line, short of OVER_THE_LINE_PAST_MM: a stroke's
    tip where it crosses the line at a point, but a part of the mark where it runs along the
    line for 3 mm (a 3 written too big, its top's turn above the line, read as 5 without it)."""
    k = PX_PER_MM
    ink = _sheet_with_a_square()
    _stroke(ink, 27.0, 24.0, 35.1)  # down across the bottom line, ending 0.9 mm past it
    row = int(34.8 * k)
    ink[row : row + 3, int(27.0 * k) - 2 : int((27.0 + along_mm) * k)] = 0.9
    assert _over(ink) is over


def test_a_line_printed_a_little_off_its_place_is_no_writing() -> None:
    """The fit puts the line 0.7 mm off: it shows in the band outside, along the whole side."""
    ink = _sheet_with_a_square(line_offset_mm=0.8)
    _stroke(ink, 27.0, 24.0, 34.0)
    assert not _over(ink)


def test_ink_beyond_the_line_away_from_the_mark_is_a_neighbours() -> None:
    """A neighbour's writing come over into the gap is not this square's, unless this square's
    mark reaches its edge there."""
    ink = _sheet_with_a_square()
    _stroke(ink, 27.0, 24.0, 33.5)  # this square's mark, down to its line
    _stroke(ink, 22.0, 34.5, 35.5)  # ink in the gap below, 5 mm to the side
    assert not _over(ink)
    _stroke(ink, 22.0, 28.0, 33.9)  # now the mark reaches its edge just above it
    assert _over(ink)


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER])
@pytest.mark.parametrize("name", layout_names())
def test_outside_each_squares_line_the_sheet_holds_only_paper(name: str, paper: Paper) -> None:
    """What runs_over_the_line looks at, out to OVER_THE_LINE_MM outside a square's line, plus
    the half width of a 0.4 mm line and 0.4 mm of blur, holds no other printed element."""
    clearance = cells.OVER_THE_LINE_MM[1] + 0.2 + 0.4
    for version in layout_versions(name):
        g = sheet_geometry(name, paper, version)
        rects = [e.rect for e in g.elements] + [r for _, r in g.frames]
        for square in g.select(Kind.SQUARE):
            for r in rects:
                if r == square.rect:
                    continue
                inside = (
                    r.x <= square.x
                    and r.right >= square.rect.right
                    and r.y <= square.y
                    and r.bottom >= square.rect.bottom
                )
                if inside:  # a frame around the square: its lines must stand clear
                    gaps = (
                        square.x - r.x,
                        r.right - square.rect.right,
                        square.y - r.y,
                        r.bottom - square.rect.bottom,
                    )
                    assert min(gaps) >= clearance, (name, version, square, r)
                else:
                    assert not square.rect.overlaps(r, clearance), (name, version, square, r)


def _too_big(tmp_path: Path, seed: int) -> photo_corpus.CorpusPhoto:
    """Sheet `seed` as the bench's `big` set writes it, at 2 MP: real digits 0.97 to 1.22 times
    the square's height, most over its line."""
    return photo_corpus.make_photo(
        tmp_path / "sheet.jpg",
        seed,
        (1600, 1200),
        real=real_digits.part("measure"),
        height=(1.15, 1.45),
    )


@pytest.mark.parametrize("seed", [8515, 8523])
def test_a_sheet_written_too_big_has_no_silent_misread(seed: int, tmp_path: Path) -> None:
    """Each of these sheets held a digit cut by the line and read surely as another (a 2 as 7)
    before runs_over_the_line: 7 such squares on the bench's 24 sheets then, none now."""
    photo = _too_big(tmp_path, seed)
    assert photo_corpus.unsure_for(photo, cells.OVER_THE_LINE_WHY) >= 5


def test_a_3_whose_top_runs_along_above_the_line_is_not_read_surely_as_5(tmp_path: Path) -> None:
    """Sheet 94001 of the `big` set made from fresh seeds (`bench_reader.py --first-seed
    94000`): a 3 whose top's turn runs 1 mm above the square's top line, short of what counted
    as more than a tip, read as 5 at 99.98 %."""
    photo = _too_big(tmp_path, 94001)
    where = ("square", "Politics", "first", 2)
    assert photo.truth[where] == "3"
    square = next(
        r for r in read(photo.path).reading.squares if photo_corpus.key(r.element) == where
    )
    assert square.value == "3" or cells.OVER_THE_LINE_WHY in square.why, square


# --- writing against the line, inside the square ------------------------------------------


@pytest.mark.parametrize("x_mm", [20.6, 21.0, 21.5, 21.8])
def test_a_stroke_hugging_the_squares_side_is_seen_by_the_line(x_mm: float) -> None:
    """A 1 written 0.6 to 1.8 mm from the square's left line: the patch read starts 1.1 mm in,
    and a thin part along its edge is left out as a printed line's remnant, so the mark itself
    holds nothing of it."""
    ink = _sheet_with_a_square()
    _stroke(ink, x_mm, 23.5, 32.5)
    patch = cells.crop(ink, SQUARE, cells.SQUARE_INSET_MM)
    marks = digits.significant_ink(patch)
    assert marks.boxes == ()
    assert cells.written_by_the_line(ink, SQUARE, marks.level)


def test_the_printed_line_and_writing_inside_are_not_by_the_line() -> None:
    ink = _sheet_with_a_square()
    assert not cells.written_by_the_line(ink, SQUARE, digits.INK_FLOOR)
    _stroke(ink, 27.0, 23.5, 32.5)  # a 1 in the middle: read from the patch
    assert not cells.written_by_the_line(ink, SQUARE, digits.INK_FLOOR)
    # A fit 0.8 mm off puts the printed line itself into the band, along the whole side.
    assert not cells.written_by_the_line(_sheet_with_a_square(0.8), SQUARE, digits.INK_FLOOR)


def test_a_blurred_printed_line_is_not_by_the_line() -> None:
    """The band starts further in where the photo is soft: a line blurred by 0.4 mm spreads ink
    over the ink floor 0.6 mm in from its centre."""
    blur_mm = 0.4
    ink = cv2.GaussianBlur(_sheet_with_a_square(), (0, 0), blur_mm * PX_PER_MM)
    # Light lifted over part of it (a shadow's edge, glare): the line's halo breaks into pieces
    # shorter than the side, as writing along it would be.
    ink[int(25 * PX_PER_MM) : int(27 * PX_PER_MM)] *= 0.2
    assert cells.written_by_the_line(ink, SQUARE, 0.12)  # read as if the photo were sharp
    assert not cells.written_by_the_line(ink, SQUARE, 0.12, blur_mm)
    _stroke(ink, 21.6, 23.5, 32.5)
    assert cells.written_by_the_line(ink, SQUARE, 0.12, blur_mm)


def test_an_empty_square_with_a_1_against_its_side_is_unsure(tmp_path: Path) -> None:
    """On a photo: an empty square of an unfinished game with a 1 written 0.7 mm from its side
    was read as empty, surely."""
    game = np.random.default_rng(5)
    truth = photo_corpus.random_game(game, "duel", False, None)
    where = next(k for k, v in truth.items() if k[0] == "square" and v == "_")

    def edit(sheet: np.ndarray, geometry: object) -> None:
        e = next(
            e
            for e in geometry.select(Kind.SQUARE)
            if photo_corpus.key(e) == where  # type: ignore[attr-defined]
        )
        k = photo_corpus.SHEET_PX_PER_MM
        x = e.x + 0.7 if e.side is Side.FIRST else e.x + e.w - 0.7
        sheet[
            int((e.y + 3) * k) : int((e.y + 11) * k), int((x - 0.25) * k) : int((x + 0.25) * k)
        ] = 30

    photo = photo_corpus.make_photo(
        tmp_path / "sheet.jpg", 5, (1600, 1200), mode="duel", truth=truth, edit=edit
    )
    square = next(
        r for r in read(photo.path).reading.squares if photo_corpus.key(r.element) == where
    )
    assert square.unsure, square


def _written_in_corners(seed: int, out: Path) -> tuple[photo_corpus.CorpusPhoto, dict]:
    """A photo of sheet `seed`'s game with every number a small real digit (3.5 to 5 mm high)
    written in a corner of its square, 0 to 0.6 mm in from the line, as a player writing small
    against a corner may; and the game's truth (the photo's own names every number square
    empty)."""
    rng = np.random.default_rng([seed, 99])
    mode = str(rng.choice(["duel", "duel", "solo"]))
    truth = photo_corpus.random_game(rng, mode, True, None)
    numbers = {k: v for k, v in truth.items() if v.isdigit() and len(v) == 1}
    hand = np.random.default_rng([seed, 5])
    real = real_digits.part("measure")

    def edit(sheet: np.ndarray, geometry: object) -> None:
        k = photo_corpus.SHEET_PX_PER_MM
        for e in geometry.elements:  # type: ignore[attr-defined]
            value = numbers.get(photo_corpus.key(e))
            if value is None:
                continue
            pen = real_digits.random_pen(hand)
            x0, y0 = int(e.x * k), int(e.y * k)
            x1, y1 = int((e.x + e.w) * k), int((e.y + e.h) * k)
            high = float(hand.uniform(0.28, 0.38)) * e.h * k
            gap = float(hand.uniform(0.0, 0.6)) * k
            right, low = int(hand.integers(0, 2)), int(hand.integers(0, 2))
            bx = (x1 - x0) - gap - 0.8 * high if right else gap
            by = (y1 - y0) - gap - high if low else gap
            i = int(hand.choice(real.of(int(value))))
            ink = real_digits.write_digit(
                real.images[i],
                real.skeleton(i),
                (y1 - y0, x1 - x0),
                (bx, by, bx + 0.8 * high, by + high),
                pen,
                hand,
                (0.95, 1.0),
            )
            if e.side is Side.SECOND:
                ink = ink[::-1, ::-1]
            region = sheet[y0:y1, x0:x1].astype(np.float32) / 255
            region *= 1 - 0.88 * ink[..., None]
            sheet[y0:y1, x0:x1] = (region * 255).clip(0, 255).astype(np.uint8)

    blank = {k: ("_" if k in numbers else v) for k, v in truth.items()}
    photo = photo_corpus.make_photo(
        out / f"corners-{seed}.jpg", seed, (1600, 1200), mode=mode, truth=blank, edit=edit
    )
    return photo, truth


@pytest.mark.parametrize(
    ("seed", "where"),
    [
        # A 1 slanting beside the side, meeting the patch's edge at its foot: dropped as a
        # printed line's remnant, the square read as empty at 100 %.
        (7, ("square", "Land", "second", 3)),
        # A 6 in a corner, its loop against the side and outside the patch: read as 1 at 97 %.
        (9, ("square", "Espionage", "first", 3)),
        # A 7 whose bar runs under the top line: read as 1 at 99.8 %.
        (2, ("square", "Sea", "first", 3)),
    ],
)
def test_a_digit_written_against_the_line_is_read_with_all_of_it_or_unsure(
    seed: int, where: tuple[str, str, str, int], tmp_path: Path
) -> None:
    photo, truth = _written_in_corners(seed, tmp_path)
    square = next(
        r for r in read(photo.path).reading.squares if photo_corpus.key(r.element) == where
    )
    assert square.value == truth[where] or square.unsure, square


# A square read surely as 3.
SURE_THREE = cells.Reading(SQUARE, "3", 0.999, "5", 0.001, False, candidates=(("3", 0.999),))


@pytest.mark.parametrize(
    ("wide", "unsure", "why"),
    [
        (None, False, ""),  # no part by the line: nothing to read again
        (("3", 0.9999), False, ""),  # read with it, as surely
        (("3", 0.86), True, "read with it, only 86% sure"),
        (("5", 0.9999), True, "read with it, 5"),
        (("?", 0.99), False, ""),  # took in a crease's shadow or a neighbour's ink
        (("_", 0.99), False, ""),
        (("35", 0.99), False, ""),
    ],
)
def test_a_mark_read_again_with_its_part_by_the_line_must_agree_surely(
    wide: tuple[str, float] | None, unsure: bool, why: str
) -> None:
    """A 3 whose flat top was written on the line read as 5 surely without it and as 5 at 86 %
    with the part of it clear of the line: the wider view, with more of the mark, must be as
    sure as the model's bar for the reading to stand."""
    model = digits.model()
    assert model.threshold_for("3") > 0.86
    reading = cells.cut_doubt(SURE_THREE, wide, model)
    assert reading.unsure is unsure
    assert why in reading.why
    if unsure:
        assert not reading.only_low_confidence  # the rules may not settle it again
