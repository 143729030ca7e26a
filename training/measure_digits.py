"""How well a recogniser model reads real handwriting it never learnt from, mark by mark.

    .venv/bin/python -m training.measure_digits [MODEL.npz ...] [--per-digit 4] [--seed 1]
                                                [--pens | --styles] [--fold 0]
                                                [--digits FILE]

For each model file (the shipped one by default) and each held-out part of the real digits
(training/real_digits.py: CALIBRATION, then MEASURE), every digit is written into simulated
squares (training/views.py: pens, sizes, slants, both sheet versions, photos of every quality
the reader takes) `--per-digit` times, and once plainly (dark pen, centred, a clean square).
Printed: the share read right (each digit, then all), the negative log-likelihood of the truth,
the share accepted at the model's own thresholds and how many of those are wrong, and the share
that could be accepted with no error at all (above the most confident wrong reading). "other" is
never accepted, as in the reader. With `--pens`, the measure digits are written with one kind
of pen at a time instead (a fine pen, a felt tip, a light pencil...). With `--styles`, shapes
that MNIST's American writers seldom make (a continental 1 with its long up-stroke, a crossed 7,
a slashed 0...) drawn by held-out procedural writers, `--per-digit` times 50 each. With
`--fold`, the parts are that fold's (cross-validation, training/real_digits.py). With
`--digits FILE`, the digits of that file instead of the parts (a .csv or .csv.gz in the format
of ../shared/handwriting/, or an .npz: real_digits.from_file), such as your own hand. Whole
sheets, with the rules' cross-check, are the benchmark's (bench/bench_reader.py --set real).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from printgen.games.one_page_war.reader import digits
from training import handwriting as hw
from training import real_digits, views

OTHER = digits.CLASSES.index(digits.OTHER)
HELD_OUT = ("calibration", "measure")  # the parts of the real digits no network learns from


@dataclass(frozen=True)
class Marks:
    """Input rows of the recogniser and the digit each shows."""

    rows: np.ndarray  # (n, FEATURES) float32
    labels: np.ndarray


# One kind of pen at a time (`--pens`): stroke width as a share of the digit's height (None:
# the digit as scanned), darkness, pencil grain.
PENS: dict[str, Callable[[np.random.Generator], real_digits.Pen]] = {
    "as scanned": lambda r: real_digits.Pen(None, 0.95, False),
    "fine pen (3-4.5 %)": lambda r: real_digits.Pen(float(r.uniform(0.03, 0.045)), 0.95, False),
    "pen (7-9 %)": lambda r: real_digits.Pen(float(r.uniform(0.07, 0.09)), 0.95, False),
    "marker (14-18 %)": lambda r: real_digits.Pen(float(r.uniform(0.14, 0.18)), 0.95, False),
    "felt tip (20-24 %)": lambda r: real_digits.Pen(float(r.uniform(0.2, 0.24)), 0.95, False),
    "light pencil": lambda r: real_digits.Pen(float(r.uniform(0.04, 0.07)), 0.4, True),
}


# Ways of writing a digit that the real digits (American writers) hardly hold, each with the
# digit it shows. Their control points are their own, none of them a training template.
STYLES: dict[str, tuple[int, list[list[tuple[float, float]]]]] = {
    "continental 1, long flag": (1, [[(0.18, 0.36), (0.6, 0.08), (0.6, 0.92)]]),
    "continental 1, shallow flag": (1, [[(0.16, 0.28), (0.6, 0.08), (0.6, 0.92)]]),
    "continental 1, flag and foot": (
        1,
        [[(0.2, 0.42), (0.56, 0.08), (0.56, 0.92)], [(0.3, 0.92), (0.8, 0.92)]],
    ),
    "crossed 7": (7, [[(0.2, 0.1), (0.76, 0.06), (0.46, 0.92)], [(0.3, 0.52), (0.72, 0.5)]]),
    "4 like a Y": (
        4,
        [
            [(0.25, 0.08), (0.5, 0.55), (0.75, 0.08)],
            [(0.5, 0.55), (0.5, 0.94)],
            [(0.25, 0.62), (0.8, 0.62)],
        ],
    ),
    "hooked 4, no top": (
        4,
        [
            [(0.52, 0.06), (0.34, 0.26), (0.24, 0.5), (0.34, 0.67), (0.56, 0.69), (0.8, 0.62)],
            [(0.6, 0.5), (0.61, 0.9)],
        ],
    ),
    "slashed 0": (
        0,
        [
            [(0.5, 0.08), (0.28, 0.25), (0.26, 0.6), (0.4, 0.9), (0.62, 0.9), (0.74, 0.6)]
            + [(0.72, 0.25), (0.5, 0.08)],
            [(0.7, 0.12), (0.3, 0.88)],
        ],
    ),
    # Underlined, as players of games read from every side mark a 6 and a 9 apart.
    "underlined 6": (
        6,
        [
            [(0.64, 0.06), (0.44, 0.2), (0.32, 0.45), (0.32, 0.68), (0.44, 0.8), (0.6, 0.78)]
            + [(0.68, 0.62), (0.6, 0.48), (0.44, 0.48), (0.33, 0.6)],
            [(0.24, 0.95), (0.76, 0.95)],
        ],
    ),
    "underlined 9": (
        9,
        [
            [(0.66, 0.3), (0.56, 0.08), (0.4, 0.08), (0.32, 0.24), (0.4, 0.38), (0.56, 0.38)]
            + [(0.66, 0.28), (0.64, 0.56), (0.56, 0.8)],
            [(0.24, 0.95), (0.76, 0.95)],
        ],
    ),
    "8 as two rings": (
        8,
        [
            [(0.5, 0.08), (0.34, 0.18), (0.34, 0.36), (0.5, 0.46), (0.66, 0.36), (0.66, 0.18)]
            + [(0.5, 0.08)],
            [(0.5, 0.46), (0.28, 0.6), (0.28, 0.82), (0.5, 0.93), (0.72, 0.82), (0.72, 0.6)]
            + [(0.5, 0.46)],
        ],
    ),
}


def styled(name: str, count: int, seed: int) -> Marks:
    """The shape `STYLES[name]` written `count` times by held-out writers, one each, into
    random squares, photographed."""
    found = (
        digits.features(digits.significant_ink(ink)) for ink in styled_squares(name, count, seed)
    )
    rows = [row for row in found if row is not None]
    return Marks(np.stack(rows), np.full(len(rows), STYLES[name][0]))


def styled_squares(name: str, count: int, seed: int) -> list[np.ndarray]:
    """The ink maps of the squares `styled` reads (as the reader crops a square's inside)."""
    strokes = STYLES[name][1]
    rng = np.random.default_rng([seed, 78])
    inks = []
    for i in range(count):
        hand = replace(hw.writer(seed * 100_000 + i, held_out=True), font=None)

        def write(
            size: tuple[int, int], box: views.Inner, r: np.random.Generator, hand: hw.Writer = hand
        ) -> np.ndarray:
            return hw.draw_shape(strokes, size, hand, r, box)

        inks.append(
            views.view(views.random_box("square", rng), write, views.random_camera(rng), rng)
        )
    return inks


def written(
    real: real_digits.RealDigits,
    per_digit: int,
    seed: int,
    pen_of: Callable[[np.random.Generator], real_digits.Pen] = real_digits.random_pen,
) -> Marks:
    """Each digit of `real` written into `per_digit` random squares, photographed."""
    rows, labels = [], []
    for ink, label in written_squares(real, per_digit, seed, pen_of):
        row = digits.features(digits.significant_ink(ink))
        if row is not None:
            rows.append(row)
            labels.append(label)
    return Marks(np.stack(rows), np.array(labels))


def written_squares(
    real: real_digits.RealDigits,
    per_digit: int,
    seed: int,
    pen_of: Callable[[np.random.Generator], real_digits.Pen] = real_digits.random_pen,
) -> list[tuple[np.ndarray, int]]:
    """The ink maps of the squares `written` reads (as the reader crops a square's inside),
    each with its digit."""
    rng = np.random.default_rng([seed, 77])
    squares = []
    for i in range(len(real)):
        for _ in range(per_digit):
            pen = pen_of(rng)

            def write(
                size: tuple[int, int],
                box: views.Inner,
                r: np.random.Generator,
                i: int = i,
                pen: real_digits.Pen = pen,
            ) -> np.ndarray:
                return real_digits.write_digit(real.images[i], real.skeleton(i), size, box, pen, r)

            box = views.random_box("square", rng)
            squares.append(
                (views.view(box, write, views.random_camera(rng), rng), int(real.labels[i]))
            )
    return squares


def plain(real: real_digits.RealDigits, seed: int) -> Marks:
    """Each digit of `real` once, written plainly with a dark pen in a clean square."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(len(real)):
        pen = real_digits.Pen(None, 0.9, False)
        ink = real_digits.write_digit(
            real.images[i], real.skeleton(i), (72, 72), (6, 6, 66, 66), pen, rng
        )
        row = digits.features(digits.significant_ink(ink))
        assert row is not None
        rows.append(row)
    return Marks(np.stack(rows), real.labels.copy())


def accepted(model: digits.Model, p: np.ndarray) -> np.ndarray:
    """Which rows of probabilities `p` the reader would accept: the first choice at or above its
    class's threshold, and never "other" (the reader always shows it as unsure)."""
    guess = p.argmax(axis=1)
    limit = np.array([model.threshold_for(digits.CLASSES[g]) for g in guess])
    return (p.max(axis=1) >= limit) & (guess != OTHER)


def summary(model: digits.Model, marks: Marks) -> str:
    p = model.probabilities(marks.rows)
    guess = p.argmax(axis=1)
    confidence = p.max(axis=1)
    y = marks.labels
    right = guess == y
    wrong = ~right & (guess != OTHER)
    sure = accepted(model, p)
    worst = float(confidence[wrong].max()) if wrong.any() else 0.0
    nll = float(-np.log(np.maximum(p[np.arange(len(y)), y], 1e-12)).mean())
    shown = [d for d in range(10) if (y == d).any()]
    each = " ".join(f"{d}:{right[y == d].mean():.3f}" for d in shown)
    # A clean digit should come back sure: where one digit is accepted far less than the rest,
    # another class draws on it (a plain 5 gives S a share: docs/recogniser-experiments.md).
    each_accepted = " ".join(f"{d}:{(sure & right)[y == d].mean():.3f}" for d in shown)
    return (
        f"{len(y)} marks: right {right.mean():.4f}, NLL {nll:.4f}, accepted {sure.mean():.4f} "
        f"({int((sure & ~right).sum())} wrong), accepted with no error possible "
        f"{((confidence > worst) & right).mean():.4f} (most confident wrong reading "
        f"{worst:.5f})\n      each digit right: {each}\n      each digit accepted and right: "
        f"{each_accepted}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path, default=[digits.MODEL_PATH])
    parser.add_argument("--per-digit", type=int, default=4, help="simulated squares per digit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--fold",
        type=int,
        default=0,
        help="the parts of this fold of the real digits (cross-validation): measure a model "
        "trained with the same --fold (training/train_digits.py)",
    )
    instead = parser.add_mutually_exclusive_group()
    instead.add_argument(
        "--pens",
        action="store_true",
        help="instead: the measure digits written with one kind of pen at a time",
    )
    instead.add_argument(
        "--styles",
        action="store_true",
        help="instead: shapes the real digits seldom hold (continental 1, crossed 7...)",
    )
    parser.add_argument(
        "--digits",
        type=Path,
        metavar="FILE",
        help="measure on these handwritten digits instead of the held-out parts: a .csv or "
        ".csv.gz in the format of ../shared/handwriting/ (a digit a line: 784 greys 0 to 255, "
        "then the digit; or the digit in any column under a first line naming it `label`), "
        "or an .npz of uint8 `images` (n x 28 x 28) and `labels`",
    )
    args = parser.parse_args()
    try:
        real_digits.use_fold(args.fold)
    except ValueError as e:
        parser.error(f"--fold: {e}")
    if args.digits and (args.fold or args.styles):
        parser.error(f"--digits and --{'fold' if args.fold else 'styles'} each say what to measure")
    try:
        parts = {args.digits.name: real_digits.from_file(args.digits)} if args.digits else None
    except ValueError as e:
        parser.error(f"--digits: {e}")
    try:
        sets = held_out_sets(args, parts)
    except real_digits.MissingHandwriting as e:
        parser.error(f"{e}; measure digits of your own with --digits FILE")
    for path in args.models:
        model = digits.load_model_file(path)
        print(f"{path} ({len(model.nets)} networks, temperature {model.temperature})")
        for name, marks in sets.items():
            print(f"  {name}: {summary(model, marks)}")


def held_out_sets(
    args: argparse.Namespace, parts: dict[str, real_digits.RealDigits] | None
) -> dict[str, Marks]:
    """The marks to measure, by name: the held-out parts (or `parts`) as `args` asks."""
    sets: dict[str, Marks] = {}
    if args.styles:
        for name in STYLES:
            sets[name] = styled(name, 50 * args.per_digit, args.seed)
    elif args.pens:
        for name, pen_of in PENS.items():
            for part, real in (parts or {"measure": real_digits.part("measure")}).items():
                sets[f"{part}, {name}"] = written(real, args.per_digit, args.seed, pen_of)
    else:
        for part, real in (parts or {p: real_digits.part(p) for p in HELD_OUT}).items():
            sets[f"{part}, simulated squares"] = written(real, args.per_digit, args.seed)
            sets[f"{part}, written plainly"] = plain(real, args.seed)
    return sets


if __name__ == "__main__":
    main()
