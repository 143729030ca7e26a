"""One Page War referee: checking typed-in sheets, scoring duels, solo and team games."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from printgen.games.one_page_war.layout import load_layout
from printgen.games.one_page_war.referee import SheetReport, TeamReport, score, score_game
from printgen.games.one_page_war.rules import Mark
from printgen.games.one_page_war.sheet import (
    IllegalSheet,
    InvalidSheet,
    Mode,
    ProblemKind,
    Sheet,
    TeamGame,
    UnfinishedSheet,
    find_problems,
    parse_sheet,
    square_problem,
    tick_limit,
)
from printgen.materials import ScoreOptions

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "one-page-war"
LAYOUT = load_layout("standard")


def example(name: str) -> dict[str, Any]:
    return tomllib.loads((EXAMPLES / f"{name}.toml").read_text(encoding="utf-8"))


def duel(**arenas: dict[str, Any]) -> dict[str, Any]:
    """A duel where every arena not given is a tie (both sides 2, 2, ...)."""
    data: dict[str, Any] = {"game": "one-page-war", "players": ["Ann", "Ben"], "arenas": {}}
    for spec in LAYOUT.arenas:
        tie = [2] * spec.squares
        data["arenas"][spec.name] = arenas.get(spec.name, {"Ann": list(tie), "Ben": list(tie)})
    return data


def solo(**arenas: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "one-page-war", "mode": "solo", "players": ["Ann", "AI"]}
    data["arenas"] = {}
    for spec in LAYOUT.arenas:
        tie = [2] * spec.squares
        data["arenas"][spec.name] = arenas.get(spec.name, {"Ann": list(tie), "AI": list(tie)})
    return data


def scored(data: dict[str, Any], partial: bool = False) -> SheetReport:
    report = score_game(parse_sheet(data, "test.toml"), partial)
    assert isinstance(report, SheetReport)
    return report


# --- the examples ------------------------------------------------------------------------------


def test_duel_example() -> None:
    report = scored(example("duel"))
    assert report.winner == "Ann"
    assert report.arenas_won == {"Ann": 3, "Ben": 2}
    assert report.exit_code == 0
    reasons = {r.arena.name: r.reason for r in report.arenas}
    assert reasons["Land"] == "three of a kind beats one pair"
    assert reasons["Air"] == "both one pair: 6+6 beats 4+4"
    assert reasons["Politics"] == "straight beats three of a kind (Allies)"


def test_solo_example_has_stars() -> None:
    report = scored(example("solo"))
    assert report.sheet.mode is Mode.SOLO
    land = report.arenas[0]
    ai_hand = land.hands[1]
    assert ai_hand is not None and ai_hand.star_value == 7
    assert report.winner == "AI"


def test_team_example() -> None:
    game = parse_sheet(example("team"), "team.toml")
    assert isinstance(game, TeamGame)
    report = score_game(game)
    assert isinstance(report, TeamReport)
    assert report.arenas_won == {"North": 4, "South": 5}
    assert report.winner == "South"


# --- the game result ---------------------------------------------------------------------------


def test_duel_draw_has_no_winner() -> None:
    report = scored(duel())
    assert report.winner is None
    assert report.ties == len(LAYOUT.arenas)
    assert report.result_text().startswith("a draw")


def test_duel_equal_arenas_won_is_a_draw() -> None:
    report = scored(
        duel(
            Land={"Ann": [1, 1, 1, 2], "Ben": [1, 1, 3, 4]},
            Air={"Ann": [1, 3, 5], "Ben": [6, 6, 1]},
        )
    )
    assert report.arenas_won == {"Ann": 1, "Ben": 1}
    assert report.winner is None


def test_solo_ai_wins_a_draw() -> None:
    report = scored(
        solo(
            Land={"Ann": [1, 1, 1, 2], "AI": [2, 2, 3, 4]},
            Air={"Ann": [1, 3, 5], "AI": [6, 6, 2]},
        )
    )
    assert report.arenas_won == {"Ann": 1, "AI": 1}
    assert report.winner == "AI"
    assert "the AI wins draws" in report.result_text()


def test_star_wins_an_arena() -> None:
    report = scored(solo(Air={"Ann": [5, 5, 1], "AI": [3, 3, "*"], "ticks": {"AI": 1}}))
    air = report.arenas[1]
    assert air.winner == "AI"
    assert air.reason == "three of a kind beats one pair"


def team(*sheets: dict[str, Any]) -> dict[str, Any]:
    players = [s["players"] for s in sheets]
    return {
        "game": "one-page-war",
        "mode": "team",
        "teams": {"North": [p[0] for p in players], "South": [p[1] for p in players]},
        "sheets": [{"players": s["players"], "arenas": s["arenas"]} for s in sheets],
    }


def renamed(data: dict[str, Any], first: str, second: str) -> dict[str, Any]:
    data = copy.deepcopy(data)
    old = data["players"]
    data["players"] = [first, second]
    for arena in data["arenas"].values():
        arena[first] = arena.pop(old[0])
        arena[second] = arena.pop(old[1])
    return data


NORTH_3_2 = duel(
    Land={"Ann": [3, 3, 3, 1], "Ben": [1, 2, 4, 6]},
    Air={"Ann": [4, 4, 1], "Ben": [1, 2, 4]},
    Sea={"Ann": [6, 6, 6, 1, 2], "Ben": [1, 1, 2, 3, 4]},
    Politics={"Ann": [1, 3, 5], "Ben": [1, 1, 2]},
    Espionage={"Ann": [1, 3, 5, 6], "Ben": [2, 2, 3, 3]},
)
SOUTH_3_1 = duel(
    Land={"Ann": [1, 2, 4, 6], "Ben": [3, 3, 3, 1]},
    Air={"Ann": [1, 2, 4], "Ben": [4, 4, 1]},
    Sea={"Ann": [1, 1, 2, 3, 4], "Ben": [6, 6, 6, 1, 2]},
    Politics={"Ann": [1, 1, 2], "Ben": [1, 3, 5]},
)


def test_team_more_arenas_over_all_sheets_wins() -> None:
    """Sheets are won one each, but South has more arenas over both: 5 to 4."""
    data = team(renamed(NORTH_3_2, "Ann", "Ben"), renamed(SOUTH_3_1, "Cid", "Dee"))
    report = score_game(parse_sheet(data))
    assert isinstance(report, TeamReport)
    assert report.arenas_won == {"North": 3 + 1, "South": 2 + 3}
    assert report.sheets_won == {"North": 1, "South": 1}
    assert report.winner == "South"


def test_team_equal_arenas_broken_by_sheets_won() -> None:
    """North wins two sheets 3-2, South one 3-1 (one tie): 7 arenas each, North more sheets."""
    data = team(
        renamed(NORTH_3_2, "Ann", "Ben"),
        renamed(NORTH_3_2, "Cid", "Dee"),
        renamed(SOUTH_3_1, "Eve", "Fay"),
    )
    report = score_game(parse_sheet(data))
    assert isinstance(report, TeamReport)
    assert report.arenas_won == {"North": 7, "South": 7}
    assert report.sheets_won == {"North": 2, "South": 1}
    assert report.winner == "North"
    assert "sheets won North 2, South 1" in report.result_text()


def test_team_full_tie_is_a_draw() -> None:
    data = team(renamed(NORTH_3_2, "Ann", "Ben"), renamed(NORTH_3_2, "Dee", "Cid"))
    data["teams"] = {"North": ["Ann", "Cid"], "South": ["Ben", "Dee"]}
    report = score_game(parse_sheet(data))
    assert isinstance(report, TeamReport)
    assert report.arenas_won == {"North": 5, "South": 5}
    assert report.sheets_won == {"North": 1, "South": 1}
    assert report.winner is None


# --- JSON --------------------------------------------------------------------------------------


def test_json_as_the_issue_specifies() -> None:
    data = scored(example("duel")).to_json()
    assert data["game"] == "one-page-war"
    assert data["mode"] == "duel"
    assert data["winner"] == "Ann"
    assert data["arenas_won"] == {"Ann": 3, "Ben": 2}
    land = data["arenas"][0]
    assert set(land) >= {"name", "winner", "combinations", "reason"}
    assert land["name"] == "Land" and land["winner"] == "Ben"
    assert land["combinations"] == {
        "Ann": {"rank": "one pair", "numbers": [3, 3, 5, 4]},
        "Ben": {"rank": "three of a kind", "numbers": [2, 2, 2, 6]},
    }
    assert land["reason"] == "three of a kind beats one pair"
    assert [a["name"] for a in data["arenas"]] == list(LAYOUT.arena_names)


def test_json_star_and_team() -> None:
    solo_json = scored(example("solo")).to_json()
    ai = solo_json["arenas"][0]["combinations"]["AI"]
    assert ai["numbers"] == [7, 7, 7, 2]
    assert ai["star"] == {"square": 3, "value": 7}
    team_report = score_game(parse_sheet(example("team")))
    data = team_report.to_json()
    assert data["mode"] == "team" and data["winner"] == "South"
    assert set(data["arenas_won"]) == set(data["sheets_won"]) == {"North", "South"}
    assert len(data["sheets"]) == 2
    assert data["sheets"][0]["winner"] == "Ben"
    assert data["sheets"][0]["arenas"][0]["name"] == "Land"


# --- unfinished sheets -------------------------------------------------------------------------


def test_unfinished_sheet_lists_its_empty_squares() -> None:
    data = duel(Land={"Ann": [3, "_", 3, 1], "Ben": [1, 1, "_", "_"]})
    with pytest.raises(UnfinishedSheet) as caught:
        scored(data)
    message = str(caught.value)
    assert "3 empty square(s)" in message
    assert "arena Land, Ann's square 2" in message
    assert "arena Land, Ben's square 4" in message
    assert "--partial" in message


def test_partial_gives_the_standing_so_far() -> None:
    data = duel(
        Land={"Ann": [3, "_", 3, 1], "Ben": [1, 1, "_", 5]},
        Air={"Ann": [6, 6, 1], "Ben": [1, 2, 4]},
    )
    report = scored(data, partial=True)
    assert report.exit_code == 3
    assert report.winner is None and report.leader == "Ann"
    assert report.open_arenas == ("Land",)
    data_json = report.to_json()
    assert data_json["partial"] is True
    assert data_json["winner"] is None
    assert {"arena": "Land", "player": "Ann", "square": 2} in data_json["empty_squares"]
    assert data_json["arenas"][0]["combinations"]["Ann"] == {
        "rank": None,
        "numbers": [3, None, 3, 1],
    }
    assert "open" in report.to_text()


def test_partial_on_a_finished_sheet_is_final() -> None:
    """Ruling: --partial on a finished sheet gives the final result, exit code 0."""
    report = scored(example("duel"), partial=True)
    assert report.exit_code == 0 and report.winner == "Ann"


def test_unfinished_team_game_names_the_sheet() -> None:
    data = example("team")
    data["sheets"][1]["arenas"]["Air"]["Cid"] = [2, 3, "_"]
    data["sheets"][1]["arenas"]["Air"]["Dee"] = [5, 5, "_"]
    with pytest.raises(UnfinishedSheet, match="sheet 2, arena Air, Cid's square 3"):
        score_game(parse_sheet(data))
    report = score_game(parse_sheet(data), partial=True)
    assert report.exit_code == 3 and report.winner is None


# --- validation --------------------------------------------------------------------------------


def problem(data: dict[str, Any]) -> str:
    with pytest.raises((InvalidSheet, IllegalSheet)) as caught:
        parse_sheet(data, "bad.toml")
    return str(caught.value)


def test_wrong_square_count() -> None:
    message = problem(duel(Air={"Ann": [1, 2], "Ben": [1, 2, 3]}))
    assert "bad.toml: arena Air, Ann: 2 squares given, the arena has 3" in message
    assert '(write "_" for a square still empty)' in message


def test_unknown_arena_and_player() -> None:
    data = duel()
    data["arenas"]["Space"] = {"Ann": [1, 2, 3], "Ben": [1, 2, 3]}
    data["arenas"]["Land"]["Bem"] = [1, 2, 3, 4]
    message = problem(data)
    assert "unknown arena 'Space'" in message
    assert "arena Land: unknown player 'Bem'" in message
    assert message.startswith("bad.toml: 2 problems")


def test_missing_arena_and_side() -> None:
    data = duel()
    del data["arenas"]["Sea"]
    del data["arenas"]["Land"]["Ben"]
    message = problem(data)
    assert "arena Sea is missing" in message
    assert "arena Land: no squares for Ben" in message


def test_negative_number_names_the_square() -> None:
    message = problem(duel(Land={"Ann": [1, 2, -3, 4], "Ben": [1, 2, 3, 4]}))
    assert "arena Land, Ann's square 3: -3 is negative" in message


def test_not_a_number() -> None:
    for bad in ("x", 2.5, True, None, "7"):
        message = problem(duel(Air={"Ann": [1, bad, 3], "Ben": [1, 2, 3]}))
        assert "arena Air, Ann's square 2" in message and "not a whole number" in message


def test_star_outside_solo() -> None:
    message = problem(duel(Air={"Ann": [1, 2, 3], "Ben": [1, "*", 3]}))
    assert "arena Air, Ben's square 2: a star '*' is written only by the AI" in message


def test_star_on_the_human_side() -> None:
    message = problem(solo(Air={"Ann": ["*", 2, 3], "AI": [2, 2, 3]}))
    assert "arena Air, Ann's square 1: a star '*' is the AI's" in message


def test_two_stars_in_one_arena() -> None:
    message = problem(solo(Land={"Ann": [1, 2, 3, 4], "AI": ["*", 2, "*", 3]}))
    assert "arena Land, AI: two stars (squares 1 and 3)" in message


def test_solo_ai_numbers_are_two_to_seven() -> None:
    for bad in (1, 8):
        message = problem(solo(Air={"Ann": [1, 2, 3], "AI": [2, bad, 3]}))
        assert "arena Air, AI's square 2: the solo AI only writes 2 to 7" in message


def test_more_ticks_than_boxes() -> None:
    message = problem(duel(Politics={"Ann": [1, 2, 3], "Ben": [1, 2, 3], "ticks": {"Ann": 2}}))
    assert "arena Politics: Ann has 2 ticks, more than the arena's 1 box" in message


def test_ticks_refused_add_no_problem_of_their_own() -> None:
    # The refused count was taken for no ticks at all, so an S in the arena was reported as
    # Allies used 0 times: a second, false problem.
    politics = {"Ann": [4, 5, 6], "Ben": [1, 1, 1], "allies": True, "ticks": {"Ann": 5}}
    message = problem(duel(Politics=politics))
    assert "Ann has 5 ticks, more than the arena's 1 box" in message
    assert "Allies" not in message


def test_ticks_of_both_players_share_the_boxes() -> None:
    """Ruling: one use ticks a box on both sides, so uses together are at most the boxes."""
    message = problem(
        duel(Land={"Ann": [1, 2, 3, 4], "Ben": [1, 2, 3, 4], "ticks": {"Ann": 1, "Ben": 2}})
    )
    assert "1 + Ben 2 = 3 uses, more than the arena's 2 boxes" in message


def test_ticks_need_a_filled_arena() -> None:
    data = duel(Land={"Ann": [1, 2, 3, "_"], "Ben": [1, 2, 3, "_"], "ticks": {"Ann": 1}})
    assert "Ann ticked this arena's power with squares still empty" in problem(data)


def test_ticks_unknown_player_and_bad_count() -> None:
    data = duel(Land={"Ann": [1, 2, 3, 4], "Ben": [1, 2, 3, 4], "ticks": {"Cid": 1, "Ann": -1}})
    message = problem(data)
    assert "ticks for unknown player 'Cid'" in message
    assert "Ann's ticks = -1 is negative" in message


def test_star_and_ticks_agree_in_solo() -> None:
    no_tick = solo(Air={"Ann": [1, 2, 3], "AI": [2, "*", 3], "ticks": {"Ann": 0}})
    assert "the AI has a star but no tick" in problem(no_tick)
    no_star = solo(Air={"Ann": [1, 2, 3], "AI": [2, 2, 3], "ticks": {"AI": 1}})
    assert "the AI ticked here but has no star" in problem(no_star)
    # Without ticks written down, a star is taken on trust.
    parse_sheet(solo(Air={"Ann": [1, 2, 3], "AI": [2, "*", 3]}))


def test_number_counts_must_follow_the_turns() -> None:
    data = duel(Land={"Ann": [1, 2, 3, 4], "Ben": [1, "_", "_", 4]})
    assert "Ann has 19 numbers and Ben 17" in problem(data)
    ahead = solo(Land={"Ann": [2, 2, 3, "_"], "AI": [2, 2, 3, 4]})
    assert "the AI has as many or one fewer" in problem(ahead)


def test_allies_needs_the_allies_power() -> None:
    data = duel(Land={"Ann": [1, 2, 3, 4], "Ben": [1, 2, 3, 4], "allies": True})
    data["arenas"]["Politics"]["ticks"] = {"Ann": 0, "Ben": 0}
    assert "an S is written in 1 arena(s) (Land) but the Allies power was used 0" in problem(data)
    data["arenas"]["Politics"]["ticks"] = {"Ben": 1}
    parse_sheet(data)


def test_malformed_document() -> None:
    assert "mode = 'trio'" in problem({**duel(), "mode": "trio"})
    assert "players = ['Ann']" in problem({**duel(), "players": ["Ann"]})
    assert "names the same player twice" in problem({**duel(), "players": ["Ann", "Ann"]})
    assert "unknown key 'arena'" in problem({**duel(), "arena": {}})
    assert "unknown One Page War layout 'huge'" in problem({**duel(), "layout": "huge"})
    assert "allies = 'yes'" in problem(
        duel(Air={"Ann": [1, 2, 3], "Ben": [1, 2, 3], "allies": "yes"})
    )
    assert "no [arenas] table" in problem({"game": "one-page-war", "players": ["A", "B"]})


def test_team_validation() -> None:
    data = example("team")
    data["teams"] = {"North": ["Ann", "Ben"], "South": ["Ben", "Dee"]}
    message = problem(data)
    assert "Ben cannot play on both teams" in message
    data = example("team")
    data["teams"] = {"North": ["Ann", "Cid"], "South": ["Ben", "Dee"], "West": ["Eve"]}
    assert "should name two teams" in problem(data)
    data = example("team")
    data["sheets"][1]["players"] = ["Cid", "Ann"]
    data["sheets"][1]["arenas"] = renamed(
        {"players": ["Cid", "Dee"], "arenas": data["sheets"][1]["arenas"]}, "Cid", "Ann"
    )["arenas"]
    message = problem(data)
    assert "both on team North" in message and "Ann already plays on sheet 1" in message
    data = example("team")
    data["sheets"][0]["arenas"]["Air"]["Ann"] = [1, "*", 3]
    assert "sheet 1, arena Air, Ann's square 2: a star" in problem(data)


def test_illegal_and_invalid_are_told_apart() -> None:
    with pytest.raises(IllegalSheet):
        parse_sheet(duel(Air={"Ann": [1, -2, 3], "Ben": [1, 2, 3]}))
    with pytest.raises(InvalidSheet):
        parse_sheet(duel(Air={"Ann": [1, 3], "Ben": [1, 2, 3]}))


# --- the API for the photo reader --------------------------------------------------------------


def test_find_problems_lists_everything_without_raising() -> None:
    data = duel(Land={"Ann": [3, "_", 3, 1], "Ben": [1, 1, "_", 5]})
    problems = find_problems(data, "photo")
    assert [p.kind for p in problems] == [ProblemKind.EMPTY, ProblemKind.EMPTY]
    assert str(problems[0]) == "photo: arena Land, Ann's square 2 is empty"
    bad = find_problems(duel(Air={"Ann": [1, -1, 3], "Ben": [5, 2, "*"]}))
    assert [p.kind for p in bad] == [ProblemKind.ILLEGAL, ProblemKind.ILLEGAL]


def test_find_problems_lists_empty_squares_beside_other_problems() -> None:
    data = duel(
        Land={"Ann": [3, "_", 3, 1], "Ben": [1, 1, "_", 5]},
        Air={"Ann": [1, 2, -3], "Ben": [1, 2, 3]},
    )
    kinds = [p.kind for p in find_problems(data)]
    assert kinds.count(ProblemKind.ILLEGAL) == 1 and kinds.count(ProblemKind.EMPTY) == 2


def test_tick_limit() -> None:
    land = LAYOUT.arena("Land")
    assert tick_limit(land, [1, 2, 3, Mark.EMPTY]) == 0
    assert tick_limit(land, [1, 2, 3, 4]) == land.ticks


def test_square_problem() -> None:
    assert square_problem(3) is None
    assert square_problem("_") is None
    assert square_problem(Mark.STAR, Mode.SOLO, ai_side=True) is None
    assert square_problem(9) is None  # powers can lift a human's number past 6
    assert square_problem(9, Mode.SOLO, ai_side=True) is not None
    assert square_problem(-1) is not None
    assert square_problem("*") is not None
    assert square_problem("?") is not None


# --- writing back ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["duel", "solo"])
def test_to_toml_round_trips(name: str) -> None:
    sheet = parse_sheet(example(name), "x")
    assert isinstance(sheet, Sheet)
    again = parse_sheet(tomllib.loads(sheet.to_toml()), "x")
    assert again == sheet
    assert parse_sheet(sheet.to_mapping(), "x") == sheet


def test_to_toml_quotes_odd_names() -> None:
    data = renamed(duel(), "Ann Lee", 'Bé "B"')
    sheet = parse_sheet(data)
    assert isinstance(sheet, Sheet)
    assert parse_sheet(tomllib.loads(sheet.to_toml())) == sheet


def test_scorer_entry_point() -> None:
    report = score(example("duel"), "duel.toml", ScoreOptions())
    assert report.summary() == "Ann wins, 3 arenas to 2"
    text = report.to_text()
    assert "Politics (S)" in text and "Result: Ann wins, 3 arenas to 2." in text
    for arena in LAYOUT.arena_names:
        assert arena in text


# --- numbers no legal play can reach (ruling 8) --------------------------------------------------


@pytest.mark.parametrize("number", [9, 99, 1000, 10**15])
def test_a_number_past_what_armored_support_allows_is_refused(number: int) -> None:
    data = duel(Air={"Ann": [number, 2, 2], "Ben": [2, 2, 2]})
    message = problem(data)
    assert "arena Air, Ann's square 1" in message
    assert "8 is the most a square can hold" in message


def test_eight_needs_both_land_boxes() -> None:
    eight = {"Ann": [8, 2, 2], "Ben": [2, 2, 2]}
    assert scored(duel(Air=eight)) is not None  # ticks not written down: both boxes
    land = {"Ann": [2, 2, 2, 2], "Ben": [2, 2, 2, 2], "ticks": {"Ann": 1}}
    message = problem(duel(Air=eight, Land=land))
    assert "the sheet allows 1, so 7 is the most" in message
    land["ticks"] = {"Ann": 1, "Ben": 1}
    assert scored(duel(Air=eight, Land=land)) is not None


def test_zero_needs_a_use_of_armored_support() -> None:
    land = {"Ann": [2, 2, 2, 2], "Ben": [2, 2, 2, 2], "ticks": {"Ann": 0}}
    message = problem(duel(Air={"Ann": [0, 2, 2], "Ben": [2, 2, 2]}, Land=land))
    assert "0 is a 1 moved down by Armored support" in message


def test_the_steps_past_the_die_add_up_over_the_whole_sheet() -> None:
    land = {"Ann": [2, 2, 2, 2], "Ben": [2, 2, 2, 2], "ticks": {"Ann": 1, "Ben": 1}}
    espionage = {"Ann": [2, 2, 2, 2], "Ben": [2, 2, 2, 2], "ticks": {"Ann": 0}}
    two_sevens = {"Ann": [7, 7, 2], "Ben": [2, 2, 2]}
    assert scored(duel(Air=two_sevens, Land=land, Espionage=espionage)) is not None
    four = {"Ann": [7, 7, 2], "Ben": [7, 0, 2]}
    message = problem(duel(Air=four, Land=land, Espionage=espionage))
    assert "are 4 steps from the die's range" in message and "reach at most 2" in message
    # Stolen Intel may copy a rival's 7 without another step: two copies allow 2 more each.
    espionage["ticks"] = {"Ann": 1, "Ben": 1}
    assert scored(duel(Air=four, Land=land, Espionage=espionage)) is not None


def test_solo_human_may_copy_the_ais_seven_then_lift_it() -> None:
    espionage = {"Ann": [2, 2, 2, 2], "AI": [2, 2, 2, 2], "ticks": {"Ann": 1, "AI": 0}}
    land = {"Ann": [2, 2, 2, 2], "AI": [2, 2, 2, 2], "ticks": {"Ann": 1, "AI": 0}}
    data = solo(Air={"Ann": [8, 2, 2], "AI": [7, 2, 2]}, Land=land, Espionage=espionage)
    assert scored(data) is not None
    espionage["ticks"] = {"Ann": 0, "AI": 0}
    assert "7 is the most" in problem(
        solo(Air={"Ann": [8, 2, 2], "AI": [7, 2, 2]}, Land=land, Espionage=espionage)
    )


def test_the_photo_cross_check_uses_the_same_rule() -> None:
    from printgen.games.one_page_war.reader import crosscheck
    from printgen.games.one_page_war.sheet import Reach

    assert crosscheck.Reach is Reach
    assert Reach(armored=2, stolen=0).number_problem(9) is not None
    assert Reach(armored=2, stolen=0).number_problem(8) is None


def test_a_team_named_like_a_player_is_refused() -> None:
    data = example("team")
    first, second = list(data["teams"])
    player = data["teams"][second][0]
    data["teams"] = {player: data["teams"][first], second: data["teams"][second]}
    assert "is named like a player" in problem(data)


def test_a_team_game_of_two_players_is_refused() -> None:
    # The rulebook's team mode is for four or more; one sheet of two is a duel.
    data = example("team")
    data["teams"] = {"North": ["Ann"], "South": ["Ben"]}
    data["sheets"] = data["sheets"][:1]
    assert "have one player each: team mode is for four or more players" in problem(data)
    assert 'mode = "duel"' in problem(data)


def test_names_are_trimmed_alike_in_players_arenas_and_ticks() -> None:
    # The referee trims the players' names (rulings, ONE 11); a key typed the same way, outer
    # spaces and all, was then an unknown player.
    plain = score_game(parse_sheet(example("duel")))
    data = example("duel")
    first = data["players"][0]
    data["players"][0] = f" {first} "
    for arena in data["arenas"].values():
        arena[f" {first} "] = arena.pop(first)
        if "ticks" in arena and first in arena["ticks"]:
            arena["ticks"][f"{first} "] = arena["ticks"].pop(first)
    assert score_game(parse_sheet(data)) == plain


def test_one_player_typed_twice_with_and_without_spaces_is_refused() -> None:
    data = example("duel")
    first = data["players"][0]
    land = data["arenas"]["Land"]
    land[f"{first} "] = land[first]
    assert f"arena Land: '{first}' and '{first} ' are one player" in problem(data)


def test_a_toml_date_is_kept_as_its_text() -> None:
    # `date = 2026-12-07` unquoted is a TOML date; it was refused as "datetime.date(...)".
    data = example("duel")
    data["date"] = tomllib.loads("d = 2026-12-07")["d"]
    sheet = parse_sheet(data, "dated.toml")
    assert sheet.to_mapping()["date"] == "2026-12-07"
    assert tomllib.loads(sheet.to_toml())["date"] == "2026-12-07"
