"""Reading a photographed One Page War sheet: from a phone photo to a checked, scored sheet.

    load_photo -> locate (markers.py, grid.py: markers, QR code or printed grid, homography,
    quality) -> rectify -> settle (grid.py: on a sheet that does not lie flat, each cell where
    its printed boxes are) -> Ink (lighting evened out)
    -> read_sheet (squares, tick boxes, S spaces; digits.py recognises marks; cells too soft for
    their writing are unsure) -> cross_check (the rules) -> PhotoReport (typed-in TOML, unsure
    cells, the referee's score, and what the unsure cells can change: stakes.py).

Many photos at once, a team game from its sheets' photos and a print run's summary: batch.py.

Never silently wrong: a cell below the calibrated confidence, or one the rules contradict, is
unsure, and the result is then provisional (exit code 3).

A photo read in a fresh process gets a head start (start.py): it is decoded and its markers
searched for on a second core while the rest of the reader is imported. The steps themselves
are in reading.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from printgen.games.one_page_war.reader.start import read_photo

if TYPE_CHECKING:
    from printgen.games.one_page_war.reader.reading import Read, read

__all__ = ["Read", "read", "read_photo"]


def __getattr__(name: str) -> Any:
    # `read` and `Read` import the whole reader, only when asked for (PEP 562).
    if name in ("Read", "read"):
        from printgen.games.one_page_war.reader import reading

        return getattr(reading, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
