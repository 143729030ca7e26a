"""ONE through the command line: `printgen score`, `printgen one check-capture`, building the
boards and the score sheet, and `printgen layout one`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.one.engine import InvalidPosition
from printgen.games.one.layout import load_layout
from printgen.games.one.referee import read_position

ISSUE_EXAMPLE = """\
game = "one"
board = { spokes = 16, rings = 6 }
[players.Red]
stones = [[1, 1], [1, 2], [2, 2]]   # [ring, spoke]
captured = 2                         # opponent stones this player captured
[players.Blue]
stones = [[3, 5]]
captured = 0
"""


def write(tmp_path: Path, text: str, name: str = "position.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def players(**tables: str) -> str:
    body = "".join(f"[players.{name}]\n{table}\n" for name, table in tables.items())
    return 'game = "one"\n' + body


def test_score_json_is_exactly_as_specified(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["score", "--json", str(write(tmp_path, ISSUE_EXAMPLE))])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "game": "one",
        "scores": {
            "Red": {"largest_group": 3, "captured": 2, "score": 7},
            "Blue": {"largest_group": 1, "captured": 0, "score": 1},
        },
        "winner": "Red",
    }


def test_score_text(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["score", str(write(tmp_path, ISSUE_EXAMPLE))])
    assert result.exit_code == 0
    assert "Red wins with 7" in result.output
    assert "= 3 + 2 x 2" in result.output


def test_a_tie_has_no_winner(runner: CliRunner, tmp_path: Path) -> None:
    text = players(
        Red="stones = [[1, 16], [1, 1], [1, 2]]\ncaptured = 0",  # across the seam: one group
        Blue="stones = [[4, 4]]\ncaptured = 1",
        Green="stones = [[6, 9]]\ncaptured = 0",
    )
    result = runner.invoke(cli, ["score", "--json", str(write(tmp_path, text))])
    data = json.loads(result.output)
    assert data["winner"] is None
    assert data["scores"]["Red"]["score"] == data["scores"]["Blue"]["score"] == 3
    text_result = runner.invoke(cli, ["score", str(write(tmp_path, text))])
    assert "Red and Blue share the win with 3" in text_result.output


def test_partial_standing_exits_3(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["score", "--partial", str(write(tmp_path, ISSUE_EXAMPLE))])
    assert result.exit_code == 3
    assert "Red leads with 7" in result.output
    # The JSON says the same: a leader, no winner, as every referee's standing so far does.
    path = str(write(tmp_path, ISSUE_EXAMPLE))
    data = json.loads(runner.invoke(cli, ["score", "--partial", "--json", path]).output)
    assert (data["winner"], data["leader"], data["partial"]) == (None, "Red", True)
    final = json.loads(runner.invoke(cli, ["score", "--json", path]).output)
    assert final["winner"] == "Red" and "leader" not in final


BAD = [
    (
        "two stones on one intersection",
        players(Red="stones = [[2, 5]]", Blue="stones = [[1, 1], [2, 5]]"),
        r"players\.Blue\.stones\[1\]: \[2, 5\] already holds Red's stone",
    ),
    (
        "off the board",
        players(Red="stones = [[7, 1]]", Blue="stones = []"),
        r"players\.Red\.stones\[0\]: \[7, 1\] is off the board; rings run 1 to 6",
    ),
    (
        "spoke off the board",
        players(Red="stones = [[2, 17]]", Blue="stones = []"),
        r"\[2, 17\] is off the board; .*spokes 1 to 16",
    ),
    ("one player", players(Red="stones = []"), "2 to 6 players; this position has 1"),
    (
        "seven players",
        players(**{f"P{i}": "stones = []" for i in range(7)}),
        "2 to 6 players; this position has 7",
    ),
    (
        "a typo in a key",
        players(Red="stones = []\ncaptures = 2", Blue="stones = []"),
        r"players\.Red: unknown key 'captures'",
    ),
    (
        "not a pair",
        players(Red="stones = [[1, 2, 3]]", Blue="stones = []"),
        r"players\.Red\.stones\[0\]: expected \[ring, spoke\]",
    ),
    (
        "negative captures",
        players(Red="stones = []\ncaptured = -1", Blue="stones = []"),
        "cannot be negative",
    ),
    (
        "a boolean count",
        players(Red="stones = []\ncaptured = true", Blue="stones = []"),
        "expected a whole number, got True",
    ),
    (
        "more stones than a player has",
        players(
            Red="stones = [" + ", ".join(f"[{r}, {s}]" for r in (1, 2) for s in range(1, 14)) + "]",
            Blue="stones = []",
        ),
        "26 stones on the board, but with 2 players each has only 24",
    ),
    ("no players", 'game = "one"\n', r"no \[players\.NAME\] tables"),
    ("unknown top key", 'game = "one"\nturn = "Red"\n', "unknown key 'turn'"),
]


@pytest.mark.parametrize(("text", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_positions_are_clear_errors(
    runner: CliRunner, tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1
    assert str(path) in result.output
    assert re.search(message, result.output), result.output


def test_a_custom_board_size_is_read(tmp_path: Path) -> None:
    document = {
        "game": "one",
        "board": {"spokes": 8, "rings": 3},
        "players": {"A": {"stones": [[3, 8], [3, 1]]}, "B": {"stones": []}},
    }
    position = read_position(document, "x.toml", load_layout())
    assert position.largest_group("A") == 2
    document["players"]["A"]["stones"] = [[4, 1]]  # type: ignore[index]
    with pytest.raises(InvalidPosition, match="rings run 1 to 3"):
        read_position(document, "x.toml", load_layout())


# --- check-capture -------------------------------------------------------------------------

CHAIN = players(
    Red="stones = [[2, 3], [6, 6]]\ncaptured = 1",
    Blue="stones = [[3, 3]]",
    Green="stones = [[4, 4]]",
    Yellow="stones = [[3, 5]]",
)


def test_check_capture_prints_removed_stones_and_the_new_position(
    runner: CliRunner, tmp_path: Path
) -> None:
    path = write(tmp_path, CHAIN)
    args = ["one", "check-capture", str(path), "--from", "2,3", "--path", "4,3", "4,5", "2,5"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "removed: [3, 3] (Blue), [4, 4] (Green), [3, 5] (Yellow)" in result.output
    assert "Red has now captured 4" in result.output
    # The new position is itself a position file the referee reads.
    new = result.output.split("# the new position\n", 1)[1]
    scored = runner.invoke(cli, ["score", "--json", str(write(tmp_path, new, "after.toml"))])
    data = json.loads(scored.output)
    assert data["scores"]["Red"] == {"largest_group": 1, "captured": 4, "score": 9}
    assert data["scores"]["Blue"]["largest_group"] == 0


def test_check_capture_json(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, CHAIN)
    args = ["one", "check-capture", str(path), "--json", "--from", "2,3", "--path", "4,3"]
    data = json.loads(runner.invoke(cli, args).output)
    assert data["legal"] is True
    assert data["player"] == "Red"
    assert data["removed"] == [{"at": [3, 3], "owner": "Blue"}]
    assert data["position"]["players"]["Red"] == {"stones": [[4, 3], [6, 6]], "captured": 2}


@pytest.mark.parametrize(
    ("start", "path", "message"),
    [
        ("2,3", ["3,4"], "diagonal"),
        ("2,3", ["4,3", "4,5", "4,7"], "jump 3 .*no stone at \\[4, 6\\]"),
        ("2,3", ["2,5"], "no stone at \\[2, 4\\]"),
        ("6,6", ["4,6"], "no stone at \\[5, 6\\]"),
        ("2,3", ["4,3", "4,3"], "jump 2 .*must move"),
        ("1,1", ["1,3"], "no stone at \\[1, 1\\] to capture with"),
        ("2,3", ["0,3"], "off the board"),
    ],
)
def test_check_capture_reports_what_is_illegal(
    runner: CliRunner, tmp_path: Path, start: str, path: list[str], message: str
) -> None:
    file = write(tmp_path, CHAIN)
    result = runner.invoke(
        cli, ["one", "check-capture", str(file), "--from", start, "--path", *path]
    )
    assert result.exit_code == 1
    assert re.search(message, result.output), result.output


def test_check_capture_takes_a_path_quoted_whole(runner: CliRunner, tmp_path: Path) -> None:
    file = str(write(tmp_path, CHAIN))
    result = runner.invoke(
        cli, ["one", "check-capture", file, "--from", "2,3", "--path", "4,3 4,5 2,5"]
    )
    assert result.exit_code == 0, result.output
    assert "Red has now captured 4" in result.output


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ('game = "package-war"\n', "expected game = \"one\", got 'package-war'"),
        ("", 'no game key: a ONE position starts with game = "one"'),
    ],
)
def test_check_capture_is_given_a_ones_position(
    runner: CliRunner, tmp_path: Path, game: str, message: str
) -> None:
    file = str(write(tmp_path, CHAIN.replace('game = "one"\n', game)))
    result = runner.invoke(cli, ["one", "check-capture", file, "--from", "2,3", "--path", "4,3"])
    assert result.exit_code == 1
    assert message in result.output


@pytest.mark.parametrize(
    ("path", "typo"),
    [(["4.3"], "4.3"), (["4,3,"], "4,3,"), (["4,3", "4.5"], "4.5"), (["4,3 4;5"], "4;5")],
)
def test_check_capture_names_a_mistyped_landing(
    runner: CliRunner, tmp_path: Path, path: list[str], typo: str
) -> None:
    # These were dropped before click saw them, and the error was "Missing option '--path'".
    file = str(write(tmp_path, CHAIN))
    result = runner.invoke(cli, ["one", "check-capture", file, "--from", "2,3", "--path", *path])
    assert result.exit_code == 1
    assert f"'{typo}' is not a coordinate; write RING,SPOKE such as 2,5" in result.output


def test_check_capture_path_with_nothing_after_it(runner: CliRunner, tmp_path: Path) -> None:
    file = str(write(tmp_path, CHAIN))
    result = runner.invoke(cli, ["one", "check-capture", file, "--from", "2,3", "--path"])
    assert result.exit_code == 2
    assert "Option '--path' requires an argument" in result.output


def test_check_capture_unknown_or_wrong_player(runner: CliRunner, tmp_path: Path) -> None:
    file = str(write(tmp_path, CHAIN))
    base = ["one", "check-capture", file, "--from", "2,3", "--path", "4,3"]
    unknown = runner.invoke(cli, [*base, "--player", "Purple"])
    assert unknown.exit_code == 1
    assert "unknown player 'Purple'" in unknown.output and "Red, Blue" in unknown.output
    wrong = runner.invoke(cli, [*base, "--player", "Blue"])
    assert wrong.exit_code == 1
    assert "is Red's, not Blue's" in wrong.output


def test_check_capture_illegal_json_and_bad_coordinates(runner: CliRunner, tmp_path: Path) -> None:
    file = str(write(tmp_path, CHAIN))
    result = runner.invoke(
        cli, ["one", "check-capture", file, "--json", "--from", "2,3", "--path", "3,4"]
    )
    assert result.exit_code == 1
    assert json.loads(result.stdout)["legal"] is False
    typo = runner.invoke(cli, ["one", "check-capture", file, "--from", "2;3", "--path", "4,3"])
    assert typo.exit_code == 1
    assert "'2;3' is not a coordinate" in typo.output
    missing = runner.invoke(cli, ["one", "check-capture", file, "--from", "2,3"])
    assert missing.exit_code == 2  # click's usage error: --path is required


# --- building -----------------------------------------------------------------------------


def test_build_the_board_on_a3_and_refuse_the_tiled_board_there(
    runner: CliRunner, tmp_path: Path
) -> None:
    result = runner.invoke(cli, ["build", "one-board", "--paper", "a3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "one-board-a3.pdf").read_bytes().startswith(b"%PDF")
    refused = runner.invoke(
        cli, ["build", "one-board-tiled", "--paper", "a3", "--out", str(tmp_path)]
    )
    assert refused.exit_code == 2  # a usage error
    assert "a4, letter, not a3" in refused.output


def test_list_names_the_materials(runner: CliRunner) -> None:
    output = runner.invoke(cli, ["list"]).output
    for name in ("one-board ", "one-board-tiled", "one-score"):
        assert name in output


def test_layout_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["layout", "one", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["board"] == {"spokes": 16, "rings": 6}
    assert len(data["intersections"]) == 96
    assert data["stones_per_player"] == {"2": 24, "3": 20, "4": 16, "5": 14, "6": 12}


# --- positions no game can reach (issue 17; rulings 8 to 10) -----------------------------------


def refusal(runner: CliRunner, tmp_path: Path, text: str) -> str:
    result = runner.invoke(cli, ["score", str(write(tmp_path, text))])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.stderr


def test_captures_are_limited_by_what_the_others_lost(runner: CliRunner, tmp_path: Path) -> None:
    # Two players, 24 stones each: Blue has 20 on the board, so at most 4 can have been taken.
    blue = ", ".join(f"[{r}, {s}]" for r in (4, 5) for s in range(1, 11))
    text = players(Red="stones = [[1, 1]]\ncaptured = 5", Blue=f"stones = [{blue}]\ncaptured = 0")
    message = refusal(runner, tmp_path, text)
    assert "players.Red.captured is 5, but the other players have at most 4 stones off" in message
    ok = players(Red="stones = [[1, 1]]\ncaptured = 4", Blue=f"stones = [{blue}]\ncaptured = 0")
    assert runner.invoke(cli, ["score", str(write(tmp_path, ok))]).exit_code == 0


def test_every_player_lists_their_stones(runner: CliRunner, tmp_path: Path) -> None:
    text = players(Red="captured = 0", Blue="stones = [[3, 5]]")
    assert "players.Red: no `stones` key" in refusal(runner, tmp_path, text)
    empty = players(Red="stones = []", Blue="stones = [[3, 5]]")
    assert runner.invoke(cli, ["score", str(write(tmp_path, empty))]).exit_code == 0


@pytest.mark.parametrize("board", ["spokes = 1000000000, rings = 6", "spokes = 16, rings = 99"])
def test_an_absurd_board_is_refused(runner: CliRunner, tmp_path: Path, board: str) -> None:
    text = f"board = {{ {board} }}\n" + players(Red="stones = []", Blue="stones = [[1, 1]]")
    assert "larger than any drawn board" in refusal(runner, tmp_path, text)


@pytest.mark.parametrize("name", ['" Red"', '"Red "', '""'])
def test_a_name_with_outer_spaces_or_none_is_refused(
    runner: CliRunner, tmp_path: Path, name: str
) -> None:
    text = f'game = "one"\n[players.{name}]\nstones = []\n[players.Blue]\nstones = [[1, 1]]\n'
    message = refusal(runner, tmp_path, text)
    assert "spaces at its ends" in message or "cannot be empty" in message
