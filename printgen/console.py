"""What the command line prints, and its exit codes: shared by `printgen` and every game's own
commands, so each says things the same way.

Names come from files anyone can write, and a name holding an escape sequence would otherwise
reach the terminal raw (retitling the window, recolouring the rest of the output). So text output
shows control characters escaped, as Python's repr writes them; JSON output escapes the same
characters the JSON way, so it still parses to exactly the data."""

from __future__ import annotations

import json
import re
import sys
from typing import Any, NoReturn

import click

# Exit codes: 0 a final result; 1 bad input or a failed build; 2 a usage error (click's own);
# 3 a provisional result (unsure cells in a photo, or a partial standing).
EXIT_ERROR = 1
EXIT_PROVISIONAL = 3

# Control characters (but newline and tab), line and paragraph separators, the bidirectional
# overrides that reorder what a terminal shows, and lone surrogates (which cannot be printed).
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff]"
)


def safe(text: str) -> str:
    """`text` with each unsafe character written as repr would write it (`\\x1b`, `\\u202e`)."""
    return _UNSAFE.sub(lambda match: repr(match.group())[1:-1], text)


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    click.echo(safe(text), err=err, nl=nl)


def echo_json(data: Any, *, err: bool = False) -> None:
    """`data` as indented JSON."""
    echo_data(json.dumps(data, indent=2, ensure_ascii=False), err=err)


def echo_data(text: str, *, err: bool = False, nl: bool = True) -> None:
    """JSON or TOML text, with each unsafe character (only ever inside a string or a comment) as
    a \\uXXXX escape, which both formats read back as that same character."""
    click.echo(_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text), err=err, nl=nl)


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    """Say what went wrong on one line (on stderr) and end with `code`."""
    echo(f"error: {message}", err=True)
    sys.exit(code)
