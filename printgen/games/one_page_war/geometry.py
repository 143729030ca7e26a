"""Where everything on a One Page War sheet is: the single geometry that the drawing, the
`printgen layout one-page-war --json` output and the photo reader all use.

Coordinates
    Millimetres on the landscape page, origin at the page's TOP-LEFT corner, x to the right, y
    DOWN, as the first player sees the sheet (the first player sits at the bottom edge, the
    second player at the top edge). This is also how an image of the upright page is indexed,
    which is why it was chosen. Each element is an axis-aligned box (x, y, w, h): (x, y) is the
    box's top-left corner on the page. A second-player element is drawn rotated 180 degrees
    inside its box (the far half reads upside down), so its box is still given on the page.

API (stable; the photo reader builds on it)
    sheet_geometry(layout, paper, version=None) -> SheetGeometry
                                                         layout: a Layout or a layout name;
                                                         version: an earlier one (None: current)
    SheetGeometry.elements                               every element, in drawing order
    SheetGeometry.find(kind, arena=None, side=None, index=0) -> Element
    SheetGeometry.select(kind, arena=None, side=None) -> tuple[Element, ...]
    SheetGeometry.arena_frame(arena) -> Rect             the outline around an arena's column
    SheetGeometry.width, .height, .paper, .layout_name, .layout_version, .arenas (ArenaSpec)
    SheetGeometry.to_json() -> dict                      what `printgen layout --json` prints
    layout_json(name, paper) -> dict                     GAME.layout
    Element(kind, arena, side, index, x, y, w, h)        .rect, .centre, .upside_down, .to_json()
    Kind: SQUARE, TICK, ALLIES (the S space), DICE, NAME (name line), MARKER, QR,
          LABEL (arena name and power reminder), SHEET_LABEL ("sheet k of N", id), POWERS (text),
          TITLE (the game's name and the sheet's kind), FOOTER (game, purpose, printgen version)
    Side: FIRST (near, bottom half), SECOND (far, top half, upside down); None for shared ones
    SheetTag(layout, version, paper, sheet_id)           the QR code's text: .to_text(),
          SheetTag.from_text(s), .mode (from the sheet id's first letter: D duel, S solo, T team)
          The text is GAME/LAYOUT/VERSION/PAPER/SHEET-ID in capitals (QR alphanumeric mode),
          e.g. "ONE-PAGE-WAR/STANDARD/1/A4/D-3F2A-0001"; from_text accepts any case.
    sheet_id(mode, layout, paper, index, seed="") -> str deterministic, e.g. "D-3F2A-0001"
    ARUCO_DICTIONARY ("DICT_4X4_50"); MARKER_IDS: marker index = ArUco id, 0 top-left,
          1 top-right, 2 bottom-right, 3 bottom-left (page corners as the first player sees them)

Indices
    Squares of one side are numbered 0, 1, ... in that player's reading order: rows from the
    middle of the sheet towards the player, left to right within a row, as that player sees
    them. Tick boxes likewise left to right as their player sees them. Markers by ArUco id.

The sizes come from the `[sheet]` table of the layout's TOML; this module only places them.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any

from printgen.errors import LayoutError
from printgen.games.one_page_war.layout import ArenaSpec, Layout, layout_names, load_layout
from printgen.render.units import Paper

GAME_NAME = "one-page-war"
ARUCO_DICTIONARY = "DICT_4X4_50"
# ArUco id of the marker at each page corner, as the first player sees the sheet.
MARKER_IDS = {"top-left": 0, "top-right": 1, "bottom-right": 2, "bottom-left": 3}

# The smallest sizes a person can write in and a phone photo can read.
MIN_SQUARE_MM = 13.0
MIN_TICK_MM = 5.0


class Kind(Enum):
    SQUARE = "square"
    TICK = "tick"
    ALLIES = "allies"  # the space for a big S in the middle of an arena
    DICE = "dice"
    NAME = "name"
    MARKER = "marker"
    QR = "qr"
    LABEL = "label"
    SHEET_LABEL = "sheet_label"
    POWERS = "powers"
    TITLE = "title"
    FOOTER = "footer"


class StripTurn(Enum):
    """What the far player's edge strip (name line, dice space, title) is turned about."""

    PAGE = "page"  # the page's centre: each player sees the same strip (version 2 on)
    ARENAS = "arenas"  # the arena columns' centre (version 1)


# Where people write or put things: the markers and the QR code keep clear of these.
WRITING_KINDS = frozenset({Kind.SQUARE, Kind.TICK, Kind.ALLIES, Kind.DICE, Kind.NAME})


class Side(Enum):
    FIRST = "first"  # the near half, bottom of the page
    SECOND = "second"  # the far half, printed upside down

    @property
    def other(self) -> Side:
        return Side.SECOND if self is Side.FIRST else Side.FIRST


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def overlaps(self, other: Rect, clearance: float = 0.0) -> bool:
        """True when the boxes come closer than `clearance` (touching edges do not overlap)."""
        eps = 1e-9
        return (
            self.x < other.right + clearance - eps
            and other.x < self.right + clearance - eps
            and self.y < other.bottom + clearance - eps
            and other.y < self.bottom + clearance - eps
        )

    def rotated_about(self, cx: float, cy: float) -> Rect:
        """The box turned 180 degrees about (cx, cy)."""
        return Rect(2 * cx - self.x - self.w, 2 * cy - self.y - self.h, self.w, self.h)


@dataclass(frozen=True)
class Element:
    kind: Kind
    arena: str | None
    side: Side | None
    index: int
    x: float
    y: float
    w: float
    h: float

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.w, self.h)

    @property
    def centre(self) -> tuple[float, float]:
        return self.rect.centre

    @property
    def upside_down(self) -> bool:
        return self.side is Side.SECOND

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "arena": self.arena,
            "side": self.side.value if self.side else None,
            "index": self.index,
            "x": round(self.x, 3),
            "y": round(self.y, 3),
            "w": round(self.w, 3),
            "h": round(self.h, 3),
        }


@dataclass(frozen=True)
class SheetParams:
    """The `[sheet]` table of a layout: every size the sheet is built from, in mm."""

    square: float
    square_gap: float
    square_columns: int
    tick: float
    tick_gap: float
    arena_padding: float
    arena_gap: float
    allies_width: float
    allies_height: float
    label_height: float
    gap: float
    dice: float
    name_width: float
    name_height: float
    title_height: float
    footer_height: float
    far_strip: StripTurn
    marker: float
    marker_inset: float
    marker_clearance: float
    qr: float
    sheet_label_height: float
    powers_min_width: float

    @classmethod
    def from_layout(cls, layout: Layout) -> SheetParams:
        table = layout.raw.get("sheet")
        where = f"layout {layout.name!r} [sheet]"
        if not isinstance(table, Mapping):
            raise LayoutError(f"{where}: the layout has no [sheet] table of sizes")
        values: dict[str, Any] = {}
        for name, kind in cls.__annotations__.items():
            if name not in table:
                raise LayoutError(f"{where}: missing `{name}`")
            raw = table[name]
            if kind == "StripTurn":
                choices = [t.value for t in StripTurn]
                if raw not in choices:
                    raise LayoutError(f"{where}: `{name}` must be one of {choices}, not {raw!r}")
                values[name] = StripTurn(raw)
                continue
            if isinstance(raw, bool) or not isinstance(raw, int | float) or raw <= 0:
                raise LayoutError(f"{where}: `{name}` must be a positive number, not {raw!r}")
            if kind == "int" and not isinstance(raw, int):
                raise LayoutError(f"{where}: `{name}` must be a whole number, not {raw!r}")
            values[name] = int(raw) if kind == "int" else float(raw)
        params = cls(**values)
        if params.square < MIN_SQUARE_MM:
            raise LayoutError(f"{where}: square {params.square} mm is under {MIN_SQUARE_MM} mm")
        if params.tick < MIN_TICK_MM:
            raise LayoutError(f"{where}: tick {params.tick} mm is under {MIN_TICK_MM} mm")
        return params


@dataclass(frozen=True)
class SheetGeometry:
    layout_name: str
    layout_version: int
    paper: Paper
    width: float
    height: float
    elements: tuple[Element, ...]
    frames: tuple[tuple[str, Rect], ...]
    arenas: tuple[ArenaSpec, ...]

    def select(
        self, kind: Kind, arena: str | None = None, side: Side | None = None
    ) -> tuple[Element, ...]:
        return tuple(
            e
            for e in self.elements
            if e.kind is kind
            and (arena is None or e.arena == arena)
            and (side is None or e.side is side)
        )

    def find(
        self, kind: Kind, arena: str | None = None, side: Side | None = None, index: int = 0
    ) -> Element:
        for e in self.select(kind, arena, side):
            if e.index == index:
                return e
        raise LayoutError(
            f"the {self.layout_name!r} sheet has no {kind.value} "
            f"(arena {arena}, side {side.value if side else None}, index {index})"
        )

    def arena_frame(self, arena: str) -> Rect:
        for name, rect in self.frames:
            if name == arena:
                return rect
        raise LayoutError(f"the {self.layout_name!r} sheet has no arena {arena!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "layout": self.layout_name,
            "version": self.layout_version,
            "paper": self.paper.value,
            "units": "mm",
            "origin": "top-left of the landscape page, y down, as the first player sees it",
            "page": {"width": round(self.width, 3), "height": round(self.height, 3)},
            "aruco": {"dictionary": ARUCO_DICTIONARY, "ids": MARKER_IDS},
            "qr_text": "GAME/LAYOUT/VERSION/PAPER/SHEET-ID in capitals, e.g. "
            + SheetTag(self.layout_name, self.layout_version, self.paper, "D-0000-0001").to_text(),
            "arenas": [
                {
                    "name": a.name,
                    "squares": a.squares,
                    "ticks": a.ticks,
                    "power": a.power,
                    "frame": _rect_json(self.arena_frame(a.name)),
                }
                for a in self.arenas
            ],
            "elements": [e.to_json() for e in self.elements],
        }


def _rect_json(rect: Rect) -> dict[str, float]:
    return {k: round(v, 3) for k, v in (("x", rect.x), ("y", rect.y), ("w", rect.w), ("h", rect.h))}


def sheet_geometry(layout: Layout | str, paper: Paper, version: int | None = None) -> SheetGeometry:
    """The sheet's geometry for a layout (by name, or as loaded) on A4 or Letter; a layout
    given by name is taken at its current version unless `version` names an earlier one."""
    if isinstance(layout, str):
        return _geometry(layout, paper, version)
    if layout.name in layout_names() and layout == load_layout(layout.name, layout.version):
        return _geometry(layout.name, paper, layout.version)
    return _make(layout, paper)  # a layout built in memory (tests): not cached


def layout_json(name: str, paper: Paper) -> dict[str, Any]:
    """`printgen layout one-page-war --layout NAME --paper PAPER --json`."""
    return sheet_geometry(name, paper).to_json()


def _geometry(name: str, paper: Paper, version: int | None) -> SheetGeometry:
    return _cached(name, paper, load_layout(name, version).version)


@cache
def _cached(name: str, paper: Paper, version: int) -> SheetGeometry:
    return _make(load_layout(name, version), paper)


def _make(layout: Layout, paper: Paper) -> SheetGeometry:
    if paper not in (Paper.A4, Paper.LETTER):
        raise LayoutError(f"One Page War sheets are printed on A4 or Letter, not {paper.label}")
    p = SheetParams.from_layout(layout)
    page = paper.size.landscape()
    return _place(layout, p, page.width_mm, page.height_mm, paper)


def _place(layout: Layout, p: SheetParams, W: float, H: float, paper: Paper) -> SheetGeometry:
    where = f"layout {layout.name!r} on {paper.label}"
    n = len(layout.arenas)
    cols = p.square_columns
    rows = max(math.ceil(a.squares / cols) for a in layout.arenas)
    max_ticks = max(a.ticks for a in layout.arenas)
    inner = max(
        cols * p.square + (cols - 1) * p.square_gap,
        p.allies_width,
        max_ticks * p.tick + (max_ticks - 1) * p.tick_gap,
    )
    col_w = inner + 2 * p.arena_padding
    play_w = n * col_w + (n - 1) * p.arena_gap
    play_left = p.marker_inset
    play_right = play_left + play_w
    powers_gap = p.arena_gap + p.gap
    powers_x = play_right + powers_gap
    powers_w = W - p.marker_inset - powers_x
    if powers_w < p.powers_min_width:
        raise LayoutError(
            f"{where}: {n} arenas {col_w:.1f} mm wide leave {powers_w:.1f} mm for the powers "
            f"column, under its {p.powers_min_width:.1f} mm"
        )

    cy = H / 2
    # One half of an arena column, from the middle line out to the player's edge.
    squares_h = rows * p.square + (rows - 1) * p.square_gap
    half = p.allies_height / 2 + p.gap + p.label_height + p.gap + p.tick + p.gap + squares_h
    frame_half = half + p.arena_padding
    corner_zone = p.marker_inset + p.marker + p.marker_clearance
    if cy - frame_half < corner_zone:
        raise LayoutError(f"{where}: the arena columns reach into the markers' corners")
    strip_top = cy + frame_half + p.gap
    strip_bottom = H - p.marker_inset
    if strip_bottom - strip_top < max(p.dice, p.name_height):
        raise LayoutError(
            f"{where}: {strip_bottom - strip_top:.1f} mm below the arenas is too little for "
            f"the dice space ({p.dice} mm) and the name line"
        )

    elements: list[Element] = []
    frames: list[tuple[str, Rect]] = []

    def both_sides(
        kind: Kind, arena: str | None, index: int, near: Rect, cx: float
    ) -> Iterator[Element]:
        yield Element(kind, arena, Side.FIRST, index, near.x, near.y, near.w, near.h)
        far = near.rotated_about(cx, cy)
        yield Element(kind, arena, Side.SECOND, index, far.x, far.y, far.w, far.h)

    # Markers first: the reader looks for them before anything else.
    m = p.marker
    corners = {
        "top-left": (p.marker_inset, p.marker_inset),
        "top-right": (W - p.marker_inset - m, p.marker_inset),
        "bottom-right": (W - p.marker_inset - m, H - p.marker_inset - m),
        "bottom-left": (p.marker_inset, H - p.marker_inset - m),
    }
    for corner, marker_id in MARKER_IDS.items():
        x, y = corners[corner]
        elements.append(Element(Kind.MARKER, None, None, marker_id, x, y, m, m))

    for i, arena in enumerate(layout.arenas):
        x0 = play_left + i * (col_w + p.arena_gap)
        cx = x0 + col_w / 2
        frames.append((arena.name, Rect(x0, cy - frame_half, col_w, 2 * frame_half)))
        allies = Rect(
            cx - p.allies_width / 2, cy - p.allies_height / 2, p.allies_width, p.allies_height
        )
        elements.append(
            Element(Kind.ALLIES, arena.name, None, 0, allies.x, allies.y, allies.w, allies.h)
        )
        label = Rect(x0 + p.arena_padding, allies.bottom + p.gap, inner, p.label_height)
        elements.extend(both_sides(Kind.LABEL, arena.name, 0, label, cx))
        if arena.ticks > max_ticks or arena.ticks < 0:
            raise LayoutError(f"{where}: arena {arena.name} has {arena.ticks} tick boxes")
        ticks_w = arena.ticks * p.tick + (arena.ticks - 1) * p.tick_gap
        tick_y = label.bottom + p.gap
        for t in range(arena.ticks):
            box = Rect(cx - ticks_w / 2 + t * (p.tick + p.tick_gap), tick_y, p.tick, p.tick)
            elements.extend(both_sides(Kind.TICK, arena.name, t, box, cx))
        if arena.squares < 1:
            raise LayoutError(f"{where}: arena {arena.name} has no squares")
        top = tick_y + p.tick + p.gap
        for s in range(arena.squares):
            row, col = divmod(s, cols)
            in_row = min(cols, arena.squares - row * cols)
            row_w = in_row * p.square + (in_row - 1) * p.square_gap
            box = Rect(
                cx - row_w / 2 + col * (p.square + p.square_gap),
                top + row * (p.square + p.square_gap),
                p.square,
                p.square,
            )
            elements.extend(both_sides(Kind.SQUARE, arena.name, s, box, cx))

    # The strip along each player's edge: name line, title, dice space, starting clear of the
    # corner marker. The far player's strip is the near one turned about the page's centre, so
    # both players see the same strip (version 1 turned it about the arenas' centre instead).
    play_cx = (play_left + play_right) / 2
    strip_left = max(play_left, corner_zone)
    strip_right = play_right - (strip_left - play_left)
    name = Rect(strip_left, strip_bottom - p.name_height, p.name_width, p.name_height)
    dice = Rect(strip_right - p.dice, strip_bottom - p.dice, p.dice, p.dice)
    title = Rect(
        name.right + p.gap,
        strip_bottom - p.title_height,
        dice.x - p.gap - (name.right + p.gap),
        p.title_height,
    )
    if title.w < p.name_width / 2:
        raise LayoutError(
            f"{where}: the name line, the title and the dice space do not fit side by side"
        )
    turn_x = W / 2 if p.far_strip is StripTurn.PAGE else play_cx
    for kind, box in ((Kind.NAME, name), (Kind.DICE, dice), (Kind.TITLE, title)):
        elements.extend(both_sides(kind, None, 0, box, turn_x))
    # The footer, once, along the near edge between the dice space and the corner marker.
    footer_x = dice.right + p.gap
    footer = Rect(
        footer_x, strip_bottom - p.footer_height, W - corner_zone - footer_x, p.footer_height
    )
    elements.append(
        Element(Kind.FOOTER, None, Side.FIRST, 0, footer.x, footer.y, footer.w, footer.h)
    )

    # The powers column: the QR code in its middle, each player's half of the text towards them.
    pcx = powers_x + powers_w / 2
    qr = Rect(pcx - p.qr / 2, cy - p.qr / 2, p.qr, p.qr)
    elements.append(Element(Kind.QR, None, None, 0, qr.x, qr.y, qr.w, qr.h))
    # Text right beside a QR code spoils its quiet zone: the same clearance as the markers'.
    sheet_label = Rect(powers_x, qr.bottom + p.marker_clearance, powers_w, p.sheet_label_height)
    elements.extend(both_sides(Kind.SHEET_LABEL, None, 0, sheet_label, pcx))
    powers_top = sheet_label.bottom + p.gap
    powers = Rect(powers_x, powers_top, powers_w, H - corner_zone - powers_top)
    elements.extend(both_sides(Kind.POWERS, None, 0, powers, pcx))

    return SheetGeometry(
        layout.name, layout.version, paper, W, H, tuple(elements), tuple(frames), layout.arenas
    )


MODE_LETTERS = {"duel": "D", "solo": "S", "team": "T"}
# What `sheet_id` makes (a team pack's index can pass 9999), and the names layouts have.
SHEET_ID_PATTERN = re.compile(r"[DST]-[0-9A-F]{4}-[0-9]{4,5}")
LAYOUT_NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def _quoted(text: str, limit: int = 60) -> str:
    """`text` as repr shows it (escapes visible), cut to `limit` characters if longer."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def sheet_id(mode: str, layout: Layout | str, paper: Paper, index: int, seed: str = "") -> str:
    """A sheet's id: the mode's letter, four hex digits from the build's inputs, the index.

    The same inputs give the same ids (builds are reproducible); `seed` tells batches apart."""
    if mode not in MODE_LETTERS:
        raise LayoutError(f"unknown sheet mode {mode!r}; known: {', '.join(MODE_LETTERS)}")
    name = layout if isinstance(layout, str) else layout.name
    base = zlib.crc32(f"{GAME_NAME}:{name}:{paper.value}:{mode}:{seed}".encode()) & 0xFFFF
    return f"{MODE_LETTERS[mode]}-{base:04X}-{index:04d}"


@dataclass(frozen=True)
class SheetTag:
    """What a sheet's QR code says: which geometry it was drawn from and which sheet it is."""

    layout: str
    version: int
    paper: Paper
    sheet_id: str

    def to_text(self) -> str:
        # In capitals: a QR code holds them in its denser alphanumeric mode, so the code has
        # fewer, bigger modules and a phone photo reads it from further away. Layout names are
        # lower-case file names, so nothing is lost.
        text = f"{GAME_NAME}/{self.layout}/{self.version}/{self.paper.value}/{self.sheet_id}"
        return text.upper()

    @classmethod
    def from_text(cls, text: str) -> SheetTag:
        """The tag a QR code holds. Only what printgen itself prints is accepted: the text comes
        from a photo, so it may be a forged or foreign code, and its parts end up in file names,
        terminals and TOML."""
        shown = _quoted(text)
        parts = text.strip().split("/")
        if len(parts) != 5 or parts[0].lower() != GAME_NAME:
            raise LayoutError(
                f"QR code {shown} is not a One Page War sheet's "
                f"(expected {GAME_NAME}/LAYOUT/VERSION/PAPER/SHEET-ID)"
            )
        _, layout, version, paper, ident = parts
        # str.isdigit() is also true of '²' and other digits int() refuses: ASCII only.
        if not re.fullmatch(r"[0-9]{1,4}", version):
            raise LayoutError(f"QR code {shown}: layout version {_quoted(version)} is not a number")
        if not LAYOUT_NAME_PATTERN.fullmatch(layout.lower()):
            raise LayoutError(f"QR code {shown}: {_quoted(layout)} is not a layout name")
        try:
            paper_value = Paper(paper.lower())
        except ValueError:
            raise LayoutError(f"QR code {shown}: unknown paper {_quoted(paper)}") from None
        if not SHEET_ID_PATTERN.fullmatch(ident.upper()):
            raise LayoutError(
                f"QR code {shown}: {_quoted(ident)} is not a sheet id (such as D-3F2A-0001)"
            )
        return cls(layout.lower(), int(version), paper_value, ident.upper())

    @property
    def mode(self) -> str:
        letter = self.sheet_id[:1]
        for mode, known in MODE_LETTERS.items():
            if known == letter:
                return mode
        raise LayoutError(f"sheet id {self.sheet_id!r} does not start with D, S or T")

    def __repr__(self) -> str:
        return f"SheetTag.from_text({self.to_text()!r})"
