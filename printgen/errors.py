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
