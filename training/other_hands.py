"""Handwritten digits by other people than MNIST's writers, to measure the reader on hands it
never learnt from (docs/reader.md, "Other hands"; bench_reader.py --set semeion, optdigits).

- Semeion (Semeion Research Center, Rome; written at Tattile, Brescia): 1,593 digits by about 80
  Italian writers, each digit twice (once with care, once fast), 16 x 16 bits. Italian hands
  write the continental 1, the crossed 7 and an open 4 that MNIST hardly holds.
- optdigits (E. Alpaydin and C. Kaynak, Bogazici University, Istanbul): the 32 x 32 bitmaps of
  1,934 digits by 30 writers (NIST's preprocessing). scikit-learn's 8 x 8 digits, which the
  recogniser learns from, come from the same project but from 13 other writers.

Both from the UCI Machine Learning Repository, under CC BY 4.0. They are not shipped: whoever
has UCI's files keeps them as their original bits in `training/data/` (its README says where
they come from), once:

    .venv/bin/python -m training.other_hands keep semeion path/to/semeion.data
    .venv/bin/python -m training.other_hands keep optdigits path/to/optdigits-orig.tra

Semeion's records run through the digits 0 to 9 six times (four rounds of about 20 of each
digit, then two of about 40), presumably each round by its own writers (the dataset does not
say who wrote which): rounds 0 to 3 are learnt from only by networks asked for with
`train_digits.py --other-hands-nets`, rounds 4 and 5 are for measuring only. optdigits is never
learnt from: a population no network has seen. Both datasets stretched every digit to fill a
square box, so a 1 came out as wide as a 0: `frame` gives each digit back the width MNIST's
writers give it (ASPECT) and frames it as MNIST does, so that `real_digits.write_digit`
writes it into a square as any real digit.

The US Postal Service's digits (zip.test, as The Elements of Statistical Learning shares them)
carry no licence to ship; given the file, this writes them for bench_reader.py --digits:

    .venv/bin/python -m training.other_hands write usps usps.npz --source zip.test
"""

from __future__ import annotations

import argparse
import gzip
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from training import real_digits

DATA = Path(__file__).resolve().parent / "data"
SOURCES = ("semeion", "optdigits")

# The median width over height of each digit, 0 to 9, in ../shared/handwriting/ (MNIST).
ASPECT = (0.95, 0.45, 1.0, 0.82, 0.8, 1.0, 0.7, 0.8, 0.8, 0.7)


def frame(raster: np.ndarray, digit: int | None) -> np.ndarray:
    """A digit's raster (ink 0 to 1, any square size) as MNIST frames its digits: smoothed into
    strokes (the rasters are coarse), `digit`'s usual width given back (None keeps the raster's
    own), the longer side 20 pixels, centred in 28 x 28; uint8, 255 full ink."""
    side = raster.shape[0]
    big = cv2.resize(raster.astype(np.float32), (64, 64), interpolation=cv2.INTER_LINEAR)
    # The coarser the raster, the more its staircase edges need smoothing.
    big = cv2.GaussianBlur(big, (0, 0), 1.6 * 16 / side)
    ys, xs = np.nonzero(big > 0.3)
    if len(ys) == 0:
        raise ValueError("a blank raster holds no digit")
    glyph = big[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    if digit is not None:
        h = glyph.shape[0]
        glyph = cv2.resize(
            glyph, (max(2, round(h * ASPECT[digit])), h), interpolation=cv2.INTER_AREA
        )
    k = 20 / max(glyph.shape)
    glyph = cv2.resize(
        glyph,
        (max(1, round(glyph.shape[1] * k)), max(1, round(glyph.shape[0] * k))),
        interpolation=cv2.INTER_AREA,
    )
    out = np.zeros((28, 28), np.float32)
    y0, x0 = (28 - glyph.shape[0]) // 2, (28 - glyph.shape[1]) // 2
    out[y0 : y0 + glyph.shape[0], x0 : x0 + glyph.shape[1]] = glyph
    # Full ink in the strokes' cores, a soft edge of about a pixel, as MNIST's scans have.
    return (np.clip((out - 0.2) / 0.5, 0, 1) * 255).round().astype(np.uint8)


class MissingDataError(ValueError):
    """A dataset of other hands that this copy of printgen does not hold: none are shipped."""


def path_of(name: str) -> Path:
    """Where the kept bits of one dataset of `SOURCES` live (made by `keep`)."""
    if name not in SOURCES:
        raise ValueError(f"unknown dataset {name!r}: expected one of {', '.join(SOURCES)}")
    return DATA / f"{name}.npz"


@cache
def load(name: str) -> real_digits.RealDigits:
    """One dataset of `SOURCES`, every digit framed; a MissingDataError saying how to make the
    file when it has not been kept here."""
    path = path_of(name)
    if not path.exists():
        raise MissingDataError(
            f"{path} is missing: printgen does not ship {name} (fetched datasets stay out of "
            f"the repository); download {ORIGINAL[name]} from the UCI Machine Learning "
            f"Repository and run python -m training.other_hands keep {name} "
            f"path/to/{ORIGINAL[name]}"
        )
    with np.load(path, allow_pickle=False) as data:
        side = int(data["side"])
        bits = np.unpackbits(data["bits"], axis=1)[:, : side * side].reshape(-1, side, side)
        labels = data["labels"].astype(np.int64)
    images = np.stack([frame(b, int(d)) for b, d in zip(bits, labels, strict=True)])
    return real_digits.RealDigits(images.astype(np.float32) / 255, labels)


# UCI's file of each dataset, as its README names it.
ORIGINAL = {"semeion": "semeion.data", "optdigits": "optdigits-orig.tra"}


def _lines_of_numbers(path: Path, count: int, what: str) -> Iterator[tuple[int, np.ndarray]]:
    """Each line of a file of numbers (gzipped or not) that holds `count` of them: its number
    and its values. A ValueError naming the line when one holds another count or a word."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        for number, line in enumerate(f, 1):
            values = line.split()
            if not values:
                continue
            if len(values) != count:
                raise ValueError(
                    f"{path}, line {number}: expected {what}, found {len(values)} numbers"
                )
            try:
                numbers = np.array(values, np.float32)
            except ValueError:
                raise ValueError(f"{path}, line {number}: expected numbers only") from None
            yield number, numbers


def read_semeion(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """UCI's semeion.data: a line per digit, 256 pixels (0 or 1, as decimals) then its label as
    ten 0s and one 1. Bits (n x 16 x 16) and labels."""
    rasters, labels = [], []
    for number, numbers in _lines_of_numbers(path, 266, "256 pixels and 10 label bits"):
        label_bits = numbers[256:]
        if not np.isin(numbers, (0, 1)).all() or label_bits.sum() != 1:
            raise ValueError(
                f"{path}, line {number}: expected pixels of 0 or 1 and exactly one label bit set"
            )
        rasters.append(numbers[:256].reshape(16, 16).astype(np.uint8))
        labels.append(int(label_bits.argmax()))
    if not labels:
        raise ValueError(f"{path}: no digit in it")
    return np.stack(rasters), np.array(labels, np.uint8)


def read_optdigits(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """UCI's optdigits-orig.tra (or .cv, .wdep, .windep): a header, then per digit 32 lines of
    32 bits and a line holding its label. Bits (n x 32 x 32) and labels."""
    lines = path.read_text().splitlines()
    is_row = [len(t) == 32 and set(t) <= {"0", "1"} for t in lines]
    if True not in is_row:
        raise ValueError(f"{path}: no line of 32 bits, so no bitmap of optdigits in it")
    rasters, labels = [], []
    i = is_row.index(True)  # past the header
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        rows = lines[i : i + 32]
        if not all(is_row[i : i + 32]):
            bad = next(i + k for k in range(len(rows)) if not is_row[i + k])
            raise ValueError(
                f"{path}, line {bad + 1}: expected the bitmap's 32 bits, found {lines[bad][:40]!r}"
            )
        if len(rows) < 32:
            raise ValueError(f"{path}: the file ends inside a bitmap (line {len(lines)})")
        label = lines[i + 32].strip() if i + 32 < len(lines) else ""
        if label not in tuple("0123456789"):
            raise ValueError(
                f"{path}, line {i + 33}: expected the digit the bitmap shows, found {label!r}"
            )
        rasters.append(np.array([[int(c) for c in row] for row in rows], np.uint8))
        labels.append(int(label))
        i += 33
    return np.stack(rasters), np.array(labels, np.uint8)


def keep(name: str, source: Path, out: Path | None = None) -> Path:
    """Read UCI's file of one dataset and keep its bits where `load` finds them (or at `out`),
    through a temporary file, so that a failed run leaves nothing half-written."""
    target = out or path_of(name)
    try:
        bits, labels = (read_semeion if name == "semeion" else read_optdigits)(source)
    except OSError as e:
        raise ValueError(f"cannot read {source}: {e.strerror or e}") from None
    _save(
        target,
        bits=np.packbits(bits.reshape(len(bits), -1), axis=1),
        labels=labels,
        side=np.array(bits.shape[1]),
    )
    load.cache_clear()
    return target


def _save(out: Path, **arrays: np.ndarray) -> None:
    """An .npz written through a temporary file beside it: a failed run leaves nothing
    half-written. A ValueError naming the file when it cannot be written."""
    tmp = out.with_name(out.name + ".tmp.npz")
    try:
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(out)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise ValueError(f"cannot write {out}: {e.strerror or e}") from None


SEMEION_TRAIN_ROUNDS = 4


def semeion_rounds(labels: np.ndarray) -> np.ndarray:
    """Each Semeion record's round: the records run 0s, 1s, ... 9s, then 0s again (a few are
    missing, so a round is told by where the digits fall back)."""
    return np.concatenate([[0], np.cumsum(np.diff(labels) < 0)])


def part(name: str) -> real_digits.RealDigits:
    """The digits learnt from ("train": Semeion's first rounds) or measured on ("semeion": its
    last rounds; "optdigits": all of them; "unipen": UNIPEN's tablet digits, training/unipen.py)."""
    if name == "optdigits":
        return load("optdigits")
    if name == "unipen":
        from training import unipen

        return unipen.measured()
    if name not in ("train", "semeion"):
        raise ValueError(f"unknown part {name!r}: expected train, semeion, optdigits or unipen")
    semeion = load("semeion")
    learnt = semeion_rounds(semeion.labels) < SEMEION_TRAIN_ROUNDS
    rows = np.flatnonzero(learnt if name == "train" else ~learnt)
    return real_digits.RealDigits(semeion.images[rows], semeion.labels[rows])


def read_usps(path: Path) -> tuple[list[np.ndarray], list[int]]:
    """The US Postal Service's digits as The Elements of Statistical Learning shares them
    (zip.train, zip.test, gzipped or not): a line per digit, its label then 256 greys, -1 paper
    to 1 ink. Deslanted and size-normalised already, so their width is their own."""
    rasters, labels = [], []
    for number, numbers in _lines_of_numbers(path, 257, "a label and 256 greys"):
        if numbers[0] not in range(10):
            raise ValueError(f"{path}, line {number}: the label {numbers[0]:g} is no digit 0-9")
        labels.append(int(numbers[0]))
        rasters.append((numbers[1:].reshape(16, 16) + 1) / 2)
    return rasters, labels


def write(kind: str, out: Path, source: Path | None) -> int:
    """The digits of `kind` as the bench's --digits file at `out`; how many."""
    if kind == "usps":
        if source is None:
            raise ValueError("usps needs the dataset's file: --source zip.test")
        try:
            rasters, labels = read_usps(source)
        except OSError as e:
            raise ValueError(f"cannot read {source}: {e.strerror or e}") from None
        images = np.stack([frame(r, None) for r in rasters])
    else:
        digits = part(kind)
        images, labels = (digits.images * 255).round().astype(np.uint8), list(digits.labels)
    _save(out, images=images, labels=np.array(labels, np.uint8))
    return len(labels)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Keep other people's handwritten digits from their datasets' files, and write "
        "them as an .npz for bench_reader.py --digits"
    )
    verbs = parser.add_subparsers(dest="verb", required=True)
    kept = verbs.add_parser(
        "keep",
        help="read UCI's file of a dataset (semeion.data, optdigits-orig.tra) and keep its bits "
        "in training/data/, where training and the bench look for them",
    )
    kept.add_argument("kind", choices=SOURCES, help="which dataset")
    kept.add_argument("source", type=Path, help="UCI's file of it")
    written = verbs.add_parser("write", help="write digits as an .npz for bench_reader.py --digits")
    written.add_argument("kind", choices=["usps", *SOURCES], help="which digits")
    written.add_argument("out", type=Path, help="the .npz to write")
    written.add_argument("--source", type=Path, help="the dataset's file (usps: zip.test)")
    args = parser.parse_args()
    try:
        if args.verb == "keep":
            target = keep(args.kind, args.source)
            print(f"{target}: {len(load(args.kind))} digits")
        else:
            print(f"{args.out}: {write(args.kind, args.out, args.source)} digits")
    except ValueError as e:
        parser.error(str(e))


if __name__ == "__main__":
    main()
