"""The photo result as the page shows it, and a corrected sheet from the page's form.

What the photo reader's report gives in `to_json()` (printgen.games.one_page_war.reader.report):
- "sheet": the sheet as read, in the typed-in format the referee scores;
- "unsure": each reading below the confidence threshold: {"kind": "square" | "tick" | "allies",
  "arena", "player", "index" (0-based), "reading", "second", ...};
- "score": the referee's own JSON for the sheet as read (None when it could not be scored).

The page shows each unsure square as a field holding the likeliest reading, and an unsure S space
as a yes/no choice. The form sends back the sheet as read (JSON, hidden) and the fields;
`corrected_sheet` writes them into the sheet, which then goes to the same referee as any typed-in
sheet. Tick boxes are not part of the typed-in sheet, so an unsure tick is shown, not asked."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from printgen.errors import InputError
from printgen.materials import ScoreReport

# Form fields: square|<arena>|<player>|<1-based square>, allies|<arena>.
SQUARE_FIELD = "square|"
ALLIES_FIELD = "allies|"
SQUARE_VALUE = re.compile(r"^(\d{1,2}|\*|_)$")


@dataclass(frozen=True)
class UnsureCell:
    kind: str  # "square", "allies" or "tick"
    arena: str
    player: str | None
    square: int  # 1-based, as the referee's messages count
    reading: str
    second: str
    value: str  # what the field holds: the likeliest reading, or the player's correction

    @property
    def field(self) -> str:
        if self.kind == "allies":
            return f"{ALLIES_FIELD}{self.arena}"
        return f"{SQUARE_FIELD}{self.arena}|{self.player}|{self.square}"

    @property
    def editable(self) -> bool:
        return self.kind in {"square", "allies"}

    @property
    def label(self) -> str:
        if self.kind == "allies":
            return f"{self.arena}: an S written in the middle?"
        noun = "tick box" if self.kind == "tick" else "square"
        return f"{self.arena}, {self.player}, {noun} {self.square}"

    @property
    def read_as(self) -> str:
        """The reader's two likeliest readings, in words."""
        return f"read as {_said(self.reading)}, else {_said(self.second)}"

    def to_json(self) -> list[Any]:
        return [self.kind, self.arena, self.player, self.square, self.reading, self.second]


@dataclass(frozen=True)
class PhotoView:
    sheet_json: str  # the sheet as read, carried by the correction form
    unsure: tuple[UnsureCell, ...]
    advice: tuple[str, ...]
    corrected: bool

    @property
    def to_correct(self) -> tuple[UnsureCell, ...]:
        return tuple(cell for cell in self.unsure if cell.editable)

    @property
    def unsure_json(self) -> str:
        return json.dumps([cell.to_json() for cell in self.unsure], ensure_ascii=False)


def photo_view(report: ScoreReport) -> PhotoView:
    """What the reader found: the sheet as read and its unsure cells."""
    data = report.to_json()
    found = data.get("sheet")
    unsure = tuple(_unsure_cell(entry) for entry in data.get("unsure") or ())
    return PhotoView(
        json.dumps(found if isinstance(found, dict) else {}, ensure_ascii=False),
        unsure,
        tuple(str(a) for a in data.get("advice") or ()),
        corrected=False,
    )


def corrected_view(form: Mapping[str, str]) -> PhotoView:
    """The same cells again after a correction, each showing what the player gave, so that a
    slip can be corrected in turn."""
    try:
        listed = json.loads(form.get("unsure", "[]"))
        cells = tuple(
            UnsureCell(str(k), str(a), None if p is None else str(p), int(n), str(r), str(s), "")
            for k, a, p, n, r, s in listed
        )
    except (json.JSONDecodeError, TypeError, ValueError):
        raise InputError("the form lost the cells it was showing; take the photo again") from None
    cells = tuple(replace(cell, value=form.get(cell.field, cell.value)) for cell in cells)
    return PhotoView(form.get("sheet", "{}"), cells, (), corrected=True)


def _said(reading: str) -> str:
    return {"_": "empty", "?": "another mark", "empty": "empty", "ticked": "ticked"}.get(
        reading, reading
    )


def _unsure_cell(entry: Mapping[str, Any]) -> UnsureCell:
    player = entry.get("player")
    reading = str(entry.get("reading", ""))
    return UnsureCell(
        kind=str(entry.get("kind", "square")),
        arena=str(entry.get("arena", "")),
        player=None if player is None else str(player),
        square=int(entry.get("index", 0)) + 1,
        reading=reading,
        second=str(entry.get("second", "")),
        value="" if reading in {"_", "empty"} else reading,
    )


def corrected_sheet(form: Mapping[str, str]) -> dict[str, Any]:
    """The sheet from the form's hidden field with each field written in."""
    try:
        sheet = json.loads(form.get("sheet", ""))
    except json.JSONDecodeError:
        sheet = None
    if not isinstance(sheet, dict) or not isinstance(sheet.get("arenas"), dict):
        raise InputError("the form lost the sheet it was showing; take the photo again")
    sheet = copy.deepcopy(sheet)
    for field, raw in form.items():
        if field.startswith(SQUARE_FIELD):
            _write_square(sheet, field.removeprefix(SQUARE_FIELD), raw.strip())
        elif field.startswith(ALLIES_FIELD):
            _write_allies(sheet, field.removeprefix(ALLIES_FIELD), raw)
    return sheet


def _write_square(sheet: dict[str, Any], where: str, raw: str) -> None:
    arena, player, square = (where.split("|") + ["", "", ""])[:3]
    label = f"{arena}, {player}, square {square}"
    value = raw or "_"
    if not SQUARE_VALUE.match(value):
        raise InputError(f"{label}: {raw!r} is not a number, '*' or empty")
    try:
        squares = sheet["arenas"][arena][player]
        index = int(square) - 1
        if not 0 <= index < len(squares):
            raise IndexError(index)
    except (KeyError, TypeError, ValueError, IndexError):
        raise InputError(f"{label}: the sheet has no such square") from None
    squares[index] = int(value) if value.isdigit() else value


def _write_allies(sheet: dict[str, Any], arena: str, raw: str) -> None:
    table = sheet["arenas"].get(arena)
    if not isinstance(table, dict):
        raise InputError(f"{arena}: the sheet has no such arena")
    if raw == "S":
        table["allies"] = True
    else:
        table.pop("allies", None)
