"""From a typed-in sheet or a photo to a referee's report: the one dispatch the CLI and
`printgen serve` share, so a sheet scored from the phone goes through exactly the code a file
given to `printgen score` does."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from printgen.errors import InputError
from printgen.materials import PhotoOptions, ScoreOptions, ScoreReport


def read_photo(path: Path, options: PhotoOptions) -> ScoreReport:
    """Score a photographed sheet with the game that reads photos (its reader imported now)."""
    from printgen.games import all_games

    readers = [g for g in all_games() if g.read_photo is not None]
    if not readers:
        raise InputError(f"{path}: reading photos is not available yet; type the sheet in")
    return readers[0].photo_reader()(path, options)


def score_document(document: Mapping[str, Any], source: str, partial: bool) -> ScoreReport:
    """Score a typed-in sheet with the referee its `game` key names; `source` names it in errors.
    Only that game's referee is imported."""
    from printgen.games import all_games, game_named

    name = document.get("game")
    if not isinstance(name, str):
        raise InputError(f'{source}: no `game = "..."` key naming the game this sheet is for')
    game = game_named(name)
    if game is None or game.score is None:
        known = ", ".join(g.name for g in all_games() if g.score is not None)
        raise InputError(f"{source}: game {name!r} has no referee; known: {known or 'none yet'}")
    return game.referee()(document, source, ScoreOptions(partial=partial))


def load_document(path: Path) -> Mapping[str, Any]:
    """A typed-in sheet as a mapping, from TOML or JSON; errors name the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not a UTF-8 text file ({error.reason})") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read it ({error.strerror})") from None
    return parse_document(text, str(path), as_json=path.suffix.lower() == ".json")


def parse_document(text: str, source: str, as_json: bool) -> Mapping[str, Any]:
    """A typed-in sheet's text as a mapping, from JSON or TOML; errors name `source` and line."""
    if as_json:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            where = f"{source}, line {error.lineno}"
            raise InputError(f"{where}: malformed JSON: {error.msg}") from None
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise InputError(f"{source}: malformed TOML: {error}") from None
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a table of keys at the top level")
    return data
