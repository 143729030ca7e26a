"""Loading a photo: JPEG, PNG or WebP, or a scan as a PDF or a TIFF (HEIC and AVIF too where
Pillow decodes them), turned by its EXIF orientation, to a greyscale array, with clear errors for
files that are no photo, are cut short, or are too large, too small or too narrow to hold a
readable sheet. A scan of several pages is read a page at a time (`sheets_in`, `ScanPage`)."""

from __future__ import annotations

import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printgen.games.one_page_war.reader.errors import (
    DamagedImage,
    ImageTooLarge,
    ImageTooSmall,
    NotAnImage,
)

if TYPE_CHECKING:  # numpy loads with the reader, not with `file_kind` (the CLI's sniffing)
    import numpy as np
    from PIL import Image

MAX_PIXELS = 50_000_000
# A JPEG is decoded at a reduced DCT scale (an eighth of a 108 or 200 MP phone photo's sides is
# 2 to 3 MP), so it may be as large as Pillow opens without calling it a decompression bomb.
MAX_JPEG_PIXELS = 2 * 89_478_485
# A sheet whose squares can be read spans at least this many pixels on the photo's short side,
# and no photo of a landscape sheet is narrower than this ratio.
MIN_SHORT_SIDE = 300
MAX_ASPECT = 4.0
# Marker and cell reading need about this many pixels on the photo's long side; JPEGs are decoded
# at the largest DCT reduction (1/2, 1/4, 1/8) that keeps at least this many, which is most of
# the speed on 12 MP photos, and other images averaged down by the same factor.
WORKING_LONG_SIDE = 1800
# The darkest colour channel only has to show marks 2 mm tall or more: half the size will do.
PALE_LONG_SIDE = WORKING_LONG_SIDE // 2

# What `file_kind` calls a JPEG and a PDF; and the pictures OpenCV decodes (`_by_opencv`),
# Pillow only checking them (a scanner's TIFF among them).
JPEG = "a JPEG photo"
PDF = "a PDF document"
OPENCV_KINDS = frozenset({"a PNG image", "a WebP image", "a TIFF image"})
# What `file_kind` calls the pictures the reader always decodes (HEIC and AVIF: where the
# installed Pillow does; a PDF: a scan's pages, `_scanned_page`).
ALWAYS_TAKEN = frozenset({JPEG, *OPENCV_KINDS})
# Pillow's format names for the photos the reader takes (MPO: a JPEG with a second image).
PHOTO_FORMATS = frozenset({"JPEG", "MPO", "PNG", "WEBP", "TIFF", "AVIF", "HEIF"})
ACCEPTED = "a JPEG, PNG or WebP photo of the sheet, or a scan of it (PDF, TIFF)"
# A scan's PDF page is drawn this many pixels on its long side: a little over the working size,
# as a 12 MP JPEG is decoded (2,016 pixels), so that a pale stroke keeps its pixels.
PDF_LONG_SIDE = WORKING_LONG_SIDE * 5 // 4

# What a file's first bytes say it is, for files no photo reader should take.
_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"%PDF", 0, PDF),
    (b"GIF87a", 0, "a GIF image"),
    (b"GIF89a", 0, "a GIF image"),
    (b"II*\x00", 0, "a TIFF image"),
    (b"MM\x00*", 0, "a TIFF image"),
    (b"BM", 0, "a BMP image"),
    (b"ftypheic", 4, "a HEIC photo"),
    (b"ftypheix", 4, "a HEIC photo"),
    (b"ftyphevc", 4, "a HEIC photo"),
    (b"ftypmif1", 4, "a HEIF photo"),
    (b"ftypmsf1", 4, "a HEIF photo"),
    (b"ftypavif", 4, "an AVIF image"),
    (b"\xff\xd8\xff", 0, JPEG),
    (b"\x89PNG\r\n\x1a\n", 0, "a PNG image"),
)


@dataclass(frozen=True)
class ScanPage:
    """One page of a scan of several pages (a PDF or TIFF: a team pack or a night's sheets
    scanned in one go), read as a photo of its own."""

    path: Path
    page: int  # counted from 1, as a PDF viewer counts

    def __str__(self) -> str:
        return source_name(self.path, self.page)


def source_name(path: Path, page: int | None) -> str:
    """How messages name a photo, or a page of a scan."""
    return str(path) if page is None else f"{path} (page {page})"


def sheets_in(path: Path) -> list[Path | ScanPage]:
    """What a file holds to read: each page of a PDF or TIFF of several pages, else the file
    itself (a photo, a one-page scan, or a file that will not open: reading it says why)."""
    pages = _page_count(path, file_kind(path))
    return [path] if pages <= 1 else [ScanPage(path, n) for n in range(1, pages + 1)]


def _page_count(path: Path, kind: str | None) -> int:
    if kind == PDF:
        import pypdfium2 as pdfium

        try:
            document = pdfium.PdfDocument(path)
        except pdfium.PdfiumError:
            return 1
        try:
            return len(document)
        finally:
            document.close()
    if kind == "a TIFF image":
        from PIL import Image

        try:
            with Image.open(path) as image:
                return int(getattr(image, "n_frames", 1))
        except Exception:  # any failure to open it: reading it names what is wrong
            return 1
    return 1


def file_kind(path: Path) -> str | None:
    """What the file's first bytes say it is ("a PDF document", "a JPEG photo"...), or None for
    anything else (a typed-in sheet, say). Unreadable files are None: their reader says why."""
    try:
        # Opening a FIFO waits for a writer: anything but a regular file is left to the reader
        # that refuses it.
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        with open(path, "rb") as handle:
            head = handle.read(16)
    except OSError:
        return None
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "a WebP image"
    for signature, offset, kind in _SIGNATURES:
        if head[offset : offset + len(signature)] == signature:
            return kind
    return None


def _not_a_photo(path: Path, kind: str | None) -> NotAnImage:
    if kind is None and _is_empty(path):
        return NotAnImage(f"{path}: the file is empty (0 bytes); copy the photo again")
    return NotAnImage(f"{path}: {not_taken(kind)}")


def _is_empty(path: Path) -> bool:
    try:
        return path.stat().st_size == 0
    except OSError:
        return False


def not_taken(kind: str | None) -> str:
    """Why a file of `kind` (file_kind's words; None: no image at all) is not read, and what to
    give instead: the words after its name, for the command line and the web app alike."""
    if kind is None:
        return f"not an image (expected {ACCEPTED})"
    if kind == PDF:
        return (
            f"a PDF document with no scanned page in it, not a photo: print the sheet, fill it "
            f"in and give {ACCEPTED} (a typed-in sheet is a .toml or .json file)"
        )
    if kind in ("a HEIC photo", "a HEIF photo", "an AVIF image"):
        return (
            f"{kind}, which this installation cannot decode: export it as JPEG (or set the "
            f"camera to its most compatible format) and give {ACCEPTED}"
        )
    return (
        f"{kind}, not a photo the reader takes: save it as JPEG or PNG (the reader takes "
        f"{ACCEPTED})"
    )


def load_photo(
    path: Path, long_side: int = WORKING_LONG_SIDE, pale: bool = False, page: int | None = None
) -> np.ndarray:
    """The photo as a uint8 greyscale array, upright as its EXIF orientation says. With `pale`,
    each pixel's darkest colour channel instead, at the same size: a pale ink shows there (a
    yellow pen is a fifth as dark as black in grey and four fifths as dark in blue). `page`: which
    page of a PDF or TIFF scan (from 1); None takes a file of one page only."""
    kind = file_kind(path)
    if kind == JPEG:
        plain = _plain_jpeg(path, long_side, pale)
        if plain is not None:
            return plain
    elif kind == PDF:
        (drawn,) = _scanned_page(path, (long_side,), page)
        return _darkest_channel(drawn) if pale else _grey(drawn)
    elif kind in OPENCV_KINDS and page is None:  # a TIFF's page: only Pillow picks one out
        import cv2

        # For the darkest channel, a grey image stays grey: three copies would be 36 MB more.
        flag = cv2.IMREAD_ANYCOLOR if pale else cv2.IMREAD_GRAYSCALE
        decoded = _by_opencv(path, kind, flag, (long_side,))
        if decoded is not None:
            return _darkest_channel(decoded[0]) if pale else decoded[0]
    return _decoded_by_pillow(path, kind, ((long_side, pale),), page)[0]


def load_photo_and_pale(path: Path, page: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`load_photo(path, page=page)` and `load_photo(path, PALE_LONG_SIDE, True, page)`: the
    photo, and its darkest colour channel at half the size. A PNG, WebP, TIFF or AVIF is decoded
    once for both, and a PDF's page drawn once: decoding a 12 MP PNG is 0.2 to 0.3 s, most of
    its reading; a JPEG's second decoding, at a reduced DCT scale, 12 ms."""
    import cv2

    kind, sides = file_kind(path), (WORKING_LONG_SIDE, PALE_LONG_SIDE)
    if kind == PDF:
        decoded: list[np.ndarray] | None = _scanned_page(path, sides, page)
    elif kind in OPENCV_KINDS and page is None:
        decoded = _by_opencv(path, kind, cv2.IMREAD_ANYCOLOR, sides)
    else:
        decoded = None
    if decoded is None and kind == JPEG:  # each decoded at its own DCT scale
        return load_photo(path, page=page), load_photo(path, PALE_LONG_SIDE, True, page)
    if decoded is None:  # transparency, AVIF, a TIFF's page: Pillow's decoding, once
        wanted = ((WORKING_LONG_SIDE, False), (PALE_LONG_SIDE, True))
        grey, darkest = _decoded_by_pillow(path, kind, wanted, page)
        return grey, darkest
    working, pale = decoded
    return _grey(working), _darkest_channel(pale)


def _grey(pixels: np.ndarray) -> np.ndarray:
    """OpenCV's colour pixels (BGR) in grey, as Pillow makes grey."""
    import cv2

    return pixels if pixels.ndim == 2 else cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)


def _darkest_channel(colour: np.ndarray) -> np.ndarray:
    import numpy as np

    if colour.ndim == 2:
        return colour
    # Channel by channel (a minimum over the last axis of three is twenty times slower), into
    # one array: a second would be another 12 MB of a 12 MP photo.
    darkest = np.minimum(colour[..., 0], colour[..., 1])
    return np.minimum(darkest, colour[..., 2], out=darkest)


def _check_size(path: Path | str, width: int, height: int, limit: int = MAX_PIXELS) -> None:
    _check_not_too_large(path, width, height, limit)
    if min(width, height) < MIN_SHORT_SIDE or max(width, height) > MAX_ASPECT * min(width, height):
        raise ImageTooSmall(
            f"{path}: {width} x {height} pixels cannot hold a readable sheet (the shorter "
            f"side needs at least {MIN_SHORT_SIDE} pixels, the longer at most "
            f"{MAX_ASPECT:.0f} times the shorter); photograph the whole sheet"
        )


def _check_not_too_large(
    path: Path | str, width: int, height: int, limit: int = MAX_PIXELS
) -> None:
    if width * height > limit:
        raise ImageTooLarge(
            f"{path}: {width} x {height} pixels ({width * height / 1e6:.0f} MP) is over the "
            f"{limit // 1_000_000} MP the reader accepts; take or export the photo smaller"
        )


def _scale(width: int, height: int, long_side: int) -> int:
    """The largest DCT reduction that keeps `long_side` pixels (1 for none)."""
    return next((s for s in (8, 4, 2) if max(width, height) / s >= long_side), 1)


# JPEG's start-of-frame markers (baseline, progressive, lossless, arithmetic), which hold the
# image's size, and the markers that stand alone, with no length after them.
_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})
_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})
MAX_PLAIN_JPEG_BYTES = 64 << 20


def _jpeg_frame(data: bytes) -> tuple[int, int, int, int] | None:
    """(bits per sample, height, width, components) from a JPEG's frame header; None when the
    markers before it are not laid out as the standard says."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in _STANDALONE:
            i += 2
            continue
        if marker in (0xD8, 0xD9, 0xDA):  # a second start, the end or the scan before a frame
            return None
        if marker in _SOF:
            if i + 10 > len(data):
                return None
            bits, height, width, components = data[i + 4], *_pair(data, i + 5), data[i + 9]
            return bits, height, width, components
        i += 2 + int.from_bytes(data[i + 2 : i + 4], "big")
    return None


def _pair(data: bytes, i: int) -> tuple[int, int]:
    return int.from_bytes(data[i : i + 2], "big"), int.from_bytes(data[i + 2 : i + 4], "big")


def _plain_jpeg(path: Path, long_side: int, pale: bool = False) -> np.ndarray | None:
    """A complete 8-bit grey or colour JPEG, as phones write them, decoded by OpenCV: the same
    pixels as Pillow's (libjpeg's luminance, DCT-reduced, turned by the EXIF orientation) without
    importing Pillow and its plugins, about 30 ms of a fresh process (bench/bench_build.py). None
    for anything else (cut short, data after the end, CMYK, 12-bit, unusual headers, a size the
    reader refuses): Pillow decodes those, or says what is wrong with them."""
    import cv2
    import numpy as np

    try:
        if path.stat().st_size > MAX_PLAIN_JPEG_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    frame = _jpeg_frame(data)
    if frame is None or not data.endswith(b"\xff\xd9"):
        return None
    bits, height, width, components = frame
    if bits != 8 or components not in (1, 3):
        return None
    try:
        _check_size(path, width, height, MAX_JPEG_PIXELS)
    except (ImageTooLarge, ImageTooSmall):
        return None  # refused by Pillow's own reading of the header, which is the one to trust
    scale = _scale(width, height, long_side)
    if pale and components == 3:
        flag = {
            1: cv2.IMREAD_COLOR,
            2: cv2.IMREAD_REDUCED_COLOR_2,
            4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8,
        }[scale]
        colour = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
        return None if colour is None else _darkest_channel(colour)
    flag = {
        1: cv2.IMREAD_GRAYSCALE,
        2: cv2.IMREAD_REDUCED_GRAYSCALE_2,
        4: cv2.IMREAD_REDUCED_GRAYSCALE_4,
        8: cv2.IMREAD_REDUCED_GRAYSCALE_8,
    }[scale]
    grey = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if grey is None or grey.ndim != 2:
        return None
    return grey


def _opened(path: Path, kind: str | None, page: int | None = None) -> Image.Image:
    """The image opened by Pillow (its header read, no pixels decoded), at `page` of a TIFF of
    several (None: one page only), refused unless it is a photo the reader takes, of a size it
    reads."""
    from PIL import Image, UnidentifiedImageError

    if kind is not None and kind not in ALWAYS_TAKEN:
        try:  # HEIC or AVIF is taken where Pillow decodes it; the rest are refused
            with Image.open(path) as probe:
                opened = probe.format in PHOTO_FORMATS
        except Exception:  # any failure to open it means: not a photo the reader takes
            opened = False
        if not opened:
            raise _not_a_photo(path, kind)
    try:
        with warnings.catch_warnings():
            # Pillow warns past half its limit; the reader's limits are checked below.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(path)
    except UnidentifiedImageError:
        if kind in ALWAYS_TAKEN:  # its first bytes say what it is, and the rest is not that
            raise DamagedImage(
                f"{path}: {kind} that cannot be opened: the file is damaged or cut short; copy "
                "it again from the phone or scanner"
            ) from None
        raise _not_a_photo(path, kind) from None
    except Image.DecompressionBombError:
        raise ImageTooLarge(
            f"{path}: the image is too large to decode safely, over the "
            f"{MAX_JPEG_PIXELS // 1_000_000} MP the reader accepts of a JPEG (a PNG or WebP: "
            f"{MAX_PIXELS // 1_000_000} MP); take or export the photo smaller"
        ) from None
    except ValueError as error:
        # Pillow refuses metadata it would have to inflate without bound (a colour profile or
        # text chunk of many megabytes): no camera writes one.
        raise DamagedImage(
            f"{path}: the image's metadata is oversized or malformed ({error}); export the "
            "photo again as a plain JPEG or PNG"
        ) from None
    except OSError as error:
        raise DamagedImage(f"{path}: cannot open the image ({error})") from None
    try:
        if image.format not in PHOTO_FORMATS:
            raise _not_a_photo(path, kind or f"a {image.format} image")
        pages = int(getattr(image, "n_frames", 1))
        if image.format == "TIFF" and pages > 1 and page is None:
            raise _pages_apart(path, "a TIFF", pages)
        if page is not None:
            _check_page(path, page, pages if image.format == "TIFF" else 1)
            image.seek(page - 1)
        jpeg = image.format in ("JPEG", "MPO")
        name = source_name(path, page)
        _check_size(name, *image.size, MAX_JPEG_PIXELS if jpeg else MAX_PIXELS)
    except Exception:
        image.close()
        raise
    return image


def _decoded_by_pillow(
    path: Path, kind: str | None, wanted: tuple[tuple[int, bool], ...], page: int | None = None
) -> list[np.ndarray]:
    """The image decoded by Pillow once, for each `wanted` (long side, pale) as `load_photo`
    gives it. A JPEG is decoded at a reduced DCT scale where one is wanted."""
    from PIL import ImageOps

    with _opened(path, kind, page) as image:
        width, height = image.size
        if image.format in ("JPEG", "MPO") and len(wanted) == 1:
            ((long_side, pale),) = wanted
            scale = _scale(width, height, long_side)
            image.draft("RGB" if pale else "L", (-(-width // scale), -(-height // scale)))
        try:
            image.load()
            ImageOps.exif_transpose(image, in_place=True)  # no copy of a 35 MP scan's pixels
            # Pillow's conversion of 16-bit greys to 8 clips them at 255 (a white page).
            eight = _eight_bits(image) if image.mode in SIXTEEN_BITS else image
            return [_converted(eight, long_side, pale) for long_side, pale in wanted]
        except (OSError, SyntaxError, ValueError):
            raise DamagedImage(
                f"{source_name(path, page)}: the image file is damaged or cut short; copy the "
                "photo again from the phone"
            ) from None


def _converted(eight: Image.Image, long_side: int, pale: bool) -> np.ndarray:
    """A decoded 8-bit image in grey (`pale`: its darkest colour channel), on white where it is
    transparent, averaged down for `long_side`."""
    import numpy as np

    mode = "RGB" if pale else "L"
    # A PNG or WebP has no DCT to decode at a reduced scale: averaged down by the same factor
    # instead (a 600 dpi scan is 35 MP), so that the rest works on what it needs.
    scale = _scale(*eight.size, long_side)
    if _has_alpha(eight):
        # Averaged down first, then laid on white: laid on white whole, a 12 MP photo took
        # 270 MB by `printgen score`.
        layered = eight if eight.mode in ("RGBA", "LA") else eight.convert("RGBA")
        grey = _on_white(_reduced_in_bands(layered, scale), mode)
    else:
        grey = eight if eight.mode == mode else eight.convert(mode)  # no copy of 35 MP
        grey = grey.reduce(scale)
    return _darkest_channel(np.asarray(grey, dtype=np.uint8)).copy()


# Pillow's modes for a 16-bit grey PNG ("I" in Pillow before 10, and for some encoders).
SIXTEEN_BITS = frozenset({"I", "I;16", "I;16B", "I;16L", "I;16N"})


def _eight_bits(image: Image.Image) -> Image.Image:
    """A 16-bit grey image as 8-bit greys, each its 16-bit value's upper byte."""
    import numpy as np
    from PIL import Image

    values = np.asarray(image)
    if values.dtype != np.uint16:  # "I" holds 32-bit integers
        values = np.clip(values, 0, 0xFFFF)
    return Image.fromarray((values >> 8).astype(np.uint8), "L")


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info


def _reduced_in_bands(image: Image.Image, scale: int) -> Image.Image:
    """`image.reduce(scale)` of an image with transparency, a band of rows at a time: Pillow
    averages its colours weighted by their opacity through a copy of the whole image (48 MB of
    a 12 MP photo), and a band's copy is small. The bands start on the blocks' rows, so the
    blocks averaged are the same."""
    from PIL import Image

    if scale == 1:
        return image
    width, height = image.size
    reduced = Image.new(image.mode, (-(-width // scale), -(-height // scale)))
    rows = scale * 128
    for top in range(0, height, rows):
        band = image.crop((0, top, width, min(top + rows, height)))
        reduced.paste(band.reduce(scale), (0, top // scale))
    return reduced


def _on_white(image: Image.Image, mode: str) -> Image.Image:
    """The image in `mode`, laid on white paper: transparent paper is white, as any viewer shows
    it. Converted bare, the colour under the transparency (often black) hid the whole sheet."""
    from PIL import Image

    layered = image if image.mode in ("RGBA", "LA") else image.convert("RGBA")
    alpha = layered.getchannel("A")
    if alpha.getextrema()[0] == 255:  # opaque all over: nothing to lay
        return layered.convert(mode)
    return Image.composite(layered.convert(mode), Image.new(mode, layered.size, "white"), alpha)


ORIENTATION = 0x0112  # the EXIF (and TIFF) tag

# A complete PNG ends with its IEND chunk. One cut short is left to Pillow to name: OpenCV's
# libpng would print its own error on the terminal first.
_PNG_END = b"\0\0\0\0IEND\xaeB`\x82"


def _last_bytes(path: Path, count: int) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(-count, 2)
        return handle.read(count)


def _by_opencv(
    path: Path, kind: str, flag: int, long_sides: tuple[int, ...]
) -> list[np.ndarray] | None:
    """A PNG's, WebP's or TIFF's pixels decoded once by OpenCV (`flag`: cv2.IMREAD_GRAYSCALE or
    IMREAD_ANYCOLOR), turned by its EXIF orientation, a 16-bit PNG's as each value's upper byte,
    and averaged down for each of `long_sides` as `load_photo` averages. None where Pillow must
    decode it (transparency to lay on white), or when OpenCV cannot: Pillow then says what is
    wrong with it.

    OpenCV makes grey as it decodes, where Pillow decodes a 12 MP photo through colour copies
    (a PNG took 83 MB, a WebP 190; OpenCV 24 and 50). Its Python binding copies what it decodes,
    so a 12 MP colour photo still takes twice its 36 MB, unless halved as it is decoded: then
    the copy is a quarter. Its halving averages each 2 x 2 block as `_averaged_down` does, but
    drops an odd last row or column, which `_averaged_down` averages in: so only even sides.
    A TIFF that its orientation turns is decoded whole (a 600 dpi colour scan halved as it is
    decoded: 325 MB by `printgen score` before, 160 after)."""
    import cv2
    import numpy as np

    with _opened(path, kind) as image:
        if _has_alpha(image):
            return None
        (width, height), image_format = image.size, image.format
        # OpenCV halves a TIFF without turning it by its orientation.
        halves = image_format in ("PNG", "WEBP") or image.getexif().get(ORIENTATION, 1) == 1
    try:
        if image_format == "PNG" and _last_bytes(path, len(_PNG_END)) != _PNG_END:
            return None
    except OSError:
        return None
    scales = [_scale(width, height, side) for side in long_sides]
    even = width % 2 == 0 and height % 2 == 0
    halved = 2 if min(scales) >= 2 and even and halves else 1
    flags = flag | (cv2.IMREAD_REDUCED_GRAYSCALE_2 if halved == 2 else 0)
    if image_format == "PNG" and str(path).isascii():
        # From the file, not from its bytes read first: a 600 dpi scan's 40 MB of them stayed
        # in memory while it was decoded (its peak 235 MB, now 192). Not a TIFF: OpenCV's
        # imread fails on one its orientation turns, and on the others saved nothing. Nor a
        # path OpenCV may not open (one not in ASCII, on Windows).
        pixels = cv2.imread(str(path), flags)
    else:
        try:
            pixels = cv2.imdecode(np.fromfile(path, np.uint8), flags)
        except OSError:
            return None
    if pixels is None:
        return None
    return [_averaged_down(pixels, scale // halved) for scale in scales]


def _pages_apart(path: Path, what: str, pages: int) -> NotAnImage:
    # Only where one photo is read (the web page reads each page; `printgen score` too).
    return NotAnImage(
        f"{path}: {what} of {pages} pages, where one sheet is read: give it to "
        "`printgen score`, which reads each page, or save each page as a file of its own"
    )


def _check_page(path: Path, page: int, pages: int) -> None:
    if not 1 <= page <= pages:
        raise NotAnImage(f"{path}: no page {page}: the file holds {pages}")


def _scanned_page(
    path: Path, long_sides: tuple[int, ...], page: int | None = None
) -> list[np.ndarray]:
    """A page of a PDF scan (a phone's scanning app saves one; `page` from 1, None: a PDF of
    one page only) drawn in colour (BGR) at `PDF_LONG_SIDE` pixels on its long side, as the page
    shows it (turned as it says), and averaged down for each of `long_sides` as `load_photo`
    averages. A PDF that cannot be opened, or a page that holds no picture (the printed sheet
    itself, not a scan of it), is refused."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as error:
        raise DamagedImage(
            f"{path}: cannot open the PDF ({str(error).rstrip('.')}): it is damaged, cut short "
            "or locked with a password; save the scan again, or as a JPEG or PNG"
        ) from None
    try:
        if page is None and len(document) != 1:
            raise _pages_apart(path, "a PDF", len(document))
        if page is not None:
            _check_page(path, page, len(document))
        drawn = document[(page or 1) - 1]
        pictures = list(drawn.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))
        if not pictures and page is None:
            raise _not_a_photo(path, PDF)
        if not pictures:
            raise NotAnImage(
                f"{source_name(path, page)}: no scanned picture on this page (a page of text, "
                "or the printed sheet's own PDF?); scan the filled-in sheet"
            )
        for picture in pictures:  # drawing the page decodes each whole
            _check_not_too_large(source_name(path, page), *picture.get_px_size())
        width, height = drawn.get_size()
        colour = drawn.render(scale=PDF_LONG_SIDE / max(width, height)).to_numpy()
    finally:
        document.close()
    rows, columns = colour.shape[:2]
    return [_averaged_down(colour, _scale(columns, rows, side)) for side in long_sides]


def _averaged_down(pixels: np.ndarray, scale: int) -> np.ndarray:
    """The image averaged down by `scale` on each side, as Pillow's `reduce` averages a PNG's
    blocks (OpenCV's area average: the same blocks where the sides divide by `scale`)."""
    import cv2

    if scale == 1:
        return pixels
    height, width = pixels.shape[:2]
    size = (-(-width // scale), -(-height // scale))
    return cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)
