"""A game log (see docs/package-war-log.md) read, replayed and reported.

The log holds only what the players did: the roll-off, each die rolled and each decision. Every
rule is applied by the engine while replaying; the first move it refuses is reported with its
number in the log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printgen.errors import InputError, PrintgenError, quote
from printgen.games.package_war.engine import (
    MAX_DICE,
    MIN_DICE,
    RECOMMENDED_DICE,
    Match,
    Move,
    Phase,
    Record,
    RoundScore,
    first_player,
)
from printgen.games.package_war.referee import GAME_NAME, verdict
from printgen.names import player_name
from printgen.scoring import load_document


class InvalidLog(InputError):
    """A log file that is malformed: not TOML, a missing field, a field of the wrong kind."""


class IllegalLogMove(PrintgenError):
    """A move of the log that is malformed or against the rules, with its place in the log."""


@dataclass(frozen=True)
class GameLog:
    names: tuple[str, str]
    dice: int
    start: tuple[tuple[int, int], ...]
    moves: tuple[str, ...]  # as written, parsed while replaying so errors keep their place
    source: str


def read_log(path: Path) -> GameLog:
    try:
        data = load_document(path)
    except InputError as error:
        raise InvalidLog(str(error)) from None
    return parse_log(data, str(path))


def parse_log(data: Mapping[str, Any], source: str) -> GameLog:
    known = {"game", "players", "dice", "start", "moves"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidLog(f"{source}: unknown field(s) {', '.join(unknown)}")
    if data.get("game") != GAME_NAME:
        raise InvalidLog(f'{source}: expected game = "{GAME_NAME}", got {quote(data.get("game"))}')
    names = data.get("players")
    if not isinstance(names, list) or len(names) != 2:
        raise InvalidLog(f'{source}: players: expected two names, e.g. ["Ann", "Ben"]')
    try:
        for number, name in enumerate(names, start=1):
            player_name(name, f"{source}: players, name {number}")
    except InputError as error:
        raise InvalidLog(str(error)) from None
    dice = data.get("dice", RECOMMENDED_DICE)
    if isinstance(dice, bool) or not isinstance(dice, int) or not MIN_DICE <= dice <= MAX_DICE:
        raise InvalidLog(
            f"{source}: dice: the game is played with {MIN_DICE} to {MAX_DICE} dice, "
            f"not {quote(dice)}"
        )
    start = data.get("start")
    if not isinstance(start, list) or not start:
        raise InvalidLog(
            f"{source}: start: the roll-off as a list of pairs in player order, e.g. [[3, 5]]"
        )
    pairs: list[tuple[int, int]] = []
    for index, pair in enumerate(start, start=1):
        if not isinstance(pair, list) or len(pair) != 2:
            raise InvalidLog(f"{source}: start roll {index}: expected a pair, got {quote(pair)}")
        pairs.append((pair[0], pair[1]))
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidLog(f'{source}: moves: expected a list of strings, e.g. ["Ann: roll 4"]')
    return GameLog((names[0], names[1]), dice, tuple(pairs), tuple(moves), source)


@dataclass(frozen=True)
class GameReport:
    log: GameLog
    first: int
    records: tuple[Record, ...]
    match: Match

    @property
    def over(self) -> bool:
        return self.match.position.phase is Phase.OVER

    @property
    def rounds(self) -> tuple[RoundScore, ...]:
        return tuple(r.scoring for r in self.records if r.scoring is not None)

    @property
    def winner(self) -> str | None:
        seat = self.match.position.result.winner
        return None if seat is None else self.match.position.sides[seat].name

    @property
    def exit_code(self) -> int:
        # A log that stops before the game's end is a standing, not a result.
        return 0 if self.over else 3

    def to_text(self) -> str:
        names = self.log.names
        lines = [f"Package War!: {names[0]} v {names[1]}, {self.log.dice} dice"]
        lines.append(f"{names[self.first]} won the roll-off and begins.")
        for record in self.records:
            lines.append(f"{record.number:>4}. {record.to_text()}")
            if record.scoring is not None:
                lines.append(_round_text(record.scoring))
        lines.append(self.summary())
        return "\n".join(lines)

    def summary(self) -> str:
        position = self.match.position
        scores = ", ".join(f"{s.name} {s.score}" for s in position.sides)
        if self.over:
            return f"{scores}: {verdict(position.result, self.winner)}"
        return f"{scores}: the log ends before the game does ({position.mover} to move)"

    def to_json(self) -> dict[str, Any]:
        position = self.match.position
        return {
            "game": GAME_NAME,
            "players": {s.name: {"score": s.score} for s in position.sides},
            "rounds": [
                {
                    "round": r.round,
                    "players": {
                        s.name: {
                            "stack_points": s.stack_points,
                            "crushed": s.crushed,
                            "score": s.after,
                        }
                        for s in r.sides
                    },
                }
                for r in self.rounds
            ],
            "moves": len(self.records),
            "winner": self.winner,
            "game_over": self.over,
        }


def _round_text(score: RoundScore) -> str:
    parts = [
        f"{s.name} {s.before} + {s.stack_points} - {s.crushed} = {s.after}" for s in score.sides
    ]
    return f"      round {score.round} scored: " + "; ".join(parts)


def play_log(log: GameLog) -> GameReport:
    """Replay every move; the first malformed or illegal one raises with its number."""
    try:
        first = first_player(log.start)
        match = Match(log.names, first, log.dice)
    except PrintgenError as error:
        raise InvalidLog(f"{log.source}: {error}") from None
    for number, text in enumerate(log.moves, start=1):
        try:
            match.play(Move.from_text(text))
        except PrintgenError as error:
            raise IllegalLogMove(f"{log.source}, move {number}: {error}") from None
    return GameReport(log, first, tuple(match.records), match)
