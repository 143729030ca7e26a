"""A referee's report as a page shows it: the headline, the standing in words, and a table per
sheet for games with arenas.

The standing is told apart as the referees tell it (their JSON and exit code), never guessed
from a winner being there or not:
- final: the game's result (exit code 0, and not a Package War! round of a game still going);
- unfinished: the standing so far (exit code 3: empty squares, a log that stops early);
- round: a Package War! round scored while the game goes on (`game_over` false);
- and, for a photo, the cells still to confirm: a result that may change when they are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from printgen.materials import ScoreReport

EXIT_FINAL = 0


class Standing(Enum):
    FINAL = "final"
    UNFINISHED = "unfinished"
    ROUND = "round"  # a round scored, the game goes on


@dataclass(frozen=True)
class ArenaRow:
    name: str
    cells: tuple[tuple[str, str], ...]  # per player: (numbers, combination)
    winner: str
    reason: str


@dataclass(frozen=True)
class SheetTable:
    title: str
    players: tuple[str, ...]
    rows: tuple[ArenaRow, ...]


@dataclass(frozen=True)
class ResultView:
    game: str  # the game's name, as a sheet's `game` key gives it
    title: str  # the game's title
    summary: str  # the referee's own one line
    standing: Standing
    winner: str | None  # only for a final result
    leader: str | None  # who leads an unfinished game, where the referee says
    to_confirm: int  # photo cells not yet confirmed by a person
    players: tuple[str, ...]
    tables: tuple[SheetTable, ...]
    empty_squares: tuple[str, ...]
    text: str  # the referee's report
    data: Mapping[str, Any]  # the referee's JSON

    @property
    def final(self) -> bool:
        return self.standing is Standing.FINAL and not self.to_confirm

    @property
    def headline(self) -> tuple[str, str] | None:
        """(label, name) for the winner or leader line, in the standing's own words."""
        if self.standing is Standing.FINAL and self.winner:
            return ("Winner as read" if self.to_confirm else "Winner", self.winner)
        if self.standing is Standing.UNFINISHED and self.leader:
            return ("Leading", self.leader)
        return None

    @property
    def status(self) -> str:
        words = {
            Standing.FINAL: "Final result.",
            Standing.UNFINISHED: "Unfinished game: the standing so far.",
            Standing.ROUND: "Round scored: the game goes on.",
        }[self.standing]
        if self.to_confirm:
            verb = "is" if self.to_confirm == 1 else "are"
            cells = plural(self.to_confirm, "cell")
            words = (
                words.removesuffix(".") + f", once {cells} read from the photo {verb} confirmed."
            )
        return words

    @property
    def status_word(self) -> str:
        """One word for the night's table."""
        if self.to_confirm:
            return "to confirm"
        return {Standing.FINAL: "final", Standing.UNFINISHED: "unfinished"}.get(
            self.standing, "round"
        )


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def result_view(report: ScoreReport, to_confirm: int = 0) -> ResultView:
    data = report.to_json()
    game = str(data.get("game", ""))
    if report.exit_code != EXIT_FINAL:
        standing = Standing.UNFINISHED
    elif data.get("game_over") is False:
        standing = Standing.ROUND
    else:
        standing = Standing.FINAL
    winner = data.get("winner") if standing is Standing.FINAL else None
    leader = data.get("leader")
    return ResultView(
        game=game,
        title=_title(game),
        summary=report.summary(),
        standing=standing,
        winner=winner if isinstance(winner, str) else None,
        leader=leader if isinstance(leader, str) else None,
        to_confirm=to_confirm,
        players=_players(data),
        tables=_tables(data),
        empty_squares=_empty_squares(data),
        text=report.to_text(),
        data=data,
    )


def _title(game: str) -> str:
    from printgen.games import game_named

    found = game_named(game)
    return found.title if found is not None else game


def _players(data: Mapping[str, Any]) -> tuple[str, ...]:
    for key in ("players", "scores", "teams"):
        found = data.get(key)
        if isinstance(found, Mapping):
            return tuple(str(name) for name in found)
        if isinstance(found, list):
            return tuple(str(name) for name in found)
    return ()


def _tables(data: Mapping[str, Any]) -> tuple[SheetTable, ...]:
    found = data.get("sheets")
    sheets: Sequence[Any] = found if isinstance(found, list) else [data]
    tables = []
    for n, sheet in enumerate(sheets, start=1):
        if not isinstance(sheet, Mapping) or not isinstance(sheet.get("arenas"), list):
            continue
        # Each sheet's own players head its own table.
        players = tuple(str(p) for p in sheet.get("players", ()))
        title = f"Sheet {n}: {' vs '.join(players)}" if len(sheets) > 1 else ""
        rows = tuple(_arena_row(a, players) for a in sheet["arenas"])
        tables.append(SheetTable(title, players, rows))
    return tuple(tables)


def _arena_row(arena: Mapping[str, Any], players: tuple[str, ...]) -> ArenaRow:
    combinations = arena.get("combinations", {})
    cells = []
    for player in players:
        side = combinations.get(player, {})
        numbers = " ".join("_" if n is None else str(n) for n in side.get("numbers", ()))
        cells.append((numbers, side.get("rank") or "-"))
    name = str(arena.get("name", "")) + (" (S)" if arena.get("allies") else "")
    is_open = any(side.get("rank") is None for side in combinations.values())
    winner = arena.get("winner") or ("open" if is_open else "tie")
    return ArenaRow(name, tuple(cells), str(winner), str(arena.get("reason", "")))


def _empty_squares(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The empty squares an unfinished One Page War sheet lists, in words."""
    found: list[str] = []
    sheets = data.get("sheets")
    for n, sheet in enumerate(sheets if isinstance(sheets, list) else [data], start=1):
        prefix = f"sheet {n}, " if isinstance(sheets, list) else ""
        for ref in sheet.get("empty_squares", ()) if isinstance(sheet, Mapping) else ():
            found.append(f"{prefix}{ref['arena']}, {ref['player']}, square {ref['square']}")
    return tuple(found)
