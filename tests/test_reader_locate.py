"""Locating a sheet when the photo is less than perfect: the QR code unreadable (the sheet read,
its id unread), markers covered or cut off (three are enough, two in opposite corners with the
printed grid; fewer are named as cut off or unreadable), a QR code that contradicts the sheet."""

from __future__ import annotations

import importlib
import json
import sys
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.one_page_war.geometry import Kind, SheetGeometry, SheetTag, sheet_geometry
from printgen.games.one_page_war.reader import grid, read, read_photo
from printgen.games.one_page_war.reader.errors import ForeignSheet, MarkerMissing, ModelFileError
from printgen.games.one_page_war.reader.markers import find_markers
from printgen.materials import PhotoOptions
from printgen.render.units import Paper

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402
from photo_corpus import SMALL  # noqa: E402

locate_module = importlib.import_module("printgen.games.one_page_war.reader.locate")


def _shot(seed: int, **changes: object) -> photo_corpus.Shot:
    values: dict[str, object] = dict(
        size=SMALL, tilt_deg=15, blur=0.5, noise=2, jpeg_quality=85, shadow=0.2, seed=seed
    )
    values.update(changes)
    return photo_corpus.Shot(**values)  # type: ignore[arg-type]


def _right_or_unsure(result: object, photo: photo_corpus.CorpusPhoto) -> None:
    for r in result.reading.all:  # type: ignore[attr-defined]
        expected = photo.truth[photo_corpus.key(r.element)]
        assert r.value == expected or r.unsure, f"{photo_corpus.key(r.element)} read {r.value}"


@pytest.mark.parametrize(
    ("scale", "paper", "seed"), [(0.94, Paper.A4, 51), (0.97, Paper.LETTER, 52)]
)
def test_a_sheet_printed_fit_to_page_reads_as_one_printed_at_full_size(
    scale: float, paper: Paper, seed: int, tmp_path: Path
) -> None:
    # A printer set to "fit to page" shrinks the whole sheet, markers and squares alike, and the
    # markers' homography takes it back: the same sheet, photographed alike, reads the same.
    readings = {}
    for printed in (1.0, scale):
        path = tmp_path / f"printed-at-{printed}.jpg"
        edit = photo_corpus.printed_at(printed) if printed != 1.0 else None
        photo = photo_corpus.make_photo(
            path, seed, SMALL, mode="duel", paper=paper, shot=_shot(seed), edit=edit
        )
        result = read(path)
        tag = result.located.tag
        assert (tag.sheet_id, tag.paper, tag.version) == (
            photo.tag.sheet_id,
            photo.tag.paper,
            photo.tag.version,
        )
        _right_or_unsure(result, photo)
        readings[printed] = [(r.value, r.unsure) for r in result.reading.all]
    # Where both photos leave a cell unsure, its likeliest reading may differ (a continental 1
    # of a held-out writer: 1 at full size, 7 shrunk, unsure in both); every other cell reads
    # the same value.
    for full, shrunk in zip(readings[1.0], readings[scale], strict=True):
        assert full[0] == shrunk[0] or (full[1] and shrunk[1]), (full, shrunk)
    sure = {printed: sum(not unsure for _, unsure in cells) for printed, cells in readings.items()}
    assert sure[scale] >= sure[1.0] - 2, sure


@pytest.mark.parametrize(("shape", "seed"), [("tent", 64), ("curl", 69)])
def test_a_sheet_that_does_not_lie_flat_is_read_where_its_boxes_are(
    shape: str, seed: int, tmp_path: Path
) -> None:
    # Folded in half, the crease 20 mm up, the corners' homography puts the middle of the sheet
    # up to 2 mm off: read there, empty tick boxes showed their own outline as a tick (two
    # misreads left unflagged on each of these sheets). Each cell is read where its outline is.
    sure = {}
    for name, edit in (("flat", None), ("lifted", photo_corpus.lifted(20.0, shape))):
        path = tmp_path / f"{name}.jpg"
        photo = photo_corpus.make_photo(
            path, seed, SMALL, mode="duel", paper=Paper.A4, shot=_shot(seed), edit=edit
        )
        result = read(path)
        _right_or_unsure(result, photo)
        sure[name] = sum(not r.unsure for r in result.reading.all)
        flat_advice = [a for a in result.located.advice if "does not lie flat" in a]
        assert bool(flat_advice) == (edit is not None), result.located.advice
    assert sure["lifted"] >= sure["flat"] - 6, sure


def test_a_crumpled_sheet_lit_from_the_side_leaves_no_shaded_tick_box_read_as_ticked(
    tmp_path: Path,
) -> None:
    # Five sharp creases under a low lamp: two empty tick boxes of Espionage lie in a facet in
    # shade, 2 mm from a lit one. Against the paper's brightness found over 7 mm, the shade was
    # ink and both read as ticked, unflagged; against the paper right around them, empty.
    seed = 74
    path = tmp_path / "crumpled.jpg"
    photo = photo_corpus.make_photo(
        path,
        seed,
        SMALL,
        mode="duel",
        paper=Paper.A4,
        shot=_shot(seed),
        edit=photo_corpus.crumpled(seed, depth_mm=5.0, creases=5, light=1.0),
    )
    result = read(path)
    _right_or_unsure(result, photo)
    shaded = {
        photo_corpus.key(r.element)
        for r in result.reading.ticks
        if r.unsure and "the paper right around the box" in r.why
    }
    assert {("tick", "Espionage", "second", 0), ("tick", "Espionage", "first", 1)} <= shaded


def _bands_across_the_tick_boxes(sheet: np.ndarray, geometry: SheetGeometry) -> None:
    """A shade 30 % dark across the sheet through each row of tick boxes, from 0.6 mm under a
    box's top to a quarter of it above its bottom: a rolling shutter's band under a flickering
    lamp, or a pen's shadow."""
    k = photo_corpus.SHEET_PX_PER_MM
    for top in {e.y for e in geometry.select(Kind.TICK)}:
        rows = slice(int((top + 0.6) * k), int((top + 4.5) * k))
        sheet[rows] = (sheet[rows] * 0.7).astype(np.uint8)


def test_a_shade_across_the_tick_boxes_leaves_no_empty_box_read_as_ticked(
    tmp_path: Path,
) -> None:
    # Its paper found over 7 mm, the shade was ink; the strips around a box reach out of the
    # shade (its whole side's paper is that beyond it); every empty box read as ticked, both
    # sides alike, so that the rules saw nothing wrong. Against the paper beside each of its
    # rows, in the shade too, the boxes are empty.
    seed = 0
    path = tmp_path / "banded.jpg"
    photo = photo_corpus.make_photo(
        path,
        seed,
        SMALL,
        mode="duel",
        paper=Paper.A4,
        shot=_shot(seed, rotation_deg=0, exif_orientation=1),
        finished=False,
        edit=_bands_across_the_tick_boxes,
    )
    result = read(path)
    _right_or_unsure(result, photo)
    empty = [r for r in result.reading.ticks if photo.truth[photo_corpus.key(r.element)] == "empty"]
    assert len(empty) >= 6
    assert all(r.value == "empty" or "the paper right around the box" in r.why for r in empty)


def test_settling_finds_every_cell_where_its_outline_is() -> None:
    geometry = sheet_geometry("standard", Paper.A4)
    k = locate_module.PX_PER_MM
    art = grid.line_art(geometry, k, frames=False)
    # The whole print 1.5 mm to the right and 1 mm up of where the homography put it, and a
    # bold stroke across one square's outline: it is outvoted by the outlines around it.
    moved = np.roll(art, (-int(1.0 * k), int(1.5 * k)), axis=(0, 1))
    rectified = (250 - 200 * np.clip(moved, 0, 1)).astype(np.uint8)
    e = geometry.select(Kind.SQUARE)[3]
    cv2.line(
        rectified, (int(e.x * k), int((e.y + 3) * k)), (int((e.x + 9) * k), int(e.y * k)), 0, 6
    )
    settled = grid.settle(rectified, geometry, k)
    assert settled is not None
    for before, after in zip(geometry.elements, settled.geometry.elements, strict=True):
        if before.kind in grid.READ:
            assert (after.x - before.x, after.y - before.y) == pytest.approx((1.5, -1.0), abs=0.15)
        else:
            assert after == before  # markers, labels and the QR code are not read from here
    assert settled.largest_shift_mm == pytest.approx(np.hypot(1.5, 1.0), abs=0.15)
    # In a photo blurred by 1 mm, 1.8 mm is what a shake can draw an outline out by: not a bend.
    assert grid.settle(rectified, geometry, k, blur_mm=1.0) is None
    # Flat: every outline where the homography put it, so the cells stay there.
    assert grid.settle((250 - 200 * np.clip(art, 0, 1)).astype(np.uint8), geometry, k) is None


def test_an_a4_sheet_printed_on_letter_at_full_size_is_told_to_print_it_otherwise(
    tmp_path: Path,
) -> None:
    # Letter is 17.6 mm narrower than A4 landscape: printed at 100 %, centred, the page loses
    # 8.8 mm at each side, and with it the corner markers (7 mm in). The QR code still reads.
    def on_letter(sheet: np.ndarray, geometry: object) -> None:
        cut = int(round(8.8 * photo_corpus.SHEET_PX_PER_MM))
        sheet[:, :cut] = 255
        sheet[:, -cut:] = 255

    path = tmp_path / "on-letter.jpg"
    photo_corpus.make_photo(
        path, 7, SMALL, mode="duel", paper=Paper.A4, shot=_shot(7), edit=on_letter
    )
    with pytest.raises(MarkerMissing, match=r"an A4 sheet printed on US Letter paper at 100 %"):
        read(path)


KRAFT = (205, 175, 135)
CREAM = (255, 246, 215)
PASTEL_BLUE = (200, 225, 250)


@pytest.mark.parametrize(
    ("printer", "seed"),
    [
        (photo_corpus.Printer(darkness=0.35, paper=KRAFT, seed=1), 53),
        (photo_corpus.Printer(darkness=0.6, paper=CREAM, stripes_mm=0.8, seed=2), 54),
        (photo_corpus.Printer(paper=PASTEL_BLUE, band_mm=40, show_through=0.12, seed=3), 55),
    ],
)
def test_a_sheet_printed_light_or_on_coloured_paper_reads_as_one_printed_black_on_white(
    printer: photo_corpus.Printer, seed: int, tmp_path: Path
) -> None:
    # Toner saving, an inkjet's clogged nozzle, a worn drum, kraft or pastel paper, the back's
    # print showing through: ink is judged against the paper around it, never as a grey level,
    # and the markers are found however light they print.
    readings = {}
    for name, by in (("black on white", None), ("printed so", printer)):
        path = tmp_path / f"{name}.jpg"
        photo = photo_corpus.make_photo(
            path, seed, SMALL, mode="duel", paper=Paper.A4, shot=_shot(seed), printer=by
        )
        result = read(path)
        _right_or_unsure(result, photo)
        readings[name] = [(r.value, r.unsure) for r in result.reading.all]
    for white, printed in zip(readings["black on white"], readings["printed so"], strict=True):
        assert white[0] == printed[0] or (white[1] and printed[1]), (white, printed)
    sure = {name: sum(not unsure for _, unsure in cells) for name, cells in readings.items()}
    assert sure["printed so"] >= sure["black on white"] - 2, sure


def test_a_printer_prints_light_and_on_the_papers_colour() -> None:
    page = np.full((40, 60, 3), 255, np.uint8)
    page[10:30, 5:20] = 0  # a black patch, off the middle so that its mirror falls on paper
    light = photo_corpus.Printer(darkness=0.4, paper=KRAFT).prints(page)
    assert tuple(light[0, 0]) == KRAFT  # the paper shows its own colour
    assert np.allclose(light[20, 12], np.array(KRAFT) * 0.6, atol=1)  # black at 40 % darkness
    striped = photo_corpus.Printer(stripes_mm=0.5).prints(page)[10:30, 5:20, 0]
    assert (striped == 255).all(axis=1).sum() == 4 and (striped == 0).any()  # a line every 5 px
    back = photo_corpus.Printer(show_through=0.1).prints(page)[20, :, 0]
    assert back[12] == 0 and back[30] >= 250  # the front as printed; paper between
    assert 220 <= back[47] <= 240  # the patch seen through the paper, mirrored and soft


@pytest.mark.parametrize(
    ("mode", "paper", "seed", "version"),
    [("duel", Paper.A4, 41, None), ("solo", Paper.LETTER, 42, 1), ("team", Paper.A4, 49, 1)],
)
def test_a_covered_qr_code_still_reads_with_the_id_unread(
    mode: str, paper: Paper, seed: int, version: int | None, tmp_path: Path, runner: CliRunner
) -> None:
    path = tmp_path / "no-qr.jpg"
    photo = photo_corpus.make_photo(
        path,
        seed,
        SMALL,
        mode=mode,
        paper=paper,
        shot=_shot(seed, rotation_deg=8),
        edit=photo_corpus.cover_qr(),
        version=version,
    )
    result = read(path)
    tag = result.located.tag
    assert (tag.sheet_id, tag.paper, tag.mode, tag.layout) == (None, paper, mode, "standard")
    assert tag.version == photo.tag.version
    assert any("QR code is covered" in a and "uncovered" in a for a in result.located.advice)
    _right_or_unsure(result, photo)
    # The typed-in TOML has no id, says so, and parses to what the referee is given.
    report = read_photo(path, PhotoOptions(partial=True))
    parsed = tomllib.loads(report.toml)
    assert "id" not in parsed and parsed == report.mapping
    assert "# id: unread" in report.toml
    output = runner.invoke(cli, ["score", "--json", "--partial", str(path)])
    data = json.loads(output.output)
    assert data["sheet_id"] is None and data["sheet_id_read"] is False and data["mode"] == mode


def _qr_code(module_px: int, blur: float = 0.0) -> np.ndarray:
    """A binarised QR code drawn `module_px` pixels a module with a quiet zone, as `_decode_qr`
    looks at it; softened first by a Gaussian of `blur` modules."""
    code = cv2.QRCodeEncoder.create().encode("printgen/one-page-war/duel")
    image = cv2.resize(code, None, fx=module_px, fy=module_px, interpolation=cv2.INTER_NEAREST)
    image = cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    if blur:
        image = cv2.GaussianBlur(image, (0, 0), blur * module_px)
    return locate_module._binary(image)


@pytest.mark.parametrize(("module_px", "blur"), [(3, 0.0), (8, 0.0), (8, 0.35), (4, 0.3)])
def test_a_qr_code_shows_its_three_finder_patterns(module_px: int, blur: float) -> None:
    assert locate_module.finder_patterns(_qr_code(module_px, blur)) == 3


def test_a_qr_code_striped_by_a_clogged_nozzle_still_shows_its_finder_patterns() -> None:
    # White lines across the print cut every ring in two; the detectors still read such a
    # code (the printers set's sheet 51017), so its finders must still be seen.
    striped = _qr_code(8)
    striped[::7] = 255
    assert locate_module.finder_patterns(striped) < 3  # the lines do cut the rings
    looks = (striped, striped, striped, striped)
    assert locate_module._finders_show(looks, 8.0)


def test_a_qr_code_faded_on_one_side_still_shows_its_finder_patterns() -> None:
    # A laser's worn drum fades a band of the print: one threshold for the whole crop loses
    # the faded finders, which the detectors still read (the printers set's sheet 51031).
    code = _qr_code(8).astype(np.float32)
    code[:, : code.shape[1] // 2] = 255 - 0.2 * (255 - code[:, : code.shape[1] // 2])
    faded = code.astype(np.uint8)
    binary = locate_module._binary(faded)
    assert locate_module.finder_patterns(binary) < 3  # one threshold does lose them
    assert locate_module._finders_show((faded, binary, faded, binary), 8.0)


def test_a_covered_qr_code_shows_at_most_one_finder_pattern() -> None:
    code = _qr_code(6)
    half = code.copy()
    half[:, : code.shape[1] // 2] = 170  # a finger over the left half, binarised as grey
    bottom = code.copy()
    bottom[code.shape[0] // 2 :, :] = 0  # a shadow over the bottom half, gone black
    blank = np.full_like(code, 255)
    rng = np.random.default_rng(3)
    paper = np.clip(rng.normal(200, 3, code.shape), 0, 255).astype(np.uint8)  # torn off
    assert not locate_module._finders_show((paper, locate_module._binary(paper)) * 2, 8.0)
    assert locate_module.finder_patterns(locate_module._binary(half)) <= 1
    looks = (half, locate_module._binary(half), half, locate_module._binary(half))
    assert not locate_module._finders_show(looks, 6.0)
    assert locate_module.finder_patterns(locate_module._binary(bottom)) <= 2
    assert locate_module.finder_patterns(blank) == 0


def test_a_qr_code_under_a_finger_is_not_decoded_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its finder patterns hidden where four markers put it, the code cannot be read there nor
    # anywhere else: 40 tries at its place and a search of the whole photo (0.3 s of a 12 MP
    # photo) are spared, and a code in view is still read.
    asked = []

    class Counted:
        def __init__(self, detector: object) -> None:
            self.detector = detector

        def detectAndDecode(self, image: np.ndarray) -> tuple[str, object, object]:  # noqa: N802
            asked.append(image.shape)
            return self.detector.detectAndDecode(image)  # type: ignore[attr-defined, no-any-return]

    from printgen.games.one_page_war.reader.photo import load_photo
    from printgen.games.one_page_war.reader.reading import locate_photo

    def covered_with_a_marker(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        photo_corpus.cover_qr()(sheet, geometry)
        photo_corpus.cover_marker(2)(sheet, geometry)

    plain, aruco = cv2.QRCodeDetector, cv2.QRCodeDetectorAruco
    found = {}
    for name, edit in (
        ("covered", photo_corpus.cover_qr()),
        ("in-view", None),
        ("a marker covered too", covered_with_a_marker),
    ):
        path = tmp_path / f"{name}.jpg"
        photo = photo_corpus.make_photo(path, 43, SMALL, mode="duel", shot=_shot(43), edit=edit)
        grey = load_photo(path)
        with monkeypatch.context() as patched:
            patched.setattr(cv2, "QRCodeDetector", lambda: Counted(plain()))
            patched.setattr(cv2, "QRCodeDetectorAruco", lambda: Counted(aruco()))
            asked.clear()
            _, located = locate_photo(grey, str(path))
        found[name] = (located.tag.sheet_id, len(located.markers), len(asked))
    assert found["covered"] == (None, 4, 0)
    sheet_id, _, tries = found["in-view"]
    assert sheet_id == photo.tag.sheet_id and tries >= 1  # one seed: one sheet id for all three
    # With three markers the fit may miss the code's place: the whole photo is searched.
    sheet_id, markers, tries = found["a marker covered too"]
    assert (sheet_id, markers) == (None, 3) and tries >= 1


def test_a_qr_code_washed_out_but_for_its_corners_is_said_unreadable_not_covered(
    tmp_path: Path,
) -> None:
    # Glare over all but the three finder patterns: the code is there, and could not be read.
    def glare(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        qr = geometry.find(Kind.QR)
        k = photo_corpus.SHEET_PX_PER_MM
        x, y = int((qr.x + 0.3 * qr.w) * k), int((qr.y + 0.3 * qr.h) * k)
        sheet[y : int(qr.rect.bottom * k), x : int(qr.rect.right * k)] = 255

    path = tmp_path / "glare.jpg"
    photo_corpus.make_photo(path, 44, SMALL, mode="duel", shot=_shot(44), edit=glare)
    result = read(path)
    assert result.located.tag.sheet_id is None
    said = [a for a in result.located.advice if "QR code" in a]
    assert said and "could not be read" in said[0] and "free of glare" in said[0]


def test_one_covered_marker_in_each_corner_still_reads(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    truth = photo_corpus.random_game(rng, "duel")
    for marker in range(4):
        path = tmp_path / f"covered-{marker}.jpg"
        photo = photo_corpus.make_photo(
            path,
            43,
            SMALL,
            mode="duel",
            paper=Paper.A4,
            truth=truth,
            shot=_shot(43 + marker, tilt_deg=25, rotation_deg=90 * marker + 5),
            edit=photo_corpus.cover_marker(marker),
        )
        result = read(path)
        assert marker not in result.located.markers and len(result.located.markers) == 3
        assert result.located.tag.sheet_id == photo.tag.sheet_id
        _right_or_unsure(result, photo)


def _two_covered(a: int, b: int) -> photo_corpus.Callable[[np.ndarray, object], None]:
    first, second = photo_corpus.cover_marker(a), photo_corpus.cover_marker(b)

    def edit(sheet: np.ndarray, geometry: object) -> None:
        first(sheet, geometry)  # type: ignore[arg-type]
        second(sheet, geometry)  # type: ignore[arg-type]

    return edit


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER])
def test_two_markers_in_opposite_corners_read_with_the_printed_grid(
    paper: Paper, tmp_path: Path
) -> None:
    path = tmp_path / "two.jpg"
    photo = photo_corpus.make_photo(
        path,
        44,
        SMALL,
        mode="duel",
        paper=paper,
        shot=_shot(44, tilt_deg=25, rotation_deg=-10),
        edit=_two_covered(1, 3),
    )
    result = read(path)
    assert result.located.markers == (0, 2)
    assert result.located.tag.paper is paper and result.located.tag.sheet_id == photo.tag.sheet_id
    _right_or_unsure(result, photo)


def test_two_markers_on_one_side_are_not_enough(tmp_path: Path) -> None:
    path = tmp_path / "two-bottom.jpg"
    photo_corpus.make_photo(path, 45, SMALL, mode="duel", shot=_shot(45), edit=_two_covered(2, 3))
    with pytest.raises(MarkerMissing) as caught:
        read(path)
    message = str(caught.value)
    assert "found 2 of the sheet's 4 corner markers" in message
    assert "bottom-right (in the photo but unreadable" in message
    assert "bottom-left (in the photo but unreadable" in message
    assert "two in opposite corners" in message
    assert "Uncover all four corners and" in message


def test_a_covered_marker_and_one_cut_off_are_both_named(tmp_path: Path, runner: CliRunner) -> None:
    """Turned 20 degrees, the top-left marker is the highest point of the sheet: a photo cut
    just below it loses that marker alone; the top-right one is covered by a hand."""
    rng = np.random.default_rng(6)
    truth = photo_corpus.random_game(rng, "duel")
    sheet = photo_corpus.fill_sheet(photo_corpus.blank_sheet(Paper.A4, "duel"), truth, 6)
    photo_corpus.cover_marker(1)(sheet, sheet_geometry("standard", Paper.A4))
    shot = _shot(46, tilt_deg=10, rotation_deg=20, fill=0.8)
    image = photo_corpus.photograph(sheet, shot)
    found = find_markers(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)).found
    assert set(found) == {0, 2, 3}
    cut = int(found[0][:, 1].max()) + 4
    assert all(found[i][:, 1].min() > cut + 10 for i in (2, 3))
    path = tmp_path / "cut.jpg"
    photo_corpus.save_photo(np.ascontiguousarray(image[cut:]), path, shot)
    with pytest.raises(MarkerMissing) as caught:
        read(path)
    message = str(caught.value)
    assert "top-left (outside the photo: cut off)" in message
    assert "top-right (in the photo but unreadable: covered, in glare or in shadow)" in message
    assert "Get all four corners in the frame, uncovered, and" in message
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "top-left (outside the photo" in result.stderr


def test_markers_cut_off_by_the_frame_ask_for_the_corners_in_it(tmp_path: Path) -> None:
    # Not "Uncover all four corners": nothing covered them.
    rng = np.random.default_rng(7)
    truth = photo_corpus.random_game(rng, "duel")
    sheet = photo_corpus.fill_sheet(photo_corpus.blank_sheet(Paper.A4, "duel"), truth, 7)
    shot = _shot(47, tilt_deg=5, rotation_deg=0, fill=0.8)
    image = photo_corpus.photograph(sheet, shot)
    found = find_markers(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)).found
    cut = int(max(found[0][:, 1].max(), found[1][:, 1].max())) + 4
    path = tmp_path / "cut.jpg"
    photo_corpus.save_photo(np.ascontiguousarray(image[cut:]), path, shot)
    with pytest.raises(MarkerMissing) as caught:
        read(path)
    message = str(caught.value)
    assert "top-left (outside the photo: cut off), top-right (outside the photo: cut off)" in (
        message
    )
    assert "Get all four corners in the frame and" in message and "ncover" not in message


def test_a_soft_marker_is_found_again_where_the_others_put_it(tmp_path: Path) -> None:
    """A marker blurred and faded (a shadow, out of focus) that ArUco's detector misses over
    the whole photo is found in the frontal, stretched close-up of where it must be."""
    geometry = sheet_geometry("standard", Paper.A4)

    def soften(sheet: np.ndarray, _: object) -> None:
        rows, cols = photo_corpus._px(geometry.find(Kind.MARKER, index=2))
        pad = 30
        area = (slice(rows.start - pad, rows.stop + pad), slice(cols.start - pad, cols.stop + pad))
        region = cv2.GaussianBlur(sheet[area].astype(np.float32), (0, 0), 10)
        sheet[area] = (255 - (255 - region) * 0.3).clip(0, 255).astype(np.uint8)

    path = tmp_path / "soft-marker.jpg"
    photo = photo_corpus.make_photo(
        path, 47, SMALL, mode="duel", paper=Paper.A4, shot=_shot(9, tilt_deg=25), edit=soften
    )
    grey = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2GRAY)
    assert 2 not in find_markers(grey).found  # the whole-photo search misses it
    result = read(path)
    assert result.located.markers == (0, 1, 2, 3)
    assert result.located.tag.sheet_id == photo.tag.sheet_id
    _right_or_unsure(result, photo)


def test_a_qr_code_that_contradicts_the_printed_sheet_is_an_error(tmp_path: Path) -> None:
    letter = SheetTag("standard", 1, Paper.LETTER, "D-1234-0001").to_text()
    path = tmp_path / "pasted.jpg"
    photo_corpus.make_photo(
        path,
        48,
        SMALL,
        mode="duel",
        paper=Paper.A4,
        shot=_shot(48),
        edit=photo_corpus.replace_qr(letter),
    )
    with pytest.raises(ForeignSheet, match=r"the printed sheet is layout standard v\d on A4"):
        read(path)


def test_the_known_sheets_are_every_layout_version_and_paper() -> None:
    sheets = locate_module.known_sheets()
    assert {(c.layout, c.paper) for c in sheets} >= {
        ("standard", Paper.A4),
        ("standard", Paper.LETTER),
    }


def test_the_shipped_printed_text_is_what_the_sheets_print() -> None:
    """The modes' text the reader compares a photo with (read back from `printed_text.npz`, so
    that reading needs no ReportLab) is what the sheets print today: a changed name line, die
    space or AI rule changes thousands of these pixels, and `make printed-text` writes it again."""
    for sheet in locate_module.known_sheets():
        stored_where, stored = grid.printed_text(sheet.layout, sheet.paper, sheet.version)
        where, rendered = grid.rendered_text(sheet.layout, sheet.paper, sheet.version)
        label = f"{sheet.label}: run `make printed-text`"
        both, stored_at, rendered_at = np.intersect1d(stored_where, where, return_indices=True)
        assert len(both) >= 0.99 * max(len(where), len(stored_where)), label
        for mode in grid.MODES:
            gap = np.abs(stored[mode][stored_at] - rendered[mode][rendered_at])
            assert gap.max() <= 0.02, label


def test_a_damaged_printed_text_file_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = tmp_path / "printed_text.npz"
    damaged.write_bytes(grid.PRINTED_TEXT.read_bytes()[:5000])
    monkeypatch.setattr(grid, "PRINTED_TEXT", damaged)
    grid._stored_text.cache_clear()
    try:
        with pytest.raises(ModelFileError, match="printed_text.npz.*make printed-text"):
            grid.printed_text("standard", Paper.A4, 2)
    finally:
        grid._stored_text.cache_clear()


def test_tick_boxes_cut_alike_read_together_as_each_read_alone() -> None:
    # The shade check stacks the boxes cut alike (cells._inks_against_the_paper_around): each
    # box's ink must be what it is read alone, whatever boxes share its stack, which way up it
    # is written, and whether it lies too near the sheet's edge for the strips beside it.
    from printgen.games.one_page_war.geometry import Element, Side
    from printgen.games.one_page_war.reader import cells

    rng = np.random.default_rng(11)
    sheet = rng.integers(150, 256, (600, 900)).astype(np.uint8)
    sheet[200:260] = (sheet[200:260] * 0.7).astype(np.uint8)  # a band of shade
    boxes = tuple(
        Element(Kind.TICK, "Land", side, i, x, y, w, w)
        for i, (side, x, y, w) in enumerate(
            [
                (Side.FIRST, 10.0, 30.0, 5.0),
                (Side.SECOND, 20.0, 30.0, 5.0),
                (Side.FIRST, 30.0, 34.0, 5.0),
                (Side.FIRST, 40.0, 30.5, 5.2),  # cut otherwise: a stack of its own
                (Side.SECOND, 0.2, 60.0, 5.0),  # by the edge: no strips on its left
                (Side.FIRST, 50.0, 35.0, 5.0),
            ]
        )
    )
    together = cells._inks_against_the_paper_around(sheet, boxes)
    shapes = [ink.shape for ink in together]
    assert len(set(shapes)) >= 2 and max(shapes.count(s) for s in shapes) >= 3  # stacks
    for box, ink in zip(boxes, together, strict=True):
        alone = cells._inks_against_the_paper_around(sheet, (box,))[0]
        assert alone.shape == ink.shape
        assert np.array_equal(alone, ink), box
    turned = cells._inks_against_the_paper_around(sheet, (boxes[1],))[0]
    upright = Element(Kind.TICK, "Land", Side.FIRST, 1, 20.0, 30.0, 5.0, 5.0)
    assert np.array_equal(
        turned, cells._inks_against_the_paper_around(sheet, (upright,))[0][::-1, ::-1]
    )


def test_cells_cropped_together_are_each_as_cropped_alone() -> None:
    # cells.crops works out the regions of one size in one stack (Ink.regions): each must be
    # what `crop` gives alone, to the bit, whichever way up and whatever size its neighbours.
    from printgen.games.one_page_war.geometry import Element, Side
    from printgen.games.one_page_war.reader import cells

    rng = np.random.default_rng(12)
    sheet = rng.integers(120, 256, (700, 900)).astype(np.uint8)
    sheet[100:400, 300:320] = 30  # a stroke, and paper darker beside it
    ink = cells.Ink.of(sheet)
    squares = [
        Element(Kind.SQUARE, "Land", side, i, x, y, w, w)
        for i, (side, x, y, w) in enumerate(
            [
                (Side.FIRST, 10.0, 20.0, 14.0),
                (Side.SECOND, 40.0, 20.0, 14.0),
                (Side.FIRST, 50.2, 55.5, 14.0),
                (Side.SECOND, 70.0, 21.0, 14.3),  # another size: cropped alone
                (Side.FIRST, 100.0, 60.0, 14.0),
            ]
        )
    ]
    together = cells.crops(ink, squares, cells.SQUARE_INSET_MM)
    shapes = [patch.shape for patch in together]
    assert len(set(shapes)) >= 2 and max(shapes.count(s) for s in shapes) >= 3
    for e, patch in zip(squares, together, strict=True):
        assert np.array_equal(patch, cells.crop(ink, e, cells.SQUARE_INSET_MM)), e
    assert cells.crops(ink, [], cells.SQUARE_INSET_MM) == []
