"""Photos of sheets written with real people's handwritten digits the recogniser never learnt
from (the MEASURE part, shipped as tests/data/real-digits-measure.npz): no misread goes
unflagged, and most squares are read surely."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from printgen.games.one_page_war.reader import read, read_photo
from printgen.materials import PhotoOptions
from printgen.render.units import Paper

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from training import real_digits  # noqa: E402

# (seed, mode, paper, photo size): a duel and a solo sheet, A4 and Letter, 2 MP and 12 MP.
SHEETS = [
    (7101, "duel", Paper.A4, (1600, 1200)),
    (7102, "solo", Paper.LETTER, (1600, 1200)),
    (7103, "duel", Paper.LETTER, (4032, 3024)),
]
# The share of digit squares read surely and right must stay above this (the bench measures
# 82-84 % on 2,059 such squares; 81 % on these three sheets, 89 of 110): a floor, so that a
# regression shows without the test being brittle.
ACCEPTED_FLOOR = 0.75
# Misreads not flagged: none. (Sheet 7101's second player writes a 1 with a long flag in
# Politics, which both networks read as 7 at 0.9998 and the ticks leave room for; it is caught
# only because a number past the die is always the player's to check, crosscheck.PAST_THE_DIE.)
KNOWN_SILENT: dict[object, tuple[str, str]] = {}


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> list[photo_corpus.CorpusPhoto]:
    folder = tmp_path_factory.mktemp("real")
    sample = real_digits.test_sample()
    return [
        photo_corpus.make_photo(folder / f"{seed}.jpg", seed, size, mode, paper, real=sample)
        for seed, mode, paper, size in SHEETS
    ]


def test_real_handwriting_is_never_misread_silently(
    photos: list[photo_corpus.CorpusPhoto],
) -> None:
    digit_squares = accepted = 0
    silent: dict[object, tuple[str, str]] = {}
    for photo in photos:
        result = read(photo.path)
        for r in result.reading.all:
            expected = photo.truth[photo_corpus.key(r.element)]
            if r.value != expected and not r.unsure:
                silent[(photo.path.name, photo_corpus.key(r.element))] = (expected, r.value)
            if r.element.kind.value == "square" and expected.isdigit():
                digit_squares += 1
                accepted += r.value == expected and not r.unsure
    assert silent == KNOWN_SILENT, "misreads not flagged: (truth, read as)"
    assert digit_squares > 100
    assert accepted / digit_squares >= ACCEPTED_FLOOR


# A duel whose unsure cells (2, with the shipped model) cannot change who wins.
HOLDING = (7108, "duel", Paper.A4, (1600, 1200))


def test_a_winner_said_to_hold_whatever_the_unsure_cells_hold_is_the_true_one(
    photos: list[photo_corpus.CorpusPhoto], tmp_path: Path
) -> None:
    seed, mode, paper, size = HOLDING
    sample = real_digits.test_sample()
    holding = photo_corpus.make_photo(tmp_path / "held.jpg", seed, size, mode, paper, real=sample)
    told = 0
    for photo in [*photos, holding]:
        report = read_photo(photo.path, PhotoOptions())
        assert report.unsure and report.stakes is not None
        assert report.stakes.to_text(len(report.unsure)) in report.to_text()
        assert report.to_json()["stakes"] == report.stakes.to_json()
        assert report.stakes.deciding <= len(report.unsure)
        if report.stakes.holds:
            told += 1
            (winner,) = report.stakes.winners
            assert winner == photo_corpus.written_winner(report.score.sheet, photo.truth)
            assert "none can change who wins" in report.summary()
    # If a new model leaves HOLDING's result open, pick another sheet whose result holds.
    assert told >= 1
