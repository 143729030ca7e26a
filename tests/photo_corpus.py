"""Synthetic photos of filled-in One Page War sheets, for the reader's tests and benchmark.

A real sheet (built and rendered by printgen) holds a game played by the rulebook from the photo's
seed (tests/playout.py: turns, the rival writing the roll, powers with their effects and their
ticks on both sides, the solo AI by its own rules), written with handwriting-like digits, ticks, S
and stars by two writers (one per player; the far player's marks upside down), then photographed:
perspective up to 35 degrees, any rotation (upside down included), a background around the
sheet, a lighting gradient and a soft shadow, blur, noise, JPEG quality down to 60, and
sometimes an EXIF orientation instead of turned pixels. Everything is deterministic by seed.

The writers are the held-out ones of training/handwriting.py (seeds and fonts never seen in
training) unless `held_out=False`. With `real=` (a part of training/real_digits.py), every digit
is a real person's handwritten digit instead.

    python tests/photo_corpus.py OUT_DIR [--count N] [--size 4032x3024] [--layout-version 1]
                                         [--real measure]   # writes photos + truth
"""

from __future__ import annotations

import io
import json
import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from printgen.games.one_page_war.geometry import (  # noqa: E402
    Element,
    Kind,
    SheetGeometry,
    SheetTag,
    Side,
    sheet_geometry,
)
from printgen.games.one_page_war.layout import load_layout  # noqa: E402
from printgen.games.one_page_war.reader.truth import (  # noqa: E402
    Cell,
    cell_from_key,
    cell_of,
    key_of,
    sheet_cells,
)
from printgen.games.one_page_war.rules import Mark  # noqa: E402
from printgen.games.one_page_war.sheet import Sheet  # noqa: E402
from printgen.render.units import Paper  # noqa: E402
from training import handwriting as hw  # noqa: E402
from training import real_digits  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import playout  # noqa: E402

SHEET_PX_PER_MM = 10.0


@dataclass(frozen=True)
class Blank:
    image: np.ndarray  # RGB uint8, the upright page
    tag: SheetTag


@cache
def blank_sheet(
    paper: Paper = Paper.A4,
    mode: str = "duel",
    version: int | None = None,
    sheet: int = 1,
    pairs: int = 2,
) -> Blank:
    """The printed sheet, rendered from printgen's own PDF at SHEET_PX_PER_MM; `version` draws
    an earlier version of the layout (None: the current one); for a team pack of `pairs`
    pairs, its `sheet`-th sheet."""
    from printgen.games.one_page_war.geometry import sheet_id
    from printgen.games.one_page_war.sheets import (
        SheetSpec,
        build_duel,
        build_solo,
        build_team,
        team_pages,
    )
    from printgen.materials import BuildOptions
    from printgen.render.readback import render_page

    build = {"duel": build_duel, "solo": build_solo, "team": build_team}[mode]
    pdf = build(BuildOptions(paper=paper, pairs=pairs), None, version=version)
    page = sheet - 1 if mode == "team" else 0
    image = render_page(pdf, page, dpi=SHEET_PX_PER_MM * 25.4)
    layout = load_layout("standard", version)
    if mode == "team":
        spec = team_pages(layout, paper, pairs)[page]
        assert isinstance(spec, SheetSpec)
        ident = spec.sheet_id
    else:
        ident = sheet_id(mode, "standard", paper, 1)
    return Blank(image, SheetTag("standard", layout.version, paper, ident))


@dataclass(frozen=True)
class Printer:
    """How the sheet came out of the printer and on what paper, before anyone wrote on it."""

    darkness: float = 1.0  # the share of full darkness the print reaches (toner saving, low ink)
    paper: tuple[int, int, int] = (255, 255, 255)  # the paper's colour (cream, pastel, kraft)
    stripes_mm: float = 0.0  # an inkjet with a clogged nozzle: a white line across it this often
    band_mm: float = 0.0  # a laser's worn drum: a band this wide down the page, faded to a quarter
    show_through: float = 0.0  # the back's print seen through thin paper, at this darkness
    seed: int = 0

    def prints(self, page: np.ndarray) -> np.ndarray:
        """The printed page (RGB uint8) from printgen's rendering of it."""
        rng = np.random.default_rng([self.seed, 31])
        k = SHEET_PX_PER_MM
        dark = 1 - page.astype(np.float32) / 255
        h, w = dark.shape[:2]
        dark *= self.darkness
        if self.band_mm > 0:
            x = np.arange(w) - rng.uniform(0, w)
            dark *= (1 - 0.75 * np.exp(-((x / (self.band_mm * k / 2)) ** 2)))[None, :, None]
        if self.stripes_mm > 0:
            every = max(2, int(round(self.stripes_mm * k)))
            dark[int(rng.integers(0, every)) :: every] = 0
        if self.show_through > 0:
            back = cv2.GaussianBlur(dark[:, ::-1].copy(), (0, 0), 0.3 * k)
            dark = 1 - (1 - dark) * (1 - self.show_through * back)
        paper = np.array(self.paper, np.float32)[None, None, :]
        return (paper * (1 - dark)).clip(0, 255).astype(np.uint8)


def random_printer(seed: int) -> Printer:
    """A printer and paper as players have them: some print light or in stripes, some sheets are
    cream, pastel or kraft, and some show what is printed on their back."""
    rng = np.random.default_rng([seed, 37])
    papers = [(255, 255, 255), (255, 246, 215), (200, 225, 250), (250, 210, 225), (205, 175, 135)]
    return Printer(
        darkness=float(rng.uniform(0.35, 1.0)),
        paper=papers[int(rng.integers(0, len(papers)))],
        stripes_mm=float(rng.uniform(0.6, 1.4)) if rng.random() < 0.25 else 0.0,
        band_mm=float(rng.uniform(10, 40)) if rng.random() < 0.25 else 0.0,
        show_through=float(rng.uniform(0.06, 0.12)) if rng.random() < 0.25 else 0.0,
        seed=seed,
    )


@dataclass(frozen=True)
class Scanner:
    """A flatbed scanner (or a phone's document-scanning app): the sheet flat on the glass,
    seen straight on, the picture no larger than the glass. No perspective and no background,
    but the scanner sets its own white: paper brighter than `white` (a share of the paper's
    brightness) comes out pure white, as the lightest writing may."""

    dpi: float = 300.0
    white: float = 1.0  # comes out at 255, as a share of the paper's brightness: under 1, clipped
    skew_deg: float = 0.5  # the sheet not quite square on the glass
    turned: bool = False  # laid on the glass upside down
    grey: bool = False  # a greyscale scan
    noise: float = 1.5
    jpeg_quality: int | None = 85  # None: PNG
    seed: int = 0
    # Saved in another file as a scanning app or a flatbed saves it: "pdf" (the JPEG in a PDF
    # of one page), "tif" (lossless, in place of the PNG); "": JPEG, or PNG.
    container: str = ""

    @property
    def suffix(self) -> str:
        """The scan's file suffix, which `save_photo` saves by."""
        return self.container or ("jpg" if self.jpeg_quality is not None else "png")

    def scans(self, sheet: np.ndarray) -> np.ndarray:
        """The scan (RGB uint8) of the sheet (RGB at SHEET_PX_PER_MM), on a glass of 216 x 297 mm
        (wide enough for US Letter, tall enough for A4), its lid white."""
        rng = np.random.default_rng([self.seed, 59])
        page = (
            sheet
            if sheet.shape[0] >= sheet.shape[1]
            else np.ascontiguousarray(sheet.transpose(1, 0, 2)[::-1])
        )
        if self.turned:
            page = np.ascontiguousarray(page[::-1, ::-1])
        k = self.dpi / 25.4
        glass = (int(round(216 * k)), int(round(297 * k)))  # width, height
        to_glass = cv2.getRotationMatrix2D((0.0, 0.0), self.skew_deg, 1.0)
        to_glass[:, :2] *= k / SHEET_PX_PER_MM
        to_glass[:, 2] = rng.uniform(0.5, 2.0, 2) * k  # pushed into the glass's corner
        scan = cv2.warpAffine(
            page, to_glass, glass, flags=cv2.INTER_AREA, borderValue=(250, 250, 250)
        ).astype(np.float32)
        scan = scan / self.white + rng.normal(0, self.noise, scan.shape).astype(np.float32)
        scan = scan.clip(0, 255).astype(np.uint8)
        if self.grey:
            scan = np.repeat(cv2.cvtColor(scan, cv2.COLOR_RGB2GRAY)[..., None], 3, axis=2)
        return scan


def random_scanner(seed: int) -> Scanner:
    """A scanner as players have them: 150 to 600 dpi, its white anywhere from over the paper's
    brightness (the paper comes out light grey) to well under it (the paper clipped to white,
    as a scanning app's "document" filter does), some in grey, some saved as PNG, TIFF or PDF."""
    rng = np.random.default_rng([seed, 61])
    scanner = Scanner(
        dpi=float(rng.choice([150, 200, 300, 300, 600])),
        white=float(rng.uniform(0.9, 1.1)),
        skew_deg=float(rng.normal(0, 1.0)),
        turned=bool(rng.random() < 0.3),
        grey=bool(rng.random() < 0.5),
        noise=float(rng.uniform(0.5, 2.5)),
        jpeg_quality=int(rng.integers(70, 96)) if rng.random() < 0.7 else None,
        seed=seed,
    )
    # Drawn last, so that each seed's scan holds the pixels it held before files were chosen.
    if rng.random() < 0.3:
        scanner = replace(scanner, container="pdf" if scanner.jpeg_quality else "tif")
    return scanner


Key = Cell  # kind, arena, side, index
key = cell_of


def truth_names(truth: Mapping[Key, str]) -> dict[str, str]:
    """The truth named as the answer key beside a photo names its cells (reader/truth.py)."""
    return {key_of(k): v for k, v in truth.items()}


def truth_from_names(names: Mapping[str, str]) -> dict[Key, str]:
    """An answer key's cells keyed as `key` keys them: `truth_names` read back."""
    return {cell_from_key(name): value for name, value in names.items()}


def written_winner(sheet: Sheet, truth: Mapping[Key, str]) -> str | None:
    """Who wins the sheet as it was written (`truth`), on a reading of it as the referee parsed
    it (for its players, mode and arenas). None: a draw in a duel."""
    from printgen.games.one_page_war.referee import judge_arena, leader_of

    winners = []
    for arena in sheet.arenas:
        sides = []
        for side, held in zip(("first", "second"), arena.sides, strict=True):
            written = [truth[("square", arena.name, side, i)] for i in range(len(held.squares))]
            squares = tuple(Mark(v) if v in ("*", "_") else int(v) for v in written)
            sides.append(replace(held, squares=squares))
        allies = truth.get(("allies", arena.name, None, 0)) == "S"
        winners.append(
            judge_arena(replace(arena, sides=(sides[0], sides[1]), allies=allies)).winner
        )
    return leader_of(sheet.players, sheet.mode, winners)


@dataclass
class Filled:
    truth: dict[Key, str]  # what each square, tick box and S space holds
    mode: str
    tag: SheetTag


def random_game(
    rng: np.random.Generator,
    mode: str,
    finished: bool = True,
    version: int | None = None,
    sheet: int = 1,
) -> dict[Key, str]:
    """What each cell of a sheet holds after a game played by the rulebook from `rng`
    (tests/playout.py); unfinished, stopped after a random number of writes. For a team game,
    the `sheet`-th sheet of a two-pair pack, as `blank_sheet` draws it."""
    game = playout.play_game(rng, mode, finished, version)
    return sheet_truth(game.sheets[sheet - 1 if mode == "team" else 0], rng, version)


def sheet_truth(
    sheet: Sheet, rng: np.random.Generator, version: int | None = None
) -> dict[Key, str]:
    """Each square, tick box and S space of a typed-in sheet, as the photo shows it. One use of
    a power ticks a box on both sides; which boxes is the players' choice (random here)."""
    geometry = sheet_geometry("standard", Paper.A4, version)
    truth = {key(e): value for e, value in sheet_cells(sheet, geometry).items()}
    for arena in sheet.arenas:
        uses = sum(side.uses for side in arena.sides)
        for side in Side:
            boxes = geometry.select(Kind.TICK, arena.name, side)
            ticked = set(rng.choice(len(boxes), uses, replace=False).tolist())
            for e in boxes:
                truth[key(e)] = "ticked" if e.index in ticked else "empty"
    return truth


def hands(
    seed: int, held_out: bool = True, rng: np.random.Generator | None = None
) -> tuple[hw.Writer, hw.Writer]:
    """The writers of the first and the second side of sheet `seed` (`rng`: the sheet's own
    generator, when it is already drawing)."""
    rng = rng if rng is not None else np.random.default_rng([seed, 17])
    return (
        hw.writer(int(rng.integers(0, 10_000)), held_out),
        hw.writer(int(rng.integers(0, 10_000)), held_out),
    )


def fill_sheet(
    blank: Blank,
    truth: dict[Key, str],
    seed: int,
    held_out: bool = True,
    real: real_digits.RealDigits | None = None,
    pen: real_digits.Pen | None = None,
    height: tuple[float, float] = real_digits.HEIGHT_SHARE,
    far_upright: bool = False,
    rubbed_out: float = 0.0,
    skips: float = 0.0,
    ink: tuple[float, float, float] | None = None,
    struck_out: float = 0.0,
    underlined: float = 0.0,
) -> np.ndarray:
    """The blank sheet with each cell's truth written in by two writers (with `far_upright`, the
    far side's marks written the near player's way up, as a solo player may). With `real`, every
    digit is one of those real handwritten digits (each square its own, drawn with the side's
    pen, or with `pen` on both sides, `height` the range of its height as a share of the space
    inside the square's line, past 1 over the line); stars, S and ticks stay the writers' own.
    `rubbed_out`: the share of real numbers written over another digit rubbed out first, as
    Armored support and Air raid ask (what an eraser leaves: 10 to 35 % of the ink, smudged).
    `skips`: the share of real numbers written with a pen that skips (1 to 3 gaps a digit).
    `ink`: every mark in that colour (RGB, 0 to 1) instead of the writers' black or blue.
    `struck_out`: the share of real numbers corrected as a pen corrects them (`_struck_out`).
    `underlined`: the share of real 6s and 9s written with a line under them (`_underlined`)."""
    rng = np.random.default_rng([seed, 17])
    strike_rng = np.random.default_rng([seed, 31])
    real_rng = np.random.default_rng([seed, 19])
    rub_rng = np.random.default_rng([seed, 23])
    skip_rng = np.random.default_rng([seed, 29])
    line_rng = np.random.default_rng([seed, 37])
    pens = {side: real_digits.random_pen(real_rng) for side in (Side.FIRST, Side.SECOND)}
    if pen is not None:
        pens = {side: pen for side in pens}
    k = SHEET_PX_PER_MM
    page = blank.image.astype(np.float32) / 255
    writers = dict(zip(Side, hands(seed, held_out, rng), strict=True))
    colours = {
        side: np.array([0.15, 0.15, 0.17])
        if w.pencil
        else np.array(rng.choice([[0.1, 0.1, 0.12], [0.12, 0.15, 0.5]]))
        for side, w in writers.items()
    }
    if ink is not None:
        colours = dict.fromkeys(colours, np.array(ink))
    geometry = sheet_geometry(blank.tag.layout, blank.tag.paper, blank.tag.version)
    for e in geometry.elements:
        value = truth.get(key(e))
        if value is None or value in ("_", "empty"):
            continue
        side = e.side or (Side.FIRST if rng.random() < 0.5 else Side.SECOND)
        w = writers[side]
        bleed = 0.15 if e.kind is Kind.SQUARE else 0.05
        x0, y0 = int((e.x - e.w * bleed) * k), int((e.y - e.h * bleed) * k)
        x1, y1 = int((e.x + e.w * (1 + bleed)) * k), int((e.y + e.h * (1 + bleed)) * k)
        size = (y1 - y0, x1 - x0)
        inner = (e.w * bleed * k, e.h * bleed * k, (e.w * (1 + bleed)) * k, (e.h * (1 + bleed)) * k)
        if e.kind is Kind.TICK:
            ink = np.zeros(size, np.float32)
            pad = int(e.w * bleed * k)
            ink[pad : size[0] - pad, pad : size[1] - pad] = hw.draw_tick(
                (size[0] - 2 * pad, size[1] - 2 * pad), w, rng
            )
        else:
            box = (
                inner[0] + 0.08 * e.w * k,
                inner[1] + 0.08 * e.h * k,
                inner[2] - 0.08 * e.w * k,
                inner[3] - 0.08 * e.h * k,
            )
            glyph = hw.ALLIES if value == "S" else value
            if real is not None and value.isdigit():
                skipping = bool(skip_rng.random() < skips)
                if strike_rng.random() < struck_out:
                    ink = _struck_out(value, size, box, real, pens[side], strike_rng)
                else:
                    ink = _real_number(
                        value, size, box, real, pens[side], real_rng, height, skipping
                    )
                if value in ("6", "9") and line_rng.random() < underlined:
                    ink = _underlined(ink, box, line_rng)
                if rub_rng.random() < rubbed_out:
                    ink = np.maximum(ink, _rubbed_out(value, size, box, real, pens[side], rub_rng))
            else:
                ink = hw.draw_glyph(glyph, size, w, rng, box)
        if side is Side.SECOND and not far_upright:
            ink = ink[::-1, ::-1]
        region = page[y0:y1, x0:x1]
        colour = colours[side]
        region[:] = region * (1 - ink[..., None]) + ink[..., None] * colour * region
    return (page * 255).clip(0, 255).astype(np.uint8)


def _real_number(
    value: str,
    size: tuple[int, int],
    box: tuple[float, float, float, float],
    real: real_digits.RealDigits,
    pen: real_digits.Pen,
    rng: np.random.Generator,
    height: tuple[float, float] = real_digits.HEIGHT_SHARE,
    skipping: bool = False,
) -> np.ndarray:
    """A number written with real handwritten digits, two side by side for 10 and up; with
    `skipping`, by a pen that skips."""
    x0, y0, x1, y1 = box
    step = (x1 - x0) / len(value)
    ink = np.zeros(size, np.float32)
    for k, digit in enumerate(value):
        i = int(rng.choice(real.of(int(digit))))
        part = (x0 + k * step, y0, x0 + (k + 1) * step, y1)
        written = real_digits.write_digit(
            real.images[i], real.skeleton(i), size, part, pen, rng, height
        )
        ink = np.maximum(ink, _skipped(written, part, rng) if skipping else written)
    return ink


def _earlier(value: str, rng: np.random.Generator) -> str:
    """The number a player wrote in a square before `value`: another of 1 to 7."""
    return str(rng.choice([d for d in "1234567" if d != value]))


def _rubbed_out(
    value: str,
    size: tuple[int, int],
    box: tuple[float, float, float, float],
    real: real_digits.RealDigits,
    pen: real_digits.Pen,
    rng: np.random.Generator,
) -> np.ndarray:
    """What an eraser leaves of another digit written in the box before `value`."""
    ink = _real_number(_earlier(value, rng), size, box, real, pen, rng)
    smudge = float(rng.uniform(0.5, 1.5))
    return cv2.GaussianBlur(ink, (0, 0), smudge) * float(rng.uniform(0.1, 0.35))


def _struck_out(
    value: str,
    size: tuple[int, int],
    box: tuple[float, float, float, float],
    real: real_digits.RealDigits,
    pen: real_digits.Pen,
    rng: np.random.Generator,
) -> np.ndarray:
    """`value` written as a player with a pen corrects a number: the old one (1 to 7, another)
    in the left half of the box, struck through by one or two strokes a little longer than it,
    and the new one in the box's right 55 %."""
    x0, y0, x1, y1 = box
    half = (x0, y0, x0 + 0.5 * (x1 - x0), y1)
    old = _real_number(_earlier(value, rng), size, half, real, pen, rng)
    new = _real_number(value, size, (x0 + 0.45 * (x1 - x0), y0, x1, y1), real, pen, rng)
    ys, xs = np.nonzero(old > 0.3)
    if len(ys) == 0:
        return new
    left, right, top, bottom = xs.min(), xs.max(), ys.min(), ys.max()
    reach = 0.15 * (right - left + 1)
    level = float(np.percentile(old[old > 0.3], 90))
    thick = max(1, int(round((y1 - y0) * rng.uniform(0.04, 0.08))))
    for _ in range(int(rng.integers(1, 3))):
        a, b = (top + rng.uniform(0.25, 0.75) * (bottom - top) for _ in range(2))
        start = (int(left - rng.uniform(0, reach)), int(a))
        end = (int(right + rng.uniform(0, reach)), int(b))
        cv2.line(old, start, end, level, thick, cv2.LINE_AA)
    return np.maximum(old, new)


def _underlined(
    ink: np.ndarray, box: tuple[float, float, float, float], rng: np.random.Generator
) -> np.ndarray:
    """`ink` (one digit) with a line drawn under it, as players mark a 6 apart from a 9: about
    as wide as the digit or up to a quarter wider each side, level or nearly, as thick and dark
    as its strokes, a little below it or touching it, never lower than `box`'s bottom."""
    mask = ink > 0.3
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return ink
    contours, _ = cv2.findContours(mask.view(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(c, True) for c in contours)
    thick = max(1, round(2 * len(ys) / max(outline, 1.0)))
    left, right, bottom = int(xs.min()), int(xs.max()), int(ys.max())
    width = right - left
    x0 = left - rng.uniform(-0.05, 0.25) * width
    x1 = right + rng.uniform(-0.05, 0.25) * width
    y = min(bottom + thick / 2 + rng.uniform(0.0, 0.12) * (bottom - int(ys.min())), box[3] - thick)
    tilt = rng.normal(0, 0.04) * (x1 - x0)
    line = np.zeros_like(ink)
    ends = ((round(x0), round(y - tilt / 2)), (round(x1), round(y + tilt / 2)))
    cv2.line(line, *ends, float(ink.max()), thick, cv2.LINE_AA)
    return np.maximum(ink, line)


def _skipped(
    ink: np.ndarray, box: tuple[float, float, float, float], rng: np.random.Generator
) -> np.ndarray:
    """`ink` as a pen running dry leaves it: one to three round gaps on its strokes, each about
    1.2 mm across in the standard squares (a tenth of the box's height)."""
    ys, xs = np.nonzero(ink > 0.3)
    if len(ys) == 0:
        return ink
    gaps = np.ones_like(ink)
    radius = max(2, int(0.05 * (box[3] - box[1])))
    for _ in range(int(rng.integers(1, 4))):
        i = int(rng.integers(0, len(ys)))
        cv2.circle(gaps, (int(xs[i]), int(ys[i])), radius, 0.0, -1)
    return ink * gaps


@dataclass(frozen=True)
class Shot:
    """How the photo is taken."""

    size: tuple[int, int] = (4032, 3024)  # width, height
    tilt_deg: float = 20.0  # camera off straight down
    rotation_deg: float = 0.0  # the sheet turned on the table; 180 = upside down
    fill: float = 0.85  # share of the frame the sheet spans
    blur: float = 0.8  # Gaussian sigma in photo pixels
    noise: float = 3.0  # grey levels
    jpeg_quality: int = 85
    shadow: float = 0.3  # how dark the soft shadow is (0 none)
    gradient: float = 0.3  # light falling off across the frame
    exif_orientation: int = 1  # 1 upright pixels; 3, 6 or 8: pixels turned, EXIF says how
    seed: int = 0
    # What some phones do besides (none of it in random_shot): the phone moved during the
    # exposure (a streak this many photo pixels long, 30 degrees off the rows); the picture
    # darkened (`exposure` times the light) and given a tone curve (`gamma`); and sharpened, an
    # unsharp mask of this amount and a 2 px radius, which draws a bright halo along dark lines.
    shake_px: float = 0.0
    exposure: float = 1.0
    gamma: float = 1.0
    sharpen: float = 0.0
    sharpen_px: float = 2.0  # the unsharp mask's radius (Gaussian sigma, photo pixels)
    # A veil over the whole picture (a plastic sleeve, glare over the lens, a photo faded in an
    # app): this share of white laid over it, so its black is that grey.
    haze: float = 0.0


# The photo most tests take: a 2 MP phone held a little off straight, a gentle blur and noise.
SMALL = (1600, 1200)
GENTLE = Shot(size=SMALL, tilt_deg=10, blur=0.4, noise=2, jpeg_quality=85, seed=7)


def random_shot(rng: np.random.Generator, size: tuple[int, int] = (4032, 3024)) -> Shot:
    return Shot(
        size=size if rng.random() < 0.8 else (size[1], size[0]),
        tilt_deg=float(rng.uniform(0, 35)),
        rotation_deg=float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 8)),
        fill=float(rng.uniform(0.75, 0.95)),
        blur=float(rng.uniform(0.3, 1.6) * max(size) / 4032),
        noise=float(rng.uniform(1, 5)),
        jpeg_quality=int(rng.integers(60, 96)),
        shadow=float(rng.uniform(0, 0.45)),
        gradient=float(rng.uniform(0, 0.4)),
        exif_orientation=int(rng.choice([1, 1, 1, 3, 6, 8])),
        seed=int(rng.integers(0, 2**31)),
    )


def _corners(shot: Shot, sheet_w: float, sheet_h: float) -> np.ndarray:
    """Where the sheet's corners land in the photo: a pinhole camera looking at the tilted,
    turned sheet, then scaled to fill the frame."""
    rng = np.random.default_rng([shot.seed, 1])
    pts = np.array(
        [
            (-sheet_w / 2, -sheet_h / 2),
            (sheet_w / 2, -sheet_h / 2),
            (sheet_w / 2, sheet_h / 2),
            (-sheet_w / 2, sheet_h / 2),
        ]
    )
    a = math.radians(shot.rotation_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = pts @ rot.T
    t = math.radians(shot.tilt_deg)
    axis = rng.uniform(0, math.pi)
    c, s = math.cos(axis), math.sin(axis)
    # Tilt about an axis in the table's plane at angle `axis`.
    u = pts @ np.array([c, s])
    v = pts @ np.array([-s, c])
    z = v * math.sin(t)
    v = v * math.cos(t)
    flat = np.stack([u * c - v * s, u * s + v * c], axis=1)
    distance = 1.6 * max(sheet_w, sheet_h)
    proj = flat / (distance + z)[:, None]
    proj -= proj.mean(axis=0)
    w, h = shot.size
    span = proj.max(axis=0) - proj.min(axis=0)
    k = shot.fill * min(w / span[0], h / span[1])
    proj = proj * k
    slack = np.array([w, h]) - (proj.max(axis=0) - proj.min(axis=0))
    offset = -proj.min(axis=0) + slack * rng.uniform(0.2, 0.8, 2)
    return (proj + offset).astype(np.float32)


def _background(shot: Shot, rng: np.random.Generator) -> np.ndarray:
    w, h = shot.size
    base = rng.uniform(40, 160, 3)
    grain = cv2.resize(rng.normal(0, 1, (max(2, h // 40), max(2, w // 8))), (w, h))
    bg = base[None, None, :] * (1 + 0.15 * grain[..., None])
    return bg.astype(np.float32)


def photograph(sheet: np.ndarray, shot: Shot) -> np.ndarray:
    """The photo, RGB uint8 (upright: EXIF orientation is applied when saving)."""
    rng = np.random.default_rng([shot.seed, 2])
    w, h = shot.size
    sh, sw = sheet.shape[:2]
    src = np.array([(0, 0), (sw, 0), (sw, sh), (0, sh)], np.float32)
    dst = _corners(shot, sw, sh)
    m = cv2.getPerspectiveTransform(src, dst)
    photo = _background(shot, rng)
    warped = cv2.warpPerspective(sheet, m, (w, h), flags=cv2.INTER_AREA, borderValue=(0, 0, 0))
    inside = (
        cv2.warpPerspective(
            np.full((sh, sw), 255, np.uint8), m, (w, h), flags=cv2.INTER_LINEAR
        ).astype(np.float32)[..., None]
        / 255
    )
    photo = photo * (1 - inside) + warped.astype(np.float32) * inside
    # Light: a gradient across the frame, a warm or cool cast, and a soft shadow.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(angle) + yy * math.sin(angle)) / max(w, h)
    ramp = (ramp - ramp.min()) / max(1e-6, ramp.max() - ramp.min())
    light = 1 - shot.gradient * ramp
    if shot.shadow > 0:
        mask = np.zeros((h // 8, w // 8), np.float32)
        pts = (rng.uniform(0, 1, (5, 2)) * np.array([w // 8, h // 8])).astype(np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), max(w, h) / 8 / 25)
        light = light * (1 - shot.shadow * cv2.resize(mask, (w, h)))
    cast = rng.uniform(0.92, 1.05, 3)
    photo = photo * light[..., None] * cast[None, None, :]
    if shot.blur > 0.2:
        photo = cv2.GaussianBlur(photo, (0, 0), shot.blur)
    if shot.shake_px > 0:
        photo = cv2.filter2D(photo, -1, _streak(shot.shake_px))
    photo += rng.normal(0, shot.noise, photo.shape).astype(np.float32)
    if (shot.exposure, shot.gamma) != (1.0, 1.0):
        photo = 255 * (shot.exposure * photo.clip(0, 255) / 255) ** shot.gamma
    if shot.sharpen > 0:
        soft = cv2.GaussianBlur(photo, (0, 0), shot.sharpen_px)
        photo = cv2.addWeighted(photo, 1 + shot.sharpen, soft, -shot.sharpen, 0)
    if shot.haze > 0:
        photo = (1 - shot.haze) * photo.clip(0, 255) + shot.haze * 255
    return photo.clip(0, 255).astype(np.uint8)


def _streak(length: float) -> np.ndarray:
    """The kernel of a straight shake `length` pixels long, 30 degrees off the rows."""
    size = int(np.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    angle = math.radians(30)
    end = np.array([math.cos(angle), -math.sin(angle)]) * (length - 1) / 2
    a = np.round(np.array([c, c]) - end).astype(int)
    b = np.round(np.array([c, c]) + end).astype(int)
    cv2.line(kernel, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def save_photo(photo: np.ndarray, path: Path, shot: Shot) -> None:
    """Save as JPEG (or PNG, TIFF, or a JPEG in a one-page PDF, by suffix); with an EXIF
    orientation, the pixels are stored turned so that only a reader honouring EXIF sees the
    sheet upright (a PDF has none: its page is as stored)."""
    from PIL import Image

    image = Image.fromarray(photo)
    # EXIF orientation 3: turned 180; 6: the viewer turns 90 clockwise; 8: 90 counter-clockwise.
    stored = {
        1: image,
        3: image.rotate(180),
        6: image.rotate(90, expand=True),
        8: image.rotate(-90, expand=True),
    }[shot.exif_orientation]
    exif = Image.Exif()
    exif[0x0112] = shot.exif_orientation
    buffer = io.BytesIO()
    if path.suffix.lower() == ".png":
        stored.save(buffer, "PNG", exif=exif)
    elif path.suffix.lower() == ".tif":
        stored.save(buffer, "TIFF", compression="tiff_lzw", exif=exif)
    elif path.suffix.lower() == ".pdf":
        stored.save(buffer, "PDF", quality=shot.jpeg_quality, resolution=300)
    else:
        stored.save(buffer, "JPEG", quality=shot.jpeg_quality, exif=exif)
    path.write_bytes(buffer.getvalue())


@dataclass
class CorpusPhoto:
    path: Path
    truth: dict[Key, str]
    tag: SheetTag
    mode: str
    shot: Shot
    meta: dict[str, object] = field(default_factory=dict)


def make_photo(
    out: Path,
    seed: int,
    size: tuple[int, int] = (4032, 3024),
    mode: str | None = None,
    paper: Paper | None = None,
    shot: Shot | None = None,
    held_out: bool = True,
    truth: dict[Key, str] | None = None,
    finished: bool = True,
    edit: Callable[[np.ndarray, SheetGeometry], None] | None = None,
    version: int | None = None,
    real: real_digits.RealDigits | None = None,
    pen: real_digits.Pen | None = None,
    height: tuple[float, float] = real_digits.HEIGHT_SHARE,
    far_upright: bool = False,
    rubbed_out: float = 0.0,
    skips: float = 0.0,
    printer: Printer | None = None,
    scanner: Scanner | None = None,
    ink: tuple[float, float, float] | None = None,
    struck_out: float = 0.0,
    underlined: float = 0.0,
) -> CorpusPhoto:
    """A photo of a filled sheet; `version` photographs an earlier version of the layout, `pen`
    writes every real digit (with `real`) with that pen, `height` at that height (fill_sheet);
    `printer` prints the sheet before it is written on (black on white paper by default);
    `scanner` scans it instead of a phone photographing it (`shot` then only names its file
    format and JPEG quality for `save_photo`); `ink` writes every mark in that colour;
    `struck_out`: the share of real numbers corrected with a pen, `underlined` of real 6s and 9s
    written with a line under them (fill_sheet)."""
    rng = np.random.default_rng([seed, 99])
    mode = mode or str(rng.choice(["duel", "duel", "solo"]))
    paper = paper or (Paper.A4 if rng.random() < 0.6 else Paper.LETTER)
    blank = blank_sheet(paper, mode, version)
    if printer is not None:
        blank = Blank(printer.prints(blank.image), blank.tag)
    truth = truth if truth is not None else random_game(rng, mode, finished, version)
    sheet = fill_sheet(
        blank,
        truth,
        seed,
        held_out,
        real,
        pen,
        height,
        far_upright,
        rubbed_out,
        skips,
        ink,
        struck_out,
        underlined,
    )
    if edit is not None:
        edit(sheet, sheet_geometry(blank.tag.layout, blank.tag.paper, blank.tag.version))
    shot = shot or random_shot(rng, size)
    if scanner is not None:
        shot = Shot(size=size, jpeg_quality=scanner.jpeg_quality or 95, seed=scanner.seed)
        save_photo(scanner.scans(sheet), out, shot)
        return CorpusPhoto(out, truth, blank.tag, mode, shot)
    photo = photograph(sheet, shot)
    save_photo(photo, out, shot)
    return CorpusPhoto(out, truth, blank.tag, mode, shot)


def unsure_for(photo: CorpusPhoto, why: str) -> int:
    """Read the photo; every cell must be read as written or be unsure. How many cells are
    unsure for `why` (a part of the reason the reader gives)."""
    from printgen.games.one_page_war.reader import read

    count = 0
    for r in read(photo.path).reading.all:
        expected = photo.truth[key(r.element)]
        assert r.value == expected or r.unsure, (key(r.element), expected, r.value)
        count += why in r.why
    return count


def _px(e: Element) -> tuple[slice, slice]:
    k = SHEET_PX_PER_MM
    return (slice(int(e.y * k), int((e.y + e.h) * k)), slice(int(e.x * k), int((e.x + e.w) * k)))


def cover_marker(marker_id: int) -> Callable[[np.ndarray, SheetGeometry], None]:
    """An edit: a hand (a flat skin-coloured patch) over one corner marker."""

    def edit(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        e = geometry.find(Kind.MARKER, index=marker_id)
        rows, cols = _px(e)
        sheet[rows, cols] = (196, 150, 120)

    return edit


def cover_qr() -> Callable[[np.ndarray, SheetGeometry], None]:
    """An edit: a finger (a flat skin-coloured patch) over half of the QR code."""

    def edit(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        rows, cols = _px(geometry.find(Kind.QR))
        sheet[rows, cols.start : (cols.start + cols.stop) // 2] = (196, 150, 120)

    return edit


def printed_at(scale: float) -> Callable[[np.ndarray, SheetGeometry], None]:
    """An edit: the sheet as a printer set to "fit to page" prints it, everything shrunk by
    `scale` about the paper's centre (the writing, done on the printed sheet, too)."""

    def edit(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        h, w = sheet.shape[:2]
        shrink = cv2.getRotationMatrix2D((w / 2, h / 2), 0.0, scale)
        sheet[:] = cv2.warpAffine(
            sheet, shrink, (w, h), flags=cv2.INTER_AREA, borderValue=(255, 255, 255)
        )

    return edit


def lifted(height_mm: float, shape: str = "tent") -> Callable[[np.ndarray, SheetGeometry], None]:
    """An edit: the written sheet not lying flat, as the camera (above its middle, as far as
    `_corners` puts it) sees it. `shape`: "tent", folded in half across its width with the crease
    up `height_mm`; "valley", the crease down and both short edges up; "four", folded in four,
    the creases up; "curl", the bottom edge curled up by the printer's heat. Paper bends, it does
    not kink, so each lift is smoothed over 8 mm. A point lifted by h shows where the point
    h / distance farther out from the middle would lie on a flat sheet."""

    def edit(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        h, w = sheet.shape[:2]
        k = SHEET_PX_PER_MM
        distance = 1.6 * max(w, h)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = w / 2, h / 2
        across = 1 - np.abs(xx - cx) / cx
        lift = {
            "tent": across,
            "valley": 1 - across,
            "four": np.minimum(across, 1 - np.abs(yy - cy) / cy),
            "curl": np.clip((yy - 0.75 * h) / (0.25 * h), 0, 1) ** 2,
        }[shape]
        lift = cv2.GaussianBlur(height_mm * k * lift, (0, 0), 8 * k)
        scale = (distance - lift) / distance
        sheet[:] = cv2.remap(
            sheet,
            cx + (xx - cx) * scale,
            cy + (yy - cy) * scale,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )

    return edit


def crumpled(
    seed: int, depth_mm: float = 4.0, creases: int = 3, light: float = 0.7
) -> Callable[[np.ndarray, SheetGeometry], None]:
    """An edit: a sheet crumpled in a pocket and smoothed out again, lit from one side.

    Its surface is gentle bumps up to `depth_mm` high plus `creases` sharp folds: straight lines
    where it kinks, half of them across the whole sheet and half fading out along 90 to 270 mm.
    On either side of a crease the paper rises or falls at 4 to 12 degrees for 15 to 40 mm,
    then flattens out. Every point is moved as `lifted` moves it and shaded by how its slope
    faces the light (`light`: 0 straight above, 1 a lamp 35 degrees over the table): the two
    facets of a crease are lit unequally, with a step in brightness along it, the hardship a
    crumpled sheet brings that a smooth lift does not."""

    def edit(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        rng = np.random.default_rng([seed, 47])
        h, w = sheet.shape[:2]
        k = SHEET_PX_PER_MM
        # The surface at a quarter of the sheet's resolution (mm), then scaled up smoothly.
        sh, sw = h // 4, w // 4
        ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32) * (4 / k)
        bumps = cv2.resize(rng.normal(0, 1, (6, 5)).astype(np.float32), (sw, sh), cv2.INTER_CUBIC)
        height = depth_mm * bumps / max(float(np.abs(bumps).max()), 1e-6)
        for _ in range(creases):
            turn = rng.uniform(0, math.pi)
            nx, ny = math.cos(turn), math.sin(turn)
            across = xs * nx + ys * ny
            low, high = float(across.min()), float(across.max())
            across -= float(rng.uniform(0.7 * low + 0.3 * high, 0.3 * low + 0.7 * high))
            slope = math.tan(math.radians(rng.uniform(4, 12))) * rng.choice([-1, 1])
            reach = rng.uniform(15, 40)
            # A kink, rounded over half a millimetre, whose slopes die out at `reach`; half the
            # creases run across the whole sheet, the others die out along their length too.
            bend = np.sqrt(across**2 + 0.25) - 0.5
            fold = slope * np.minimum(bend, reach)
            if rng.random() < 0.5:
                along = xs * -ny + ys * nx
                middle = float(rng.uniform(along.min(), along.max()))
                half = rng.uniform(30, 90)
                fold *= np.clip(1.5 - np.abs(along - middle) / half, 0, 1)
            height += fold
        gy, gx = np.gradient(height, 4 / k)
        # Lambertian shading, relative to a flat sheet under the same light.
        azimuth = rng.uniform(0, 2 * math.pi)
        elevation = math.radians(90 - 55 * light)
        lx = math.cos(elevation) * math.cos(azimuth)
        ly = math.cos(elevation) * math.sin(azimuth)
        lz = math.sin(elevation)
        shade = (-gx * lx - gy * ly + lz) / np.sqrt(gx**2 + gy**2 + 1) / lz
        shade = cv2.resize(shade.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        lift = cv2.resize(height.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        lift = (lift - lift.min()) * k
        shade /= max(float(np.percentile(shade, 99)), 1e-6)
        shaded = sheet.astype(np.float32) * (shade[..., None] if sheet.ndim == 3 else shade)
        distance = 1.6 * max(w, h)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = w / 2, h / 2
        scale = (distance - lift) / distance
        moved = cv2.remap(
            shaded,
            cx + (xx - cx) * scale,
            cy + (yy - cy) * scale,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        sheet[:] = np.clip(moved, 0, 255).astype(sheet.dtype)

    return edit


def replace_qr(text: str) -> Callable[[np.ndarray, SheetGeometry], None]:
    """An edit: the sheet's QR code replaced by one saying `text`."""

    def edit(sheet: np.ndarray, geometry: SheetGeometry) -> None:
        e = geometry.find(Kind.QR)
        rows, cols = _px(e)
        code = cv2.QRCodeEncoder.create().encode(text)
        h, w = rows.stop - rows.start, cols.stop - cols.start
        code = cv2.resize(code, (w, h), interpolation=cv2.INTER_NEAREST)
        sheet[rows, cols] = code[..., None]

    return edit


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Write synthetic photos of filled sheets.")
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--size", default="4032x3024")
    parser.add_argument(
        "--layout-version",
        type=int,
        help="photograph this version of the layout (default: current)",
    )
    parser.add_argument(
        "--real",
        choices=sorted(real_digits.PARTS),
        help="write the digits with this part of the real handwritten digits",
    )
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    real = real_digits.part(args.real) if args.real else None
    for seed in range(args.first_seed, args.first_seed + args.count):
        photo = make_photo(
            args.out / f"sheet-{seed}.jpg",
            seed,
            (width, height),
            version=args.layout_version,
            real=real,
        )
        truth = truth_names(photo.truth)
        (args.out / f"sheet-{seed}.json").write_text(json.dumps(truth, indent=1))
        print(photo.path, photo.mode, photo.tag.paper.value, photo.shot)


if __name__ == "__main__":
    main()
