"""An uploaded photo made ready for the reader: what it is and how big, from its header first.

The reader reads JPEG and PNG, and a scan as PDF or TIFF (it checks a PDF's pages itself). A
WebP photo (and HEIC or AVIF where the installed Pillow opens them), and a JPEG over the
reader's 50 megapixels, are turned into a JPEG of at most
SHRINK_LONG_SIDE pixels on the long side: the reader reads 2 MP as well as 12 MP. A JPEG is
shrunk while it is decoded (Pillow's draft mode), so a 200 MP photo never fills memory."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from printgen.games.one_page_war.reader.photo import ALWAYS_TAKEN, file_kind, not_taken

# Megabytes as a phone's gallery and most file managers count them: a 34.0 MB photo had been
# called 32 MB, in mebibytes.
MB = 1_000_000
MAX_PHOTO_BYTES = 20 * MB
MAX_PHOTOS = 12
# A whole upload: every photo of a game night's table at once.
MAX_UPLOAD_BYTES = MAX_PHOTOS * MAX_PHOTO_BYTES
MAX_PIXELS = 50_000_000  # what the reader decodes as it is
# A JPEG up to Pillow's own limit on opening (about 179 MP) is shrunk on the way in.
MAX_SHRINK_PIXELS = 2 * int(Image.MAX_IMAGE_PIXELS or 89_478_485)
SHRINK_LONG_SIDE = 2500

READ_AS_IS = {"JPEG": ".jpg", "MPO": ".jpg", "PNG": ".png", "TIFF": ".tif"}
SHRUNK = {"WEBP", "HEIF", "AVIF"}
ACCEPTED_WORDS = "JPEG, PNG or WebP, or a scan as PDF or TIFF"


@dataclass(frozen=True)
class Refused(Exception):
    """An upload the server will not read; `status` is the HTTP status to answer with."""

    status: int
    message: str

    def __str__(self) -> str:
        return self.message


def prepare(staged: Path, shown_as: str, target_stem: Path) -> Path:
    """The photo at `staged` as a file the reader reads, at `target_stem` plus its suffix;
    refuses what is no photo, or too large, naming it as `shown_as`."""
    if staged.stat().st_size == 0:
        raise Refused(415, f"{shown_as} is empty (0 bytes); send the photo again")
    with open(staged, "rb") as handle:
        if handle.read(4) == b"%PDF":  # a scanning app's: Pillow opens no PDF, the reader does
            target = target_stem.with_suffix(".pdf")
            staged.rename(target)
            return target
    kind, (width, height) = _header(staged, shown_as)
    pixels = width * height
    if kind in READ_AS_IS and pixels <= MAX_PIXELS:
        target = target_stem.with_suffix(READ_AS_IS[kind])
        staged.rename(target)
        return target
    if kind not in READ_AS_IS and kind not in SHRUNK:
        raise Refused(415, f"{shown_as} is a {kind} image; send a photo ({ACCEPTED_WORDS})")
    if kind != "JPEG" and pixels > MAX_PIXELS or pixels > MAX_SHRINK_PIXELS:
        megapixels = pixels / 1e6
        limit = MAX_SHRINK_PIXELS if kind == "JPEG" else MAX_PIXELS
        raise Refused(
            413,
            f"{shown_as} is {width} x {height} pixels ({megapixels:.0f} megapixels), over the "
            f"limit of {limit // 1_000_000}; take the photo at the phone's normal size",
        )
    target = target_stem.with_suffix(".jpg")
    _shrink(staged, target, shown_as)
    staged.unlink(missing_ok=True)
    return target


def _header(path: Path, shown_as: str) -> tuple[str, tuple[int, int]]:
    try:
        with warnings.catch_warnings():
            # Pillow warns about large images on open; the limits here are ours.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                return str(image.format), image.size
    except Image.DecompressionBombError:
        raise Refused(
            413,
            f"{shown_as} is far over {MAX_SHRINK_PIXELS // 10**6} megapixels; send a phone photo",
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        kind = file_kind(path)
        if kind is not None and kind not in ALWAYS_TAKEN:
            # What its first bytes say it is (a HEIC photo this Pillow cannot open), in the
            # command line's words: what to do instead. A kind always taken that will not
            # open is no image at all.
            raise Refused(415, f"{shown_as}: {not_taken(kind)}") from None
        raise Refused(
            415, f"{shown_as} is not an image; take a photo of the sheet ({ACCEPTED_WORDS})"
        ) from None


def _shrink(source: Path, target: Path, shown_as: str) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(source) as image:
                if image.format == "JPEG":
                    image.draft("RGB", (SHRINK_LONG_SIDE, SHRINK_LONG_SIDE))
                image.load()
                upright = ImageOps.exif_transpose(image).convert("RGB")
        upright.thumbnail((SHRINK_LONG_SIDE, SHRINK_LONG_SIDE), Image.Resampling.LANCZOS)
        upright.save(target, "JPEG", quality=92)
    except (OSError, SyntaxError, ValueError):
        raise Refused(
            422, f"{shown_as}: the image file is damaged or cut short; copy the photo again"
        ) from None
