"""What a photographed sheet truly holds, cell by cell: the answer key kept beside a photo.

The recogniser reads real people's handwriting only as well as the handwriting it has learnt
from and been calibrated on. Photos of real sheets, each with its answer key, are how more of
it comes in: `training/train_digits.py` learns from a folder of them (`--train-dir`) and
measures its thresholds on another (`--calibration-dir`), and `tests/photo_corpus.py` writes the
same keys beside its synthetic photos.

An answer key is JSON: `"kind/arena/side/index"` (the side `first`, `second`, or `None` for an
S space) to what the cell holds: a square `"3"`, `"*"` or `"_"`, an S space `"S"` or `"empty"`.
It is made from the typed-in sheet a person has checked against the paper. Tick boxes are left
out, because a typed-in sheet says how many uses a power had, not which boxes were ticked."""

from __future__ import annotations

from pathlib import Path

from printgen.errors import InputError
from printgen.games.one_page_war.geometry import Element, Kind, SheetGeometry, Side
from printgen.games.one_page_war.rules import Mark
from printgen.games.one_page_war.sheet import Mode, Sheet


class TruthError(InputError):
    """The typed-in sheet is not a sheet the photo can show."""


Cell = tuple[str, str | None, str | None, int]  # kind, arena, side, index: one cell of a sheet


def cell_of(e: Element) -> Cell:
    return (e.kind.value, e.arena, e.side.value if e.side else None, e.index)


def key_of(cell: Cell) -> str:
    """A cell's key in an answer key: "square/Land/first/2", "allies/Sea/None/0"."""
    return "/".join(str(part) for part in cell)


def cell_from_key(key: str) -> Cell:
    """`key_of` read back."""
    kind, arena, side, index = key.split("/")
    return (kind, arena, None if side == "None" else side, int(index))


def cell_key(e: Element) -> str:
    return key_of(cell_of(e))


def sheet_cells(sheet: Sheet, geometry: SheetGeometry) -> dict[Element, str]:
    """Each square and S space of `geometry` as `sheet` fills it. The sheet's first player writes
    on the near side. Raises TruthError where the sheet's arenas or squares are not the
    geometry's."""
    held: dict[Element, str] = {}
    printed = list(dict.fromkeys(str(e.arena) for e in geometry.select(Kind.SQUARE)))
    named = [a.name for a in sheet.arenas]
    if sorted(named) != sorted(printed):
        raise TruthError(
            f"{sheet.source or 'sheet'}: its arenas are {', '.join(named)}, but the "
            f"photographed sheet prints {', '.join(printed)}"
        )
    for arena in sheet.arenas:
        for side, player_side in zip((Side.FIRST, Side.SECOND), arena.sides, strict=True):
            boxes = geometry.select(Kind.SQUARE, arena.name, side)
            if len(boxes) != len(player_side.squares):
                raise TruthError(
                    f"{sheet.source or 'sheet'}: {arena.name}, {player_side.player} has "
                    f"{len(player_side.squares)} squares, but the photographed sheet prints "
                    f"{len(boxes)} there"
                )
            for e, square in zip(boxes, player_side.squares, strict=True):
                held[e] = square.value if isinstance(square, Mark) else str(square)
        for e in geometry.select(Kind.ALLIES, arena.name):
            held[e] = "S" if arena.allies else "empty"
    return held


def answer_key(photo: Path, sheet: Sheet) -> dict[str, str]:
    """The answer key of `photo` from `sheet`, the typed-in sheet a person has checked against
    the paper. The photo is located as the reader locates it (a PhotoError when it cannot be),
    and its QR code (or printed grid) says which sheet it is; `sheet` must be that layout and
    mode."""
    from printgen.games.one_page_war.reader.photo import load_photo
    from printgen.games.one_page_war.reader.reading import locate_photo

    _, located = locate_photo(load_photo(photo), str(photo))
    tag = located.tag
    source = sheet.source or "sheet"
    if tag.mode == "team":
        raise TruthError(
            f"{photo}: a team pack's sheet; answer keys are made for duel and solo sheets"
        )
    if sheet.layout.name != tag.layout:
        raise TruthError(
            f"{source}: layout {sheet.layout.name!r}, but the photo shows a sheet of layout "
            f"{tag.layout!r}"
        )
    if sheet.mode is not Mode(tag.mode):
        raise TruthError(
            f"{source}: a {sheet.mode.value} sheet, but the photo shows a {tag.mode} sheet"
        )
    return {cell_key(e): value for e, value in sheet_cells(sheet, located.geometry).items()}
