"""ONE layouts: the board's spokes and rings, the stones each player has, and the printed
geometry, read from `layouts/one/NAME.toml`. The engine's board, the printed boards and the
referee all come from the same file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType
from typing import Any

from printgen import layouts
from printgen.errors import LayoutError
from printgen.games.one.engine import MAX_PLAYERS, MIN_PLAYERS, Board, InvalidPosition

LAYOUT_FOLDER = "one"


@dataclass(frozen=True)
class Drawing:
    outer_band: float
    line_width: float
    seam_line_width: float
    dot_radius: float
    label_size: float
    label_min_size: float
    label_along: float
    label_inward: float
    spoke_number_size: float
    reference_outer: float
    max_scale: float
    title_size: float
    note_size: float

    def scaled_for(self, outer_radius: float) -> Drawing:
        """Dots and labels grown with a board larger than the reference board. Spoke numbers
        keep their size: they must stay inside the outer band."""
        factor = min(self.max_scale, max(1.0, outer_radius / self.reference_outer))
        return replace(
            self,
            dot_radius=self.dot_radius * factor,
            label_size=self.label_size * factor,
            label_along=self.label_along * factor,
            label_inward=self.label_inward * factor,
        )


@dataclass(frozen=True)
class Tiled:
    overlap: float
    cut_from_edge: float
    tick_length: float
    side_room: float
    join_clearance: float


@dataclass(frozen=True)
class ScoreSheet:
    games: int
    rows: int
    row_height: float
    heading_height: float
    block_gap: float
    columns: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class OneLayout:
    name: str
    version: int
    board: Board
    inner_gap: float  # ring 1's radius, in ring spacings
    stones_per_player: Mapping[int, int]
    drawing: Drawing
    tiled: Tiled
    score_sheet: ScoreSheet

    def stones_each(self, players: int) -> int:
        if players not in self.stones_per_player:
            raise InvalidPosition(
                f"ONE is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )
        return self.stones_per_player[players]


def layout_names() -> tuple[str, ...]:
    return layouts.layout_names(LAYOUT_FOLDER)


@cache
def load_layout(name: str = "standard") -> OneLayout:
    path, data = layouts.read_layout(LAYOUT_FOLDER, name, "ONE")
    try:
        layout = _parse(data)
    except (KeyError, TypeError, ValueError) as error:
        raise LayoutError(f"{path}: missing or malformed field {error}") from None
    _check(layout, str(path))
    return layout


def _parse(data: dict[str, Any]) -> OneLayout:
    board = data["board"]
    sheet = data["score_sheet"]
    return OneLayout(
        name=str(data["name"]),
        version=int(data["version"]),
        board=Board(int(board["spokes"]), int(board["rings"])),
        inner_gap=float(board["inner_gap"]),
        stones_per_player=MappingProxyType(
            {int(k): int(v) for k, v in data["stones_per_player"].items()}
        ),
        drawing=Drawing(**{k: float(v) for k, v in data["drawing"].items()}),
        tiled=Tiled(**{k: float(v) for k, v in data["tiled"].items()}),
        score_sheet=ScoreSheet(
            games=int(sheet["games"]),
            rows=int(sheet["rows"]),
            row_height=float(sheet["row_height"]),
            heading_height=float(sheet["heading_height"]),
            block_gap=float(sheet["block_gap"]),
            columns=tuple((str(title), float(share)) for title, share in sheet["columns"]),
        ),
    )


def _check(layout: OneLayout, where: str) -> None:
    counts = set(layout.stones_per_player)
    expected = set(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    if counts != expected:
        raise LayoutError(
            f"{where}: stones_per_player must give every player count from {MIN_PLAYERS} to "
            f"{MAX_PLAYERS}; it gives {sorted(counts)}"
        )
    room = len(layout.board.points)
    for players, each in layout.stones_per_player.items():
        # A full board would leave no landing for a jump and no place for the last stone.
        if each < 1 or players * each >= room:
            raise LayoutError(
                f"{where}: {players} players x {each} stones does not fit the "
                f"{room} intersections with room to spare"
            )
    if layout.inner_gap < 1:
        raise LayoutError(f"{where}: inner_gap {layout.inner_gap} leaves no room at the centre")
    total = sum(share for _, share in layout.score_sheet.columns)
    if abs(total - 1.0) > 1e-6:
        raise LayoutError(f"{where}: score sheet column shares add up to {total}, not 1")
