"""Writing TOML that parses back to exactly the data it was made from.

Every TOML document printgen prints or writes (a ONE position after a capture, the sheet read
from a photo, a sheet the solo AI played on) is built with tomlkit, a TOML writer, rather than by
pasting strings together: a name holding a quote, a newline or a control character is then
escaped as TOML requires. tomlkit also edits a player's own file in place, keeping its comments
and layout (`update`). It is imported only when a document is written."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tomlkit
from tomlkit.items import Comment, Item

from printgen.console import safe


def comment(text: str) -> Comment:
    """A comment line; control characters in `text` (a sheet id, a name) are shown escaped, so
    they can neither end the comment nor hide in it."""
    return tomlkit.comment(safe(text).replace("\n", " "))


def with_comment(value: Any, text: str) -> Item:
    """`value` as a TOML item followed by `# text` on its line."""
    item = tomlkit.item(value)
    item.comment(safe(text).replace("\n", " "))
    return item


def inline(values: Mapping[str, Any]) -> Item:
    """`{ a = 1, b = 2 }` on one line."""
    table = tomlkit.inline_table()
    table.update(values)
    return table


def update(document: Any, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    """Change `document` (tomlkit's, parsed from a file that reads as `old`) so it reads as `new`,
    touching only what differs: comments, order and layout of the rest stay as they were."""
    for key, value in new.items():
        before = old.get(key)
        if key not in old:
            document[key] = inline(value) if isinstance(value, Mapping) else value
        elif isinstance(value, Mapping) and isinstance(before, Mapping):
            update(document[key], before, value)
        elif isinstance(value, list) and isinstance(before, list) and len(value) == len(before):
            for i, (was, now) in enumerate(zip(before, value, strict=True)):
                if was != now:
                    document[key][i] = now
        elif value != before:
            document[key] = value
