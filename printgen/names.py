"""Players' names as typed in, checked the same way by every referee.

A name is text of 1 to MAX_NAME characters with no spaces at its ends: " Ann" would look like
Ann on every sheet and in every message, yet never match her moves. Control characters are
allowed (they are the player's to choose) and shown escaped on a terminal (printgen.console)."""

from __future__ import annotations

from printgen.errors import InputError, quote

MAX_NAME = 40


def player_name(value: object, where: str) -> str:
    """`value` if it is a usable player's name; InputError naming `where` otherwise."""
    if not isinstance(value, str):
        raise InputError(f"{where}: a player's name is text in quotes, not {quote(value)}")
    if not value.strip():
        raise InputError(f"{where}: a player's name cannot be empty")
    if value != value.strip():
        raise InputError(
            f"{where}: the name {quote(value)} has spaces at its ends; write it without them"
        )
    if len(value) > MAX_NAME:
        raise InputError(
            f"{where}: the name {quote(value)} is longer than the {MAX_NAME} characters "
            "a sheet has room for"
        )
    return value
