"""A written square as the reader sees it, made without a whole photo: the mark on paper beside
the printed box line, photographed (resolution, blur, light, noise, JPEG), rectified a little off
(the homography is never exact), lighting evened out and cropped by the reader's own code.

Making a whole photo of a sheet costs about a second; this costs about a millisecond, so the
recogniser can learn from a hundred thousand views. Its settings span both sheet versions (the
thin grey write-in lines of layout version 1 and the dark thick ones after it) and the photos the
reader accepts (2 MP to 12 MP, tilted up to 35 degrees: 2.5 to 7 photo pixels per millimetre at
the square).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from printgen.games.one_page_war.reader.cells import ALLIES_INSET_MM, SQUARE_INSET_MM, Ink
from printgen.games.one_page_war.reader.locate import PX_PER_MM

SIM_PX_PER_MM = 8.0  # the paper is drawn at this resolution before it is photographed
MARGIN_MM = 2.5  # paper drawn around the box, so neighbouring lines and shadows can show
SQUARE_MM = (14.0, 14.0)  # the standard layout's square (w, h)
ALLIES_MM = (24.0, 14.0)  # and its S space


@dataclass(frozen=True)
class Box:
    """The printed box a mark is written in."""

    w_mm: float
    h_mm: float
    inset_mm: float  # where the reader's crop starts inside it
    line_mm: float  # printed line width
    line_ink: float  # its darkness, 0 white .. 1 black
    radius_mm: float  # of its rounded corners (0: square corners)
    dash_mm: tuple[float, float] | None  # on, off along the line; None: a solid line


def random_box(kind: str, rng: np.random.Generator) -> Box:
    """A box of either sheet version: thin and grey (version 1: 0.21 mm at 45 %, S spaces 0.18
    mm at 28 %, dashed), or dark and thick (version 2: 0.4 mm black, S spaces dashed with
    rounded corners), or anything near them."""
    w, h = SQUARE_MM if kind == "square" else ALLIES_MM
    inset = SQUARE_INSET_MM if kind == "square" else ALLIES_INSET_MM
    thin = rng.random() < 0.5
    if thin:
        line, level = rng.uniform(0.16, 0.26), rng.uniform(0.25, 0.55)
    else:
        line, level = rng.uniform(0.3, 0.55), rng.uniform(0.75, 1.0)
    scale = rng.uniform(0.93, 1.07)  # other layouts, and squares a little off in the photo
    radius, dash = 0.0, None
    if kind == "allies":
        radius = float(rng.uniform(1.5, 3.5))
        dash = (float(rng.uniform(1.0, 2.0)), float(rng.uniform(0.7, 1.2)))
    return Box(w * scale, h * scale, inset, float(line), float(level), radius, dash)


def _outline(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    """Points along a rectangle with corners rounded to radius r, about half a pixel apart."""
    parts = []
    corners = (
        (x1 - r, y0 + r, -90),
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
    )
    for cx, cy, start in corners:
        a = np.deg2rad(np.linspace(start, start + 90, max(2, int(r * 3))))
        parts.append(np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], axis=1))
    ring = np.vstack([*parts, parts[0][:1]])
    out = [ring[0]]
    for a, b in zip(ring[:-1], ring[1:], strict=True):
        n = max(1, int(np.hypot(*(b - a)) * 2))
        out.extend(a + (b - a) * t for t in np.linspace(0, 1, n + 1)[1:])
    return np.array(out)


@dataclass(frozen=True)
class Camera:
    px_per_mm: float  # photo pixels per sheet millimetre at this box
    squash: float  # foreshortening: the other axis has this share of the resolution
    blur_mm: float  # Gaussian sigma, on the sheet
    noise: float  # grey levels
    jpeg: int
    paper: float  # paper grey level in the photo
    gradient: float  # light falling across the box
    shadow_edge: bool  # a soft shadow's edge crossing the box
    offset_mm: tuple[float, float]  # how far off the homography puts the box
    turn_deg: float  # and how much it is turned


def random_camera(rng: np.random.Generator) -> Camera:
    return Camera(
        px_per_mm=float(rng.uniform(2.5, 7.0)),
        squash=float(rng.uniform(0.8, 1.0)),
        blur_mm=float(rng.uniform(0.03, 0.3) if rng.random() < 0.9 else rng.uniform(0.3, 0.45)),
        noise=float(rng.uniform(0.5, 5)),
        jpeg=int(rng.integers(55, 96)),
        paper=float(rng.uniform(120, 245)),
        gradient=float(rng.uniform(0, 0.06)),
        shadow_edge=bool(rng.random() < 0.15),
        offset_mm=(float(rng.normal(0, 0.25)), float(rng.normal(0, 0.25))),
        turn_deg=float(rng.normal(0, 0.4)),
    )


Inner = tuple[float, float, float, float]  # where the hand writes: x0, y0, x1, y1 in pixels
# Writes a mark: (size in pixels, where in it, rng) -> ink map of that size.
Pen = Callable[[tuple[int, int], Inner, np.random.Generator], np.ndarray]


def paper_with_box(
    box: Box, rng: np.random.Generator
) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The printed paper around one box, as ink (0 paper, 1 black) at SIM_PX_PER_MM, and the
    box's outline in pixels (x0, y0, x1, y1)."""
    k = SIM_PX_PER_MM
    h = int(round((box.h_mm + 2 * MARGIN_MM) * k))
    w = int(round((box.w_mm + 2 * MARGIN_MM) * k))
    ink = np.zeros((h, w), np.float32)
    x0, y0 = int(round(MARGIN_MM * k)), int(round(MARGIN_MM * k))
    x1, y1 = w - x0, h - y0
    t = max(1, int(round(box.line_mm * k)))
    outline = np.zeros_like(ink)
    points = _outline(x0, y0, x1, y1, box.radius_mm * k)
    if box.dash_mm is None:
        runs = [points]
    else:
        along = np.concatenate([[0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
        on, off = box.dash_mm[0] * k, box.dash_mm[1] * k
        drawn = (along % (on + off)) < on
        cuts = np.flatnonzero(np.diff(drawn.astype(np.int8))) + 1
        runs = [
            r for r, d in zip(np.split(points, cuts), np.split(drawn, cuts), strict=True) if d[0]
        ]
    for run in runs:
        pts = np.round(run * 4).astype(np.int32)[None]
        cv2.polylines(outline, pts, False, 1.0, t, cv2.LINE_AA, shift=2)
    ink = np.maximum(ink, outline * box.line_ink)
    # The neighbouring boxes' lines, 2 mm away, sometimes inside the drawn margin.
    if rng.random() < 0.5:
        gap = int(round(2.0 * k))
        for x in (x0 - gap, x1 + gap):
            if 0 <= x < w:
                cv2.line(ink, (x, 0), (x, h), box.line_ink, t)
    return ink, (x0, y0, x1, y1)


def photograph(ink: np.ndarray, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    """The paper's ink map as the reader's rectified grey image (PX_PER_MM, uint8)."""
    h, w = ink.shape
    grey = camera.paper * (1 - 0.88 * ink)  # black ink is not black in a photo
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.cos(angle) + yy * np.sin(angle)) / max(h, w)
    light = 1 - camera.gradient * (ramp - ramp.min())
    if camera.shadow_edge:
        edge = rng.uniform(0.2, 0.8) * w
        soft = rng.uniform(3, 15) * SIM_PX_PER_MM
        light = light * (1 - rng.uniform(0.15, 0.45) / (1 + np.exp(-(xx - edge) / soft)))
    grey = grey * light
    # Down to the photo's own resolution, where blur, noise and JPEG happen.
    kx = camera.px_per_mm / SIM_PX_PER_MM
    ky = kx * camera.squash
    if rng.random() < 0.5:
        kx, ky = ky, kx
    pw, ph = max(8, int(round(w * kx))), max(8, int(round(h * ky)))
    photo = cv2.resize(grey.astype(np.float32), (pw, ph), interpolation=cv2.INTER_AREA)
    blur = camera.blur_mm * camera.px_per_mm
    if blur > 0.25:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    photo = photo + rng.normal(0, camera.noise, photo.shape).astype(np.float32)
    photo = photo.clip(0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, camera.jpeg])
    assert ok
    photo = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    # Rectified to the reader's resolution by a homography a little off: shifted and turned.
    k = PX_PER_MM
    out_w, out_h = int(round(w / SIM_PX_PER_MM * k)), int(round(h / SIM_PX_PER_MM * k))
    turn = np.deg2rad(camera.turn_deg)
    c, s = np.cos(turn), np.sin(turn)
    # rectified (u, v) -> photo (x, y)
    sx, sy = pw / out_w, ph / out_h
    cx, cy = out_w / 2, out_h / 2
    dx, dy = camera.offset_mm[0] * k, camera.offset_mm[1] * k
    m = np.array(
        [
            [sx * c, -sx * s, sx * (cx - c * cx + s * cy + dx)],
            [sy * s, sy * c, sy * (cy - s * cx - c * cy + dy)],
        ],
        np.float32,
    )
    return cv2.warpAffine(
        photo,
        m,
        (out_w, out_h),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def view(box: Box, write: Pen | None, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    """What the reader crops from one box holding the mark `write` puts there (nothing when
    None): its ink map, lighting evened out by the reader's own `Ink`."""
    paper, (x0, y0, x1, y1) = paper_with_box(box, rng)
    if write is not None:
        # People write inside the box, now and then over its line.
        inner = (
            x0 + 0.08 * (x1 - x0),
            y0 + 0.08 * (y1 - y0),
            x1 - 0.08 * (x1 - x0),
            y1 - 0.08 * (y1 - y0),
        )
        spill = rng.uniform(0, 0.08) * (x1 - x0) if rng.random() < 0.25 else 0.0
        inner = (inner[0] - spill, inner[1] - spill, inner[2] + spill, inner[3] + spill)
        mark = write(paper.shape, inner, rng)
        paper = 1 - (1 - paper) * (1 - mark)
    rectified = photograph(paper, camera, rng)
    ink = Ink.of(rectified)
    k = PX_PER_MM
    a = int(round((MARGIN_MM + box.inset_mm) * k))
    bx = int(round((MARGIN_MM + box.w_mm - box.inset_mm) * k))
    by = int(round((MARGIN_MM + box.h_mm - box.inset_mm) * k))
    return ink[a:by, a:bx]
