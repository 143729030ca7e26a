"""Real handwritten digits (../shared/handwriting/, 2,500 MNIST digits by real people), split
once and for all into disjoint parts, and written into a sheet's squares as a pen or a pencil
would have written them.

The split is by a fixed seed, stratified by digit: TRAIN for training only, CALIBRATION for the
confidence threshold only, MEASURE for the benchmark and the tests only. No digit is in two parts.
For cross-validation the split has FOLDS rotations (`use_fold`); the shipped model is fold 0's.
MNIST is shared under CC BY-SA 3.0 (Y. LeCun, C. Cortes, C. J. C. Burges); see docs/reader.md.
"""

from __future__ import annotations

import gzip
import math
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "handwriting" / "mnist-2500.csv.gz"
# A few MEASURE digits shipped with the tests, so that they run on a clean clone without
# ../shared/ (same licence as MNIST: CC BY-SA 3.0).
TEST_SAMPLE = ROOT / "tests" / "data" / "real-digits-measure.npz"

SPLIT_SEED = 2500
# Digits of each value in each part (250 of each value in all).
PARTS = {"train": 140, "calibration": 50, "measure": 60}


SKELETON_SCALE = 4  # skeletons are found on the digit enlarged this much


@dataclass(frozen=True)
class RealDigits:
    """Images (float32, 28 x 28, 0 paper .. 1 ink) and the digit each shows."""

    images: np.ndarray
    labels: np.ndarray
    _skeletons: dict[int, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.labels)

    def of(self, digit: int) -> np.ndarray:
        return np.flatnonzero(self.labels == digit)

    def skeleton(self, i: int) -> np.ndarray:
        """Image i's pen path: its skeleton on the glyph's own crop, SKELETON_SCALE times
        larger (computed once, then kept)."""
        if i not in self._skeletons:
            glyph = _crop(self.images[i])
            big = cv2.resize(
                glyph,
                (glyph.shape[1] * SKELETON_SCALE, glyph.shape[0] * SKELETON_SCALE),
                interpolation=cv2.INTER_CUBIC,
            )
            self._skeletons[i] = thin(big > 0.45).astype(np.float32)
        return self._skeletons[i]


class MissingHandwriting(FileNotFoundError):
    pass


@cache
def load_all(path: Path = SOURCE) -> RealDigits:
    if not path.exists():
        raise MissingHandwriting(
            f"{path}: the real handwritten digits are not there (they sit beside the checkout, "
            "in ../shared/handwriting/)"
        )
    return read_csv(path)


# A digit a line: 784 greys of a 28 x 28 image, row by row (0 paper, 255 ink), then the digit.
CSV_NUMBERS = 28 * 28 + 1
# A first line of column names may say where the digit stands, as other MNIST CSV files put it
# first under "label" (Kaggle's train.csv): the column so named, wherever it is, is the digit.
LABEL_COLUMN = "label"


def read_csv(path: Path) -> RealDigits:
    """Digits in the format of ../shared/handwriting/ (README there): a digit a line,
    `CSV_NUMBERS` comma-separated whole numbers, gzipped when the name ends in .gz, or under a
    first line of column names, one of them `LABEL_COLUMN`. A line that breaks the format is a
    ValueError naming the file, the line and what was expected."""
    rows: list[np.ndarray] = []
    label = CSV_NUMBERS - 1
    try:
        with gzip.open(path, "rt") if path.suffix == ".gz" else path.open() as lines:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                if number == 1 and _names_columns(line):
                    label = _label_column(path, line)
                    continue
                rows.append(_csv_row(path, number, line, label))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not a readable file of handwritten digits ({e})") from None
    if not rows:
        raise ValueError(f"{path}: no digits in it (expected a digit a line)")
    table = np.stack(rows)
    if label == CSV_NUMBERS - 1:
        _check_not_digit_first(path, table)
    return RealDigits(table[:, :-1].reshape(-1, 28, 28).astype(np.float32) / 255, table[:, -1])


def _names_columns(line: str) -> bool:
    """A line of names, not one a number: a header. (A line of numbers with a word among them
    is a broken line of digits, named as such by `_csv_row`.)"""
    return not any(field.strip().strip('"').lstrip("-").isdigit() for field in line.split(","))


def _label_column(path: Path, line: str) -> int:
    names = [field.strip().strip('"').lower() for field in line.split(",")]
    if len(names) != CSV_NUMBERS or names.count(LABEL_COLUMN) != 1:
        raise ValueError(
            f"{path}, line 1: a line of column names, expected {CSV_NUMBERS} of them, one "
            f"`{LABEL_COLUMN}` for the digit; found {len(names)} names, "
            f"{names.count(LABEL_COLUMN)} `{LABEL_COLUMN}`"
        )
    return names.index(LABEL_COLUMN)


def _csv_row(path: Path, number: int, line: str, label: int = CSV_NUMBERS - 1) -> np.ndarray:
    """The line's 784 greys, then its digit (taken from column `label`)."""
    fields = line.split(",")
    if len(fields) != CSV_NUMBERS:
        raise ValueError(
            f"{path}, line {number}: expected {CSV_NUMBERS} comma-separated numbers (784 greys "
            f"of a 28 x 28 digit, then the digit), found {len(fields)}"
        )
    try:
        row = np.array(fields, np.int64)
    except ValueError:
        raise ValueError(f"{path}, line {number}: expected whole numbers only") from None
    if label != CSV_NUMBERS - 1:
        row = np.append(np.delete(row, label), row[label])
    if row[:-1].min() < 0 or row[:-1].max() > 255:
        raise ValueError(f"{path}, line {number}: a grey outside 0 to 255")
    if not 0 <= row[-1] <= 9:
        raise ValueError(f"{path}, line {number}: the digit {row[-1]} is not one of 0 to 9")
    return row


def _check_not_digit_first(path: Path, table: np.ndarray) -> None:
    """Refuse a file that puts the digit first with no line naming the columns: read as this
    format, every digit would be labelled as its image's bottom-right corner (paper, 0) and the
    digits written into sheets under the wrong numbers."""
    first, last = table[:, 0], table[:, -1]
    if len(np.unique(last)) == 1 and len(np.unique(first)) > 1 and first.max() <= 9:
        raise ValueError(
            f"{path}: every line ends in {last[0]} and starts with a number 0 to 9 "
            f"({len(np.unique(first))} different ones): the digit seems to come first, as other "
            "MNIST CSV files put it; expected the 784 greys first and the digit last, or a first "
            f"line naming the columns, `{LABEL_COLUMN}` for the digit's"
        )


# Cross-validation: the split rotated FOLDS times. In fold k each digit value's shuffled rows
# are shifted k measure parts along before they are cut, so the folds' MEASURE parts are
# disjoint and together hold 240 of each value's 250: the recogniser's recipe is then measured
# on 2,400 distinct digits, not on one part's 600 (docs/reader.md, "Cross-validation"). Fold 0
# is the split itself. The fold is kept in the environment, so that the worker processes a
# training run starts (forked or spawned) cut the same parts.
FOLDS = 4
FOLD_VARIABLE = "PRINTGEN_REAL_DIGITS_FOLD"


def use_fold(fold: int) -> None:
    """From now on, in this process and those it starts, every part is fold `fold`'s."""
    if not 0 <= fold < FOLDS:
        raise ValueError(f"fold {fold}: expected 0 to {FOLDS - 1}")
    os.environ[FOLD_VARIABLE] = str(fold)


def current_fold() -> int:
    text = os.environ.get(FOLD_VARIABLE, "0")
    if text not in {str(k) for k in range(FOLDS)}:
        raise ValueError(f"{FOLD_VARIABLE}={text!r}: expected a fold, 0 to {FOLDS - 1}")
    return int(text)


def split(labels: np.ndarray, fold: int = 0) -> dict[str, np.ndarray]:
    """Row numbers of each part: for each digit value, its rows shuffled by SPLIT_SEED, turned
    `fold` measure parts along and cut into consecutive runs, so the parts are disjoint and
    the same on every machine."""
    rng = np.random.default_rng(SPLIT_SEED)
    out: dict[str, list[int]] = {name: [] for name in PARTS}
    for digit in range(10):
        rows = np.roll(rng.permutation(np.flatnonzero(labels == digit)), fold * PARTS["measure"])
        start = 0
        for name, count in PARTS.items():
            out[name].extend(rows[start : start + count].tolist())
            start += count
    return {name: np.array(sorted(rows)) for name, rows in out.items()}


@cache
def split_indices(fold: int = 0) -> dict[str, np.ndarray]:
    """The split of ../shared/handwriting/ (`split`)."""
    return split(load_all().labels, fold)


# Digits of ../shared/handwriting/ (row numbers) whose label is not what a person reads, each looked
# at: left out of the CALIBRATION part, where one such digit read as what it shows would set the
# bar for every class (docs/recogniser-experiments.md, "What sets the bar"). The MEASURE part
# keeps its own: the bench counts them against their label.
MISLABELLED = {747: "labelled 2, written as a 9: a closed loop on a stem"}


def part(name: str) -> RealDigits:
    """One part of the split ("train", "calibration" or "measure"), of the fold in use
    (`use_fold`). Fold 0's measure part falls back to the sample shipped with the tests when
    ../shared/ is absent."""
    if name not in PARTS:
        raise ValueError(f"unknown part {name!r}: expected one of {', '.join(PARTS)}")
    fold = current_fold()
    try:
        everything = load_all()
    except MissingHandwriting:
        if name != "measure" or fold != 0 or not TEST_SAMPLE.exists():
            raise
        return test_sample()
    rows = split_indices(fold)[name]
    if name == "calibration":
        rows = rows[~np.isin(rows, list(MISLABELLED))]
    return RealDigits(everything.images[rows], everything.labels[rows])


def measure_part_name() -> str:
    """What `part("measure")` gives, as a person reads it after "the": the tests' 200 digits
    stand in for the 600 where ../shared/ is absent, and a figure measured on them is not the
    measure part's."""
    fold = current_fold()
    if fold == 0 and not SOURCE.exists() and TEST_SAMPLE.exists():
        return (
            f"tests' sample of the measure part ({TEST_SAMPLE.name}: "
            "../shared/handwriting/ is not there)"
        )
    return f"measure part of fold {fold}"


def test_sample() -> RealDigits:
    return from_file(TEST_SAMPLE)


def from_file(path: Path) -> RealDigits:
    """Handwritten digits to measure the reader on, such as other people's handwriting: a file
    in the format of ../shared/handwriting/ (`read_csv`: .csv, or .csv.gz), or an .npz kept as
    the test sample keeps them, `images` (uint8, n x 28 x 28, 0 paper to 255 ink, framed as
    MNIST frames its digits) and `labels` (0 to 9)."""
    digits = read_csv(path) if path.name.endswith((".csv", ".csv.gz")) else _read_npz(path)
    # Paper is 0: a file of dark digits on white (255) would be written as solid squares.
    ring = np.ones((28, 28), bool)
    ring[2:-2, 2:-2] = False
    inverted = np.flatnonzero(digits.images[:, ring].mean(axis=1) > 0.5)
    if len(inverted):
        raise ValueError(
            f"{path}: digit {inverted[0] + 1} of the file is mostly ink around its edge: expected "
            "0 for paper and 255 for ink (are the greys inverted?)"
        )
    return digits


def _read_npz(path: Path) -> RealDigits:
    try:
        with np.load(path, allow_pickle=False) as data:
            images, labels = data["images"], data["labels"]
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{path}: not an .npz of handwritten digits ({e})") from None
    if images.dtype != np.uint8 or images.ndim != 3 or images.shape[1:] != (28, 28):
        raise ValueError(
            f"{path}: images must be uint8, n x 28 x 28; found {images.dtype} {images.shape}"
        )
    if labels.shape != (len(images),) or not np.isin(labels, np.arange(10)).all():
        raise ValueError(
            f"{path}: labels must be one digit 0 to 9 for each of the {len(images)} images"
        )
    return RealDigits(images.astype(np.float32) / 255, labels.astype(np.int64))


# --- writing a real digit into a square -------------------------------------------------------


def thin(binary: np.ndarray) -> np.ndarray:
    """The one-pixel skeleton of a binary shape (Zhang and Suen's thinning), so that a digit can
    be drawn again with another pen."""
    img = np.pad(binary.astype(np.uint8), 1)
    while True:
        changed = False
        for step in (0, 1):
            p = img
            n = [
                p[:-2, 1:-1],  # P2 north
                p[:-2, 2:],  # P3
                p[1:-1, 2:],  # P4 east
                p[2:, 2:],  # P5
                p[2:, 1:-1],  # P6 south
                p[2:, :-2],  # P7
                p[1:-1, :-2],  # P8 west
                p[:-2, :-2],  # P9
            ]
            centre = p[1:-1, 1:-1]
            b = sum(x.astype(np.int32) for x in n)
            a = sum(((n[i] == 0) & (n[(i + 1) % 8] == 1)).astype(np.int32) for i in range(8))
            if step == 0:
                c1 = n[0] * n[2] * n[4]
                c2 = n[2] * n[4] * n[6]
            else:
                c1 = n[0] * n[2] * n[6]
                c2 = n[0] * n[4] * n[6]
            remove = (centre == 1) & (b >= 2) & (b <= 6) & (a == 1) & (c1 == 0) & (c2 == 0)
            if remove.any():
                changed = True
                img = img.copy()
                img[1:-1, 1:-1][remove] = 0
        if not changed:
            return img[1:-1, 1:-1].astype(bool)


@dataclass(frozen=True)
class Pen:
    """How a real digit is put on paper: the stroke (None keeps the writer's own, as scanned),
    its darkness and whether it is pencil."""

    stroke: float | None  # stroke width as a share of the height of a digit of the usual size
    darkness: float
    pencil: bool


def random_pen(rng: np.random.Generator) -> Pen:
    pencil = bool(rng.random() < 0.45)
    stroke = None if rng.random() < 0.35 else float(rng.uniform(0.035, 0.15))
    darkness = float(rng.uniform(0.4, 0.8) if pencil else rng.uniform(0.75, 1.0))
    return Pen(stroke, darkness, pencil)


def _crop(image: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(image > 0.15)
    if len(ys) == 0:
        return image
    return image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


# How tall people write a digit, as a share of the box it is written in.
HEIGHT_SHARE = (0.55, 0.9)


def write_digit(
    image: np.ndarray,
    skeleton: np.ndarray | None,
    size: tuple[int, int],
    box: tuple[float, float, float, float],
    pen: Pen,
    rng: np.random.Generator,
    height_share: tuple[float, float] = HEIGHT_SHARE,
) -> np.ndarray:
    """An ink map of `size` (h, w) holding the 28 x 28 digit `image` written inside `box`
    (x0, y0, x1, y1 in pixels): scaled to a height the hand chooses, slanted, turned, bent a
    little, drawn with `pen`: as scanned, or along its `skeleton` (RealDigits.skeleton) with
    the pen's own stroke width."""
    h, w = size
    x0, y0, x1, y1 = box
    glyph = _crop(image)
    gh, gw = glyph.shape
    room = min(y1 - y0, (x1 - x0) * 1.4)
    target = room * rng.uniform(*height_share)
    # Draw at twice the final resolution, so that a re-drawn stroke is smooth.
    up = 2
    k = target * up / gh
    slant = rng.normal(0, 0.18)
    rot = rng.normal(0, 0.07)
    aspect = rng.uniform(0.8, 1.2)
    a = np.array([[k * aspect, -k * slant], [0, k]]) @ np.array(
        [[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]]
    )
    cx = (x0 + x1) / 2 + rng.normal(0, 0.06) * (x1 - x0)
    cy = (y0 + y1) / 2 + rng.normal(0, 0.06) * (y1 - y0)
    t = np.array([cx, cy]) * up - a @ np.array([gw / 2, gh / 2])
    m = np.hstack([a, t[:, None]]).astype(np.float32)
    out = (w * up, h * up)
    if pen.stroke is not None and skeleton is not None:
        s = np.array([[1 / SKELETON_SCALE, 0, 0], [0, 1 / SKELETON_SCALE, 0], [0, 0, 1]])
        path = cv2.warpAffine(skeleton, (np.vstack([m, [0, 0, 1]]) @ s)[:2], out) > 0.02
        # A pen draws as wide a line whatever the size of the writing: `stroke` is its share of
        # a digit of the usual height, and small writing keeps that width.
        width = max(1.0, pen.stroke * max(target, room * HEIGHT_SHARE[0]) * up)
        dist = cv2.distanceTransform((~path).astype(np.uint8), cv2.DIST_L2, 3)
        # A soft edge of one pixel, as a pen on paper and a camera give.
        big = np.clip(width / 2 + 0.5 - dist, 0, 1).astype(np.float32)
    else:
        big = cv2.warpAffine(glyph, m, out, flags=cv2.INTER_CUBIC).clip(0, 1)
    ink = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        ink = elastic(ink, rng, amount=rng.uniform(0.01, 0.035))
    if pen.pencil:
        grain = cv2.GaussianBlur(rng.uniform(0.55, 1.0, ink.shape).astype(np.float32), (3, 3), 0.7)
        ink = ink * grain
    return (ink * pen.darkness).clip(0, 1).astype(np.float32)


def elastic(ink: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """A smooth random bend of the whole map, `amount` of its smaller side at most."""
    h, w = ink.shape
    shift = amount * min(h, w)
    fields = []
    for _ in range(2):
        # Smooth noise: a coarse random grid, enlarged.
        coarse = rng.normal(0, 1, (4, 4)).astype(np.float32)
        f = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
        fields.append(f / (np.abs(f).max() + 1e-6) * shift)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return cv2.remap(ink, xs + fields[0], ys + fields[1], cv2.INTER_LINEAR)
