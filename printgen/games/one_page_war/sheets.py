"""The printed One Page War sheets: the duel sheet, the solo sheet, the team pack (N duel sheets
and a tally sheet), and batches of any of them with `--copies`.

Every element is drawn at the box `geometry.sheet_geometry()` gives it, so what is printed is
exactly what `printgen layout one-page-war --json` prints and what the photo reader reads. The
far half belongs to the second player and is drawn turned 180 degrees, its text included.
Words come from `seeds/one-page-war.md` (see texts.py)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
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
from printgen.render.marks import sheet_footer
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.text import Anchor, draw_text, paragraph, text_width
from printgen.render.units import Paper, mm, to_mm

COND, COND_BOLD = COND_FACE.name, COND_BOLD_FACE.name
MIN_PAIRS, MAX_PAIRS = 2, 6
MAX_COPIES = 10_000

# Line work comes from the layout (its version decides it: see layout.py); text colours here.
# Secondary text is a dark grey that a copier in text mode still prints.
SOFT_TEXT = Color(0.3, 0.3, 0.3)
INK = Color(0.1, 0.1, 0.1)

# The rules columns: the largest size that fits, never below 6.5 pt.
POWERS_SIZES = (7.5, 7.25, 7.0, 6.75, 6.5)


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

    @property
    def purpose(self) -> str:
        """What the footer says the sheet is for."""
        return self.caption.replace(": ", ", ")


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
        why = (
            "a team game needs at least two pairs of opponents (one pair is a plain duel: "
            "build one-page-war)"
            if pairs < MIN_PAIRS
            else f"a team pack holds at most {MAX_PAIRS} pairs ({2 * MAX_PAIRS} players)"
        )
        raise InputError(f"--pairs must be from {MIN_PAIRS} to {MAX_PAIRS}, not {pairs}: {why}")


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
PER_SHEET = frozenset({Kind.QR, Kind.SHEET_LABEL, Kind.TITLE, Kind.FOOTER})
# On a solo sheet the AI's half faces the far edge like a rival's, but the words about the AI
# are for the human at the near edge, the only one who reads them.
FACING_THE_HUMAN = frozenset({Kind.POWERS, Kind.NAME, Kind.DICE, Kind.TITLE, Kind.SHEET_LABEL})


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
        self._columns: dict[tuple[Mode, Side], list[Paragraph]] = {}
        self._forms: set[Mode] = set()

    def draw(self, spec: SheetSpec) -> None:
        """One sheet: the part every sheet of this mode shares is drawn once into a PDF form and
        placed on each page (a batch of 500 stays fast and small); then this sheet's own QR code,
        id, title and footer."""
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
        ai = spec.mode is Mode.SOLO and e.side is Side.SECOND
        upside_down = e.upside_down and not (ai and e.kind in FACING_THE_HUMAN)
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
                text = "AI: die + 1" if ai else "die"
                _line(c, text, w / 2, h / 2 - 2, SMALL, "dice space", w - mm(2), Anchor.CENTRE)
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
                _line(c, text, w / 2, mm(1), SHEET_LABEL, "sheet label", w, Anchor.CENTRE)
            elif e.kind is Kind.TITLE:
                self._title(spec, ai, w, h)
            elif e.kind is Kind.FOOTER:
                sheet_footer(
                    c, w, mm(1), "One Page War", spec.purpose, anchor=Anchor.RIGHT, max_width=w
                )
            elif e.kind is Kind.POWERS:
                side = e.side or Side.FIRST
                self._column(self._rules_columns(spec.mode, w, h)[side], w, h)

    def _label(self, e: Element, w: float, h: float) -> None:
        c = self.canvas
        assert e.arena is not None
        arena = self.layout.arena(e.arena)
        power = self.texts.power(arena.power)
        where = f"arena {arena.name} label"
        c.setFillColor(INK)
        _line(c, arena.name.upper(), w / 2, h - mm(3.4), ARENA, where, w, Anchor.CENTRE)
        _line(c, arena.power, w / 2, h - mm(7.0), POWER, where, w, Anchor.CENTRE)
        c.setFillColor(SOFT_TEXT)
        _line(c, power.reminder, w / 2, h - mm(10.2), REMINDER, where, w, Anchor.CENTRE)

    def _name(self, e: Element, spec: SheetSpec, w: float) -> None:
        c = self.canvas
        if spec.mode is Mode.SOLO and e.side is Side.SECOND:
            label = "AI (you play its turns)"
        elif spec.mode is Mode.TEAM:
            label = "Team 1 · name" if e.side is Side.FIRST else "Team 2 · name"
        else:
            label = "Name"
        c.setFillColor(INK)
        _line(c, label, 0, mm(1.5), NAME, "name line", w / 2)
        start = text_width(label, NAME.font, NAME.size) + mm(1.5)
        stroke_with(c, self.layout.lines.write_in)
        c.line(start, mm(0.8), w, mm(0.8))

    def _title(self, spec: SheetSpec, ai: bool, w: float, h: float) -> None:
        """The game's name and what the sheet is for, in the strip along each player's edge;
        on a solo sheet the AI's strip says whose side it is."""
        c = self.canvas
        lines: tuple[str, ...]
        if ai:
            title, lines = "The AI's side", ("you play it: its rules are top right",)
        else:
            title, lines = "One Page War", (spec.caption, SUBTITLES[spec.mode])
        c.setFillColor(INK)
        _line(c, title, w / 2, h - mm(4.4), TITLE, "sheet title", w, Anchor.CENTRE)
        c.setFillColor(SOFT_TEXT)
        for k, text in enumerate(lines):
            y = h - mm(7.9 + 2.9 * k)
            _line(c, text, w / 2, y, SUBTITLE, "sheet title", w, Anchor.CENTRE)

    # The rules columns: the powers (and on a solo sheet the AI's turn) ------------------------

    def _rules_columns(self, mode: Mode, w: float, h: float) -> dict[Side, list[Paragraph]]:
        """Each half of the right-hand column, fitted together: one size for all its text."""
        if (mode, Side.FIRST) not in self._columns:
            powers = self._power_markup()
            far = self._ai_markup() if mode is Mode.SOLO else powers
            near_fit, far_fit = _fit([powers, far], w, h, f"the {mode.value} sheet's rules column")
            self._columns[(mode, Side.FIRST)] = near_fit
            self._columns[(mode, Side.SECOND)] = far_fit
        return {side: self._columns[(mode, side)] for side in Side}

    def _power_markup(self) -> list[tuple[str, bool]]:
        items: list[tuple[str, bool]] = [("Powers", True)]
        items += [(text, False) for text in self.texts.using_powers]
        for arena, power in zip(self.layout.arenas, self.texts.powers, strict=True):
            items.append((f"<b>{power.name}</b> ({arena.name}): {power.explanation}", False))
        return items

    def _ai_markup(self) -> list[tuple[str, bool]]:
        items: list[tuple[str, bool]] = [("The AI's turn (you play it)", True)]
        return items + [(text, False) for text in self.texts.ai_turn]

    def _column(self, paragraphs: list[Paragraph], w: float, h: float) -> None:
        y = h
        for para in paragraphs:
            y -= para.height + para.style.spaceBefore
            para.drawOn(self.canvas, 0, y)


@dataclass(frozen=True)
class TextRole:
    """One kind of text on the sheets: one face and one size wherever it appears."""

    font: str
    size: float


ARENA = TextRole(BOLD, 9.0)  # an arena's name, in capitals
POWER = TextRole(COND_BOLD, 7.0)  # the power's name under it
REMINDER = TextRole(COND, 6.5)  # the power in a few words
SMALL = TextRole(BODY, 6.5)  # "die" in the dice space
NAME = TextRole(BODY, 8.0)  # the name line's label
SHEET_LABEL = TextRole(BODY, 7.0)  # beside the QR code
TITLE = TextRole(BOLD, 14.0)
SUBTITLE = TextRole(BODY, 7.0)
SUBTITLES = {  # under the sheet's caption ("duel sheet", "team pack: sheet 2 of 4")
    Mode.DUEL: "two players, one die, one pencil",
    Mode.SOLO: "you against the AI across the sheet",
    Mode.TEAM: "team rules: on the tally sheet",
}


def _line(
    canvas: Canvas,
    text: str,
    x: float,
    y: float,
    role: TextRole,
    where: str,
    max_width: float,
    anchor: Anchor = Anchor.LEFT,
) -> None:
    """One line of a role's text at the role's size: too long for its box is a FitError."""
    draw_text(
        canvas, text, x, y, role.font, role.size, where=where, anchor=anchor, max_width=max_width
    )


BULLET = "•"


def _style(size: float, heading: bool) -> ParagraphStyle:
    """Rules text; a bullet item hangs, so its wrapped lines start under its first word."""
    hang = 0.0 if heading else text_width(f"{BULLET} ", BODY, size)
    return ParagraphStyle(
        "heading" if heading else "body",
        fontName=BOLD if heading else BODY,
        fontSize=size + (1 if heading else 0),
        leading=(size + (1 if heading else 0)) * 1.18,
        spaceBefore=0 if heading else size * 0.3,
        alignment=TA_LEFT,
        textColor=INK,
        leftIndent=hang,
        bulletIndent=0,
        bulletFontName=BODY,
        bulletFontSize=size,
    )


def _fit(
    columns: list[list[tuple[str, bool]]],
    w: float,
    h: float,
    where: str,
    sizes: Sequence[float] = POWERS_SIZES,
    widths: Sequence[float] | None = None,
) -> list[list[Paragraph]]:
    """Each column's items as paragraphs wrapped to width `w` (or its own of `widths`), all at
    the largest of `sizes` at which every column's total height fits `h`: text of one role has
    one size across a sheet."""
    needed = 0.0
    column_widths = list(widths) if widths is not None else [w] * len(columns)
    for size in sizes:
        fitted = []
        for items in columns:
            paragraphs = [
                paragraph(text, _style(size, heading), where, None if heading else BULLET)
                for text, heading in items
            ]
            fitted.append(paragraphs)
        needed = max(
            _height(paragraphs, width, h)
            for paragraphs, width in zip(fitted, column_widths, strict=True)
        )
        if needed <= h:
            return fitted
    raise FitError(
        f"{where}: the text needs {to_mm(needed):.1f} mm at {sizes[-1]} pt but the box is "
        f"{to_mm(h):.1f} mm tall: shorten it in seeds/one-page-war.md"
    )


def _height(paragraphs: list[Paragraph], w: float, h: float) -> float:
    total = 0.0
    for para in paragraphs:
        _, height = para.wrap(w, h)
        total += height + para.style.spaceBefore
    return total


# ----------------------------------------------------------------------------------------------
# The team tally sheet


TALLY_MARGIN = 20.0  # mm, all round the tally sheet
TALLY_ROW = 9.0  # mm, a row of the tally table
TALLY_RULES_SIZES = (9.0, 8.75, 8.5, 8.25, 8.0, 7.75, 7.5)
SHADE = Color(0.82, 0.82, 0.82)  # a cell that means nothing on its row


def draw_tally(
    canvas: Canvas,
    layout: Layout,
    geometry: SheetGeometry,
    texts: SheetTexts,
    sheets: Sequence[SheetSpec],
) -> None:
    """The team pack's tally sheet: a row per sheet (arenas each team's player won, which team
    won the sheet), the totals under the same headings, the team rules and who wins."""
    W, H = geometry.width, geometry.height
    left, right, top = TALLY_MARGIN, W - TALLY_MARGIN, TALLY_MARGIN
    n = len(sheets)

    def at(x: float, y: float) -> tuple[float, float]:
        return mm(x), mm(H - y)

    canvas.saveState()
    canvas.setFillColor(INK)
    draw_text(canvas, "One Page War · team tally", *at(left, top), BOLD, 16, where="tally title")
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

    y = _tally_table(canvas, layout, sheets, left, right, top + 31, at)
    # The result goes right under the totals it comes from.
    y += 9
    x0 = left + (right - left) * 0.6
    canvas.setFillColor(INK)
    draw_text(canvas, "Winning team:", *at(x0, y), BOLD, 10, where="tally winner")
    stroke_with(canvas, layout.lines.write_in)
    start = x0 + to_mm(text_width("Winning team:", BOLD, 10)) + 2
    canvas.line(*at(start, y + 0.8), *at(right, y + 0.8))

    # The rules, two columns at one size: how a team game is played, and who wins it.
    gutter = 10.0
    split = left + (right - left) * 0.6
    columns = (
        (left, split - gutter, [("Team play", True)] + [(t, False) for t in texts.team_play]),
        (split, right, [("Who wins", True)] + [(t, False) for t in texts.team_result]),
    )
    top_of_rules = y + 8
    foot = H - TALLY_MARGIN + 4  # the footer stands below
    fitted = _fit(
        [items for _, _, items in columns],
        mm(right - left),
        mm(foot - top_of_rules),
        f"the tally sheet for {n} sheets",
        TALLY_RULES_SIZES,
        widths=[mm(x1 - x0) for x0, x1, _ in columns],
    )
    for (x0, _, _), paragraphs in zip(columns, fitted, strict=True):
        cursor = top_of_rules
        for para in paragraphs:
            cursor += to_mm(para.height + para.style.spaceBefore)
            para.drawOn(canvas, mm(x0), mm(H - cursor))
    sheet_footer(
        canvas,
        mm(right),
        mm(TALLY_MARGIN - 8),
        "One Page War",
        "team tally",
        anchor=Anchor.RIGHT,
        max_width=mm(right - left),
    )
    canvas.restoreState()


def _tally_table(
    canvas: Canvas,
    layout: Layout,
    sheets: Sequence[SheetSpec],
    left: float,
    right: float,
    y0: float,
    at: Callable[[float, float], tuple[float, float]],
) -> float:
    """The table, its top at `y0` mm; returns where it ends. Each total stands under the
    heading of what it counts, and the cells that mean nothing on their row are shaded."""
    n = len(sheets)
    count_w = 24.0
    fixed = (16.0, 28.0)
    player_w = (right - left - sum(fixed) - 4 * count_w) / 2
    widths = [*fixed, player_w, player_w, count_w, count_w, count_w, count_w]
    xs = [left + sum(widths[:i]) for i in range(len(widths) + 1)]
    group_h, head_h, row = 6.0, 8.0, TALLY_ROW
    body = y0 + group_h + head_h  # the first sheet's row
    totals = body + n * row
    end = totals + 2 * row

    # Shade first, so the grid is drawn over it.
    canvas.setFillColor(SHADE)
    for r, cols in ((0, (6, 7)), (1, (4, 5))):  # arenas total: no sheet ticks; sheets: no arenas
        for c in cols:
            x, y = at(xs[c], totals + (r + 1) * row)
            canvas.rect(x, y, mm(widths[c]), mm(row), stroke=0, fill=1)

    stroke_with(canvas, layout.lines.write_in)
    for yy in (y0, body, *(body + k * row for k in range(1, n + 3))):
        canvas.line(*at(left, yy), *at(right, yy))
    canvas.line(*at(xs[4], y0 + group_h), *at(right, y0 + group_h))  # under the group headings
    for i, x in enumerate(xs):
        # The totals' labels span the first four columns; the group headings span two each.
        start = y0 + group_h if i in (5, 7) else y0
        stop = end if i in (0, 4, 5, 6, 7, 8) else totals
        canvas.line(*at(x, start), *at(x, stop))

    canvas.setFillColor(INK)

    def heading(text: str, x0: float, x1: float, baseline: float) -> None:
        draw_text(
            canvas,
            text,
            *at(x0 + 1.5, baseline),
            COND_BOLD,
            8,
            where="tally header",
            max_width=mm(x1 - x0 - 3),
        )

    heading("Arenas won", xs[4], xs[6], y0 + 4.5)
    heading("Sheet won (tick; a draw: none)", xs[6], xs[8], y0 + 4.5)
    titles = (
        "Sheet",
        "Sheet id",
        "Team 1 player",
        "Team 2 player",
        "Team 1",
        "Team 2",
        "Team 1",
        "Team 2",
    )
    for i, title in enumerate(titles):
        heading(title, xs[i], xs[i + 1], body - 2.8)
    for k, spec in enumerate(sheets, start=1):
        baseline = body + k * row - 3
        draw_text(canvas, f"{k} of {n}", *at(xs[0] + 1.5, baseline), BODY, 9, where="tally row")
        draw_text(canvas, spec.sheet_id, *at(xs[1] + 1.5, baseline), BODY, 9, where="tally row")
    for r, label in enumerate(TALLY_TOTALS, start=1):
        draw_text(
            canvas,
            label,
            *at(xs[0] + 1.5, totals + r * row - 3),
            BOLD,
            9,
            where="tally total",
            max_width=mm(xs[4] - xs[0] - 3),
        )
    return end


TALLY_TOTALS = ("Arenas won on all the sheets", "Sheets won (breaks a tie on arenas)")
