"""The handwritten-mark recogniser: from an ink map of one written mark to class probabilities.

The one place that knows how marks are recognised. The mark's significant ink is cropped, its
strokes brought to a common weight, scaled into a 28 x 28 image as MNIST frames its digits
(the glyph's longer side 20 pixels, centred) and sheared upright. A small ensemble of
convolutional networks reads that image; their logits are averaged and, at a calibrated
temperature, made probabilities, so that members who disagree on an unfamiliar hand lower the
confidence. Weights ship in `digits_model.npz` (numpy arrays only, loaded without pickle,
checked against a digest), trained by `training/train_digits.py` (see docs/reader.md).
Inference is numpy alone, all the marks of a sheet in one batch. The model is loaded on first
use, not at import.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from printgen.games.one_page_war.reader.errors import ModelFileError
from printgen.games.one_page_war.reader.quantile import percentile

CLASSES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "S", "empty", "other")
EMPTY = "empty"
OTHER = "other"
MODEL_PATH = Path(__file__).with_name("digits_model.npz")
FORMAT = 5  # the model file's layout; older files (perceptrons) are refused

SIDE = 28  # the network reads SIDE x SIDE pixels
GLYPH = 20  # the mark's longer side inside that
FEATURES = SIDE * SIDE
# Strokes thinner than this share of the glyph's longer side are thickened before scaling, so
# a fine pen and a scanned felt tip look alike to the network.
MIN_STROKE = 0.085

# A mark leaning further than this (horizontal shift per row) is straightened only this far.
MAX_SLANT = 1.0

# Ink below this (0 = paper, 1 = black) is paper grain, JPEG noise or a faint shadow.
INK_FLOOR = 0.16
# Where a patch holds nothing above INK_FLOOR, a mark above this one may still be writing: a
# light pencil peaks at 0.12 to 0.16 in a photo, where empty cells stay under 0.125 (bench
# photos, stress set included). Such a mark is read, but never surely (reader/cells.py).
# Following its strokes further down, to 0.09 or 0.10, would find thin strokes whole but
# flags 7 to 11 % of the empty squares of stress photos (shadows): docs/reader.md.
FAINT_FLOOR = 0.12


@dataclass(frozen=True)
class Marks:
    """The significant ink of a patch: its mask and the connected parts it is made of."""

    ink: np.ndarray  # float32 ink map, 0 paper .. 1 black
    mask: np.ndarray  # bool, the significant ink
    boxes: tuple[tuple[int, int, int, int], ...]  # x, y, w, h of each part, left to right
    level: float = INK_FLOOR  # the ink level the mask was cut at


# Ink counts as written where it stands above this share of the patch's darkest, so that a
# pen's halo and the paper's shading around it drop out, in pencil as in pen.
DARKEST_SHARE = 0.4


def significant_ink(
    ink: np.ndarray, floor: float = INK_FLOOR, darkest_share: float = DARKEST_SHARE
) -> Marks:
    """Which pixels are written ink: above `floor` and above `darkest_share` of the patch's
    darkest ink (so pencil and pen alike), in parts big enough not to be dust, and not a
    remnant of the printed box line running along the patch edge."""
    h, w = ink.shape
    if ink.max() <= floor:
        # Nothing above the floor, which is then the level too; a third to half of a sheet's
        # patches (empty tick boxes and spaces) are spared sorting and labelling.
        return Marks(ink, np.zeros((h, w), bool), (), floor)
    level = max(floor, darkest_share * percentile(ink, 99.5)) if darkest_share else floor
    mask = (ink > level).view(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count == 1:  # paper only
        return Marks(ink, np.zeros((h, w), bool), (), level)
    # A patch holds a handful of parts: judged one by one in Python, not with a dozen numpy
    # operations on arrays of five (a sixth of a sheet's reading went to those).
    dust = max(4, int(0.0015 * h * w))
    boxes, dropped = [], []
    for i, (x, y, bw, bh, area) in enumerate(stats.tolist()[1:], start=1):
        along_x = (y <= 1 or y + bh >= h - 1) and bh < 0.12 * h and bw > 0.3 * w
        along_y = (x <= 1 or x + bw >= w - 1) and bw < 0.12 * w and bh > 0.3 * h
        remnant = (along_x or along_y) and _flush(labels == i, along_y) >= FLUSH_SHARE
        if area >= dust and not remnant:
            boxes.append((x, y, bw, bh))
        else:
            dropped.append(i)
    if dropped:
        keep = np.ones(count, bool)
        keep[0] = False  # the background
        keep[dropped] = False
        kept = keep[labels]
    else:
        kept = mask.view(bool)
    boxes.sort(key=lambda b: b[0])
    return Marks(ink, kept, tuple(boxes), level)


# A printed line a fit put off its place lies flush along the patch's edge, over most of its
# length; a stroke written beside the square's line (a 1 near its side, a 7's bar under its top)
# only meets the edge here and there, and is writing. Parts under this share flush are kept:
# dropped, such a 1 read as an empty square, surely (docs/reader.md, "Writing by the line").
FLUSH_SHARE = 0.6


def _flush(part: np.ndarray, upright: bool) -> float:
    """The share of a part's length (its rows when `upright`, else its columns) that lies on
    the patch's first or last two pixels across, on the side where more of it does."""
    if not upright:
        part = part.T
    rows = part.any(axis=1).sum()
    on_edge = max(part[:, :2].any(axis=1).sum(), part[:, -2:].any(axis=1).sum())
    return float(on_edge) / max(int(rows), 1)


def bounds(marks: Marks) -> tuple[int, int, int, int]:
    """The box around all of the marks' parts (which it must have): x0, y0, x1, y1. The mask is
    the union of its parts, so their boxes bound it (np.nonzero cost more)."""
    x0 = min(x for x, _, _, _ in marks.boxes)
    y0 = min(y for _, y, _, _ in marks.boxes)
    x1 = max(x + w for x, _, w, _ in marks.boxes)
    y1 = max(y + h for _, y, _, h in marks.boxes)
    return x0, y0, x1, y1


def without_underline(marks: Marks) -> Marks | None:
    """The marks without a line drawn under them, where there is one (players mark a 6 apart
    from a 9 so; read with it, an underlined 6 reads unsure); None where there is none. The
    line: a straight stroke along the mark's bottom, as wide as half the mark at least, with
    paper right above it along half its length at least, whether apart from the mark or
    touching it. A 2's base or a 5's flat foot is such a line too: what the mark reads without
    it is for the caller to weigh."""
    if not marks.boxes:
        return None
    x0, y0, x1, y1 = bounds(marks)
    mask = marks.mask[y0:y1, x0:x1]
    h, w = mask.shape
    lowest = h - 1 - np.argmax(mask[::-1], axis=0)  # each column's lowest ink (h - 1: none)
    along = mask[lowest, np.arange(w)] & (lowest >= h - max(3, round(UNDERLINE_BAND * h)))
    found = np.flatnonzero(along)
    if len(found) < UNDERLINE_WIDE * w:
        return None
    # Most marks end here, cheaply: a round bottom sags between its ends, a line does not.
    first, middle, last = lowest[found[[0, len(found) // 2, -1]]].tolist()
    if abs(middle - (first + last) / 2) > 2 + UNDERLINE_SAG * (found[-1] - found[0]):
        return None
    start, stop = _longest_run(along)
    # A mark a pixel or two wide (a sliver of a crease's shade) has no line under it to fit.
    if stop - start < max(UNDERLINE_MIN_PX, UNDERLINE_WIDE * w):
        return None
    columns = np.arange(start, stop)
    low = lowest[start:stop]
    # Each column's ink from its lowest pixel up, unbroken: the line's own thickness where
    # paper lies above it, more where the mark above touches it.
    rows = np.arange(h)[:, None]
    paper = np.where(~mask[:, start:stop] & (rows <= low), rows, -1).max(axis=0)
    runs = low - paper
    thick = float(np.median(runs))
    clear = runs <= 1.5 * thick + 1
    # Straight: a round bottom (a 0's, an 8's) curves up away from a line through it.
    across = columns - columns.mean()
    slope = float(across @ (low - low.mean())) / float(across @ across)
    straying = float(np.abs(low - low.mean() - slope * across).max())
    if (
        clear.mean() < UNDERLINE_CLEAR
        or abs(slope) > UNDERLINE_SLOPE
        or straying > max(1.5, UNDERLINE_STRAY * thick)
    ):
        return None
    bare = mask.copy()
    # The line's own pixels: up from each column's lowest ink, as thick as the line.
    bare[:, start:stop] &= ~(
        (rows > low - np.minimum(runs, round(1.5 * thick + 1))) & (rows <= low)
    )
    above = np.nonzero(bare.any(axis=1))[0]  # the rows the mark above the line holds
    if above.size == 0 or above[-1] - above[0] + 1 < UNDERLINE_TALLER * thick:
        return None
    full = np.zeros_like(marks.mask)
    full[y0:y1, x0:x1] = bare
    _, _, stats, _ = cv2.connectedComponentsWithStats(full.view(np.uint8), connectivity=8)
    dust = max(4, int(0.0015 * full.size))
    boxes = sorted((x, y, bw, bh) for x, y, bw, bh, area in stats.tolist()[1:] if area >= dust)
    return replace(marks, mask=full, boxes=tuple(boxes)) if boxes else None


def _longest_run(flags: np.ndarray) -> tuple[int, int]:
    """The longest stretch of True in `flags` (which holds one), as (start, stop)."""
    edges = np.diff(np.concatenate(([0], flags.view(np.int8), [0])))
    starts, stops = np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]
    longest = int(np.argmax(stops - starts))
    return int(starts[longest]), int(stops[longest])


# An underline lies in the mark's lowest UNDERLINE_BAND of its height, spans at least
# UNDERLINE_WIDE of its width, has paper right above its thickness along UNDERLINE_CLEAR of its
# length, runs straight (at most UNDERLINE_SLOPE steep, its underside nowhere further than
# UNDERLINE_STRAY of its thickness, or 1.5 pixels, from a straight line), and what stands above
# it is UNDERLINE_TALLER times its thickness at least.
UNDERLINE_BAND = 0.22
UNDERLINE_WIDE = 0.5
UNDERLINE_CLEAR = 0.5
UNDERLINE_SLOPE = 0.3
UNDERLINE_STRAY = 0.5
UNDERLINE_TALLER = 3.0
UNDERLINE_SAG = 0.04  # of its length, besides 2 pixels: how far its middle may sag or bow
UNDERLINE_MIN_PX = 3  # the fewest columns a line under a mark spans


def stroke_width(mask: np.ndarray) -> float:
    """The mean width of the strokes of a mask, in pixels: twice its area over its outline."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(c, True) for c in contours)
    return 2.0 * np.count_nonzero(mask) / max(outline, 1.0)


_NEIGHBOURS = np.ones((3, 3), np.uint8)  # a pixel and the eight around it


def features(marks: Marks) -> np.ndarray | None:
    """The network's input for one mark (SIDE x SIDE, flattened), or None when the patch holds
    no significant ink."""
    if not marks.boxes:
        return None
    x0, y0, x1, y1 = bounds(marks)
    # The kept parts with their soft edges (a pixel beyond the mask), nothing else; the soft
    # edge beyond the bounds is cut off either way, so only the bounds are dilated.
    inside = marks.mask[y0:y1, x0:x1]
    near = cv2.dilate(inside.view(np.uint8), _NEIGHBOURS)
    crop = (marks.ink[y0:y1, x0:x1] * near.view(bool)).astype(np.float32, copy=False)
    crop /= max(percentile(marks.ink[marks.mask], 90), 1e-3)
    np.minimum(np.maximum(crop, 0, out=crop), 1, out=crop)  # np.clip costs twice as much
    ch, cw = crop.shape
    longer = max(ch, cw)
    width = stroke_width(inside)
    grow = int(round((MIN_STROKE * longer - width) / 2))
    if grow > 0:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
        crop = cv2.dilate(np.pad(crop, grow + 1), kernel).astype(np.float32)
        ch, cw = crop.shape
        longer = max(ch, cw)
    k = GLYPH / longer
    nh, nw = max(1, round(ch * k)), max(1, round(cw * k))
    interpolation = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
    small = cv2.resize(crop, (nw, nh), interpolation=interpolation)
    image = np.zeros((SIDE, SIDE), np.float32)
    oy, ox = (SIDE - nh) // 2, (SIDE - nw) // 2
    image[oy : oy + nh, ox : ox + nw] = small
    return upright(image).ravel()


def upright(image: np.ndarray) -> np.ndarray:
    """The image sheared so that its ink leans neither way (its second moments' slant gone).
    How far each writer slants is then nothing the networks must learn from the few real hands
    they see: trained so, they accept 1.4 to 2.3 points more of held-out real digits on
    sheets, with fewer misreads (docs/recogniser-experiments.md, "Earlier training runs")."""
    m = cv2.moments(image)
    if m["mu02"] < 1e-2 * max(m["m00"], 1e-6):
        return image  # a flat mark: no slant to measure
    slant = max(-MAX_SLANT, min(MAX_SLANT, m["mu11"] / m["mu02"]))
    below = m["m01"] / m["m00"]  # the shear turns about the ink's centre row
    shear = np.array([[1.0, slant, -slant * below], [0.0, 1.0, 0.0]], np.float32)
    return cv2.warpAffine(image, shear, (SIDE, SIDE), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)


# --- the network ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Conv:
    """A 3 x 3 convolution with ReLU, optionally zero-padded and followed by 2 x 2 max pooling.
    Weights (3, 3, in, out), batch normalisation already folded in."""

    weight: np.ndarray
    bias: np.ndarray
    pad: bool
    pool: bool

    def __call__(self, x: np.ndarray) -> np.ndarray:  # x: (n, h, w, c)
        if self.pad:
            # By hand: np.pad's generic path cost 80 us a call, more than a small batch's layer.
            padded = np.zeros((x.shape[0], x.shape[1] + 2, x.shape[2] + 2, x.shape[3]), x.dtype)
            padded[:, 1:-1, 1:-1] = x
            x = padded
        n, h, w, c = x.shape
        h, w = h - 2, w - 2
        if c == 1:  # nine one-channel slices copy faster than the window's transpose
            columns = np.concatenate(
                [x[:, dy : dy + h, dx : dx + w, :] for dy in range(3) for dx in range(3)], axis=-1
            )
        else:
            # The same columns (dy, dx, channel) in one copy of a view of the 3 x 3 windows:
            # concatenating nine thin slices of many channels took half the layer's time, and
            # sliding_window_view's checks cost four times the view.
            sn, sh, sw, sc = x.strides
            window = np.lib.stride_tricks.as_strided(
                x, (n, h, w, 3, 3, c), (sn, sh, sw, sh, sw, sc), writeable=False
            )
            columns = np.ascontiguousarray(window)
        out = (columns.reshape(n * h * w, 9 * c) @ self.weight.reshape(9 * c, -1)).reshape(
            n, h, w, -1
        )
        if self.pool:
            # Pooling first is the same (the bias is per channel, ReLU keeps order) on a
            # quarter of the values; strided maxima are far faster than a reshaped max.
            out = out[:, : h // 2 * 2, : w // 2 * 2]
            out = np.maximum(out[:, 0::2], out[:, 1::2])
            out = np.maximum(out[:, :, 0::2], out[:, :, 1::2])
        out += self.bias
        return np.maximum(out, 0, out=out)


CHUNK_MARKS = 32  # marks through a network at once (`Net.logits`)


@dataclass(frozen=True)
class Net:
    """Convolutions, then fully connected layers (ReLU between them), logits out."""

    convs: tuple[Conv, ...]
    weights: tuple[np.ndarray, ...]  # (in, out)
    biases: tuple[np.ndarray, ...]

    def logits(self, images: np.ndarray) -> np.ndarray:  # images: (n, SIDE, SIDE)
        # A few dozen marks at a time: a convolution's columns of a whole sheet's marks (some
        # 120) took 40 MB at once, both networks together, the reader's peak; in chunks 11 MB,
        # and a sheet's cells read as fast within the noise (docs/reader.md, "The recogniser").
        if len(images) > CHUNK_MARKS:
            return np.concatenate(
                [
                    self.logits(images[i : i + CHUNK_MARKS])
                    for i in range(0, len(images), CHUNK_MARKS)
                ]
            )
        a = images[..., None]
        for conv in self.convs:
            a = conv(a)
        # Flattened channel first, as the network was trained.
        a = a.transpose(0, 3, 1, 2).reshape(len(a), -1)
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            a = a @ w + b
            if i < len(self.weights) - 1:
                a = np.maximum(a, 0)
        return a


@cache
def _blas_threads_setter() -> Callable[[int], int] | None:
    """`openblas_set_num_threads_local` (OpenBLAS 0.3.27 and later) of numpy's own OpenBLAS,
    when it has it; else None."""
    root = Path(np.__file__).resolve().parent
    for library in [*root.parent.glob("numpy.libs/*openblas*"), *root.glob(".dylibs/*openblas*")]:
        try:
            setter = ctypes.CDLL(str(library)).openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        setter.argtypes, setter.restype = [ctypes.c_int], ctypes.c_int
        return setter
    return None


def _one_blas_thread() -> None:
    """Keep numpy's OpenBLAS to one thread, from the first marks read on, on every thread that
    runs a network.

    The networks' matrices are small: on a loaded machine OpenBLAS's threads spin waiting for
    each other and one sheet takes 2-3 times longer than on a single thread (bench_reader.py).
    It is never set back: despite its name, `openblas_set_num_threads_local` sets the count
    for the whole process (another thread sees it), so the two members, each setting it for
    as long as it ran and then setting it back, raced, and a photo's matrices were multiplied
    on one thread or on two from one reading to the next. The products differ in the sixth
    digit, so the same photo read twice gave other probabilities now and then."""
    setter = _blas_threads_setter()
    if setter is not None:
        setter(1)


# A batch of this many marks or more is read by the ensemble's members side by side, each on a
# thread of its own: numpy's products and copies let go of the interpreter, so on two cores a
# sheet's batch of some 60 marks takes 55 % of the time. On fewer marks a thread costs about
# what it saves.
SIDE_BY_SIDE_MARKS = 32
_side_by_side = True


def read_on_one_thread() -> None:
    """Read every batch on the calling thread alone: for a process that shares the cores with
    others reading photos too (reader/batch.py), where a second thread would only wait."""
    global _side_by_side
    _side_by_side = False


@cache
def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def members_logits(nets: tuple[Net, ...], images: np.ndarray) -> np.ndarray:
    """Each member's logits for the images (marks, members, classes)."""
    if not _side_by_side or len(nets) < 2 or len(images) < SIDE_BY_SIDE_MARKS or _cores() < 2:
        _one_blas_thread()
        return np.stack([net.logits(images) for net in nets], axis=1)
    found: list[np.ndarray | None] = [None] * len(nets)
    failed: list[BaseException] = []

    def run(i: int) -> None:
        try:
            _one_blas_thread()
            found[i] = nets[i].logits(images)
        except BaseException as error:  # raised again on the calling thread
            failed.append(error)

    helpers = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(1, len(nets))]
    for helper in helpers:
        helper.start()
    run(0)
    for helper in helpers:
        helper.join()
    if failed:
        raise failed[0]
    return np.stack(found, axis=1)  # type: ignore[arg-type]


def ensemble_probabilities(logits: np.ndarray, temperature: float) -> np.ndarray:
    """Class probabilities from each member's logits (marks, members, classes): the logits'
    mean at `temperature`, through a softmax. Averaging logits rather than probabilities (a
    geometric mean of the members' beliefs) still lowers the confidence where they disagree,
    and on the held-out real digits it let more right readings clear the same calibrated bar
    with none more wrong (docs/reader.md, "Calibration")."""
    z = np.asarray(logits, np.float64).mean(axis=1) / temperature
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class Model:
    """An ensemble of networks trained apart, their logits averaged (`ensemble_probabilities`).
    A reading below its value's calibrated threshold is unsure: each class has its
    own (`thresholds`, in CLASSES order), none below `threshold`, the floor."""

    nets: tuple[Net, ...]
    temperature: float
    threshold: float
    thresholds: tuple[float, ...] = ()
    # The decision given the rules (reader/joint.py): the candidates' temperature there, and the
    # posterior each class needs (CLASSES order); calibrated by training/train_digits.py.
    joint_temperature: float = 1.0
    joint_thresholds: tuple[float, ...] = ()

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        images = np.asarray(rows, np.float32).reshape(-1, SIDE, SIDE)
        return ensemble_probabilities(members_logits(self.nets, images), self.temperature)

    def threshold_for(self, value: str) -> float:
        """The confidence a reading showing `value` ("3", "*", "S", "_" or "empty") needs to be
        sure; a value that is no single class (two digits) needs the strictest of them all."""
        if not self.thresholds:
            return self.threshold
        name = EMPTY if value in ("_", EMPTY) else value
        if name in CLASSES:
            return max(self.threshold, self.thresholds[CLASSES.index(name)])
        return max(self.threshold, *self.thresholds)

    def joint_threshold_for(self, value: str) -> float:
        """The posterior given the rules a reading showing `value` needs to be sure; the
        recogniser's own threshold while the joint decision has none of its own."""
        if not self.joint_thresholds:
            return self.threshold_for(value)
        name = EMPTY if value in ("_", EMPTY) else value
        if name in CLASSES:
            return max(self.threshold, self.joint_thresholds[CLASSES.index(name)])
        return max(self.threshold, *self.joint_thresholds)

    def with_calibration(
        self, temperature: float, threshold: float, thresholds: tuple[float, ...] = ()
    ) -> Model:
        return replace(self, temperature=temperature, threshold=threshold, thresholds=thresholds)

    def with_joint(self, temperature: float, thresholds: tuple[float, ...]) -> Model:
        return replace(self, joint_temperature=temperature, joint_thresholds=thresholds)


# --- the model file ---------------------------------------------------------------------------


def _digest(arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        if name == "digest":
            continue
        a = np.ascontiguousarray(arrays[name])
        h.update(name.encode())
        h.update(str(a.dtype).encode())
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save_model(path: Path, model: Model) -> None:
    """Write the model as plain numpy arrays (float16 weights) with a digest of them all,
    through a temporary file so a reader never sees half a model."""
    arrays: dict[str, np.ndarray] = {
        "format": np.array(FORMAT, np.int32),
        "classes": np.array(CLASSES),
        "temperature": np.array(model.temperature, np.float32),
        "threshold": np.array(model.threshold, np.float32),
        "thresholds": np.array(model.thresholds or [model.threshold] * len(CLASSES), np.float32),
    }
    if model.joint_thresholds:
        arrays["joint_temperature"] = np.array(model.joint_temperature, np.float32)
        arrays["joint_thresholds"] = np.array(model.joint_thresholds, np.float32)
    for k, net in enumerate(model.nets):
        for i, conv in enumerate(net.convs):
            arrays[f"net{k}_conv{i}_w"] = conv.weight.astype(np.float16)
            arrays[f"net{k}_conv{i}_b"] = conv.bias.astype(np.float32)
            arrays[f"net{k}_conv{i}_shape"] = np.array([conv.pad, conv.pool], np.int8)
        for i, (w, b) in enumerate(zip(net.weights, net.biases, strict=True)):
            arrays[f"net{k}_fc{i}_w"] = w.astype(np.float16)
            arrays[f"net{k}_fc{i}_b"] = b.astype(np.float32)
    arrays["digest"] = np.array(_digest(arrays))
    tmp = path.with_name(path.name + ".tmp.npz")
    # Stored, not deflated: 8 % larger, and read in a third of the time (9 ms to 3 ms), which
    # every photo read in a fresh process pays.
    np.savez(tmp, **arrays)  # type: ignore[arg-type]
    tmp.replace(path)


def _count(names: list[str], prefix: str) -> int:
    """How many of prefix0_..., prefix1_..., ... the file holds."""
    n = 0
    while any(name.startswith(f"{prefix}{n}_") for name in names):
        n += 1
    return n


def _remedy(path: Path) -> str:
    """What to do about a bad model file: the shipped one comes with printgen; any other (the
    bench's --model) was written by a training run."""
    if path.resolve() == MODEL_PATH.resolve():
        return "reinstall printgen or run python -m training.train_digits"
    return "write it again with python -m training.train_digits --out"


def load_model_file(path: Path) -> Model:
    """The model in `path`; a ModelFileError naming the file and what is wrong with it when it is
    missing, truncated, changed since it was written, or made for other classes."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except FileNotFoundError:
        raise ModelFileError(f"{path}: the recogniser's model file is missing") from None
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as error:
        raise ModelFileError(
            f"{path}: the recogniser's model file is damaged or cut short ({error}); "
            f"{_remedy(path)}"
        ) from None
    if "format" not in arrays or int(arrays["format"]) != FORMAT:
        found = int(arrays["format"]) if "format" in arrays else "none"
        raise ModelFileError(f"{path}: model file format {found}, this reader needs {FORMAT}")
    if "digest" not in arrays or str(arrays["digest"]) != _digest(arrays):
        raise ModelFileError(
            f"{path}: the model file was changed after it was written (its digest does not "
            f"match its arrays); {_remedy(path)}"
        )
    classes = tuple(str(c) for c in arrays["classes"])
    if classes != CLASSES:
        raise ModelFileError(f"{path}: model classes {classes} differ from {CLASSES}")
    names = list(arrays)
    nets = []
    for k in range(_count(names, "net")):
        convs = tuple(
            Conv(
                arrays[f"net{k}_conv{i}_w"].astype(np.float32),
                arrays[f"net{k}_conv{i}_b"].astype(np.float32),
                bool(arrays[f"net{k}_conv{i}_shape"][0]),
                bool(arrays[f"net{k}_conv{i}_shape"][1]),
            )
            for i in range(_count(names, f"net{k}_conv"))
        )
        fcs = range(_count(names, f"net{k}_fc"))
        nets.append(
            Net(
                convs,
                tuple(arrays[f"net{k}_fc{i}_w"].astype(np.float32) for i in fcs),
                tuple(arrays[f"net{k}_fc{i}_b"].astype(np.float32) for i in fcs),
            )
        )
    if not nets:
        raise ModelFileError(f"{path}: the model file holds no network")
    thresholds = tuple(float(t) for t in arrays.get("thresholds", ()))
    if thresholds and len(thresholds) != len(CLASSES):
        raise ModelFileError(
            f"{path}: {len(thresholds)} class thresholds for {len(CLASSES)} classes"
        )
    joint = tuple(float(t) for t in arrays.get("joint_thresholds", ()))
    if joint and len(joint) != len(CLASSES):
        raise ModelFileError(
            f"{path}: {len(joint)} thresholds given the rules for {len(CLASSES)} classes"
        )
    model = Model(
        tuple(nets),
        float(arrays["temperature"]),
        float(arrays["threshold"]),
        thresholds,
        float(arrays.get("joint_temperature", 1.0)),
        joint,
    )
    try:
        out = model.probabilities(np.zeros((1, FEATURES), np.float32))
    except ValueError as error:  # layers whose shapes do not chain
        raise ModelFileError(f"{path}: the model's layers do not fit together ({error})") from None
    if out.shape != (1, len(CLASSES)):
        raise ModelFileError(f"{path}: the model gives {out.shape[1]} outputs, not {len(CLASSES)}")
    return model


_model_path = MODEL_PATH


def use_model_file(path: Path) -> None:
    """Read with the model in `path` instead of the shipped one, in this process from now on:
    for the bench, measuring weights trained for cross-validation. A file that cannot be
    loaded is refused here (ModelFileError), before any photo is read."""
    global _model_path
    load_model_file(path)
    _model_path = path
    model.cache_clear()


@cache
def model() -> Model:
    return load_model_file(_model_path)


def classify(feature_rows: list[np.ndarray], using: Model | None = None) -> np.ndarray:
    """Class probabilities (rows in CLASSES order) for each feature row, all in one batch; the
    shipped model unless `using` names another (training calibrates candidates that way)."""
    if not feature_rows:
        return np.zeros((0, len(CLASSES)), np.float64)
    return (using or model()).probabilities(np.stack(feature_rows))
