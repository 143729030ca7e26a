"""A head start for reading a photo.

Decoding a 12 MP JPEG and ArUco's search for the corner markers take about 50 ms, in OpenCV,
which lets go of the interpreter; importing the rest of the reader and the referee, and loading
the recogniser's model and the sheets' geometry, take about as long, mostly in Python. On a
second core the two overlap: `read_photo` starts the first on a thread of its own, then does the
rest (bench/bench_build.py).

A JPEG is decoded twice, at two DCT scales: the grey the sheet is located and read on, and the
darkest colour channel at half that size, wanted only once the sheet is located. The second
decoding takes as long as the first (the file's entropy-coded data is read whole either way).
A process that has its reader loaded already (`printgen serve`, a second photo) would only wait
for the first, so it does the second meanwhile, on its own thread: not on a third, whose heap
of its own kept some 10 MB more of what decoding took."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from printgen.games.one_page_war.reader.errors import PhotoError
from printgen.games.one_page_war.reader.markers import Markers, find_markers
from printgen.games.one_page_war.reader.photo import (
    JPEG,
    PALE_LONG_SIDE,
    file_kind,
    load_photo,
    load_photo_and_pale,
)

if TYPE_CHECKING:
    import numpy as np

    from printgen.games.one_page_war.reader.report import PhotoReport
    from printgen.materials import PhotoOptions


class HeadStart:
    """A photo being loaded, and its markers searched for, on a thread of its own."""

    def __init__(self, path: Path, page: int | None = None) -> None:
        self._path, self._page = path, page
        # A JPEG's darkest channel is decoded apart (`pale`); anything else's with its grey.
        self._apart = file_kind(path) == JPEG
        self._darkest: np.ndarray | None = None
        self._done: tuple[np.ndarray, Markers, np.ndarray | None] | None = None
        self._error: Exception | None = None
        self._thread = threading.Thread(target=self._run, name=f"load {path.name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            if self._apart:
                grey, pale = load_photo(self._path, page=self._page), None
            else:
                grey, pale = load_photo_and_pale(self._path, self._page)
            self._done = grey, find_markers(grey), pale
        except Exception as error:  # raised again, where the photo is wanted
            self._error = error

    def photo(self) -> tuple[np.ndarray, Markers]:
        """The photo, greyscale and upright, and its markers; what went wrong raised here."""
        if self._apart and self._darkest is None and self._thread.is_alive():
            # Waiting anyway: the darkest channel meanwhile. Should it fail, the photo's own
            # error is raised below, as if nothing were done here.
            with contextlib.suppress(PhotoError):
                self._darkest = self._decode_darkest()
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._done is not None
        grey, markers, _ = self._done
        return grey, markers

    def pale(self) -> np.ndarray:
        """The photo's darkest colour channel at half the size (`load_photo_and_pale`), once
        `photo()` has given the photo."""
        if not self._apart:
            assert self._done is not None and self._done[2] is not None
            return self._done[2]
        if self._darkest is None:
            self._darkest = self._decode_darkest()
        return self._darkest

    def _decode_darkest(self) -> np.ndarray:
        return load_photo(self._path, PALE_LONG_SIDE, True, self._page)


def read_photo(path: Path, options: PhotoOptions) -> PhotoReport:
    """`printgen score photo.jpg`: GAME.read_photo."""
    started = HeadStart(path, options.page)
    # Meanwhile, on this core: the rest of the reader, its model and sheets, and the referee.
    from printgen.games.one_page_war.reader import reading

    reading.prepare()
    return reading.read_photo(path, options, started)
