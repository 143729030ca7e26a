"""`printgen score ROUND.toml`: the end of one distribution phase, scored.

The sheet gives each player's score before the round, the stacks on their tables and how many
of their packages were crushed this round; the referee adds the stack points, takes off the
crushes and applies the game-end rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from printgen.errors import InputError, quote
from printgen.games.package_war.engine import (
    LINE_LENGTH,
    LOSE_SCORE,
    TABLES,
    TALLEST_STACK,
    WIN_SCORE,
    Ending,
    IllegalStack,
    PackageWarError,
    Result,
    Stack,
    game_result,
    stack_points,
    verify_stack,
)
from printgen.materials import ScoreOptions
from printgen.names import player_name

GAME_NAME = "package-war"

# In one round the packages that stood on a player's tables were those there at its start (two
# tables, five at most on each) and those received from the line (five at most, for both
# players together). Each crushed package is one of them; so is each package standing at the end.
TABLES_HOLD = TABLES * TALLEST_STACK


class InvalidRound(InputError):
    """A round sheet that is malformed: a missing field or a value of the wrong kind."""


class IllegalRound(PackageWarError):
    """A round sheet that the rules could not produce (a game already over, a negative crush)."""


@dataclass(frozen=True)
class PlayerRound:
    name: str
    before: int
    tables: tuple[Stack, ...]
    crushed: int

    @property
    def stack_points(self) -> int:
        return sum(stack_points(t) for t in self.tables)

    @property
    def score(self) -> int:
        return self.before + self.stack_points - self.crushed


@dataclass(frozen=True)
class RoundReport:
    players: tuple[PlayerRound, PlayerRound]
    result: Result

    @property
    def winner(self) -> str | None:
        return None if self.result.winner is None else self.players[self.result.winner].name

    @property
    def exit_code(self) -> int:
        return 0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "players": {
                p.name: {"stack_points": p.stack_points, "crushed": p.crushed, "score": p.score}
                for p in self.players
            },
            "winner": self.winner,
            "game_over": self.result.over,
        }

    def to_text(self) -> str:
        lines = ["Package War!: end of a distribution phase"]
        for player in self.players:
            lines.append(
                f"{player.name}: {player.before} + {player.stack_points} stack points"
                f" - {player.crushed} crushed = {player.score}"
            )
            for number, stack in enumerate(player.tables, start=1):
                shown = " ".join(map(str, stack)) if stack else "empty"
                lines.append(
                    f"  table {number}: {shown} ({stack_points(stack)} points, bottom to top)"
                )
        lines.append(self.summary())
        return "\n".join(lines)

    def summary(self) -> str:
        scores = ", ".join(f"{p.name} {p.score}" for p in self.players)
        return f"{scores}: {verdict(self.result, self.winner)}"


def verdict(result: Result, winner: str | None) -> str:
    if not result.over:
        return f"the game goes on ({WIN_SCORE} wins, {LOSE_SCORE} or below loses)"
    if winner is None:
        return "game over, a draw (both reached a limit at once with equal scores)"
    reason = {
        Ending.REACHED_WIN: f"reached {WIN_SCORE}",
        Ending.OPPONENT_LOST: f"the opponent dropped to {LOSE_SCORE} or below",
        Ending.HIGHER_SCORE: "both reached a limit at once; the higher score wins",
        Ending.POOL_EMPTY: "every die is on the tables; the higher score wins",
    }[result.ending]
    return f"game over, {winner} wins ({reason})"


def _whole(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRound(f"{where}: expected a whole number, got {quote(value)}")
    return value


def read_player(name: str, data: object, source: str) -> PlayerRound:
    try:
        player_name(name, f"{source}, players")
    except InputError as error:
        raise InvalidRound(str(error)) from None
    where = f"{source}, players.{name}"
    if not isinstance(data, Mapping):
        raise InvalidRound(f"{where}: expected a table with score, tables and crushed")
    unknown = sorted(set(data) - {"score", "tables", "crushed"})
    if unknown:
        raise InvalidRound(f"{where}: unknown field(s) {', '.join(unknown)}")
    for key in ("score", "tables", "crushed"):
        if key not in data:
            raise InvalidRound(f"{where}: missing `{key}`")
    before = _whole(data["score"], f"{where}.score")
    if not LOSE_SCORE < before < WIN_SCORE:
        raise IllegalRound(
            f"{where}.score: {before} before the round means the game had already ended "
            f"({WIN_SCORE} wins, {LOSE_SCORE} or below loses)"
        )
    crushed = _whole(data["crushed"], f"{where}.crushed")
    if crushed < 0:
        raise IllegalRound(f"{where}.crushed: {crushed} is negative; count crushed packages")
    raw_tables = data["tables"]
    if not isinstance(raw_tables, list):
        raise InvalidRound(f"{where}.tables: expected a list of stacks, e.g. [[5, 3], [4]]")
    if len(raw_tables) > TABLES:
        raise IllegalStack(
            f"{where}.tables: {len(raw_tables)} tables, but each player has only {TABLES}"
        )
    tables: list[Stack] = []
    for number, stack in enumerate(raw_tables, start=1):
        if not isinstance(stack, list):
            raise InvalidRound(
                f"{where}, table {number}: expected a list of packages, bottom first"
            )
        tables.append(verify_stack(stack, f"{source}: {name}, table {number}"))
    standing = sum(len(t) for t in tables)
    most = TABLES_HOLD + LINE_LENGTH - standing
    if crushed > most:
        raise IllegalRound(
            f"{where}.crushed: {crushed} packages crushed in one round, but {name}'s tables held "
            f"at most {TABLES_HOLD} at its start and {LINE_LENGTH} more came from the line; "
            f"with {standing} standing now, at most {most} can have been crushed"
        )
    if crushed and not standing:
        raise IllegalRound(
            f"{where}.crushed: {crushed} crushed but no package stands on {name}'s tables; the "
            "package that crushes a stack stays on the table"
        )
    return PlayerRound(name, before, tuple(tables), crushed)


def score_round(document: Mapping[str, Any], source: str, options: ScoreOptions) -> RoundReport:
    """The referee behind `printgen score` for `game = "package-war"`."""
    unknown = sorted(set(document) - {"game", "players"})
    if "moves" in unknown:
        raise InvalidRound(
            f"{source}: this is a game log (it has moves), not one round's end: "
            f"replay it with `printgen package-war play {source}`"
        )
    if unknown:
        raise InvalidRound(f"{source}: unknown field(s) {', '.join(unknown)}")
    players = document.get("players")
    if not isinstance(players, Mapping) or len(players) != 2:
        count = len(players) if isinstance(players, Mapping) else 0
        raise InvalidRound(
            f"{source}: expected two players as [players.NAME] tables, found {count}"
        )
    first, second = (read_player(name, data, source) for name, data in players.items())
    # Every package of the round was a die: on a table at the round's start, or in the line.
    used = sum(p.crushed + sum(len(t) for t in p.tables) for p in (first, second))
    most = 2 * TABLES_HOLD + LINE_LENGTH
    if used > most:
        raise IllegalRound(
            f"{source}: {used} packages standing or crushed this round, but the tables held at "
            f"most {2 * TABLES_HOLD} at its start and the line gave {LINE_LENGTH} more"
        )
    return RoundReport((first, second), game_result((first.score, second.score)))
