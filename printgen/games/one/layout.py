"""ONE layouts: the board's spokes and rings, the stones each player has, and the printed
geometry, read from `layouts/one/NAME.toml`. The engine's board, the printed boards and the
referee all come from the same file."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from types import MappingProxyType
from typing import Any

from printgen import layouts
from printgen.errors import LayoutError
from printgen.games.one.engine import MAX_PLAYERS, MIN_PLAYERS, Board, InvalidPosition

LAYOUT_FOLDER = "one"
# Nothing a player reads is printed smaller (issue 16).
MIN_TEXT_PT = 6.0
MIN_WRITE_LINE_MM = 0.35
HEX_RGB = re.compile(r"^[0-9A-Fa-f]{6}$")


@dataclass(frozen=True)
class Drawing:
    line_width: float
    seam_line_width: float
    dot_radius: float
    label_size: float
    label_along: float
    label_inward: float
    spoke_number_size: float
    number_gap: float
    reference_outer: float
    max_scale: float
    title_size: float
    note_size: float

    def scaled_for(self, outer_radius: float) -> Drawing:
        """Dots and labels grown with a board larger than the reference board. Spoke numbers
        keep their size: the band outside the outer ring is paid for in board size."""
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
    join_clearance: float


class Pattern(Enum):
    """What marks a counter's colour besides its hue. Each looks the same turned any way, since
    a counter lies on the board at any angle."""

    PLAIN = "plain"
    RING = "ring"
    STRIPES = "stripes"
    DOTS = "dots"
    GRID = "grid"
    QUARTERS = "quarters"


@dataclass(frozen=True)
class CounterColour:
    name: str
    letter: str
    rgb: tuple[float, float, float]  # 0 to 1
    pattern: Pattern


@dataclass(frozen=True)
class CounterSheet:
    bleed: float
    gap: float
    letter_size: float
    colours: tuple[CounterColour, ...]


@dataclass(frozen=True)
class ScoreSheet:
    games: int
    rows: int
    row_height: float
    heading_height: float
    block_gap: float
    rule_width: float  # mm: every line a player writes on or in
    heavy_rule_width: float  # mm: the table's outline and heading rule
    columns: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class OneLayout:
    name: str
    version: int
    board: Board
    stones_per_player: Mapping[int, int]
    drawing: Drawing
    tiled: Tiled
    min_spacing: Mapping[str, float]  # by paper ("a4", "letter", "a3") and "tiled", in mm
    counter_sheet: CounterSheet
    score_sheet: ScoreSheet

    @property
    def inner_gap(self) -> float:
        """Ring 1's radius, in ring spacings: where the chord between neighbours on ring 1 is
        exactly one ring spacing. A smaller hub would crowd ring 1; a larger one would cost the
        other rings their width."""
        return 1 / (2 * math.sin(math.pi / self.board.spokes))

    @property
    def most_stones(self) -> int:
        """The most stones any one player can have: counters to print per colour."""
        return max(self.stones_per_player.values())

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
    return parse_layout(data, str(path))


def parse_layout(data: dict[str, Any], where: str) -> OneLayout:
    """A layout from its parsed TOML, checked; LayoutError names `where` and the field."""
    try:
        layout = _parse(data)
    except (KeyError, TypeError, ValueError) as error:
        raise LayoutError(f"{where}: missing or malformed field {error}") from None
    _check(layout, where)
    return layout


def _parse(data: dict[str, Any]) -> OneLayout:
    board = data["board"]
    sheet = data["score_sheet"]
    return OneLayout(
        name=str(data["name"]),
        version=int(data["version"]),
        board=Board(int(board["spokes"]), int(board["rings"])),
        stones_per_player=MappingProxyType(
            {int(k): int(v) for k, v in data["stones_per_player"].items()}
        ),
        drawing=Drawing(**{k: float(v) for k, v in data["drawing"].items()}),
        tiled=Tiled(**{k: float(v) for k, v in data["tiled"].items()}),
        min_spacing=MappingProxyType({str(k): float(v) for k, v in data["min_spacing"].items()}),
        counter_sheet=_counter_sheet(data["counter_sheet"]),
        score_sheet=ScoreSheet(
            games=int(sheet["games"]),
            rows=int(sheet["rows"]),
            row_height=float(sheet["row_height"]),
            heading_height=float(sheet["heading_height"]),
            block_gap=float(sheet["block_gap"]),
            rule_width=float(sheet["rule_width"]),
            heavy_rule_width=float(sheet["heavy_rule_width"]),
            columns=tuple((str(title), float(share)) for title, share in sheet["columns"]),
        ),
    )


def _counter_sheet(data: dict[str, Any]) -> CounterSheet:
    colours = []
    for index, entry in enumerate(data["colours"]):
        name, letter, hex_rgb, pattern = (str(v) for v in entry)
        if not HEX_RGB.match(hex_rgb):
            raise ValueError(f"colours[{index}] RGB {hex_rgb!r}, expected six hex digits")
        known = [p.value for p in Pattern]
        if pattern not in known:
            raise ValueError(
                f"colours[{index}] pattern {pattern!r}, expected one of {', '.join(known)}"
            )
        rgb = tuple(int(hex_rgb[i : i + 2], 16) / 255 for i in (0, 2, 4))
        colours.append(CounterColour(name, letter, (rgb[0], rgb[1], rgb[2]), Pattern(pattern)))
    return CounterSheet(
        bleed=float(data["bleed"]),
        gap=float(data["gap"]),
        letter_size=float(data["letter_size"]),
        colours=tuple(colours),
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
    boards = {"a4", "letter", "a3", "tiled"}
    if set(layout.min_spacing) != boards:
        raise LayoutError(
            f"{where}: min_spacing must name {', '.join(sorted(boards))}; "
            f"it names {', '.join(sorted(layout.min_spacing))}"
        )
    colours = layout.counter_sheet.colours
    for what, values in (
        ("name", [c.name for c in colours]),
        ("letter", [c.letter for c in colours]),
        ("RGB", [c.rgb for c in colours]),
        ("pattern", [c.pattern for c in colours]),
    ):
        if len(set(values)) != len(values):
            raise LayoutError(f"{where}: two counter colours share a {what}")
    if len(colours) < MAX_PLAYERS:
        raise LayoutError(
            f"{where}: {len(colours)} counter colours for up to {MAX_PLAYERS} players"
        )
    sizes = {
        "drawing.label_size": layout.drawing.label_size,
        "drawing.spoke_number_size": layout.drawing.spoke_number_size,
        "drawing.note_size": layout.drawing.note_size,
        "counter_sheet.letter_size": layout.counter_sheet.letter_size,
    }
    for field, width in (
        ("score_sheet.rule_width", layout.score_sheet.rule_width),
        ("score_sheet.heavy_rule_width", layout.score_sheet.heavy_rule_width),
    ):
        if width < MIN_WRITE_LINE_MM:
            raise LayoutError(
                f"{where}: {field} is {width:g} mm; lines to write on are at least "
                f"{MIN_WRITE_LINE_MM:g} mm so that a photocopy keeps them"
            )
    for field, size in sizes.items():
        if size < MIN_TEXT_PT:
            raise LayoutError(
                f"{where}: {field} is {size:g} pt; text is at least {MIN_TEXT_PT:g} pt"
            )
    total = sum(share for _, share in layout.score_sheet.columns)
    if abs(total - 1.0) > 1e-6:
        raise LayoutError(f"{where}: score sheet column shares add up to {total}, not 1")
