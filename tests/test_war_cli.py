"""`printgen war play` and `printgen war simulate`, through the real top-level CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.war.engine import Deck, GameKind, play_deck


def write_deck(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deal.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_war_is_mounted_on_printgen(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--help"])
    assert " war " in result.output
    result = runner.invoke(cli, ["war", "--help"])
    assert result.exit_code == 0 and "play" in result.output and "simulate" in result.output


@pytest.mark.parametrize("game", ["short", "full"])
def test_play_json_is_the_engines_result(runner: CliRunner, game: str) -> None:
    result = runner.invoke(cli, ["war", "play", "--seed", "31", "--game", game, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = play_deck(Deck.shuffled(31), GameKind(game)).result()
    assert data == expected.to_json()
    assert set(data) == {"game", "winner", "battles", "wars", "cards", "capped"}
    assert data["game"] == game


def test_play_a_deck_file_prints_the_result(runner: CliRunner, tmp_path: Path) -> None:
    deck = Deck.shuffled(8)
    path = write_deck(tmp_path, deck.to_text())
    result = runner.invoke(cli, ["war", "play", "--deck", str(path), "--game", "short"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == play_deck(deck, GameKind.SHORT).result().to_text()


def test_verbose_prints_every_battle(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["war", "play", "--seed", "4", "--verbose"])
    assert result.exit_code == 0
    game = play_deck(Deck.shuffled(4), GameKind.FULL)
    lines = result.stdout.splitlines()
    assert lines[:-1] == [record.to_text() for record in game.records]
    assert lines[-1] == game.result().to_text()


def test_verbose_with_json_keeps_stdout_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["war", "play", "--seed", "4", "--json", "-v"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["game"] == "full"
    assert result.stderr.count("\n") == json.loads(result.stdout)["battles"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda words: words[:-1], "missing"),
        (lambda words: [*words[:10], words[3], *words[11:]], "is repeated"),
        (lambda words: [*words[:5], "1X", *words[6:]], "'1X' is not a card"),
    ],
    ids=["missing", "repeated", "unknown"],
)
def test_a_bad_deck_is_an_error_naming_the_card(
    runner: CliRunner, tmp_path: Path, change: Callable[[list[str]], list[str]], message: str
) -> None:
    words = Deck.shuffled(2).to_text().split()
    changed = change(words)
    path = write_deck(tmp_path, " ".join(changed))
    result = runner.invoke(cli, ["war", "play", "--deck", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert str(path) in result.stderr
    if message == "missing":
        assert words[-1] in result.stderr


def test_missing_deck_file_is_an_error(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["war", "play", "--deck", str(tmp_path / "nope.txt")])
    assert result.exit_code == 1 and "no such file" in result.stderr


def test_deck_file_that_is_not_text_is_an_error(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "deal.txt"
    path.write_bytes(b"\xff\xfe\x00AS")
    result = runner.invoke(cli, ["war", "play", "--deck", str(path)])
    assert result.exit_code == 1 and "not a UTF-8 text file" in result.stderr


@pytest.mark.parametrize("args", [[], ["--seed", "1", "--deck", "x.txt"]])
def test_play_needs_exactly_one_of_deck_and_seed(runner: CliRunner, args: list[str]) -> None:
    result = runner.invoke(cli, ["war", "play", *args])
    assert result.exit_code == 2 and "exactly one" in result.output


def test_simulate_prints_the_figures(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["war", "simulate", "--games", "120", "--seed", "5"])
    assert result.exit_code == 0, result.output
    for words in ("A wins", "B wins", "draws", "capped", "median", "95th percentile", "chain"):
        assert words in result.stdout


def test_simulate_json_adds_up(runner: CliRunner) -> None:
    args = ["war", "simulate", "--games", "150", "--game", "short", "--seed", "9", "--json"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 150 and data["game"] == "short"
    assert data["wins"]["A"] + data["wins"]["B"] + data["draws"] == 150
    assert data["seeds"] == [9, 158]
    again = json.loads(runner.invoke(cli, args).stdout)
    assert again == data


def test_simulate_without_a_seed_says_which_it_used(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["war", "simulate", "--games", "20", "--json"])
    assert result.exit_code == 0
    said = result.stderr.split()[1]
    assert json.loads(result.stdout)["seeds"][0] == int(said)


def test_simulate_plot_writes_a_png(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "lengths.png"
    args = ["war", "simulate", "--games", "100", "--seed", "1", "--plot", str(target)]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    image = cv2.imread(str(target))
    assert image is not None and image.shape[2] == 3


def test_simulate_refuses_a_plot_that_is_not_png(runner: CliRunner, tmp_path: Path) -> None:
    args = ["war", "simulate", "--games", "10", "--seed", "1", "--plot", str(tmp_path / "x.gif")]
    result = runner.invoke(cli, args)
    assert result.exit_code == 1 and "PNG" in result.stderr


@pytest.mark.parametrize("option", ["--games", "--jobs"])
def test_simulate_refuses_zero(runner: CliRunner, option: str) -> None:
    result = runner.invoke(cli, ["war", "simulate", option, "0", "--seed", "1"])
    assert result.exit_code == 2
