"""Digits written on tablets by 462 people for UNIPEN (train_r01_v07, section 1a: isolated
digits), kept as their pen strokes and drawn as ink: hands the recogniser never learnt, to
measure it on (`bench_reader.py --set unipen`; docs/reader.md, "Other hands").

UNIPEN gathered on-line handwriting from companies and universities in America and Europe
(I. Guyon, L. Schomaker, R. Plamondon, M. Liberman and S. Janet, ICPR 1994; the International
Unipen Foundation's train_r01_v07, December 1999, since shared on Zenodo under CC BY 4.0,
https://doi.org/10.5281/zenodo.1195803). `main` reads the distribution's tree (its `data/1a`
and `include` folders) once and writes `training/data/unipen.npz`: every digit's strokes, its
label, and who wrote it. `measured` draws them. Not shipped (fetched datasets stay out of the
repository): whoever has the distribution makes the file once.

    .venv/bin/python -m training.unipen path/to/train_r01_v07 training/data/unipen.npz
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from training import other_hands, real_digits

DATA = Path(__file__).resolve().parent / "data"
FILE = DATA / "unipen.npz"

# The contributors whose segments were drawn and looked at, a grid of each, and showed the digit
# of their label. Left out: cea, ceb, lou, pri and tos (388 digits in all), whose segments point
# at other strokes than the digit's (their files number strokes otherwise); ibm (1,571), whose
# segments often miss a stroke (a 4 kept as its bar or its stem, a 1 as a dash); and every
# segment cut inside a stroke ("component:point", 22 of them).
KEPT = ("aga", "apa", "apb", "app", "art", "ced", "gmd", "imp", "syn", "uqb", "val")
# Most writers wrote each digit once or twice, a few hundreds of times: of each writer, at most
# this many of each digit are measured, so that no one hand outweighs the rest (two Synaptics
# writers wrote 939 digits, one of them every 6 shaped as a u).
PER_DIGIT = 3
# A segment this much wider than tall holds more than a digit ("00" in one box); one this much
# narrower than tall, labelled anything but 1 or 7, lost a stroke.
WIDEST = 1.5
NARROWEST = 0.15
# Strokes are kept at this resolution: the longer side of a digit spans 0 to SCALE.
SCALE = 255
# Ink drawn at this share of the digit's longer side (MNIST's strokes are about an eighth).
STROKE = 0.12


@dataclass(frozen=True)
class PenDigit:
    """One digit as written: its strokes (points, y downwards, physical units), its label."""

    label: int
    strokes: tuple[np.ndarray, ...]
    writer: str  # contributor, then who wrote it ("gmd/alek")


class UnipenError(ValueError):
    """A UNIPEN file that cannot be read as this module expects; the message names it."""


def _components(path: Path, include: Path) -> tuple[list[np.ndarray], float]:
    """The pen-down strokes of `path` and of every file it includes, in order, and how many x
    units a y unit is as long as (X points per inch over Y's)."""
    strokes: list[np.ndarray] = []
    ppi = {"X": 0.0, "Y": 0.0}

    def walk(p: Path) -> None:
        points: list[tuple[float, float]] | None = None
        try:
            lines = p.read_text(encoding="latin-1").splitlines()
        except OSError as error:
            raise UnipenError(f"{p}: cannot read it ({error.strerror or error})") from None
        for number, line in enumerate(lines, 1):
            words = line.split()
            if not words:
                continue
            if words[0].startswith("."):
                if points is not None:
                    strokes.append(np.array(points, np.float64).reshape(-1, 2))
                    points = None
                if words[0] == ".INCLUDE" and len(words) > 1:
                    walk(include / words[1])
                elif words[0] == ".PEN_DOWN":
                    points = []
                elif words[0] in (".X_POINTS_PER_INCH", ".Y_POINTS_PER_INCH") and len(words) > 1:
                    try:
                        ppi[words[0][1]] = float(words[1])
                    except ValueError:
                        raise UnipenError(
                            f"{p}, line {number}: expected {words[0]}'s number, found {words[1]!r}"
                        ) from None
            elif points is not None:
                try:
                    points.append((float(words[0]), float(words[1])))
                except (ValueError, IndexError):
                    raise UnipenError(
                        f"{p}, line {number}: expected a point's x and y, found {line.strip()!r}"
                    ) from None
        if points is not None:
            strokes.append(np.array(points, np.float64).reshape(-1, 2))

    walk(path)
    aspect = ppi["X"] / ppi["Y"] if ppi["X"] and ppi["Y"] else 1.0
    return strokes, aspect


SEGMENT = re.compile(r'^\.SEGMENT\s+\S+\s+(\S+)\s+\S+\s+"(.)"')


def read_file(path: Path, include: Path, writer: str) -> list[PenDigit]:
    """The digits one file of section 1a segments. The tablets count y upwards; the strokes
    come back with y downwards, as a page is read."""
    strokes, aspect = _components(path, include)
    digits = []
    for number, line in enumerate(path.read_text(encoding="latin-1").splitlines(), 1):
        m = SEGMENT.match(line)
        if not m or not m.group(2).isdigit() or ":" in m.group(1):
            continue
        which: list[int] = []
        for span in m.group(1).split(","):
            first, _, last = span.partition("-")
            if not first.isdigit() or not (last or first).isdigit():
                raise UnipenError(
                    f"{path}, line {number}: expected strokes as 3, 3-5 or 3,7, "
                    f"found {m.group(1)!r}"
                )
            which += range(int(first), int(last or first) + 1)
        if max(which) >= len(strokes):
            raise UnipenError(
                f"{path}: segment {m.group(1)} names stroke {max(which)}, "
                f"but the file holds {len(strokes)}"
            )
        pen = [strokes[i] * (1.0, -aspect) for i in which if len(strokes[i])]
        if sum(len(s) for s in pen) >= 3 and plausible(int(m.group(2)), pen):
            digits.append(PenDigit(int(m.group(2)), tuple(pen), writer))
    return digits


def plausible(label: int, strokes: list[np.ndarray]) -> bool:
    """Whether the strokes can be one whole digit: not several side by side, not a lone
    stroke of a digit that needs more."""
    width, height = np.ptp(np.concatenate(strokes), axis=0)
    if width > WIDEST * height:
        return False
    return label in (1, 7) or width >= NARROWEST * height


def writer_of(contributor: str, stem: str) -> str:
    """Who wrote a file: its name, less what tells one writer's files apart (art's "trn" and
    "tst" halves, val's digit 0 to 9 at the end)."""
    if contributor == "art":
        stem = re.sub(r"(trn|tst)$", "", stem)
    elif contributor == "val":
        stem = re.sub(r"\d+$", "", stem)
    return f"{contributor}/{stem}"


def read_tree(root: Path) -> list[PenDigit]:
    """Every digit of the kept contributors in a train_r01_v07 tree."""
    section = root / "data" / "1a"
    if not section.is_dir():
        raise UnipenError(f"{root}: no data/1a folder (isolated digits) in it")
    digits = []
    for contributor in KEPT:
        for path in sorted((section / contributor).rglob("*.dat")):
            digits += read_file(path, root / "include", writer_of(contributor, path.stem))
    return digits


def pack(digits: list[PenDigit]) -> dict[str, np.ndarray]:
    """The digits as plain arrays: every point (uint8, the digit's longer side 0 to SCALE),
    where each stroke and each digit starts, labels and writers."""
    points, stroke_starts, digit_starts = [], [], []
    n_points = n_strokes = 0
    writers = sorted({d.writer for d in digits})
    for d in digits:
        every = np.concatenate(d.strokes)
        low = every.min(axis=0)
        span = max(float(np.ptp(every, axis=0).max()), 1e-9)
        digit_starts.append(n_strokes)
        for s in d.strokes:
            q = np.round((s - low) / span * SCALE).astype(np.uint8)
            # Points that repeat the one before add nothing to the ink.
            keep = np.ones(len(q), bool)
            keep[1:] = (q[1:] != q[:-1]).any(axis=1)
            q = q[keep]
            points.append(q)
            stroke_starts.append(n_points)
            n_points += len(q)
            n_strokes += 1
    return {
        "points": np.concatenate(points),
        "stroke_starts": np.array(stroke_starts, np.int32),
        "digit_starts": np.array(digit_starts, np.int32),
        "labels": np.array([d.label for d in digits], np.uint8),
        "writer": np.array([writers.index(d.writer) for d in digits], np.uint16),
        "writers": np.array(writers),
    }


def draw(strokes: list[np.ndarray], side: int = 64) -> np.ndarray:
    """Strokes (points 0 to SCALE) as ink on a square raster, 0 paper to 1 ink."""
    margin = 6
    k = (side - 2 * margin) / SCALE
    raster = np.zeros((side, side), np.uint8)
    width = max(1, round(STROKE * (side - 2 * margin)))
    for s in strokes:
        q = np.round((s.astype(np.float64) * k + margin) * 16).astype(np.int32)
        if len(q) == 1:
            q = np.vstack([q, q])
        cv2.polylines(raster, [q], False, 255, width, cv2.LINE_AA, 4)
    return raster.astype(np.float32) / 255


@cache
def _arrays() -> dict[str, np.ndarray]:
    if not FILE.exists():
        raise other_hands.MissingDataError(
            f"{FILE} is missing: printgen does not ship UNIPEN (fetched datasets stay out of the "
            "repository); download train_r01_v07 (https://doi.org/10.5281/zenodo.1195803) and "
            f"run python -m training.unipen path/to/train_r01_v07 {FILE}"
        )
    with np.load(FILE, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


@cache
def load() -> tuple[real_digits.RealDigits, np.ndarray]:
    """Every digit drawn and framed as MNIST frames its digits, and the writer of each."""
    a = _arrays()
    ends = np.append(a["stroke_starts"][1:], len(a["points"]))
    strokes = [a["points"][s:e] for s, e in zip(a["stroke_starts"], ends, strict=True)]
    digit_ends = np.append(a["digit_starts"][1:], len(strokes))
    images = np.stack(
        [
            other_hands.frame(draw(strokes[s:e]), None)
            for s, e in zip(a["digit_starts"], digit_ends, strict=True)
        ]
    )
    labels = a["labels"].astype(np.int64)
    return real_digits.RealDigits(images.astype(np.float32) / 255, labels), a["writer"]


def first_of_each(labels: np.ndarray, writer: np.ndarray, per_digit: int) -> np.ndarray:
    """Which digits are among the first `per_digit` of their value by their writer."""
    seen: dict[tuple[int, int], int] = {}
    keep = np.zeros(len(labels), bool)
    for i, key in enumerate(zip(writer.tolist(), labels.tolist(), strict=True)):
        seen[key] = seen.get(key, 0) + 1
        keep[i] = seen[key] <= per_digit
    return keep


def measured() -> real_digits.RealDigits:
    """The digits the bench writes its sheets with: at most PER_DIGIT of each digit by each
    writer."""
    digits, writer = load()
    rows = first_of_each(digits.labels, writer, PER_DIGIT)
    return real_digits.RealDigits(digits.images[rows], digits.labels[rows])


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Convert UNIPEN train_r01_v07's isolated digits (section 1a) to an .npz"
    )
    parser.add_argument("root", type=Path, help="the train_r01_v07 folder (data/1a, include)")
    parser.add_argument("out", type=Path, help="the .npz to write")
    args = parser.parse_args()
    try:
        digits = read_tree(args.root)
    except UnipenError as e:
        parser.error(str(e))
    tmp = args.out.with_name(args.out.name + ".tmp.npz")
    try:
        np.savez_compressed(tmp, **pack(digits))  # type: ignore[arg-type]
        tmp.replace(args.out)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        parser.error(f"cannot write {args.out}: {e.strerror or e}")
    writers = len({d.writer for d in digits})
    print(f"{args.out}: {len(digits)} digits by {writers} writers")


if __name__ == "__main__":
    main()
