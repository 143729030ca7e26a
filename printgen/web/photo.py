"""A photographed sheet on the page: what the reader found, the cells a person must confirm (each
with a crop of it from the photo, turned upright, and its two likeliest readings), the players'
names, and the sheet the corrections make, which the same referee as a typed-in sheet scores.

What the photo reader's report gives in `to_json()` (printgen.games.one_page_war.reader.report):
"sheet" (the sheet as read, in the typed-in format), "unsure" (each reading below the confidence
threshold: kind, arena, player, 0-based index, reading, second), "advice", "layout", "paper"
and "stakes" (what the unsure cells can change: reader/stakes.py).
The annotated picture it writes, and the plain one the crops are cut from, are the rectified sheet
at a fixed scale, so a cell's box in the sheet's geometry (mm, printgen.games.one_page_war.geometry)
is its place in the pictures too."""

from __future__ import annotations

import base64
import copy
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printgen.errors import quote
from printgen.materials import ScoreReport

# Form fields: square|<arena>|<side 0 or 1>|<1-based square>, allies|<arena>.
SQUARE_VALUE = re.compile(r"^(\d{1,2}|\*|_)$")
MAX_NAME = 40
# A crop shows the cell and this much of the sheet around it (share of the cell's size).
CROP_MARGIN = 0.12
CROP_HEIGHT_PX = 120
# The cell's own frame on its crop, as the annotated picture draws an unsure cell's.
FRAME_RGB = (230, 0, 0)
FRAME_PX = 2
IMAGE_QUALITY = 82


@dataclass(frozen=True)
class Cell:
    """A reading the reader is unsure of."""

    kind: str  # "square", "allies" or "tick"
    arena: str
    side: int | None  # 0 the near side, 1 the far side; None for an S space
    square: int  # 1-based, as the referee's messages count
    reading: str
    second: str
    why: str = ""  # the reader's reason for its doubt, in its own words
    crop: str = ""  # data: URI of the cell from the photo, upright

    @property
    def field(self) -> str:
        if self.kind == "allies":
            return f"allies|{self.arena}"
        return f"{self.kind}|{self.arena}|{self.side}|{self.square}"

    @property
    def editable(self) -> bool:
        return self.kind in {"square", "allies"}

    def label(self, players: tuple[str, str]) -> str:
        if self.kind == "allies":
            return f"{self.arena}: an S written in the middle?"
        noun = "tick box" if self.kind == "tick" else "square"
        owner = players[self.side or 0]
        return f"{self.arena}, {owner}, {noun} {self.square}"

    @property
    def reason(self) -> str:
        """Why the reader is unsure, as a sentence: what tells a player where to look (the
        line, the light, a skipping pen) when the two readings alone do not."""
        if not self.why:
            return ""
        sentence = self.why[0].upper() + self.why[1:]
        return sentence if sentence.endswith((".", "?", ")")) else sentence + "."

    def as_field(self, value: str) -> str:
        """A reading as the field holds it."""
        if self.kind == "allies":
            return "S" if value == "S" else ""
        return "" if value in {"_", "empty", "?"} else value

    @property
    def choices(self) -> tuple[tuple[str, str], ...]:
        """The two likeliest readings as (field value, words). An S space offers both of its
        values, likelier first: read as S with "another mark" second, it had offered no "no S"."""
        found: list[tuple[str, str]] = []
        values = (self.reading, self.second) + (("S", "") if self.kind == "allies" else ())
        for value in values:
            if value == "?":
                continue
            shown = self.as_field(value)
            if shown not in (v for v, _ in found):
                found.append((shown, _said(shown, self.kind)))
        return tuple(found[:2])


def _said(value: str, kind: str) -> str:
    if kind == "allies":
        return "S" if value == "S" else "no S"
    return value or "empty"


@dataclass(frozen=True)
class PhotoSheet:
    """A photo as read: kept with its result so it can be corrected and shown again."""

    photo_name: str  # the photo's own file name, never the server's path
    sheet: dict[str, Any]  # the sheet as read
    cells: tuple[Cell, ...]
    advice: tuple[str, ...]
    sheet_id: str
    image: bytes = field(repr=False)  # the annotated sheet, JPEG
    # What the unsure cells can change (the reader's "stakes", reader/stakes.py), unknown on a
    # sheet it could not score: `holds` when who wins is the same whatever they hold, with the
    # winner's side (0 near, 1 far; None a draw); else the arenas whose cells can change it.
    holds: bool = False
    winner_side: int | None = None
    deciding_arenas: tuple[str, ...] = ()

    @property
    def to_confirm(self) -> tuple[Cell, ...]:
        """The cells a person confirms, those that can change who wins first."""
        cells = [c for c in self.cells if c.editable]
        return tuple(sorted(cells, key=lambda c: c.arena not in self.deciding_arenas))

    def winner_name(self, names: tuple[str, str]) -> str | None:
        return None if self.winner_side is None else names[self.winner_side]

    @property
    def players(self) -> tuple[str, str]:
        first, second = self.sheet.get("players", ("First", "Second"))[:2]
        return str(first), str(second)

    @property
    def size(self) -> int:
        return len(self.image) + sum(len(c.crop) for c in self.cells) + 4096


def photo_sheet(
    report: ScoreReport, photo_name: str, annotated: Path | None, plain: Path | None
) -> PhotoSheet:
    """The sheet as read, its annotated picture (`annotated`) and each unsure cell's crop, cut
    from the `plain` picture: cut from the annotated one, a crop showed the reading written
    above the cell below it."""
    data = report.to_json()
    sheet = data.get("sheet")
    sheet = dict(sheet) if isinstance(sheet, Mapping) else {}
    players = tuple(str(p) for p in sheet.get("players", ("First", "Second")))
    cells = tuple(_cell(entry, players) for entry in data.get("unsure") or ())
    image = b""
    if annotated is not None and annotated.is_file():
        image, cells = _pictures(
            annotated,
            plain if plain is not None and plain.is_file() else None,
            cells,
            str(data.get("layout")),
            str(data.get("paper")),
            tuple(str(a) for a in data.get("advice") or ()),
        )
    found = data.get("stakes")
    stakes: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    winners = list(stakes.get("winners") or ())
    holds = bool(stakes.get("result_holds")) and len(winners) == 1
    side = players.index(winners[0]) if holds and winners[0] in players else None
    return PhotoSheet(
        photo_name=photo_name,
        sheet=sheet,
        cells=cells,
        advice=tuple(str(a) for a in data.get("advice") or ()),
        sheet_id=str(data.get("sheet_id") or ""),  # "" when its QR code was not read
        image=image,
        holds=holds,
        winner_side=side,
        deciding_arenas=tuple(str(a) for a in stakes.get("open_arenas") or ()),
    )


def _cell(entry: Mapping[str, Any], players: tuple[str, ...]) -> Cell:
    kind = str(entry.get("kind", "square"))
    player = entry.get("player")
    side = None if kind == "allies" else (1 if len(players) > 1 and player == players[1] else 0)
    return Cell(
        kind=kind,
        arena=str(entry.get("arena", "")),
        side=side,
        square=int(entry.get("index", 0)) + 1,
        reading=str(entry.get("reading", "")),
        second=str(entry.get("second", "")),
        why=str(entry.get("why") or ""),
    )


def _pictures(
    annotated: Path,
    plain: Path | None,
    cells: tuple[Cell, ...],
    layout: str,
    paper: str,
    advice: tuple[str, ...],
) -> tuple[bytes, tuple[Cell, ...]]:
    """The annotated sheet as a JPEG, and each cell with its crop from the `plain` picture (none
    without it), framed as the annotated picture frames it and turned as it was written (the
    reader's `advice` says when a side was written the other way up)."""
    from dataclasses import replace

    from PIL import Image, ImageDraw

    from printgen.games.one_page_war.geometry import Kind, Side, sheet_geometry
    from printgen.games.one_page_war.reader.cells import TURNED_NOTE
    from printgen.render.units import Paper

    with Image.open(annotated) as opened:
        picture = opened.convert("RGB")
    if plain is None:
        return _jpeg(picture), cells
    with Image.open(plain) as opened:
        sheet = opened.convert("RGB")
    turned = {
        side
        for side, name in ((Side.FIRST, "near"), (Side.SECOND, "far"))
        if TURNED_NOTE.format(side=name) in advice
    }
    geometry = sheet_geometry(layout, Paper(paper))
    scale = sheet.width / geometry.width
    cropped = []
    for cell in cells:
        side = None if cell.side is None else (Side.FIRST, Side.SECOND)[cell.side]
        try:
            e = geometry.find(Kind(cell.kind), cell.arena, side, cell.square - 1)
        except (KeyError, ValueError, LookupError):
            cropped.append(cell)
            continue
        margin = CROP_MARGIN * min(e.w, e.h)
        box = (
            max(0, round((e.x - margin) * scale)),
            max(0, round((e.y - margin) * scale)),
            min(sheet.width, round((e.x + e.w + margin) * scale)),
            min(sheet.height, round((e.y + e.h + margin) * scale)),
        )
        crop = sheet.crop(box)
        frame = (
            round(e.x * scale) - box[0],
            round(e.y * scale) - box[1],
            round((e.x + e.w) * scale) - box[0],
            round((e.y + e.h) * scale) - box[1],
        )
        ImageDraw.Draw(crop).rectangle(frame, outline=FRAME_RGB, width=FRAME_PX)
        if e.upside_down != (e.side in turned):
            crop = crop.rotate(180)
        ratio = CROP_HEIGHT_PX / max(1, crop.height)
        crop = crop.resize(
            (max(1, round(crop.width * ratio)), CROP_HEIGHT_PX), Image.Resampling.LANCZOS
        )
        cropped.append(replace(cell, crop=_data_uri(_jpeg(crop))))
    return _jpeg(picture), tuple(cropped)


def _jpeg(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=IMAGE_QUALITY)
    return buffer.getvalue()


def _data_uri(jpeg: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")


# --- the player's corrections ---------------------------------------------------------------


@dataclass(frozen=True)
class Corrections:
    """What the form says: a value per unsure cell, the players' names, and which cells a
    person has looked at. `problems` are per field (a mistyped value, a bad name)."""

    values: Mapping[str, str]
    names: tuple[str, str]
    confirmed: frozenset[str]
    problems: Mapping[str, str]


def first_corrections(photo: PhotoSheet, names: tuple[str, str]) -> Corrections:
    """Before any correction: each field holds the likeliest reading."""
    values = {c.field: c.as_field(c.reading) for c in photo.to_confirm}
    chosen, problems = _names(names, photo.players)
    return Corrections(values, chosen, frozenset(), problems)


def read_corrections(photo: PhotoSheet, form: Mapping[str, str]) -> Corrections:
    """The form sent back. A choice button (`pick`) sets its cell and confirms only that cell;
    the names' own button (`only=names`) confirms only the cells whose value was changed; the
    main button ("Confirm all and score") confirms every cell. Renaming the players had
    confirmed a misread cell nobody looked at, and made the result final."""
    values: dict[str, str] = {}
    problems: dict[str, str] = {}
    picked_field, _, picked_value = form.get("pick", "").partition("=")
    confirmed = set(form.get("confirmed", "").split()) & {c.field for c in photo.to_confirm}
    for cell in photo.to_confirm:
        raw = form.get(cell.field, cell.as_field(cell.reading)).strip()
        if cell.field == picked_field:
            raw = picked_value
            confirmed.add(cell.field)
        values[cell.field] = raw
        if cell.kind == "square" and raw and not SQUARE_VALUE.match(raw):
            problems[cell.field] = f"{quote(raw)} is not a number, * or empty"
    if form.get("only") == "names":
        confirmed |= {c.field for c in photo.to_confirm if values[c.field] != c.as_field(c.reading)}
    elif not picked_field:
        confirmed = {c.field for c in photo.to_confirm}
    names, name_problems = _names((form.get("first", ""), form.get("second", "")), photo.players)
    problems.update(name_problems)
    return Corrections(values, names, frozenset(confirmed), problems)


def _names(given: tuple[str, str], defaults: tuple[str, str]) -> tuple[tuple[str, str], dict]:
    names = tuple(" ".join(g.split()) or d for g, d in zip(given, defaults, strict=True))
    first, second = names
    problems: dict[str, str] = {}
    for key, name in (("first", first), ("second", second)):
        if len(name) > MAX_NAME:
            problems[key] = f"at most {MAX_NAME} characters, not {len(name)}"
    if first.casefold() == second.casefold():
        problems["second"] = f"the two players need different names, not {quote(first)} twice"
    return (first, second), problems


def corrected_sheet(photo: PhotoSheet, corrections: Corrections) -> dict[str, Any]:
    """The sheet as read with each field written in and the players renamed."""
    sheet = copy.deepcopy(photo.sheet)
    arenas = sheet.get("arenas", {})
    read_as = photo.players
    for cell in photo.to_confirm:
        table = arenas.get(cell.arena)
        value = corrections.values.get(cell.field, "")
        untouched = value == cell.as_field(cell.reading)
        if not isinstance(table, dict) or (untouched and cell.field not in corrections.confirmed):
            continue  # as read until a person looks: "another mark" stays one, not empty
        if cell.kind == "allies":
            if value == "S":
                table["allies"] = True
            else:
                table.pop("allies", None)
            continue
        squares = table.get(read_as[cell.side or 0])
        if isinstance(squares, list) and 0 < cell.square <= len(squares):
            squares[cell.square - 1] = int(value) if value.isdigit() else (value or "_")
    if corrections.names != read_as:
        renamed = dict(zip(read_as, corrections.names, strict=True))
        sheet["players"] = list(corrections.names)
        for name, table in arenas.items():
            if isinstance(table, dict):
                arenas[name] = {renamed.get(k, k): v for k, v in table.items()}
    return sheet
