"""Reading photos of filled sheets: every cell right or shown as unsure, the typed-in TOML the
referee accepts, the exit code, the annotated picture, and the rules cross-check."""

from __future__ import annotations

import json
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.one_page_war.geometry import (
    Element,
    Kind,
    SheetGeometry,
    Side,
    sheet_geometry,
)
from printgen.games.one_page_war.layout import ArenaSpec, load_layout
from printgen.games.one_page_war.reader import read, read_photo
from printgen.games.one_page_war.reader.cells import (
    GLARE_SHARE,
    GLARE_SPOT_SHARE,
    LIGHTER_WHY,
    PX_PER_MM,
    SECOND_MARK_WHY,
    Reading,
    SheetReading,
    glare_share,
    percent,
    read_ticks,
    second_mark_beside,
    under_glare,
    with_lighter_strokes,
)
from printgen.games.one_page_war.reader.crosscheck import PAST_THE_DIE, cross_check
from printgen.games.one_page_war.reader.digits import Marks, significant_ink
from printgen.games.one_page_war.sheet import Mode
from printgen.materials import PhotoOptions
from printgen.render.units import Paper

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402
from photo_corpus import SMALL  # noqa: E402

from training import handwriting  # noqa: E402


@pytest.fixture(scope="module")
def upside_down(tmp_path_factory: pytest.TempPathFactory) -> photo_corpus.CorpusPhoto:
    """A duel sheet photographed from the far player's side, tilted, the pixels stored turned
    with an EXIF orientation, under a shadow, JPEG quality 60."""
    shot = photo_corpus.Shot(
        size=SMALL,
        tilt_deg=30,
        rotation_deg=185,
        blur=0.5,
        noise=3,
        jpeg_quality=60,
        shadow=0.4,
        gradient=0.3,
        exif_orientation=6,
        seed=11,
    )
    path = tmp_path_factory.mktemp("photos") / "upside-down.jpg"
    return photo_corpus.make_photo(path, 21, SMALL, mode="duel", paper=Paper.A4, shot=shot)


@pytest.fixture(scope="module")
def solo_letter(tmp_path_factory: pytest.TempPathFactory) -> photo_corpus.CorpusPhoto:
    shot = photo_corpus.Shot(
        size=(1200, 1600),
        tilt_deg=20,
        rotation_deg=95,
        blur=0.6,
        noise=2,
        jpeg_quality=75,
        shadow=0.2,
        seed=12,
    )
    path = tmp_path_factory.mktemp("photos") / "solo.png"
    return photo_corpus.make_photo(path, 22, SMALL, mode="solo", paper=Paper.LETTER, shot=shot)


def _check_cells(photo: photo_corpus.CorpusPhoto) -> tuple[int, int]:
    result = read(photo.path)
    assert result.located.tag.sheet_id == photo.tag.sheet_id
    assert result.located.tag.paper is photo.tag.paper
    sure = 0
    for r in result.reading.all:
        expected = photo.truth[photo_corpus.key(r.element)]
        assert r.value == expected or r.unsure, f"{photo_corpus.key(r.element)} read {r.value}"
        sure += not r.unsure
    return sure, len(result.reading.all)


def test_upside_down_photo_with_exif_orientation(upside_down: photo_corpus.CorpusPhoto) -> None:
    sure, cells = _check_cells(upside_down)
    assert sure >= 0.7 * cells


def test_solo_sheet_on_letter_paper_png(solo_letter: photo_corpus.CorpusPhoto) -> None:
    sure, cells = _check_cells(solo_letter)
    assert sure >= 0.7 * cells


def test_cli_prints_the_sheet_the_referee_accepts(
    upside_down: photo_corpus.CorpusPhoto, tmp_path: Path, runner: CliRunner
) -> None:
    annotate = tmp_path / "checked.png"
    result = runner.invoke(cli, ["score", str(upside_down.path), "--annotate", str(annotate)])
    report = read_photo(upside_down.path, PhotoOptions())
    assert result.exit_code == report.exit_code
    assert result.exit_code == (3 if report.unsure else 0)
    assert report.toml in result.output
    parsed = tomllib.loads(report.toml)
    assert parsed == report.mapping
    # The typed-in file scores on its own (after a person has checked the unsure cells).
    typed = tmp_path / "sheet.toml"
    fixed = dict(parsed)
    fixed["arenas"] = {
        arena: {
            k: [upside_down.truth[("square", arena, side, i)] for i in range(len(v))]
            if k in ("First", "Second")
            else v
            for k, v in table.items()
            for side in [("first" if k == "First" else "second")]
        }
        for arena, table in parsed["arenas"].items()
    }
    for table in fixed["arenas"].values():
        for player in ("First", "Second"):
            table[player] = [int(v) if v.isdigit() else v for v in table[player]]
    typed.write_text(json.dumps(fixed))
    typed = typed.rename(tmp_path / "sheet.json")
    assert runner.invoke(cli, ["score", str(typed)]).exit_code == 0
    from PIL import Image

    with Image.open(annotate) as image:
        geometry = sheet_geometry("standard", Paper.A4)
        assert image.size == (round(geometry.width * PX_PER_MM), round(geometry.height * PX_PER_MM))


def test_the_plain_picture_is_the_annotated_one_with_nothing_drawn(
    upside_down: photo_corpus.CorpusPhoto, tmp_path: Path
) -> None:
    """The web page cuts its crops of unsure cells from the plain picture: the same sheet at the
    same scale, in grey, without the readings the annotated picture writes above each cell."""
    import numpy as np
    from PIL import Image

    annotated, plain = tmp_path / "annotated.png", tmp_path / "plain.png"
    read_photo(upside_down.path, PhotoOptions(annotate=annotated, plain=plain))
    with Image.open(annotated) as a, Image.open(plain) as p:
        assert p.mode == "L" and p.size == a.size
        drawn, bare = np.asarray(a.convert("RGB")).astype(int), np.asarray(p).astype(int)
    # Where the annotated picture drew nothing (its pixels grey), it is the plain one.
    untouched = (drawn.max(axis=2) == drawn.min(axis=2)) & (drawn[..., 0] > 0)
    assert untouched.mean() > 0.8
    assert np.abs(drawn[..., 0][untouched] - bare[untouched]).max() <= 1
    assert (drawn.max(axis=2) - drawn.min(axis=2) > 60).sum() > 1000  # the readings drawn


def test_json_output_lists_unsure_cells(
    upside_down: photo_corpus.CorpusPhoto, runner: CliRunner
) -> None:
    result = runner.invoke(cli, ["score", "--json", str(upside_down.path)])
    data = json.loads(result.output)
    assert data["sheet_id"] == upside_down.tag.sheet_id
    assert data["provisional"] == bool(data["unsure"])
    for cell in data["unsure"]:
        assert {"arena", "player", "index", "reading", "second"} <= set(cell)


def test_a_mark_that_is_no_digit_makes_the_result_provisional(
    tmp_path: Path, runner: CliRunner
) -> None:
    rng = np.random.default_rng(8)
    truth = photo_corpus.random_game(rng, "duel")
    truth[("square", "Sea", "first", 2)] = "other"  # a scribble
    shot = photo_corpus.Shot(size=SMALL, tilt_deg=5, blur=0.4, seed=3)
    path = tmp_path / "scribble.jpg"
    photo_corpus.make_photo(path, 23, SMALL, mode="duel", shot=shot, truth=truth)
    result = read(path)
    cell = next(
        r
        for r in result.reading.squares
        if photo_corpus.key(r.element) == ("square", "Sea", "first", 2)
    )
    assert cell.unsure
    assert runner.invoke(cli, ["score", str(path)]).exit_code == 3


# --- the rules cross-check and the tick boxes, on readings made up from the geometry ---------

GEOMETRY = sheet_geometry("standard", Paper.A4)
LAYOUT = load_layout("standard")


def _sheet(values: dict[tuple[str, str, int], str] | None = None, ticks: int = 0) -> SheetReading:
    """A clean reading: every square 3 unless given, `ticks` boxes ticked per arena and side."""
    values = values or {}

    def sure(e: object, value: str) -> Reading:
        return Reading(e, value, 0.999, "?", 0.001, False)  # type: ignore[arg-type]

    squares = tuple(
        sure(e, values.get((e.arena or "", e.side.value if e.side else "", e.index), "3"))
        for e in GEOMETRY.select(Kind.SQUARE)
    )
    tick_cells = tuple(
        sure(e, "ticked" if e.index < ticks else "empty") for e in GEOMETRY.select(Kind.TICK)
    )
    allies = tuple(sure(e, "empty") for e in GEOMETRY.select(Kind.ALLIES))
    return SheetReading(squares, tick_cells, allies)


def _unsure(sheet: SheetReading) -> list[str]:
    return [r.why for r in sheet.all if r.unsure]


def test_a_legal_sheet_passes_the_cross_check() -> None:
    assert _unsure(cross_check(_sheet(), LAYOUT, Mode.DUEL)) == []


def test_a_number_past_six_needs_armored_support_ticks() -> None:
    sheet = _sheet({("Air", "first", 0): "8"})
    assert any("Armored support" in why for why in _unsure(cross_check(sheet, LAYOUT, Mode.DUEL)))
    # Two uses of Armored support (both Land boxes ticked on both sides) allow an 8, which is
    # then only the player's to check, as every number past the die is (ruling 12).
    allowed = _unsure(cross_check(_sheet({("Air", "first", 0): "8"}, ticks=2), LAYOUT, Mode.DUEL))
    assert allowed == [PAST_THE_DIE.format(value="8")]


def test_ticks_that_differ_between_the_sides_are_unsure() -> None:
    sheet = _sheet()
    ticks = tuple(
        replace(r, value="ticked")
        if r.element.arena == "Sea" and r.element.side is Side.FIRST and r.element.index == 0
        else r
        for r in sheet.ticks
    )
    checked = cross_check(SheetReading(sheet.squares, ticks, sheet.allies), LAYOUT, Mode.DUEL)
    unsure = [r for r in checked.ticks if r.unsure]
    assert {r.element.arena for r in unsure} == {"Sea"} and len(unsure) == 4


def test_empty_squares_two_numbers_short_of_the_other_side_are_unsure() -> None:
    # Each roll writes a number on both sides: one side may lead by one (the rival has not
    # answered yet), never by two. Writing too faint to see is the likelier cause.
    def first(arena: str) -> list[int]:
        return [
            e.index
            for e in GEOMETRY.select(Kind.SQUARE)
            if e.arena == arena and e.side is Side.FIRST
        ]

    one_short = {("Sea", "first", first("Sea")[-1]): "_"}
    assert _unsure(cross_check(_sheet(one_short), LAYOUT, Mode.DUEL)) == []
    # Within one arena the sides may differ by more: the rival answers in another arena.
    elsewhere = {("Sea", "second", i): "_" for i in first("Sea")[-2:]}
    elsewhere |= {("Land", "first", i): "_" for i in first("Land")[-2:]}
    assert _unsure(cross_check(_sheet(elsewhere), LAYOUT, Mode.DUEL)) == []
    two_short = {**one_short, ("Land", "first", first("Land")[-1]): "_"}
    for mode in (Mode.DUEL, Mode.SOLO, Mode.TEAM):
        # Also where each square is judged on its own (a sheet far from any legal game).
        for joint in (True, False):
            checked = cross_check(_sheet(two_short), LAYOUT, mode, joint=joint)
            unsure = [r for r in checked.squares if r.unsure]
            assert sorted((r.element.arena, r.element.side, r.value) for r in unsure) == [
                ("Land", Side.FIRST, "_"),
                ("Sea", Side.FIRST, "_"),
            ]
        total = len(GEOMETRY.select(Kind.SQUARE)) // 2
        assert all(f"holds {total - 2} numbers and the other {total}" in r.why for r in unsure)


def test_a_star_outside_solo_and_an_s_without_allies_are_unsure() -> None:
    sheet = _sheet({("Land", "second", 1): "*"})
    allies = tuple(replace(r, value="S") if r.element.arena == "Air" else r for r in sheet.allies)
    checked = cross_check(SheetReading(sheet.squares, sheet.ticks, allies), LAYOUT, Mode.DUEL)
    reasons = " | ".join(_unsure(checked))
    assert "solo" in reasons and "Allies" in reasons
    # In solo, the AI's star comes with a tick in that arena.
    solo = cross_check(_sheet({("Land", "second", 1): "*"}, ticks=1), LAYOUT, Mode.SOLO)
    assert _unsure(solo) == []


def test_tick_boxes_are_judged_against_the_sheets_own_empty_boxes() -> None:
    height, width = (round(GEOMETRY.height * PX_PER_MM), round(GEOMETRY.width * PX_PER_MM))
    rng = np.random.default_rng(0)
    ink = rng.uniform(0, 0.1, (height, width)).astype(np.float32)  # paper grain everywhere
    boxes = GEOMETRY.select(Kind.TICK)
    for e in boxes[:6]:  # a bold cross in the first six boxes
        x0, y0 = int((e.x + 1) * PX_PER_MM), int((e.y + 1) * PX_PER_MM)
        x1, y1 = int((e.x + e.w - 1) * PX_PER_MM), int((e.y + e.h - 1) * PX_PER_MM)
        cv2.line(ink, (x0, y0), (x1, y1), 0.8, 3)
        cv2.line(ink, (x0, y1), (x1, y0), 0.8, 3)
    readings = read_ticks(ink, boxes)
    assert [r.value for r in readings] == ["ticked"] * 6 + ["empty"] * (len(boxes) - 6)
    assert not any(r.unsure for r in readings)


def test_an_unsure_square_shows_its_likeliest_legal_reading() -> None:
    sheet = _sheet()
    squares = tuple(
        replace(
            r,
            value="8",
            confidence=0.6,
            second="5",
            second_confidence=0.3,
            unsure=True,
            why="only 60% sure",
            candidates=(("8", 0.6), ("5", 0.3), ("6", 0.05)),
        )
        if (r.element.arena, r.element.side, r.element.index) == ("Sea", Side.SECOND, 0)
        else r
        for r in sheet.squares
    )
    checked = cross_check(SheetReading(squares, sheet.ticks, sheet.allies), LAYOUT, Mode.SOLO)
    cell = next(r for r in checked.squares if r.unsure)
    assert (cell.value, cell.second) == ("5", "6")
    assert "read as 8" in cell.why


def test_an_unfinished_sheet_is_never_a_final_result(tmp_path: Path, runner: CliRunner) -> None:
    rng = np.random.default_rng(9)
    truth = photo_corpus.random_game(rng, "duel", finished=False)
    shot = photo_corpus.Shot(size=SMALL, tilt_deg=5, blur=0.4, seed=4)
    path = tmp_path / "unfinished.jpg"
    photo_corpus.make_photo(path, 24, SMALL, mode="duel", shot=shot, truth=truth)
    assert runner.invoke(cli, ["score", str(path)]).exit_code in (1, 3)
    assert runner.invoke(cli, ["score", "--partial", str(path)]).exit_code == 3


def test_cells_under_glare_are_unsure_with_advice(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    truth = photo_corpus.random_game(rng, "duel")
    shot = photo_corpus.Shot(size=SMALL, tilt_deg=10, blur=0.4, noise=2, seed=7)
    sheet = photo_corpus.fill_sheet(photo_corpus.blank_sheet(Paper.A4, "duel"), truth, 5)
    photo = photo_corpus.photograph(sheet, shot)
    cv2.circle(photo, (800, 700), 90, (255, 255, 255), -1)  # a lamp's reflection, blown out
    path = tmp_path / "glare.jpg"
    photo_corpus.save_photo(cv2.GaussianBlur(photo, (0, 0), 1), path, shot)
    report = read_photo(path, PhotoOptions())
    glared = [r for r in report.reading.all if "glare" in r.why]
    assert glared and all(r.unsure for r in glared)
    assert any("turn off the flash" in a for a in report.advice)
    for r in report.reading.all:
        assert r.value == truth[photo_corpus.key(r.element)] or r.unsure


def test_paper_shot_bright_is_glare_only_where_writing_may_be_lost(tmp_path: Path) -> None:
    """A phone exposing for a dark table clips the white paper and the lightest pencil with it,
    not the print or dark writing (the bench's photos of 2026-12-03 lost up to 8 % of a set's
    cells to such "glare"). Here one light 6 vanished altogether: its square must stay unsure."""
    rng = np.random.default_rng(4)
    truth = photo_corpus.random_game(rng, "duel")
    sheet = photo_corpus.fill_sheet(photo_corpus.blank_sheet(Paper.A4, "duel"), truth, 6)
    shot = photo_corpus.Shot(
        size=SMALL, tilt_deg=10, gradient=0.05, shadow=0.0, exposure=1.2, seed=4
    )
    photo = photo_corpus.photograph(sheet, shot)
    path = tmp_path / "bright.jpg"
    photo_corpus.save_photo(photo, path, shot)
    found = read(path)
    squares = found.located.geometry.select(Kind.SQUARE)
    # The paper is washed out: by the share of pure white alone, every square is under glare.
    assert all(glare_share(found.rectified, e) > GLARE_SHARE for e in squares)
    report = read_photo(path, PhotoOptions(partial=True))
    washed = [r for r in report.reading.squares if "shot too bright" in r.why]
    assert len(washed) <= len(squares) - 10  # dark writing on washed paper is read as it is
    assert not any("glare" in r.why for r in report.reading.all)  # no spot, no print lost
    assert any("tap the sheet on the screen" in a for a in report.advice)
    for r in report.reading.all:
        assert r.value == truth[photo_corpus.key(r.element)] or r.unsure
    vanished = [
        r for r in report.reading.squares if r.value == "_" != truth[photo_corpus.key(r.element)]
    ]
    assert vanished and all("shot too bright" in r.why for r in vanished)
    # Clipping only takes ink away: a tick seen is a tick, an empty box may hide a light one.
    ticks = report.reading.ticks
    assert not any("shot too bright" in r.why for r in ticks if r.value == "ticked")
    assert all("shot too bright" in r.why for r in ticks if r.value == "empty")
    # So an S written in pen is an S; an empty S space may hide a light one.
    allies = report.reading.allies
    (written,) = [r for r in allies if truth[photo_corpus.key(r.element)] == "S"]
    assert written.value == "S" and not written.unsure
    assert all("shot too bright" in r.why for r in allies if r.value == "empty")


def test_glare_is_a_spot_or_washed_paper_where_print_or_writing_may_be_lost() -> None:
    square = Element(Kind.SQUARE, "Land", Side.FIRST, 0, x=20.0, y=20.0, w=14.0, h=14.0)
    k = PX_PER_MM

    def sheet(paper: int) -> np.ndarray:
        page = np.full((int(60 * k), int(60 * k)), paper, np.uint8)
        cv2.rectangle(page, (int(20 * k), int(20 * k)), (int(34 * k), int(34 * k)), 30, 2)
        return page

    assert under_glare(sheet(230), square) is None  # nothing washed out
    # The paper clipped, the line as dark: unsure only if no dark writing shows nothing was lost.
    assert under_glare(sheet(255), square, intact=True) is None
    share, why = under_glare(sheet(255), square) or (0.0, "")
    assert share == pytest.approx(glare_share(sheet(255), square)) and "shot too bright" in why
    spot = sheet(230)
    cv2.circle(spot, (int(27 * k), int(27 * k)), int(3 * k), 255, -1)  # inside the line
    share, why = under_glare(spot, square, intact=True) or (0.0, "")
    assert share == pytest.approx(glare_share(spot, square))
    assert share > GLARE_SHARE
    assert why.startswith("glare over")
    washed = sheet(255)
    cv2.circle(washed, (int(34 * k), int(34 * k)), int(6 * k), 255, -1)  # over a corner
    share, why = under_glare(washed, square, intact=True) or (0.0, "")
    assert why.startswith("glare over")
    # A small spot, brighter than the paper around the square: it took a 3's top and a 4's
    # loop, and what was left read surely as 2 and 1.
    small = sheet(230)
    cv2.circle(small, (int(27 * k), int(27 * k)), int(1.8 * k), 255, -1)
    share, why = under_glare(small, square, intact=True) or (0.0, "")
    assert GLARE_SPOT_SHARE < share <= GLARE_SHARE and why.startswith("glare over")
    # As much of it clipped all over bright paper (specks of noise at the top) is no spot.
    specks = sheet(250)
    specks[::4, ::5] = 255  # a twentieth of every area
    assert GLARE_SPOT_SHARE < glare_share(specks, square) <= GLARE_SHARE
    assert under_glare(specks, square, intact=True) is None
    tiny = sheet(230)
    cv2.circle(tiny, (int(27 * k), int(27 * k)), int(1.0 * k), 255, -1)  # under the spot share
    assert under_glare(tiny, square, intact=True) is None


def test_a_probability_is_never_shown_as_certain_when_it_is_not() -> None:
    # "5 (100%) — only 100% sure" read as nonsense: the bar to be sure is above 99.5 %.
    assert [percent(p) for p in (0.99964, 0.9951, 1.0, 0.97, 0.004, 0.0)] == [
        "99.9%",
        "99.5%",
        "100%",
        "97%",
        "under 1%",
        "0%",
    ]


def test_a_head_start_reads_as_reading_in_order(upside_down: photo_corpus.CorpusPhoto) -> None:
    # The CLI's read_photo decodes and finds the markers on a thread of its own (start.py).
    from printgen.games.one_page_war.reader import reading, start

    options = PhotoOptions()
    ahead = start.read_photo(upside_down.path, options)
    in_order = reading.read_photo(upside_down.path, options)
    assert read_photo is start.read_photo
    assert ahead.toml == in_order.toml
    assert ahead.reading == in_order.reading


def test_a_jpegs_darkest_channel_is_decoded_while_the_photo_is(
    upside_down: photo_corpus.CorpusPhoto, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its decoding is as long as the photo's: done after it, it would add its time to every
    # photo a warm process reads (start.py).
    import threading

    from printgen.games.one_page_war.reader import reading, start
    from printgen.games.one_page_war.reader.photo import WORKING_LONG_SIDE

    darkest_decoded = threading.Event()
    load_photo = start.load_photo

    def load(
        path: Path, long_side: int = WORKING_LONG_SIDE, pale: bool = False, page: int | None = None
    ) -> np.ndarray:
        if not pale:
            assert darkest_decoded.wait(20), "the darkest channel was not decoded meanwhile"
        decoded = load_photo(path, long_side, pale, page)
        if pale:
            darkest_decoded.set()
        return decoded

    monkeypatch.setattr(start, "load_photo", load)
    ahead = start.read_photo(upside_down.path, PhotoOptions())
    assert ahead.toml == reading.read_photo(upside_down.path, PhotoOptions()).toml


def test_a_head_start_raises_the_photos_error_where_the_photo_is_wanted(tmp_path: Path) -> None:
    from printgen.games.one_page_war.reader.errors import NotAnImage
    from printgen.games.one_page_war.reader.start import HeadStart

    notes = tmp_path / "notes.jpg"
    notes.write_text("not a photo")
    started = HeadStart(notes)  # nothing raised here
    with pytest.raises(NotAnImage, match="notes.jpg"):
        started.photo()
    with pytest.raises(NotAnImage, match="notes.jpg"):
        read_photo(notes, PhotoOptions())


def test_a_head_start_raises_a_cut_short_jpegs_own_error(
    upside_down: photo_corpus.CorpusPhoto, tmp_path: Path
) -> None:
    # Its darkest channel, decoded while the photo is, fails too: the photo's error is the one.
    from printgen.games.one_page_war.reader.errors import DamagedImage

    cut = tmp_path / "cut.jpg"
    cut.write_bytes(upside_down.path.read_bytes()[:20_000])
    with pytest.raises(DamagedImage, match="cut.jpg"):
        read_photo(cut, PhotoOptions())


def test_the_reader_package_loads_its_steps_on_first_use() -> None:
    import subprocess

    probe = (
        "import sys; import printgen.games.one_page_war.reader as r; "
        "before = 'printgen.games.one_page_war.reader.cells' in sys.modules; "
        "r.read; after = 'printgen.games.one_page_war.reader.cells' in sys.modules; "
        "print(before, after)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
    import printgen.games.one_page_war.reader as reader

    with pytest.raises(AttributeError, match="no attribute 'reed'"):
        reader.reed  # noqa: B018


def _s_weights_used(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The weight of S each square's candidates are weighed at from now on, in reading order."""
    from printgen.games.one_page_war.reader import cells

    used: list[float] = []
    candidates = cells._square_candidates

    def spy(a: object, p: object, s_weight: float = cells.SQUARE_S_WEIGHT) -> object:
        used.append(s_weight)
        return candidates(a, p, s_weight)  # type: ignore[arg-type]

    monkeypatch.setattr(cells, "_square_candidates", spy)
    return used


def test_a_sheets_squares_weigh_s_as_its_s_spaces_and_allies_ticks_say(
    upside_down: photo_corpus.CorpusPhoto, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ruling 13: the weight comes from the sheet's own S spaces and tick boxes, read first; a
    # team sheet keeps a tenth (a team-mate may give a use of Allies).
    from printgen.games.one_page_war.reader import cells

    asked: list[tuple[tuple[str, ...], int, int]] = []

    def weight(
        arenas: object, ticks: tuple[Reading, ...], allies: tuple[Reading, ...], ai_ticked: int
    ) -> float:
        assert ai_ticked == 0  # a duel sheet: no solo AI
        asked.append((tuple(a.name for a in arenas), len(ticks), len(allies)))  # type: ignore[attr-defined]
        return 0.5

    monkeypatch.setattr(cells, "square_s_weight", weight)
    used = _s_weights_used(monkeypatch)
    result = read(upside_down.path)
    geometry = result.located.geometry
    arenas = tuple(a.name for a in load_layout("standard").arenas)
    ticks, allies = len(geometry.select(Kind.TICK)), len(geometry.select(Kind.ALLIES))
    assert asked == [(arenas, ticks, allies)]
    assert set(used) == {0.5} and len(used) == len(geometry.select(Kind.SQUARE))
    used.clear()
    cells.read_sheet(cells.Ink.of(result.rectified), geometry, mode=Mode.TEAM)
    assert len(asked) == 1 and set(used) == {cells.SQUARE_S_WEIGHT}


def test_on_a_solo_sheet_the_ais_ticks_want_no_s(
    solo_letter: photo_corpus.CorpusPhoto, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ruling 13, amended: the solo AI never writes an S, so on its side an S counts a
    # hundredth; and where its star shows it ticked the Allies arena, that tick wants no S. In
    # this game the AI ticked Politics (its star stands there) and the player wrote no S.
    from printgen.games.one_page_war.reader import cells

    assert solo_letter.truth[("tick", "Politics", "first", 0)] == "ticked"
    assert any(v == "*" for k, v in solo_letter.truth.items() if k[:2] == ("square", "Politics"))
    assert not any(v == "S" for k, v in solo_letter.truth.items() if k[0] == "allies")
    weights = cells.square_s_weight
    ai_ticks: list[int] = []

    def weight(
        arenas: tuple[ArenaSpec, ...],
        ticks: tuple[Reading, ...],
        allies: tuple[Reading, ...],
        ai_ticked: int,
    ) -> float:
        ai_ticks.append(ai_ticked)
        return weights(arenas, ticks, allies, ai_ticked)

    monkeypatch.setattr(cells, "square_s_weight", weight)
    used = _s_weights_used(monkeypatch)
    result = read(solo_letter.path)
    squares = result.located.geometry.select(Kind.SQUARE)
    assert ai_ticks == [1]
    # Every square read as a square of this sheet (second looks at a mark come after).
    assert set(used[: len(squares)]) == {cells.ACCOUNTED_S_WEIGHT}
    # Read as a duel sheet, the same tick wants an S that no S space holds.
    used.clear()
    cells.read_sheet(cells.Ink.of(result.rectified), result.located.geometry, mode=Mode.DUEL)
    assert ai_ticks[-1] == 0 and set(used[: len(squares)]) == {cells.SQUARE_S_WEIGHT}
    # Without the star, the tick could be the player's, whose S is missing: a tenth on the
    # player's side, and still a hundredth on the AI's.
    monkeypatch.setattr(cells, "ai_ticked_allies", lambda *args: 0)
    used.clear()
    cells.read_sheet(cells.Ink.of(result.rectified), result.located.geometry, mode=Mode.SOLO)
    by_side = {(e.side, w) for e, w in zip(squares, used, strict=False)}
    assert by_side == {
        (Side.FIRST, cells.SQUARE_S_WEIGHT),
        (Side.SECOND, cells.ACCOUNTED_S_WEIGHT),
    }


@pytest.mark.parametrize("seed", [73202, 73206])
def test_a_dot_for_a_tick_is_never_read_surely_as_empty(seed: int, tmp_path: Path) -> None:
    # Where every tick of a sheet is a dot 1 mm across, the sheet's own cut between empty and
    # ticked boxes fell above them all: 6 and 2 of these dots were read as empty, surely.
    k = photo_corpus.SHEET_PX_PER_MM

    def dots(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        for e in geometry.select(Kind.TICK):
            inside = sheet[
                int((e.y + 0.35) * k) : int((e.y + e.h - 0.35) * k),
                int((e.x + 0.35) * k) : int((e.x + e.w - 0.35) * k),
            ]
            if inside.min() < 150:  # ticked
                inside[:] = 255
                centre = (int((e.x + e.w / 2) * k), int((e.y + e.h / 2) * k))
                cv2.circle(sheet, centre, int(0.5 * k), (30, 30, 35), -1, cv2.LINE_AA)

    path = tmp_path / "dots.jpg"
    photo = photo_corpus.make_photo(path, seed, SMALL, edit=dots)
    ticks = read(path).reading.ticks
    assert sum(photo.truth[photo_corpus.key(r.element)] == "ticked" for r in ticks) >= 2
    for r in ticks:
        assert r.value == photo.truth[photo_corpus.key(r.element)] or r.unsure, r


def _marks_of(*parts: tuple[int, int, int, int]) -> Marks:
    """Marks whose parts are filled boxes (x, y, w, h) on a 70-pixel patch."""
    mask = np.zeros((70, 70), bool)
    for x, y, w, h in parts:
        mask[y : y + h, x : x + w] = True
    return Marks(mask.astype(np.float32), mask, tuple(sorted(parts)), 0.16)


def test_a_second_mark_beside_the_digit_is_told_from_the_digits_own_parts() -> None:
    digit = (20, 11, 24, 45)
    assert not second_mark_beside(_marks_of(digit))
    assert second_mark_beside(_marks_of(digit, (49, 39, 8, 13)))  # a small 5 beside a 6
    assert not second_mark_beside(_marks_of(digit, (49, 39, 8, 9)))  # a speck, not a digit
    assert not second_mark_beside(_marks_of(digit, (30, 5, 20, 6)))  # a 5's bar over its body
    assert not second_mark_beside(_marks_of(digit, (36, 20, 12, 30)))  # a stroke through it


def test_a_small_second_digit_beside_the_first_leaves_the_square_unsure(tmp_path: Path) -> None:
    # Three squares of seed 74065 given a second digit, 38 % of the square, in their corner. The
    # 65 was read as 6 at 0.9999, surely: its two marks' columns touch, so it was never read as
    # a pair. (The 41 beside it still reads as 4: its 1 touches the 4's bar, one mark.)
    seed, k, share = 74065, photo_corpus.SHEET_PX_PER_MM, 0.38
    truth = photo_corpus.make_photo(tmp_path / "base.jpg", seed, SMALL).truth
    written = {}

    def second_digits(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        rng = np.random.default_rng([seed, 601])
        squares = [e for e in geometry.select(Kind.SQUARE) if truth[photo_corpus.key(e)].isdigit()]
        for e in rng.choice(squares, 3, replace=False):
            digit = str(int(rng.integers(0, 10)))
            hand = photo_corpus.hands(seed)[e.side is Side.SECOND]
            size = int(e.w * share * k)
            ink = handwriting.draw_glyph(digit, (size, size), hand, rng)
            flip = e.side is Side.SECOND  # the far player writes the other way up
            margin = 0.12 * e.w
            x, y = (
                (e.x + margin, e.y + margin)
                if flip
                else (e.x + e.w - margin - e.w * share, e.y + e.h - margin - e.h * share)
            )
            ink = ink[::-1, ::-1] if flip else ink
            x0, y0 = int(x * k), int(y * k)
            region = sheet[y0 : y0 + size, x0 : x0 + size].astype(np.float32) / 255
            region *= 1 - 0.9 * ink[..., None]
            sheet[y0 : y0 + size, x0 : x0 + size] = (region * 255).astype(np.uint8)
            written[photo_corpus.key(e)] = truth[photo_corpus.key(e)] + digit

    path = tmp_path / "two-digits.jpg"
    photo_corpus.make_photo(path, seed, SMALL, edit=second_digits)
    assert written[("square", "Politics", "first", 1)] == "65"
    (square,) = [
        r
        for r in read(path).reading.squares
        if photo_corpus.key(r.element) == ("square", "Politics", "first", 1)
    ]
    assert square.value == "6" and square.unsure and SECOND_MARK_WHY in square.why, square


def _six_pressed_on_its_stem(size: int, stem: float, loop: float) -> np.ndarray:
    """A 6 as an ink map `size` pixels square (0 paper, 1 black): its stem written `stem` dark,
    its loop `loop` dark, as a pencil pressed hard on one stroke writes it."""
    ink = np.zeros((size, size), np.float32)
    at = [(int(x * size), int(y * size)) for x, y in ((0.62, 0.1), (0.42, 0.25), (0.3, 0.5))]
    at.append((int(0.3 * size), int(0.7 * size)))
    pen = max(2, size // 14)
    cv2.ellipse(ink, (size // 2, int(0.7 * size)), (size // 5, size // 6), 0, 0, 360, loop, pen)
    cv2.polylines(ink, [np.array(at, np.int32)], False, stem, pen)
    return ink


def test_a_mark_s_lighter_strokes_are_looked_at_where_they_add_ink() -> None:
    # Cut at two fifths of its darkest, the 6 keeps its stem alone: a 1.
    six = _six_pressed_on_its_stem(72, stem=0.8, loop=0.22)
    marks = significant_ink(six)
    assert marks.mask.sum() < 0.6 * (six > 0.1).sum()
    assert with_lighter_strokes(six, marks) is not None
    # Written evenly, nothing is added.
    even = _six_pressed_on_its_stem(72, stem=0.8, loop=0.8)
    assert with_lighter_strokes(even, significant_ink(even)) is None
    # A crease's broad shade over an evenly written digit is no stroke of it.
    ys, xs = np.mgrid[0:72, 0:72].astype(np.float32)
    shaded = np.maximum(even, 0.3 * np.exp(-(((xs - 20) / 18) ** 2)))
    assert with_lighter_strokes(shaded, significant_ink(shaded)) is None


def test_a_digit_with_one_stroke_pressed_darker_is_never_read_surely_as_another(
    tmp_path: Path,
) -> None:
    # An outside probe wrote 6s in light pencil with the stem gone over hard: the loop fell
    # under two fifths of the stem's darkness and 16 of 111 squares read as 1, surely.
    seed, k = 77102, photo_corpus.SHEET_PX_PER_MM
    truth = photo_corpus.make_photo(tmp_path / "base.jpg", seed, SMALL).truth
    written: list[tuple[str, str, str, int]] = []

    def pressed_sixes(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        squares = [e for e in geometry.select(Kind.SQUARE) if truth[photo_corpus.key(e)].isdigit()]
        for e in squares[::4]:
            inset = int(1.5 * k)
            x0, y0 = int(e.x * k) + inset, int(e.y * k) + inset
            size = int(e.w * k) - 2 * inset
            six = _six_pressed_on_its_stem(size, stem=0.7, loop=0.22)
            six = six[::-1, ::-1] if e.side is Side.SECOND else six
            region = np.full((size, size, 3), 245, np.float32) * (1 - six[..., None])
            sheet[y0 : y0 + size, x0 : x0 + size] = region.astype(np.uint8)
            written.append(photo_corpus.key(e))

    path = tmp_path / "pressed.jpg"
    photo_corpus.make_photo(path, seed, SMALL, edit=pressed_sixes)
    squares = {photo_corpus.key(r.element): r for r in read(path).reading.squares}
    assert len(written) >= 6
    for key in written:
        r = squares[key]
        assert r.value == "6" or r.unsure, (key, r)
    assert any(LIGHTER_WHY.split(";")[0] in squares[key].why for key in written)
