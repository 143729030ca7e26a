"""aiue battle geometry: the layout data in `layouts/aiue-battle/NAME.toml`, read into frozen
values, and placed on a page. Drawing, tests and `printgen layout aiue-battle` all place things
through the functions here, so what is drawn and what is checked is one definition."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from printgen import layouts
from printgen.errors import LayoutError
from printgen.render.marks import MarkSegment, crop_mark_segments
from printgen.render.units import SAFE_MARGIN_MM, PageSize, Paper, Rect

LAYOUT_FOLDER = "aiue-battle"


@dataclass(frozen=True)
class AlphabetSide:
    letters: str
    columns: int
    cell_width: float
    cell_height: float
    letter_size: float
    example_cell: tuple[int, int]

    @property
    def rows(self) -> int:
        return -(-len(self.letters) // self.columns)


@dataclass(frozen=True)
class KanaSide:
    columns: tuple[str, ...]  # reading order; drawn right to left
    cell_width: float
    cell_height: float
    letter_size: float
    key_height: float
    example_cell: tuple[int, int]

    @property
    def rows(self) -> int:
        return max(len(column) for column in self.columns)

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(ch for column in self.columns for ch in column if ch != " ")


@dataclass(frozen=True)
class Board:
    title_height: float
    alphabet: AlphabetSide
    kana: KanaSide


@dataclass(frozen=True)
class CardColour:
    name: str
    fill: str  # "#RRGGBB"
    ink: str  # the pattern's colour on that fill
    pattern: str


PATTERNS = ("stripes", "dots", "diagonals", "checks", "crosses")


@dataclass(frozen=True)
class Cards:
    face_width: float
    half_height: float
    columns: int
    rows: int
    header_height: float
    footer_height: float
    frame: float
    name_band: float
    flag_size: float
    flagged: int
    colours: tuple[CardColour, ...]
    bleed: float  # the colour runs this far past the outer cuts
    crop_offset: float  # from the cut to the start of its crop mark, clear of the bleed
    crop_length: float

    @property
    def mark_zone(self) -> float:
        """The margin round the block of cards that its crop marks take."""
        return self.crop_offset + self.crop_length

    @property
    def per_colour(self) -> int:
        return self.columns * self.rows

    @property
    def total(self) -> int:
        return self.per_colour * len(self.colours)


@dataclass(frozen=True)
class Record:
    title_height: float
    header_height: float
    row_height: float
    rounds: int
    round_width: float
    topic_width: float
    word_width: float
    players: int
    out_width: float
    winner_width: float
    card_width: float
    card_height: float
    card_gap: float
    date_width: float

    @property
    def column_widths(self) -> tuple[float, ...]:
        return (
            self.round_width,
            self.topic_width,
            *([self.word_width] * self.players),
            self.out_width,
            self.winner_width,
        )


@dataclass(frozen=True)
class Layout:
    name: str
    version: int
    board: Board
    cards: Cards
    record: Record


def layout_names() -> tuple[str, ...]:
    return layouts.layout_names(LAYOUT_FOLDER)


@cache
def load_layout(name: str = "standard") -> Layout:
    path, data = layouts.read_layout(LAYOUT_FOLDER, name, "aiue battle")
    try:
        return _layout(data)
    except (KeyError, TypeError, ValueError) as error:
        raise LayoutError(f"{path}: missing or malformed field {error}") from None


def _layout(data: Mapping[str, Any]) -> Layout:
    board, cards, record = data["board"], data["cards"], data["record"]
    alphabet, kana = board["alphabet"], board["kana"]
    colours = tuple(
        CardColour(str(c["name"]), str(c["fill"]), str(c["ink"]), str(c["pattern"]))
        for c in cards["colours"]
    )
    for colour in colours:
        if colour.pattern not in PATTERNS:
            raise ValueError(f"colour {colour.name}: pattern {colour.pattern!r} not in {PATTERNS}")
    if len({c.pattern for c in colours}) != len(colours):
        raise ValueError("two colours share a pattern: each needs its own for colour-blind eyes")
    if float(cards["crop_offset"]) <= float(cards["bleed"]):
        raise ValueError("cards.crop_offset: crop marks must start outside the bleed")
    return Layout(
        name=str(data["name"]),
        version=int(data["version"]),
        board=Board(
            title_height=float(board["title_height"]),
            alphabet=AlphabetSide(
                str(alphabet["letters"]),
                int(alphabet["columns"]),
                float(alphabet["cell_width"]),
                float(alphabet["cell_height"]),
                float(alphabet["letter_size"]),
                _place(alphabet["example_cell"]),
            ),
            kana=KanaSide(
                tuple(str(c) for c in kana["columns"]),
                float(kana["cell_width"]),
                float(kana["cell_height"]),
                float(kana["letter_size"]),
                float(kana["key_height"]),
                _place(kana["example_cell"]),
            ),
        ),
        cards=Cards(
            face_width=float(cards["face_width"]),
            half_height=float(cards["half_height"]),
            columns=int(cards["columns"]),
            rows=int(cards["rows"]),
            header_height=float(cards["header_height"]),
            footer_height=float(cards["footer_height"]),
            frame=float(cards["frame"]),
            name_band=float(cards["name_band"]),
            flag_size=float(cards["flag_size"]),
            flagged=int(cards["flagged"]),
            colours=colours,
            bleed=float(cards["bleed"]),
            crop_offset=float(cards["crop_offset"]),
            crop_length=float(cards["crop_length"]),
        ),
        record=Record(
            title_height=float(record["title_height"]),
            header_height=float(record["header_height"]),
            row_height=float(record["row_height"]),
            rounds=int(record["rounds"]),
            round_width=float(record["round_width"]),
            topic_width=float(record["topic_width"]),
            word_width=float(record["word_width"]),
            players=int(record["players"]),
            out_width=float(record["out_width"]),
            winner_width=float(record["winner_width"]),
            card_width=float(record["card_width"]),
            card_height=float(record["card_height"]),
            card_gap=float(record["card_gap"]),
            date_width=float(record["date_width"]),
        ),
    )


def _place(value: Any) -> tuple[int, int]:
    column, row = value
    return (int(column), int(row))


# --- placing it on a page ---


def board_page(paper: Paper) -> PageSize:
    return paper.size.landscape()


def cards_page(paper: Paper) -> PageSize:
    return paper.size.portrait()


def record_page(paper: Paper) -> PageSize:
    return paper.size.landscape()


def _centred(page: PageSize, width: float, height: float, what: str) -> Rect:
    rect = Rect((page.width_mm - width) / 2, (page.height_mm - height) / 2, width, height)
    if not rect.inside(page):
        raise LayoutError(
            f"{what} is {width:.1f} x {height:.1f} mm; the page leaves "
            f"{page.width_mm - 2 * SAFE_MARGIN_MM:.1f} x "
            f"{page.height_mm - 2 * SAFE_MARGIN_MM:.1f} mm inside its {SAFE_MARGIN_MM:g} mm margins"
        )
    return rect


@dataclass(frozen=True)
class Cell:
    letter: str
    rect: Rect


@dataclass(frozen=True)
class BoardSide:
    """One side of the board placed on its page: title band, letter cells, and (kana) the key."""

    block: Rect
    title: Rect
    cells: tuple[Cell, ...]
    example: Rect  # an empty grid place showing how a called letter is struck
    key: Rect | None


def alphabet_side(layout: Layout, paper: Paper) -> BoardSide:
    spec, page = layout.board.alphabet, board_page(paper)
    grid_h = spec.rows * spec.cell_height
    block = _centred(
        page,
        spec.columns * spec.cell_width,
        layout.board.title_height + grid_h,
        "the alphabet side of the board",
    )
    cells = []
    for i, letter in enumerate(spec.letters):
        row, col = divmod(i, spec.columns)
        in_row = min(spec.columns, len(spec.letters) - row * spec.columns)
        # A short last row is centred under the full ones.
        left = block.x + (spec.columns - in_row) * spec.cell_width / 2 + col * spec.cell_width
        top = block.y + grid_h - row * spec.cell_height
        cells.append(
            Cell(letter, Rect(left, top - spec.cell_height, spec.cell_width, spec.cell_height))
        )
    title = Rect(block.x, block.y + grid_h, block.width, layout.board.title_height)
    column, row = spec.example_cell
    example = Rect(
        block.x + column * spec.cell_width,
        block.y + grid_h - (row + 1) * spec.cell_height,
        spec.cell_width,
        spec.cell_height,
    )
    return _side(block, title, tuple(cells), example, None)


def _side(
    block: Rect, title: Rect, cells: tuple[Cell, ...], example: Rect, key: Rect | None
) -> BoardSide:
    for cell in cells:
        if _overlap(cell.rect, example):
            raise LayoutError(f"the board's example place overlaps the letter {cell.letter!r}")
    return BoardSide(block, title, cells, example, key)


def _overlap(a: Rect, b: Rect) -> bool:
    eps = 1e-6
    return a.x < b.right - eps and b.x < a.right - eps and a.y < b.top - eps and b.y < a.top - eps


def kana_side(layout: Layout, paper: Paper) -> BoardSide:
    spec, page = layout.board.kana, board_page(paper)
    grid_h = spec.rows * spec.cell_height
    block = _centred(
        page,
        len(spec.columns) * spec.cell_width,
        layout.board.title_height + grid_h + spec.key_height,
        "the kana side of the board",
    )
    grid_top = block.y + spec.key_height + grid_h
    cells = []
    for c, column in enumerate(spec.columns):
        # Japanese reads the table from the right: the あ column is the rightmost.
        left = block.right - (c + 1) * spec.cell_width
        for r, letter in enumerate(column):
            if letter == " ":
                continue
            top = grid_top - r * spec.cell_height
            cells.append(
                Cell(letter, Rect(left, top - spec.cell_height, spec.cell_width, spec.cell_height))
            )
    title = Rect(block.x, grid_top, block.width, layout.board.title_height)
    key = Rect(block.x, block.y, block.width, spec.key_height)
    place, row = spec.example_cell
    example = Rect(
        block.right - (place + 1) * spec.cell_width,
        grid_top - (row + 1) * spec.cell_height,
        spec.cell_width,
        spec.cell_height,
    )
    return _side(block, title, tuple(cells), example, key)


@dataclass(frozen=True)
class CardSlot:
    """One tent card on its sheet: the whole strip to cut, the face half and the back half."""

    index: int
    flagged: bool
    strip: Rect
    face: Rect  # below the fold, reads upright on the sheet
    back: Rect  # above the fold, drawn upside down so it reads upright once folded

    @property
    def fold_y(self) -> float:
        return self.face.top


@dataclass(frozen=True)
class CardSheet:
    header: Rect
    grid: Rect  # the block of cards: what is left once every cut is made (the TrimBox)
    bleed: Rect  # the grid grown by the bleed: the colour covers all of it (the BleedBox)
    footer: Rect
    slots: tuple[CardSlot, ...]
    cuts_x: tuple[float, ...]  # every vertical cut, shared between neighbours
    cuts_y: tuple[float, ...]
    crop_marks: tuple[MarkSegment, ...]  # solid marks outside the bleed, one at each cut's end

    @property
    def folds_y(self) -> tuple[float, ...]:
        return tuple(sorted({slot.fold_y for slot in self.slots}))


def card_sheet(layout: Layout, paper: Paper) -> CardSheet:
    spec, page = layout.cards, cards_page(paper)
    strip_h = 2 * spec.half_height
    grid_w, grid_h = spec.columns * spec.face_width, spec.rows * strip_h
    zone = spec.mark_zone
    block = _centred(
        page,
        grid_w + 2 * zone,
        spec.header_height + zone + grid_h + zone + spec.footer_height,
        "a sheet of letter cards with its crop marks",
    )
    grid = Rect(block.x + zone, block.y + spec.footer_height + zone, grid_w, grid_h)
    slots = []
    for i in range(spec.per_colour):
        row, col = divmod(i, spec.columns)
        x = grid.x + col * spec.face_width
        y = grid.top - (row + 1) * strip_h
        slots.append(
            CardSlot(
                index=i,
                flagged=i == spec.flagged,
                strip=Rect(x, y, spec.face_width, strip_h),
                face=Rect(x, y, spec.face_width, spec.half_height),
                back=Rect(x, y + spec.half_height, spec.face_width, spec.half_height),
            )
        )
    cuts_x = tuple(grid.x + c * spec.face_width for c in range(spec.columns + 1))
    cuts_y = tuple(grid.y + r * strip_h for r in range(spec.rows + 1))
    b = spec.bleed
    return CardSheet(
        header=Rect(block.x, block.top - spec.header_height, block.width, spec.header_height),
        grid=grid,
        bleed=Rect(grid.x - b, grid.y - b, grid.width + 2 * b, grid.height + 2 * b),
        footer=Rect(block.x, block.y, block.width, spec.footer_height),
        slots=tuple(slots),
        cuts_x=cuts_x,
        cuts_y=cuts_y,
        crop_marks=tuple(
            crop_mark_segments(
                grid, cuts_x, cuts_y, offset=spec.crop_offset, length=spec.crop_length
            )
        ),
    )


@dataclass(frozen=True)
class RecordSheet:
    title: Rect
    header: Rect  # the column titles and the players' names
    columns: tuple[Rect, ...]  # each column's full height, header and rounds
    rows: tuple[Rect, ...]  # each round's row across the table
    date: Rect  # the line to write the date on, at the title band's right (height 0)

    @property
    def baseline(self) -> float:
        """The title band's baseline: the title, the hint and the date line's label."""
        return self.title.y + self.title.height / 2 - 1.5


def record_sheet(layout: Layout, paper: Paper) -> RecordSheet:
    spec, page = layout.record, record_page(paper)
    widths = spec.column_widths
    table_h = spec.header_height + spec.rounds * spec.row_height
    block = _centred(page, sum(widths), spec.title_height + table_h, "the record sheet")
    columns, x = [], block.x
    for width in widths:
        columns.append(Rect(x, block.y, width, table_h))
        x += width
    header = Rect(block.x, block.y + table_h - spec.header_height, block.width, spec.header_height)
    rows = tuple(
        Rect(block.x, header.y - (r + 1) * spec.row_height, block.width, spec.row_height)
        for r in range(spec.rounds)
    )
    title = Rect(block.x, block.y + table_h, block.width, spec.title_height)
    # The line sits a little under the baseline of its label, as on a form.
    line_y = title.y + title.height / 2 - 1.5 - 0.8
    date = Rect(title.right - spec.date_width, line_y, spec.date_width, 0.0)
    return RecordSheet(title, header, tuple(columns), rows, date)


def topic_cards(layout: Layout, paper: Paper) -> tuple[Rect, ...]:
    spec, page = layout.record, record_page(paper)
    block = _centred(
        page, 2 * spec.card_width + spec.card_gap, spec.card_height, "two topic cards side by side"
    )
    return (
        Rect(block.x, block.y, spec.card_width, spec.card_height),
        Rect(block.right - spec.card_width, block.y, spec.card_width, spec.card_height),
    )


def geometry(name: str, paper: Paper) -> dict[str, Any]:
    """Every placed element in mm, for `printgen layout aiue-battle --paper ...`."""
    layout = load_layout(name)
    return {
        "game": "aiue-battle",
        "layout": layout.name,
        "version": layout.version,
        "paper": paper.value,
        "board": {
            "page": asdict(board_page(paper)),
            "alphabet": asdict(alphabet_side(layout, paper)),
            "kana": asdict(kana_side(layout, paper)),
        },
        "cards": {
            "page": asdict(cards_page(paper)),
            "colours": [asdict(c) for c in layout.cards.colours],
            "sheet": asdict(card_sheet(layout, paper)),
        },
        "record": {
            "page": asdict(record_page(paper)),
            "sheet": asdict(record_sheet(layout, paper)),
            "topic_cards": [asdict(r) for r in topic_cards(layout, paper)],
        },
    }
