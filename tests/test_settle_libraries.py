"""bench/settle_libraries.py: what the Makefile runs after an install, so that the reader's
peak memory counts the pages it maps, not how pip's writes left the page cache."""

from __future__ import annotations

import ctypes
import importlib.util
import mmap
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "settle_libraries.py"


@pytest.fixture(scope="module")
def settle() -> ModuleType:
    spec = importlib.util.spec_from_file_location("settle_libraries", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_shared_library_is_found_and_nothing_else(settle: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "site-packages" / "cv2").mkdir(parents=True)
    wanted = [
        tmp_path / "site-packages" / "cv2" / "cv2.abi3.so",
        tmp_path / "site-packages" / "libavcodec-e863e0e1.so.63.1.102",
    ]
    others = [tmp_path / "site-packages" / "notes.sop", tmp_path / "site-packages" / "cv2.py"]
    for path in wanted + others:
        path.write_bytes(b"\x7fELF")
    (tmp_path / "site-packages" / "libz.so").symlink_to(wanted[1])
    (tmp_path / "site-packages" / "gone.so").symlink_to(tmp_path / "nowhere.so")
    assert settle.libraries(tmp_path) == sorted(wanted)


def _resident_pages(path: Path) -> int:
    """How many of the file's pages are in the page cache (mincore on a mapping of it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    size = path.stat().st_size
    pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
    with path.open("rb") as f, mmap.mmap(f.fileno(), size, access=mmap.ACCESS_COPY) as mapped:
        address = ctypes.addressof(ctypes.c_char.from_buffer(mapped))
        vector = (ctypes.c_ubyte * pages)()
        libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        if libc.mincore(ctypes.c_void_p(address), ctypes.c_size_t(size), vector) != 0:
            pytest.skip(f"mincore failed: {os.strerror(ctypes.get_errno())}")
        return sum(v & 1 for v in vector)


def _file_system(path: Path) -> str:
    """The type of the file system `path` lies on (Linux's mount table), "" where unknown."""
    best, kind = "", ""
    mounts = Path("/proc/self/mounts")
    for line in mounts.read_text().splitlines() if mounts.exists() else []:
        _, point, fs_type, *_ = line.split()
        if str(path).startswith(point.rstrip("/") + "/") and len(point) > len(best):
            best, kind = point, fs_type
    return kind


@pytest.mark.skipif(not hasattr(os, "posix_fadvise"), reason="no posix_fadvise here")
def test_a_library_just_written_leaves_the_page_cache(settle: ModuleType, tmp_path: Path) -> None:
    if _file_system(tmp_path) in ("", "tmpfs", "ramfs"):
        pytest.skip("a file system in memory has no page cache to drop pages from")
    library = tmp_path / "libfresh.so.1"
    content = os.urandom(4 << 20)
    library.write_bytes(content)
    assert _resident_pages(library) > 0  # as pip leaves what it has just written
    assert settle.settle(library)
    assert _resident_pages(library) == 0
    assert library.read_bytes() == content  # dropped from the cache, not changed


def test_a_file_that_cannot_be_opened_is_passed_over(settle: ModuleType, tmp_path: Path) -> None:
    assert not settle.settle(tmp_path / "missing.so")


def test_the_script_says_what_it_did_and_refuses_a_missing_folder(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "one.so").write_bytes(b"\x7fELF")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.startswith("1 of 1 shared libraries under ")
    refused = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "nowhere")], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "usage: python bench/settle_libraries.py" in refused.stderr
