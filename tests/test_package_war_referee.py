"""Package War! round referee: `printgen score ROUND.toml` for game = "package-war"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.package_war.engine import IllegalStack
from printgen.games.package_war.referee import IllegalRound, InvalidRound, score_round
from printgen.materials import ScoreOptions

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "package-war" / "round.toml"


def sheet(ann: dict, ben: dict) -> dict:
    return {"game": "package-war", "players": {"Ann": ann, "Ben": ben}}


def player(score: int = 5, tables: list | None = None, crushed: int = 0) -> dict:
    return {
        "score": score,
        "tables": tables if tables is not None else [[], []],
        "crushed": crushed,
    }


def score(document: dict):  # noqa: ANN201 (the report type is the module's own)
    return score_round(document, "round.toml", ScoreOptions())


def test_issue_example_scores() -> None:
    report = score(sheet(player(5, [[5, 3, 1], [4]], 2), player(7, [[2], []], 0)))
    assert report.to_json() == {
        "game": "package-war",
        "players": {
            "Ann": {"stack_points": 3, "crushed": 2, "score": 6},
            "Ben": {"stack_points": 0, "crushed": 0, "score": 7},
        },
        "winner": None,
        "game_over": False,
    }


def test_rulebook_five_stack_scores_ten_in_a_round() -> None:
    report = score(sheet(player(5, [[5, 4, 3, 2, 1], []]), player()))
    assert report.players[0].stack_points == 10
    assert report.players[0].score == 15


def test_reaching_twenty_wins_and_zero_loses() -> None:
    won = score(sheet(player(10, [[5, 4, 3, 2, 1], []]), player(5)))
    assert won.to_json()["winner"] == "Ann" and won.to_json()["game_over"] is True
    lost = score(sheet(player(2, [[4], []], 3), player(5)))
    assert lost.to_json()["winner"] == "Ben" and lost.players[0].score == -1


def test_score_draw_when_both_reach_limits_equal() -> None:
    report = score(sheet(player(10, [[5, 4, 3, 2, 1], []]), player(14, [[5, 4, 3, 1], []])))
    assert [p.score for p in report.players] == [20, 20]
    assert report.to_json()["winner"] is None and report.to_json()["game_over"] is True
    assert "draw" in report.to_text()


def test_both_limits_higher_wins_in_a_round() -> None:
    report = score(sheet(player(11, [[5, 4, 3, 2, 1], []]), player(14, [[5, 4, 3, 1], []])))
    assert report.winner == "Ann"


def test_ruling_round_after_game_end_refused() -> None:
    with pytest.raises(IllegalRound, match=r"players.Ann.score: 0 before the round"):
        score(sheet(player(0), player()))
    with pytest.raises(IllegalRound, match=r"players.Ben.score: 20"):
        score(sheet(player(), player(20)))


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ([[3, 4]], r"Ann, table 1, position 2 from the bottom: a 4 on a 3"),
        ([[], [4, 4]], r"Ann, table 2, position 2 from the bottom: a 4 on a 4"),
        ([[5, 0]], r"Ann, table 1, position 2 from the bottom: a package weighs 1 to 5, not 0"),
        ([[6]], r"Ann, table 1, position 1 .* not 6"),
        ([[5], [4], [3]], r"3 tables, but each player has only 2"),
    ],
)
def test_impossible_stacks_name_player_table_position(tables: list, message: str) -> None:
    with pytest.raises(IllegalStack, match=message):
        score(sheet(player(5, tables), player()))


def test_negative_crush_count_refused() -> None:
    with pytest.raises(IllegalRound, match=r"players.Ben.crushed: -1 is negative"):
        score(sheet(player(), player(crushed=-1)))


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"game": "package-war", "players": {"Ann": player()}}, "two players"),
        (sheet({"score": 5, "tables": []}, player()), "missing `crushed`"),
        (sheet(player(), {**player(), "extra": 1}), "unknown field"),
        (sheet({**player(), "score": "5"}, player()), "whole number"),
        (sheet({**player(), "tables": [5, 3]}, player()), "table 1: expected a list"),
    ],
)
def test_malformed_round_is_invalid(document: dict, message: str) -> None:
    with pytest.raises(InvalidRound, match=message):
        score(document)


def test_cli_score_example_text(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["score", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Ann: 5 + 3 stack points - 2 crushed = 6" in lines
    assert "  table 1: 5 3 1 (3 points, bottom to top)" in lines
    assert "Ben: 7 + 0 stack points - 0 crushed = 7" in lines
    assert lines[-1].startswith("Ann 6, Ben 7: the game goes on")


def test_cli_score_example_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["score", "--json", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == {
        "game": "package-war",
        "players": {
            "Ann": {"stack_points": 3, "crushed": 2, "score": 6},
            "Ben": {"stack_points": 0, "crushed": 0, "score": 7},
        },
        "winner": None,
        "game_over": False,
    }


def test_cli_score_error_names_player_table_position(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'game = "package-war"\n'
        "[players.Ann]\nscore = 5\ntables = [[5, 3], [2, 2]]\ncrushed = 0\n"
        "[players.Ben]\nscore = 5\ntables = []\ncrushed = 0\n",
        encoding="utf-8",
    )
    result = runner.invoke(cli, ["score", str(bad)])
    assert result.exit_code == 1
    assert "Ann, table 2, position 2 from the bottom: a 2 on a 2" in result.output


def test_a_game_log_given_to_score_points_to_play(runner) -> None:  # type: ignore[no-untyped-def]
    from printgen.cli import cli

    log = Path(__file__).resolve().parent.parent / "examples" / "package-war" / "game.toml"
    result = runner.invoke(cli, ["score", str(log)])
    assert result.exit_code == 1
    assert "printgen package-war play" in result.output


# --- what one round can hold (ruling 14) -------------------------------------------------------


@pytest.mark.parametrize("crushed", [1000, 30, 15])
def test_more_crushed_packages_than_a_round_can_hold_are_refused(crushed: int) -> None:
    with pytest.raises(IllegalRound, match=r"players\.Ann\.crushed: .* at most 14 can have been"):
        score(sheet(player(10, [[4], []], crushed), player()))


def test_the_most_a_round_can_crush() -> None:
    # Ten packages at the start, five more from the line, one of them left standing.
    assert score(sheet(player(19, [[4], []], 14), player())).players[0].score == 5
    with pytest.raises(IllegalRound, match="no package stands on Ann's tables"):
        score(sheet(player(10, [[], []], 1), player()))


def test_both_players_share_the_line() -> None:
    full = [[5, 4, 3, 2, 1], [5, 4, 3, 2, 1]]
    # 20 standing and 5 crushed: every package of the round accounted for.
    assert score(sheet(player(5, full, 3), player(5, full, 2))) is not None
    with pytest.raises(IllegalRound, match="26 packages standing or crushed this round"):
        score(sheet(player(5, full, 3), player(5, full, 3)))


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "cannot be empty"), (" Ann", "spaces at its ends"), ("Ann ", "spaces at its ends")],
)
def test_a_player_needs_a_real_name(name: str, message: str) -> None:
    document = {"game": "package-war", "players": {name: player(), "Ben": player()}}
    with pytest.raises(InvalidRound, match=message):
        score(document)
