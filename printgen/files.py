"""Files in and out.

Every typed-in file (a sheet, a log, a position, a deck) is read through `read_input`: only a
regular file or `-` (standard input), at most MAX_INPUT_BYTES, UTF-8 with or without a
byte-order mark. So /dev/zero, a FIFO or a folder gets a one-line error, never a hang or a
MemoryError. Every file printgen writes goes through `write_atomic`: a failed or interrupted
write never leaves a half-written file, and a path it cannot write is an OutputError naming the
path and the cause."""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from printgen.errors import InputError, OutputError, PrintgenError, quote

# A typed-in sheet is a few kilobytes; a whole Package War! log is tens. Anything past this is
# not a sheet, and is refused before it is read whole into memory.
MAX_INPUT_BYTES = 4 * 1024 * 1024
STDIN = Path("-")


def input_name(path: Path) -> str:
    """How an error names a typed-in file: its path, or "standard input" for `-`."""
    return "standard input" if path == STDIN else str(path)


def read_input(path: Path) -> str:
    """The text of a typed-in file, or of standard input when `path` is `-`."""
    if path == STDIN:
        return _decode(sys.stdin.buffer.read(MAX_INPUT_BYTES + 1), input_name(path))
    check_regular_file(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise InputError(f"{path}: cannot read it ({error.strerror or error})") from None
    return _decode(data, str(path))


def check_regular_file(path: Path) -> None:
    """InputError unless `path` is a regular file (or a link to one) that exists."""
    _no_nul(path, InputError)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read it ({error.strerror or error})") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(mode):
        # Reading a FIFO or a device could wait forever or never end: say what to give instead.
        raise InputError(
            f"{path}: is {_kind(mode)}, not a regular file; save the sheet to a file, "
            "or give - to read it from standard input"
        )


def _decode(data: bytes, source: str) -> str:
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(
            f"{source}: larger than the {MAX_INPUT_BYTES // (1024 * 1024)} MB a typed-in file "
            "may be (a sheet is a few KB)"
        )
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is dropped
    except UnicodeDecodeError as error:
        raise InputError(
            f"{source}: not a UTF-8 text file ({error.reason} at byte {error.start:,})"
        ) from None


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file beside it, then rename: never a
    half-written file, and no temporary file left behind when anything fails.

    A symbolic link is written through (its target changes, the link stays). OutputError, naming
    the path and the cause, for what cannot be written: a folder, a device or a FIFO in the
    way, a folder that cannot be created, a read-only place, a full disk, a name too long."""
    _no_nul(path, OutputError)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    _check_writable_target(target, path)
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{path}: cannot create its folder {folder} ({_cause(error)})") from None
    import tempfile  # here: the command line's start-up needs none of what it imports

    try:
        # A short prefix: the temporary name must not be the one that is too long.
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:32]}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"{path}: cannot write in {folder} ({_cause(error)})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file private (0600); a built file should read like any other.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"{path}: cannot write it ({_cause(error)})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"))


def check_output(path: Path, inputs: Iterable[Path] = ()) -> None:
    """OutputError now, before any work, if `path` cannot be a file printgen writes: something
    other than a regular file stands there, or it is one of `inputs` (never overwrite the
    player's photo or sheet with a result)."""
    _no_nul(path, OutputError)
    _check_writable_target(Path(os.path.realpath(path)), path)
    for given in inputs:
        if _same_file(path, given):
            raise OutputError(f"{path}: is one of the inputs; write the result to another file")


def check_output_folder(path: Path) -> None:
    """OutputError now, before any work, unless `path` is a folder or can be made one."""
    _no_nul(path, OutputError)
    mode = _output_mode(path, path)
    if mode is not None and not stat.S_ISDIR(mode):
        raise OutputError(f"{path}: is not a folder")


def _check_writable_target(target: Path, path: Path) -> None:
    mode = _output_mode(target, path)
    if mode is None:
        return
    if stat.S_ISDIR(mode):
        raise OutputError(f"{path}: is a folder; give a file name")
    if not stat.S_ISREG(mode):
        raise OutputError(f"{path}: is {_kind(mode)}; printgen writes only regular files")


def _output_mode(target: Path, path: Path) -> int | None:
    """The mode of what stands at `target` (None: nothing, or nothing we may look at yet; the
    write itself will then say why it fails). `path` is the name the user gave."""
    try:
        return target.stat().st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ENOTDIR:
            raise OutputError(f"{path}: a file stands where one of its folders should be") from None
        if error.errno == errno.ENAMETOOLONG:
            raise OutputError(f"{path}: cannot write there ({_cause(error)})") from None
        return None


def _no_nul(path: Path, error: type[PrintgenError]) -> None:
    # A NUL cannot come from a shell's command line, but can from a caller; the OS refuses it.
    if "\x00" in str(path):
        raise error(f"{quote(str(path))}: a file name cannot hold a NUL character")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _cause(error: OSError) -> str:
    return error.strerror or str(error)
