"""Drop a virtual environment's shared libraries from the page cache, once pip has written them.

The Makefile runs it after every install. Pages pip has just written stay in the page cache as
large folios, and a process that maps a library then maps every folio it touches whole: right
after a fresh install, OpenCV's library counted 52 to 54 MB in the photo reader's resident
memory, against 18 MB once its pages had been dropped and read back from disk as any later
start reads them (the reader's peak 154 MB against 108 MB; docs/reader.md, "Peak memory").
Clean pages are only dropped, never changed, so this costs a read from disk and nothing else.

    python bench/settle_libraries.py .venv
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

LIBRARY_SUFFIX = ".so"  # and versioned names: libfoo.so.3


def libraries(root: Path) -> list[Path]:
    """Every shared library under `root` (symbolic links left out: their targets are listed)."""
    return sorted(
        p
        for p in root.rglob("*.so*")
        if p.is_file()
        and not p.is_symlink()
        and (p.suffix == LIBRARY_SUFFIX or LIBRARY_SUFFIX + "." in p.name)
    )


def settle(path: Path) -> bool:
    """Write the file's dirty pages out and drop its pages from the page cache: dirty pages
    would be kept, and pip's writes may not have reached the disk yet. False where the system
    cannot (no posix_fadvise) or the file cannot be opened."""
    if not hasattr(os, "posix_fadvise"):
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python bench/settle_libraries.py VENV_FOLDER", file=sys.stderr)
        return 2
    found = libraries(Path(argv[0]))
    settled = sum(settle(p) for p in found)
    print(f"{settled} of {len(found)} shared libraries under {argv[0]} dropped from the page cache")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
