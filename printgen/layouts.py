"""Reading layout data: `layouts/<game>/<name>.toml`, with errors that name the file."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from printgen.errors import LayoutError
from printgen.paths import LAYOUTS_DIR


def layout_names(folder: str) -> tuple[str, ...]:
    """The layouts a game has: the TOML files in its folder under layouts/."""
    return tuple(sorted(p.stem for p in (LAYOUTS_DIR / folder).glob("*.toml")))


def read_layout(folder: str, name: str, game: str) -> tuple[Path, dict[str, Any]]:
    """The parsed TOML of layout `name` of `game`, and its path for error messages."""
    path = LAYOUTS_DIR / folder / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(layout_names(folder)) or "none"
        raise LayoutError(f"unknown {game} layout {name!r}; known layouts: {known}")
    try:
        return path, tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise LayoutError(f"{path}: malformed TOML: {error}") from None
