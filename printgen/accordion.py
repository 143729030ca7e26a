"""The rules card: a rules-text source flowed through panels the size of a playing card, in the
top-left corner of a landscape sheet printed on one side, folded down to one card that lives in
the game's box. The card's geometry is layout data (`layouts/accordion.toml`); the words come
from `seeds/*.md` through a jinja2 template (`layouts/accordion-card.xml.j2`).

Two fold schemes:
    accordion  one row of panels, folded back and forth like a concertina;
    double     two rows: folded in half along the long middle, printed side out, then
               concertina-folded, so every leaf is printed on both faces.
By default the card takes the smaller scheme its text fits, at the largest body size that fits.

Fold lines show their direction (dash-dot mountain, dashed valley, as origami draws them). The
first fold is a mountain fold, so the game's name is on the folded card's front: with a valley
first, a one-row card folds up with its blank back outside.

Text flows in reading order, row by row, through balanced panels (`printgen.render.flow`); a
heading never ends a panel, and no text comes within `fold_mm` of a fold or tear line. A card
whose text does not fit is a FitError that says by how much, quotes the first text that did
not fit, and names the fold scheme or paper that would take it (found by trying them)."""

from __future__ import annotations

import io
import re
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from html import escape
from math import ceil
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas

from printgen.errors import FitError, InputError, LayoutError
from printgen.materials import BuildOptions, Progress
from printgen.paths import LAYOUTS_DIR
from printgen.render.flow import Flowed, balanced, flow, flowable_text
from printgen.render.fonts import fallback_runs, register_fonts
from printgen.render.marks import (
    MARK_INSET_MM,
    FoldDirection,
    directed_fold_line,
    scale_bar,
    sheet_footer,
    tear_line,
)
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.platypus import Paragraph
from printgen.render.text import Anchor, draw_text, paragraph, plain_text, text_width
from printgen.render.units import SAFE_MARGIN_MM, Box, PageSize, Paper, Rect, mm, to_mm
from printgen.rules_text import RulesText, load_rules

LAYOUT_FILE = LAYOUTS_DIR / "accordion.toml"
TEMPLATE = "accordion-card.xml.j2"
TEAR_LABEL = "FOLD & TEAR"
LABEL_FONT = "PG-Sans-Bold"
# A text whose length alone shows it this many times too long fails without being flowed.
FAST_FAIL_RATIO = 1.2
# The scale bar and its label, bottom left; the footer keeps clear of them.
SCALE_BAR_ROOM_MM = 90.0


class FoldScheme(Enum):
    ACCORDION = "accordion"
    DOUBLE = "double"

    @property
    def label(self) -> str:
        return "accordion" if self is FoldScheme.ACCORDION else "double fold"


# ---------------------------------------------------------------------------------------------
# Geometry: where the panels, folds and tears are, in millimetres from the sheet's bottom-left
# corner (PDF's way up), as the layout data and the paper give them.


@dataclass(frozen=True)
class FoldLine:
    """One stretch of a fold mark. A double card's upright folds run through both rows, and
    change direction at the middle: a crease that is a mountain seen from the top row is a
    valley seen from the bottom row's face, which faces the other way once folded in half."""

    number: int  # the folding order; the labels print it
    x1: float
    y1: float
    x2: float
    y2: float
    direction: FoldDirection  # seen from the printed face

    @property
    def upright(self) -> bool:
        return abs(self.x1 - self.x2) < 1e-9


@dataclass(frozen=True)
class CardGeometry:
    paper: Paper
    scheme: FoldScheme
    rows: int
    columns: int
    panel_width: float
    panel_height: float
    edge_margin: float  # text to the sheet's own top and left edges
    fold_margin: float  # text to a fold or tear line
    overrun: float  # how far the marks run out onto the spare paper
    notes: str  # where the printing notes go: "below" the card or "beside" it

    @property
    def page(self) -> PageSize:
        return self.paper.size.landscape()

    @property
    def panels(self) -> int:
        return self.rows * self.columns

    @property
    def width(self) -> float:
        return self.columns * self.panel_width

    @property
    def bottom(self) -> float:
        """y of the card's bottom edge (a FOLD & TEAR line)."""
        return self.page.height_mm - self.rows * self.panel_height

    @property
    def middle(self) -> float | None:
        """y of a double card's long middle fold."""
        return self.page.height_mm - self.panel_height if self.rows == 2 else None

    def describe(self) -> str:
        return f"the {self.panels}-panel {self.scheme.label}"

    def panel(self, index: int) -> Rect:
        """Panel `index` (0 is the front, then row by row in reading order) on the flat sheet."""
        row, column = divmod(index, self.columns)
        top = self.page.height_mm - row * self.panel_height
        return Rect(
            column * self.panel_width, top - self.panel_height, self.panel_width, self.panel_height
        )

    def text_rect(self, index: int) -> Rect:
        """Panel `index`'s text area: clear of the folds and tears, and further from the sheet's
        own edges, which a printer cannot reach."""
        row, column = divmod(index, self.columns)
        panel = self.panel(index)
        left = self.edge_margin if column == 0 else self.fold_margin
        top = self.edge_margin if row == 0 else self.fold_margin
        return Rect(
            panel.x + left,
            panel.y + self.fold_margin,
            panel.width - left - self.fold_margin,
            panel.height - top - self.fold_margin,
        )

    def text_boxes(self) -> tuple[Box, ...]:
        return tuple(self.text_rect(k).box() for k in range(self.panels))

    def fold_lines(self) -> tuple[FoldLine, ...]:
        """Every fold mark, in folding order: the double's middle fold first, then the upright
        folds, alternately mountain and valley from a mountain (so the front is printed)."""
        top = self.page.height_mm - MARK_INSET_MM
        end = self.bottom - self.overrun
        lines: list[FoldLine] = []
        middle = self.middle
        if middle is not None:
            lines.append(
                FoldLine(
                    1,
                    MARK_INSET_MM,
                    middle,
                    self.width + self.overrun,
                    middle,
                    FoldDirection.MOUNTAIN,
                )
            )
        for k in range(1, self.columns):
            x = k * self.panel_width
            direction = FoldDirection.MOUNTAIN if k % 2 else FoldDirection.VALLEY
            number = len(lines) + 1 if middle is None else k + 1
            if middle is None:
                lines.append(FoldLine(number, x, top, x, end, direction))
            else:
                lines.append(FoldLine(number, x, top, x, middle, direction))
                lines.append(FoldLine(number, x, middle, x, end, direction.opposite))
        return tuple(lines)

    def tear_lines(self) -> tuple[tuple[float, float, float, float], ...]:
        """The FOLD & TEAR marks along the card's right and bottom edges, (x1, y1, x2, y2)."""
        top = self.page.height_mm - MARK_INSET_MM
        return (
            (self.width, top, self.width, self.bottom - self.overrun),
            (MARK_INSET_MM, self.bottom, self.width + self.overrun * 0.75, self.bottom),
        )


@dataclass(frozen=True)
class TextStyle:
    body_font: str
    heading_font: str
    title_font: str
    sizes: tuple[float, ...]  # body sizes to try, largest first
    heading_ratio: float
    title_ratio: float
    leading_ratio: float


@dataclass(frozen=True)
class CardLayout:
    geometry: CardGeometry
    text: TextStyle
    spare: dict[str, Any]


@dataclass(frozen=True)
class CardRequest:
    """What a card is asked to be: any field left None is the layout's choice."""

    paper: Paper = Paper.A4
    fold: FoldScheme | None = None
    panels: int | None = None
    large_print: bool = False

    def flags(self) -> str:
        """The command-line options that ask for this card."""
        flags = [f"--paper {self.paper.value}"]
        if self.fold is not None:
            flags.append(f"--fold {self.fold.value}")
        if self.panels is not None:
            flags.append(f"--panels {self.panels}")
        if self.large_print:
            flags.append("--large-print")
        return " ".join(flags)


def _layout_data() -> dict[str, Any]:
    try:
        return tomllib.loads(LAYOUT_FILE.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise LayoutError(f"{LAYOUT_FILE}: {error}") from None


def load_card_layout(request: CardRequest, scheme: FoldScheme) -> CardLayout:
    """The card's layout for `scheme` on the request's paper: as many playing-card panels as
    the sheet's width takes beside the spare paper the scheme needs, unless --panels says."""
    if request.panels is not None and request.panels < 1:
        raise InputError(f"--panels must be 1 or more, not {request.panels}")
    data = _layout_data()
    try:
        margins, part = data["margins"], data[scheme.value]
        size = part["large_print"] if request.large_print else part
        text = data["text"]["large_print"] if request.large_print else data["text"]
        fonts = data["text"]
        page = request.paper.size.landscape()
        rows = int(part["rows"])
        width, height = float(size["panel_width_mm"]), float(size["panel_height_mm"])
        spare_right = float(part["spare_right_mm"])
        fitting = int((page.width_mm - spare_right) // width)
        columns = fitting if request.panels is None else _columns(request.panels, rows, scheme)
        geometry = CardGeometry(
            paper=request.paper,
            scheme=scheme,
            rows=rows,
            columns=columns,
            panel_width=width,
            panel_height=height,
            edge_margin=float(margins["edge_mm"]),
            fold_margin=float(margins["fold_mm"]),
            overrun=float(part["mark_overrun_mm"]),
            notes=str(part["notes"]),
        )
        top, floor = float(text["body_size"]), float(text["min_body_size"])
        sizes = tuple(top - 0.25 * k for k in range(int(round((top - floor) / 0.25)) + 1))
        style = TextStyle(
            body_font=str(fonts["body_font"]),
            heading_font=str(fonts["heading_font"]),
            title_font=str(fonts["title_font"]),
            sizes=sizes,
            heading_ratio=float(fonts["heading_ratio"]),
            title_ratio=float(fonts["title_ratio"]),
            leading_ratio=float(fonts["leading_ratio"]),
        )
        spare = dict(data["spare"])
        spare["notes"] = [
            n for n in spare["notes"] if n.get("scheme", scheme.value) == scheme.value
        ]
    except InputError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise LayoutError(f"{LAYOUT_FILE}: missing or malformed value: {error}") from None
    if columns > fitting:
        card = "" if request.large_print else " (a playing card)"
        # Narrower panels would not be a playing card's size, and wider rows would run the
        # marks into the sheet's margin: more panels than fit is refused, never squeezed.
        raise InputError(
            f"--panels {request.panels}: the {scheme.label} on {request.paper.label} takes at "
            f"most {fitting * rows} panels of {width:g} x {height:g} mm{card} with "
            f"{spare_right:g} mm beside them for the marks and notes inside the "
            f"{SAFE_MARGIN_MM:g} mm margin; use --panels {fitting * rows} or fewer, or a "
            "larger --paper"
        )
    reach = geometry.width + geometry.overrun  # the marks' furthest run onto the spare paper
    if reach > page.width_mm - MARK_INSET_MM:
        raise LayoutError(
            f"{LAYOUT_FILE}: the {scheme.value} card's marks reach {reach:g} mm across a "
            f"{page.width_mm:g} mm sheet, into its {SAFE_MARGIN_MM:g} mm margin"
        )
    if geometry.bottom < geometry.overrun + 25.0:
        raise LayoutError(
            f"{LAYOUT_FILE}: {rows} rows of {height:g} mm leave no room below the card for the "
            f"marks and the scale bar on a {page.height_mm:g} mm high sheet"
        )
    return CardLayout(geometry, style, spare)


def _columns(panels: int, rows: int, scheme: FoldScheme) -> int:
    if panels % rows:
        raise InputError(
            f"--panels {panels}: the {scheme.label} has {rows} rows of panels, so it takes an "
            f"even number of panels"
        )
    return panels // rows


# ---------------------------------------------------------------------------------------------
# The text: the rules through the template, then one paragraph per element.


def card_markup(rules: RulesText) -> ET.Element:
    """The rules text through the template: one XML element per paragraph, in reading order."""
    env = Environment(
        loader=FileSystemLoader(LAYOUTS_DIR),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    try:
        root = ET.fromstring(env.get_template(TEMPLATE).render(rules=rules))
    except ET.ParseError as error:
        # rules_text refuses what XML cannot hold, so this is the template's own fault.
        raise LayoutError(f"{TEMPLATE}: the card's markup is not well-formed: {error}") from None
    _mark_lines(root, rules)
    return root


def _mark_lines(root: ET.Element, rules: RulesText) -> None:
    """Give each heading and block element its source line (`line="12"`), so an error about a
    paragraph the card cannot set names the line to fix. The template sets the title, maybe a
    subtitle, then each section's heading and blocks: the lines go to the last elements."""
    lines = [
        number
        for section in rules.sections
        for number in (section.line, *(block.line for block in section.blocks))
    ]
    elements = list(root)
    if len(lines) > len(elements):
        return  # not the template's usual shape: errors go without a line
    for element, number in zip(elements[len(elements) - len(lines) :], lines, strict=True):
        if number:
            element.set("line", str(number))


def _inner_markup(element: ET.Element, font: str) -> str:
    """An element's content as ReportLab paragraph markup: <b> and <i> kept, text escaped, and
    runs the body font lacks (kana) set in the shipped kana face."""
    parts = [_text_markup(element.text or "", font)]
    for child in element:
        if child.tag not in ("b", "i"):
            raise LayoutError(f"{TEMPLATE}: unknown inline element <{child.tag}>")
        inner = _inner_markup(child, font)
        parts.append(f"<{child.tag}>{inner}</{child.tag}>")
        parts.append(_text_markup(child.tail or "", font))
    return "".join(parts)


def _text_markup(text: str, font: str) -> str:
    return "".join(
        escape(run, quote=False) if face == font else f'<font face="{face}">{escape(run)}</font>'
        for run, face in fallback_runs(text, font)
    )


def card_story(root: ET.Element, style: TextStyle, body_size: float, where: str) -> list[Paragraph]:
    leading = body_size * style.leading_ratio
    heading_size = body_size * style.heading_ratio
    # A split paragraph leaves at least two lines on each side of the fold; a web address or a
    # long word is never broken (a word wider than its panel is a FitError instead).
    body = ParagraphStyle(
        "body",
        fontName=style.body_font,
        bulletFontName=style.body_font,
        bulletFontSize=body_size,
        fontSize=body_size,
        leading=leading,
        allowOrphans=0,
        allowWidows=0,
        splitLongWords=0,
    )
    styles = {
        "title": ParagraphStyle(
            "title",
            parent=body,
            fontName=style.title_font,
            fontSize=body_size * style.title_ratio,
            leading=body_size * style.title_ratio * 1.15,
            keepWithNext=1,
        ),
        "subtitle": ParagraphStyle(
            "subtitle", parent=body, spaceAfter=leading * 0.4, keepWithNext=1
        ),
        "heading": ParagraphStyle(
            "heading",
            parent=body,
            fontName=style.heading_font,
            fontSize=heading_size,
            leading=heading_size * style.leading_ratio,
            spaceBefore=leading * 0.6,
            spaceAfter=leading * 0.15,
            keepWithNext=1,
        ),
        "p": ParagraphStyle("p", parent=body, spaceAfter=1.2),
    }
    bullet_indent = _marker_indent("•", style.body_font, body_size)
    story: list[Paragraph] = []
    for element in root:
        tag = element.tag
        if tag == "bullet":
            marker = element.get("marker", "•")
            indent = _marker_indent(marker, style.body_font, body_size) if marker else bullet_indent
            para_style = ParagraphStyle(
                f"bullet {marker}", parent=body, leftIndent=indent, bulletIndent=0, spaceAfter=1.2
            )
        elif tag in styles:
            marker, para_style = "", styles[tag]
        else:
            raise LayoutError(f"{TEMPLATE}: unknown element <{tag}>")
        markup = _inner_markup(element, para_style.fontName)
        if _CJK.search("".join(element.itertext())):
            # Japanese puts no spaces between words: a line may break between any two kana or
            # kanji, which ReportLab's CJK wrapping does. It keeps 。、 off a line's start by
            # hanging them past the line's end: the em held back on the right takes them, so
            # no text comes nearer a fold than the panel's text area allows.
            para_style = ParagraphStyle(
                f"{para_style.name} cjk",
                parent=para_style,
                wordWrap="CJK",
                rightIndent=para_style.rightIndent + para_style.fontSize,
            )
        line = f", line {element.get('line')}" if element.get("line") else ""
        if tag in ("title", "subtitle"):
            line = ", front matter"
        place = f"{where}{line}: {tag} {plain_text(markup)[:40]!r}"
        story.append(paragraph(markup, para_style, place, bullet=marker or None))
    return story


# Kana, kanji and their punctuation: a line may break before or after any of them.
_CJK = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _unbreakable(text: str) -> list[str]:
    """The pieces of `text` no line break can split: words between spaces, where a CJK
    character is a piece of its own (a line may break on either side of it)."""
    return [piece for word in text.split() for piece in _CJK_SPLIT.split(word) if piece]


_CJK_SPLIT = re.compile(f"({_CJK.pattern})")


def _marker_indent(marker: str, font: str, size: float) -> float:
    """Where a list item's text starts: ReportLab sets the first line just past the marker plus
    0.6 em, so wrapped lines indented by exactly that start under the first line's text."""
    return text_width(marker, font, size) + 0.6 * size


# ---------------------------------------------------------------------------------------------
# Fitting: the largest body size at which the story fits a layout, or what is left over.


@dataclass(frozen=True)
class CardPlan:
    """A card that fits: its layout, the body size and where every paragraph stands."""

    layout: CardLayout
    body_size: float
    flowed: Flowed


@dataclass(frozen=True)
class Overflow:
    """A layout the text does not fit, even at its smallest body size: too long, or with a word
    wider than a panel (then `wide_word` says so)."""

    layout: CardLayout
    body_size: float
    over_mm: float  # text left over after the last panel
    first_text: str  # the first text that did not fit
    estimated: bool  # from the text's length alone: the text is at least this much too long
    wide_word: str = ""

    @property
    def amount(self) -> str:
        return f"{'at least ' if self.estimated else ''}{self.over_mm:.1f} mm"

    @property
    def shortfall(self) -> str:
        """How it failed, in brief: "12.3 mm over", or "a word too wide"."""
        return "a word too wide" if self.wide_word else f"{self.amount} over"

    def describe(self) -> str:
        g = self.layout.geometry
        if self.wide_word:
            return f"{g.describe()} on {g.paper.label}: {self.wide_word}"
        where = (
            "no text can fit from about" if self.estimated else "the first text that did not fit"
        )
        return (
            f"{g.describe()} on {g.paper.label} even at {self.body_size:g} pt: {self.amount} of "
            f"text is left over after panel {g.panels} ({where}: {self.first_text!r})"
        )


def fit(root: ET.Element, layout: CardLayout, source: str) -> CardPlan | Overflow:
    """The largest body size at which the text fits `layout`, balanced; or, at the smallest
    size, what is left over."""
    boxes = layout.geometry.text_boxes()
    lines = [int(element.get("line", "0")) for element in root]
    capacity = sum(box.height for box in boxes)
    widest = max(box.width for box in boxes)
    sizes = layout.text.sizes

    @cache
    def story(size: float) -> list[Paragraph]:
        return card_story(root, layout.text, size, source)

    @cache
    def ruled_out(size: float) -> bool:
        """Whether a word too wide or the text's length alone show it cannot fit at `size`."""
        return bool(_wide_word(story(size), boxes, lines)) or (
            _height_bound(story(size), widest, capacity)[0] > capacity
        )

    # Most texts fit at the largest size. One that does not is tried at the smallest size
    # before anything is flowed: a word too wide there is too wide at every size, and a text
    # far too long there is an error found from its length alone (splitting a long paragraph
    # again and again is slow).
    if ruled_out(sizes[0]):
        wide = _wide_word(story(sizes[-1]), boxes, lines)
        if wide:
            return Overflow(layout, sizes[-1], 0.0, "", False, wide)
        bound, first = _height_bound(story(sizes[-1]), widest, capacity)
        if bound > capacity * FAST_FAIL_RATIO:
            return Overflow(layout, sizes[-1], to_mm(bound - capacity), first, True)
    for size in sizes:
        if size != sizes[-1] and ruled_out(size):
            continue
        flowed = flow(story(size), boxes)
        if flowed.fits:
            return CardPlan(layout, size, balanced(story(size), boxes, full=flowed))
    return Overflow(layout, sizes[-1], to_mm(flowed.left_over_height), _first_text(flowed), False)


def _first_text(flowed: Flowed) -> str:
    return _quote(" ".join(flowable_text(item) for item in flowed.left_over[:2]))


def _quote(text: str) -> str:
    """The start of `text`, cut at a word and at most 50 characters: what an error quotes."""
    text = " ".join(text.split())
    if len(text) <= 50:
        return text
    return text[:50].rsplit(" ", 1)[0] + " …"


def _height_bound(story: list[Paragraph], width: float, capacity: float) -> tuple[float, str]:
    """A lower bound on the story's height in boxes `width` points wide (a line holds at most
    its width of text and the space it breaks at), and about where the text passes `capacity`:
    from there on, nothing can fit."""
    total = 0.0
    crossing: int | None = None
    texts = [flowable_text(item) for item in story]
    for index, (item, text) in enumerate(zip(story, texts, strict=True)):
        style = item.style
        space = text_width(" ", style.fontName, style.fontSize)
        line = max(width - style.leftIndent - style.rightIndent + space, 1.0)
        height = ceil(text_width(text, style.fontName, style.fontSize) / line) * style.leading
        if crossing is None and total + height > capacity:
            share = max(0.0, (capacity - total) / height)
            # From the word where the capacity runs out, on into what follows.
            cut = int(share * len(text))
            rest = text[text.rfind(" ", 0, cut) + 1 :]
            first = " ".join([rest, *texts[index + 1 : index + 3]])
            crossing = index
        total += height
    return total, _quote(first) if crossing is not None else ""


def _wide_word(story: list[Paragraph], boxes: tuple[Box, ...], lines: Sequence[int] = ()) -> str:
    """What is wrong if a word is wider than the narrowest panel (it would be broken mid-word
    or stick out over a fold), else "". `lines` are the story's source lines, 0 where none."""
    width = min(box.width for box in boxes)
    for index, item in enumerate(story):
        room = width - item.style.leftIndent - item.style.rightIndent
        font, size = item.style.fontName, item.style.fontSize
        if item.style.wordWrap == "CJK":
            # ReportLab's minWidth knows only spaces; here a break may come at any CJK letter.
            pieces = _unbreakable(item.getPlainText())
            widths = [
                sum(text_width(run, face, size) for run, face in fallback_runs(piece, font))
                for piece in pieces
            ]
            widest = max(widths, default=0.0)
        else:
            pieces = item.getPlainText().split()
            widest = item.minWidth()
        if widest > room + 1e-6:
            word = max(pieces, key=lambda w: text_width(w, font, size))
            where = f" on line {lines[index]}" if index < len(lines) and lines[index] else ""
            return (
                f"the word {word[:60]!r}{where} is {to_mm(widest):.1f} mm wide at {size:g} pt, "
                f"wider than a panel's {to_mm(room):.1f} mm of text"
            )
    return ""


def plan_card(rules: RulesText, request: CardRequest) -> CardPlan:
    """The card for `request`: the smallest fold scheme the text fits (or the one asked for),
    at the largest body size that fits; a FitError saying what would take it when none does."""
    register_fonts()
    root = card_markup(rules)
    schemes = [request.fold] if request.fold is not None else list(FoldScheme)
    tried: list[Overflow] = []
    for scheme in schemes:
        result = fit(root, load_card_layout(request, scheme), rules.source)
        if isinstance(result, CardPlan):
            return result
        tried.append(result)
    message = f"{rules.source}: the rules do not fit " + tried[-1].describe()
    if tried[-1].wide_word and all(o.wide_word for o in tried):
        message = f"{rules.source}: {tried[-1].wide_word} on {tried[-1].layout.geometry.describe()}"
    for other in tried[:-1]:
        message += f"; nor {other.layout.geometry.describe()} ({other.shortfall})"
    raise FitError(f"{message}; {_advice(root, rules.source, request, tried)}")


def _advice(root: ET.Element, source: str, request: CardRequest, tried: list[Overflow]) -> str:
    """What would take the text, found by trying, smallest first: the other fold scheme or the
    default panels on this paper, then A3, then normal print; or by how much to shorten it."""
    done = {replace(request, fold=o.layout.geometry.scheme) for o in tried}
    candidates = [replace(request, panels=None)]
    if request.paper is not Paper.A3:
        candidates.append(replace(request, paper=Paper.A3, panels=None))
    if request.large_print:
        candidates.append(replace(request, panels=None, large_print=False))
    last = tried[-1]
    for candidate in candidates:
        for scheme in FoldScheme:
            asked = replace(candidate, fold=scheme)
            if asked in done:
                continue
            done.add(asked)
            result = fit(root, load_card_layout(asked, scheme), source)
            if isinstance(result, CardPlan):
                normal = " in normal print" if request.large_print and not asked.large_print else ""
                # The whole command: a game's named card is printed on A4 and Letter only,
                # and `card --rules` takes every paper.
                return (
                    f"it would fit {result.layout.geometry.describe()} on {asked.paper.label}"
                    f"{normal} at {result.body_size:g} pt: printgen build card --rules {source} "
                    f"{asked.flags()}"
                )
            last = result
    g = last.layout.geometry
    if last.wide_word:
        return "no card's panels are that wide: put a space in the word, or shorten it"
    return (
        f"no card printgen folds takes it, not even {g.describe()} on {g.paper.label} "
        f"({last.amount} over at {last.body_size:g} pt): shorten the text"
    )


# ---------------------------------------------------------------------------------------------
# Drawing: the planned text, the marks, and the spare paper's notes, scale bar and footer.


def render_card(rules: RulesText, request: CardRequest) -> bytes:
    """The card as PDF bytes; FitError when the text fits no card asked for."""
    plan = plan_card(rules, request)
    layout, g = plan.layout, plan.layout.geometry
    meta = PdfMeta(
        title=f"{rules.title}: rules card",
        subject=f"{g.panels}-panel {g.scheme.label} rules card for {rules.title}",
    )
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, g.page, meta)
    plan.flowed.draw(canvas)
    draw_marks(canvas, g, float(layout.spare["label_size"]))
    draw_spare_notes(canvas, g, layout.spare)
    purpose = f"rules card, {g.panels}-panel {g.scheme.label}"
    sheet_footer(
        canvas,
        mm(g.page.width_mm - SAFE_MARGIN_MM),
        mm(SAFE_MARGIN_MM + 1.0),
        rules.title,
        purpose,
        credit=rules.credit,
        anchor=Anchor.RIGHT,
        max_width=mm(g.page.width_mm - 2 * SAFE_MARGIN_MM - SCALE_BAR_ROOM_MM),
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def fold_label(line: FoldLine, g: CardGeometry) -> str:
    """A fold's label: its number and its direction as the stretch of line it stands beside
    is drawn. A double card's upright folds are labelled under the bottom row, the back once
    folded in half, where a crease that is a mountain from the front is a valley: the label
    says so, so that it agrees with the dash style next to it."""
    label = f"FOLD {line.number} · {line.direction.value.upper()}"
    if g.rows > 1 and line.upright:
        return f"{label} ON THIS SIDE"
    return label


def draw_marks(canvas: Canvas, g: CardGeometry, label_size: float) -> None:
    """Fold lines in their direction's style, FOLD & TEAR lines on the right and bottom, each
    labelled on the spare paper so it can be read while folding."""
    for line in g.fold_lines():
        directed_fold_line(
            canvas, mm(line.x1), mm(line.y1), mm(line.x2), mm(line.y2), line.direction
        )
        if not line.upright:
            # The double's middle fold: its label stands just past the line's end.
            draw_text(
                canvas,
                "◀ " + fold_label(line, g),
                mm(line.x2 + 1.5),
                mm(line.y2 - 1.2),
                LABEL_FONT,
                label_size,
                where="FOLD label",
            )
        elif line.y2 < g.bottom:
            draw_text(
                canvas,
                "▲ " + fold_label(line, g),
                mm(line.x2),
                mm(line.y2 - 3.5),
                LABEL_FONT,
                label_size,
                where="FOLD label",
                anchor=Anchor.CENTRE,
                # Neighbouring labels are a panel apart: each keeps to its panel's width.
                max_width=mm(g.panel_width - 3.0),
            )
    right, bottom = g.tear_lines()
    tear_line(canvas, *(mm(v) for v in right))
    tear_line(canvas, *(mm(v) for v in bottom))
    # The right edge's labels read upwards beside it, one per row; the bottom edge's under it.
    for row in range(g.rows):
        canvas.saveState()
        canvas.translate(mm(g.width + 3.5), mm(g.page.height_mm - (row + 0.5) * g.panel_height))
        canvas.rotate(90)
        draw_text(
            canvas,
            TEAR_LABEL,
            0,
            0,
            LABEL_FONT,
            label_size,
            where="FOLD & TEAR label",
            anchor=Anchor.CENTRE,
        )
        canvas.restoreState()
    draw_text(
        canvas,
        TEAR_LABEL,
        mm(g.edge_margin),
        mm(g.bottom - 3.5),
        LABEL_FONT,
        label_size,
        where="FOLD & TEAR label",
    )


def spare_note_boxes(
    g: CardGeometry, columns: int, gap: float, below: bool = False
) -> tuple[Box, ...]:
    """Where the printing notes go on the spare paper: in columns under the fold labels, or in
    one column beside the card, around the middle fold's label; with `below`, also a box
    under the double card's fold labels, for a notes column too narrow to hold them all."""
    bottom = SAFE_MARGIN_MM + 10.0  # above the scale bar and the footer
    if g.notes == "below":
        top = g.bottom - g.overrun - 8.0
        usable = g.page.width_mm - 2 * SAFE_MARGIN_MM
        width = (usable - gap * (columns - 1)) / columns
        return tuple(
            Rect(SAFE_MARGIN_MM + k * (width + gap), bottom, width, top - bottom).box()
            for k in range(columns)
        )
    left = g.width + 9.0
    width = g.page.width_mm - SAFE_MARGIN_MM - left
    top = g.page.height_mm - SAFE_MARGIN_MM
    middle = g.middle if g.middle is not None else bottom
    boxes = [Rect(left, middle + 3.5, width, top - middle - 3.5)]
    if g.middle is not None:
        boxes.append(Rect(left, bottom, width, middle - 3.5 - bottom))
    if below:
        # Under the FOLD labels (3.5 mm below the marks' ends), left of the notes column.
        top_below = g.bottom - g.overrun - 3.5 - 4.0
        boxes.append(Rect(SAFE_MARGIN_MM, bottom, left - SAFE_MARGIN_MM, top_below - bottom))
    return tuple(box.box() for box in boxes)


def draw_spare_notes(canvas: Canvas, g: CardGeometry, spare: dict[str, Any]) -> Flowed:
    """How to print and fold, balanced across the note boxes, and the scale bar."""
    size = float(spare["size"])
    style = ParagraphStyle(
        "note", fontName=spare["font"], fontSize=size, leading=size * 1.25, spaceAfter=size * 0.6
    )
    story = []
    for note in spare["notes"]:
        title = str(note["title"])
        stop = "" if title[-1:] in ".?!:" else "."
        markup = f"<b>{escape(title)}{stop}</b> {escape(str(note['text']))}"
        story.append(paragraph(markup, style, f"spare note {title!r}"))
    columns, gap = int(spare["columns"]), float(spare["gap_mm"])
    boxes = spare_note_boxes(g, columns, gap)
    # A note reads best whole, so the notes share out between the boxes unsplit if they can.
    flowed = balanced(story, boxes, split=False)
    if not flowed.fits and g.notes == "beside":
        # A note split around the middle fold's label would read on through the label (a
        # narrow column on Letter): the notes go whole, the last ones under the card instead.
        boxes = spare_note_boxes(g, columns, gap, below=True)
        flowed = balanced(story, boxes, split=False)
    elif not flowed.fits:
        flowed = balanced(story, boxes)
    if not flowed.fits:
        raise FitError(
            f"{LAYOUT_FILE}: the printing notes do not fit the spare paper of "
            f"{g.describe()} on {g.paper.label}: {to_mm(flowed.left_over_height):.1f} mm left over"
        )
    flowed.draw(canvas)
    scale_bar(canvas, mm(SAFE_MARGIN_MM), mm(SAFE_MARGIN_MM + 5.0), float(spare["scale_bar_mm"]))
    return flowed


# ---------------------------------------------------------------------------------------------
# The builder behind `card --rules FILE` and every game's rules card (printgen/games/__init__.py).


def card_request(options: BuildOptions) -> CardRequest:
    fold = FoldScheme(options.fold) if options.fold else None
    return CardRequest(options.paper, fold, options.panels, options.large_print)


def build_card(options: BuildOptions) -> bytes:
    if options.rules is None:
        raise InputError("the card needs a rules source: --rules seeds/FILE.md")
    return render_card(load_rules(options.rules), card_request(options))


def build_rules_card(options: BuildOptions, _progress: Progress | None) -> bytes:
    """The Builder of the `card` material and of every game's rules card: the registry hands a
    game's card its source in seeds/ as `options.rules`."""
    return build_card(options)
