"""Hands the recogniser never learnt: held-out writers who write the continental way (a 1 with
a long up-stroke from low on the left, every 7 crossed; training/handwriting.CONTINENTAL_SHARE).
Marks such a 1 reads as a 7 often (`python -m training.measure_digits --styles`); on a sheet
none of those misreads may go unflagged. And the hooked 4 of Italian and Turkish writers, which
networks that never learnt it read as 6. (Sheets written by other people's hands are measured by
the bench, `--set semeion`, `optdigits`, `unipen`: those datasets are not shipped.)"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from printgen.games.one_page_war.reader import digits, read
from printgen.games.one_page_war.reader.cells import Reading
from printgen.render.units import Paper

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from training import handwriting as hw  # noqa: E402
from training import measure_digits  # noqa: E402


def read_with_no_silent_misread(
    photo: photo_corpus.CorpusPhoto, readings: tuple[Reading, ...]
) -> list[str]:
    """What was written in each of `readings`' cells; fails on any read wrongly and surely."""
    written = []
    for r in readings:
        expected = photo.truth[photo_corpus.key(r.element)]
        assert r.value == expected or r.unsure, (photo_corpus.key(r.element), expected, r.value)
        written.append(expected)
    return written


def continental_sheets(count: int) -> list[int]:
    """The first sheet seeds (from 20,000) whose two writers both write the continental way."""
    found: list[int] = []
    seed = 20_000
    while len(found) < count:
        if all(w.continental and w.font is None for w in photo_corpus.hands(seed)):
            found.append(seed)
        seed += 1
    return found


def test_a_share_of_held_out_writers_writes_the_continental_way() -> None:
    hands = [hw.writer(seed, held_out=True) for seed in range(2_000)]
    share = np.mean([w.continental for w in hands])
    assert abs(share - hw.CONTINENTAL_SHARE) < 0.03
    assert not any(hw.writer(seed).continental for seed in range(2_000))  # never in training


def test_a_continental_writer_crosses_the_7_and_draws_the_1_with_a_long_flag() -> None:
    hand = next(w for w in (hw.writer(s, held_out=True) for s in range(100)) if w.continental)
    rng = np.random.default_rng(3)
    seven = hw.draw_glyph("7", (80, 80), hand, rng) > 0.3
    one = hw.draw_glyph("1", (80, 80), hand, rng) > 0.3
    rows = np.flatnonzero(seven.any(axis=1))
    middle = seven[(rows[0] + rows[-1]) // 2 - 3 : (rows[0] + rows[-1]) // 2 + 4]
    assert middle.any(axis=0).sum() > 12  # the bar across the stem, not the stem alone
    # The flag starts on the left, a third of the way down or lower.
    ys, xs = np.nonzero(one)
    left = xs < xs.min() + 0.15 * (xs.max() - xs.min() + 1)
    assert ys[left].mean() > ys.min() + 0.2 * (ys.max() - ys.min())


def test_crossed_7s_and_hooked_4s_are_read_and_a_footed_1_never_accepted_wrong() -> None:
    """Marks on their own. (Without its foot, a continental 1 alone is accepted as a 7 now and
    then: docs/reader.md, Limits. On a sheet the rules and the bar catch it: the test below.)
    The hooked 4 with no top, as Italian and Turkish writers make it, was read as 6 at 99.5 %
    and more before the networks learnt it (docs/recogniser-experiments.md, "Other hands")."""
    model = digits.model()
    shapes = (("crossed 7", 0.9), ("continental 1, flag and foot", 0.0), ("hooked 4, no top", 0.5))
    for name, floor in shapes:
        marks = measure_digits.styled(name, 60, 4)
        p = model.probabilities(marks.rows)
        guess = p.argmax(axis=1)
        right = guess == marks.labels
        sure = measure_digits.accepted(model, p)
        assert (right & sure).mean() >= floor, name
        assert (right | ~sure).all(), name


@pytest.mark.parametrize("seed", continental_sheets(2))
def test_sheets_by_continental_writers_have_no_silent_misread(seed: int, tmp_path: Path) -> None:
    photo = photo_corpus.make_photo(tmp_path / "sheet.jpg", seed, (1600, 1200), "duel", Paper.A4)
    written = read_with_no_silent_misread(photo, read(photo.path).reading.all)
    assert written.count("1") >= 2  # the sheet does test the 1s
