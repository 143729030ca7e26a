"""Train the One Page War mark recogniser (v5: a small ensemble of convolutional networks) and
write its weights as plain numpy arrays (printgen/games/one_page_war/reader/digits_model.npz).

    .venv/bin/pip install -e '.[train]'          # PyTorch (CPU build) and scikit-learn
    .venv/bin/python -m training.train_digits    # [--seed 1] [--nets 2] [--other-hands-nets 0] ...
    .venv/bin/python -m training.train_digits --fold 2 --out fold2.npz   # cross-validation

Optional, handwriting fonts (Debian packages; unpacked anywhere, named by an environment
variable, or installed system-wide):

    apt-get download fonts-bwht fonts-dkg-handwriting fonts-breip fonts-humor-sans \\
        fonts-comic-neue fonts-klee && for d in *.deb; do dpkg -x "$d" fonts; done
    export PRINTGEN_HANDWRITING_FONTS=$PWD/fonts

Learns from (all offline, nothing downloaded):
- the TRAIN part of the real handwritten digits (training/real_digits.py), each written again
  and again into simulated squares (training/views.py): other pens and pencils, sizes, slants,
  bends, positions, box lines of both sheet versions, photos of every quality the reader takes;
  networks asked for with --other-hands-nets take half their real digits from Semeion's Italian
  writers instead (training/other_hands.py, rounds 0 to 3; not shipped, so kept by hand first);
- the procedural writers and training fonts of training/handwriting.py: digits, stars, S, other
  marks (letters, scribbles, crosses, struck-out digits, two digits as one mark);
- scikit-learn's bundled 8 x 8 digits (the first 80 %);
- squares cropped by the reader itself from whole synthetic photos (tests/photo_corpus.py)
  written with TRAIN digits and training writers.
Calibrated on what it never learnt from: photos written with the CALIBRATION digits and held-out
writers, read exactly as the reader reads them, the rules' cross-check included. The MEASURE
digits are for the benchmark and the tests only. Everything follows from --seed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import cache, partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from printgen.games.one_page_war.reader import digits
from printgen.games.one_page_war.reader.cells import on_a_square
from printgen.games.one_page_war.reader.truth import cell_key
from training import handwriting as hw
from training import other_hands, real_digits, views

# Letters and signs for "another mark", leaving out those a hand makes like a digit (a ? like a
# 2 or 7, a b like a 6, a g like a 9...): the recogniser needs not tell those apart.
LETTERS = "AEFHKMNPRUVWXYkmnprwx#+=&%@"

# Views of each class, as shares of --views (digits 1.0 each).
SHARES = {"*": 0.8, "S": 0.6, digits.OTHER: 1.5, digits.EMPTY: 0.3}
CHUNK = 250  # views made by one task (its own seed), whatever the number of workers
# Real digits written with a felt tip or marker (strokes 15 to 26 % of the digit's height, past
# what real_digits.random_pen gives): on held-out real digits at 20 to 24 %, networks that never
# saw such strokes read 90 % right and accepted 42 % (`measure_digits --pens`;
# docs/recogniser-experiments.md).
FAT_PENS = 0.1
# Networks asked for with --other-hands-nets learn from other hands than MNIST's too: in their
# views, this share of the real digits are Italian writers' (training/other_hands.py). Where
# two networks disagree, on a hand one of them never saw, the ensemble is unsure
# (docs/recogniser-experiments.md, "Other hands").
OTHER_HANDS = 0.5


# --- what is written in a view ----------------------------------------------------------------


@dataclass(frozen=True)
class Sources:
    real: real_digits.RealDigits | None  # MNIST's
    writers: tuple[hw.Writer, ...]
    fonts: tuple[str, ...]
    sk: tuple[np.ndarray, np.ndarray] | None
    other: real_digits.RealDigits | None = None  # other hands', written OTHER_HANDS of the time

    @property
    def has_real(self) -> bool:
        return self.real is not None or self.other is not None


# What training needs beyond the run-time install (the `train` extra), checked before any work:
# without PyTorch a run failed after 2.7 minutes of simulated squares and photos, with a
# worker's traceback; without scikit-learn it went on with no 8x8 digits, and so trained
# other weights than the documented command makes.
TRAIN_MODULES = (("PyTorch", "torch"), ("scikit-learn", "sklearn"))


@cache
def training_sources(more_hands: bool = False) -> Sources:
    # Both are there: main() stops at once where either is not (TRAIN_MODULES, load_all).
    real = real_digits.part("train")
    images, labels = hw.sklearn_digits()
    cut = int(len(labels) * 0.8)  # the last fifth is never used
    sk = (images[:cut], labels[:cut])
    writers = tuple(hw.writer(s, held_out=False) for s in range(3000))
    fonts = tuple(f for f in hw.TRAIN_FONTS if hw.find_font(f))
    other = other_hands.part("train") if more_hands else None
    return Sources(real, writers, fonts, sk, other)


def _hand(src: Sources, rng: np.random.Generator) -> real_digits.RealDigits:
    """Whose real digits a view is written with: MNIST's, or other hands' OTHER_HANDS of the
    time where the sources hold both."""
    hands = [h for h in (src.real, src.other) if h is not None]
    if not hands:
        raise ValueError("no real handwritten digits to write with")
    return hands[-1] if len(hands) == 2 and rng.random() < OTHER_HANDS else hands[0]


def _real(src: Sources, digit: int, rng: np.random.Generator) -> views.Pen:
    real = _hand(src, rng)
    i = int(rng.choice(real.of(digit)))
    pen = real_digits.random_pen(rng)
    if rng.random() < FAT_PENS:
        pen = replace(pen, stroke=float(rng.uniform(0.15, 0.26)))

    def write(size: tuple[int, int], box: views.Inner, r: np.random.Generator) -> np.ndarray:
        return real_digits.write_digit(real.images[i], real.skeleton(i), size, box, pen, r)

    return write


def _drawn(glyph: str, w: hw.Writer) -> views.Pen:
    def write(size: tuple[int, int], box: views.Inner, r: np.random.Generator) -> np.ndarray:
        return hw.draw_glyph(glyph, size, w, r, box)

    return write


def _sklearn(src: Sources, digit: int, w: hw.Writer, rng: np.random.Generator) -> views.Pen:
    assert src.sk is not None
    images, labels = src.sk
    image = images[int(rng.choice(np.flatnonzero(labels == digit)))]

    def write(size: tuple[int, int], box: views.Inner, r: np.random.Generator) -> np.ndarray:
        x0, y0, x1, y1 = box
        k = min(x1 - x0, y1 - y0) * r.uniform(0.75, 1.1) / 32
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        m = np.array([[k, 0, cx - 16 * k], [0, k, cy - 16 * k]], np.float32)
        return cv2.warpAffine(image, m, (size[1], size[0])) * w.darkness

    return write


def _both(first: views.Pen, second: views.Pen, split: float = 0.5) -> views.Pen:
    """Two marks side by side in one box."""

    def write(size: tuple[int, int], box: views.Inner, r: np.random.Generator) -> np.ndarray:
        x0, y0, x1, y1 = box
        mid = x0 + (x1 - x0) * split
        return np.maximum(first(size, (x0, y0, mid, y1), r), second(size, (mid, y0, x1, y1), r))

    return write


def _struck(mark: views.Pen) -> views.Pen:
    """A mark crossed out: one or two strokes right across the box, corner to corner or nearly,
    never a short bar that a 7 or a 4 might have."""

    def write(size: tuple[int, int], box: views.Inner, r: np.random.Generator) -> np.ndarray:
        ink = mark(size, box, r)
        x0, y0, x1, y1 = box
        level = float(np.percentile(ink, 99.5))
        thick = max(1, int(round((y1 - y0) * r.uniform(0.04, 0.1))))
        for k in range(int(r.integers(1, 3))):
            top, bottom = y0 + r.uniform(0, 0.25) * (y1 - y0), y1 - r.uniform(0, 0.25) * (y1 - y0)
            ends = (top, bottom) if k == 0 else (bottom, top)
            a = (int(x0 - r.uniform(0, 0.05) * (x1 - x0)), int(ends[0]))
            b = (int(x1 + r.uniform(0, 0.05) * (x1 - x0)), int(ends[1]))
            cv2.line(ink, a, b, level, thick, cv2.LINE_AA)
        return ink

    return write


def _dust(size: tuple[int, int], box: views.Inner, r: np.random.Generator) -> np.ndarray:
    """What an empty square may hold: a speck, a pencil touch, an eraser's grey smear."""
    ink = np.zeros(size, np.float32)
    x0, y0, x1, y1 = box
    for _ in range(int(r.integers(0, 4))):
        centre = (int(r.uniform(x0, x1)), int(r.uniform(y0, y1)))
        cv2.circle(ink, centre, int(r.integers(1, 4)), float(r.uniform(0.2, 0.8)), -1)
    if r.random() < 0.4:
        smear = cv2.GaussianBlur(r.uniform(0, 1, size).astype(np.float32), (0, 0), size[0] / 8)
        ink = np.maximum(ink, (smear - smear.mean()).clip(0, None) * r.uniform(0.5, 2.5))
    return ink.clip(0, 1)


def mark_for(label: str, src: Sources, rng: np.random.Generator) -> tuple[str, views.Pen | None]:
    """Which box (square or S space) and what is written in it, for one view of `label`."""
    w = src.writers[int(rng.integers(0, len(src.writers)))]
    r = rng.random()
    if label in hw.DIGITS:
        digit = int(label)
        if src.has_real and r < 0.75:
            return "square", _real(src, digit, rng)
        if src.sk is not None and r > 0.95:
            return "square", _sklearn(src, digit, w, rng)
        return "square", _drawn(label, w)
    if label == "*":
        return "square", _drawn(hw.STAR, w)
    if label == "S":
        return ("allies" if rng.random() < 0.8 else "square"), _drawn(hw.ALLIES, w)
    if label == digits.EMPTY:
        return ("square" if rng.random() < 0.8 else "allies"), (_dust if r < 0.7 else None)
    # Another mark: no digit, star or S.
    kind = "square" if rng.random() < 0.85 else "allies"
    if r < 0.2 and src.fonts:
        letter = hw.Writer(**{**w.__dict__, "font": str(rng.choice(src.fonts))})
        return kind, _drawn(str(rng.choice(list(LETTERS))), letter)
    if r < 0.4:  # two digits written as one mark: the reader reads such a square by its halves
        a, b = (str(d) for d in rng.integers(0, 10, 2))
        if src.has_real and rng.random() < 0.6:
            return kind, _both(_real(src, int(a), rng), _real(src, int(b), rng))
        return kind, _drawn(a + b, w)
    if r < 0.55 and src.has_real:
        return kind, _struck(_real(src, int(rng.integers(0, 10)), rng))
    return kind, _drawn(hw.OTHER, w)


def make_views(task: tuple[int, int, int, int, bool]) -> np.ndarray:
    """`count` views of class `label_index`, as the recogniser's uint8 input images, with other
    hands or not; a view whose ink the reader would not even see (it calls that square empty) is
    made again."""
    seed, label_index, chunk, count, more_hands = task
    stream = [seed, label_index, chunk, 1] if more_hands else [seed, label_index, chunk]
    rng = np.random.default_rng(stream)
    src = training_sources(more_hands)
    label = digits.CLASSES[label_index]
    out = np.zeros((count, digits.SIDE, digits.SIDE), np.uint8)
    made = tries = 0
    while made < count and tries < 20 * count:
        tries += 1
        kind, write = mark_for(label, src, rng)
        box = views.random_box(kind, rng)
        ink = views.view(box, write, views.random_camera(rng), rng)
        row = digits.features(digits.significant_ink(ink))
        if row is None:
            continue
        out[made] = np.round(row.reshape(digits.SIDE, digits.SIDE) * 255)
        made += 1
    return out[:made]


def views_dataset(
    per_class: int, seed: int, workers: int, more_hands: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    tasks = []
    for index, label in enumerate(digits.CLASSES):
        total = int(per_class * SHARES.get(label, 1.0))
        for chunk, start in enumerate(range(0, total, CHUNK)):
            tasks.append((seed, index, chunk, min(CHUNK, total - start), more_hands))
    xs, ys = [], []
    with ProcessPoolExecutor(workers) as pool:
        for (_, index, _, _, _), images in zip(tasks, pool.map(make_views, tasks), strict=True):
            xs.append(images)
            ys.append(np.full(len(images), index))
    return np.concatenate(xs), np.concatenate(ys)


# --- squares as the reader crops them from whole photos ---------------------------------------

Cell = tuple[str, str, np.ndarray]  # kind ("square" or "allies"), what is written, ink patch


@dataclass(frozen=True)
class SheetPhoto:
    """A photo read up to its ink, with what is written in each cell: enough to read it again
    with any candidate model."""

    name: str
    ink: Any  # reader.cells.Ink
    rectified: np.ndarray
    geometry: Any  # SheetGeometry
    layout: str
    version: int
    mode: str
    truth: dict[str, str]  # keyed "kind/arena/side/index"

    def cells(self) -> list[Cell]:
        from printgen.games.one_page_war.geometry import Kind
        from printgen.games.one_page_war.reader.cells import (
            ALLIES_INSET_MM,
            SQUARE_INSET_MM,
            crop,
        )

        out: list[Cell] = []
        for e in self.geometry.elements:
            if e.kind is Kind.SQUARE:
                out.append(("square", self.truth[cell_key(e)], crop(self.ink, e, SQUARE_INSET_MM)))
            elif e.kind is Kind.ALLIES:
                out.append(("allies", self.truth[cell_key(e)], crop(self.ink, e, ALLIES_INSET_MM)))
        return out


def read_photo_file(path: Path, truth: dict[str, str]) -> SheetPhoto | None:
    """A photo located, rectified and evened out as the reader does it; None (and a note) when
    the reader refuses it."""
    from printgen.games.one_page_war.reader.cells import Ink
    from printgen.games.one_page_war.reader.errors import PhotoError
    from printgen.games.one_page_war.reader.locate import locate, rectify
    from printgen.games.one_page_war.reader.photo import load_photo

    grey = load_photo(path)
    try:
        located = locate(grey, str(path))
    except PhotoError as error:
        print(f"  skipped {path.name}: {error}")
        return None
    rectified = rectify(grey, located)
    return SheetPhoto(
        path.name,
        Ink.of(rectified),
        rectified,
        located.geometry,
        located.tag.layout,
        located.tag.version,
        located.tag.mode,
        truth,
    )


def _corpus() -> Any:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import photo_corpus

    return photo_corpus


SIZES = ((1600, 1200), (2016, 1512), (4032, 3024))


def _one_photo(task: tuple[int, bool, str | None, int, int]) -> SheetPhoto | None:
    seed, held_out, part, size_index, version = task
    photo_corpus = _corpus()
    rng = np.random.default_rng([seed, 5])
    real = real_digits.part(part) if part else None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{seed}.jpg"
        photo = photo_corpus.make_photo(
            path,
            seed,
            SIZES[size_index],
            held_out=held_out,
            finished=bool(rng.random() < 0.75),
            version=version,
            real=real,
        )
        return read_photo_file(path, photo_corpus.truth_names(photo.truth))


def sheet_photos(
    seeds: range, held_out: bool, part: str | None, workers: int, sizes: tuple[int, ...] = (0, 1)
) -> list[SheetPhoto]:
    """Synthetic photos of filled sheets, one a seed, every version of the layout in turn, read
    up to their ink. With `part`, the digits are that part's real handwriting."""
    from printgen.games.one_page_war.layout import layout_versions

    versions = layout_versions("standard")
    tasks = [
        (s, held_out, part, sizes[i % len(sizes)], versions[(i // len(sizes)) % len(versions)])
        for i, s in enumerate(seeds)
    ]
    with ProcessPoolExecutor(workers) as pool:
        return [p for p in pool.map(_one_photo, tasks) if p is not None]


def folder_photos(folder: Path) -> list[SheetPhoto]:
    """Real (or kept) photos: each PHOTO.jpg or PHOTO.png beside its answer key PHOTO.json,
    what each square and S space holds (reader/truth.py), as `printgen one-page-war answer-key`
    and `python tests/photo_corpus.py OUT` write them."""
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in (".jpg", ".jpeg", ".png") and path.with_suffix(".json").exists():
            photo = read_photo_file(path, json.loads(path.with_suffix(".json").read_text()))
            if photo is not None:
                out.append(photo)
    return out


def cell_label(truth: str) -> str | None:
    """The recogniser's class for what a cell holds (None: two digits, read as halves)."""
    if truth in ("_", "empty"):
        return digits.EMPTY
    if len(truth) > 1:
        return None
    return truth


def cells_dataset(photos: list[SheetPhoto]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for photo in photos:
        for _, truth, patch in photo.cells():
            label = cell_label(truth)
            f = digits.features(digits.significant_ink(patch))
            if label is None or f is None:
                continue
            xs.append(np.round(f.reshape(digits.SIDE, digits.SIDE) * 255).astype(np.uint8))
            ys.append(digits.CLASSES.index(label))
    return np.stack(xs), np.array(ys)


# --- the networks -----------------------------------------------------------------------------

CHANNELS = (16, 32, 64)
HIDDEN = 128


@dataclass(frozen=True)
class Recipe:
    """How one network is trained."""

    epochs: int = 6
    channels: tuple[int, int, int] = CHANNELS
    elastic: float = 0.3  # bend during training, of the image's half-width (0.3: about 2 px)
    ema: float = 0.0  # exponential moving average of the weights (0: none), e.g. 0.999


def torch_net(channels: tuple[int, int, int] = CHANNELS) -> Any:
    """Three 3 x 3 convolutions (the first two padded and pooled), two dense layers: about
    230,000 parameters on a 28 x 28 image."""
    import torch.nn as nn

    c1, c2, c3 = channels
    after = (digits.SIDE // 4 - 2) ** 2
    return nn.Sequential(
        nn.Conv2d(1, c1, 3, padding=1),
        nn.BatchNorm2d(c1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(c1, c2, 3, padding=1),
        nn.BatchNorm2d(c2),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(c2, c3, 3),
        nn.BatchNorm2d(c3),
        nn.ReLU(),
        nn.Flatten(),
        nn.Dropout(0.25),
        nn.Linear(c3 * after, HIDDEN),
        nn.ReLU(),
        nn.Dropout(0.25),
        nn.Linear(HIDDEN, len(digits.CLASSES)),
    )


def export(net: Any) -> digits.Net:
    """The trained network as digits.Net: batch normalisation folded into the convolutions."""
    import torch.nn as nn

    layers = list(net)
    convs: list[digits.Conv] = []
    dense_w: list[np.ndarray] = []
    dense_b: list[np.ndarray] = []
    for i, layer in enumerate(layers):
        if isinstance(layer, nn.Conv2d):
            w = layer.weight.detach().double().numpy()
            b = layer.bias.detach().double().numpy()
            bn = layers[i + 1]
            assert isinstance(bn, nn.BatchNorm2d)
            scale = bn.weight.detach().double().numpy() / np.sqrt(
                bn.running_var.double().numpy() + bn.eps
            )
            w = w * scale[:, None, None, None]
            b = (b - bn.running_mean.double().numpy()) * scale + bn.bias.detach().double().numpy()
            pooled = any(isinstance(x, nn.MaxPool2d) for x in layers[i + 1 : i + 4])
            convs.append(
                digits.Conv(
                    w.transpose(2, 3, 1, 0).astype(np.float32),
                    b.astype(np.float32),
                    pad=layer.padding[0] == 1,
                    pool=pooled,
                )
            )
        elif isinstance(layer, nn.Linear):
            dense_w.append(layer.weight.detach().numpy().T.astype(np.float32))
            dense_b.append(layer.bias.detach().numpy().astype(np.float32))
    return digits.Net(tuple(convs), tuple(dense_w), tuple(dense_b))


def _augment(x: Any, gen: Any, elastic: float) -> Any:
    """Small changes a crop can show from one photo to the next, and one hand from the next: a
    pixel's shift, a few percent of scale, turn and shear, a smooth bend, strokes a little
    bolder or finer."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    s = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.2
    a = (torch.rand(n, generator=gen) - 0.5) * 0.2
    sh = (torch.rand(n, generator=gen) - 0.5) * 0.2
    t = (torch.rand(n, 2, generator=gen) - 0.5) * 0.16
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = s * torch.cos(a)
    theta[:, 0, 1] = -s * torch.sin(a) + sh
    theta[:, 1, 0] = s * torch.sin(a)
    theta[:, 1, 1] = s * torch.cos(a)
    theta[:, :, 2] = t
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    # An elastic bend: a smooth random displacement, up to about two pixels.
    coarse = (torch.rand(n, 2, 4, 4, generator=gen) - 0.5) * elastic
    bend = F.interpolate(coarse, size=x.shape[-2:], mode="bicubic", align_corners=False)
    x = F.grid_sample(x, grid + bend.permute(0, 2, 3, 1), align_corners=False)
    pick = torch.rand(n, generator=gen)
    bolder = F.max_pool2d(x, 3, 1, 1)
    finer = -F.max_pool2d(-x, 3, 1, 1)
    x = torch.where((pick < 0.15)[:, None, None, None], 0.5 * (x + bolder), x)
    x = torch.where((pick > 0.9)[:, None, None, None], 0.5 * (x + finer), x)
    return x


def _train_task(task: tuple[np.ndarray, np.ndarray, np.ndarray, int, Recipe]) -> digits.Net:
    x, y, pick, seed, recipe = task
    return train_net(x[pick], y[pick], seed, recipe)


def train_net(x: np.ndarray, y: np.ndarray, seed: int, recipe: Recipe) -> digits.Net:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = torch_net(recipe.channels)
    # The averaged weights: a flatter optimum than the last step's, which reads unseen hands
    # at least as well and is less often confidently wrong.
    averaged = [p.detach().clone() for p in net.parameters()] if recipe.ema else []
    epochs = recipe.epochs
    batch = 128
    steps = epochs * (len(y) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    images = torch.from_numpy(x)
    labels = torch.from_numpy(y.astype(np.int64))
    net.train()
    for epoch in range(epochs):
        order = torch.randperm(len(y), generator=gen)
        total, right, seen = 0.0, 0, 0
        for start in range(0, len(y) - batch + 1, batch):
            index = order[start : start + batch]
            xb = _augment(images[index].float()[:, None] / 255, gen, recipe.elastic)
            out = net(xb)
            loss = F.cross_entropy(out, labels[index])
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
            if averaged:
                with torch.no_grad():
                    for a, p in zip(averaged, net.parameters(), strict=True):
                        a.lerp_(p, 1 - recipe.ema)
            total += float(loss.detach()) * batch
            right += int((out.argmax(1) == labels[index]).sum())
            seen += batch
        print(
            f"    network seed {seed}, epoch {epoch + 1}/{epochs}: loss {total / seen:.4f}, "
            f"right {right / seen:.4f}",
            flush=True,
        )
    if averaged:
        with torch.no_grad():
            for a, p in zip(averaged, net.parameters(), strict=True):
                p.copy_(a)
            # Batch statistics for the averaged weights: one pass over part of the data.
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.reset_running_stats()
                    m.momentum = None  # a plain mean over the pass
            sample = torch.randperm(len(y), generator=gen)[:20_000]
            for start in range(0, len(sample), 500):
                xb = images[sample[start : start + 500]].float()[:, None] / 255
                net(_augment(xb, gen, recipe.elastic))
    net.eval()
    exported = export(net)
    with torch.no_grad():  # the numpy network must give what the torch one gives
        probe = images[:64].float()[:, None] / 255
        want = net(probe).numpy()
    got = exported.logits(probe[:, 0].numpy())
    if not np.allclose(want, got, atol=1e-3):
        raise SystemExit(f"export differs from the trained net by {np.abs(want - got).max()}")
    return exported


# --- calibration -----------------------------------------------------------------------------

# No class's threshold is below this: where the calibration photos hold no wrong reading of a
# class, a hand never seen may still bring one. 0.997 since 2026-12-06 (docs/rulings.md, "The
# photo reader (the rules as evidence)" 14): at 0.995, misreads passed at 0.9953 to 0.9968, on
# a crumpled sheet of the bench and on Turkish writers' digits; the price is 2 to 4.5 points of
# squares accepted on every set.
MIN_THRESHOLD = 0.997
MIN_CALIBRATION_SQUARES = 1000
# The recogniser's temperature. Never below 1, as the networks are trained: sharpened, their
# 0.99 reads as 0.9999 and the bar fitted just above the surest wrong calibration reading has
# no room left for the next hand. Chosen by the calibration at 0.6 and 0.5, two sets of
# weights accepted 1 and 3 points more of the calibration squares than at 1.0, and on 150
# sheets of held-out real digits left 2 and 6 misreads unflagged (docs/reader.md).
TEMPERATURES = (1.0, 1.25, 1.5)
# The temperature of the candidates in the reading given the rules (reader/joint.py), on top
# of the recogniser's own: above 1 the rules weigh more against the handwriting. Never below 1:
# that would make the handwriting surer than the recogniser's own calibrated probabilities, and
# the rules would then "settle" squares they leave open (on the shipped model's calibration
# photos at 0.35, twelve squares were accepted wrong at 0.99 and more given the rules, each one
# where the ticks left room for the true number and the wrong one alike).
JOINT_TEMPERATURES = (1.0, 1.25, 1.5)
# A class needs this many wrong readings above the floor for a threshold of its own: the
# highest of fewer says little about the next hand, so such classes share one threshold, the
# highest wrong reading among all of them.
OWN_THRESHOLD_WRONG = 5


class Remembering:
    """A model that remembers each input's per-network logits, so that trying one calibration
    after another runs the networks once. `calibrated` holds the calibration being tried; the
    decision given the rules is made without a threshold, so that its posteriors are measured."""

    def __init__(self, model: digits.Model) -> None:
        self.model = model
        self.calibrated = model
        self.trying(model.temperature)
        self._logits: dict[bytes, np.ndarray] = {}

    def trying(
        self,
        temperature: float,
        thresholds: tuple[float, ...] = (),
        joint_temperature: float = 1.0,
    ) -> None:
        """Try a temperature; with `thresholds`, the recogniser's own decision is made with
        them (else every reading is sure on its own), and the rules' at `joint_temperature`."""
        none = (0.0,) * len(digits.CLASSES)
        self.calibrated = self.model.with_calibration(temperature, 0.0, thresholds).with_joint(
            joint_temperature, none
        )

    @property
    def temperature(self) -> float:
        return self.calibrated.temperature

    @property
    def joint_temperature(self) -> float:
        return self.calibrated.joint_temperature

    def threshold_for(self, value: str) -> float:
        return self.calibrated.threshold_for(value)

    def joint_threshold_for(self, value: str) -> float:
        return 0.0

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, np.float32).reshape(len(rows), -1)
        keys = [r.tobytes() for r in rows]
        todo = [i for i, k in enumerate(keys) if k not in self._logits]
        if todo:
            images = rows[todo].reshape(-1, digits.SIDE, digits.SIDE)
            found = np.stack([net.logits(images) for net in self.model.nets], axis=1)
            for i, z in zip(todo, found, strict=True):
                self._logits[keys[i]] = z.astype(np.float64)
        logits = np.stack([self._logits[k] for k in keys])  # (n, nets, classes)
        return digits.ensemble_probabilities(logits, self.temperature)


@dataclass(frozen=True)
class Outcome:
    """One cell read with a candidate calibration and no threshold on the decision measured:
    the value it shows, how sure, whether it is right, and whether something other than that
    threshold (the rules, "no digit", glare, a sure reading the rules contradict) flags it."""

    kind: str
    truth: str
    value: str
    confidence: float
    right: bool
    flagged: bool
    kept: bool = False  # sure whatever the threshold: read surely alone, the rules agreeing


def read_sheets(model: Any, photos: list[SheetPhoto]) -> list[Any]:
    """Every calibration photo's cells read with `model`, before the rules (cells.read_sheet)."""
    from printgen.games.one_page_war.reader.cells import read_sheet
    from printgen.games.one_page_war.sheet import Mode

    return [
        read_sheet(p.ink, p.geometry, p.rectified, using=model, mode=Mode(p.mode)) for p in photos
    ]


def outcomes(
    model: Any, photos: list[SheetPhoto], sheets: list[Any] | None = None, joint: bool = False
) -> list[Outcome]:
    """The cells of the photos as the reader decides them: on their own (`joint` False), with
    the rules' check of impossible values; or given the rules (reader/joint.py)."""
    from printgen.games.one_page_war.layout import load_layout
    from printgen.games.one_page_war.reader.crosscheck import cross_check
    from printgen.games.one_page_war.sheet import Mode

    out = []
    for photo, sheet in zip(photos, sheets or read_sheets(model, photos), strict=True):
        layout = load_layout(photo.layout, photo.version)
        checked = cross_check(sheet, layout, Mode(photo.mode), using=model, joint=joint)
        for kind, readings in (("square", checked.squares), ("allies", checked.allies)):
            for r in readings:
                truth = photo.truth[cell_key(r.element)]
                kept = joint and not r.unsure and not r.settled_by_rules
                out.append(
                    Outcome(kind, truth, r.value, r.confidence, r.value == truth, r.unsure, kept)
                )
    return out


@dataclass(frozen=True)
class CalibrationViews:
    """Simulated squares of calibration digits as the reader sees them: the networks' input,
    the truth, and what the reader itself doubts whatever the networks say (cells._marks: a
    mark read from the faint look; cells.holds_a_mark: "empty" with a mark in it)."""

    rows: np.ndarray
    truths: list[str]
    faint: list[bool]
    heights: list[float | None]

    def doubted(self, i: int, value: str) -> bool:
        from printgen.games.one_page_war.reader.cells import holds_a_mark

        empty = value in ("_", digits.EMPTY)
        return self.faint[i] or (empty and holds_a_mark(self.heights[i]))


def calibration_views(model: Any, per_digit: int, seed: int) -> CalibrationViews:
    """Each calibration digit written into simulated squares, as the recogniser's probabilities:
    sheets from played games seldom hold a 0, an 8 or a 9, so photos alone would leave those
    digits' thresholds unmeasured."""
    from printgen.games.one_page_war.reader import cells

    real = real_digits.part("calibration")
    src = Sources(real, (), (), None)
    rng = np.random.default_rng([seed, 23])
    rows: list[np.ndarray] = []
    truths: list[str] = []
    faint: list[bool] = []
    heights: list[float | None] = []
    for digit in range(10):
        for _ in range(per_digit):
            box, write = views.random_box("square", rng), _real(src, digit, rng)
            marks, faintly = cells._marks(views.view(box, write, views.random_camera(rng), rng))
            row = digits.features(marks)
            if row is not None:
                rows.append(row)
                truths.append(str(digit))
                faint.append(faintly)
                heights.append(cells.marks_mm(marks))
    return CalibrationViews(np.stack(rows), truths, faint, heights)


def view_outcomes(model: Any, v: CalibrationViews) -> list[Outcome]:
    """The simulated squares read on their own, without the rules."""
    p = on_a_square(model.probabilities(v.rows))
    out = []
    for i, (truth, q) in enumerate(zip(v.truths, p, strict=True)):
        value = digits.CLASSES[int(q.argmax())]
        # "other" is always unsure, as in the reader.
        flagged = value == digits.OTHER or v.doubted(i, value)
        out.append(Outcome("view", truth, value, float(q.max()), value == truth, flagged))
    return out


def joint_view_outcomes(model: Any, v: CalibrationViews) -> list[Outcome]:
    """The simulated squares as the rules decide a square they say nothing of (a sheet whose
    ticks leave every pairing open): the recogniser's probabilities at the joint temperature,
    without the classes no square of the standard layout can hold (9 and S: the rules rule them
    out, and a square written so is no square of a played game), a mark that is no digit
    unsure, a sure reading never changed."""
    from printgen.games.one_page_war.layout import load_layout
    from printgen.games.one_page_war.reader.crosscheck import RESCUE_SUPPORT
    from printgen.games.one_page_war.reader.joint import UNREAD
    from printgen.games.one_page_war.sheet import ARMORED_SUPPORT, STOLEN_INTEL, Reach

    layout = load_layout("standard")
    boxes = {a.power: a.ticks for a in layout.arenas}
    reach = Reach(boxes[ARMORED_SUPPORT], boxes[STOLEN_INTEL], solo=True)
    never = [
        i
        for i, c in enumerate(digits.CLASSES)
        if c == "S" or (c.isdigit() and int(c) > reach.highest)
    ]
    other = digits.CLASSES.index(digits.OTHER)
    p = on_a_square(model.probabilities(v.rows))
    out = []
    for i, (truth, q) in enumerate(zip(v.truths, p, strict=True)):
        if digits.CLASSES.index(truth) in never:
            continue
        alone = int(q.argmax())
        sure_alone = (
            alone != other
            and q[alone] >= model.threshold_for(digits.CLASSES[alone])
            and not v.doubted(i, digits.CLASSES[alone])
        )
        tempered = q ** (1.0 / model.joint_temperature)
        tempered[never] = 0.0
        tempered /= tempered.sum()
        best = int(tempered.argmax())
        value = UNREAD if best == other else digits.CLASSES[best]
        kept = sure_alone and best == alone
        flagged = (
            best == other
            or v.doubted(i, value)
            or (sure_alone and best != alone)
            or (not sure_alone and q[best] < RESCUE_SUPPORT)
        )
        out.append(
            Outcome("view", truth, value, float(tempered[best]), value == truth, flagged, kept)
        )
    return out


def _class_of(value: str) -> int:
    name = digits.EMPTY if value in ("_", digits.EMPTY) else value
    return digits.CLASSES.index(name) if name in digits.CLASSES else digits.CLASSES.index("other")


@dataclass(frozen=True)
class Calibration:
    temperature: float
    threshold: float  # the floor
    thresholds: tuple[float, ...]  # per class, CLASSES order: the recogniser's own decision
    joint_temperature: float
    joint_thresholds: tuple[float, ...]  # per class: the decision given the rules
    squares: int  # written squares in the calibration photos
    right: float  # share of them whose reading on its own is right
    accepted_alone: float  # share of them accepted (sure) and right, each on its own
    accepted: float  # the same, given the rules: what the reader does
    wrong_accepted: int  # cells accepted wrong, by either decision: 0 by construction


def thresholds_for(found: list[Outcome], floor: float) -> tuple[float, ...]:
    """For each class, the lowest threshold above which no reading showing it that was not
    flagged otherwise (nor sure whatever the threshold) was wrong; never below the floor.
    Two-digit readings count for every class. Classes with fewer than OWN_THRESHOLD_WRONG
    wrong readings above the floor are pooled: each takes the highest threshold among them."""
    wrong: list[list[float]] = [[] for _ in digits.CLASSES]
    for o in found:
        if o.right or o.flagged or o.kept:
            continue
        shown = _class_of(o.value)
        for c in range(len(wrong)) if shown == digits.CLASSES.index("other") else [shown]:
            wrong[c].append(_just_above(o.confidence))
    own = [max([floor, *w]) for w in wrong]
    sparse = [c for c, w in enumerate(wrong) if sum(t > floor for t in w) < OWN_THRESHOLD_WRONG]
    pooled = max([floor, *(own[c] for c in sparse)])
    return tuple(pooled if c in sparse else t for c, t in enumerate(own))


def _just_above(confidence: float) -> float:
    """The smallest threshold the model file stores (float32) that `confidence` stays under:
    above 1 when the wrong reading was all but certain, so that the class is then never sure
    by that decision (a cap below 1 would let such a reading through)."""
    return float(np.nextafter(np.float32(confidence), np.float32(2.0)))


def _accepted(found: list[Outcome], threshold: Any) -> tuple[float, int, int]:
    """Written squares accepted and right (as a share), their count, and cells accepted wrong,
    with `threshold(value)` the confidence a reading needs."""

    def sure(o: Outcome) -> bool:
        return o.kept or (not o.flagged and o.confidence >= threshold(o.value))

    written = [o for o in found if o.kind == "square" and o.truth != "_"]
    share = sum(o.right and sure(o) for o in written) / max(1, len(written))
    return share, len(written), sum(1 for o in found if not o.right and sure(o))


def calibrate(
    model: digits.Model, photos: list[SheetPhoto], floor: float, views_per_digit: int = 300
) -> Calibration:
    """The calibration the reader decides with, measured on photos of sheets from games played
    by the rulebook, read exactly as the reader reads them. For each trial temperature of the
    recogniser: its per-class thresholds, on the cells decided each on its own (as on a sheet
    far from any legal game) and on simulated squares of every calibration digit; then, for
    each trial joint temperature, the per-class thresholds on the posterior given the rules
    (reader/joint.py), on the same photos and squares. No held-out cell is wrong above its
    threshold. Kept: the pair of temperatures that accepts the most written squares given the
    rules."""
    remembering = Remembering(model)
    simulated = calibration_views(model, views_per_digit, 1)
    best: Calibration | None = None
    for temperature in TEMPERATURES:
        remembering.trying(temperature)
        alone = outcomes(remembering, photos) + view_outcomes(remembering, simulated)
        thresholds = thresholds_for(alone, floor)
        trial = model.with_calibration(temperature, floor, thresholds)
        accepted_alone, squares, wrong_alone = _accepted(alone, trial.threshold_for)
        right = sum(o.right for o in alone if o.kind == "square" and o.truth != "_")
        remembering.trying(temperature, thresholds)
        sheets = read_sheets(remembering, photos)
        for joint_temperature in JOINT_TEMPERATURES:
            remembering.trying(temperature, thresholds, joint_temperature)
            given = outcomes(remembering, photos, sheets, joint=True) + joint_view_outcomes(
                remembering, simulated
            )
            joint_thresholds = thresholds_for(given, floor)
            decided = trial.with_joint(joint_temperature, joint_thresholds)
            accepted, _, wrong = _accepted(given, partial(_bar, decided))
            c = Calibration(
                temperature,
                floor,
                thresholds,
                joint_temperature,
                joint_thresholds,
                squares,
                right / max(1, squares),
                accepted_alone,
                accepted,
                wrong + wrong_alone,
            )
            print(
                f"  temperature {temperature}, given the rules {joint_temperature}: {squares} "
                f"written squares, right {c.right:.4f}, accepted and right on their own "
                f"{accepted_alone:.4f}, given the rules {accepted:.4f} (thresholds above the "
                f"floor: {_above(thresholds, floor)}; given the rules: "
                f"{_above(joint_thresholds, floor)})",
                flush=True,
            )
            if best is None or c.accepted > best.accepted:
                best = c
    assert best is not None
    return best


def _bar(model: digits.Model, value: str) -> float:
    """What a square given the rules needs (reader/crosscheck.py): never less than on its own."""
    return max(model.threshold_for(value), model.joint_threshold_for(value))


def _above(thresholds: tuple[float, ...], floor: float) -> str:
    shown = ", ".join(
        f"{name} {t:.4f}" for name, t in zip(digits.CLASSES, thresholds, strict=True) if t > floor
    )
    return shown or "none"


# --- the command ------------------------------------------------------------------------------


def calibration_photos(args: argparse.Namespace) -> list[SheetPhoto]:
    if args.calibration_dir is not None:
        return folder_photos(args.calibration_dir)
    start = 500_000
    real = sheet_photos(
        range(start, start + args.calibration_photos), True, "calibration", args.workers
    )
    drawn = sheet_photos(
        range(start + 50_000, start + 50_000 + args.calibration_photos // 2),
        True,
        None,
        args.workers,
    )
    return real + drawn


def write_model(args: argparse.Namespace, model: digits.Model, c: Calibration) -> None:
    calibrated = model.with_calibration(c.temperature, c.threshold, c.thresholds)
    digits.save_model(args.out, calibrated.with_joint(c.joint_temperature, c.joint_thresholds))
    print(
        f"calibration ({c.squares} written squares, held-out digits and writers): right "
        f"{c.right:.4f}, temperature {c.temperature}, floor {c.threshold}, accepted and right "
        f"on their own {c.accepted_alone:.4f}; given the rules (temperature "
        f"{c.joint_temperature}) {c.accepted:.4f}; wrong accepted {c.wrong_accepted}"
    )
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB)")


def _check_train_dir(train: Path, calibration: Path | None) -> None:
    """Photos learnt from must never be the ones the thresholds are measured on."""
    if not train.is_dir():
        raise SystemExit(f"--train-dir {train}: not a folder")
    if not any(p.suffix.lower() == ".json" for p in train.iterdir()):
        raise SystemExit(
            f"--train-dir {train}: no answer keys (PHOTO.json beside PHOTO.jpg) in it; "
            "write them with `printgen one-page-war answer-key`"
        )
    if calibration is not None and train.resolve() == calibration.resolve():
        raise SystemExit(
            f"--train-dir and --calibration-dir are the same folder ({train}): photos learnt "
            "from say nothing of how sure a reading of a new hand may be; keep them apart"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--views", type=int, default=3500, help="simulated squares per digit")
    parser.add_argument("--photos", type=int, default=80, help="whole training photos")
    parser.add_argument("--calibration-photos", type=int, default=50)
    parser.add_argument(
        "--nets", type=int, default=2, help="networks in the ensemble that learn MNIST's hands"
    )
    parser.add_argument(
        "--other-hands-nets",
        type=int,
        default=0,
        help="networks that learn other hands' digits too: Semeion's, which printgen does not "
        "ship (training/other_hands.py says how to keep them)",
    )
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--floor", type=float, default=MIN_THRESHOLD, help="no class's threshold below this"
    )
    parser.add_argument("--out", type=Path, default=digits.MODEL_PATH, help="where to write it")
    parser.add_argument(
        "--fold",
        type=int,
        default=0,
        help=f"learn from and calibrate on this fold's parts of the real digits, 0 to "
        f"{real_digits.FOLDS - 1}, to measure the recipe on another fold's measure part "
        "(cross-validation, docs/reader.md); the shipped model is fold 0's",
    )
    parser.add_argument(
        "--calibrate-only",
        action="store_true",
        help="keep the shipped model's weights; only measure its temperatures and thresholds "
        "again (on its own and given the rules)",
    )
    parser.add_argument(
        "--calibration-dir",
        type=Path,
        help="calibrate on these photos (each with its answer key .json) instead of synthetic ones",
    )
    parser.add_argument(
        "--train-dir",
        type=Path,
        help="learn from these photos of real sheets too (each with its answer key .json); "
        "never the calibration photos",
    )
    args = parser.parse_args()
    if not 0 <= args.fold < real_digits.FOLDS:
        parser.error(f"--fold {args.fold}: expected 0 to {real_digits.FOLDS - 1}")
    if args.fold and args.out.resolve() == digits.MODEL_PATH.resolve():
        parser.error(
            f"--fold {args.fold} writes a model for measuring only: name where with --out "
            "(the shipped model is fold 0's)"
        )
    if args.fold and args.calibrate_only:
        parser.error(
            f"--fold {args.fold} with --calibrate-only: the shipped weights learnt from digits "
            f"that fold {args.fold} calibrates on"
        )
    real_digits.use_fold(args.fold)
    if args.nets < 0 or args.other_hands_nets < 0 or args.nets + args.other_hands_nets == 0:
        parser.error(
            f"--nets {args.nets} and --other-hands-nets {args.other_hands_nets}: each 0 or more, "
            "at least one network in all"
        )
    if args.other_hands_nets:
        try:
            other_hands.load("semeion")
        except other_hands.MissingDataError as e:
            parser.error(f"--other-hands-nets {args.other_hands_nets}: {e}")
    if args.train_dir is not None:
        if args.calibrate_only:
            raise SystemExit("--train-dir learns from photos; --calibrate-only learns nothing")
        _check_train_dir(args.train_dir, args.calibration_dir)
    missing = [name for name, module in TRAIN_MODULES if importlib.util.find_spec(module) is None]
    if missing and not args.calibrate_only:
        parser.error(
            f"training needs {' and '.join(missing)}, which the run-time install leaves out: "
            "pip install -e '.[train]' (docs/reader.md, \"Training\")"
        )
    try:
        real_digits.load_all()  # the train and calibration parts: no run goes far without them
    except real_digits.MissingHandwriting as e:
        parser.error(str(e))
    start = time.time()

    def stamp(what: str) -> None:
        print(f"[{(time.time() - start) / 60:5.1f} min] {what}", flush=True)

    if args.calibrate_only:
        model = digits.load_model_file(digits.MODEL_PATH)
        photos = calibration_photos(args)
        squares = sum(1 for p in photos for kind, t, _ in p.cells() if kind == "square")
        if squares < MIN_CALIBRATION_SQUARES:
            raise SystemExit(
                f"only {squares} calibration squares; at least {MIN_CALIBRATION_SQUARES} are "
                "needed (about 25 photos) for the threshold to mean something"
            )
        write_model(args, model, calibrate(model, photos, args.floor))
        return

    stamp("simulated squares")
    x, y = views_dataset(args.views, args.seed, args.workers)
    datasets = [(x, y)] * args.nets
    if args.other_hands_nets:
        stamp(f"{len(y)} simulated squares; with other hands too")
        xo, yo = views_dataset(args.views, args.seed, args.workers, more_hands=True)
        datasets += [(xo, yo)] * args.other_hands_nets
    stamp(f"{len(y)} simulated squares; training photos")
    photos = sheet_photos(range(args.photos), False, "train", args.workers)
    if args.train_dir is not None:
        real = folder_photos(args.train_dir)
        if not real:
            raise SystemExit(f"--train-dir {args.train_dir}: no photo in it could be read")
        stamp(f"{len(real)} photos of real sheets from {args.train_dir}")
        photos += real
    xp, yp = cells_dataset(photos)
    del photos
    # The reader's own view of whole photos counts twice.
    datasets = [(np.concatenate([xs, xp, xp]), np.concatenate([ys, yp, yp])) for xs, ys in datasets]
    stamp(f"{len(yp)} photo cells (counted twice); calibration photos")
    calibration = calibration_photos(args)
    count = len(datasets)
    stamp(f"{len(calibration)} calibration photos; training {count} networks")
    rng = np.random.default_rng(args.seed)
    # Each network learns from its own nine tenths, from its own start: where they disagree, on
    # a hand none of them has seen, the ensemble is unsure. One process and one thread each:
    # on a shared machine, threads that wait for each other lose more than they gain.
    recipe = Recipe(args.epochs)
    tasks = [
        (xs, ys, rng.random(len(ys)) < 0.9, args.seed * 100 + k, recipe)
        for k, (xs, ys) in enumerate(datasets)
    ]
    with ProcessPoolExecutor(min(args.workers, count)) as pool:
        nets = list(pool.map(_train_task, tasks))
    stamp(f"{count} networks trained")
    model = digits.Model(tuple(nets), temperature=1.0, threshold=MIN_THRESHOLD)
    write_model(args, model, calibrate(model, calibration, args.floor))
    stamp("done")


if __name__ == "__main__":
    main()
