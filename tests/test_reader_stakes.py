"""What a photographed sheet's unsure cells can change (reader/stakes.py): never a winner it
says holds, on games played by the rulebook with any cells unsure and any values in them; and
exactly the winners some values give, where every assignment can be tried."""

from __future__ import annotations

import itertools
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from printgen.games.one_page_war.geometry import Side
from printgen.games.one_page_war.reader.cells import Reading, SheetReading
from printgen.games.one_page_war.reader.stakes import Stakes, _values, stakes
from printgen.games.one_page_war.referee import judge_arena, leader_of, score_sheet
from printgen.games.one_page_war.rules import Mark, Square
from printgen.games.one_page_war.sheet import Arena, Mode, Sheet

sys.path.insert(0, str(Path(__file__).resolve().parent))
import playout  # noqa: E402
from test_reader_joint import Where, sheet_reading, typed  # noqa: E402

FIRST = {
    "Land": [6, 6, 6, 6],
    "Air": [5, 5, 5],
    "Sea": [4, 4, 4, 4, 4],
    "Politics": [1, 2, 4],
    "Espionage": [2, 2, 3, 3],
}
SECOND = {
    "Land": [1, 2, 4, 5],
    "Air": [1, 3, 6],
    "Sea": [1, 2, 3, 5, 6],
    "Politics": [1, 2, 5],
    "Espionage": [2, 2, 3, 4],
}


def _doubted(
    reading: SheetReading, squares: list[Where], allies: tuple[str, ...] = ()
) -> SheetReading:
    """The reading with these squares and S spaces unsure (their shown values kept)."""

    def doubt(r: Reading) -> Reading:
        return replace(r, unsure=True, why="only 90% sure", confidence=0.9)

    where = set(squares)
    return replace(
        reading,
        squares=tuple(
            doubt(r) if (r.element.arena, r.element.side, r.element.index) in where else r
            for r in reading.squares
        ),
        allies=tuple(doubt(r) if r.element.arena in allies else r for r in reading.allies),
    )


def _written(sheet: Sheet, values: dict[Where, Square], allies: dict[str, bool]) -> Sheet:
    """The sheet with these squares and S spaces holding other values."""
    arenas = []
    for arena in sheet.arenas:
        sides = []
        for k, side in enumerate(arena.sides):
            at = Side.FIRST if k == 0 else Side.SECOND
            squares = tuple(
                values.get((arena.name, at, i), sq) for i, sq in enumerate(side.squares)
            )
            sides.append(replace(side, squares=squares))
        arenas.append(
            replace(arena, sides=tuple(sides), allies=allies.get(arena.name, arena.allies))
        )
    return replace(sheet, arenas=tuple(arenas))


def _winner(sheet: Sheet) -> str | None:
    return leader_of(sheet.players, sheet.mode, (judge_arena(a).winner for a in sheet.arenas))


def _arena(sheet: Sheet, name: str) -> Arena:
    return next(a for a in sheet.arenas if a.name == name)


def test_an_unsure_square_that_cannot_beat_four_of_a_kind_leaves_the_arena_as_it_is() -> None:
    sheet = typed(FIRST, SECOND)
    at = stakes(_doubted(sheet_reading(sheet), [("Land", Side.SECOND, 0)]), sheet)
    assert {a.arena: a.winners for a in at.arenas}["Land"] == {"First"}
    assert at.holds and at.deciding == 0
    assert at.to_text(1) == "whatever the 1 unsure cell(s) hold, the result stands: First wins"


def test_an_unsure_square_that_can_swing_its_arena_is_named_while_the_game_is_close() -> None:
    # First wins Land, Air and Sea surely; Politics and Espionage (Second's 4 against First's 3
    # of a straight-less hand) turn on their squares.
    sheet = typed(FIRST, SECOND)
    doubted = [("Politics", Side.SECOND, 2), ("Espionage", Side.FIRST, 3)]
    at = stakes(_doubted(sheet_reading(sheet), doubted), sheet)
    swings = {a.arena: a.winners for a in at.open_arenas}
    assert set(swings) == {"Politics", "Espionage"}
    assert at.holds, "three arenas won surely are a majority of five"
    # With two of First's three 5s in Air doubted too, Second could win three arenas; a doubt
    # in Sea, where First's five 4s keep three of a kind, changes nothing.
    doubted += [("Air", Side.FIRST, 0), ("Air", Side.FIRST, 1), ("Sea", Side.FIRST, 4)]
    at = stakes(_doubted(sheet_reading(sheet), doubted), sheet)
    assert not at.holds and at.winners == {"First", "Second", None}  # None: a draw
    assert at.deciding == 4
    assert at.to_text(5) == (
        "who wins turns on the unsure cells in Air, Politics, Espionage (4 of the 5): check "
        "those first; the other 1 cannot change who wins"
    )
    assert at.to_json()["open_arenas"] == ["Air", "Politics", "Espionage"]


def test_an_unsure_s_space_counts_both_ways() -> None:
    # With Second's 6 unsure, Second's 1 2 3 5 could make a straight: no match for First's
    # five 4s, unless an S puts the straight on top.
    sheet = typed(FIRST, SECOND)
    reading = _doubted(sheet_reading(sheet), [("Sea", Side.SECOND, 4)])
    assert {a.arena: a.winners for a in stakes(reading, sheet).arenas}["Sea"] == {"First"}
    both = _doubted(sheet_reading(sheet), [("Sea", Side.SECOND, 4)], allies=("Sea",))
    assert {a.arena: a.winners for a in stakes(both, sheet).arenas}["Sea"] == {"First", "Second"}


def test_a_solo_draw_goes_to_the_ai_and_its_squares_may_hold_a_star() -> None:
    assert leader_of(("You", "AI"), Mode.SOLO, ["You", "AI", None]) == "AI"
    assert leader_of(("First", "Second"), Mode.DUEL, ["First", "Second", None]) is None
    sheet = playout.play_game(np.random.default_rng(1), "solo").sheets[0]
    assert Mark.STAR in _values(sheet, 1) and Mark.STAR not in _values(sheet, 0)
    assert 1 not in _values(sheet, 1), "the solo AI writes the die plus one"
    assert {1, 6, 7} <= set(_values(sheet, 0)), "Armored support and copies reach past 6"


def _random_case(seed: int) -> tuple[Sheet, SheetReading, list[Where], tuple[str, ...]]:
    rng = np.random.default_rng(seed)
    sheet = playout.play_game(rng, str(rng.choice(["duel", "solo"]))).sheets[0]
    reading = sheet_reading(sheet)
    where = [(r.element.arena or "", r.element.side, r.element.index) for r in reading.squares]
    count = int(rng.integers(1, 9))
    chosen = [where[int(i)] for i in rng.choice(len(where), count, replace=False)]
    allies = tuple(a.name for a in sheet.arenas if rng.random() < 0.15)
    return sheet, _doubted(reading, chosen, allies), chosen, allies


@pytest.mark.parametrize("seed", range(60))
def test_no_values_in_the_unsure_cells_give_a_winner_it_does_not_list(seed: int) -> None:
    sheet, reading, chosen, allies = _random_case(seed)
    at = stakes(reading, sheet)
    rng = np.random.default_rng([seed, 1])
    for _ in range(200):
        values = {
            w: _values(sheet, 0 if w[1] is Side.FIRST else 1)[
                int(rng.integers(len(_values(sheet, 0 if w[1] is Side.FIRST else 1))))
            ]
            for w in chosen
        }
        flips = {a: bool(rng.random() < 0.5) for a in allies}
        written = _written(sheet, values, flips)
        if any(side.squares.count(Mark.STAR) > 1 for a in written.arenas for side in a.sides):
            continue
        assert _winner(written) in at.winners
        for a in at.arenas:
            assert judge_arena(_arena(written, a.arena)).winner in a.winners


@pytest.mark.parametrize("seed", range(100, 130))
def test_the_winners_it_lists_are_exactly_those_some_values_give(seed: int) -> None:
    sheet, reading, chosen, allies = _random_case(seed)
    chosen, allies = chosen[:2], allies[:1]
    at: Stakes = stakes(_doubted(sheet_reading(sheet), chosen, allies), sheet)
    found: set[str | None] = set()
    options = [_values(sheet, 0 if w[1] is Side.FIRST else 1) for w in chosen]
    for values in itertools.product(*options):
        for flip in itertools.product((False, True), repeat=len(allies)):
            written = _written(
                sheet, dict(zip(chosen, values, strict=True)), dict(zip(allies, flip, strict=True))
            )
            if any(side.squares.count(Mark.STAR) > 1 for a in written.arenas for side in a.sides):
                continue
            found.add(_winner(written))
    assert found == at.winners


def test_the_report_weighs_stakes_only_on_a_finished_duel_or_solo_sheet_with_doubts() -> None:
    from printgen.games.one_page_war.reader.reading import _stakes

    sheet = typed(FIRST, SECOND)
    doubted = _doubted(sheet_reading(sheet), [("Land", Side.SECOND, 0)])
    scored = score_sheet(sheet)
    found = _stakes(doubted, scored, "duel")
    assert found is not None and found.holds
    assert _stakes(sheet_reading(sheet), scored, "duel") is None, "no unsure cell"
    assert _stakes(doubted, scored, "team") is None, "a team's arenas add up over its sheets"
    assert _stakes(doubted, replace(scored, partial=True), "duel") is None, "an unfinished game"
    assert _stakes(doubted, None, "duel") is None, "a sheet the referee could not score"
