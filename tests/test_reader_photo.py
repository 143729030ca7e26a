"""Photos the reader must refuse, each with a clear error, a non-zero exit and nothing written."""

from __future__ import annotations

import re
import struct
import sys
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.one_page_war.reader import photo as photo_module
from printgen.games.one_page_war.reader import read
from printgen.games.one_page_war.reader.errors import (
    DamagedImage,
    ForeignSheet,
    ImageTooLarge,
    NoSheet,
    NotAnImage,
    PhotoError,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402
from photo_corpus import GENTLE, SMALL  # noqa: E402


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG that claims a size without the pixels: enough to be measured, never decoded."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b""))


def _score(runner: CliRunner, path: Path, tmp_path: Path) -> tuple[int, str]:
    annotate = tmp_path / "out.png"
    result = runner.invoke(cli, ["score", str(path), "--annotate", str(annotate)])
    assert not annotate.exists(), "nothing is written for a refused photo"
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def test_not_an_image(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("game = 'one-page-war'\n")
    with pytest.raises(NotAnImage, match="not an image"):
        read(path)
    code, output = _score(runner, path, tmp_path)
    assert code == 1 and "not an image" in output


def test_truncated_jpeg(tmp_path: Path, runner: CliRunner) -> None:
    whole = tmp_path / "whole.jpg"
    photo_corpus.make_photo(whole, 3, SMALL, mode="duel", shot=GENTLE)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with pytest.raises(DamagedImage, match="damaged or cut short"):
        read(cut)
    code, output = _score(runner, cut, tmp_path)
    assert code == 1 and "cut short" in output
    assert "bytes not processed" not in output, "Pillow's own words are no help to a player"


def test_an_empty_file_says_so(tmp_path: Path, runner: CliRunner) -> None:
    """A photo copied off a phone that failed half way is often 0 bytes: 'not an image' sent
    the player looking for what else it was."""
    path = tmp_path / "IMG_0042.jpg"
    path.write_bytes(b"")
    with pytest.raises(NotAnImage, match=r"IMG_0042\.jpg: the file is empty \(0 bytes\); copy"):
        read(path)
    code, output = _score(runner, path, tmp_path)
    assert code == 1 and "the file is empty (0 bytes)" in output


def test_image_over_50_megapixels(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "huge.png"
    _png_header_only(path, 8000, 7000)
    with pytest.raises(ImageTooLarge, match="56 MP"):
        photo_module.load_photo(path)
    code, output = _score(runner, path, tmp_path)
    assert code == 1 and "50 MP" in output


def test_photo_with_no_sheet(tmp_path: Path, runner: CliRunner) -> None:
    from PIL import Image

    path = tmp_path / "table.jpg"
    rng = np.random.default_rng(0)
    Image.fromarray(rng.integers(60, 120, (900, 1200, 3), dtype=np.uint8)).save(path)
    with pytest.raises(NoSheet, match="no One Page War sheet found"):
        read(path)
    code, output = _score(runner, path, tmp_path)
    assert code == 1 and "retake the photo" in output
    # A sheet too small in the picture shows no marker either.
    assert "filling most of the picture" in output


def test_one_covered_marker_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "covered.jpg"
    photo = photo_corpus.make_photo(
        path, 4, SMALL, mode="duel", shot=GENTLE, edit=photo_corpus.cover_marker(2)
    )
    result = read(path)
    assert result.located.markers == (0, 1, 3)
    assert result.located.tag.sheet_id == photo.tag.sheet_id
    assert any("bottom-right not found" in a for a in result.located.advice)
    for r in result.reading.all:
        assert r.value == photo.truth[photo_corpus.key(r.element)] or r.unsure


@pytest.mark.parametrize(
    ("qr", "message"),
    [
        ("WAR/STANDARD/1/A4/D-0000-0001", "not a One Page War sheet"),
        ("ONE-PAGE-WAR/STANDARD/9/A4/D-0000-0001", "version 9"),
        ("ONE-PAGE-WAR/GIANT/1/A4/D-0000-0001", "layout 'giant'"),
    ],
)
def test_a_qr_code_this_reader_cannot_use(
    qr: str, message: str, tmp_path: Path, runner: CliRunner
) -> None:
    path = tmp_path / "foreign.jpg"
    photo_corpus.make_photo(
        path,
        5,
        SMALL,
        mode="duel",
        paper=photo_corpus.Paper.A4,
        shot=GENTLE,
        edit=photo_corpus.replace_qr(qr),
    )
    with pytest.raises(ForeignSheet, match=message):
        read(path)
    code, output = _score(runner, path, tmp_path)
    assert code == 1 and "type" in output


def test_photo_errors_are_input_errors() -> None:
    from printgen.errors import InputError

    assert issubclass(PhotoError, InputError)


@pytest.mark.parametrize(("blur", "seed"), [(3.5, 6), (6.0, 6)])
def test_a_blurred_photo_is_refused_with_advice(
    blur: float, seed: int, tmp_path: Path, runner: CliRunner
) -> None:
    """Blurred over 0.75 mm (3.5 px) and 1.3 mm (6 px) on the sheet: every pencil stroke
    washed out. Whatever is found of the sheet, the advice is to hold still and focus."""
    path = tmp_path / "shaken.jpg"
    photo_corpus.make_photo(path, seed, SMALL, mode="duel", shot=replace(GENTLE, blur=blur))
    with pytest.raises(PhotoError, match="(blurred|soft)"):
        read(path)
    code, output = _score(runner, path, tmp_path)
    assert code == 1 and ("hold the phone still" in output or "hold still and focus" in output)


def test_a_sheet_too_small_in_the_photo_is_refused(tmp_path: Path) -> None:
    from printgen.games.one_page_war.reader.errors import PoorPhoto

    path = tmp_path / "far.jpg"
    shot = replace(GENTLE, fill=0.3, blur=0.2)
    photo_corpus.make_photo(path, 7, SMALL, mode="duel", shot=shot)
    with pytest.raises(PoorPhoto, match="move closer") as refused:
        read(path)
    assert "steep" not in str(refused.value)  # taken from above, only too far


@pytest.fixture(scope="module")
def filling(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    """A 2 MP photo of a sheet filling most of it, decoded, to be made smaller as apps do."""
    import cv2

    path = tmp_path_factory.mktemp("filling") / "filling.jpg"
    shot = replace(GENTLE, fill=0.9, tilt_deg=3, blur=0.2, seed=3)
    photo_corpus.make_photo(path, 3, SMALL, mode="duel", paper=photo_corpus.Paper.A4, shot=shot)
    image = cv2.imread(str(path))
    assert image is not None
    return image


def _shrunk(image: np.ndarray, size: tuple[int, int], path: Path) -> Path:
    import cv2

    cv2.imwrite(str(path), cv2.resize(image, size, interpolation=cv2.INTER_AREA))
    return path


def test_a_photo_too_small_for_any_sheet_is_refused_for_its_pixels(
    filling: np.ndarray, tmp_path: Path
) -> None:
    from printgen.games.one_page_war.reader.errors import PoorPhoto

    # 1.35 pixels a millimetre: its markers are lost, and blur was blamed for it.
    path = _shrunk(filling, (400, 300), tmp_path / "thumbnail.jpg")
    with pytest.raises(PoorPhoto, match=r"only 400 x 300 pixels: even filling it, a sheet's s"):
        read(path)
    result = CliRunner().invoke(cli, ["score", str(path)])
    assert result.exit_code == 1
    assert "the camera's full size, or send the original" in result.output
    assert "blurred" not in result.output


def test_a_photo_made_smaller_is_told_its_original_may_read(tmp_path: Path) -> None:
    import cv2

    from printgen.games.one_page_war.reader.errors import PoorPhoto

    # The sheet is found, its squares under 24 pixels across: moving closer would do, but so
    # would the photo as the phone took it.
    taken = tmp_path / "taken.jpg"
    shot = replace(GENTLE, fill=0.55, tilt_deg=3, blur=0.2, seed=3)
    photo_corpus.make_photo(taken, 3, SMALL, mode="duel", paper=photo_corpus.Paper.A4, shot=shot)
    read(taken)  # read as the phone took it
    path = _shrunk(cv2.imread(str(taken)), (800, 600), tmp_path / "emailed.jpg")
    with pytest.raises(PoorPhoto, match=r"squares are only \d+ pixels") as refused:
        read(path)
    assert "(the photo is 800 x 600 pixels: if an app or an e-mail made it smaller" in str(
        refused.value
    )


def test_a_large_photo_of_a_far_sheet_is_not_told_it_was_shrunk(tmp_path: Path) -> None:
    from printgen.games.one_page_war.reader.errors import PoorPhoto

    path = tmp_path / "far.jpg"
    shot = replace(GENTLE, size=(2000, 1500), fill=0.25, blur=0.2)
    photo_corpus.make_photo(path, 7, (2000, 1500), mode="duel", shot=shot)
    with pytest.raises(PoorPhoto, match="move closer") as refused:
        read(path)
    assert "e-mail" not in str(refused.value)


def test_a_far_sheet_in_a_12_mp_photo_is_read_from_the_photo_s_own_pixels(tmp_path: Path) -> None:
    from printgen.games.one_page_war.reader.errors import SquaresTooSmall
    from printgen.games.one_page_war.reader.locate import locate

    # The sheet fills 22 % of the frame: its squares are some 19 pixels across in the copy of
    # 2,016 pixels read at first, and 38 in the photo. It had been refused ("only 19 pixels
    # across in the photo"); it is read from a larger copy.
    path = tmp_path / "far.jpg"
    shot = replace(GENTLE, size=(4032, 3024), fill=0.22, blur=0.6, seed=4)
    photo = photo_corpus.make_photo(path, 82311, (4032, 3024), mode="duel", shot=shot)
    with pytest.raises(SquaresTooSmall, match=r"only (1\d|2[0-3]) pixels across"):
        locate(photo_module.load_photo(path), str(path))
    reading = read(path).reading
    wrong = [r for r in reading.all if r.value != photo.truth[photo_corpus.key(r.element)]]
    assert all(r.unsure for r in wrong), wrong


@pytest.mark.parametrize("paper", [photo_corpus.Paper.A4, photo_corpus.Paper.LETTER])
def test_the_pixels_a_sheets_squares_can_have_bound_the_refusal(
    paper: photo_corpus.Paper,
) -> None:
    from printgen.games.one_page_war.geometry import Kind, sheet_geometry
    from printgen.games.one_page_war.reader import locate
    from printgen.games.one_page_war.reader.errors import PoorPhoto

    g = sheet_geometry("standard", paper)
    side = max(min(e.w, e.h) for e in g.select(Kind.SQUARE))
    # Filling a frame of the sheet's own proportions, either way round, at k pixels a mm.
    for k in (1.5, 2.0, 3.0):
        upright = (round(g.height * k), round(g.width * k))
        for shape in (upright, upright[::-1]):
            assert locate._most_square_px(shape, [g]) == pytest.approx(side * k, rel=0.01)
    smallest = locate.MIN_SQUARE_PX / side  # pixels a mm the squares need
    below = (int(g.height * smallest * 0.97), int(g.width * smallest * 0.97))
    above = (int(g.height * smallest * 1.03) + 1, int(g.width * smallest * 1.03) + 1)
    with pytest.raises(PoorPhoto, match="even filling it"):
        locate._refuse_too_few_pixels(below, [g], "p.jpg")
    locate._refuse_too_few_pixels(above, [g], "p.jpg")


def test_a_sheet_photographed_from_the_side_is_refused_with_the_angle_named(
    tmp_path: Path,
) -> None:
    from printgen.games.one_page_war.reader.errors import PoorPhoto

    # 60 degrees off straight down: the far side's squares are 14 pixels, the near side's 23.
    # Moving closer alone would not help as much as holding the phone above the sheet.
    path = tmp_path / "side.jpg"
    shot = replace(GENTLE, tilt_deg=60, fill=0.55, blur=0.2, seed=4)
    photo_corpus.make_photo(path, 4, SMALL, mode="duel", paper=photo_corpus.Paper.A4, shot=shot)
    with pytest.raises(PoorPhoto, match="far side.*steep angle: hold the phone above the sheet"):
        read(path)


def _two_sheets(seed: int) -> tuple[list[np.ndarray], list[dict[photo_corpus.Key, str]]]:
    sheets, truths = [], []
    for s in (seed, seed + 1):
        rng = np.random.default_rng([s, 99])
        blank = photo_corpus.blank_sheet(photo_corpus.Paper.A4, "duel")
        truths.append(photo_corpus.random_game(rng, "duel"))
        sheets.append(photo_corpus.fill_sheet(blank, truths[-1], s))
    return sheets, truths


def _photographed(table: np.ndarray, seed: int, path: Path) -> None:
    shot = replace(GENTLE, size=(4032, 3024), fill=0.95, seed=seed)
    photo_corpus.save_photo(photo_corpus.photograph(table, shot), path, shot)


@pytest.mark.parametrize(("side_by_side", "seed"), [(True, 1), (False, 3)])
def test_a_photo_of_two_sheets_is_refused(
    side_by_side: bool, seed: int, tmp_path: Path, runner: CliRunner
) -> None:
    from printgen.games.one_page_war.reader.errors import SeveralSheets

    # Two played sheets on the table, in one photo. Read, it gave one sheet's score and said
    # nothing of the other; which one the player meant is theirs to say.
    sheets, _ = _two_sheets(seed)
    axis = 1 if side_by_side else 0
    gap = np.full_like(sheets[0], 90)[:, :150] if side_by_side else sheets[0][:150] * 0 + 90
    path = tmp_path / "two.jpg"
    _photographed(np.concatenate([sheets[0], gap, sheets[1]], axis=axis), seed, path)
    message = "holds more than one sheet (all four corner markers are in it twice)"
    with pytest.raises(SeveralSheets, match=re.escape(message)):
        read(path)
    code, output = _score(runner, path, tmp_path)
    assert code == 1 and "photograph one sheet at a time" in output


def test_a_corner_of_another_sheet_in_the_photo_is_not_taken_for_this_ones(
    tmp_path: Path,
) -> None:
    # Beside the sheet, another sheet's bottom-left corner and its marker. Of the two
    # bottom-left markers the larger was kept, here the other sheet's, and the photo was
    # refused. The one that lies on a flat sheet with the other three is this sheet's.
    sheets, truths = _two_sheets(50)
    k = photo_corpus.SHEET_PX_PER_MM
    corner = np.full_like(sheets[1], 90)[:, : int(40 * k)]
    corner[-int(40 * k) :] = sheets[1][-int(40 * k) :, : int(40 * k)]
    gap = np.full_like(sheets[0], 90)[:, :100]
    path = tmp_path / "corner.jpg"
    _photographed(np.concatenate([sheets[0], gap, corner], axis=1), 5, path)
    result = read(path)
    for r in result.reading.all:
        assert r.value == truths[0][photo_corpus.key(r.element)] or r.unsure
