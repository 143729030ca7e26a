"""Checks on an uploaded photo before it is read: what it is and how big, from its header only."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 50_000_000

# Pillow's format name -> the suffix the photo reader dispatches on.
PHOTO_FORMATS = {"JPEG": ".jpg", "PNG": ".png"}


@dataclass(frozen=True)
class Refused(Exception):
    """An upload the server will not read; `status` is the HTTP status to answer with."""

    status: int
    message: str

    def __str__(self) -> str:
        return self.message


def photo_suffix(path: Path, shown_as: str) -> str:
    """The suffix for a JPEG or PNG photo at `path`; refuses anything else, and photos over
    MAX_PIXELS, without decoding the pixels."""
    try:
        with warnings.catch_warnings():
            # Pillow warns about very large images on open; the limit below is ours, and lower.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                kind, (width, height) = image.format, image.size
    except Image.DecompressionBombError:
        raise Refused(413, f"{shown_as} is far over 50 megapixels; send a phone photo") from None
    except (UnidentifiedImageError, OSError):
        raise Refused(
            415, f"{shown_as} is not an image; take a photo of the sheet (JPEG or PNG)"
        ) from None
    if kind not in PHOTO_FORMATS:
        raise Refused(415, f"{shown_as} is a {kind} image; send a JPEG or PNG photo")
    if width * height > MAX_PIXELS:
        megapixels = width * height / 1e6
        raise Refused(
            413,
            f"{shown_as} is {width} x {height} pixels ({megapixels:.0f} megapixels), over the "
            "limit of 50; take the photo at the phone's normal size",
        )
    return PHOTO_FORMATS[kind]
