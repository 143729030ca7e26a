"""ONE, the rules: a circular board of intersections, stones in groups, capture jumps, the end.

Pure: no I/O and no randomness. A board is spokes crossing rings; [ring, spoke] names an
intersection, ring 1 innermost, spoke 1 at the top, spokes counted clockwise. There is no
intersection at the centre (a ruling, see docs/rulings.md): the spokes stop at ring 1.

Moves follow the project's pattern: verify_x() raises, can_x() answers, x() applies and returns a
frozen record; a `Match` keeps the records as its log and applies the end-of-game rule."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import TypeVar

from printgen.errors import InputError, PrintgenError, quote

MIN_PLAYERS = 2
MAX_PLAYERS = 6
# With fewer spokes a ring jump of two steps could reach its landing both ways round.
MIN_SPOKES = 5
MIN_RINGS = 2
# A board players could draw and play on: four times the standard 16 spokes by 6 rings. Past
# this, a "board" is a typing slip (or a 10**9-spoke attempt to exhaust memory).
MAX_SPOKES = 64
MAX_RINGS = 24
CAPTURE_POINTS = 2


class InvalidPosition(InputError):
    """A position that cannot stand on the board: malformed, off the board, doubled, unknown."""


class OffBoard(InvalidPosition):
    """A coordinate naming no intersection of the board."""


class DoubledStone(InvalidPosition):
    """Two stones on one intersection."""


class UnknownPlayer(InvalidPosition):
    """A player's name the position does not have."""


class IllegalMove(PrintgenError):
    """A move against the rules of ONE."""


class IllegalCapture(IllegalMove):
    """A capture jump the rules do not allow."""


class IllegalPlacement(IllegalMove):
    """A stone placed where or when the rules do not allow."""


class IllegalTurn(IllegalMove):
    """A move out of turn, or a move after the game ended."""


_POINT_TEXT = re.compile(r"^\s*\[?\s*(-?\d+)\s*,\s*(-?\d+)\s*\]?\s*$")


@dataclass(frozen=True, order=True)
class Point:
    """An intersection, [ring, spoke]. Whether it is on a given board is the board's question."""

    ring: int
    spoke: int

    @classmethod
    def from_text(cls, text: str) -> Point:
        """`"2,5"` or `"[2, 5]"` as typed on the command line."""
        match = _POINT_TEXT.match(text)
        if match is None:
            raise InvalidPosition(
                f"{quote(text)} is not a coordinate; write RING,SPOKE such as 2,5"
            )
        return cls(int(match.group(1)), int(match.group(2)))

    def to_text(self) -> str:
        return f"{self.ring},{self.spoke}"

    def __repr__(self) -> str:
        return f"Point({self.ring}, {self.spoke})"


class Direction(Enum):
    """The four ways a line leaves an intersection. Nothing else connects: no diagonals."""

    OUT = (1, 0)
    IN = (-1, 0)
    CLOCKWISE = (0, 1)
    ANTICLOCKWISE = (0, -1)

    @property
    def along_spoke(self) -> bool:
        return self.value[1] == 0


@dataclass(frozen=True)
class Board:
    spokes: int = 16
    rings: int = 6

    def __post_init__(self) -> None:
        if self.spokes < MIN_SPOKES:
            raise InvalidPosition(
                f"a board needs at least {MIN_SPOKES} spokes (got {self.spokes}): with fewer, a "
                "jump along a ring could land on the same intersection going either way round"
            )
        if self.rings < MIN_RINGS:
            raise InvalidPosition(f"a board needs at least {MIN_RINGS} rings (got {self.rings})")
        if self.spokes > MAX_SPOKES or self.rings > MAX_RINGS:
            raise InvalidPosition(
                f"a board of {self.spokes:,} spokes and {self.rings:,} rings is larger than any "
                f"drawn board; at most {MAX_SPOKES} spokes and {MAX_RINGS} rings"
            )

    def contains(self, point: Point) -> bool:
        return 1 <= point.ring <= self.rings and 1 <= point.spoke <= self.spokes

    def check(self, point: Point, where: str) -> Point:
        """`point`, or OffBoard naming `where` it was given and the board's bounds."""
        if not self.contains(point):
            raise OffBoard(
                f"{where}: [{point.ring}, {point.spoke}] is off the board; rings run 1 to "
                f"{self.rings} (1 innermost) and spokes 1 to {self.spokes}"
            )
        return point

    @property
    def points(self) -> tuple[Point, ...]:
        return tuple(
            Point(r, s) for r in range(1, self.rings + 1) for s in range(1, self.spokes + 1)
        )

    def step(self, point: Point, direction: Direction) -> Point | None:
        """The next intersection along a line, or None where the line ends.

        A ring closes on itself: clockwise from the last spoke is spoke 1. A spoke ends at the
        outer ring and, with no centre intersection, at ring 1."""
        d_ring, d_spoke = direction.value
        ring = point.ring + d_ring
        if not 1 <= ring <= self.rings:
            return None
        spoke = (point.spoke - 1 + d_spoke) % self.spokes + 1
        return Point(ring, spoke)

    def neighbours(self, point: Point) -> tuple[Point, ...]:
        found = (self.step(point, d) for d in Direction)
        return tuple(p for p in found if p is not None)

    def connected(self, a: Point, b: Point) -> bool:
        """True when a line joins `a` and `b` with no intersection between them."""
        return b in self.neighbours(a)

    def direction_between(self, start: Point, landing: Point) -> Direction | None:
        """The direction of a two-step jump from `start` to `landing`, if it is one."""
        for direction in Direction:
            middle = self.step(start, direction)
            if middle is not None and self.step(middle, direction) == landing:
                return direction
        return None


@dataclass(frozen=True)
class Position:
    """Stones on a board, the players in turn order, and what each player has captured."""

    board: Board
    owners: Mapping[Point, str]
    captured: Mapping[str, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "owners", MappingProxyType(dict(sorted(self.owners.items()))))
        object.__setattr__(self, "captured", MappingProxyType(dict(self.captured)))
        for point, owner in self.owners.items():
            if owner not in self.captured:
                raise UnknownPlayer(
                    f"the stone at [{point.ring}, {point.spoke}] belongs to {quote(owner)}, "
                    f"who is not a player; players: {', '.join(self.players)}"
                )
            self.board.check(point, f"{owner}'s stone")
        for player, count in self.captured.items():
            if count < 0:
                raise InvalidPosition(
                    f"players.{player}.captured is {count}; it cannot be negative"
                )

    @classmethod
    def from_stones(
        cls,
        board: Board,
        stones: Mapping[str, Iterable[Point]],
        captured: Mapping[str, int] | None = None,
    ) -> Position:
        """Each player's stones; the mapping's order is the turn order. Raises DoubledStone."""
        owners: dict[Point, str] = {}
        for player, points in stones.items():
            for index, point in enumerate(points):
                board.check(point, f"players.{player}.stones[{index}]")
                if point in owners:
                    other = owners[point]
                    whose = "another of its own" if other == player else f"{other}'s stone"
                    raise DoubledStone(
                        f"players.{player}.stones[{index}]: [{point.ring}, {point.spoke}] "
                        f"already holds {whose}; one intersection holds one stone"
                    )
                owners[point] = player
        counts = {player: (captured or {}).get(player, 0) for player in stones}
        unknown = set(captured or {}) - set(stones)
        if unknown:
            raise UnknownPlayer(
                f"captured counts for {', '.join(sorted(unknown))}, who have no stones entry; "
                f"players: {', '.join(stones)}"
            )
        return cls(board, owners, counts)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.captured)

    def check_player(self, player: str) -> str:
        if player not in self.captured:
            raise UnknownPlayer(
                f"unknown player {quote(player)}; this position's players: "
                f"{', '.join(self.players)}"
            )
        return player

    def owner(self, point: Point) -> str | None:
        return self.owners.get(point)

    def stones_of(self, player: str) -> tuple[Point, ...]:
        self.check_player(player)
        return tuple(p for p, owner in self.owners.items() if owner == player)

    def groups(self, player: str) -> list[frozenset[Point]]:
        """The player's stones split into connected groups, largest first."""
        remaining = set(self.stones_of(player))
        found: list[frozenset[Point]] = []
        while remaining:
            seed = min(remaining)
            group = {seed}
            queue = deque([seed])
            while queue:
                for near in self.board.neighbours(queue.popleft()):
                    if near in remaining and near not in group:
                        group.add(near)
                        queue.append(near)
            remaining -= group
            found.append(frozenset(group))
        return sorted(found, key=lambda g: (-len(g), min(g)))

    def largest_group(self, player: str) -> int:
        groups = self.groups(player)
        return len(groups[0]) if groups else 0

    def score(self, player: str) -> int:
        return self.largest_group(player) + CAPTURE_POINTS * self.captured[player]

    def with_stone(self, point: Point, player: str) -> Position:
        return Position(self.board, {**self.owners, point: player}, self.captured)

    def stones_by_player(self) -> dict[str, list[Point]]:
        return {player: list(self.stones_of(player)) for player in self.players}

    def to_mapping(self) -> dict[str, object]:
        """The position as the typed-in mapping it is read from."""
        return {
            "game": "one",
            "board": {"spokes": self.board.spokes, "rings": self.board.rings},
            "players": {
                player: {
                    "stones": [[p.ring, p.spoke] for p in points],
                    "captured": self.captured[player],
                }
                for player, points in self.stones_by_player().items()
            },
        }

    def to_toml(self) -> str:
        """The position as a typed-in file: it parses back to `to_mapping()` exactly, whatever
        the players are called."""
        import tomlkit

        from printgen.tomldoc import inline

        data = self.to_mapping()
        document = tomlkit.document()
        document["game"] = data["game"]
        document["board"] = inline(data["board"])  # type: ignore[arg-type]
        document["players"] = data["players"]
        return tomlkit.dumps(document)

    def __repr__(self) -> str:
        stones = {player: points for player, points in self.stones_by_player().items()}
        return f"Position.from_stones({self.board!r}, {stones!r}, {dict(self.captured)!r})"


# ---------------------------------------------------------------------------------------------
# Placing a stone


@dataclass(frozen=True)
class Placement:
    player: str
    point: Point
    after: Position

    def to_text(self) -> str:
        return f"{self.player} places {self.point.to_text()}"


def verify_place(position: Position, player: str, point: Point) -> None:
    position.check_player(player)
    position.board.check(point, f"{player} places")
    owner = position.owner(point)
    if owner is not None:
        raise IllegalPlacement(
            f"{player} cannot place at [{point.ring}, {point.spoke}]: {owner}'s stone is there"
        )


def can_place(position: Position, player: str, point: Point) -> bool:
    try:
        verify_place(position, player, point)
    except (IllegalMove, InvalidPosition):
        return False
    return True


def place(position: Position, player: str, point: Point) -> Placement:
    verify_place(position, player, point)
    return Placement(player, point, position.with_stone(point, player))


# ---------------------------------------------------------------------------------------------
# Capturing: a stone jumps an adjacent opponent stone to the empty intersection straight beyond
# it, and may go on jumping. Each jumped stone leaves the board at once (see docs/rulings.md).


@dataclass(frozen=True)
class Jump:
    start: Point
    over: Point
    landing: Point
    victim: str  # whose stone was jumped and removed
    direction: Direction

    def to_text(self) -> str:
        over = f"{self.over.to_text()} ({self.victim})"
        return f"{self.start.to_text()} over {over} to {self.landing.to_text()}"


@dataclass(frozen=True)
class Capture:
    player: str
    start: Point
    jumps: tuple[Jump, ...]
    after: Position

    @property
    def landing(self) -> Point:
        return self.jumps[-1].landing

    @property
    def removed(self) -> tuple[tuple[Point, str], ...]:
        """Each stone taken, with its owner, in the order jumped."""
        return tuple((jump.over, jump.victim) for jump in self.jumps)

    def to_text(self) -> str:
        path = " ".join(j.landing.to_text() for j in self.jumps)
        return f"{self.player} captures from {self.start.to_text()} via {path}"


def _where(point: Point) -> str:
    return f"[{point.ring}, {point.spoke}]"


def _jump(position: Position, player: str, start: Point, landing: Point, number: int) -> Jump:
    board = position.board
    label = f"jump {number} ({start.to_text()} to {landing.to_text()})"
    board.check(landing, label)
    direction = board.direction_between(start, landing)
    if direction is None:
        raise IllegalCapture(f"{label}: {_why_not_a_line(board, start, landing)}")
    middle = board.step(start, direction)
    assert middle is not None  # direction_between found two steps
    victim = position.owner(middle)
    if victim is None:
        raise IllegalCapture(f"{label}: there is no stone at {_where(middle)} to jump over")
    if victim == player:
        raise IllegalCapture(
            f"{label}: the stone at {_where(middle)} is {player}'s own; "
            "only an opponent's stone can be captured"
        )
    taken = position.owner(landing)
    if taken is not None:
        raise IllegalCapture(
            f"{label}: the landing {_where(landing)} is not empty ({taken}'s stone is there)"
        )
    return Jump(start, middle, landing, victim, direction)


def _why_not_a_line(board: Board, start: Point, landing: Point) -> str:
    if start == landing:
        return "a jump must move the stone"
    if board.connected(start, landing):
        return (
            f"{_where(landing)} is next to {_where(start)}; a jump passes over a stone to the "
            "intersection beyond it"
        )
    if start.ring == landing.ring == 1 and _opposite(board, start, landing):
        return (
            "a jump cannot cross the centre: there is no centre intersection, so a spoke "
            "ends at ring 1"
        )
    if start.ring != landing.ring and start.spoke != landing.spoke:
        return "a diagonal jump; jumps go straight along a ring or along a spoke"
    if start.spoke == landing.spoke:
        return (
            f"{_where(landing)} is {abs(start.ring - landing.ring)} rings away along the spoke; "
            "a jump goes exactly two steps, over the next intersection"
        )
    return (
        f"{_where(landing)} is not the intersection directly beyond the next one along the ring "
        "(a jump goes exactly two spokes round)"
    )


def _opposite(board: Board, a: Point, b: Point) -> bool:
    return board.spokes % 2 == 0 and abs(a.spoke - b.spoke) == board.spokes // 2


def verify_capture(
    position: Position, start: Point, path: Sequence[Point], player: str | None = None
) -> Capture:
    """The capture a stone at `start` makes by landing on each point of `path` in turn.

    The player is the owner of the stone at `start`; if `player` is given it must be that owner.
    Raises IllegalCapture (or InvalidPosition for coordinates off the board) naming the jump."""
    board = position.board
    board.check(start, "the capturing stone")
    mover = position.owner(start)
    if mover is None:
        raise IllegalCapture(f"there is no stone at {_where(start)} to capture with")
    if player is not None:
        position.check_player(player)
        if player != mover:
            raise IllegalCapture(f"the stone at {_where(start)} is {mover}'s, not {player}'s")
    if not path:
        raise IllegalCapture("a capture needs at least one landing intersection")
    jumps: list[Jump] = []
    current = Position(
        board, {p: o for p, o in position.owners.items() if p != start}, position.captured
    )
    here = start
    for number, landing in enumerate(path, start=1):
        jump = _jump(current, mover, here, landing, number)
        jumps.append(jump)
        owners = {p: o for p, o in current.owners.items() if p != jump.over}
        current = Position(board, owners, current.captured)
        here = landing
    captured = dict(current.captured)
    captured[mover] += len(jumps)
    after = Position(board, {**current.owners, here: mover}, captured)
    return Capture(mover, start, tuple(jumps), after)


def can_capture(
    position: Position, start: Point, path: Sequence[Point], player: str | None = None
) -> bool:
    try:
        verify_capture(position, start, path, player)
    except (IllegalMove, InvalidPosition):
        return False
    return True


def capture(
    position: Position, start: Point, path: Sequence[Point], player: str | None = None
) -> Capture:
    return verify_capture(position, start, path, player)


def single_jumps(position: Position, start: Point) -> tuple[Point, ...]:
    """Every landing the stone at `start` can reach with one jump from this position."""
    mover = position.owner(start)
    if mover is None:
        return ()
    board = position.board
    landings: list[Point] = []
    for direction in Direction:
        middle = board.step(start, direction)
        landing = board.step(middle, direction) if middle is not None else None
        if landing is None or middle is None:
            continue
        victim = position.owner(middle)
        if victim is not None and victim != mover and position.owner(landing) is None:
            landings.append(landing)
    return tuple(landings)


def capture_paths(position: Position, start: Point) -> Iterator[tuple[Point, ...]]:
    """Every legal capture path from `start`, each chain and each of its shorter beginnings."""
    mover = position.owner(start)
    if mover is None:
        return

    def extend(
        current: Position, here: Point, path: tuple[Point, ...]
    ) -> Iterator[tuple[Point, ...]]:
        for landing in single_jumps(current, here):
            step = verify_capture(current, here, (landing,))
            longer = path + (landing,)
            yield longer
            # The capture count is not needed to look further; the board after the jump is.
            yield from extend(step.after, landing, longer)

    yield from extend(position, start, ())


def any_capture(position: Position, player: str) -> bool:
    return any(single_jumps(position, p) for p in position.stones_of(player))


# ---------------------------------------------------------------------------------------------
# A match: turns, each player's supply of stones, and the end of the game.


Record = Placement | Capture
R = TypeVar("R", Placement, Capture)


@dataclass
class Match:
    """A game in progress. Players move in the order given; the first is the starting player.

    The game ends just before the starting player's turn once any player has run out of stones
    (ruling in docs/rulings.md): the round in which that happens is played to its end. Each
    player moves once a round, so whoever runs out never has to move again: nobody ever passes.
    Captures use no stone from the supply; captured stones stay with the captor."""

    position: Position
    supply: dict[str, int]
    records: list[Record] = field(default_factory=list)
    turn: int = 0  # index of the player to move

    @classmethod
    def start(cls, board: Board, players: Sequence[str], stones_each: int) -> Match:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise InvalidPosition(
                f"ONE is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
            )
        if len(set(players)) != len(players):
            raise InvalidPosition(f"two players share a name: {', '.join(players)}")
        position = Position.from_stones(board, {p: [] for p in players})
        return cls(position, {p: stones_each for p in players})

    @property
    def players(self) -> tuple[str, ...]:
        return self.position.players

    @property
    def to_move(self) -> str:
        return self.players[self.turn]

    @property
    def is_over(self) -> bool:
        return self.turn == 0 and bool(self.records) and min(self.supply.values()) == 0

    def _check_turn(self, player: str) -> None:
        self.position.check_player(player)
        if self.is_over:
            raise IllegalTurn(f"the game is over; {player} cannot move")
        if player != self.to_move:
            raise IllegalTurn(f"it is {self.to_move}'s turn, not {player}'s")

    def verify_place(self, player: str, point: Point) -> None:
        self._check_turn(player)
        if self.supply[player] == 0:
            raise IllegalPlacement(f"{player} has no stones left to place")
        verify_place(self.position, player, point)

    def can_place(self, player: str, point: Point) -> bool:
        try:
            self.verify_place(player, point)
        except (IllegalMove, InvalidPosition):
            return False
        return True

    def place(self, player: str, point: Point) -> Placement:
        self.verify_place(player, point)
        record = place(self.position, player, point)
        self.supply[player] -= 1
        return self._done(record, record.after)

    def verify_capture(self, player: str, start: Point, path: Sequence[Point]) -> Capture:
        self._check_turn(player)
        return verify_capture(self.position, start, path, player)

    def can_capture(self, player: str, start: Point, path: Sequence[Point]) -> bool:
        try:
            self.verify_capture(player, start, path)
        except (IllegalMove, InvalidPosition):
            return False
        return True

    def capture(self, player: str, start: Point, path: Sequence[Point]) -> Capture:
        record = self.verify_capture(player, start, path)
        return self._done(record, record.after)

    def _done(self, record: R, after: Position) -> R:
        self.position = after
        self.records.append(record)
        self.turn = (self.turn + 1) % len(self.players)
        return record


def winners(position: Position) -> tuple[str, ...]:
    """The players with the highest score: one winner, or several who share the win."""
    scores = {player: position.score(player) for player in position.players}
    best = max(scores.values())
    return tuple(player for player, value in scores.items() if value == best)
