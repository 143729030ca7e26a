"""Reading layout data: `layouts/<game>/<name>.toml`, with errors that name the file.

A layout's name often comes from outside: a typed-in sheet's `layout` key, a photo's QR code,
`--layout`, a URL. It is therefore only ever looked up among the names the project ships, never
joined into a path as given: "../package-war/pad" or "/etc/evil" is an unknown name like any
other, and the error lists the known ones without saying where they live."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from printgen.errors import LayoutError, quote
from printgen.paths import LAYOUTS_DIR

# What a shipped layout may be called (its file's stem); anything else is never a layout.
LAYOUT_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
NAME_LIMIT = 40


def layout_names(folder: str) -> tuple[str, ...]:
    """The layouts a game ships: the TOML files in its folder under layouts/."""
    return tuple(
        sorted(
            p.stem
            for p in (LAYOUTS_DIR / folder).glob("*.toml")
            if len(p.stem) <= NAME_LIMIT and LAYOUT_NAME.fullmatch(p.stem)
        )
    )


def read_layout(folder: str, name: object, game: str) -> tuple[Path, dict[str, Any]]:
    """The parsed TOML of layout `name` of `game`, and its path for error messages.

    `name` may be anything a user typed; it is accepted only if it is one of layout_names()."""
    known = layout_names(folder)
    if not isinstance(name, str) or name not in known:
        shown = ", ".join(known) or "none"
        raise LayoutError(f"unknown {game} layout {quote(name)}; known layouts: {shown}")
    path = LAYOUTS_DIR / folder / f"{name}.toml"
    try:
        return path, tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise LayoutError(f"{path}: malformed TOML: {error}") from None
