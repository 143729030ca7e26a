"""Handwriting-like marks for training the digit recogniser and for the synthetic photo corpus.

Three sources, all usable offline:
- procedural strokes: each glyph is a few control polylines (several variants per digit, as people
  write 1, 4, 7 and 9 differently), smoothed, then bent by a *writer*: a fixed personality (slant,
  width, stroke weight, pen or pencil, variant choices, wobble) drawn from a seeded generator;
- handwriting fonts under free licences (Debian packages, see docs/reader.md), warped and thickened;
- scikit-learn's bundled 8x8 handwritten digits (upscaled).

Everything returns an *ink map*: float32, 0 = paper, 1 = full ink, the size asked for.
Writers and fonts are split into a training set and a held-out set (`HELD_OUT_FONTS`,
`writer(seed, held_out=True)`) that is used only for calibration and the benchmark.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

# Class labels the recogniser knows; "empty" and "other" are marks that are no glyph.
DIGITS = tuple("0123456789")
STAR = "*"
ALLIES = "S"
EMPTY = "empty"
OTHER = "other"

Stroke = list[tuple[float, float]]

# Control points in a unit box (x right, y down). Several variants per glyph.
TEMPLATES: dict[str, list[list[Stroke]]] = {
    "0": [[[]]],  # drawn parametrically (an ellipse), see _template_strokes
    "1": [
        [[(0.5, 0.08), (0.5, 0.92)]],
        [[(0.32, 0.28), (0.52, 0.08), (0.52, 0.92)]],
        [[(0.32, 0.28), (0.52, 0.08), (0.52, 0.92)], [(0.3, 0.92), (0.72, 0.92)]],
    ],
    "2": [
        [
            [
                (0.24, 0.3),
                (0.34, 0.14),
                (0.52, 0.08),
                (0.7, 0.18),
                (0.72, 0.36),
                (0.5, 0.62),
                (0.24, 0.9),
                (0.8, 0.9),
            ]
        ],
        [
            [
                (0.26, 0.26),
                (0.45, 0.08),
                (0.7, 0.2),
                (0.62, 0.48),
                (0.3, 0.86),
                (0.22, 0.94),
                (0.4, 0.8),
                (0.6, 0.9),
                (0.82, 0.88),
            ]
        ],
    ],
    "3": [
        [
            [
                (0.24, 0.18),
                (0.48, 0.07),
                (0.72, 0.2),
                (0.68, 0.4),
                (0.44, 0.5),
                (0.72, 0.6),
                (0.76, 0.78),
                (0.52, 0.93),
                (0.24, 0.84),
            ]
        ],
        [
            [
                (0.24, 0.08),
                (0.74, 0.08),
                (0.44, 0.44),
                (0.7, 0.56),
                (0.75, 0.78),
                (0.52, 0.93),
                (0.24, 0.84),
            ]
        ],
    ],
    "4": [
        [[(0.62, 0.92), (0.62, 0.08), (0.2, 0.66), (0.82, 0.66)]],
        [[(0.3, 0.08), (0.24, 0.6), (0.8, 0.6)], [(0.64, 0.26), (0.64, 0.94)]],
        [
            [(0.26, 0.1), (0.28, 0.45), (0.42, 0.56), (0.62, 0.56), (0.8, 0.5)],
            [(0.7, 0.12), (0.68, 0.94)],
        ],
        [[(0.55, 0.08), (0.22, 0.62), (0.82, 0.62)], [(0.62, 0.4), (0.62, 0.94)]],
        # The hooked 4 of many European hands: a curved stroke with no top, the stem a short
        # tick through the bar. MNIST hardly holds it; networks that never saw it read it as 6.
        [
            [(0.44, 0.08), (0.32, 0.3), (0.26, 0.52), (0.36, 0.64), (0.58, 0.64), (0.82, 0.58)],
            [(0.64, 0.44), (0.62, 0.94)],
        ],
        [
            [(0.6, 0.08), (0.36, 0.22), (0.24, 0.46), (0.3, 0.66), (0.5, 0.72), (0.78, 0.64)],
            [(0.62, 0.56), (0.6, 0.86)],
        ],
    ],
    "5": [
        [
            [
                (0.74, 0.08),
                (0.32, 0.08),
                (0.28, 0.44),
                (0.5, 0.38),
                (0.72, 0.5),
                (0.75, 0.74),
                (0.55, 0.92),
                (0.26, 0.84),
            ]
        ],
        [
            [
                (0.32, 0.08),
                (0.28, 0.44),
                (0.5, 0.38),
                (0.72, 0.5),
                (0.75, 0.74),
                (0.55, 0.92),
                (0.26, 0.84),
            ],
            [(0.32, 0.08), (0.76, 0.08)],
        ],
        [
            [
                (0.3, 0.1),
                (0.3, 0.42),
                (0.55, 0.4),
                (0.74, 0.56),
                (0.7, 0.82),
                (0.48, 0.93),
                (0.27, 0.86),
            ],
            [(0.3, 0.1), (0.72, 0.06)],
        ],
    ],
    "6": [
        [
            [
                (0.7, 0.1),
                (0.46, 0.2),
                (0.3, 0.48),
                (0.3, 0.76),
                (0.5, 0.93),
                (0.7, 0.78),
                (0.68, 0.58),
                (0.5, 0.5),
                (0.31, 0.62),
            ]
        ],
        [
            [
                (0.62, 0.06),
                (0.34, 0.5),
                (0.3, 0.74),
                (0.48, 0.93),
                (0.7, 0.8),
                (0.66, 0.56),
                (0.44, 0.52),
                (0.32, 0.66),
            ]
        ],
    ],
    "7": [
        [[(0.24, 0.08), (0.78, 0.08), (0.44, 0.92)]],
        [[(0.24, 0.08), (0.78, 0.08), (0.44, 0.92)], [(0.36, 0.5), (0.7, 0.5)]],
        [[(0.22, 0.14), (0.3, 0.08), (0.78, 0.1), (0.6, 0.42), (0.5, 0.92)]],
    ],
    "8": [
        [
            [
                (0.5, 0.5),
                (0.3, 0.32),
                (0.5, 0.08),
                (0.7, 0.3),
                (0.5, 0.5),
                (0.27, 0.71),
                (0.5, 0.93),
                (0.73, 0.71),
                (0.5, 0.5),
            ]
        ],
        [
            [
                (0.68, 0.18),
                (0.5, 0.08),
                (0.3, 0.22),
                (0.7, 0.7),
                (0.5, 0.93),
                (0.3, 0.72),
                (0.68, 0.3),
                (0.68, 0.18),
            ]
        ],
    ],
    "9": [
        [
            [
                (0.7, 0.3),
                (0.5, 0.08),
                (0.3, 0.24),
                (0.34, 0.45),
                (0.56, 0.48),
                (0.7, 0.3),
                (0.68, 0.62),
                (0.58, 0.92),
            ]
        ],
        [
            [(0.7, 0.3), (0.5, 0.08), (0.3, 0.24), (0.34, 0.45), (0.56, 0.48), (0.7, 0.3)],
            [(0.7, 0.2), (0.7, 0.93)],
        ],
    ],
    "S": [
        [
            [
                (0.74, 0.18),
                (0.5, 0.07),
                (0.28, 0.2),
                (0.32, 0.4),
                (0.5, 0.5),
                (0.7, 0.6),
                (0.72, 0.8),
                (0.5, 0.93),
                (0.26, 0.8),
            ]
        ],
    ],
}

# Fonts of handwriting-style faces (Debian packages). The held-out ones never reach training.
# Also looked in: the folders named by PRINTGEN_HANDWRITING_FONTS (separated by ":"), e.g. the
# packages unpacked with `dpkg -x` where installing them system-wide is not wanted.
FONT_DIRS = (
    *(Path(p) for p in os.environ.get("PRINTGEN_HANDWRITING_FONTS", "").split(":") if p),
    Path("/usr/share/fonts/opentype"),
    Path("/usr/share/fonts/truetype"),
)
TRAIN_FONTS = (
    "BecauseWeBuild-Regular.otf",
    "BecauseWeConnect-Regular.otf",
    "BecauseWeCreate-Regular.otf",
    "BecauseWeLearn-Regular.otf",
    "dkg.ttf",
    "dkgBd.ttf",
    "Breip.ttf",
    "Humor-Sans.ttf",
    "ComicNeue-Regular.otf",
    "ComicNeue-Light.otf",
    "KleeOne-Regular.ttf",
)
HELD_OUT_FONTS = (
    "BecauseWeMentor-Regular.otf",
    "BecauseWeOrganize-Regular.otf",
    "dkgIt.ttf",
    "ComicNeue-Italic.otf",
    "KleeOne-SemiBold.ttf",
)


@cache
def find_font(name: str) -> Path | None:
    for base in FONT_DIRS:
        hits = sorted(base.rglob(name)) if base.is_dir() else []
        if hits:
            return hits[0]
    return None


@dataclass(frozen=True)
class Writer:
    """A person's way of writing: kept fixed across every mark that person makes."""

    seed: int
    slant: float  # shear, positive leans right
    width: float  # horizontal scale of glyphs
    weight: float  # stroke width as a share of glyph height
    wobble: float  # hand jitter of control points
    size: float  # glyph height as a share of the box
    darkness: float  # 1 = black pen, ~0.4 = light pencil
    pencil: bool  # grainy stroke
    variants: tuple[int, ...]  # preferred variant per glyph in TEMPLATES order
    font: str | None  # a handwriting font used instead of strokes, when set
    continental: bool = False  # a 1 with a long up-stroke and a crossed 7 (held-out writers)


# Held-out writers who learnt to write in continental Europe: a 1 with a long up-stroke from
# low on the left (where a 7 has its level bar) and every 7 crossed. No training writer writes
# so and MNIST's American writers seldom do, so calibration, tests and bench meet a hand the
# networks never learnt.
CONTINENTAL_SHARE = 0.25


def writer(seed: int, held_out: bool = False) -> Writer:
    """A writer from a seed. Held-out writers come from a separate stream of seeds and may use
    the held-out fonts and the continental style; training writers never do."""
    rng = np.random.default_rng([seed, 7 if held_out else 3])
    fonts = [f for f in (HELD_OUT_FONTS if held_out else TRAIN_FONTS) if find_font(f)]
    font = str(rng.choice(fonts)) if fonts and rng.random() < 0.3 else None
    pencil = bool(rng.random() < 0.5)
    return Writer(
        seed=seed,
        slant=float(rng.normal(0.1, 0.15)),
        width=float(rng.uniform(0.7, 1.15)),
        weight=float(rng.uniform(0.06, 0.13)),
        wobble=float(rng.uniform(0.005, 0.03)),
        size=float(rng.uniform(0.5, 0.8)),
        darkness=float(rng.uniform(0.45, 0.75) if pencil else rng.uniform(0.8, 1.0)),
        pencil=pencil,
        variants=tuple(int(rng.integers(0, 8)) for _ in TEMPLATES),
        font=font,
        # Drawn last and for held-out writers only, so every training writer stays as it was.
        continental=held_out and bool(rng.random() < CONTINENTAL_SHARE),
    )


def _catmull_rom(points: np.ndarray, per_segment: int = 8) -> np.ndarray:
    if len(points) < 3:
        return points
    padded = np.vstack([points[0], points, points[-1]])
    out = []
    t = np.linspace(0, 1, per_segment, endpoint=False)[:, None]
    for i in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[i - 1], padded[i], padded[i + 1], padded[i + 2]
        out.append(
            0.5
            * (
                2 * p1
                + (-p0 + p2) * t
                + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t**2
                + (-p0 + 3 * p1 - 3 * p2 + p3) * t**3
            )
        )
    out.append(points[-1:])
    return np.vstack(out)


def _template_strokes(glyph: str, variant: int, rng: np.random.Generator) -> list[np.ndarray]:
    if glyph == "0":
        start = rng.uniform(-0.6, 0.6) - math.pi / 2
        turn = 2 * math.pi + rng.uniform(-0.15, 0.35)
        t = np.linspace(start, start + turn, 40)
        rx, ry = rng.uniform(0.2, 0.3), rng.uniform(0.38, 0.44)
        return [np.stack([0.5 + rx * np.cos(t), 0.5 + ry * np.sin(t)], axis=1)]
    if glyph == STAR:
        if variant % 3 == 2:  # a five-pointed star in one stroke
            angles = -math.pi / 2 + np.arange(6) * 4 * math.pi / 5 + rng.normal(0, 0.05, 6)
            radius = 0.4 * rng.uniform(0.85, 1.05, 6)
            return [np.stack([0.5 + radius * np.cos(angles), 0.5 + radius * np.sin(angles)], 1)]
        lines = 3 if variant % 3 == 0 else 4
        base = rng.uniform(0, math.pi)
        strokes = []
        for k in range(lines):
            a = base + k * math.pi / lines + rng.normal(0, 0.08)
            r = 0.4 * rng.uniform(0.8, 1.05)
            dx, dy = r * math.cos(a), r * math.sin(a)
            strokes.append(np.array([(0.5 - dx, 0.5 - dy), (0.5 + dx, 0.5 + dy)]))
        return strokes
    variants = TEMPLATES[glyph]
    chosen = variants[variant % len(variants)]
    return [np.array(s, dtype=np.float64) for s in chosen]


def _continental(glyph: str, rng: np.random.Generator) -> list[np.ndarray]:
    """A continental 1 (its up-stroke starting anywhere from nearly a 7's bar to a short steep
    flag, a foot now and then) or a crossed 7."""
    if glyph == "7":
        return [np.array(s, dtype=np.float64) for s in TEMPLATES["7"][1]]  # the crossed 7
    start = (rng.uniform(0.14, 0.34), rng.uniform(0.24, 0.5))
    strokes = [np.array([start, (0.56, 0.08), (0.56, 0.92)])]
    if rng.random() < 0.3:
        strokes.append(np.array([(0.34, 0.92), (0.78, 0.92)]))
    return strokes


def _other_strokes(rng: np.random.Generator) -> list[np.ndarray]:
    """Marks that are none of the glyphs: scribbles, crosses, lines, ticks, hatching."""
    kind = int(rng.integers(0, 6))
    if kind == 0:  # a scribble
        n = int(rng.integers(6, 14))
        return [rng.uniform(0.1, 0.9, (n, 2))]
    if kind == 1:  # a cross
        return [np.array([(0.15, 0.15), (0.85, 0.85)]), np.array([(0.85, 0.15), (0.15, 0.85)])]
    if kind == 2:  # a tick
        return [np.array([(0.15, 0.55), (0.4, 0.85), (0.88, 0.12)])]
    if kind == 3:  # hatching: a cell blacked out
        ys = np.linspace(0.15, 0.85, int(rng.integers(4, 9)))
        return [np.array([(0.15, y), (0.85, y + rng.uniform(-0.2, 0.2))]) for y in ys]
    if kind == 4:  # a horizontal dash, written as a long flat stroke
        y = rng.uniform(0.35, 0.65)
        return [np.array([(0.12, y), (0.88, y + rng.uniform(-0.08, 0.08))])]
    # a digit struck out
    digit = str(rng.integers(0, 10))
    strokes = _template_strokes(digit, int(rng.integers(0, 3)), rng)
    y = rng.uniform(0.3, 0.7)
    strokes.append(np.array([(0.1, y + 0.2), (0.9, y - 0.2)]))
    if rng.random() < 0.5:
        strokes.append(np.array([(0.1, y - 0.2), (0.9, y + 0.2)]))
    return strokes


def _place(
    strokes: list[np.ndarray], w: Writer, rng: np.random.Generator, per_sample: float
) -> list[np.ndarray]:
    """Bend control points by the writer's hand, then smooth them into curves."""
    slant = w.slant + rng.normal(0, 0.05 * per_sample)
    sx = w.width * rng.uniform(1 - 0.1 * per_sample, 1 + 0.1 * per_sample)
    rot = rng.normal(0, 0.06 * per_sample)
    out = []
    for stroke in strokes:
        pts = stroke + rng.normal(0, w.wobble + 0.01 * per_sample, stroke.shape)
        pts = _catmull_rom(pts)
        x, y = pts[:, 0] - 0.5, pts[:, 1] - 0.5
        x = x * sx - y * slant
        x, y = x * math.cos(rot) - y * math.sin(rot), x * math.sin(rot) + y * math.cos(rot)
        out.append(np.stack([x, y], axis=1))
    return out


def _render_strokes(
    curves: list[np.ndarray],
    size: tuple[int, int],
    height_px: float,
    centre: tuple[float, float],
    w: Writer,
    rng: np.random.Generator,
) -> np.ndarray:
    scale = 4
    h, wd = size
    canvas = np.zeros((h * scale, wd * scale), np.uint8)
    thick = max(1, round(w.weight * height_px * scale * rng.uniform(0.8, 1.2)))
    for curve in curves:
        pts = (curve * height_px + np.array(centre)) * scale
        cv2.polylines(
            canvas, [np.round(pts).astype(np.int32)], False, 255, thick, lineType=cv2.LINE_AA
        )
    ink = cv2.resize(canvas, (wd, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    return ink


@cache
def _font_glyph(font_name: str, glyph: str) -> np.ndarray | None:
    from PIL import Image, ImageDraw, ImageFont

    path = find_font(font_name)
    if path is None:
        return None
    font = ImageFont.truetype(str(path), 96)
    image = Image.new("L", (160, 160), 0)
    ImageDraw.Draw(image).text((30, 10), glyph, fill=255, font=font)
    arr = np.asarray(image, np.float32) / 255
    ys, xs = np.nonzero(arr > 0.2)
    if len(ys) == 0:
        return None
    return arr[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _render_font(
    glyph: str,
    font: str,
    size: tuple[int, int],
    height_px: float,
    centre: tuple[float, float],
    w: Writer,
    rng: np.random.Generator,
) -> np.ndarray | None:
    mask = _font_glyph(font, glyph)
    if mask is None:
        return None
    gh, gw = mask.shape
    k = height_px / gh
    slant = w.slant * 0.5 + rng.normal(0, 0.05)
    rot = rng.normal(0, 0.05)
    a = np.array([[k * w.width, -k * slant], [0, k]]) @ np.array(
        [[math.cos(rot), -math.sin(rot)], [math.sin(rot), math.cos(rot)]]
    )
    src_centre = np.array([gw / 2, gh / 2])
    t = np.array(centre) - a @ src_centre
    m = np.hstack([a, t[:, None]]).astype(np.float32)
    ink = cv2.warpAffine(mask, m, (size[1], size[0]), flags=cv2.INTER_LINEAR)
    grow = rng.integers(-1, 2) + (1 if height_px > 40 else 0)
    if grow > 0:
        ink = cv2.dilate(ink, np.ones((grow + 1, grow + 1), np.uint8))
    elif grow < 0 and height_px > 30:
        ink = cv2.erode(ink, np.ones((2, 2), np.uint8))
    return ink


def _finish(ink: np.ndarray, w: Writer, rng: np.random.Generator) -> np.ndarray:
    """Pen or pencil: darkness, and the grain of graphite on paper."""
    ink = np.clip(ink, 0, 1)
    if w.pencil:
        grain = rng.uniform(0.6, 1.0, ink.shape).astype(np.float32)
        grain = cv2.GaussianBlur(grain, (3, 3), 0.7)
        ink = ink * grain
    return (ink * w.darkness * rng.uniform(0.9, 1.1)).clip(0, 1).astype(np.float32)


def _where(
    digit: bool, box: tuple[float, float, float, float], w: Writer, rng: np.random.Generator
) -> tuple[float, tuple[float, float]]:
    """How tall `w` writes a digit (else a star, an S or another mark) in `box`, and where its
    centre lands."""
    x0, y0, x1, y1 = box
    bh, bw = y1 - y0, x1 - x0
    # Both heights are drawn for any mark, in this order, so that every writer's strokes stay
    # those the shipped networks were trained and measured on.
    height_px = min(bh, bw * 1.5) * w.size * rng.uniform(0.85, 1.15)
    if not digit:
        height_px = min(bh, bw) * w.size * rng.uniform(0.85, 1.2)
    return height_px, (
        x0 + bw / 2 + rng.normal(0, 0.06) * bw,
        y0 + bh / 2 + rng.normal(0, 0.06) * bh,
    )


def draw_shape(
    strokes: list[list[tuple[float, float]]],
    size: tuple[int, int],
    w: Writer,
    rng: np.random.Generator,
    box: tuple[float, float, float, float],
) -> np.ndarray:
    """An ink map of `size` holding a digit-sized shape given by its control strokes (unit box,
    as in TEMPLATES), written by `w` inside `box`: for shapes that are in no template."""
    height_px, centre = _where(True, box, w, rng)
    curves = _place([np.array(s, dtype=np.float64) for s in strokes], w, rng, 1.0)
    return _finish(_render_strokes(curves, size, height_px, centre, w, rng), w, rng)


def draw_glyph(
    glyph: str,
    size: tuple[int, int],
    w: Writer,
    rng: np.random.Generator,
    box: tuple[float, float, float, float] | None = None,
    per_sample: float = 1.0,
) -> np.ndarray:
    """An ink map of `size` (h, w) holding `glyph` ("0".."9", "*", "S", "other" or a two-digit
    number) written by `w` inside `box` (x0, y0, x1, y1 in pixels; default the whole map)."""
    h, wd = size
    x0, y0, x1, y1 = box if box is not None else (0.0, 0.0, float(wd), float(h))
    if len(glyph) == 2 and glyph.isdigit():  # two digits side by side
        mid = (x0 + x1) / 2
        gap = (x1 - x0) * 0.03
        return np.maximum(
            draw_glyph(glyph[0], size, w, rng, (x0, y0, mid - gap, y1), per_sample),
            draw_glyph(glyph[1], size, w, rng, (mid + gap, y0, x1, y1), per_sample),
        )
    height_px, (cx, cy) = _where(glyph not in (STAR, ALLIES, OTHER), (x0, y0, x1, y1), w, rng)
    ink: np.ndarray | None = None
    known = glyph in TEMPLATES or glyph in (STAR, OTHER)
    own_way = w.continental and glyph in ("1", "7")  # a font's 1 and 7 are not continental
    if (
        w.font is not None
        and glyph not in (STAR, OTHER)
        and not own_way
        and (rng.random() < 0.85 or not known)
    ):
        ink = _render_font(glyph, w.font, size, height_px, (cx, cy), w, rng)
    if ink is None:
        order = list(TEMPLATES).index(glyph) if glyph in TEMPLATES else 0
        variant = w.variants[order] if rng.random() < 0.8 else int(rng.integers(0, 8))
        if glyph == OTHER or not known:
            strokes = _other_strokes(rng)
        elif own_way:
            strokes = _continental(glyph, rng)
        else:
            strokes = _template_strokes(glyph, variant, rng)
        curves = _place(strokes, w, rng, per_sample)
        ink = _render_strokes(curves, size, height_px, (cx, cy), w, rng)
    return _finish(ink, w, rng)


def draw_tick(size: tuple[int, int], w: Writer, rng: np.random.Generator) -> np.ndarray:
    """A tick box mark: a check, a cross, a slash or a filled blot, as people tick."""
    h, wd = size
    kind = int(rng.integers(0, 4))
    if kind == 0:
        strokes = [np.array([(0.15, 0.55), (0.4, 0.85), (0.9, 0.1)])]
    elif kind == 1:
        strokes = [np.array([(0.15, 0.15), (0.85, 0.85)]), np.array([(0.85, 0.15), (0.15, 0.85)])]
    elif kind == 2:
        strokes = [np.array([(0.2, 0.85), (0.8, 0.15)])]
    else:
        strokes = [np.array([(0.2, y), (0.8, y + 0.1)]) for y in np.linspace(0.2, 0.75, 5)]
    curves = _place(strokes, w, rng, 1.0)
    side = min(h, wd) * rng.uniform(0.7, 1.0)
    thick_writer = Writer(**{**w.__dict__, "weight": max(w.weight, 0.12)})
    ink = _render_strokes(curves, size, side, (wd / 2, h / 2), thick_writer, rng)
    return _finish(ink, w, rng)


def sklearn_digits() -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's bundled 8x8 handwritten digits as 32x32 ink maps, with their labels."""
    from sklearn.datasets import load_digits  # training-only dependency

    data = load_digits()
    images = data.images.astype(np.float32) / 16.0
    big = np.stack(
        [cv2.resize(im, (24, 24), interpolation=cv2.INTER_CUBIC).clip(0, 1) for im in images]
    )
    padded = np.zeros((len(big), 32, 32), np.float32)
    padded[:, 4:28, 4:28] = big
    return padded, data.target.astype(np.int64)
