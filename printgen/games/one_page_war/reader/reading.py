"""Reading a photographed One Page War sheet, step by step (the package's docstring has the
whole pipeline): load, locate, rectify, settle, read every cell, check it against the rules,
report."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from printgen.errors import PrintgenError
from printgen.games.one_page_war.layout import load_layout
from printgen.games.one_page_war.reader import digits, grid
from printgen.games.one_page_war.reader.blur import SOFT_WHY, readable_blur_mm, too_soft
from printgen.games.one_page_war.reader.cells import (
    Ink,
    SheetReading,
    holds_a_mark,
    median_glyph_mm,
    read_sheet,
)
from printgen.games.one_page_war.reader.crosscheck import cross_check
from printgen.games.one_page_war.reader.errors import (
    RETAKE,
    BlankPage,
    MarkerMissing,
    NoSheet,
    PhotoError,
    PoorPhoto,
    ReaderFault,
    SquaresTooSmall,
)
from printgen.games.one_page_war.reader.locate import (
    PX_PER_MM,
    Located,
    known_sheets,
    locate,
    rectify,
)
from printgen.games.one_page_war.reader.markers import Markers, find_markers
from printgen.games.one_page_war.reader.photo import load_photo, load_photo_and_pale, source_name
from printgen.games.one_page_war.reader.report import (
    PhotoReport,
    annotate,
    players_for,
    sheet_mapping,
    sheet_toml,
    write_plain,
)
from printgen.games.one_page_war.reader.start import HeadStart
from printgen.games.one_page_war.sheet import Mode
from printgen.materials import PhotoOptions, ScoreOptions, ScoreReport

if TYPE_CHECKING:
    from printgen.games.one_page_war.reader.stakes import Stakes

__all__ = ["Read", "locate_photo", "pale_sheet", "read", "read_cells", "read_photo"]


@dataclass(frozen=True)
class Read:
    """A photo read but not yet scored."""

    located: Located
    rectified: np.ndarray
    reading: SheetReading
    timings: dict[str, float]
    scanned: bool = False  # the sheet seen straight on and filling the picture (`_scanned`)


def prepare() -> None:
    """Load what reading any photo needs: the sheets it may be, the recogniser's model, the
    referee and the TOML writer. Done while a head start decodes the photo on the other core;
    else each on first use."""
    known_sheets()
    digits.model()
    import printgen.games.one_page_war.referee  # noqa: F401
    import printgen.tomldoc  # noqa: F401


def read(path: Path, started: HeadStart | None = None, page: int | None = None) -> Read:
    """Load, locate, rectify and read a photo, or `page` of a scan (`started`: its loading and
    marker search begun already); raise a PhotoError when it cannot be read."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    if started is None:
        grey, darkest = load_photo_and_pale(path, page)
        markers, darkest_channel = None, lambda: darkest
    else:  # the darkest channel is asked for where it is wanted: it may be decoding still
        (grey, markers), darkest_channel = started.photo(), started.pale
    timings["load"] = time.perf_counter() - start
    source = source_name(path, page)
    # Before locating: the front's print showing through a blank back, mirrored, was found as
    # a sheet (the reader turns a mirrored photo back) with every square empty.
    if page is not None and _blank(grey):
        raise BlankPage(f"{source}: a blank page (the back of a sheet?)")
    try:
        grey, located = locate_photo(grey, source, markers)
    except (NoSheet, MarkerMissing, PoorPhoto) as lost:
        grey = _larger_copy(path, page, grey, lost)
        grey, located = locate_photo(grey, source)
    timings["locate"] = time.perf_counter() - start
    rectified = rectify(grey, located)
    scanned = _scanned(located, grey.shape)
    pale = pale_sheet(darkest_channel(), located, grey.shape)
    del grey
    located = _settled(located, rectified)
    layout = load_layout(located.tag.layout, located.tag.version)
    rules_mode = Mode(located.tag.mode)
    sheet = read_cells(rectified, pale, located)
    if page is not None and located.mirrored and _nothing_written(sheet):
        # No scanner mirrors a page: this is the print of a sheet's front seen through its back.
        raise BlankPage(f"{source}: a blank page (the back of a sheet, its front showing through)")
    _refuse_soft(sheet, located, source)
    reading = cross_check(sheet, layout, rules_mode)
    timings["read"] = time.perf_counter() - start
    return Read(located, rectified, reading, timings, scanned)


# The photo is read from a copy of about WORKING_LONG_SIDE pixels, which a sheet filling the
# picture needs. A sheet filling a quarter of it has squares too small there, or markers too
# small to be found, and the photo itself may hold twice the pixels (a 12 MP photo's long side
# is 4,032): it is read again from a copy of LARGEST_LONG_SIDE pixels (a 48 MP photo is decoded
# at half its size, not whole), or one LARGER_MARGIN times as large as its squares need.
LARGER_MARGIN = 1.15
LARGEST_LONG_SIDE = 4032


def _larger_copy(path: Path, page: int | None, grey: np.ndarray, lost: PhotoError) -> np.ndarray:
    """A larger copy of the photo than `grey` to locate its sheet in, or `lost` (why it could
    not be located in `grey`) raised again where the photo holds none (it was read whole
    already, or is a scan's page, drawn at its own size)."""
    from printgen.games.one_page_war.reader.locate import MIN_SQUARE_PX

    read_at = max(grey.shape)
    if read_at >= LARGEST_LONG_SIDE or page is not None:
        raise lost
    wanted = LARGEST_LONG_SIDE
    if isinstance(lost, SquaresTooSmall):
        wanted = min(wanted, int(read_at * LARGER_MARGIN * MIN_SQUARE_PX / lost.narrowest_px) + 1)
    larger = load_photo(path, wanted)
    if max(larger.shape) <= read_at:
        raise lost
    return larger


# A page is blank when under BLANK_INK_SHARE of it, BLANK_EDGE in from its edges (where a
# scanner draws the paper's shadow), is darker than BLANK_DARKER of its paper: a sheet's printed
# grid alone covers some 3 %, in black. A sheet passed over as blank is lost from a print run
# but for a row and a line on stderr, so the bar errs towards looking: print showing through a
# blank back at more than about a fifth of its contrast is looked at as a photo (and passed
# over only when found mirrored with nothing written in it, `_nothing_written`).
BLANK_INK_SHARE = 0.0005
BLANK_EDGE = 0.04
BLANK_DARKER = 0.75


def _blank(grey: np.ndarray) -> bool:
    """Nothing printed or written on the page: only paper, specks and what shows through."""
    rows, columns = (int(side * BLANK_EDGE) for side in grey.shape)
    inside = grey[rows : grey.shape[0] - rows, columns : grey.shape[1] - columns]
    paper = float(np.median(inside[::4, ::4]))  # a sixteenth of it gives the same paper
    return float(np.mean(inside < BLANK_DARKER * paper)) < BLANK_INK_SHARE


def _nothing_written(sheet: SheetReading) -> bool:
    """Every square, tick box and S space of the sheet read as empty."""
    return all(r.value == "_" for r in sheet.squares) and all(
        r.value == "empty" for r in sheet.ticks + sheet.allies
    )


MIRRORED_ADVICE = (
    "the photo is mirrored, as a front camera or a webcam shows a picture; it was read turned "
    "back: next time use the back camera, or turn off the camera's mirroring"
)


def locate_photo(
    grey: np.ndarray, source: str, markers: Markers | None = None
) -> tuple[np.ndarray, Located]:
    """The photo as the sheet is read from it (turned back when mirrored) and where the sheet
    lies in it (`markers`: those `find_markers` gave already)."""
    grey, markers, mirrored = _unmirrored(grey, markers)
    located = locate(grey, source, markers)
    if mirrored:
        located = replace(located, mirrored=True, advice=(MIRRORED_ADVICE, *located.advice))
    return grey, located


def _unmirrored(grey: np.ndarray, markers: Markers | None) -> tuple[np.ndarray, Markers, bool]:
    """The photo turned back left to right, its markers and True, when it shows none of the
    sheet's markers but shows them so turned: ArUco's markers read in one hand only, so a
    mirrored photo showed no sheet at all. Else as given, and False."""
    found = markers if markers is not None else find_markers(grey)
    if found.found:
        return grey, found, False
    turned = np.ascontiguousarray(grey[:, ::-1])
    in_turned = find_markers(turned)
    if not in_turned.found:
        return grey, found, False
    return turned, in_turned, True


def read_photo(path: Path, options: PhotoOptions, started: HeadStart | None = None) -> PhotoReport:
    """A photo's reading and score (`started`: its loading and marker search begun already).
    A fault of the reader's own (no refusal of the photo) is a ReaderFault naming the photo."""
    try:
        return _read_photo(path, options, started)
    except (PrintgenError, MemoryError):
        raise
    except Exception as error:
        raise ReaderFault.of(source_name(path, options.page), error) from error


def _read_photo(path: Path, options: PhotoOptions, started: HeadStart | None) -> PhotoReport:
    result = read(path, started, options.page)
    source = source_name(path, options.page)
    located, reading = result.located, result.reading
    layout = load_layout(located.tag.layout, located.tag.version)
    mode = located.tag.mode
    players = players_for(mode, options.players) if options.players else None
    mapping = sheet_mapping(reading, layout, mode, located.tag, players)
    toml = sheet_toml(reading, layout, mode, located.tag, players)
    score, problem = _score(mapping, source, options, any(r.unsure for r in reading.all))
    at_stake = _stakes(reading, score, mode)
    if options.annotate is not None:
        annotate(result.rectified, reading, options.annotate)
    if options.plain is not None:
        write_plain(result.rectified, options.plain)
    return PhotoReport(
        source=source,
        tag=located.tag,
        reading=reading,
        toml=toml,
        mapping=mapping,
        advice=located.advice + _glare_advice(reading, result.scanned) + reading.notes,
        score=score,
        score_problem=problem,
        players=players or players_for(mode),
        timings=result.timings,
        stakes=at_stake,
    )


def _stakes(reading: SheetReading, score: ScoreReport | None, mode: str) -> Stakes | None:
    """What the unsure cells can change, on a finished duel or solo sheet that has some. (A
    team pack's sheet is one of several whose arenas add up: its own winner decides little.)"""
    from printgen.games.one_page_war.reader.stakes import stakes
    from printgen.games.one_page_war.referee import SheetReport

    if mode == "team" or not any(r.unsure for r in reading.all):
        return None
    if not isinstance(score, SheetReport) or score.partial:
        return None
    return stakes(reading, score.sheet)


def _refuse_soft(sheet: SheetReading, located: Located, source: str) -> None:
    """A photo too soft for most of its writing cannot be read: retaking it is the only help.
    (A photo too soft for a few small marks is read, those cells unsure.)"""
    # Writing only: a printer's streak leaves pieces a millimetre tall in empty squares, and
    # softness judged on those had refused a sharp photo as "too blurred for writing 1 mm high".
    written = [r for r in sheet.squares if holds_a_mark(r.glyph_mm)]
    soft = [r for r in written if SOFT_WHY in r.why]
    if written and len(soft) * 2 <= len(written):
        return
    if not written and not too_soft(located.blur_mm, None):
        return
    height = median_glyph_mm(written)
    spread, bearable = located.blur_mm, readable_blur_mm(height)
    # To as many places as tell the two apart: "0.57 mm; ... up to 0.57 mm" read as met.
    places = next((n for n in (2, 3, 4) if f"{spread:.{n}f}" != f"{bearable:.{n}f}"), 4)
    raise PoorPhoto(
        f"{source}: the photo is too blurred to read the digits (edges spread over "
        f"{spread:.{places}f} mm; writing {height:.0f} mm high reads up to "
        f"{bearable:.{places}f} mm); hold the phone still, tap the sheet to focus, use "
        f"more light, and {RETAKE.split(', or')[0]}"
    )


def _settled(located: Located, rectified: np.ndarray) -> Located:
    """On a sheet that does not lie flat, its cells where their printed outlines are, and advice."""
    settled = grid.settle(rectified, located.geometry, PX_PER_MM, located.blur_mm)
    if settled is None:
        return located
    advice = (
        f"the sheet does not lie flat (its boxes stand up to {settled.largest_shift_mm:.1f} mm "
        "from where its corners put them; they were read where they are): flatten it for a "
        "surer reading",
    )
    return replace(located, geometry=settled.geometry, advice=located.advice + advice)


def read_cells(rectified: np.ndarray, pale: np.ndarray, located: Located) -> SheetReading:
    """Every cell of the rectified sheet read (`pale`: the same sheet from the photo's darkest
    colour channel, `pale_sheet`). The recogniser's share of a photo's time: what the bench
    times as reading every cell of a sheet."""
    return read_sheet(
        Ink.of(rectified),
        located.geometry,
        rectified,
        located.blur_at,
        mode=Mode(located.tag.mode),
        pale=Ink.of(pale),
    )


def pale_sheet(pale: np.ndarray, located: Located, shape: tuple[int, ...]) -> np.ndarray:
    """The rectified sheet of the photo's darkest colour channel (`pale`, as
    `load_photo_and_pale` gives it, of a photo whose grey has `shape`), where a pale ink (a
    yellow pen) shows that the grey loses."""
    if located.mirrored:
        pale = np.ascontiguousarray(pale[:, ::-1])
    to_grey = np.diag([shape[1] / pale.shape[1], shape[0] / pale.shape[0], 1.0])
    return rectify(pale, replace(located, homography=located.homography @ to_grey))


# A scan shows the sheet with no perspective and fills the picture with it; a phone's photo
# does neither by this much (docs/reader.md, "Scans").
SCAN_SQUARE = 0.02  # opposite sides of the sheet as long as each other, to this share
SCAN_FILL = 0.75  # the sheet covers this share of the picture


def _scanned(located: Located, shape: tuple[int, ...]) -> bool:
    """Whether the picture is a scan (a flatbed's, or a phone's scanning app's): the sheet seen
    straight on and filling it. Only the advice for washed-out paper depends on it."""
    g = located.geometry
    corners = np.array([(0, 0), (g.width, 0), (g.width, g.height), (0, g.height)], np.float64)
    to_photo = np.linalg.inv(located.homography)
    seen = cv2.perspectiveTransform((corners * PX_PER_MM).reshape(-1, 1, 2), to_photo)
    top, right, bottom, left = (
        float(np.linalg.norm(seen[(i + 1) % 4, 0] - seen[i, 0])) for i in range(4)
    )
    square = max(abs(top - bottom) / max(top, bottom), abs(left - right) / max(left, right))
    fill = cv2.contourArea(seen.astype(np.float32)) / (shape[0] * shape[1])
    return square <= SCAN_SQUARE and fill >= SCAN_FILL


def _glare_advice(reading: SheetReading, scanned: bool = False) -> tuple[str, ...]:
    glared = sum(1 for r in reading.all if "glare over" in r.why)
    bright = sum(1 for r in reading.all if "shot too bright" in r.why)
    advice = []
    if glared:
        advice.append(f"glare washes out {glared} cell(s): turn off the flash or move the lamp")
    if bright:
        help_ = (
            "scan in colour or grey with the brightness a step lower, with no whitening "
            '(a scanning app\'s "document" filter whitens)'
            if scanned
            else "tap the sheet on the screen so that the phone exposes for it"
        )
        advice.append(
            f"the paper is washed out in {bright} cell(s), where a light mark may be lost: {help_}"
        )
    return tuple(advice)


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
