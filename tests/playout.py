"""One Page War games played by the rulebook, from a seed: the sheets the photo corpus writes.

Each turn a die is rolled; the roller writes it on their side, then the rival writes the same
number in another arena (the same one only when no other has room on their side). A player whose
side of an arena is full may use that arena's power once per write, with its real effect, and
ticks one of its boxes on both sides: Armored support moves one number a step up or down, Air
raid puts the die's number in place of one of theirs, Redeployment swaps two of their numbers in
neighbouring arenas, Allies writes the S, Stolen Intel writes a copy of one of the rival's numbers
in that arena instead of the die. In solo the human writes first every round and the AI's turn is
the project's own (`solo_ai.ai_turn`: die + 1, its arena choice, its ticks and stars). In a team
game one team rolls a die per player and shares them out, each rival writing their own player's
number; the sheets are played side by side.

Players differ (`Style`): some take the square and power that help their side most, some play
more at random, some use every power they can and some few. A team's players never give a power's
use to a team-mate (the rulebook allows it; the typed-in referee bounds each sheet by its own
ticks, ruling 14 in docs/rulings.md, and a gifted use would break that bound).

    play_game(rng, "duel" | "solo" | "team", finished=True, pairs=2) -> Playout
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from printgen.games.one_page_war import solo_ai
from printgen.games.one_page_war.layout import Layout, load_layout
from printgen.games.one_page_war.rules import Mark, Square, evaluate
from printgen.games.one_page_war.sheet import (
    ALLIES_POWER,
    ARMORED_SUPPORT,
    STOLEN_INTEL,
    Mode,
    Sheet,
    parse_sheet,
)

AIR_RAID = "Air raid"
REDEPLOYMENT = "Redeployment"
DIE = range(1, 7)


@dataclass(frozen=True)
class Style:
    """How one player plays: the chance of taking the best move rather than any legal one, and of
    using a power when one is open (and, for a careful player, helps)."""

    greed: float
    eagerness: float


def random_style(rng: np.random.Generator) -> Style:
    return Style(greed=float(rng.uniform(0.3, 1.0)), eagerness=float(rng.uniform(0.2, 1.0)))


@dataclass(frozen=True)
class Playout:
    """A game as far as it was played: one sheet (duel, solo) or one per pair (team)."""

    mode: Mode
    sheets: tuple[Sheet, ...]
    finished: bool
    teams: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def mapping(self) -> dict[str, Any]:
        """What a person would type in for it: the referee's TOML/JSON mapping."""
        if self.mode is not Mode.TEAM:
            return self.sheets[0].to_mapping()
        assert self.teams is not None
        sheets = []
        for sheet in self.sheets:
            data = sheet.to_mapping()
            sheets.append({"players": data["players"], "arenas": data["arenas"]})
        return {
            "game": "one-page-war",
            "layout": self.sheets[0].layout.name,
            "mode": "team",
            "teams": {"Team 1": list(self.teams[0]), "Team 2": list(self.teams[1])},
            "sheets": sheets,
        }


def empty_sheet(layout: Layout, mode: Mode, players: tuple[str, str]) -> Sheet:
    """A fresh sheet whose tick counts are written down (all 0), as the game starts."""
    arenas = {
        a.name: {
            players[0]: ["_"] * a.squares,
            players[1]: ["_"] * a.squares,
            "ticks": {players[0]: 0, players[1]: 0},
        }
        for a in layout.arenas
    }
    data = {
        "game": "one-page-war",
        "layout": layout.name,
        "mode": mode.value,
        "players": list(players),
        "arenas": arenas,
    }
    sheet = parse_sheet(data)
    assert isinstance(sheet, Sheet)
    return sheet


# --- how good a side is, for the players' choices ----------------------------------------------


def _strength(squares: tuple[Square, ...], allies: bool) -> float:
    """A rough worth of one side of an arena, full or not: its combination so far."""
    filled = [s for s in squares if s is not Mark.EMPTY]
    if len(filled) < 2:
        return 0.1 * sum(s for s in filled if isinstance(s, int))
    rank, combo, rest = evaluate(filled, allies).key
    return 10.0 * rank + 0.5 * combo + 0.1 * rest


def _worth(sheet: Sheet, player: str) -> float:
    """The player's side against the rival's, summed over the arenas."""
    total = 0.0
    for arena in sheet.arenas:
        mine, theirs = (arena.side(p).squares for p in _pair(sheet, player))
        total += _strength(mine, arena.allies) - 0.5 * _strength(theirs, arena.allies)
    return total


def _pair(sheet: Sheet, player: str) -> tuple[str, str]:
    first, second = sheet.players
    return (first, second) if player == first else (second, first)


# --- one player's write ----------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    sheet: Sheet
    arena: str  # where the number was written
    power: str | None  # the power used with it, if any


def _open_powers(sheet: Sheet, player: str) -> list[str]:
    """Arenas whose power the player may use now: their side there full, a box left."""
    return [a.name for a in sheet.arenas if a.side(player).is_full and a.boxes_left > 0]


def _tick(sheet: Sheet, arena: str, player: str) -> Sheet:
    return sheet.with_ticks(arena, player, sheet.arena(arena).side(player).uses + 1)


def _writes(sheet: Sheet, player: str, die: int, forbidden: str | None) -> Iterator[Move]:
    """Every legal write of the die, and with Stolen Intel open every copy of a rival number."""
    rival = _pair(sheet, player)[1]
    with_room = [a for a in sheet.arenas if not a.side(player).is_full]
    elsewhere = [a for a in with_room if a.name != forbidden]
    espionage = next(
        (n for n in _open_powers(sheet, player) if sheet.arena(n).spec.power == STOLEN_INTEL), None
    )
    for arena in elsewhere or with_room:
        square = arena.side(player).squares.index(Mark.EMPTY)
        yield Move(sheet.with_square(arena.name, player, square, die), arena.name, None)
        if espionage is not None:
            copies = {s for s in arena.side(rival).squares if isinstance(s, int) and s != die}
            for value in sorted(copies):
                copied = sheet.with_square(arena.name, player, square, value)
                yield Move(_tick(copied, espionage, player), arena.name, STOLEN_INTEL)


def _powers(sheet: Sheet, player: str, die: int) -> Iterator[tuple[Sheet, str]]:
    """Every use of an open power other than Stolen Intel (which replaces the write)."""
    layout = sheet.layout
    for name in _open_powers(sheet, player):
        power = sheet.arena(name).spec.power
        ticked = _tick(sheet, name, player)
        mine = [
            (a.name, i, s)
            for a in sheet.arenas
            for i, s in enumerate(a.side(player).squares)
            if isinstance(s, int)
        ]
        if power == ARMORED_SUPPORT:
            for arena, i, s in mine:
                for value in (s - 1, s + 1):
                    if value >= 0:
                        yield ticked.with_square(arena, player, i, value), power
        elif power == AIR_RAID:
            for arena, i, s in mine:
                if s != die:
                    yield ticked.with_square(arena, player, i, die), power
        elif power == REDEPLOYMENT:
            for (a, i, s), (b, j, t) in itertools.combinations(mine, 2):
                if s != t and b in layout.neighbours(a):
                    swapped = ticked.with_square(a, player, i, t).with_square(b, player, j, s)
                    yield swapped, power
        elif power == ALLIES_POWER:
            for a in sheet.arenas:
                if not a.allies:
                    yield ticked.with_allies(a.name), power


def _choose(options: list[Any], gains: list[float], style: Style, rng: np.random.Generator) -> Any:
    if rng.random() < style.greed:
        best = max(gains)
        options = [o for o, g in zip(options, gains, strict=True) if g >= best - 1e-9]
    return options[int(rng.integers(0, len(options)))]


def player_write(
    sheet: Sheet,
    player: str,
    die: int,
    forbidden: str | None,
    style: Style,
    rng: np.random.Generator,
) -> Move:
    """One player writes the die (or a Stolen Intel copy) and may use one power."""
    before = _worth(sheet, player)
    writes = list(_writes(sheet, player, die, forbidden))
    plain = [m for m in writes if m.power is None]
    use_power = rng.random() < style.eagerness
    pool = writes if use_power else plain
    move = _choose(pool, [_worth(m.sheet, player) - before for m in pool], style, rng)
    if move.power is not None or not use_power:
        return move
    powers = list(_powers(move.sheet, player, die))
    if not powers:
        return move
    after = _worth(move.sheet, player)
    gains = [_worth(s, player) - after for s, _ in powers]
    # A careful player uses a power only where it helps; one who plays at random, anywhere.
    if rng.random() < style.greed and max(gains) <= 0:
        return move
    changed, power = _choose(powers, gains, style, rng)
    return Move(changed, move.arena, power)


# --- whole games -----------------------------------------------------------------------------


def play_game(
    rng: np.random.Generator,
    mode: str = "duel",
    finished: bool = True,
    version: int | None = None,
    pairs: int = 2,
) -> Playout:
    """A game played by the rulebook from `rng`; unfinished, it stops after a random number of
    writes (possibly between a roller's write and the rival's). `version` is accepted for the
    corpus's sake: every version of the standard layout has the same arenas."""
    layout = load_layout("standard", version)
    game = Mode(mode)
    total = 2 * sum(a.squares for a in layout.arenas)  # writes on one sheet
    stop = total if finished else int(rng.integers(1, total))
    if game is Mode.SOLO:
        return Playout(game, (_solo(layout, stop, rng),), finished)
    if game is Mode.DUEL:
        return Playout(game, (_duel(layout, stop, rng),), finished)
    return _team(layout, stop, pairs, rng, finished)


def _duel(layout: Layout, stop: int, rng: np.random.Generator) -> Sheet:
    players = ("First", "Second")
    sheet = empty_sheet(layout, Mode.DUEL, players)
    styles = {p: random_style(rng) for p in players}
    roller = int(rng.integers(0, 2))
    writes = 0
    while writes < stop:
        die = int(rng.integers(1, 7))
        first, second = players[roller], players[1 - roller]
        move = player_write(sheet, first, die, None, styles[first], rng)
        sheet, writes = move.sheet, writes + 1
        if writes < stop:
            sheet = player_write(sheet, second, die, move.arena, styles[second], rng).sheet
            writes += 1
        roller = 1 - roller
    return sheet


def _solo(layout: Layout, stop: int, rng: np.random.Generator) -> Sheet:
    human, ai = "You", "AI"
    sheet = empty_sheet(layout, Mode.SOLO, (human, ai))
    style = random_style(rng)
    writes = 0
    while writes < stop:
        die = int(rng.integers(1, 7))
        move = player_write(sheet, human, die, None, style, rng)
        sheet, writes = move.sheet, writes + 1
        if writes < stop:
            sheet = solo_ai.ai_turn(sheet, die, move.arena).apply(sheet)
            writes += 1
    return sheet


def _team(
    layout: Layout, stop: int, pairs: int, rng: np.random.Generator, finished: bool
) -> Playout:
    near = tuple(f"First {k + 1}" for k in range(pairs))
    far = tuple(f"Second {k + 1}" for k in range(pairs))
    sheets = [empty_sheet(layout, Mode.DUEL, (near[k], far[k])) for k in range(pairs)]
    styles = {p: random_style(rng) for p in near + far}
    rolling = int(rng.integers(0, 2))
    writes = 0
    while writes < stop:
        team, rivals = (near, far) if rolling == 0 else (far, near)
        dice = [int(d) for d in rng.integers(1, 7, pairs)]
        shares = _share_out(sheets, team, dice, styles, rng)
        arenas = []
        for k in range(pairs):
            move = player_write(sheets[k], team[k], shares[k], None, styles[team[k]], rng)
            sheets[k] = move.sheet
            arenas.append(move.arena)
        writes += 1
        if writes < stop:
            for k in range(pairs):
                write = player_write(
                    sheets[k], rivals[k], shares[k], arenas[k], styles[rivals[k]], rng
                )
                sheets[k] = write.sheet
            writes += 1
        rolling = 1 - rolling
    return Playout(Mode.TEAM, tuple(sheets), finished, (near, far))


def _share_out(
    sheets: list[Sheet],
    team: tuple[str, ...],
    dice: list[int],
    styles: dict[str, Style],
    rng: np.random.Generator,
) -> list[int]:
    """The rolling team's dice, one to each player: as rolled, or the sharing-out that helps the
    team most (the team's greediest player decides)."""
    greed = max(styles[p].greed for p in team)
    if rng.random() >= greed:
        return dice

    def best_gain(k: int, die: int) -> float:
        sheet, player = sheets[k], team[k]
        before = _worth(sheet, player)
        return max(_worth(m.sheet, player) - before for m in _writes(sheet, player, die, None))

    gains = {(k, d): best_gain(k, d) for k in range(len(team)) for d in set(dice)}
    orders = set(itertools.permutations(dice))
    return list(max(sorted(orders), key=lambda o: sum(gains[k, d] for k, d in enumerate(o))))


def is_legal(playout: Playout) -> bool:
    """The typed-in referee accepts the game (it raises otherwise)."""
    return parse_sheet(playout.mapping()) is not None
