"""The One Page War referee: scores a checked sheet (duel or solo) or a team game.

API:
- `score_game(game, partial=False) -> SheetReport | TeamReport`: `game` from
  `sheet.parse_sheet`. An unfinished game raises `UnfinishedSheet` listing the empty squares,
  unless `partial`, which gives the standing so far (exit code 3).
- `score_sheet(sheet, partial)`, `score_team(game, partial)`: the two cases directly.
- `score(mapping, source, options)`: the `Scorer` behind `printgen score FILE`.
- `judge_arena(arena) -> ArenaResult`: one arena, who wins and why.
Reports implement printgen.materials.ScoreReport: to_text(), to_json(), exit_code, summary().
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from printgen.games.one_page_war.rules import Hand, Mark, evaluate, judge
from printgen.games.one_page_war.sheet import (
    GAME_NAME,
    Arena,
    Mode,
    Sheet,
    TeamGame,
    UnfinishedSheet,
    parse_sheet,
)
from printgen.materials import ScoreOptions

EXIT_FINAL = 0
EXIT_PARTIAL = 3


@dataclass(frozen=True)
class ArenaResult:
    arena: Arena
    hands: tuple[Hand | None, Hand | None]  # None while that side has empty squares
    winner: str | None  # None for a tie, or while the arena is open
    reason: str

    @property
    def is_open(self) -> bool:
        return None in self.hands

    @property
    def is_tie(self) -> bool:
        return not self.is_open and self.winner is None


def judge_arena(arena: Arena) -> ArenaResult:
    first, second = (
        evaluate(side.squares, arena.allies) if side.is_full else None for side in arena.sides
    )
    if first is None or second is None:
        waiting = [
            f"{side.player} has {side.squares.count(Mark.EMPTY)} empty"
            for side in arena.sides
            if not side.is_full
        ]
        return ArenaResult(arena, (first, second), None, "open: " + ", ".join(waiting))
    verdict = judge(first, second)
    winner = {1: arena.sides[0].player, -1: arena.sides[1].player}.get(verdict.outcome)
    return ArenaResult(arena, (first, second), winner, verdict.reason)


def leader_of(players: tuple[str, str], mode: Mode, winners: Iterable[str | None]) -> str | None:
    """Who has won more arenas, given each arena's winner (None: tied or still open); in solo
    the AI also takes a draw. None: level in a duel."""
    won = Counter(w for w in winners if w is not None)
    first, second = players
    if won[first] > won[second]:
        return first
    if won[second] > won[first] or mode is Mode.SOLO:
        return second
    return None


@dataclass(frozen=True)
class SheetReport:
    """One sheet scored: every arena, the arenas won, and the winner."""

    sheet: Sheet
    arenas: tuple[ArenaResult, ...]
    partial: bool  # scored while squares are still empty: a standing, not a result

    @property
    def players(self) -> tuple[str, str]:
        return self.sheet.players

    @property
    def arenas_won(self) -> dict[str, int]:
        won = dict.fromkeys(self.players, 0)
        for result in self.arenas:
            if result.winner is not None:
                won[result.winner] += 1
        return won

    @property
    def ties(self) -> int:
        return sum(1 for r in self.arenas if r.is_tie)

    @property
    def open_arenas(self) -> tuple[str, ...]:
        return tuple(r.arena.name for r in self.arenas if r.is_open)

    @property
    def leader(self) -> str | None:
        """Who has won more arenas so far (with the solo AI's claim on a draw)."""
        return leader_of(self.players, self.sheet.mode, (r.winner for r in self.arenas))

    @property
    def winner(self) -> str | None:
        return None if self.partial else self.leader

    @property
    def exit_code(self) -> int:
        return EXIT_PARTIAL if self.partial else EXIT_FINAL

    def result_text(self) -> str:
        first, second = self.players
        won = self.arenas_won
        high, low = max(won.values()), min(won.values())
        ties = f", {self.ties} tied" if self.ties else ""
        if self.partial:
            opened = ", ".join(self.open_arenas)
            standing = f"{first} {won[first]}, {second} {won[second]}{ties}"
            lead = f"{self.leader} leads" if self.leader else "level"
            if self.sheet.mode is Mode.SOLO and won[first] == won[second]:
                lead = f"level, which {second} (the AI) would win"
            return f"unfinished: {lead}; arenas so far {standing}; open: {opened}"
        if high == low:
            if self.sheet.mode is Mode.SOLO:
                return f"{second} (the AI) wins: {high} arenas each{ties}, and the AI wins draws"
            return f"a draw: {high} arenas each{ties}"
        return f"{self.leader} wins, {high} arenas to {low}{ties}"

    def summary(self) -> str:
        return self.result_text()

    def to_text(self) -> str:
        first, second = self.players
        mode = self.sheet.mode.value
        title = f"One Page War, {mode}: {first} vs {second}"
        if self.sheet.source:
            title += f" ({self.sheet.source})"
        rows = [["Arena", first, "", second, "", "Winner", "Why"]]
        for result in self.arenas:
            name = result.arena.name + (" (S)" if result.arena.allies else "")
            row = [name]
            for side, hand in zip(result.arena.sides, result.hands, strict=True):
                row.append(hand.to_text() if hand else _squares_text(side.squares))
                row.append(hand.combination.value if hand else "-")
            row.append(result.winner or ("-" if result.is_open else "tie"))
            row.append(result.reason)
            rows.append(row)
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
        lines = [title, ""]
        for row in rows:
            cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
            lines.append("  ".join([*cells, row[-1]]).rstrip())
        lines.extend(["", f"Result: {self.result_text()}."])
        if any(r.arena.allies for r in self.arenas):
            lines.append("(S): Allies, a straight beats every other combination there.")
        if any(h is not None and h.star is not None for r in self.arenas for h in r.hands):
            lines.append("*=N: the AI's star, counted as the number that scores best.")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": GAME_NAME,
            "mode": self.sheet.mode.value,
            "players": list(self.players),
            "winner": self.winner,
            "arenas_won": self.arenas_won,
            "arenas": [_arena_json(r) for r in self.arenas],
        }
        if self.partial:
            data["partial"] = True
            data["leader"] = self.leader
            data["open_arenas"] = list(self.open_arenas)
            data["empty_squares"] = [
                {"arena": ref.arena, "player": ref.player, "square": ref.index + 1}
                for ref in self.sheet.empty_squares()
            ]
        data["result"] = self.result_text()
        return data


def _arena_json(result: ArenaResult) -> dict[str, Any]:
    combinations: dict[str, Any] = {}
    for side, hand in zip(result.arena.sides, result.hands, strict=True):
        if hand is None:
            numbers: list[Any] = [
                None if s is Mark.EMPTY else s.value if isinstance(s, Mark) else s
                for s in side.squares
            ]
            combinations[side.player] = {"rank": None, "numbers": numbers}
            continue
        entry: dict[str, Any] = {"rank": hand.combination.value, "numbers": list(hand.numbers)}
        if hand.star is not None:
            entry["star"] = {"square": hand.star + 1, "value": hand.numbers[hand.star]}
        combinations[side.player] = entry
    data: dict[str, Any] = {
        "name": result.arena.name,
        "winner": result.winner,
        "combinations": combinations,
        "reason": result.reason,
    }
    if result.arena.allies:
        data["allies"] = True
    return data


def _squares_text(squares: tuple[int | Mark, ...]) -> str:
    return " ".join(s.value if isinstance(s, Mark) else str(s) for s in squares)


def score_sheet(sheet: Sheet, partial: bool = False) -> SheetReport:
    empty = sheet.empty_squares()
    if empty and not partial:
        raise UnfinishedSheet(_unfinished(sheet.source, [str(ref) for ref in empty]))
    return SheetReport(sheet, tuple(judge_arena(a) for a in sheet.arenas), bool(empty))


def _unfinished(source: str, empty: list[str]) -> str:
    where = f"{source}: " if source else ""
    listed = "\n".join(f"  - {ref}" for ref in empty)
    return (
        f"{where}unfinished game, {len(empty)} empty square(s):\n{listed}\n"
        "(score with --partial for the standing so far)"
    )


@dataclass(frozen=True)
class TeamReport:
    """A team game: arenas over all sheets, then sheets won as two-player games."""

    game: TeamGame
    sheets: tuple[SheetReport, ...]

    @property
    def partial(self) -> bool:
        return any(s.partial for s in self.sheets)

    @property
    def team_names(self) -> tuple[str, str]:
        return self.game.teams[0].name, self.game.teams[1].name

    @property
    def arenas_won(self) -> dict[str, int]:
        won = dict.fromkeys(self.team_names, 0)
        for report in self.sheets:
            for player, n in report.arenas_won.items():
                won[self.game.team_of(player).name] += n
        return won

    @property
    def sheets_won(self) -> dict[str, int]:
        won = dict.fromkeys(self.team_names, 0)
        for report in self.sheets:
            if report.leader is not None:
                won[self.game.team_of(report.leader).name] += 1
        return won

    @property
    def leader(self) -> str | None:
        first, second = self.team_names
        for counts in (self.arenas_won, self.sheets_won):
            if counts[first] != counts[second]:
                return first if counts[first] > counts[second] else second
        return None

    @property
    def winner(self) -> str | None:
        return None if self.partial else self.leader

    @property
    def exit_code(self) -> int:
        return EXIT_PARTIAL if self.partial else EXIT_FINAL

    def result_text(self) -> str:
        first, second = self.team_names
        arenas, sheets = self.arenas_won, self.sheets_won
        tally = f"arenas {first} {arenas[first]}, {second} {arenas[second]}"
        if arenas[first] == arenas[second]:
            tally += f"; sheets won {first} {sheets[first]}, {second} {sheets[second]}"
        if self.partial:
            lead = f"team {self.leader} leads" if self.leader else "level"
            return f"unfinished: {lead}; {tally}"
        if self.leader is None:
            return f"a draw: {tally}"
        return f"team {self.leader} wins: {tally}"

    def summary(self) -> str:
        return self.result_text()

    def to_text(self) -> str:
        first, second = self.game.teams
        lines = [
            f"One Page War, team: {first.name} ({', '.join(first.players)}) vs "
            f"{second.name} ({', '.join(second.players)})"
            + (f" ({self.game.source})" if self.game.source else ""),
        ]
        for n, report in enumerate(self.sheets, start=1):
            lines.extend(["", f"Sheet {n}", *report.to_text().splitlines()[2:]])
        lines.extend(["", f"Team result: {self.result_text()}."])
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        sheets = []
        for report in self.sheets:
            data = report.to_json()
            data.pop("game")
            data["mode"] = Mode.DUEL.value
            data["winner_team"] = (
                self.game.team_of(report.leader).name
                if report.leader is not None and not report.partial
                else None
            )
            sheets.append(data)
        result: dict[str, Any] = {
            "game": GAME_NAME,
            "mode": Mode.TEAM.value,
            "teams": {team.name: list(team.players) for team in self.game.teams},
            "winner": self.winner,
            "arenas_won": self.arenas_won,
            "sheets_won": self.sheets_won,
            "sheets": sheets,
        }
        if self.partial:
            result["partial"] = True
            result["leader"] = self.leader
        result["result"] = self.result_text()
        return result


def score_team(game: TeamGame, partial: bool = False) -> TeamReport:
    empty = game.empty_squares()
    if empty and not partial:
        labelled = [
            f"sheet {n}, {ref}"
            for n, sheet in enumerate(game.sheets, start=1)
            for ref in sheet.empty_squares()
        ]
        raise UnfinishedSheet(_unfinished(game.source, labelled))
    return TeamReport(game, tuple(score_sheet(s, partial=True) for s in game.sheets))


def score_game(game: Sheet | TeamGame, partial: bool = False) -> SheetReport | TeamReport:
    if isinstance(game, TeamGame):
        return score_team(game, partial)
    return score_sheet(game, partial)


def score(data: Mapping[str, Any], source: str, options: ScoreOptions) -> SheetReport | TeamReport:
    """`printgen score FILE` for One Page War: parse, check, score."""
    return score_game(parse_sheet(data, source), options.partial)
