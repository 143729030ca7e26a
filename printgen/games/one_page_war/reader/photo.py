"""Loading a photo: JPEG or PNG, turned by its EXIF orientation, to a greyscale array, with
clear errors for files that are no image, are cut short, or are too large to decode safely."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from printgen.games.one_page_war.reader.errors import (
    DamagedImage,
    ImageTooLarge,
    NotAnImage,
)

MAX_PIXELS = 50_000_000
# Marker and cell reading need about this many pixels on the photo's long side; JPEGs are decoded
# at the largest DCT reduction (1/2, 1/4, 1/8) that keeps at least this many, which is most of
# the speed on 12 MP photos.
WORKING_LONG_SIDE = 1800


def load_photo(path: Path, long_side: int = WORKING_LONG_SIDE) -> np.ndarray:
    """The photo as a uint8 greyscale array, upright as its EXIF orientation says."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(path)
    except UnidentifiedImageError:
        raise NotAnImage(
            f"{path}: not an image (expected a JPEG or PNG photo of the sheet)"
        ) from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageTooLarge(
            f"{path}: the image is too large to decode safely; use a photo of at most "
            f"{MAX_PIXELS // 1_000_000} megapixels"
        ) from None
    except OSError as error:
        raise DamagedImage(f"{path}: cannot open the image ({error})") from None
    with image:
        if image.format not in ("JPEG", "PNG", "MPO"):
            raise NotAnImage(f"{path}: a {image.format} image; photos are read as JPEG or PNG")
        width, height = image.size
        if width * height > MAX_PIXELS:
            raise ImageTooLarge(
                f"{path}: {width} x {height} pixels ({width * height / 1e6:.0f} MP) is over the "
                f"{MAX_PIXELS // 1_000_000} MP the reader accepts; take or export the photo smaller"
            )
        if image.format in ("JPEG", "MPO"):
            scale = next((s for s in (8, 4, 2) if max(width, height) / s >= long_side), 1)
            image.draft("L", (-(-width // scale), -(-height // scale)))
        try:
            image.load()
            upright = ImageOps.exif_transpose(image)
            grey = upright.convert("L")
        except (OSError, SyntaxError, ValueError) as error:
            raise DamagedImage(
                f"{path}: the image file is damaged or cut short ({error}); copy the photo "
                "again from the phone"
            ) from None
    return np.asarray(grey, dtype=np.uint8).copy()
