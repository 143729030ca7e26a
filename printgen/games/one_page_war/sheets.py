"""The printed One Page War sheets: the duel sheet, the solo sheet, the team pack (N duel sheets
and a tally sheet), and batches of any of them with `--copies`.

Every element is drawn at the box `geometry.sheet_geometry()` gives it, so what is printed is
exactly what `printgen layout one-page-war --json` prints and what the photo reader reads. The
far half belongs to the second player and is drawn turned 180 degrees, its text included.
Words come from `seeds/one-page-war.md` (see texts.py)."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from printgen.errors import FitError, InputError
from printgen.games.one_page_war.geometry import (
    ARUCO_DICTIONARY,
    Element,
    Kind,
    Rect,
    SheetGeometry,
    SheetTag,
    Side,
    sheet_geometry,
    sheet_id,
)
from printgen.games.one_page_war.layout import Layout, LineStyle, load_layout
from printgen.games.one_page_war.texts import SheetTexts, sheet_texts
from printgen.materials import BuildOptions, Progress
from printgen.render.fiducials import draw_aruco, draw_qr
from printgen.render.fonts import BODY, BOLD
from printgen.render.fonts import COND as COND_FACE
from printgen.render.fonts import COND_BOLD as COND_BOLD_FACE
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.text import Anchor, draw_text, paragraph, text_width
from printgen.render.units import Paper, mm, to_mm

COND, COND_BOLD = COND_FACE.name, COND_BOLD_FACE.name
MIN_PAIRS, MAX_PAIRS = 2, 6
MAX_COPIES = 10_000

# Line work comes from the layout (its version decides it: see layout.py); text colours here.
SOFT_TEXT = Color(0.45, 0.45, 0.45)
INK = Color(0.1, 0.1, 0.1)

# Powers text: the largest size that fits its box, never below the floor.
POWERS_SIZES = (7.5, 7.25, 7.0, 6.75, 6.5, 6.25, 6.0)


class Mode(Enum):
    DUEL = "duel"
    SOLO = "solo"
    TEAM = "team"


@dataclass(frozen=True)
class SheetSpec:
    """One printed duel, solo or team sheet: what differs from page to page."""

    mode: Mode
    sheet_id: str
    caption: str  # e.g. "duel sheet" or "team pack: sheet 2 of 4"


@dataclass(frozen=True)
class TallySpec:
    """A team pack's tally sheet, for the pack's duel sheets."""

    sheets: tuple[SheetSpec, ...]


Page = SheetSpec | TallySpec


# ----------------------------------------------------------------------------------------------
# Building


def check_copies(copies: int) -> None:
    if not 1 <= copies <= MAX_COPIES:
        raise InputError(
            f"--copies must be a whole number from 1 to {MAX_COPIES}, not {copies}: "
            "it is how many sheets the PDF holds"
        )


def check_pairs(pairs: int) -> None:
    if not MIN_PAIRS <= pairs <= MAX_PAIRS:
        raise InputError(
            f"--pairs must be from {MIN_PAIRS} to {MAX_PAIRS}, not {pairs}: a team game needs at "
            f"least two pairs of opponents (one pair is a plain duel: build one-page-war)"
        )


def sheet_specs(
    mode: Mode, layout: Layout, paper: Paper, copies: int, batch: str = ""
) -> list[SheetSpec]:
    """A batch of duel or solo sheets, numbered from 1, each with its own id."""
    check_copies(copies)
    return [
        SheetSpec(mode, sheet_id(mode.value, layout, paper, k, seed=batch), f"{mode.value} sheet")
        for k in range(1, copies + 1)
    ]


def team_pages(
    layout: Layout, paper: Paper, pairs: int, copies: int = 1, batch: str = ""
) -> list[Page]:
    """Per pack, its N sheets ("sheet k of N", each its own id), then the pack's tally sheet."""
    check_pairs(pairs)
    check_copies(copies)
    pages: list[Page] = []
    for pack in range(copies):
        sheets = tuple(
            SheetSpec(
                Mode.TEAM,
                sheet_id("team", layout, paper, pack * pairs + k, seed=_team_seed(pairs, batch)),
                f"team pack: sheet {k} of {pairs}",
            )
            for k in range(1, pairs + 1)
        )
        pages.extend(sheets)
        pages.append(TallySpec(sheets))
    return pages


def _team_seed(pairs: int, batch: str) -> str:
    return f"pairs={pairs}" + (f";batch={batch}" if batch else "")


# `version` draws an earlier version of the layout (the photo corpus and training need sheets
# as they were printed then); a build for players always draws the current one.


def build_duel(
    options: BuildOptions, progress: Progress | None = None, *, version: int | None = None
) -> bytes:
    layout = load_layout(options.layout, version)
    pages = sheet_specs(Mode.DUEL, layout, options.paper, options.copies, options.batch)
    return _build(layout, options.paper, pages, "duel sheet", progress)


def build_solo(
    options: BuildOptions, progress: Progress | None = None, *, version: int | None = None
) -> bytes:
    layout = load_layout(options.layout, version)
    pages = sheet_specs(Mode.SOLO, layout, options.paper, options.copies, options.batch)
    return _build(layout, options.paper, pages, "solo sheet", progress)


def build_team(
    options: BuildOptions, progress: Progress | None = None, *, version: int | None = None
) -> bytes:
    layout = load_layout(options.layout, version)
    pages = team_pages(layout, options.paper, options.pairs, options.copies, options.batch)
    return _build(layout, options.paper, pages, "team pack", progress)


def _build(
    layout: Layout,
    paper: Paper,
    pages: Sequence[Page],
    subject: str,
    progress: Progress | None,
) -> bytes:
    geometry = sheet_geometry(layout, paper)
    texts = sheet_texts(layout)
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        paper.size.landscape(),
        PdfMeta(title="One Page War", subject=f"{subject}, {layout.name} layout"),
    )
    painter = SheetPainter(canvas, layout, geometry, texts)
    for done, page in enumerate(pages, start=1):
        if isinstance(page, TallySpec):
            draw_tally(canvas, layout, geometry, texts, page.sheets)
        else:
            painter.draw(page)
        canvas.showPage()
        if progress is not None:
            progress(done, len(pages))
    canvas.save()
    return buffer.getvalue()


# ----------------------------------------------------------------------------------------------
# Drawing one sheet


@contextmanager
def facing(canvas: Canvas, rect: Rect, page_height: float, upside_down: bool) -> Iterator[None]:
    """Draw inside `rect` in points, (0, 0) at its bottom-left corner as its reader sees it."""
    canvas.saveState()
    x, y = mm(rect.x), mm(page_height - rect.bottom)
    if upside_down:
        canvas.translate(x + mm(rect.w), y + mm(rect.h))
        canvas.rotate(180)
    else:
        canvas.translate(x, y)
    try:
        yield
    finally:
        canvas.restoreState()


def stroke_with(canvas: Canvas, style: LineStyle) -> None:
    """Set the canvas to draw lines as `style` says (grey from its share of black)."""
    grey = 1.0 - style.black
    canvas.setStrokeColor(Color(grey, grey, grey))
    canvas.setLineWidth(mm(style.width))
    canvas.setDash([mm(d) for d in style.dash] if style.dash else [], 0)


def outline(canvas: Canvas, w: float, h: float) -> None:
    """A box as four straight strokes (so the PDF's line work can be read back edge by edge)."""
    path = canvas.beginPath()
    path.moveTo(0, 0)
    path.lineTo(w, 0)
    path.lineTo(w, h)
    path.lineTo(0, h)
    path.lineTo(0, 0)
    canvas.drawPath(path, stroke=1, fill=0)


# What differs from one sheet to the next; everything else is the same on every sheet of a mode.
PER_SHEET = frozenset({Kind.QR, Kind.SHEET_LABEL})


class SheetPainter:
    """Draws sheets of one layout on one paper; the text that is the same on every copy is
    fitted once and drawn again on each page."""

    def __init__(
        self, canvas: Canvas, layout: Layout, geometry: SheetGeometry, texts: SheetTexts
    ) -> None:
        self.canvas = canvas
        self.layout = layout
        self.geometry = geometry
        self.texts = texts
        self._powers: dict[Mode, list[Paragraph]] = {}
        self._ai: list[Paragraph] | None = None
        self._forms: set[Mode] = set()

    def draw(self, spec: SheetSpec) -> None:
        """One sheet: the part every sheet of this mode shares is drawn once into a PDF form and
        placed on each page (a batch of 500 stays fast and small); then this sheet's own QR code
        and id."""
        g = self.geometry
        form = f"one-page-war-{spec.mode.value}"
        if spec.mode not in self._forms:
            self.canvas.beginForm(form, 0, 0, mm(g.width), mm(g.height))
            for _, frame in g.frames:
                self._frame(frame)
            for element in g.elements:
                if element.kind not in PER_SHEET:
                    self._element(element, spec)
            self.canvas.endForm()
            self._forms.add(spec.mode)
        self.canvas.doForm(form)
        for element in g.elements:
            if element.kind in PER_SHEET:
                self._element(element, spec)

    def _frame(self, frame: Rect) -> None:
        c = self.canvas
        style = self.layout.lines.frame
        c.saveState()
        stroke_with(c, style)
        c.roundRect(
            mm(frame.x),
            mm(self.geometry.height - frame.bottom),
            mm(frame.w),
            mm(frame.h),
            mm(style.radius),
            stroke=1,
            fill=0,
        )
        c.restoreState()

    def _element(self, e: Element, spec: SheetSpec) -> None:
        c = self.canvas
        w, h = mm(e.w), mm(e.h)
        solo_ai_box = spec.mode is Mode.SOLO and e.side is Side.SECOND and e.kind is Kind.POWERS
        # The AI's rules are for the human at the near edge: they alone face the near side.
        upside_down = e.upside_down and not solo_ai_box
        with facing(c, e.rect, self.geometry.height, upside_down):
            lines = self.layout.lines
            if e.kind in (Kind.SQUARE, Kind.TICK):
                stroke_with(c, lines.write_in)
                outline(c, w, h)
            elif e.kind is Kind.ALLIES:
                stroke_with(c, lines.allies)
                c.roundRect(0, 0, w, h, mm(lines.allies.radius), stroke=1, fill=0)
            elif e.kind is Kind.LABEL:
                self._label(e, w, h)
            elif e.kind is Kind.DICE:
                stroke_with(c, lines.dice)
                c.roundRect(0, 0, w, h, mm(lines.dice.radius), stroke=1, fill=0)
                c.setFillColor(SOFT_TEXT)
                text = "AI: die + 1" if spec.mode is Mode.SOLO and e.side is Side.SECOND else "die"
                draw_text(
                    c,
                    text,
                    w / 2,
                    h / 2 - 2,
                    BODY,
                    6,
                    where="dice space",
                    anchor=Anchor.CENTRE,
                    max_width=w - mm(2),
                    min_size=5,
                )
            elif e.kind is Kind.NAME:
                self._name(e, spec, w)
            elif e.kind is Kind.MARKER:
                draw_aruco(c, ARUCO_DICTIONARY, e.index, 0, 0, w)
            elif e.kind is Kind.QR:
                tag = SheetTag(
                    self.layout.name, self.layout.version, self.geometry.paper, spec.sheet_id
                )
                draw_qr(c, tag.to_text(), 0, 0, w)
            elif e.kind is Kind.SHEET_LABEL:
                c.setFillColor(SOFT_TEXT)
                text = f"One Page War · {spec.caption} · {spec.sheet_id}"
                draw_text(
                    c,
                    text,
                    w / 2,
                    mm(1),
                    BODY,
                    7,
                    where="sheet label",
                    anchor=Anchor.CENTRE,
                    max_width=w,
                    min_size=5.5,
                )
            elif e.kind is Kind.POWERS:
                if solo_ai_box:
                    self._column(self._ai_paragraphs(w, h), w, h)
                else:
                    self._column(self._power_paragraphs(spec.mode, w, h), w, h)

    def _label(self, e: Element, w: float, h: float) -> None:
        c = self.canvas
        assert e.arena is not None
        arena = self.layout.arena(e.arena)
        power = self.texts.power(arena.power)
        where = f"arena {arena.name} label"
        c.setFillColor(INK)
        draw_text(
            c,
            arena.name.upper(),
            w / 2,
            h - mm(3.4),
            BOLD,
            9,
            where=where,
            anchor=Anchor.CENTRE,
            max_width=w,
            min_size=6.5,
        )
        draw_text(
            c,
            arena.power,
            w / 2,
            h - mm(7.0),
            COND_BOLD,
            7,
            where=where,
            anchor=Anchor.CENTRE,
            max_width=w,
            min_size=5.5,
        )
        c.setFillColor(SOFT_TEXT)
        draw_text(
            c,
            power.reminder,
            w / 2,
            h - mm(10.2),
            COND,
            6.3,
            where=where,
            anchor=Anchor.CENTRE,
            max_width=w,
            min_size=5,
        )

    def _name(self, e: Element, spec: SheetSpec, w: float) -> None:
        c = self.canvas
        if spec.mode is Mode.SOLO and e.side is Side.SECOND:
            label = "AI (you play its turns)"
        elif spec.mode is Mode.TEAM:
            label = "Team 1 · name" if e.side is Side.FIRST else "Team 2 · name"
        else:
            label = "Name"
        c.setFillColor(INK)
        used = draw_text(
            c, label, 0, mm(1.5), BODY, 8, where="name line", max_width=w / 2, min_size=6
        )
        start = text_width(label, BODY, used) + mm(1.5)
        stroke_with(c, self.layout.lines.write_in)
        c.line(start, mm(0.8), w, mm(0.8))

    # The powers column ----------------------------------------------------------------------

    def _power_paragraphs(self, mode: Mode, w: float, h: float) -> list[Paragraph]:
        if mode not in self._powers:
            self._powers[mode] = _fit(self._power_markup(), w, h, "the powers column")
        return self._powers[mode]

    def _power_markup(self) -> list[tuple[str, bool]]:
        items: list[tuple[str, bool]] = [("<b>Powers</b>", True)]
        items += [(f"• {text}", False) for text in self.texts.using_powers]
        for arena, power in zip(self.layout.arenas, self.texts.powers, strict=True):
            items.append((f"<b>{power.name}</b> ({arena.name}): {power.explanation}", False))
        return items

    def _ai_paragraphs(self, w: float, h: float) -> list[Paragraph]:
        if self._ai is None:
            items: list[tuple[str, bool]] = [("<b>The AI's turn (you play it)</b>", True)]
            items += [(f"• {text}", False) for text in self.texts.ai_turn]
            self._ai = _fit(items, w, h, "the solo sheet's AI rules")
        return self._ai

    def _column(self, paragraphs: list[Paragraph], w: float, h: float) -> None:
        y = h
        for para in paragraphs:
            y -= para.height + para.style.spaceBefore
            para.drawOn(self.canvas, 0, y)


def _style(size: float, heading: bool) -> ParagraphStyle:
    return ParagraphStyle(
        "heading" if heading else "body",
        fontName=BOLD if heading else BODY,
        fontSize=size + (1 if heading else 0),
        leading=(size + (1 if heading else 0)) * 1.18,
        spaceBefore=0 if heading else size * 0.35,
        alignment=TA_LEFT,
        textColor=INK,
    )


def _fit(items: list[tuple[str, bool]], w: float, h: float, where: str) -> list[Paragraph]:
    """Paragraphs wrapped to width `w` at the largest size whose total height fits `h`."""
    needed = 0.0
    for size in POWERS_SIZES:
        paragraphs = [paragraph(text, _style(size, heading), where) for text, heading in items]
        needed = 0.0
        for para in paragraphs:
            _, height = para.wrap(w, h)
            needed += height + para.style.spaceBefore
        if needed <= h:
            return paragraphs
    raise FitError(
        f"{where}: the text needs {to_mm(needed):.1f} mm at {POWERS_SIZES[-1]} pt but the box is "
        f"{to_mm(h):.1f} mm tall: shorten it in seeds/one-page-war.md"
    )


# ----------------------------------------------------------------------------------------------
# The team tally sheet


def draw_tally(
    canvas: Canvas,
    layout: Layout,
    geometry: SheetGeometry,
    texts: SheetTexts,
    sheets: Sequence[SheetSpec],
) -> None:
    W, H = geometry.width, geometry.height
    left, right, top = 20.0, W - 20.0, 20.0

    def at(x: float, y: float) -> tuple[float, float]:
        return mm(x), mm(H - y)

    canvas.saveState()
    canvas.setFillColor(INK)
    draw_text(canvas, "One Page War · team tally", *at(left, top), BOLD, 16, where="tally title")
    n = len(sheets)
    draw_text(
        canvas,
        f"{n} sheets, {n * len(layout.arenas)} arenas in all · {layout.name} layout",
        *at(left, top + 7),
        BODY,
        9,
        where="tally subtitle",
    )
    for k, label in enumerate(("Team 1 (near edge of every sheet)", "Team 2 (far edge)")):
        x = left + k * (right - left) / 2
        draw_text(canvas, label, *at(x, top + 17), BODY, 9, where="tally team")
        stroke_with(canvas, layout.lines.write_in)
        canvas.line(*at(x, top + 24), *at(x + (right - left) / 2 - 10, top + 24))

    columns = (
        ("Sheet", 18.0),
        ("Sheet id", 28.0),
        ("Team 1 player", 44.0),
        ("Team 2 player", 44.0),
        ("Arenas won: Team 1", 31.0),
        ("Arenas won: Team 2", 31.0),
        ("Sheet won by", 0.0),
    )
    widths = [wd for _, wd in columns]
    widths[-1] = (right - left) - sum(widths[:-1])
    xs = [left + sum(widths[:i]) for i in range(len(widths) + 1)]
    row_h = 9.0
    y0 = top + 32
    rows = n + 3  # the header, one per sheet, the arena totals, the sheets won
    body_end = y0 + (n + 1) * row_h
    stroke_with(canvas, layout.lines.write_in)
    for r in range(rows + 1):
        canvas.line(*at(left, y0 + r * row_h), *at(right, y0 + r * row_h))
    for i, x in enumerate(xs):
        # The two summing rows span the first four columns with their label.
        end = y0 + rows * row_h if i in (0, 4, 5, 6, 7) else body_end
        canvas.line(*at(x, y0), *at(x, end))
    for (title, _), x, wd in zip(columns, xs[:-1], widths, strict=True):
        draw_text(
            canvas,
            title,
            *at(x + 1.5, y0 + 6),
            COND_BOLD,
            8,
            where="tally header",
            max_width=mm(wd - 3),
            min_size=6,
        )
    for k, spec in enumerate(sheets, start=1):
        y = y0 + (k + 1) * row_h - 3
        draw_text(canvas, f"{k} of {n}", *at(xs[0] + 1.5, y), BODY, 9, where="tally row")
        draw_text(canvas, spec.sheet_id, *at(xs[1] + 1.5, y), BODY, 9, where="tally row")
    for r, label in ((n + 2, "Arenas won on all sheets"), (n + 3, "Sheets won (breaks a tie)")):
        draw_text(canvas, label, *at(xs[0] + 1.5, y0 + r * row_h - 3), BOLD, 9, where="tally total")
    canvas.setFillColor(SOFT_TEXT)
    draw_text(
        canvas,
        "Sheet won by: the team whose player won more arenas on it (or draw).",
        *at(left, y0 + rows * row_h + 5),
        BODY,
        7.5,
        where="tally note",
    )

    canvas.setFillColor(INK)
    y = y0 + rows * row_h + 14
    draw_text(canvas, "Who wins", *at(left, y), BOLD, 10, where="tally rules")
    y += 2
    for markup in texts.team_result:
        para = paragraph(f"• {markup}", _style(9, False), "tally rules")
        _, height = para.wrap(mm(right - left), mm(H))
        y += to_mm(height) + 1.5
        para.drawOn(canvas, mm(left), mm(H - y))
    y += 9
    draw_text(canvas, "Winning team:", *at(left, y), BOLD, 10, where="tally winner")
    canvas.line(*at(left + 30, y + 0.8), *at(left + 130, y + 0.8))
    if y > H - 15:
        raise FitError(f"the tally sheet for {n} sheets runs {y - (H - 15):.1f} mm past its foot")
    canvas.restoreState()
