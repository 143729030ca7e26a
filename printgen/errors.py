"""Errors split by cause. Every one is a ValueError whose message quotes the input and where it
stood; only the CLI turns them into exit codes."""

from __future__ import annotations


class PrintgenError(ValueError):
    """Base of every error printgen reports to a person."""


class InputError(PrintgenError):
    """A file or option given by the user is malformed: names the file, line or field."""


class LayoutError(PrintgenError):
    """Layout data in `layouts/` is inconsistent or unknown."""


class FitError(PrintgenError):
    """Text or an element does not fit its box: raised at build time, never clipped silently."""


class MissingGlyphError(PrintgenError):
    """A character the embedded font cannot draw."""


class OutputError(PrintgenError):
    """A file printgen was asked to write cannot be written there: names the path and why."""


# An error message quotes at most this many characters of a bad value, then says how long it was.
QUOTE_LIMIT = 60


def quote(value: object) -> str:
    """`value` as Python's repr writes it (control characters and lone surrogates escaped, so it
    is safe on a terminal), cut to about QUOTE_LIMIT characters for an error message."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer past 4,300 digits, or a deep tree
        return f"a {type(value).__name__} too large to show"
    if len(text) <= QUOTE_LIMIT:
        return text
    size = len(value) if isinstance(value, str) else len(text)
    return f"{text[: QUOTE_LIMIT - 5]}... ({size:,} characters)"
