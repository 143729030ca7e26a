"""A head start for reading a photo in a fresh process.

Decoding a 12 MP JPEG and ArUco's search for the corner markers take about 50 ms, in OpenCV,
which lets go of the interpreter; importing the rest of the reader and the referee, and loading
the recogniser's model and the sheets' geometry, take about as long, mostly in Python. On a
second core the two overlap: `read_photo` starts the first on a thread of its own, then does the
rest (bench/bench_build.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from printgen.games.one_page_war.reader.markers import Markers, find_markers
from printgen.games.one_page_war.reader.photo import load_photo_and_pale

if TYPE_CHECKING:
    import numpy as np

    from printgen.games.one_page_war.reader.report import PhotoReport
    from printgen.materials import PhotoOptions


class HeadStart:
    """A photo being loaded, and its markers searched for, on a thread of its own."""

    def __init__(self, path: Path, page: int | None = None) -> None:
        self._done: tuple[np.ndarray, np.ndarray, Markers] | None = None
        self._error: Exception | None = None
        self._thread = threading.Thread(
            target=self._run, args=(path, page), name=f"load {path.name}", daemon=True
        )
        self._thread.start()

    def _run(self, path: Path, page: int | None) -> None:
        try:
            grey, pale = load_photo_and_pale(path, page)
            self._done = grey, pale, find_markers(grey)
        except Exception as error:  # raised again, where the photo is wanted
            self._error = error

    def result(self) -> tuple[np.ndarray, np.ndarray, Markers]:
        """The photo (greyscale, upright), its darkest colour channel at half the size, and its
        markers; what went wrong raised here."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._done is not None
        return self._done


def read_photo(path: Path, options: PhotoOptions) -> PhotoReport:
    """`printgen score photo.jpg`: GAME.read_photo."""
    started = HeadStart(path, options.page)
    # Meanwhile, on this core: the rest of the reader, its model and sheets, and the referee.
    from printgen.games.one_page_war.reader import reading

    reading.prepare()
    return reading.read_photo(path, options, started)
