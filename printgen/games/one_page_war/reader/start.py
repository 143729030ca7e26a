"""A head start for reading a photo.

Decoding a 12 MP JPEG and ArUco's search for the corner markers take about 50 ms, in OpenCV,
which lets go of the interpreter; importing the rest of the reader and the referee, and loading
the recogniser's model and the sheets' geometry, take about as long, mostly in Python. On a
second core the two overlap: `read_photo` starts the first on a thread of its own, then does the
rest (bench/bench_build.py).

A JPEG is decoded twice, at two DCT scales: the grey the sheet is located and read on, and the
darkest colour channel at half that size, wanted only once the sheet is located. The second
decoding, as long as the first (the file's whole entropy-coded data is read either way), runs
on a thread of its own beside the first and the marker search, so that a process with its
reader loaded already (`printgen serve`, a second photo) does not wait for it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

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

T = TypeVar("T")


class _OnThread(Generic[T]):
    """`work()` run on a thread of its own; what it gives, or raises, is had from `result()`."""

    def __init__(self, work: Callable[[], T], name: str) -> None:
        self._work = work
        self._done: tuple[T] | None = None
        self._error: Exception | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._done = (self._work(),)
        except Exception as error:  # raised again, where the result is wanted
            self._error = error

    def result(self) -> T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._done is not None
        return self._done[0]


class HeadStart:
    """A photo being loaded, and its markers searched for, on threads of their own."""

    def __init__(self, path: Path, page: int | None = None) -> None:
        name = f"load {path.name}"
        if file_kind(path) == JPEG:
            pale = _OnThread(lambda: load_photo(path, PALE_LONG_SIDE, True, page), name)
            self._pale: _OnThread[np.ndarray] | None = pale
            self._photo = _OnThread(lambda: _with_markers(load_photo(path, page=page)), name)
        else:  # decoded once for both (`load_photo_and_pale`)
            self._pale = None
            self._photo = _OnThread(lambda: _with_markers(*load_photo_and_pale(path, page)), name)

    def photo(self) -> tuple[np.ndarray, Markers]:
        """The photo, greyscale and upright, and its markers; what went wrong raised here."""
        grey, markers, _ = self._photo.result()
        return grey, markers

    def pale(self) -> np.ndarray:
        """The photo's darkest colour channel at half the size (`load_photo_and_pale`)."""
        if self._pale is not None:
            return self._pale.result()
        _, _, pale = self._photo.result()
        assert pale is not None
        return pale


def _with_markers(
    grey: np.ndarray, pale: np.ndarray | None = None
) -> tuple[np.ndarray, Markers, np.ndarray | None]:
    return grey, find_markers(grey), pale


def read_photo(path: Path, options: PhotoOptions) -> PhotoReport:
    """`printgen score photo.jpg`: GAME.read_photo."""
    started = HeadStart(path, options.page)
    # Meanwhile, on this core: the rest of the reader, its model and sheets, and the referee.
    from printgen.games.one_page_war.reader import reading

    reading.prepare()
    return reading.read_photo(path, options, started)
