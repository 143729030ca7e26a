"""The One Page War solo AI: the number, the arena, the power tick and the star, by the rulebook."""

from __future__ import annotations

import random as random_module
import tomllib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printgen.games.one_page_war.layout import load_layout
from printgen.games.one_page_war.referee import score_sheet
from printgen.games.one_page_war.rules import Combination, Mark
from printgen.games.one_page_war.sheet import Sheet, parse_sheet
from printgen.games.one_page_war.solo_ai import IllegalAiTurn, ai_turn, can_ai_turn

LAYOUT = load_layout("standard")
E = "_"


def solo_sheet(
    ann: dict[str, list[Any]],
    ai: dict[str, list[Any]],
    ticks: dict[str, dict[str, int]] | None = None,
    allies: tuple[str, ...] = (),
) -> Sheet:
    """A solo sheet; arenas not given are empty on that side."""
    arenas: dict[str, Any] = {}
    for spec in LAYOUT.arenas:
        empty = [E] * spec.squares
        arena: dict[str, Any] = {
            "Ann": ann.get(spec.name, empty),
            "AI": ai.get(spec.name, empty),
        }
        if ticks and spec.name in ticks:
            arena["ticks"] = ticks[spec.name]
        if spec.name in allies:
            arena["allies"] = True
        arenas[spec.name] = arena
    data = {"game": "one-page-war", "mode": "solo", "players": ["Ann", "AI"], "arenas": arenas}
    sheet = parse_sheet(data, "solo.toml")
    assert isinstance(sheet, Sheet)
    return sheet


def test_writes_the_die_plus_one() -> None:
    sheet = solo_sheet({"Land": [1, E, E, E]}, {})
    for die in range(1, 7):
        assert ai_turn(sheet, die, "Land").number == die + 1


def test_picks_the_arena_with_most_of_the_number() -> None:
    sheet = solo_sheet(
        {"Land": [3, 3, E, E], "Air": [1, 1, E], "Sea": [6, E, E, E, E]},
        {"Land": [2, 4, E, E], "Sea": [7, 7, E, E, E]},
    )
    turn = ai_turn(sheet, 6, "Land")
    assert (turn.arena, turn.square) == ("Sea", 2)
    assert "most 7s on its side: 2" in turn.why


def test_counts_the_number_on_its_own_side_only() -> None:
    """Ruling: the AI looks for the number on its own side; the human's numbers do not count."""
    sheet = solo_sheet(
        {"Land": [1, E, E, E], "Air": [7, 7, 7]},
        {"Sea": [7, E, E, E, E], "Espionage": [2, 3, E, E]},
    )
    assert ai_turn(sheet, 6, "Land").arena == "Sea"


def test_then_most_numbers_entered() -> None:
    sheet = solo_sheet(
        {"Land": [1, 1, E, E], "Air": [1, 1, E]},
        {"Land": [2, E, E, E], "Espionage": [3, 4, E, E]},
    )
    turn = ai_turn(sheet, 4, "Air")
    assert turn.arena == "Espionage"
    assert "no 5 yet; most numbers entered: 2" in turn.why


def test_then_the_leftmost() -> None:
    assert ai_turn(solo_sheet({"Sea": [1, E, E, E, E]}, {}), 2, "Sea").arena == "Land"
    turn = ai_turn(solo_sheet({"Land": [1, E, E, E]}, {}), 2, "Land")
    assert turn.arena == "Air"  # never the human's arena while another has room
    assert "leftmost" in turn.why


def test_tie_on_the_number_then_most_entered() -> None:
    sheet = solo_sheet(
        {"Land": [1, 1, 1, E], "Air": [1, E, E]},
        {"Land": [3, 4, E, E], "Sea": [3, E, E, E, E]},
    )
    turn = ai_turn(sheet, 2, "Air")
    assert turn.arena == "Land"
    assert "1 3s in 2 arenas; most numbers entered: 2" in turn.why


def test_the_humans_arena_only_when_nothing_else_has_room() -> None:
    full = {
        "Land": [2, 2, 3, 3],
        "Sea": [2, 3, 4, 5, 6],
        "Politics": [2, 2, 2],
        "Espionage": [4, 4, 5, 5],
    }
    sheet = solo_sheet(
        {**full, "Air": [1, 1, E]},
        {**full, "Air": [3, 3, E]},
        ticks={name: {"Ann": 0} for name in full},
    )
    sheet = sheet.with_square("Air", "Ann", 2, 5)
    turn = ai_turn(sheet, 4, "Air")
    assert turn.arena == "Air"
    assert "only Air, where the human just wrote, has room" in turn.why


def test_ticks_the_arena_it_fills_this_turn_and_stars_it() -> None:
    """Ruling: the AI ticks after writing, so filling an arena opens its power this turn."""
    sheet = solo_sheet(
        {"Land": [1, 2, 3, 4], "Air": [1, 1, E]}, {"Air": [3, 3, E], "Land": [2, 5, 6, E]}
    )
    turn = ai_turn(sheet, 4, "Air")  # writes 5: Air holds no 5 and was the human's; Land
    assert turn.arena == "Land"
    assert turn.tick == "Land"
    assert turn.star is not None and turn.star.arena == "Land"
    after = turn.apply(sheet)
    land = after.arena("Land").side("AI")
    assert land.ticks == 1 and land.squares.count(Mark.STAR) == 1
    # Valid, and a star with its tick: the sheet reads back.
    assert parse_sheet(after.to_mapping()) == after


def test_ticks_the_leftmost_open_power() -> None:
    sheet = solo_sheet(
        {"Land": [1, 1, 1, 1], "Air": [2, 2, 2], "Sea": [1, E, E, E, E]},
        {"Politics": [3, "*", 4], "Air": [5, "*", 6], "Land": [2, E, E, E]},
        ticks={"Politics": {"AI": 1}, "Air": {"AI": 1}},
    )
    turn = ai_turn(sheet, 1, "Land")
    assert turn.tick == "Air"
    assert turn.star is None  # Air was starred at its first tick already


def test_skips_powers_with_no_boxes_left() -> None:
    """The human can deny the AI a power by ticking its last boxes."""
    sheet = solo_sheet(
        {"Land": [1, 1, 1, E], "Air": [2, 2, 2], "Sea": [1, 1, E, E, E]},
        {"Politics": [3, 3, 5], "Air": [5, 6, 6], "Land": [2, E, E, E]},
        ticks={"Air": {"Ann": 2}},
    )
    turn = ai_turn(sheet, 1, "Land")
    assert turn.tick == "Politics"
    star = turn.star
    assert star is not None
    # Replacing the 5 makes three 3s: better than any straight from 3, 3 or 3, 5.
    assert (star.square, star.replaced, star.value) == (2, 5, 3)
    assert star.hand.combination is Combination.THREE_OF_A_KIND


def test_a_star_without_written_ticks_counts_as_one_tick() -> None:
    """Politics has one box: the AI's star there shows it was used, so nothing is left to tick."""
    sheet = solo_sheet(
        {"Land": [1, 1, 1, 1], "Air": [2, 2, 2], "Sea": [1, E, E, E, E]},
        {
            "Politics": [3, "*", 4],
            "Land": [2, 3, E, E],
            "Sea": [4, E, E, E, E],
            "Espionage": [5, E, E, E],
        },
    )
    assert sheet.arena("Politics").boxes_left == 0
    turn = ai_turn(sheet, 1, "Air")
    assert (turn.arena, turn.tick, turn.star) == ("Land", None, None)


def test_a_newly_opened_power_further_left_is_ticked_first() -> None:
    """Ruling: the leftmost open power with boxes left, even while another is still being ticked."""
    sheet = solo_sheet(
        {"Land": [1, 1, 1, 1], "Air": [2, 2, 2], "Sea": [1, 1, E, E, E]},
        {"Sea": [2, 3, "*", 5, 6], "Land": [4, 4, 3, E]},
        ticks={"Sea": {"AI": 1}},
    )
    turn = ai_turn(sheet, 3, "Air")  # writes 4 into Land, filling it
    assert (turn.arena, turn.tick) == ("Land", "Land")
    assert turn.star is not None and turn.star.arena == "Land"


def test_no_tick_while_no_arena_is_full() -> None:
    sheet = solo_sheet({"Land": [1, E, E, E]}, {})
    turn = ai_turn(sheet, 3, "Land")
    assert turn.tick is None and turn.star is None
    assert "No power box" in turn.to_text()


def test_star_ties_go_to_the_leftmost_square() -> None:
    sheet = solo_sheet(
        {"Land": [1, E, E, E], "Air": [1, 1, 1]},
        {"Politics": [4, 4, E], "Espionage": [5, E, E, E]},
    )
    turn = ai_turn(sheet, 3, "Land")  # writes 4 into Politics: 4, 4, 4
    assert turn.arena == "Politics" and turn.star is not None
    assert turn.star.square == 0


def test_star_under_allies_prefers_a_straight() -> None:
    sheet = solo_sheet(
        {"Land": [1, E, E, E], "Politics": [1, 2, 3]},
        {"Air": [3, 3, E], "Espionage": [6, E, E, E]},
        ticks={"Politics": {"Ann": 1}},
        allies=("Air",),
    )
    turn = ai_turn(sheet, 4, "Land")  # writes 5 into Air: 3, 3, 5
    assert turn.arena == "Air" and turn.star is not None
    assert (turn.star.square, turn.star.value) == (0, 4)
    assert turn.star.hand.combination is Combination.STRAIGHT


def test_refuses_what_cannot_be() -> None:
    sheet = solo_sheet({"Land": [1, E, E, E]}, {})
    for die, arena, message in [
        (0, "Land", "a die shows 1 to 6"),
        (3, "Moon", "no arena 'Moon'"),
        (3, "Air", "Ann has no number in Air"),
    ]:
        with pytest.raises(IllegalAiTurn, match=message):
            ai_turn(sheet, die, arena)
        assert not can_ai_turn(sheet, die, arena)
    waiting = solo_sheet({"Land": [1, E, E, E]}, {"Air": [3, E, E]})
    with pytest.raises(IllegalAiTurn, match="not the AI's turn"):
        ai_turn(waiting, 3, "Land")
    duel = parse_sheet({**waiting.to_mapping(), "mode": "duel", "players": ["Ann", "AI"]})
    assert isinstance(duel, Sheet)
    with pytest.raises(IllegalAiTurn, match="only in a solo game"):
        ai_turn(duel, 3, "Land")


# --- whole games --------------------------------------------------------------------------------


def human_turn(sheet: Sheet, rng: random_module.Random) -> tuple[Sheet, str]:
    """A random legal human turn: write the die anywhere with room, maybe use an open power."""
    die = rng.randint(1, 6)
    room = [a for a in sheet.arenas if not a.side("Ann").is_full]
    arena = rng.choice(room)
    square = arena.side("Ann").squares.index(Mark.EMPTY)
    sheet = sheet.with_square(arena.name, "Ann", square, die)
    powers = [a for a in sheet.arenas if a.side("Ann").is_full and a.boxes_left > 0]
    if powers and rng.random() < 0.5:
        power = rng.choice(powers)
        sheet = sheet.with_ticks(power.name, "Ann", power.side("Ann").uses + 1)
        if power.spec.power == "Allies":
            sheet = sheet.with_allies(rng.choice(sheet.arenas).name)
    return sheet, arena.name


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_random_solo_games_stay_legal(seed: int) -> None:
    rng = random_module.Random(seed)
    sheet = solo_sheet({}, {})
    total = sum(spec.squares for spec in LAYOUT.arenas)
    for _ in range(total):
        sheet, human_arena = human_turn(sheet, rng)
        die = rng.randint(1, 6)
        turn = ai_turn(sheet, die, human_arena)
        others_open = [
            a.name for a in sheet.arenas if a.name != human_arena and not a.side("AI").is_full
        ]
        assert turn.arena != human_arena or not others_open
        assert turn.number == die + 1
        written = sheet.with_square(turn.arena, "AI", turn.square, turn.number)
        sheet = turn.apply(sheet)
        # The AI ticks the leftmost power it has opened (after writing) that has boxes left.
        open_powers = [a.name for a in written.arenas if a.side("AI").is_full and a.boxes_left]
        assert turn.tick == (open_powers[0] if open_powers else None)
        # Every state the AI leaves is a legal sheet, and survives TOML.
        assert parse_sheet(tomllib.loads(sheet.to_toml())) == sheet
    assert sheet.is_finished
    for arena in sheet.arenas:
        side = arena.side("AI")
        assert side.squares.count(Mark.STAR) == (1 if side.uses else 0)
        assert all(s is Mark.STAR or 2 <= s <= 7 for s in side.squares)  # type: ignore[operator]
    report = score_sheet(sheet)
    assert report.exit_code == 0
    assert report.winner in ("Ann", "AI")
