"""Which way up each side of a sheet was written. The far side is read turned, as its player
writes it; a solo player writing the AI's numbers their own way up (or one scorekeeper writing
both sides) is found from the marks and read that way, and a side too short to tell leaves the
squares that read differently turned to check."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from printgen.games.one_page_war.geometry import Element, Kind, Side
from printgen.games.one_page_war.reader import cells, digits, read

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from training import real_digits  # noqa: E402


def _rows(*reads: tuple[str, float]) -> np.ndarray:
    """Recogniser rows, each its value at that probability and the rest on "other"."""
    p = np.zeros((len(reads), len(digits.CLASSES)))
    for row, (value, share) in enumerate(reads):
        p[row, digits.CLASSES.index(value)] = share
        p[row, digits.CLASSES.index("other")] += 1 - share
    return p


def test_marks_that_read_far_better_turned_were_written_turned() -> None:
    usual, turned = _rows(*[("other", 0.9)] * 4), _rows(*[("3", 0.999)] * 4)
    assert cells.turned_odds(usual, turned) >= cells.TURNED_NATS
    assert cells.turned_odds(turned, usual) <= -cells.USUAL_NATS


def test_a_six_outweighs_a_nine() -> None:
    """A 9 is nothing a square holds on a standard sheet, so three 6s read as usual are not
    turned into 9s, however sure the networks are of both."""
    usual, turned = _rows(*[("6", 0.999)] * 3), _rows(*[("9", 0.999)] * 3)
    assert cells.turned_odds(usual, turned) <= -cells.USUAL_NATS


def test_what_a_mark_reads_turned_is_a_doubt_only_when_it_is_another_number() -> None:
    six, seven, four, other = _rows(("6", 0.999), ("7", 0.999), ("4", 0.99), ("other", 0.9))
    assert cells.read_turned_instead(six, seven) == "7"
    assert cells.read_turned_instead(four, other) is None
    assert cells.read_turned_instead(four, four) is None


def test_a_lone_upright_seven_on_the_far_side_is_left_to_check() -> None:
    """A real 7 written the near player's way up on the far side, the only mark there: read
    turned as the far side usually is, it is an L, which the networks take for another digit.
    One mark cannot tell which way up its side was written, so the square is left to check."""
    sample = real_digits.test_sample()
    index = int(sample.of(7)[0])
    ink = real_digits.write_digit(
        sample.images[index],
        sample.skeleton(index),
        (70, 70),
        (6.0, 6.0, 64.0, 64.0),
        real_digits.Pen(None, 0.95, False),
        np.random.default_rng(3),
    )
    square = Element(Kind.SQUARE, "Land", Side.SECOND, 0, 0.0, 0.0, 14.0, 14.0)
    patches = [np.ascontiguousarray(ink[::-1, ::-1])]  # as the far side's patch is cropped
    model = digits.model()
    usual, _, p = cells._asked(patches, [], model)
    way = cells.ways_up((square,), usual, p, model)
    assert way.turned == (False,) and way.notes == ()
    assert way.doubt == ("7",), digits.CLASSES[int(p[0].argmax())]


@pytest.mark.parametrize(("mode", "seed"), [("solo", 8704), ("solo", 8707), ("duel", 8801)])
def test_a_far_side_written_the_near_way_up_has_no_silent_misread(
    mode: str, seed: int, tmp_path: Path
) -> None:
    """Real digits, the far side written the near player's way up. Read as the far side usually
    is, the two solo sheets held 2 and 3 upright 7s read surely as 6 (23 such squares on 12
    sheets)."""
    photo = photo_corpus.make_photo(
        tmp_path / "sheet.jpg",
        seed,
        (1600, 1200),
        mode=mode,
        real=real_digits.part("measure"),
        far_upright=True,
    )
    result = read(photo.path)
    assert cells.TURNED_NOTE.format(side="far") in result.reading.notes
    assert cells.TURNED_NOTE.format(side="near") not in result.reading.notes
    wrong = [
        (photo_corpus.key(r.element), r.value)
        for r in result.reading.all
        if r.value != photo.truth[photo_corpus.key(r.element)] and not r.unsure
    ]
    assert wrong == []
    accepted = [r for r in result.reading.squares if r.element.side is Side.SECOND and not r.unsure]
    assert len(accepted) >= 10
