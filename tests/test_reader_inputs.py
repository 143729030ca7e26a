"""Hostile and odd photo inputs: each a one-line error naming the file, exit 1, no traceback; and
the photo formats a phone gives (WebP) read like any other."""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.errors import LayoutError
from printgen.games.one_page_war.geometry import SheetTag
from printgen.games.one_page_war.reader import read, read_photo
from printgen.games.one_page_war.reader.errors import (
    DamagedImage,
    ForeignSheet,
    ImageTooSmall,
    NoSheet,
    NotAnImage,
    ReaderFault,
)
from printgen.games.one_page_war.reader.photo import (
    ScanPage,
    file_kind,
    load_photo,
    load_photo_and_pale,
    sheets_in,
)
from printgen.materials import PhotoOptions

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402
from photo_corpus import GENTLE, SMALL  # noqa: E402


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def _png(width: int, height: int, extra: bytes = b"") -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + extra
        + _chunk(b"IDAT", zlib.compress(rows))
        + _chunk(b"IEND", b"")
    )


def _read_as_written(path: Path, photo: photo_corpus.CorpusPhoto) -> None:
    """`path` reads as `photo`'s sheet, and no cell of it is accepted as other than written."""
    result = read(path)
    assert result.located.tag.sheet_id == photo.tag.sheet_id
    for r in result.reading.all:
        assert r.value == photo.truth[photo_corpus.key(r.element)] or r.unsure, r


def _one_line_error(runner: CliRunner, path: Path, *words: str) -> None:
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and str(path) in lines[0]
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0]


def test_an_image_one_pixel_high(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "thin.png"
    path.write_bytes(_png(60_000, 1))
    with pytest.raises(ImageTooSmall, match="60000 x 1 pixels"):
        load_photo(path)
    _one_line_error(runner, path, "cannot hold a readable sheet")


def test_a_png_with_a_huge_compressed_colour_profile(tmp_path: Path, runner: CliRunner) -> None:
    profile = b"icc\x00\x00" + zlib.compress(b"\x00" * (64 * 1024 * 1024), 9)
    path = tmp_path / "profile.png"
    path.write_bytes(_png(400, 400, _chunk(b"iCCP", profile)))
    with pytest.raises(DamagedImage, match="metadata"):
        load_photo(path)
    _one_line_error(runner, path, "export the photo again")


@pytest.mark.parametrize(
    ("name", "head", "error", "said"),
    [
        ("scan.gif", b"GIF89a\x10\x00\x10\x00\x00\x00\x00", NotAnImage, "a GIF image"),
        ("photo.heic", b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1", NotAnImage, "a HEIC"),
        # A format the reader takes, cut to its first bytes: damaged, not "not a photo".
        ("sheet.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", DamagedImage, "cannot open the PDF"),
        ("sheet.tiff", b"II*\x00\x08\x00\x00\x00", DamagedImage, "a TIFF image that cannot"),
        ("sheet.png", b"\x89PNG\r\n\x1a\n", DamagedImage, "a PNG image that cannot be"),
        ("sheet.jpg", b"\xff\xd8\xff\xe0", DamagedImage, "a JPEG photo that cannot be"),
    ],
)
def test_files_that_are_no_photo_or_only_a_photo_s_first_bytes_are_named(
    name: str, head: bytes, error: type[Exception], said: str, tmp_path: Path, runner: CliRunner
) -> None:
    path = tmp_path / name
    path.write_bytes(head + bytes(64))
    assert file_kind(path) is not None
    with pytest.raises(error, match=said):
        load_photo(path)
    # Whatever the name says: the content decides (a PDF named .toml is no typed-in sheet).
    _one_line_error(runner, path, said)


def test_a_real_gif_is_refused_with_what_is_accepted(tmp_path: Path, runner: CliRunner) -> None:
    from PIL import Image

    path = tmp_path / "sheet.gif"
    Image.fromarray(np.full((400, 600), 200, np.uint8)).save(path)
    with pytest.raises(NotAnImage, match="a GIF image, not a photo the reader takes"):
        load_photo(path)
    _one_line_error(runner, path, "JPEG, PNG or WebP")


def test_a_webp_photo_reads(tmp_path: Path) -> None:
    from PIL import Image

    jpeg = tmp_path / "sheet.jpg"
    photo = photo_corpus.make_photo(jpeg, 31, SMALL, mode="duel", shot=GENTLE)
    webp = tmp_path / "sheet.webp"
    with Image.open(jpeg) as image:
        image.save(webp, "WEBP", quality=90)
    assert file_kind(webp) == "a WebP image"
    _read_as_written(webp, photo)


def _as_pdf(photo: Path, pdf: Path, turned: int = 0) -> Path:
    """The photo saved as a one-page PDF, as a scanning app saves a scan, its page turned by
    `turned` degrees (the page's /Rotate, as an app turns a page on its side)."""
    from PIL import Image
    from pypdf import PdfReader, PdfWriter

    with Image.open(photo) as image:
        image.save(pdf, resolution=150)
    if turned:
        writer = PdfWriter()
        writer.add_page(PdfReader(pdf).pages[0])
        writer.pages[0].rotate(turned)
        writer.write(pdf)
    return pdf


@pytest.mark.parametrize("turned", [0, 90])
def test_a_scan_saved_as_a_one_page_pdf_reads(tmp_path: Path, turned: int) -> None:
    jpeg = tmp_path / "sheet.jpg"
    photo = photo_corpus.make_photo(jpeg, 31, SMALL, mode="duel", shot=GENTLE)
    pdf = _as_pdf(jpeg, tmp_path / "scan.pdf", turned)
    assert file_kind(pdf) == "a PDF document"
    _read_as_written(pdf, photo)


def test_a_pdf_that_is_no_one_page_scan_is_refused(tmp_path: Path, runner: CliRunner) -> None:
    from pypdf import PdfReader, PdfWriter
    from reportlab.pdfgen.canvas import Canvas

    jpeg = tmp_path / "sheet.jpg"
    photo_corpus.make_photo(jpeg, 31, SMALL, mode="duel", shot=GENTLE)
    page = PdfReader(_as_pdf(jpeg, tmp_path / "scan.pdf")).pages[0]
    two = PdfWriter()
    two.add_page(page)
    two.add_page(page)
    two.write(tmp_path / "two.pdf")
    locked = PdfWriter()
    locked.add_page(page)
    locked.encrypt("secret")
    locked.write(tmp_path / "locked.pdf")
    printed = Canvas(str(tmp_path / "printed.pdf"))  # the sheet as printed: no picture in it
    printed.drawString(100, 700, "One Page War")
    printed.save()
    # One sheet asked for (the web page's single photo; `printgen score` reads each page).
    with pytest.raises(NotAnImage, match="a PDF of 2 pages, where one sheet is read"):
        load_photo(tmp_path / "two.pdf")
    with pytest.raises(NotAnImage, match="no page 3: the file holds 2"):
        load_photo(tmp_path / "two.pdf", page=3)
    for name, error, said in [
        ("locked.pdf", DamagedImage, "locked with a password"),
        ("printed.pdf", NotAnImage, "a PDF document with no scanned page in it"),
    ]:
        with pytest.raises(error, match=said):
            load_photo(tmp_path / name)
        _one_line_error(runner, tmp_path / name, said)


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_16_bit_tiff_reads_as_its_8_bit_greys_turned_once(
    tmp_path: Path, orientation: int
) -> None:
    # (Pillow 13 turns a 16-bit TIFF by its orientation twice: OpenCV reads it, once.)
    sixteen = load_photo(_resaved(tmp_path / "p16.tif", "I;16", orientation), 400)
    eight = load_photo(_resaved(tmp_path / "p8.tif", "L", orientation), 400)
    assert sixteen.shape == eight.shape == ((350, 500) if orientation < 5 else (500, 350))
    assert np.abs(sixteen.astype(int) - eight).max() <= 1


def test_each_page_of_a_tiff_of_several_loads_as_its_own_picture(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "scans.tif"
    with (
        Image.open(_jpeg(tmp_path / "p.jpg")) as first,
        Image.open(_jpeg(tmp_path / "q.jpg", orientation=2)) as second,
    ):
        first.save(path, save_all=True, append_images=[second])
    assert sheets_in(path) == [ScanPage(path, 1), ScanPage(path, 2)]
    assert str(ScanPage(path, 2)) == f"{path} (page 2)"
    with pytest.raises(NotAnImage, match="a TIFF of 2 pages, where one sheet is read"):
        load_photo(path)
    for page, alone in [(1, tmp_path / "p.jpg"), (2, tmp_path / "q.jpg")]:
        # The q.jpg's orientation lives in its EXIF, which the TIFF page does not carry.
        expected = np.asarray(Image.open(alone).convert("L"))
        assert np.abs(load_photo(path, 2000, page=page).astype(int) - expected).max() <= 1
        grey, pale = load_photo_and_pale(path, page)
        assert np.array_equal(grey, load_photo(path, page=page))
        assert pale.shape == grey.shape
    with pytest.raises(NotAnImage, match="no page 3: the file holds 2"):
        load_photo(path, page=3)


def test_an_avif_photo_reads_where_pillow_decodes_it(tmp_path: Path) -> None:
    from PIL import Image, features

    if not features.check("avif"):
        pytest.skip("this Pillow decodes no AVIF (refused then: test_files_that_are_no_photo)")
    jpeg = tmp_path / "sheet.jpg"
    photo = photo_corpus.make_photo(jpeg, 31, SMALL, mode="duel", shot=GENTLE)
    avif = tmp_path / "sheet.avif"
    with Image.open(jpeg) as image:
        image.save(avif, quality=90)
    assert file_kind(avif) == "an AVIF image"
    _read_as_written(avif, photo)


@pytest.mark.parametrize(
    ("scanner", "name", "washed_out"),
    [
        # A 400 dpi colour scan saved as PNG, laid upside down, the scanner's white over the
        # paper's: nothing clipped. (16 MP: averaged down on loading, as a JPEG is decoded.)
        (
            photo_corpus.Scanner(dpi=400, white=1.07, turned=True, noise=0.5, jpeg_quality=None),
            "a.png",
            False,
        ),
        # A 200 dpi grey JPEG whose white is 8 % under the paper's: the paper clipped to white.
        (photo_corpus.Scanner(dpi=200, white=0.92, grey=True, skew_deg=-1.5), "b.jpg", True),
    ],
)
def test_a_scan_reads_and_says_how_to_scan_when_its_paper_is_washed_out(
    scanner: photo_corpus.Scanner, name: str, washed_out: bool, tmp_path: Path
) -> None:
    from printgen.materials import PhotoOptions

    path = tmp_path / name
    photo = photo_corpus.make_photo(path, 33, mode="duel", scanner=scanner)
    assert load_photo(path).shape[0] <= 2400  # a 400 dpi scan is 4677 pixels long
    report = read_photo(path, PhotoOptions(partial=True))
    assert report.tag.sheet_id == photo.tag.sheet_id
    for r in report.reading.all:
        assert r.value == photo.truth[photo_corpus.key(r.element)] or r.unsure
    washed = [a for a in report.advice if "the paper is washed out" in a]
    assert bool(washed) == washed_out, report.advice
    # Seen straight on and filling the picture: the advice is a scanner's, not a phone's.
    assert all("scan in colour or grey" in a and "tap the sheet" not in a for a in washed)


def test_a_jpeg_from_a_108_mp_camera_reads(tmp_path: Path) -> None:
    # Phones with 108 and 200 MP modes write JPEGs past the 50 MP a PNG may have: decoded at a
    # quarter or an eighth of their sides, they are read as any photo.
    small = tmp_path / "small.jpg"
    photo = photo_corpus.make_photo(small, 34, SMALL, mode="duel", shot=GENTLE)
    grey = cv2.imread(str(small), cv2.IMREAD_GRAYSCALE)
    big = tmp_path / "big.jpg"
    cv2.imwrite(str(big), cv2.resize(grey, (12000, 9000)), [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert load_photo(big).shape == (2250, 3000)
    _read_as_written(big, photo)


def test_text_named_like_a_photo_is_not_an_image(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "notes.webp"
    path.write_text("nothing to see")
    _one_line_error(runner, path, "not an image")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("ONE-PAGE-WAR/STANDARD/\u00b2/A4/D-0000-0001", "is not a number"),
        ("ONE-PAGE-WAR/STANDARD/\u0661/A4/D-0000-0001", "is not a number"),
        ("ONE-PAGE-WAR/STANDARD/1/A4/D-0000-0001\nRESULT: FORGED", "is not a sheet id"),
        ("ONE-PAGE-WAR/STANDARD/1/A4/D-0000-\x1b[31m0001", "is not a sheet id"),
        ("ONE-PAGE-WAR/../../ETC/1/A4/D-0000-0001", "not a One Page War sheet's"),
        ("ONE-PAGE-WAR/EVIL.TOML/1/A4/D-0000-0001", "is not a layout name"),
        ("ONE-PAGE-WAR/STANDARD/1/A4/" + "D" * 5000, "5027 characters"),
    ],
)
def test_a_qr_code_is_accepted_only_as_printgen_prints_it(text: str, said: str) -> None:
    with pytest.raises(LayoutError, match=said) as caught:
        SheetTag.from_text(text)
    message = str(caught.value)
    assert "\n" not in message and "\x1b" not in message and len(message) < 300


def test_the_ids_printgen_prints_are_accepted() -> None:
    for ident in ("D-3F2A-0001", "S-0000-9999", "T-ABCD-60000"):
        tag = SheetTag.from_text(f"one-page-war/standard/1/letter/{ident.lower()}")
        assert tag.sheet_id == ident


def test_a_forged_qr_code_on_a_photo_is_one_line(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "forged.jpg"
    photo_corpus.make_photo(
        path,
        5,
        SMALL,
        mode="duel",
        paper=photo_corpus.Paper.A4,
        shot=GENTLE,
        edit=photo_corpus.replace_qr("ONE-PAGE-WAR/STANDARD/1/A4/D-0000-0001\rRESULT: FORGED"),
    )
    with pytest.raises(ForeignSheet, match="is not a sheet id"):
        read(path)
    _one_line_error(runner, path, "is not a sheet id")


def _jpeg(path: Path, mode: str = "RGB", orientation: int = 1, **options: object) -> Path:
    from PIL import Image

    rng = np.random.default_rng(orientation)
    pixels = (rng.random((700, 1000)) * 255).astype(np.uint8)
    pixels[:150, :300] = 0  # a corner that shows which way up it came out
    exif = Image.Exif()
    exif[0x0112] = orientation
    Image.fromarray(pixels).convert(mode).save(path, exif=exif.tobytes(), **options)
    return path


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize(
    ("mode", "options"), [("RGB", {}), ("L", {}), ("RGB", {"progressive": True})]
)
def test_a_plain_jpeg_reads_as_pillow_reads_it(
    tmp_path: Path, mode: str, options: dict[str, object], orientation: int
) -> None:
    from printgen.games.one_page_war.reader import photo

    path = _jpeg(tmp_path / "p.jpg", mode, orientation, **options)
    by_opencv = photo._plain_jpeg(path, 400)
    (by_pillow,) = photo._decoded_by_pillow(path, file_kind(path), ((400, False),))
    assert by_opencv is not None
    assert by_opencv.shape == by_pillow.shape == ((350, 500) if orientation < 5 else (500, 350))
    assert np.array_equal(by_opencv, by_pillow)


def test_jpegs_out_of_the_ordinary_go_to_pillow(tmp_path: Path) -> None:
    from printgen.games.one_page_war.reader import photo

    plain = _jpeg(tmp_path / "plain.jpg").read_bytes()
    trailer = tmp_path / "trailer.jpg"
    trailer.write_bytes(plain + b"maker's trailer")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(plain[: len(plain) // 2])
    cmyk = _jpeg(tmp_path / "cmyk.jpg", "CMYK")
    for path in (trailer, cut, cmyk):
        assert photo._plain_jpeg(path, 400) is None
    assert load_photo(trailer, 400).shape == (350, 500)
    assert load_photo(cmyk, 400).shape == (350, 500)
    with pytest.raises(DamagedImage, match="cut short"):
        load_photo(cut)


@pytest.mark.parametrize(
    ("height", "width", "said"), [(15000, 15000, "over the 178 MP"), (200, 1000, "300")]
)
def test_a_jpeg_header_claiming_a_size_the_reader_refuses_is_refused_before_decoding(
    tmp_path: Path, height: int, width: int, said: str
) -> None:
    from printgen.games.one_page_war.reader import photo
    from printgen.games.one_page_war.reader.errors import ImageTooLarge

    data = bytearray(_jpeg(tmp_path / "p.jpg", "L").read_bytes())
    frame = data.index(b"\xff\xc0")
    data[frame + 5 : frame + 9] = struct.pack(">HH", height, width)
    claimed = tmp_path / "claimed.jpg"
    claimed.write_bytes(bytes(data))
    assert photo._plain_jpeg(claimed, 400) is None
    with pytest.raises((ImageTooLarge, ImageTooSmall), match=said):
        load_photo(claimed)


def _resaved(path: Path, mode: str, orientation: int) -> Path:
    """`_jpeg`'s picture saved again in the format `path`'s suffix names, in `mode` ("I;16": 16-bit
    greys, "P": a palette), with its EXIF orientation."""
    from PIL import Image

    exif = Image.Exif()
    exif[0x0112] = orientation
    grey = mode in ("L", "I;16")
    with Image.open(_jpeg(path.with_suffix(".jpg"), "L" if grey else "RGB", orientation)) as image:
        if mode == "I;16":
            saved = Image.fromarray(np.asarray(image).astype(np.uint16) * 256 + 100)
        else:
            saved = image.convert(mode)
        saved.save(path, quality=90, exif=exif.tobytes())
    return path


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
@pytest.mark.parametrize("pale", [False, True])
@pytest.mark.parametrize(
    ("name", "mode"),
    [
        ("p.webp", "RGB"),
        ("p.png", "RGB"),
        ("p.png", "L"),
        ("p.png", "I;16"),
        ("p.png", "P"),
        ("p.tif", "RGB"),
    ],
)
def test_a_webp_png_or_tiff_reads_as_pillow_reads_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    orientation: int,
    pale: bool,
    name: str,
    mode: str,
) -> None:
    # OpenCV decodes them in a third of Pillow's memory or less; the pixels are Pillow's,
    # turned alike, a 16-bit grey's its upper byte.
    from printgen.games.one_page_war.reader import photo

    path = _resaved(tmp_path / name, mode, orientation)
    whole, halved = load_photo(path, 1000, pale), load_photo(path, 400, pale)
    monkeypatch.setattr(photo, "_by_opencv", lambda *_: None)
    assert np.abs(whole.astype(int) - load_photo(path, 1000, pale)).max() <= 1
    by_pillow = load_photo(path, 400, pale)
    assert halved.shape == by_pillow.shape == ((350, 500) if orientation < 5 else (500, 350))
    assert np.abs(halved.astype(int) - by_pillow).max() <= 1


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_png_is_decoded_from_its_file_not_from_its_bytes_read_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, orientation: int
) -> None:
    # A 600 dpi scan's 40 MB of bytes stayed in memory while it was decoded. A path not in
    # ASCII (which OpenCV may not open, on Windows) is read from its bytes, to the same pixels.
    import shutil

    from printgen.games.one_page_war.reader import photo

    path = _resaved(tmp_path / "p.png", "RGB", orientation)
    accented = shutil.copy(path, tmp_path / "p\u00e9.png")
    from_bytes = photo.load_photo_and_pale(accented)
    read_bytes = np.fromfile

    def no_bytes(file: object, *args: object, **kwargs: object) -> np.ndarray:
        assert Path(str(file)).suffix != ".png", "the PNG's bytes were read first"
        return read_bytes(file, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(np, "fromfile", no_bytes)
    from_file = photo.load_photo_and_pale(path)
    for a, b in zip(from_file, from_bytes, strict=True):
        assert np.array_equal(a, b)


def test_a_damaged_png_is_decoded_once(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    # libpng prints its own error on the terminal as it fails: once, beside the reader's line.
    path = _resaved(tmp_path / "p.png", "RGB", 1)
    damaged = bytearray(path.read_bytes())
    damaged[len(damaged) // 2 : len(damaged) // 2 + 2000] = bytes(2000)
    path.write_bytes(bytes(damaged))
    with pytest.raises(DamagedImage, match="p.png"):
        load_photo(path)
    assert capfd.readouterr().err.count("libpng error") <= 1


@pytest.mark.parametrize(
    ("name", "mode", "orientation"),
    [
        ("p.jpg", "RGB", 6),
        ("p.webp", "RGB", 6),
        ("p.png", "RGB", 6),
        ("p.png", "I;16", 6),
        ("p.png", "RGBA", 6),
        ("p.tif", "RGB", 1),  # halved as it is decoded
        ("p.tif", "RGB", 6),  # decoded whole: OpenCV would halve it unturned
    ],
)
def test_a_photo_and_its_darkest_channel_load_together_as_pillow_loads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, mode: str, orientation: int
) -> None:
    # A PNG or WebP is decoded once for both (its decoding is most of its reading time), by
    # OpenCV, averaged down as it is decoded where it can be.
    from PIL import Image

    from printgen.games.one_page_war.reader import photo
    from printgen.games.one_page_war.reader.photo import PALE_LONG_SIDE, load_photo_and_pale

    path = _resaved(tmp_path / name, mode, orientation)
    # Averaged down by 2 (halved as decoded where the sides are even) and not at all.
    exif = Image.Exif()
    exif[0x0112] = orientation
    for size in ((2520, 3600), (2521, 3601), (700, 1000)):
        with Image.open(path) as image:
            image.load()
        image.resize(size, Image.Resampling.NEAREST).save(path, exif=exif.tobytes())
        grey, pale = load_photo_and_pale(path)
        with monkeypatch.context() as pillow_only:
            pillow_only.setattr(photo, "_by_opencv", lambda *_: None)
            expected = load_photo(path), load_photo(path, PALE_LONG_SIDE, pale=True)
        for got, wanted in zip((grey, pale), expected, strict=True):
            assert got.shape == wanted.shape
            if size[0] % 4 == 0:
                # (Sides that do not divide are averaged over blocks a little smaller than
                # Pillow's, whose last block is part of one: the same picture, not the same
                # pixels.)
                assert np.abs(got.astype(int) - wanted).max() <= 1


@pytest.mark.parametrize("name", ["p.png", "scans.tif"])
def test_what_only_pillow_decodes_is_decoded_once_for_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # A PNG with transparency, or a page of a TIFF of several: decoding a 12 MP one is most of
    # its reading, and it was done twice, once for the grey and once for the darkest channel.
    from PIL import Image

    from printgen.games.one_page_war.reader import photo

    path, page = tmp_path / name, (2 if name.endswith(".tif") else None)
    with Image.open(_jpeg(tmp_path / "p.jpg")) as image:
        picture = image.convert("RGBA").resize((4000, 2800))
    if page is None:
        picture.putalpha(Image.linear_gradient("L").resize(picture.size))
        picture.save(path)
    else:
        picture.convert("RGB").save(path, save_all=True, append_images=[picture.convert("RGB")])
    decoded = []
    real = photo._decoded_by_pillow

    def counted(*args: Any) -> Any:
        decoded.append(args)
        return real(*args)

    monkeypatch.setattr(photo, "_decoded_by_pillow", counted)
    grey, pale = photo.load_photo_and_pale(path, page)
    assert len(decoded) == 1
    assert np.array_equal(grey, load_photo(path, page=page))
    assert np.array_equal(pale, load_photo(path, photo.PALE_LONG_SIDE, True, page))
    assert grey.shape == (1400, 2000) and pale.shape == (700, 1000)  # averaged by 2 and 4


@pytest.mark.parametrize("mode", ["RGBA", "LA"])
@pytest.mark.parametrize("scale", [2, 3, 4])
def test_transparency_is_averaged_down_a_band_at_a_time_as_whole(mode: str, scale: int) -> None:
    from PIL import Image

    from printgen.games.one_page_war.reader import photo

    rng = np.random.default_rng(scale)
    layers = 4 if mode == "RGBA" else 2
    image = Image.fromarray(rng.integers(0, 256, (1031, 777, layers), np.uint8), mode)
    banded = photo._reduced_in_bands(image, scale)
    assert banded.mode == mode
    assert np.array_equal(np.asarray(banded), np.asarray(image.reduce(scale)))


def test_a_scanners_tiff_with_private_tags_reads_without_libtiffs_warnings(tmp_path: Path) -> None:
    # Scanners write tags of their own; OpenCV printed libtiff's "Unknown field with tag 65000"
    # on the terminal beside the reader's output. A real process: OpenCV reads its log level
    # when it is first imported, which this test process has done long since.
    import subprocess

    from PIL import Image, TiffImagePlugin

    tags = TiffImagePlugin.ImageFileDirectory_v2()
    tags[65000] = "the scanner's own"
    tags.tagtype[65000] = 2  # ASCII
    path = tmp_path / "scan.tif"
    with Image.open(_jpeg(tmp_path / "p.jpg")) as image:
        image.save(path, tiffinfo=tags)
    assert load_photo(path, 400).shape == (350, 500)
    printgen = str(Path(sys.executable).with_name("printgen"))
    result = subprocess.run([printgen, "score", str(path)], capture_output=True, text=True)
    assert result.returncode == 1  # no sheet in it: one line, and nothing from libtiff
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: {path}: no One Page War sheet found")


def test_a_png_cut_short_is_a_damaged_image_and_only_that_is_said(
    tmp_path: Path, runner: CliRunner, capfd: pytest.CaptureFixture[str]
) -> None:
    whole = _resaved(tmp_path / "whole.png", "RGB", 1).read_bytes()
    path = tmp_path / "cut.png"
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(DamagedImage, match="damaged or cut short"):
        load_photo(path)
    # OpenCV's libpng prints its own error on the terminal, under the reader's one line.
    assert "libpng" not in capfd.readouterr().err
    _one_line_error(runner, path)


def test_a_webp_cut_short_is_a_damaged_image(tmp_path: Path, runner: CliRunner) -> None:
    whole = _resaved(tmp_path / "whole.webp", "RGB", 1).read_bytes()
    path = tmp_path / "cut.webp"
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(DamagedImage):
        load_photo(path)
    _one_line_error(runner, path)


def test_a_16_bit_grey_png_reads_as_its_8_bit_greys(tmp_path: Path) -> None:
    # Pillow's own conversion clips 16-bit greys at 255: the sheet came out white, no marker.
    from PIL import Image

    jpeg = tmp_path / "sheet.jpg"
    photo = photo_corpus.make_photo(jpeg, 31, SMALL, mode="duel", shot=GENTLE)
    eight = cv2.imread(str(jpeg), cv2.IMREAD_GRAYSCALE)
    sixteen = tmp_path / "sheet.png"
    Image.fromarray(eight.astype(np.uint16) * 257).save(sixteen)
    with Image.open(sixteen) as image:
        assert image.mode.startswith("I")
    assert np.array_equal(load_photo(sixteen), load_photo(jpeg))
    result = read(sixteen)
    assert result.located.tag.sheet_id == photo.tag.sheet_id


@pytest.mark.parametrize("saved_as", ["dots.png", "dots.jpg"])
def test_a_halftoned_black_and_white_scan_is_smoothed_before_it_is_sampled(
    tmp_path: Path, saved_as: str
) -> None:
    # Sampled bare at every other pixel, this sheet's pale 6 came out as scattered specks and
    # was read as 5 and accepted, saved as 1-bit PNG or as JPEG alike.
    from PIL import Image

    from printgen.games.one_page_war.reader.locate import _antialias_sigma
    from printgen.materials import PhotoOptions

    grey = tmp_path / "grey.png"
    scanner = photo_corpus.Scanner(dpi=300, white=1.0, grey=True, jpeg_quality=None)
    photo = photo_corpus.make_photo(grey, 44, mode="duel", scanner=scanner)
    dots = tmp_path / saved_as
    with Image.open(grey) as image:
        image.convert("1").convert("L").save(dots)  # Floyd-Steinberg: a halftone
    report = read_photo(dots, PhotoOptions(partial=True))
    for r in report.reading.all:
        assert r.value == photo.truth[photo_corpus.key(r.element)] or r.unsure, r
    # 300 dpi against the rectified sheet's 6 pixels a millimetre: about twice as fine.
    assert 0.7 < _antialias_sigma(read(dots).located) < 1.0


@pytest.mark.parametrize("size", [SMALL, (4032, 3024)])
def test_a_phone_photo_is_sampled_as_it_is(tmp_path: Path, size: tuple[int, int]) -> None:
    # A 12 MP photo is decoded at half its sides: about as fine as the rectified sheet.
    from dataclasses import replace

    from printgen.games.one_page_war.reader.locate import _antialias_sigma

    path = tmp_path / "sheet.jpg"
    photo_corpus.make_photo(path, 31, mode="duel", shot=replace(GENTLE, size=size))
    assert _antialias_sigma(read(path).located) == 0.0


def test_a_mirrored_photo_is_read_turned_back(tmp_path: Path) -> None:
    # A front camera's or a webcam's picture: ArUco reads its markers in one hand only, so the
    # mirrored sheet showed no marker at all ("no One Page War sheet found").
    from printgen.games.one_page_war.reader.reading import MIRRORED_ADVICE

    path = tmp_path / "sheet.jpg"
    photo = photo_corpus.make_photo(path, 31, SMALL, mode="duel", shot=GENTLE)
    mirrored = tmp_path / "mirrored.png"
    cv2.imwrite(str(mirrored), cv2.imread(str(path))[:, ::-1])
    as_taken, turned_back = read(path), read(mirrored)
    assert turned_back.located.mirrored and not as_taken.located.mirrored
    assert turned_back.located.advice[0] == MIRRORED_ADVICE
    assert MIRRORED_ADVICE not in as_taken.located.advice
    assert turned_back.located.tag == as_taken.located.tag
    pairs = list(zip(turned_back.reading.all, as_taken.reading.all, strict=True))
    for r, s in pairs:
        assert r.element == s.element
        assert r.value == photo.truth[photo_corpus.key(r.element)] or r.unsure
    assert sum(r.value == s.value for r, s in pairs) >= 0.95 * len(pairs)


def test_a_photo_with_no_sheet_either_way_round_shows_no_sheet(tmp_path: Path) -> None:
    path = tmp_path / "table.jpg"
    rng = np.random.default_rng(3)
    cv2.imwrite(str(path), (rng.random((900, 1200)) * 60 + 100).astype(np.uint8))
    with pytest.raises(NoSheet, match="no One Page War sheet found"):
        read(path)


def test_transparent_paper_reads_as_white_paper(tmp_path: Path) -> None:
    # An image whose paper is transparent (its ink alone opaque) shows as a sheet in any viewer;
    # converted bare, the black under the transparency hid the whole sheet.
    from PIL import Image

    jpeg = tmp_path / "sheet.jpg"
    photo = photo_corpus.make_photo(jpeg, 31, SMALL, mode="duel", shot=GENTLE)
    grey = cv2.imread(str(jpeg), cv2.IMREAD_GRAYSCALE)
    ink_only = np.zeros((*grey.shape, 4), np.uint8)
    ink_only[..., 3] = 255 - grey
    transparent = tmp_path / "ink.png"
    Image.fromarray(ink_only, "RGBA").save(transparent)
    opaque = np.dstack([np.dstack([grey] * 3), np.full_like(grey, 255)])
    solid = tmp_path / "solid.png"
    Image.fromarray(opaque, "RGBA").save(solid)
    assert np.abs(load_photo(transparent).astype(int) - load_photo(jpeg)).max() <= 1
    assert np.array_equal(load_photo(solid), load_photo(jpeg))
    assert np.abs(load_photo(transparent, pale=True).astype(int) - grey).max() <= 1
    result = read(transparent)
    assert result.located.tag.sheet_id == photo.tag.sheet_id


def test_a_fault_of_the_reader_is_one_line_naming_the_photo(
    tmp_path: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader's own fault (a crumpled sheet once stopped it with a division by zero) is said
    as one line naming the photo and what to do, exit 1, no traceback: as in a batch."""
    from printgen.games.one_page_war.reader import reading

    photo = photo_corpus.make_photo(tmp_path / "sheet.jpg", 1, SMALL, shot=GENTLE)

    def fails(*_: Any) -> Any:
        return 1 / 0

    monkeypatch.setattr(reading, "read", fails)
    with pytest.raises(ReaderFault, match="sheet.jpg: the reader failed on this photo"):
        read_photo(photo.path, PhotoOptions())
    _one_line_error(
        runner, photo.path, "ZeroDivisionError: division by zero", "please report the photo"
    )
