"""A line drawn under a digit (players underline a 6 to tell it from a 9): found, left out, and
what the mark reads without it weighed (docs/reader.md, "Underlined")."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from printgen.games.one_page_war.geometry import Kind, sheet_geometry
from printgen.games.one_page_war.layout import load_layout
from printgen.games.one_page_war.reader import cells, digits
from printgen.games.one_page_war.reader.cells import Reading
from printgen.render.units import Paper

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from training import measure_digits, real_digits  # noqa: E402

SIZE = 72


def _six(line: str | None, thickness: int = 4) -> np.ndarray:
    """A 6 drawn as an ink map (0 paper .. 1 black), with a line under it: "apart" from it,
    "touching" its loop, "short" (a third of its width), "steep", or none."""
    ink = np.zeros((SIZE, SIZE), np.uint8)
    cv2.ellipse(ink, (36, 42), (13, 12), 0, 0, 360, 255, thickness, cv2.LINE_AA)
    cv2.ellipse(ink, (47, 40), (24, 30), 0, 185, 260, 255, thickness, cv2.LINE_AA)
    ends = {
        "apart": ((18, 62), (56, 62)),
        "touching": ((18, 59), (56, 59)),
        "short": ((31, 62), (41, 62)),
        "steep": ((18, 52), (56, 67)),
    }
    if line is not None:
        cv2.line(ink, *ends[line], 255, thickness, cv2.LINE_AA)
    return ink.astype(np.float32) / 255


def _bottom(marks: digits.Marks) -> int:
    return int(np.nonzero(marks.mask.any(axis=1))[0][-1])


@pytest.mark.parametrize("line", ["apart", "touching"])
def test_a_line_under_a_mark_is_found_and_left_out(line: str) -> None:
    underlined = digits.significant_ink(_six(line))
    assert len(underlined.boxes) == (1 if line == "touching" else 2)
    plain = digits.significant_ink(_six(None))
    bare = digits.without_underline(underlined)
    assert bare is not None
    # The line is gone: what is left ends where the plain 6 ends, not further down.
    assert _bottom(bare) <= _bottom(plain) + 1 < _bottom(underlined)
    # And the 6 is left whole (all but where the line touched it).
    kept = (bare.mask & plain.mask).sum() / plain.mask.sum()
    assert kept > 0.9
    assert bare.boxes and all(h > 10 for _, _, _, h in bare.boxes)


@pytest.mark.parametrize("line", [None, "short", "steep"])
def test_a_round_bottom_a_short_or_a_steep_stroke_is_no_underline(line: str | None) -> None:
    assert digits.without_underline(digits.significant_ink(_six(line))) is None


def test_an_empty_patch_has_no_underline() -> None:
    assert digits.without_underline(digits.significant_ink(np.zeros((SIZE, SIZE)))) is None


def test_a_line_is_found_under_flat_footed_real_digits_and_seldom_under_others() -> None:
    """Of the held-out real digits written into squares, a line is found under a 2's flat base
    now and then, and seldom under any other digit (on the 600 of the measure part: 15 of 60 2s,
    at most 3 of 60 of any other)."""
    real = real_digits.test_sample()
    found = dict.fromkeys(range(10), 0)
    for ink, label in measure_digits.written_squares(real, 1, seed=5):
        if digits.without_underline(digits.significant_ink(ink)) is not None:
            found[label] += 1
    others = sum(n for label, n in found.items() if label != 2)
    per_digit = len(real) // 10
    assert found[2] >= 1, found
    assert others <= 0.02 * (len(real) - per_digit), found


def _read_as_on_a_sheet(patches: list[np.ndarray]) -> list[Reading]:
    """The squares' readings as read_sheet weighs a mark read with and without a line under
    it (no sheet around them: an S counts as on a sheet with no Allies ticked)."""
    square = sheet_geometry(load_layout("standard"), Paper.A4).select(Kind.SQUARE)[0]
    model = digits.model()
    asked, _, p = cells._asked(patches, [], model)
    return [
        cells.underline_doubt(
            cells.square_reading(
                square, cells._square_candidates(a, p), model, cells.marks_mm(a.marks)
            ),
            six,
        )
        for a, six in zip(asked, cells.underlined_as_six(asked), strict=True)
    ]


def test_underlined_sixes_of_held_out_writers_are_read_and_never_wrongly() -> None:
    """Read with its line, an underlined 6 is seldom sure (3 % of held-out writers' 6s); read
    without it, as a 6 it already reads as, a share of them is. None is accepted as another
    digit, with or without the line."""
    patches = measure_digits.styled_squares("underlined 6", 80, seed=41)
    readings = _read_as_on_a_sheet(patches)
    accepted = [r.value for r in readings if not r.unsure]
    assert set(accepted) <= {"6"}, accepted
    assert len(accepted) >= 0.25 * len(readings), (len(accepted), len(readings))


def test_a_mark_read_as_a_6_without_its_underline_and_as_another_digit_with_it_is_unsure() -> None:
    square = sheet_geometry(load_layout("standard"), Paper.A4).select(Kind.SQUARE)[0]
    sure_five = Reading(square, "5", 0.99, "6", 0.01, False)
    doubted = cells.underline_doubt(sure_five, 0.97)
    assert doubted.unsure and cells.UNDERLINE_WHY in doubted.why
    assert doubted.value == "5" and doubted.offered == ("6", 0.97)
    # A mark that reads as 6 either way, or has no line under it, is left as it was read.
    sure_six = Reading(square, "6", 0.99, "5", 0.01, False)
    assert cells.underline_doubt(sure_six, 0.97) == sure_six
    assert cells.underline_doubt(sure_five, None) == sure_five
