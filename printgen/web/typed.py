"""Typed-in sheets from the phone: the text as a phone keyboard sends it, scored as the command
line scores a file, and a blank sheet per game to start from.

A phone's keyboard turns quotes curly (iOS smart punctuation): they are read as straight quotes.
A sheet with squares still empty, or a log that stops before the game's end, is not an error: it
is scored as the standing so far. A Package War! game log is replayed move by move, as its
game's own command replays it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from printgen.errors import PrintgenError
from printgen.materials import ScoreReport
from printgen.scoring import parse_document, score_document

# Curly quotes (and the low ones some keyboards give) to the straight quotes TOML and JSON use.
STRAIGHT = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "‚": "'"})


def straighten(text: str) -> str:
    return text.replace("\r\n", "\n").translate(STRAIGHT)


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def parse(text: str, source: str, form_format: str) -> Mapping[str, Any]:
    """A pasted or uploaded sheet as a mapping; `form_format` is auto, toml or json."""
    as_json = form_format == "json" or (form_format == "auto" and looks_like_json(text))
    return parse_document(straighten(text), source, as_json)


def score(document: Mapping[str, Any], source: str) -> ScoreReport:
    """The referee's report; for an unfinished game, the standing so far."""
    if document.get("game") == "package-war" and "moves" in document:
        from printgen.games.package_war.log import parse_log, play_log

        return play_log(parse_log(document, source))
    try:
        return score_document(document, source, partial=False)
    except PrintgenError:
        # Scored again as a standing: if only unfinished squares or moves were refused, that is
        # the result; if the sheet is wrong, this raises the referee's message for it.
        return score_document(document, source, partial=True)


@dataclass(frozen=True)
class Blank:
    name: str  # in the URL: ?blank=NAME
    title: str
    text: str


def blanks() -> tuple[Blank, ...]:
    """A sheet to complete for each kind of sheet the referees score."""
    from printgen.games.one_page_war.layout import load_layout

    arenas = [(a.name, a.squares) for a in load_layout("standard").arenas]
    return (
        Blank("one-page-war", "One Page War: a duel", _war_sheet(arenas, "duel")),
        Blank("one-page-war-solo", "One Page War: a solo game", _war_sheet(arenas, "solo")),
        Blank("one-page-war-team", "One Page War: a team game", _war_team(arenas)),
        Blank("one", "ONE: a final position", ONE_BLANK),
        Blank("package-war", "Package War!: the end of a round", PACKAGE_WAR_ROUND),
        Blank("package-war-log", "Package War!: a whole game's log", PACKAGE_WAR_LOG),
        Blank("aiue-battle", "aiue battle: a game's attacks", AIUE_BLANK),
    )


def blank_named(name: str) -> Blank | None:
    return next((b for b in blanks() if b.name == name), None)


def _war_arenas(arenas: list[tuple[str, int]], players: tuple[str, str], table: str) -> str:
    lines = []
    for name, squares in arenas:
        lines += ["", f"[{table}.{name}]"]
        # Every square empty ("_"), not an empty list: the blank scores as a game not begun,
        # where `[]` had given two errors an arena, and shows how many squares each side has.
        empty = ", ".join(['"_"'] * squares)
        lines += [f"{player} = [{empty}]" for player in players]
    return "\n".join(lines)


def _war_sheet(arenas: list[tuple[str, int]], mode: str) -> str:
    players = ("You", "AI") if mode == "solo" else ("First", "Second")
    star = ' "*" for the AI\'s star,' if mode == "solo" else ""
    head = f"""# One Page War, {mode}. Fill each list with the numbers written in the squares,
# in order;{star} "_" for a square still empty. Rename the players (the first is the
# near side).
# Add `allies = true` under an arena where a big S was written.
game = "one-page-war"
mode = "{mode}"
players = ["{players[0]}", "{players[1]}"]
"""
    return head + _war_arenas(arenas, players, "arenas") + "\n"


def _war_team(arenas: list[tuple[str, int]]) -> str:
    head = """# One Page War, a team game: the two teams, then one [[sheets]] per pair of opponents.
# Fill each list with the numbers written in the squares, in order; "_" for one still empty.
game = "one-page-war"
mode = "team"
teams = { North = ["Ann", "Cid"], South = ["Ben", "Dee"] }
"""
    sheets = []
    for pair in (("Ann", "Ben"), ("Cid", "Dee")):
        sheets.append(f'\n[[sheets]]\nplayers = ["{pair[0]}", "{pair[1]}"]\n')
        sheets.append(_war_arenas(arenas, pair, "sheets.arenas") + "\n")
    return head + "".join(sheets)


ONE_BLANK = """# ONE: the final position. Each player's stones as [ring, spoke] pairs, and the
# stones they captured. Rename or add players as at the table.
game = "one"
board = { spokes = 16, rings = 6 }

[players.Red]
stones = []
captured = 0

[players.Blue]
stones = []
captured = 0
"""

PACKAGE_WAR_ROUND = """# Package War!: the end of one distribution phase. For each player: the
# score on the pad before the round, the stacks on their two tables (bottom first, e.g.
# [[5, 3, 1], [4]]) and how many of their packages were crushed this round.
game = "package-war"

[players.First]
score = 5
tables = [[], []]
crushed = 0

[players.Second]
score = 5
tables = [[], []]
crushed = 0
"""

PACKAGE_WAR_LOG = """# Package War!: a whole game's log, replayed move by move. The roll-off in
# player order, then every move as "NAME: roll N", "NAME: take N on T" or "NAME: push N on T".
game = "package-war"
players = ["First", "Second"]
dice = 26
start = []
moves = []
"""

AIUE_BLANK = """# aiue battle: the players in seat order, every letter attacked in order, and each
# player's word. alphabet = "latin" or "kana".
game = "aiue-battle"
alphabet = "latin"
players = []
attacks = []

[words]
"""
