"""What can go wrong before a sheet is read, each saying what was found and what to do."""

from __future__ import annotations

from printgen.errors import InputError, PrintgenError

RETAKE = "retake the photo with the whole sheet flat in view, or type the sheet in"


class PhotoError(InputError):
    """The photo cannot be read as a One Page War sheet; nothing is scored or written."""


class NotAnImage(PhotoError):
    """The file is no photo or scan the reader takes (JPEG, PNG, WebP; a PDF or TIFF page
    holding a picture), or no image at all."""


class DamagedImage(PhotoError):
    """The image file is truncated or corrupt."""


class ImageTooLarge(PhotoError):
    """More pixels than the reader will decode."""


class ImageTooSmall(PhotoError):
    """Too few pixels on the short side, or too narrow, to hold a readable sheet."""


class NoSheet(PhotoError):
    """No marker and no QR code of a sheet in the photo."""


class BlankPage(NoSheet):
    """A page of a scan of several holds nothing printed or written: the back of a sheet,
    scanned on both sides. A batch passes it over."""


class MarkerMissing(PhotoError):
    """Some of the four corner markers were not found (covered, cut off, in glare)."""


class SeveralSheets(PhotoError):
    """The photo holds more than one sheet: which one to read is the player's to say."""


class ForeignSheet(PhotoError):
    """The QR code belongs to another game, or names a layout or version this printgen lacks."""


class PoorPhoto(PhotoError):
    """The photo is too small, blurred, glared or skewed to read every cell safely."""


class SquaresTooSmall(PoorPhoto):
    """The sheet's squares span too few pixels of the copy of the photo being read: a larger
    copy, where the photo holds one, may read (reading.read)."""

    def __init__(self, message: str, narrowest_px: float) -> None:
        super().__init__(message)
        self.narrowest_px = narrowest_px


class BatchError(InputError):
    """Photos read together do not make what was asked of them (a team game, a print run)."""


class PlayerNamesError(BatchError):
    """`--players` does not name the sheet's players as expected."""


class SeatingError(BatchError):
    """A team file or `--teams` does not say who sat where, as expected."""


class TeamSheetsError(BatchError):
    """The photos are not one team pack's sheets: a sheet id missing, twice, unread or foreign."""


class ReaderFault(PrintgenError):
    """The reader itself failed on a photo it should have read or refused: a fault in printgen,
    not in the photo. The player is told so, with what to do meanwhile, not shown a traceback."""

    @classmethod
    def of(cls, source: object, error: Exception) -> ReaderFault:
        return cls(
            f"{source}: the reader failed on this photo ({type(error).__name__}: {error}); "
            "type this sheet in, and please report the photo"
        )


class ModelFileError(PrintgenError):
    """A file the reader ships (the recogniser's model, the sheets' printed text) is missing,
    damaged or not the one it was written as."""
