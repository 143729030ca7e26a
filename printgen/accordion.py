"""The accordion rules card: a rules-text source flowed across N panels in the top-left corner of a
landscape sheet, with FOLD lines between the panels and FOLD & TEAR lines along the card's right
and bottom edges. The card's geometry is layout data (`layouts/accordion.toml`); the words come
from `seeds/*.md` through a jinja2 template (`layouts/accordion-card.xml.j2`).

The text flows with ReportLab platypus: each panel is a frame, the marks and the instructions on
the spare paper are page art drawn by the page template. A card whose text does not fit, even at
the smallest body size the layout allows, is a FitError naming the panel and how much is left."""

from __future__ import annotations

import io
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph

from printgen.errors import FitError, InputError, LayoutError
from printgen.materials import BuildOptions, Progress
from printgen.paths import LAYOUTS_DIR
from printgen.render.fonts import fallback_runs, register_fonts
from printgen.render.marks import fold_line, scale_bar, tear_line
from printgen.render.pdf import PdfMeta, apply_document_settings
from printgen.render.text import Anchor, Box, draw_in_box, draw_text, paragraph, plain_text
from printgen.render.units import SAFE_MARGIN_MM, PageSize, Paper, mm, to_mm
from printgen.rules_text import RulesText, load_rules

LAYOUT_FILE = LAYOUTS_DIR / "accordion.toml"
TEMPLATE = "accordion-card.xml.j2"
FOLD_LABEL = "▲ FOLD ▼"
TEAR_LABEL = "FOLD & TEAR"
# Printers cannot print right at the edge: the card's top and left edges stay this clear.
EDGE_CLEAR_MM = 5.0
# Spare paper to the card's right: the FOLD & TEAR label and the sheet's own margin.
TEAR_ROOM_MM = SAFE_MARGIN_MM + 4.0


@dataclass(frozen=True)
class CardGeometry:
    """Where the card sits on the sheet, in millimetres from the sheet's top-left corner."""

    page: PageSize
    panels: int
    panel_width: float
    panel_height: float
    padding: float
    edge_padding: float
    overrun: float

    @property
    def width(self) -> float:
        return self.panels * self.panel_width

    def fold_xs(self) -> tuple[float, ...]:
        """x of each FOLD line, between neighbouring panels."""
        return tuple(k * self.panel_width for k in range(1, self.panels))

    def text_box(self, panel: int) -> Box:
        """Panel `panel`'s text area, in points with the PDF's bottom-left origin."""
        left = self.edge_padding if panel == 0 else self.padding
        x = panel * self.panel_width + left
        width = self.panel_width - left - self.padding
        height = self.panel_height - self.edge_padding - self.padding
        y = self.page.height_mm - self.panel_height + self.padding
        return Box(mm(x), mm(y), mm(width), mm(height))

    def check(self, min_panel_width: float) -> None:
        if self.panel_width < min_panel_width:
            raise InputError(
                f"{self.panels} panels would each be {self.panel_width:.1f} mm wide on a "
                f"{self.page.width_mm:g} mm sheet (the FOLD & TEAR label needs {TEAR_ROOM_MM:g} mm "
                f"beside the card), narrower than {min_panel_width:g} mm: use fewer panels"
            )
        if self.page.height_mm - self.panel_height < self.overrun + 40:
            raise LayoutError(
                f"{LAYOUT_FILE}: panels {self.panel_height:g} mm tall leave no room below the "
                f"card for the marks and the printing notes on a {self.page.height_mm:g} mm sheet"
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


def load_card_layout(paper: Paper, panels: int | None, large_print: bool) -> CardLayout:
    if panels is not None and panels < 1:
        raise InputError(f"--panels must be 1 or more, not {panels}")
    try:
        data = tomllib.loads(LAYOUT_FILE.read_text(encoding="utf-8"))
        card, text, spare = data["card"], dict(data["text"]), data["spare"]
        panel_height = float(card["panel_height_mm"])
        if large_print:
            big = data["large_print"]
            panel_height = float(big["panel_height_mm"])
            text["body_size"], text["min_body_size"] = big["body_size"], big["min_body_size"]
        page = paper.size.landscape()
        count = int(card["panels"]) if panels is None else panels
        # Many panels narrow to share the sheet's width; the layout's width is the widest.
        width = min(float(card["panel_width_mm"]), (page.width_mm - TEAR_ROOM_MM) / count)
        min_width = float(card["min_panel_width_mm"])
        geometry = CardGeometry(
            page=page,
            panels=count,
            panel_width=width,
            panel_height=panel_height,
            padding=float(card["padding_mm"]),
            edge_padding=float(card["edge_padding_mm"]),
            overrun=float(card["mark_overrun_mm"]),
        )
        top, floor = float(text["body_size"]), float(text["min_body_size"])
        sizes = tuple(top - 0.25 * k for k in range(int(round((top - floor) / 0.25)) + 1))
        style = TextStyle(
            body_font=str(text["body_font"]),
            heading_font=str(text["heading_font"]),
            title_font=str(text["title_font"]),
            sizes=sizes,
            heading_ratio=float(text["heading_ratio"]),
            title_ratio=float(text["title_ratio"]),
            leading_ratio=float(text["leading_ratio"]),
        )
    except (KeyError, TypeError, ValueError, tomllib.TOMLDecodeError) as error:
        raise LayoutError(f"{LAYOUT_FILE}: missing or malformed value: {error}") from None
    geometry.check(min_width)
    return CardLayout(geometry, style, spare)


def card_markup(rules: RulesText) -> ET.Element:
    """The rules text through the template: one XML element per paragraph, in reading order."""
    env = Environment(
        loader=FileSystemLoader(LAYOUTS_DIR),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    return ET.fromstring(env.get_template(TEMPLATE).render(rules=rules))


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


def card_story(root: ET.Element, style: TextStyle, body_size: float, where: str) -> list[Flowable]:
    leading = body_size * style.leading_ratio
    heading_size = body_size * style.heading_ratio
    body = ParagraphStyle(
        "body",
        fontName=style.body_font,
        bulletFontName=style.body_font,
        bulletFontSize=body_size,
        fontSize=body_size,
        leading=leading,
    )
    styles = {
        "title": ParagraphStyle(
            "title",
            fontName=style.title_font,
            fontSize=body_size * style.title_ratio,
            leading=body_size * style.title_ratio * 1.15,
        ),
        "subtitle": ParagraphStyle("subtitle", parent=body, spaceAfter=leading * 0.4),
        "heading": ParagraphStyle(
            "heading",
            fontName=style.heading_font,
            fontSize=heading_size,
            leading=heading_size * style.leading_ratio,
            spaceBefore=leading * 0.6,
            spaceAfter=leading * 0.15,
            keepWithNext=1,
        ),
        "bullet": ParagraphStyle(
            "bullet", parent=body, leftIndent=body_size * 0.9, bulletIndent=0, spaceAfter=1.2
        ),
        "p": ParagraphStyle("p", parent=body, spaceAfter=1.2),
    }
    story: list[Flowable] = []
    for element in root:
        if element.tag not in styles:
            raise LayoutError(f"{TEMPLATE}: unknown element <{element.tag}>")
        markup = _inner_markup(element, styles[element.tag].fontName)
        para_style = styles[element.tag]
        place = f"{where}: {element.tag} {plain_text(markup)[:40]!r}"
        story.append(
            paragraph(markup, para_style, place, bullet="•" if element.tag == "bullet" else None)
        )
    return story


class _CardDocument(BaseDocTemplate):
    """Records which page and panel each flowable landed in, to report overflow exactly."""

    def __init__(self, buffer: io.BytesIO, **kw: Any) -> None:
        super().__init__(buffer, **kw)
        self.placed: list[tuple[int, str, Flowable]] = []

    def afterFlowable(self, flowable: Flowable) -> None:  # noqa: N802 (ReportLab's name)
        self.placed.append((self.page, getattr(self.frame, "id", ""), flowable))


def render_card(rules: RulesText, paper: Paper, panels: int | None, large_print: bool) -> bytes:
    """The card as PDF bytes, at the largest body size that fits; FitError when none does."""
    register_fonts()
    layout = load_card_layout(paper, panels, large_print)
    root = card_markup(rules)
    overflow = ""
    for body_size in layout.text.sizes:
        data, overflow = _render_at(rules, layout, root, body_size)
        if not overflow:
            return data
    raise FitError(overflow)


def _render_at(
    rules: RulesText, layout: CardLayout, root: ET.Element, body_size: float
) -> tuple[bytes, str]:
    geometry = layout.geometry
    buffer = io.BytesIO()
    meta = PdfMeta(
        title=f"{rules.title}: rules card",
        subject=f"{geometry.panels}-panel accordion rules card for {rules.title}",
    )
    frames = []
    for k in range(geometry.panels):
        box = geometry.text_box(k)
        frames.append(Frame(box.x, box.y, box.width, box.height, 0, 0, 0, 0, id=f"panel {k + 1}"))

    def page_art(canvas: Canvas, _doc: BaseDocTemplate) -> None:
        apply_document_settings(canvas, meta)
        draw_marks(canvas, geometry)
        draw_spare_notes(canvas, geometry, layout.spare)

    document = _CardDocument(
        buffer,
        pagesize=geometry.page.points,
        pageTemplates=[PageTemplate(id="card", frames=frames, onPage=page_art)],
        invariant=1,
        title=meta.title,
        subject=meta.subject,
        author=meta.author,
        creator=meta.creator,
    )
    story = card_story(root, layout.text, body_size, rules.source)
    document.build(story)
    spilled = [f for page, _frame, f in document.placed if page > 1]
    if not spilled:
        return buffer.getvalue(), ""
    last = f"panel {geometry.panels}"
    height = sum(getattr(f, "height", 0.0) for f in spilled)
    first = next((f.getPlainText() for f in spilled if isinstance(f, Paragraph)), "")
    message = (
        f"{rules.source}: the rules do not fit the {geometry.panels} panels: "
        f"{to_mm(height):.1f} mm of text is left over after {last} even at "
        f"{body_size:g} pt (the first text that did not fit: {first[:50]!r}); "
        "shorten the text or use --large-print or more --panels"
    )
    return b"", message


def draw_marks(canvas: Canvas, g: CardGeometry) -> None:
    """FOLD lines between panels, FOLD & TEAR lines on the right and bottom, labelled on the
    spare paper so the marks can be seen while folding."""
    page_h = g.page.height_mm
    top = mm(page_h - EDGE_CLEAR_MM - 1.0)
    bottom = page_h - g.panel_height
    label_size = 7.0
    for x in g.fold_xs():
        fold_line(canvas, mm(x), top, mm(x), mm(bottom - g.overrun))
        draw_text(
            canvas,
            FOLD_LABEL,
            mm(x),
            mm(bottom - g.overrun - 3.5),
            "PG-Sans-Bold",
            label_size,
            where="FOLD label",
            anchor=Anchor.CENTRE,
        )
    right = g.width
    tear_line(canvas, mm(right), top, mm(right), mm(bottom - g.overrun))
    tear_line(canvas, mm(EDGE_CLEAR_MM + 1.0), mm(bottom), mm(right + g.overrun * 0.75), mm(bottom))
    # The right edge's label reads upwards beside its line; the bottom edge's sits under it.
    canvas.saveState()
    canvas.translate(mm(right + 3.5), mm(page_h - g.panel_height / 2))
    canvas.rotate(90)
    draw_text(
        canvas,
        TEAR_LABEL,
        0,
        0,
        "PG-Sans-Bold",
        label_size,
        where="FOLD & TEAR label",
        anchor=Anchor.CENTRE,
    )
    canvas.restoreState()
    draw_text(
        canvas,
        TEAR_LABEL,
        mm(g.edge_padding),
        mm(bottom - 3.5),
        "PG-Sans-Bold",
        label_size,
        where="FOLD & TEAR label",
    )


def draw_spare_notes(canvas: Canvas, g: CardGeometry, spare: dict[str, Any]) -> None:
    """How to print and fold, and a scale bar, on the paper that is torn off."""
    notes = spare["notes"]
    columns = int(spare["columns"])
    gap = float(spare["gap_mm"])
    size = float(spare["size"])
    left = SAFE_MARGIN_MM
    usable = g.page.width_mm - 2 * SAFE_MARGIN_MM
    width = (usable - gap * (columns - 1)) / columns
    top = g.page.height_mm - g.panel_height - g.overrun - 8.0
    bar_y = SAFE_MARGIN_MM + 5.0
    bottom = bar_y + 5.0
    style = ParagraphStyle("note", fontName=spare["font"], fontSize=size, leading=size * 1.25)
    for index, note in enumerate(notes):
        column = index % columns
        title = str(note["title"])
        stop = "" if title[-1:] in ".?!:" else "."
        markup = f"<b>{escape(title)}{stop}</b> {escape(str(note['text']))}"
        box = Box(mm(left + column * (width + gap)), mm(bottom), mm(width), mm(top - bottom))
        draw_in_box(
            canvas,
            paragraph(markup, style, f"spare note {note['title']!r}"),
            box,
            f"spare note {note['title']!r}",
        )
    scale_bar(canvas, mm(left), mm(bar_y), float(spare["scale_bar_mm"]))


def build_card(options: BuildOptions, rules_path: Path | None = None) -> bytes:
    path = options.rules if options.rules is not None else rules_path
    if path is None:
        raise InputError("the card needs a rules source: --rules seeds/FILE.md")
    return render_card(load_rules(path), options.paper, options.panels, options.large_print)


def build_rules_card(options: BuildOptions, _progress: Progress | None) -> bytes:
    """The Builder of the `card` material and of every game's rules card: the registry hands a
    game's card its source in seeds/ as `options.rules`."""
    return build_card(options)
