"""The ONE referee: reads a typed-in position and scores it, or checks a capture on it.

    game = "one"
    board = { spokes = 16, rings = 6 }      # optional: the standard layout's board
    [players.Red]                            # players in turn order, the starting player first
    stones = [[1, 1], [1, 2], [2, 2]]        # [ring, spoke]
    captured = 2                             # opponent stones Red captured

Score = stones in the largest connected group + 2 x captured stones."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from printgen.errors import InputError, quote
from printgen.games.one.engine import (
    CAPTURE_POINTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Board,
    Capture,
    InvalidPosition,
    Point,
    Position,
    winners,
)
from printgen.games.one.layout import OneLayout, load_layout
from printgen.materials import ScoreOptions
from printgen.names import player_name

TOP_KEYS = frozenset({"game", "board", "players"})
PLAYER_KEYS = frozenset({"stones", "captured"})


def _int(value: Any, where: str) -> int:
    # TOML booleans are Python ints; `captured = true` is a typing slip, not a 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidPosition(f"{where}: expected a whole number, got {quote(value)}")
    return value


def read_position(document: Mapping[str, Any], source: str, layout: OneLayout) -> Position:
    """The position a typed-in file describes; InvalidPosition names the file and the field."""
    try:
        return _read(document, layout)
    except InvalidPosition as error:
        raise type(error)(f"{source}: {error}") from None


def _read(document: Mapping[str, Any], layout: OneLayout) -> Position:
    # `score` picks this referee by the key; `one check-capture` is given any file.
    if "game" not in document:
        raise InvalidPosition('no game key: a ONE position starts with game = "one"')
    if document["game"] != "one":
        raise InvalidPosition(f'expected game = "one", got {quote(document["game"])}')
    unknown = sorted(set(document) - TOP_KEYS)
    if unknown:
        raise InvalidPosition(
            f"unknown key {', '.join(map(quote, unknown))}; a ONE position has "
            f"{', '.join(sorted(TOP_KEYS))}"
        )
    board = _read_board(document.get("board"), layout.board)
    players = document.get("players")
    if not isinstance(players, Mapping) or not players:
        raise InvalidPosition("no [players.NAME] tables: give each player's stones and captured")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidPosition(
            f"ONE is for {MIN_PLAYERS} to {MAX_PLAYERS} players; this position has "
            f"{len(players)} ({', '.join(players)})"
        )
    stones: dict[str, list[Point]] = {}
    captured: dict[str, int] = {}
    for name, table in players.items():
        try:
            player_name(name, "players")
        except InputError as error:
            raise InvalidPosition(str(error)) from None
        where = f"players.{name}"
        if not isinstance(table, Mapping):
            raise InvalidPosition(f"{where}: expected a table with stones and captured")
        extra = sorted(set(table) - PLAYER_KEYS)
        if extra:
            raise InvalidPosition(
                f"{where}: unknown key {', '.join(map(quote, extra))}; expected stones, captured"
            )
        if "stones" not in table:
            raise InvalidPosition(
                f"{where}: no `stones` key; list the player's stones, or `stones = []` for none"
            )
        stones[name] = _read_stones(table["stones"], f"{where}.stones")
        captured[name] = _int(table.get("captured", 0), f"{where}.captured")
        if captured[name] < 0:
            raise InvalidPosition(f"{where}.captured is {captured[name]}; it cannot be negative")
    position = Position.from_stones(board, stones, captured)
    if board == layout.board:
        _check_supply(position, layout)
    return position


def _read_board(value: Any, default: Board) -> Board:
    if value is None:
        return default
    if not isinstance(value, Mapping) or set(value) - {"spokes", "rings"}:
        raise InvalidPosition(f"board: expected {{ spokes = N, rings = N }}, got {quote(value)}")
    spokes = _int(value.get("spokes", default.spokes), "board.spokes")
    rings = _int(value.get("rings", default.rings), "board.rings")
    return Board(spokes, rings)


def _read_stones(value: Any, where: str) -> list[Point]:
    if not isinstance(value, list):
        raise InvalidPosition(
            f"{where}: expected a list of [ring, spoke] pairs, got {quote(value)}"
        )
    points: list[Point] = []
    for index, item in enumerate(value):
        if not isinstance(item, list) or len(item) != 2:
            raise InvalidPosition(f"{where}[{index}]: expected [ring, spoke], got {quote(item)}")
        points.append(Point(_int(item[0], f"{where}[{index}]"), _int(item[1], f"{where}[{index}]")))
    return points


def _check_supply(position: Position, layout: OneLayout) -> None:
    """A real game cannot show more stones than the players were given (ruling: stones each)."""
    count = len(position.players)
    each = layout.stones_each(count)
    for player in position.players:
        on_board = len(position.stones_of(player))
        if on_board > each:
            raise InvalidPosition(
                f"players.{player}.stones: {on_board} stones on the board, but with {count} "
                f"players each has only {each}"
            )
    for player in position.players:
        # A captured stone is another player's: no more than the others have lost.
        lost = sum(each - len(position.stones_of(p)) for p in position.players if p != player)
        if position.captured[player] > lost:
            raise InvalidPosition(
                f"players.{player}.captured is {position.captured[player]}, but the other "
                f"players have at most {lost} stones off the board ({each} each, less those "
                "still on it)"
            )
    used = len(position.owners) + sum(position.captured.values())
    if used > count * each:
        raise InvalidPosition(
            f"{len(position.owners)} stones on the board and {sum(position.captured.values())} "
            f"captured make {used}, more than the {count} x {each} stones in the game"
        )


@dataclass(frozen=True)
class PlayerScore:
    name: str
    largest_group: int
    captured: int

    @property
    def score(self) -> int:
        return self.largest_group + CAPTURE_POINTS * self.captured


@dataclass(frozen=True)
class OneReport:
    source: str
    scores: tuple[PlayerScore, ...]
    best: tuple[str, ...]  # every player with the top score
    partial: bool = False

    @property
    def winner(self) -> str | None:
        """The single winner; None when the top score is shared (a ruling: a shared win)."""
        return self.best[0] if len(self.best) == 1 else None

    @property
    def exit_code(self) -> int:
        return 3 if self.partial else 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": "one",
            "scores": {
                s.name: {"largest_group": s.largest_group, "captured": s.captured, "score": s.score}
                for s in self.scores
            },
            # A standing so far names no winner, as every game's referee does (exit code 3).
            "winner": None if self.partial else self.winner,
        }
        if self.partial:
            data["partial"] = True
            data["leader"] = self.winner
        return data

    def to_text(self) -> str:
        width = max(6, *(len(s.name) for s in self.scores))
        lines = [
            f"ONE: {self.source}" + (" (standing so far)" if self.partial else ""),
            f"{'player':<{width}}  largest group  captured  score",
        ]
        for s in self.scores:
            lines.append(
                f"{s.name:<{width}}  {s.largest_group:>13}  {s.captured:>8}  "
                f"{s.score:>5}  = {s.largest_group} + {CAPTURE_POINTS} x {s.captured}"
            )
        lines.append(self.summary())
        return "\n".join(lines)

    def summary(self) -> str:
        top = max(s.score for s in self.scores)
        lead = "leads" if self.partial else "wins"
        if self.winner is not None:
            return f"{self.winner} {lead} with {top}"
        shared = "share the lead" if self.partial else "share the win"
        return f"{' and '.join(self.best)} {shared} with {top}"


def score_position(position: Position, source: str, partial: bool = False) -> OneReport:
    scores = tuple(
        PlayerScore(p, position.largest_group(p), position.captured[p]) for p in position.players
    )
    return OneReport(source, scores, winners(position), partial)


def score_document(document: Mapping[str, Any], source: str, options: ScoreOptions) -> OneReport:
    """`printgen score FILE` for a file with `game = "one"`."""
    layout = load_layout()
    return score_position(read_position(document, source, layout), source, options.partial)


def capture_report(capture: Capture) -> dict[str, Any]:
    """A checked capture as JSON: who moved, each jump, the stones removed, the new position."""
    after = capture.after
    return {
        "game": "one",
        "legal": True,
        "player": capture.player,
        "from": [capture.start.ring, capture.start.spoke],
        "jumps": [
            {
                "over": [j.over.ring, j.over.spoke],
                "landing": [j.landing.ring, j.landing.spoke],
                "owner": j.victim,
            }
            for j in capture.jumps
        ],
        "removed": [{"at": [p.ring, p.spoke], "owner": owner} for p, owner in capture.removed],
        "position": {k: v for k, v in after.to_mapping().items() if k != "game"},
    }
