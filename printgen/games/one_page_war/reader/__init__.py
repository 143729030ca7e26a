"""Reading a photographed One Page War sheet: from a phone photo to a checked, scored sheet.

    load_photo -> locate (markers, QR code, homography, quality) -> rectify -> Ink (lighting
    evened out)
    -> read_sheet (squares, tick boxes, S spaces; digits.py recognises marks) -> cross_check
    (the rules) -> PhotoReport (typed-in TOML, unsure cells, the referee's score).

Never silently wrong: a cell below the calibrated confidence, or one the rules contradict, is
unsure, and the result is then provisional (exit code 3)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from printgen.errors import PrintgenError
from printgen.games.one_page_war.layout import load_layout
from printgen.games.one_page_war.reader.cells import Ink, SheetReading, read_sheet
from printgen.games.one_page_war.reader.crosscheck import cross_check
from printgen.games.one_page_war.reader.locate import Located, locate, rectify
from printgen.games.one_page_war.reader.photo import load_photo
from printgen.games.one_page_war.reader.report import (
    PhotoReport,
    annotate,
    players_for,
    sheet_mapping,
    sheet_toml,
)
from printgen.games.one_page_war.sheet import Mode
from printgen.materials import PhotoOptions, ScoreOptions, ScoreReport

__all__ = ["Read", "read", "read_photo"]


@dataclass(frozen=True)
class Read:
    """A photo read but not yet scored."""

    located: Located
    rectified: np.ndarray
    reading: SheetReading
    timings: dict[str, float]


def read(path: Path) -> Read:
    """Load, locate, rectify and read a photo; raise a PhotoError when it cannot be read."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    grey = load_photo(path)
    timings["load"] = time.perf_counter() - start
    located = locate(grey, str(path))
    timings["locate"] = time.perf_counter() - start
    rectified = rectify(grey, located)
    del grey
    ink = Ink.of(rectified)
    layout = load_layout(located.tag.layout)
    rules_mode = Mode.SOLO if located.tag.mode == "solo" else Mode.DUEL
    reading = cross_check(read_sheet(ink, located.geometry, rectified), layout, rules_mode)
    timings["read"] = time.perf_counter() - start
    return Read(located, rectified, reading, timings)


def read_photo(path: Path, options: PhotoOptions) -> PhotoReport:
    """`printgen score photo.jpg`: GAME.read_photo."""
    result = read(path)
    located, reading = result.located, result.reading
    layout = load_layout(located.tag.layout)
    mode = located.tag.mode
    mapping = sheet_mapping(reading, layout, mode, located.tag)
    toml = sheet_toml(reading, layout, mode, located.tag)
    score, problem = _score(mapping, str(path), options, any(r.unsure for r in reading.all))
    if options.annotate is not None:
        annotate(result.rectified, reading, options.annotate)
    return PhotoReport(
        source=str(path),
        tag=located.tag,
        reading=reading,
        toml=toml,
        mapping=mapping,
        advice=located.advice + _glare_advice(reading),
        score=score,
        score_problem=problem,
        players=players_for(mode),
        timings=result.timings,
    )


def _glare_advice(reading: SheetReading) -> tuple[str, ...]:
    glared = sum(1 for r in reading.all if "glare" in r.why)
    if not glared:
        return ()
    return (f"glare washes out {glared} cell(s): turn off the flash or move the lamp",)


def _score(
    mapping: dict[str, Any], source: str, options: PhotoOptions, unsure: bool
) -> tuple[ScoreReport | None, str | None]:
    from printgen.games.one_page_war.referee import score

    try:
        return score(mapping, source, ScoreOptions(partial=options.partial)), None
    except PrintgenError as error:
        if unsure:
            # The misread cells may be what the referee rejects: say so, do not fail.
            return None, str(error)
        raise
