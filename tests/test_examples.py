"""Every example in examples/ is a finished game its referee accepts, as the docs promise."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from printgen.cli import cli

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").rglob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_is_accepted_and_finished(runner, path: Path) -> None:  # type: ignore[no-untyped-def]
    document = tomllib.loads(path.read_text(encoding="utf-8"))
    if document["game"] == "package-war" and "moves" in document:
        result = runner.invoke(cli, ["package-war", "play", str(path), "--json"])
    else:
        result = runner.invoke(cli, ["score", "--json", str(path)])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["game"] == document["game"]
    assert "winner" in payload


def test_every_game_with_a_referee_has_an_example() -> None:
    from printgen.games import all_games

    games = {tomllib.loads(p.read_text(encoding="utf-8"))["game"] for p in EXAMPLES}
    assert {g.name for g in all_games() if g.score is not None} <= games
