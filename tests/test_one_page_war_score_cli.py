"""`printgen score` on One Page War sheets, and `printgen one-page-war ai-turn`, through click."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.one_page_war.sheet import Sheet, parse_sheet

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "one-page-war"


def copy_example(tmp_path: Path, name: str) -> Path:
    target = tmp_path / f"{name}.toml"
    shutil.copy(EXAMPLES / f"{name}.toml", target)
    return target


def test_score_prints_the_table(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["score", str(EXAMPLES / "duel.toml")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("One Page War, duel: Ann vs Ben")
    land = next(line for line in lines if line.startswith("Land"))
    assert "three of a kind beats one pair" in land and "Ben" in land
    assert "Result: Ann wins, 3 arenas to 2." in result.output


def test_score_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["score", "--json", str(EXAMPLES / "solo.toml")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "one-page-war" and data["mode"] == "solo"
    assert data["winner"] == "AI"
    assert data["arenas_won"] == {"Ann": 2, "AI": 3}
    assert data["arenas"][3]["reason"] == "both one pair: 5+5 beats 3+3"


def test_score_a_folder_gives_a_line_per_file(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["score", str(EXAMPLES)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].endswith("duel.toml: Ann wins, 3 arenas to 2")
    assert lines[2].endswith("team.toml: team South wins: arenas North 4, South 5")


def test_score_json_sheet(runner: CliRunner, tmp_path: Path) -> None:
    data = tomllib.loads((EXAMPLES / "duel.toml").read_text(encoding="utf-8"))
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(cli, ["score", "--json", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["winner"] == "Ann"


def unfinished(tmp_path: Path) -> Path:
    path = copy_example(tmp_path, "duel")
    text = path.read_text(encoding="utf-8")
    text = text.replace("Ann = [6, 6, 1]", 'Ann = [6, 6, "_"]').replace(
        "Ben = [4, 4, 6]", 'Ben = [4, 4, "_"]'
    )
    path.write_text(text, encoding="utf-8")
    return path


def test_unfinished_sheet_fails_and_names_the_squares(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["score", str(unfinished(tmp_path))])
    assert result.exit_code == 1
    assert "unfinished game, 2 empty square(s)" in result.output
    assert "arena Air, Ann's square 3" in result.output
    assert "arena Air, Ben's square 3" in result.output


def test_partial_gives_the_standing_with_exit_code_3(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["score", "--partial", str(unfinished(tmp_path))])
    assert result.exit_code == 3, result.output
    assert "unfinished: level; arenas so far Ann 2, Ben 2; open: Air" in result.output
    as_json = runner.invoke(cli, ["score", "--partial", "--json", str(unfinished(tmp_path))])
    assert as_json.exit_code == 3
    data = json.loads(as_json.output)
    assert data["winner"] is None and data["leader"] is None
    assert data["open_arenas"] == ["Air"]


def test_errors_name_arena_side_and_square(runner: CliRunner, tmp_path: Path) -> None:
    path = copy_example(tmp_path, "duel")
    text = path.read_text(encoding="utf-8").replace("Ben = [1, 1, 1]", "Ben = [1, -1, 1]")
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1
    assert f"{path}: arena Politics, Ben's square 2: -1 is negative" in result.output


def test_malformed_toml_names_the_line(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('game = "one-page-war"\nplayers = \nmode = "duel"\n', encoding="utf-8")
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1
    assert "malformed TOML" in result.output and "line" in result.output


def test_ai_turn(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "solo.toml"
    path.write_text(
        """game = "one-page-war"
mode = "solo"
players = ["Ann", "AI"]

[arenas.Land]
Ann = [3, 3, "_", "_"]
AI = [2, "_", "_", "_"]

[arenas.Air]
Ann = [6, "_", "_"]
AI = [7, 7, "_"]

[arenas.Sea]
Ann = [1, "_", "_", "_", "_"]
AI = ["_", "_", "_", "_", "_"]

[arenas.Politics]
Ann = ["_", "_", "_"]
AI = ["_", "_", "_"]

[arenas.Espionage]
Ann = ["_", "_", "_", "_"]
AI = ["_", "_", "_", "_"]
""",
        encoding="utf-8",
    )
    before = path.read_text(encoding="utf-8")
    args = ["one-page-war", "ai-turn", str(path), "--die", "6", "--human-arena", "Land"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "writes 7 in Air, square 3" in result.output
    assert "It ticks a box in Air." in result.output
    assert "becomes a star" in result.output
    assert path.read_text(encoding="utf-8") == before  # not written without --write

    result = runner.invoke(cli, [*args, "--json", "--write"])
    assert result.exit_code == 0, result.output
    move = json.loads(result.output)
    assert (move["number"], move["arena"], move["square"], move["tick"]) == (7, "Air", 3, "Air")
    assert move["star"]["arena"] == "Air"
    sheet = parse_sheet(tomllib.loads(path.read_text(encoding="utf-8")))
    assert isinstance(sheet, Sheet)
    air = sheet.arena("Air").side("AI")
    assert air.ticks == 1 and air.is_full and air.has_star
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic write left nothing behind


def test_ai_turn_writes_json_sheets_as_json(runner: CliRunner, tmp_path: Path) -> None:
    data = {
        "game": "one-page-war",
        "mode": "solo",
        "players": ["Ann", "AI"],
        "arenas": {
            "Land": {"Ann": [1, "_", "_", "_"], "AI": ["_"] * 4},
            "Air": {"Ann": ["_"] * 3, "AI": ["_"] * 3},
            "Sea": {"Ann": ["_"] * 5, "AI": ["_"] * 5},
            "Politics": {"Ann": ["_"] * 3, "AI": ["_"] * 3},
            "Espionage": {"Ann": ["_"] * 4, "AI": ["_"] * 4},
        },
    }
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    args = ["one-page-war", "ai-turn", str(path), "--die", "1", "--human-arena", "Land", "--write"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["arenas"]["Air"]["AI"] == [2, "_", "_"]


def test_ai_turn_errors(runner: CliRunner, tmp_path: Path) -> None:
    duel = str(EXAMPLES / "duel.toml")
    result = runner.invoke(
        cli, ["one-page-war", "ai-turn", duel, "--die", "3", "--human-arena", "Land"]
    )
    assert result.exit_code == 1
    assert "only in a solo game" in result.output
    result = runner.invoke(
        cli, ["one-page-war", "ai-turn", duel, "--die", "9", "--human-arena", "Land"]
    )
    assert result.exit_code == 2  # click's own usage error
    solo = str(EXAMPLES / "solo.toml")
    result = runner.invoke(
        cli, ["one-page-war", "ai-turn", solo, "--die", "3", "--human-arena", "Land"]
    )
    assert result.exit_code == 1
    assert "not the AI's turn" in result.output


def test_help_lists_the_command(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["one-page-war", "--help"])
    assert result.exit_code == 0
    assert "ai-turn" in result.output
