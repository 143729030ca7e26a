"""Package War! game logs: `printgen package-war play LOG.toml` replays a whole game."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.package_war.log import (
    IllegalLogMove,
    InvalidLog,
    parse_log,
    play_log,
    read_log,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "package-war" / "game.toml"


def log(moves: list[str], **extra: object) -> dict:
    return {"game": "package-war", "players": ["Ann", "Ben"], "start": [[5, 2]], "moves": moves,
            **extra}  # fmt: skip


def write(tmp_path: Path, data: dict) -> Path:
    lines = [f"{key} = {json.dumps(value)}" for key, value in data.items()]
    path = tmp_path / "log.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_example_game_replays_to_its_end() -> None:
    report = play_log(read_log(EXAMPLE))
    assert report.over and report.exit_code == 0
    assert report.winner == "Ann"
    final = report.rounds[-1]
    assert [s.after for s in final.sides] == [20, 16]
    # Every round's total follows from the one before: old + stack points - crushed.
    previous = {"Ann": 5, "Ben": 5}
    for scored in report.rounds:
        for side in scored.sides:
            assert side.before == previous[side.name]
            assert side.after == side.before + side.stack_points - side.crushed
            previous[side.name] = side.after


def test_example_game_shows_every_kind_of_move() -> None:
    text = play_log(read_log(EXAMPLE)).to_text()
    for phrase in (
        "won the roll-off and begins",
        "a six on an empty line: ignored",
        "the oldest package goes back to the pool",
        "a six: the die goes back, distribution begins",
        "crushes",
        "round 1 scored",
        "game over, Ann wins (reached 20)",
    ):
        assert phrase in text


def test_cli_play_example(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["package-war", "play", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "Ann 20, Ben 16: game over, Ann wins (reached 20)"


def test_cli_play_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["package-war", "play", "--json", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    moves = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))["moves"]
    assert data["game"] == "package-war"
    assert data["winner"] == "Ann" and data["game_over"] is True
    assert data["moves"] == len(moves)
    assert data["players"] == {"Ann": {"score": 20}, "Ben": {"score": 16}}
    assert data["rounds"][0]["round"] == 1
    assert set(data["rounds"][0]["players"]["Ann"]) == {"stack_points", "crushed", "score"}


def test_short_round_transcript() -> None:
    report = play_log(
        parse_log(
            log(
                [
                    "Ann: roll 5",
                    "Ben: roll 3",
                    "Ann: roll 6",
                    "Ann: take 5 on 1",
                    "Ben: push 3 on 1",
                ]
            ),  # fmt: skip
            "t.toml",
        )
    )
    assert report.to_text().splitlines() == [
        "Package War!: Ann v Ben, 26 dice",
        "Ann won the roll-off and begins.",
        "   1. Ann: roll 5: joins the line; line: 5",
        "   2. Ben: roll 3: joins the line; line: 5 3",
        "   3. Ann: roll 6: a six: the die goes back, distribution begins; line: 5 3",
        "   4. Ann: take 5 on 1: Ann's table 1 now holds 5",
        "   5. Ben: push 3 on 1: Ann's table 1 now holds 5 3",
        "      round 1 scored: Ann 5 + 1 - 0 = 6; Ben 5 + 0 - 0 = 5",
        "Ann 6, Ben 5: the log ends before the game does (Ben to move)",
    ]
    assert report.exit_code == 3


def test_cli_unfinished_log_is_provisional(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, log(["Ann: roll 4"]))
    result = runner.invoke(cli, ["package-war", "play", str(path)])
    assert result.exit_code == 3
    assert "the log ends before the game does (Ben to move)" in result.output


@pytest.mark.parametrize(
    ("moves", "number", "reason"),
    [
        (["Ann: roll 4", "Ann: roll 2"], 2, "it is Ben's turn"),
        (["Ann: roll 4", "Ben: roll 6", "Ben: take 3 on 1"], 3, "no package of weight 3"),
        (["Ann: roll 4", "Ben: roll 6", "Ben: roll 2"], 3, "distribution phase"),
        (["Ann: roll 4", "Ben: roll 6", "Ben: take 4 on 3"], 3, "tables 1 and 2"),
        (["Ann: roll 4", "Ben: roll 7"], 2, "1 to 6"),
        (["Ann: roll 4", "Ben rolls 3"], 2, "is not a move"),
    ],
)
def test_illegal_move_named_by_position(moves: list[str], number: int, reason: str) -> None:
    with pytest.raises(IllegalLogMove, match=rf"t.toml, move {number}: '{moves[-1]}'.*{reason}"):
        play_log(parse_log(log(moves), "t.toml"))


def test_move_after_game_end_is_an_error() -> None:
    moves = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))["moves"]
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["moves"] = [*moves, "Ben: roll 3"]
    with pytest.raises(IllegalLogMove, match=rf"move {len(moves) + 1}: .*the game is over"):
        play_log(parse_log(data, "t.toml"))


def test_cli_illegal_move_exit_one(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, log(["Ann: roll 4", "Ben: roll 6", "Ann: take 4 on 1"]))
    result = runner.invoke(cli, ["package-war", "play", str(path)])
    assert result.exit_code == 1
    assert f"error: {path}, move 3: 'Ann: take 4 on 1': " in result.output
    assert "it is Ben's turn" in result.output


def test_ruling_rolloff_decides_first_player() -> None:
    report = play_log(parse_log(log([], start=[[3, 3], [1, 4]]), "t.toml"))
    assert report.first == 1
    assert report.match.position.mover == "Ben"
    with pytest.raises(InvalidLog, match="rolled again"):
        play_log(parse_log(log([], start=[[3, 3]]), "t.toml"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": ["Ann", "Ben"], "start": [[1, 2]]}, 'expected game = "package-war"'),
        (log([], players=["Ann"]), "players: expected two names"),
        (log([], dice=12), "16 to 26 dice, not 12"),
        (log([], dice=10**12), "16 to 26 dice"),
        (log([], players=["Ann", ""]), "name cannot be empty"),
        (log([], players=["Ann", " Ben"]), "spaces at its ends"),
        (log([], start=[]), "start: the roll-off"),
        (log([], start=[[1, 2, 3]]), "start roll 1: expected a pair"),
        (log([3]), "moves: expected a list of strings"),
        (log([], extra=1), "unknown field"),
    ],
)
def test_malformed_log_is_invalid(data: dict, message: str) -> None:
    with pytest.raises(InvalidLog, match=message):
        parse_log(data, "t.toml")


def test_malformed_toml_names_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("moves = [\n", encoding="utf-8")
    with pytest.raises(InvalidLog, match="broken.toml: malformed TOML"):
        read_log(path)


def test_log_doc_error_example_matches_output(tmp_path: Path) -> None:
    # The error shown in docs/package-war-log.md is the replay's real wording.
    doc = (Path(__file__).resolve().parent.parent / "docs" / "package-war-log.md").read_text(
        encoding="utf-8"
    )
    moves = ["Ann: roll 1", "Ben: roll 2", "Ann: roll 3", "Ben: roll 4", "Ann: roll 6",
             "Ann: take 3 on 1", "Ann: take 4 on 1"]  # fmt: skip
    with pytest.raises(IllegalLogMove) as caught:
        play_log(parse_log(log(moves), "game.toml"))
    assert f"error: {caught.value}" in doc


def test_every_ruling_names_a_real_test() -> None:
    root = Path(__file__).resolve().parent
    rulings = (root.parent / "docs" / "rulings.md").read_text(encoding="utf-8")
    section = rulings.split("## Package War!", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(test_\w+)`", section))
    assert len(named) >= 11
    defined = {
        name
        for path in root.glob("test_package_war_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }
    assert named <= defined, named - defined


def test_example_game_golden_transcript(runner: CliRunner) -> None:
    # examples/package-war/game.txt was read through move by move against the rules when it
    # was written; any change to what the replay says shows up here.
    golden = EXAMPLE.with_suffix(".txt").read_text(encoding="utf-8")
    result = runner.invoke(cli, ["package-war", "play", str(EXAMPLE)])
    assert result.output.replace(str(EXAMPLE), "") == golden.replace(str(EXAMPLE), "")
