"""What the unsure cells of a photographed sheet can change: who wins each arena, and the game.

A sheet read with unsure cells is provisional. Yet the cells the reader is sure of often decide
the result already: an arena's unsure squares may hold any number the sheet allows and the
arena still goes the same way. A player who only wants to know who won then need not check
those cells (they still should, for a true record), and a player who checks starts with the
cells that can change the result.

Nothing here trusts the recogniser's guesses: an unsure square may hold any value a square on
its side can hold on this layout (every number up to the most its Armored support and Stolen
Intel boxes could reach, and a star on the solo AI's side), and an unsure S space may hold an S
or not. The claim rests only on the cells read surely, which the reader's calibration answers
for. Tick boxes decide no arena, so their doubt changes nothing here.

`stakes(reading, sheet) -> Stakes`, for a finished duel or solo sheet as the referee parsed it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from printgen.games.one_page_war.geometry import Side as SheetSide
from printgen.games.one_page_war.reader.cells import Reading, SheetReading
from printgen.games.one_page_war.referee import leader_of
from printgen.games.one_page_war.rules import Mark, Square, evaluate
from printgen.games.one_page_war.sheet import (
    ARMORED_SUPPORT,
    STOLEN_INTEL,
    Arena,
    Mode,
    Reach,
    Sheet,
    square_problem,
)

# One side's unsure squares are tried as multisets of values (a hand depends on which numbers
# a side holds, not on their order); past this many, the side counts as able to hold anything.
MOST_TRIED = 20_000


@dataclass(frozen=True)
class ArenaStakes:
    arena: str
    winners: frozenset[str | None]  # who can win it whatever its unsure cells hold (None: a tie)
    unsure: int  # its unsure cells (squares and S space)


@dataclass(frozen=True)
class Stakes:
    """Who can win, whatever the unsure cells hold."""

    arenas: tuple[ArenaStakes, ...]
    winners: frozenset[str | None]  # who can win the game (None: a draw)

    @property
    def holds(self) -> bool:
        """The game's winner is the same whatever the unsure cells hold."""
        return len(self.winners) == 1

    @property
    def open_arenas(self) -> tuple[ArenaStakes, ...]:
        """The arenas whose winner their unsure cells can change."""
        return tuple(a for a in self.arenas if len(a.winners) > 1)

    @property
    def deciding(self) -> int:
        """The unsure cells that can change who wins: those of the arenas they can swing, while
        the game's winner is open (once it holds, none)."""
        return 0 if self.holds else sum(a.unsure for a in self.open_arenas)

    def to_text(self, unsure: int) -> str:
        """The line the report prints under its `unsure` cells."""
        if self.holds:
            (winner,) = self.winners
            result = f"{winner} wins" if winner is not None else "a draw"
            return f"whatever the {unsure} unsure cell(s) hold, the result stands: {result}"
        names = ", ".join(a.arena for a in self.open_arenas)
        others = unsure - self.deciding
        rest = f"; the other {others} cannot change who wins" if others else ""
        return (
            f"who wins turns on the unsure cells in {names} ({self.deciding} of the {unsure}): "
            f"check those first{rest}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "result_holds": self.holds,
            "winners": sorted(self.winners, key=lambda w: (w is None, w or "")),
            "open_arenas": [a.arena for a in self.open_arenas],
            "deciding_unsure": self.deciding,
        }


def stakes(reading: SheetReading, sheet: Sheet) -> Stakes:
    """What the unsure cells of `reading` can change on `sheet` (the referee's parse of the
    reading, every square filled)."""
    allies_unsure = {r.element.arena for r in reading.allies if r.unsure}
    found = []
    for arena in sheet.arenas:
        squares = [r for r in reading.squares if r.element.arena == arena.name]
        found.append(_arena_stakes(arena, squares, arena.name in allies_unsure, sheet))
    winners = frozenset(
        leader_of(sheet.players, sheet.mode, choice)
        for choice in itertools.product(*(sorted(a.winners, key=str) for a in found))
    )
    return Stakes(tuple(found), winners)


def _arena_stakes(
    arena: Arena, squares: list[Reading], allies_unsure: bool, sheet: Sheet
) -> ArenaStakes:
    unsure_at = [
        {i for i, r in enumerate(_in_order(squares, side)) if r.unsure}
        for side in (SheetSide.FIRST, SheetSide.SECOND)
    ]
    players = {1: arena.sides[0].player, -1: arena.sides[1].player}
    winners: set[str | None] = set()
    for allies in (False, True) if allies_unsure else (arena.allies,):
        first, second = (
            _keys(arena.sides[k].squares, unsure_at[k], _values(sheet, k), allies) for k in (0, 1)
        )
        winners |= {players.get(outcome) for outcome in _outcomes(first, second)}
    unsure = sum(len(u) for u in unsure_at) + int(allies_unsure)
    return ArenaStakes(arena.name, frozenset(winners), unsure)


def _in_order(squares: list[Reading], side: SheetSide) -> list[Reading]:
    """One side's square readings in the order the sheet lists that side's numbers."""
    return sorted((r for r in squares if r.element.side is side), key=lambda r: r.element.index)


def _values(sheet: Sheet, side: int) -> tuple[Square, ...]:
    """Every value a square of this side can hold on the sheet's layout, whatever its ticks."""
    boxes = {a.power: a.ticks for a in sheet.layout.arenas}
    solo = sheet.mode is Mode.SOLO
    reach = Reach(boxes.get(ARMORED_SUPPORT, 0), boxes.get(STOLEN_INTEL, 0), solo)
    ai_side = solo and side == 1
    numbers = [
        v
        for v in range(reach.highest + 1)
        if square_problem(v, sheet.mode, ai_side) is None
        and (ai_side or reach.number_problem(v) is None)
    ]
    star = [Mark.STAR] if square_problem(Mark.STAR, sheet.mode, ai_side) is None else []
    return (*numbers, *star)


Key = tuple[int, int, int]


def _keys(
    read: Sequence[Square], unsure: set[int], values: Sequence[Square], allies: bool
) -> set[Key] | None:
    """The keys of every hand the side can make (a larger key wins, equal keys tie) with its
    unsure squares holding any of `values`; None when too many to try: then any hand."""
    if comb(len(values) + len(unsure) - 1, len(unsure)) > MOST_TRIED:
        return None
    fixed = [sq for i, sq in enumerate(read) if i not in unsure]
    keys = set()
    for chosen in itertools.combinations_with_replacement(values, len(unsure)):
        # In one order, so that the rules' lookup of scored sides holds each multiset once,
        # however many sheets are weighed (a hand's key does not depend on the order).
        squares = sorted([*fixed, *chosen], key=_in_number_order)
        if squares.count(Mark.STAR) <= 1:  # a side holds at most one star
            keys.add(evaluate(squares, allies).key)
    return keys


def _in_number_order(square: Square) -> tuple[int, int]:
    return (0, square) if isinstance(square, int) else (1, 0)  # a star last


def _outcomes(first: set[Key] | None, second: set[Key] | None) -> set[int]:
    """Which outcomes (+1 first wins, -1 second wins, 0 tie) the two sides' hands can reach."""
    if first is None or second is None:
        return {1, -1, 0}
    found = set()
    if max(first) > min(second):
        found.add(1)
    if max(second) > min(first):
        found.add(-1)
    if first & second:
        found.add(0)
    return found
