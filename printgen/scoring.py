"""From a typed-in sheet or a photo to a referee's report: the one dispatch the CLI and
`printgen serve` share, so a sheet scored from the phone goes through exactly the code a file
given to `printgen score` does."""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import math
import re
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from printgen.errors import InputError, quote
from printgen.files import STDIN, input_name, read_input
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
        raise InputError(
            f"{source}: game {quote(name)} has no referee; known: {known or 'none yet'}"
        )
    return game.referee()(document, source, ScoreOptions(partial=partial))


def load_document(path: Path) -> Mapping[str, Any]:
    """A typed-in sheet as a mapping, from TOML or JSON (`-`: TOML or JSON from standard input);
    errors name the file and line."""
    text = read_input(path)
    as_json = path.suffix.lower() == ".json" or (path == STDIN and text.lstrip()[:1] == "{")
    return parse_document(text, input_name(path), as_json=as_json)


def parse_document(text: str, source: str, as_json: bool) -> Mapping[str, Any]:
    """A typed-in sheet's text as a mapping, from JSON or TOML; errors name `source` and line.

    Beyond the syntax, refused with the place named: a key given twice (TOML refuses it, and so
    does JSON here), nesting deeper than MAX_DEPTH, integers past MAX_INTEGER, NaN and infinity,
    and text that is not valid Unicode (a lone surrogate such as "\\ud800" in JSON)."""
    text = text.removeprefix("\ufeff")
    try:
        data = _parse_json(text, source) if as_json else _parse_toml(text, source)
    except RecursionError:
        raise InputError(f"{source}: nested too deeply (a sheet is a few levels deep)") from None
    except ValueError as error:
        if "integer string conversion" not in str(error):
            raise
        match = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        line = text.count("\n", 0, match.start()) + 1 if match else "?"
        raise InputError(f"{source}, line {line}: a number with thousands of digits") from None
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a table of keys at the top level")
    _check_values(data, source)
    return data


def _parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        where = f"{source}, line {error.lineno}"
        raise InputError(f"{where}: malformed JSON: {error.msg}") from None
    except _Constant as constant:
        at = text.count("\n", 0, max(text.find(constant.name), 0)) + 1
        raise InputError(
            f"{source}, line {at}: {constant.name} is not a number a sheet can hold"
        ) from None
    except _DuplicateKey as duplicate:
        line = _duplicate_line(text)
        where = f"{source}, line {line}" if line else source
        raise InputError(
            f"{where}: the key {quote(duplicate.key)} is given twice in the same table"
        ) from None


def _parse_toml(text: str, source: str) -> Any:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        opened = _unclosed_line(text) if str(error).startswith("Unclosed") else None
        # TOML finds a missing `]` only where the next line cannot go on the list; the list
        # left open is what the player wrote wrong.
        where = f": the bracket opened on line {opened} is never closed" if opened else ""
        raise InputError(f"{source}: malformed TOML: {error}{where}") from None


def _unclosed_line(text: str) -> int | None:
    """The line of the first `[` or `{` of a value left open in `text`, outside strings and
    comments; None when every one is closed, or when the text holds a multi-line string
    (whose brackets this line-by-line look cannot tell from the value's)."""
    if '"""' in text or "'''" in text:
        return None
    open_at: list[int] = []
    quote_char = ""
    for number, line in enumerate(text.splitlines(), start=1):
        escaped = False
        for ch in line:
            if quote_char:
                if escaped:
                    escaped = False
                elif ch == "\\" and quote_char == '"':
                    escaped = True
                elif ch == quote_char:
                    quote_char = ""
            elif ch in "\"'":
                quote_char = ch
            elif ch == "#":
                break
            elif ch in "[{":
                open_at.append(number)
            elif ch in "]}" and open_at:
                open_at.pop()
        quote_char = ""  # a string left open at a line's end is TOML's own error to name
    return open_at[0] if open_at else None


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


class _Constant(Exception):
    def __init__(self, name: str) -> None:
        self.name = name


def _no_constant(name: str) -> Any:
    raise _Constant(name)  # NaN, Infinity or -Infinity: Python's JSON takes them, JSON does not


def _duplicate_line(text: str) -> int | None:
    """The line of the first key given twice in one JSON object: the text is parsed again by the
    pure-Python decoder, which says where each value starts (the fast one does not)."""
    lines: list[int] = []

    def parse_object(s_and_end: Any, strict: bool, scan_once: Any, *_: Any) -> Any:
        starts: list[int] = []

        def recording(s: str, at: int) -> Any:
            starts.append(at)
            return scan_once(s, at)

        pairs, end = json.decoder.JSONObject(  # type: ignore[attr-defined]
            s_and_end, strict, recording, None, list
        )
        seen: set[str] = set()
        for (key, _value), at in zip(pairs, starts, strict=False):
            if key in seen and not lines:
                lines.append(text.count("\n", 0, at) + 1)
            seen.add(key)
        return dict(pairs), end

    decoder = json.JSONDecoder()
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        decoder.decode(text)
    except (ValueError, RecursionError):
        return None
    return lines[0] if lines else None


# No typed-in sheet nests deeper than a few tables, nor holds a number past a few thousand.
MAX_DEPTH = 32
MAX_INTEGER = 2**53


def _check_values(data: Mapping[str, Any], source: str) -> None:
    """Walks the parsed tree (without recursion: a deep tree is the thing refused)."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        place = f"{source}: {where}" if where else source
        if depth > MAX_DEPTH:
            raise InputError(f"{place}: nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, place, "a key")
                stack.append((item, f"{where}.{key}" if where else str(key), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            _check_text(value, place, "the text")
        elif isinstance(value, bool):
            pass
        elif isinstance(value, int) and abs(value) > MAX_INTEGER:
            raise InputError(f"{place}: the number {quote(value)} is far larger than a sheet holds")
        elif isinstance(value, float) and not math.isfinite(value):
            raise InputError(f"{place}: {value} is not a number a sheet can hold")


def _check_text(text: str, place: str, what: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            f"{place}: {what} {quote(text)} is not valid Unicode (a lone surrogate)"
        ) from None
