"""The handwritten-mark recogniser: from an ink map of one written mark to class probabilities.

The one place that knows how marks are recognised. Today: a small multilayer perceptron on a
normalised 20x20 image of the mark plus gradient-orientation histograms and a few shape
measures, its weights shipped as `digits_model.npz` (numpy arrays only, loaded without pickle),
trained by `training/train_digits.py` (see docs/reader.md). Only numpy and OpenCV at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

CLASSES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "S", "empty", "other")
EMPTY = "empty"
OTHER = "other"
MODEL_PATH = Path(__file__).with_name("digits_model.npz")

SIDE = 20  # the normalised mark is SIDE x SIDE pixels
GLYPH = 16  # its longer side inside that
HOG_CELLS = 4
HOG_BINS = 8
FEATURES = SIDE * SIDE + HOG_CELLS * HOG_CELLS * HOG_BINS + 5

# Ink below this (0 = paper, 1 = black) is paper grain, JPEG noise or a faint shadow.
INK_FLOOR = 0.16


@dataclass(frozen=True)
class Marks:
    """The significant ink of a patch: its mask and the connected parts it is made of."""

    ink: np.ndarray  # float32 ink map, 0 paper .. 1 black
    mask: np.ndarray  # bool, the significant ink
    boxes: tuple[tuple[int, int, int, int], ...]  # x, y, w, h of each part, left to right


def significant_ink(ink: np.ndarray) -> Marks:
    """Which pixels are written ink: above the floor and above a share of the patch's darkest
    ink (so pencil and pen alike), in parts big enough not to be dust, and not a remnant of the
    printed box line running along the patch edge."""
    h, w = ink.shape
    top = float(np.percentile(ink, 99.5))
    level = max(INK_FLOOR, 0.4 * top)
    mask = (ink > level).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = np.zeros(count, bool)
    min_area = max(4, int(0.0015 * h * w))
    for i in range(1, count):
        x, y, bw, bh, area = stats[i]
        if area < min_area:
            continue
        along_x = (y <= 1 or y + bh >= h - 1) and bh < 0.12 * h and bw > 0.3 * w
        along_y = (x <= 1 or x + bw >= w - 1) and bw < 0.12 * w and bh > 0.3 * h
        if along_x or along_y:
            continue
        keep[i] = True
    kept = keep[labels]
    boxes = sorted(
        (tuple(int(v) for v in stats[i][:4]) for i in range(1, count) if keep[i]),
        key=lambda b: b[0],
    )
    return Marks(ink, kept, tuple(boxes))  # type: ignore[arg-type]


def features(marks: Marks) -> np.ndarray | None:
    """The model's input for one mark, or None when the patch holds no significant ink."""
    if not marks.boxes:
        return None
    h, w = marks.ink.shape
    ys, xs = np.nonzero(marks.mask)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    crop = np.where(marks.mask, marks.ink, 0.0)[y0:y1, x0:x1].astype(np.float32)
    crop /= max(float(np.percentile(crop[crop > 0], 90)), 1e-3)
    crop = crop.clip(0, 1)
    ch, cw = crop.shape
    k = GLYPH / max(ch, cw)
    nh, nw = max(1, round(ch * k)), max(1, round(cw * k))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    image = np.zeros((SIDE, SIDE), np.float32)
    oy, ox = (SIDE - nh) // 2, (SIDE - nw) // 2
    image[oy : oy + nh, ox : ox + nw] = small
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.hypot(gx, gy)
    angle = (np.arctan2(gy, gx) % np.pi) / np.pi * HOG_BINS
    bins = np.minimum(angle.astype(np.int64), HOG_BINS - 1)
    cell = SIDE // HOG_CELLS
    rows = np.arange(SIDE) // cell
    where = (rows[:, None] * HOG_CELLS + rows[None, :]) * HOG_BINS + bins
    hog = np.bincount(where.ravel(), magnitude.ravel(), HOG_CELLS * HOG_CELLS * HOG_BINS)
    hog_flat = hog.astype(np.float32)
    hog_flat /= float(np.linalg.norm(hog_flat)) + 1e-6
    shape = np.array(
        [
            ch / h,
            cw / w,
            float(marks.mask.sum()) / (h * w) * 4,
            min(cw / ch, 3.0) / 3,
            min(len(marks.boxes), 4) / 4,
        ],
        np.float32,
    )
    return np.concatenate([image.ravel(), hog_flat, shape])


@dataclass(frozen=True)
class Net:
    """One multilayer perceptron: ReLU layers, logits out."""

    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]

    def logits(self, a: np.ndarray) -> np.ndarray:
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            a = a @ w + b
            if i < len(self.weights) - 1:
                a = np.maximum(a, 0)
        return a


@dataclass(frozen=True)
class Model:
    """A small ensemble of perceptrons trained apart: inputs standardised, each net's softmax
    (with a calibrated temperature) averaged. Nets that disagree lower the confidence, which is
    what keeps an unfamiliar hand from being read surely."""

    mean: np.ndarray
    scale: np.ndarray
    nets: tuple[Net, ...]
    temperature: float
    threshold: float  # calibrated confidence below which a reading is unsure

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        a = (np.atleast_2d(x).astype(np.float32) - self.mean) / self.scale
        total = np.zeros((a.shape[0], len(CLASSES)), np.float64)
        for net in self.nets:
            z = net.logits(a) / self.temperature
            z -= z.max(axis=1, keepdims=True)
            e = np.exp(z)
            total += e / e.sum(axis=1, keepdims=True)
        return total / len(self.nets)

    def with_calibration(self, temperature: float, threshold: float) -> Model:
        return replace(self, temperature=temperature, threshold=threshold)


def save_model(path: Path, model: Model) -> None:
    arrays: dict[str, np.ndarray] = {
        "mean": model.mean.astype(np.float32),
        "scale": model.scale.astype(np.float32),
        "temperature": np.array(model.temperature, np.float32),
        "threshold": np.array(model.threshold, np.float32),
        "classes": np.array(CLASSES),
    }
    for k, net in enumerate(model.nets):
        for i, (w, b) in enumerate(zip(net.weights, net.biases, strict=True)):
            arrays[f"net{k}_w{i}"] = w.astype(np.float16)
            arrays[f"net{k}_b{i}"] = b.astype(np.float32)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def load_model_file(path: Path) -> Model:
    with np.load(path, allow_pickle=False) as data:
        classes = tuple(str(c) for c in data["classes"])
        if classes != CLASSES:
            raise ValueError(f"{path}: model classes {classes} differ from {CLASSES}")
        nets = []
        k = 0
        while f"net{k}_w0" in data.files:
            layers = sum(1 for name in data.files if name.startswith(f"net{k}_w"))
            nets.append(
                Net(
                    tuple(data[f"net{k}_w{i}"].astype(np.float32) for i in range(layers)),
                    tuple(data[f"net{k}_b{i}"] for i in range(layers)),
                )
            )
            k += 1
        if not nets:  # a single net, as the first models were saved
            layers = sum(1 for name in data.files if name.startswith("w"))
            nets.append(
                Net(
                    tuple(data[f"w{i}"].astype(np.float32) for i in range(layers)),
                    tuple(data[f"b{i}"] for i in range(layers)),
                )
            )
        return Model(
            mean=data["mean"],
            scale=data["scale"],
            nets=tuple(nets),
            temperature=float(data["temperature"]),
            threshold=float(data["threshold"]),
        )


@cache
def model() -> Model:
    return load_model_file(MODEL_PATH)


def classify(feature_rows: list[np.ndarray], using: Model | None = None) -> np.ndarray:
    """Class probabilities (rows in CLASSES order) for each feature row; the shipped model
    unless `using` names another (training calibrates candidates that way)."""
    if not feature_rows:
        return np.zeros((0, len(CLASSES)), np.float32)
    return (using or model()).probabilities(np.stack(feature_rows))
