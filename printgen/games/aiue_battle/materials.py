"""aiue battle materials: the two-sided letter board, the 40 fold-to-stand letter cards, and the
record sheet with its topic card. Every size comes from the layout data (layout.py); every piece
of text goes through draw_text()/paragraph(), so a missing glyph or text too long for its box
stops the build."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

from reportlab.lib.colors import Color, HexColor, black, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from printgen.errors import LayoutError
from printgen.games.aiue_battle.engine import Alphabet
from printgen.games.aiue_battle.layout import (
    BoardSide,
    CardColour,
    CardSheet,
    CardSlot,
    Layout,
    Rect,
    alphabet_side,
    board_page,
    card_sheet,
    cards_page,
    kana_side,
    load_layout,
    record_page,
    record_sheet,
    topic_cards,
)
from printgen.materials import BuildOptions, Progress
from printgen.paths import SEEDS_DIR
from printgen.render.fonts import BODY, BOLD
from printgen.render.fonts import KANA as KANA_FACE
from printgen.render.marks import (
    MARK_GREY,
    WRITE_IN_INK,
    WRITE_IN_WIDTH,
    crop_marks,
    cut_line,
    fold_line,
    scale_bar,
    sheet_footer,
)
from printgen.render.pdf import PdfMeta, new_canvas, set_page_boxes
from printgen.render.text import (
    Anchor,
    Box,
    draw_in_box,
    draw_text,
    hanging_indent,
    paragraph,
)
from printgen.render.units import Paper, mm
from printgen.rules_text import load_rules

KANA = KANA_FACE.name
GAME = "aiue battle"
SEED = SEEDS_DIR / "aiue-battle.md"
TOPICS_SECTION = "Topic ideas"

GRID_GREY = Color(0.55, 0.55, 0.55)
LIGHT_GREY = Color(0.8, 0.8, 0.8)
# Where a glyph's visual middle sits above its baseline, as a fraction of the font size: capitals
# of DejaVu Sans Bold, and kana of IPAex Gothic (drawn in a full em box).
CAP_MIDDLE = 0.36
KANA_MIDDLE = 0.37
# Text a card prints beside its flag, on both halves: the owner and the table both see it.
FLAG_WORDS = "first letter"


def _meta(title: str, paper: Paper) -> PdfMeta:
    return PdfMeta(title=f"aiue battle: {title}", subject=f"aiue battle {title}, {paper.label}")


# --- the letter board ---


def build_board(options: BuildOptions, _progress: Progress | None = None) -> bytes:
    layout = load_layout(options.layout)
    _check_kana_board(layout)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, board_page(options.paper), _meta("letter board", options.paper))
    for side, purpose in (
        (alphabet_side(layout, options.paper), "letter board, alphabet side"),
        (kana_side(layout, options.paper), "letter board, kana side"),
    ):
        if side.key is None:
            _draw_alphabet_side(canvas, side, layout.board.alphabet.letter_size)
        else:
            _draw_kana_side(canvas, side, layout)
        # Under the block, within the page's margin.
        footer_y = max(side.block.y - 5, 7.0)
        sheet_footer(canvas, mm(side.block.right), mm(footer_y), GAME, purpose, anchor=Anchor.RIGHT)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _check_kana_board(layout: Layout) -> None:
    # The board must offer exactly the letters the referee accepts as attacks.
    drawn, declared = sorted(layout.board.kana.letters), sorted(Alphabet.KANA.board)
    if drawn != declared:
        missing = sorted(set(declared) - set(drawn))
        extra = sorted(set(drawn) - set(declared))
        raise LayoutError(
            f"layout {layout.name!r}: the kana board's letters differ from the game's "
            f"(missing {''.join(missing) or 'none'}, extra {''.join(extra) or 'none'})"
        )


# One type per role on every aiue sheet, whichever script the words are in: Latin in DejaVu Sans
# (bold for titles), kana in IPAex Gothic at the same size.
TITLE_SIZE = 15.0
HINT_SIZE = 9.0
CAPTION_SIZE = 7.0


def _draw_title(canvas: Canvas, rect: Rect, title: str, hint: str, where: str) -> None:
    # Never shrunk to fit: a role keeps its size on every sheet, or the build stops.
    baseline = mm(rect.y + rect.height / 2 - 1.5)
    draw_text(
        canvas,
        title,
        mm(rect.x),
        baseline,
        BOLD,
        TITLE_SIZE,
        where=f"{where} title",
        max_width=mm(rect.width * 0.45),
        fallback=KANA,
    )
    draw_text(
        canvas,
        hint,
        mm(rect.right),
        baseline,
        BODY,
        HINT_SIZE,
        where=f"{where} hint",
        anchor=Anchor.RIGHT,
        max_width=mm(rect.width * 0.54),
        fallback=KANA,
    )


def _cell_frame(canvas: Canvas, rect: Rect, inset: float = 1.0) -> None:
    canvas.saveState()
    canvas.setStrokeColor(GRID_GREY)
    canvas.setLineWidth(0.7)
    canvas.roundRect(
        mm(rect.x + inset),
        mm(rect.y + inset),
        mm(rect.width - 2 * inset),
        mm(rect.height - 2 * inset),
        mm(2.5),
        stroke=1,
        fill=0,
    )
    canvas.restoreState()


def _letter(canvas: Canvas, letter: str, rect: Rect, font: str, size: float, middle: float) -> None:
    # Room all round the glyph, so a diagonal stroke crosses it from corner to corner of the cell.
    draw_text(
        canvas,
        letter,
        mm(rect.x + rect.width / 2),
        mm(rect.y + rect.height / 2) - size * middle,
        font,
        size,
        where=f"board letter {letter!r}",
        anchor=Anchor.CENTRE,
        max_width=mm(rect.width - 6),
    )


def _struck_example(
    canvas: Canvas, place: Rect, letter: str, font: str, middle: float, caption: str
) -> None:
    """An empty grid place showing a called letter: grey, struck through corner to corner."""
    side = min(place.width, place.height) * 0.62
    rect = Rect(place.x + (place.width - side) / 2, place.top - side - 3, side, side)
    _cell_frame(canvas, rect, inset=0)
    size = side * 1.6  # points for a letter about half the frame tall
    canvas.setFillColor(LIGHT_GREY)
    draw_text(
        canvas,
        letter,
        mm(rect.x + side / 2),
        mm(rect.y + side / 2) - size * middle,
        font,
        size,
        where="struck example",
        anchor=Anchor.CENTRE,
    )
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(2.2)
    canvas.setLineCap(1)
    canvas.line(mm(rect.x + 2), mm(rect.y + 2), mm(rect.right - 2), mm(rect.top - 2))
    canvas.restoreState()
    # Dark enough to read at its small size: the grid's grey stood at 3.4:1 against the paper.
    canvas.setFillColor(MARK_GREY)
    draw_text(
        canvas,
        caption,
        mm(place.x + place.width / 2),
        mm(rect.y - 4),
        BODY,
        CAPTION_SIZE,
        where="struck example caption",
        anchor=Anchor.CENTRE,
        max_width=mm(place.width),
        fallback=KANA,
    )
    canvas.setFillColor(black)


def _draw_alphabet_side(canvas: Canvas, side: BoardSide, side_size: float) -> None:
    _draw_title(
        canvas,
        side.title,
        "aiue battle · alphabet side",
        "Call a letter, then strike it through with one diagonal line: it cannot be called again.",
        "alphabet side",
    )
    for cell in side.cells:
        _cell_frame(canvas, cell.rect)
        _letter(canvas, cell.letter, cell.rect, BOLD, side_size, CAP_MIDDLE)
    _struck_example(canvas, side.example, "A", BOLD, CAP_MIDDLE, "called: struck")


def _draw_kana_side(canvas: Canvas, side: BoardSide, layout: Layout) -> None:
    _draw_title(
        canvas,
        side.title,
        "aiue battle · かなの面 (kana side)",
        "呼んだ文字は斜線で消す · strike each called letter through with one diagonal line",
        "kana side",
    )
    size = layout.board.kana.letter_size
    for cell in side.cells:
        _cell_frame(canvas, cell.rect)
        _letter(canvas, cell.letter, cell.rect, KANA, size, KANA_MIDDLE)
    _struck_example(canvas, side.example, "か", KANA, KANA_MIDDLE, "called: struck · 例")
    assert side.key is not None
    _draw_kana_key(canvas, side.key)


KANA_KEY = (
    "Marked kana (が, ぱ) and small kana (っ, ゃ): call the plain letter. "
    "A call of は turns every は, ば and ぱ card.",
    "が ざ だ ば ゔ → か さ た は う · ぱ → は · ぁ ぃ ぅ ぇ ぉ → あ い う え お · "
    "っ → つ · ゃ ゅ ょ ゎ → や ゆ よ わ",
    "ー, the long vowel mark, is a letter of its own: call it like any other. "
    "濁音・半濁音・小さい字は元の字で呼ぶ。「ー」は一字として呼ぶ。",
)


def _draw_kana_key(canvas: Canvas, key: Rect) -> None:
    style = ParagraphStyle("kana-key", fontName=KANA, fontSize=11, leading=15)
    canvas.saveState()
    canvas.setStrokeColor(LIGHT_GREY)
    canvas.line(mm(key.x), mm(key.top - 1.5), mm(key.right), mm(key.top - 1.5))
    canvas.restoreState()
    box = Box(mm(key.x + 2), mm(key.y), mm(key.width - 4), mm(key.height - 3))
    _stack(canvas, [paragraph(text, style, "kana key") for text in KANA_KEY], box, "kana key")


# --- the letter cards ---


# The card to print on: thinner will not stand as a tent, thicker will not fold cleanly.
CARD_WEIGHT = "160-200 g/m²"


def build_cards(options: BuildOptions, progress: Progress | None = None) -> bytes:
    layout = load_layout(options.layout)
    sheet = card_sheet(layout, options.paper)
    buffer = io.BytesIO()
    meta = PdfMeta(
        title="aiue battle: letter cards",
        subject=f"aiue battle letter cards, {options.paper.label}: print at 100 % on "
        f"{CARD_WEIGHT} card",
    )
    canvas = new_canvas(buffer, cards_page(options.paper), meta)
    # What is left after cutting is the block of cards; its colour runs on into the bleed.
    set_page_boxes(canvas, sheet.grid, layout.cards.bleed)
    colours = layout.cards.colours
    for done, colour in enumerate(colours, start=1):
        _draw_card_header(canvas, sheet, colour, layout)
        canvas.saveState()
        canvas.setFillColor(_fill(colour.fill))
        bleed = sheet.bleed
        canvas.rect(mm(bleed.x), mm(bleed.y), mm(bleed.width), mm(bleed.height), stroke=0, fill=1)
        canvas.restoreState()
        _draw_patterns(canvas, sheet, colour, layout)
        for slot in sheet.slots:
            _draw_back(canvas, slot, colour, layout)
            _draw_face(canvas, slot, colour, layout)
        _draw_card_marks(canvas, sheet)
        _draw_card_footer(canvas, sheet)
        canvas.showPage()
        if progress is not None:
            progress(done, len(colours))
    canvas.save()
    return buffer.getvalue()


CARD_HELP = (
    f"Print at 100 % on card of {CARD_WEIGHT}. Cut from crop mark to crop mark (a ruler and a "
    "craft knife, or a paper trimmer): the colour runs on past every cut, so a cut a little off "
    "leaves no white edge. Fold each card on its dashed middle line, print outside, and stand it "
    "as a tent, its coloured back towards the others. <b>Write on the white face</b>: one letter "
    "per card, or a cross on a card your word does not need. The flagged card holds the first "
    "letter: stand it at your far right."
)


def _draw_card_header(canvas: Canvas, sheet: CardSheet, colour: CardColour, layout: Layout) -> None:
    spec, rect = layout.cards, sheet.header
    left, width = sheet.grid.x, sheet.grid.width
    title = (
        f"aiue battle · letter cards · {colour.name} ({colour.pattern}) · "
        f"{spec.per_colour} cards: {spec.per_colour - 1} to play, 1 spare"
    )
    draw_text(
        canvas,
        title,
        mm(left),
        mm(rect.top - 4),
        BOLD,
        11,
        where="card sheet title",
        max_width=mm(width),
    )
    style = ParagraphStyle("card-help", fontName=BODY, fontSize=8, leading=9.8)
    # Kept 2 mm above the crop marks, which stand in the margin just below the header.
    box = Box(mm(left), mm(rect.y + 2), mm(width), mm(rect.height - 7))
    draw_in_box(canvas, paragraph(CARD_HELP, style, "card sheet help"), box, "card sheet help")


def _draw_patterns(canvas: Canvas, sheet: CardSheet, colour: CardColour, layout: Layout) -> None:
    """The colour's pattern over each row's backs and along each row's name bands, drawn row by
    row so that it runs on across the cuts between cards, and out into the bleed."""
    for y in sorted({slot.strip.y for slot in sheet.slots}):
        row = [slot for slot in sheet.slots if slot.strip.y == y]
        left, right = min(s.strip.x for s in row), max(s.strip.right for s in row)
        back, face = row[0].back, row[0].face
        for band in (
            Rect(left, back.y, right - left, back.height),
            Rect(left, face.y, right - left, layout.cards.name_band),
        ):
            _pattern(canvas, band, colour, _bled(band, sheet))


def _bled(rect: Rect, sheet: CardSheet) -> Rect:
    """`rect` with each side that lies on the block's outer cut carried out into the bleed."""
    grid, bleed = sheet.grid, sheet.bleed
    x1 = bleed.x if abs(rect.x - grid.x) < 1e-6 else rect.x
    y1 = bleed.y if abs(rect.y - grid.y) < 1e-6 else rect.y
    x2 = bleed.right if abs(rect.right - grid.right) < 1e-6 else rect.right
    y2 = bleed.top if abs(rect.top - grid.top) < 1e-6 else rect.top
    return Rect(x1, y1, x2 - x1, y2 - y1)


def _fill(colour: str) -> Color:
    return HexColor(colour)


@contextmanager
def _clipped(canvas: Canvas, rect: Rect) -> Iterator[None]:
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(mm(rect.x), mm(rect.y), mm(rect.width), mm(rect.height))
    canvas.clipPath(path, stroke=0, fill=0)
    try:
        yield
    finally:
        canvas.restoreState()


@contextmanager
def _upside_down(canvas: Canvas, rect: Rect) -> Iterator[None]:
    """Draw in `rect` turned half round: the back half hangs from the fold with its top at the
    fold, so on the flat sheet it is printed upside down and reads upright once the card stands."""
    canvas.saveState()
    canvas.translate(mm(rect.right), mm(rect.top))
    canvas.rotate(180)
    try:
        yield
    finally:
        canvas.restoreState()


PATTERN_STEP = 4.0


# Stripes run parallel to the cuts and the fold, so they keep this far from them: a light stripe
# along a card's edge would look like the white hairline that the bleed is there to prevent.
STRIPE_CLEAR = 1.5


def _pattern(canvas: Canvas, band: Rect, colour: CardColour, rect: Rect | None = None) -> None:
    """The colour's pattern over `rect` (the band itself unless given, e.g. carried into the
    bleed), as one path; stripes stay inside `band`, clear of its edges."""
    rect = rect or band
    ink = _fill(colour.ink)
    step = PATTERN_STEP
    across = int(rect.width // step) + 2
    down = int(rect.height // step) + 2
    grid = [
        (rect.x + i * step + (step / 2 if j % 2 else 0.0), rect.y + j * step)
        for j in range(down)
        for i in range(across)
    ]
    path = canvas.beginPath()
    filled = colour.pattern in ("dots", "checks")
    if colour.pattern == "stripes":
        stripe = 1.0
        count = int((band.height - 2 * STRIPE_CLEAR - stripe) // step) + 1
        first = band.y + (band.height - (count - 1) * step - stripe) / 2
        for j in range(count):
            path.rect(mm(rect.x), mm(first + j * step), mm(rect.width), mm(stripe))
        filled = True
    elif colour.pattern == "diagonals":
        # Lines at 45 degrees, long enough to cross the whole rectangle from below its corner.
        reach = rect.width + rect.height
        for j in range(-int(reach // step) - 1, down + 1):
            y = rect.y + j * step
            path.moveTo(mm(rect.x), mm(y))
            path.lineTo(mm(rect.x + reach), mm(y + reach))
    elif colour.pattern == "dots":
        # Small squares read as dots at this size and cost far less to draw than circles.
        dot = 1.6
        for x, y in grid:
            path.rect(mm(x - dot / 2), mm(y - dot / 2), mm(dot), mm(dot))
    elif colour.pattern == "checks":
        for j in range(down):
            for i in range(j % 2, across, 2):
                path.rect(mm(rect.x + i * step), mm(rect.y + j * step), mm(step), mm(step))
    elif colour.pattern == "crosses":
        arm = 1.3
        for x, y in grid:
            path.moveTo(mm(x - arm), mm(y))
            path.lineTo(mm(x + arm), mm(y))
            path.moveTo(mm(x), mm(y - arm))
            path.lineTo(mm(x), mm(y + arm))
    else:  # layout.py refuses unknown patterns
        raise LayoutError(f"colour {colour.name}: no pattern {colour.pattern!r}")
    with _clipped(canvas, rect):
        canvas.setStrokeColor(ink)
        canvas.setFillColor(ink)
        canvas.setLineWidth(mm(1.0) if colour.pattern == "diagonals" else mm(0.6))
        canvas.drawPath(path, stroke=0 if filled else 1, fill=1 if filled else 0)


def _flag(canvas: Canvas, x: float, y: float, size: float) -> None:
    """A pennant on a pole, its foot at (x, y) mm, `size` mm tall."""
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setFillColor(black)
    canvas.setLineWidth(mm(0.6))
    canvas.line(mm(x), mm(y), mm(x), mm(y + size))
    path = canvas.beginPath()
    path.moveTo(mm(x), mm(y + size))
    path.lineTo(mm(x + size * 0.75), mm(y + size * 0.78))
    path.lineTo(mm(x), mm(y + size * 0.56))
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def _label(
    canvas: Canvas, x: float, y: float, width: float, height: float, text: str, size: float
) -> None:
    """A white label with black text centred, on any fill: readable whatever the colour."""
    canvas.saveState()
    canvas.setFillColor(white)
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.5)
    canvas.roundRect(mm(x), mm(y), mm(width), mm(height), mm(1.2), stroke=1, fill=1)
    canvas.setFillColor(black)
    draw_text(
        canvas,
        text,
        mm(x + width / 2),
        mm(y + height / 2) - size * 0.36,
        BOLD,
        size,
        where=f"card label {text!r}",
        anchor=Anchor.CENTRE,
        max_width=mm(width - 2),
        min_size=6,
    )
    canvas.restoreState()


def _draw_back(canvas: Canvas, slot: CardSlot, colour: CardColour, layout: Layout) -> None:
    rect = slot.back
    with _upside_down(canvas, rect):
        # Local frame: origin at the back's bottom-left as it stands, the fold at the top.
        w, h = rect.width, rect.height
        label_w, label_h = w - 14, 9.0
        _label(canvas, (w - label_w) / 2, h * 0.32, label_w, label_h, colour.name, 12)
        if slot.flagged:
            _flag_label(canvas, (w - label_w) / 2, h * 0.32 + label_h + 3, label_w, layout)


def _flag_label(canvas: Canvas, x: float, y: float, width: float, layout: Layout) -> None:
    size = layout.cards.flag_size
    height = size + 4
    canvas.saveState()
    canvas.setFillColor(white)
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.5)
    canvas.roundRect(mm(x), mm(y), mm(width), mm(height), mm(1.2), stroke=1, fill=1)
    canvas.restoreState()
    _flag(canvas, x + 3, y + 2, size)
    canvas.setFillColor(black)
    draw_text(
        canvas,
        FLAG_WORDS,
        mm(x + 3 + size * 0.8 + 1.5),
        mm(y + height / 2 - 1),
        BOLD,
        7.5,
        where="flag label",
        max_width=mm(width - size * 0.8 - 6),
        min_size=6,
    )


def _draw_face(canvas: Canvas, slot: CardSlot, colour: CardColour, layout: Layout) -> None:
    spec, rect = layout.cards, slot.face
    panel = Rect(
        rect.x + spec.frame,
        rect.y + spec.name_band,
        rect.width - 2 * spec.frame,
        rect.height - spec.name_band - spec.frame,
    )
    canvas.saveState()
    canvas.setFillColor(white)
    canvas.rect(mm(panel.x), mm(panel.y), mm(panel.width), mm(panel.height), stroke=0, fill=1)
    canvas.restoreState()
    label_w = rect.width * 0.55
    _label(
        canvas,
        rect.x + (rect.width - label_w) / 2,
        rect.y + 1.2,
        label_w,
        spec.name_band - 2.4,
        colour.name,
        8,
    )
    if slot.flagged:
        size = spec.flag_size
        _flag(canvas, panel.right - size * 0.75 - 3, panel.top - size - 2.5, size)
        canvas.setFillColor(black)
        draw_text(
            canvas,
            FLAG_WORDS,
            mm(panel.right - 2),
            mm(panel.top - size - 6.5),
            BODY,
            6.5,
            where="flag words on the face",
            anchor=Anchor.RIGHT,
            max_width=mm(panel.width / 2),
        )


# A fold line stops this short of the cuts: its white underline must not reach a card's edge.
FOLD_INSET = 1.5


def _draw_card_marks(canvas: Canvas, sheet: CardSheet) -> None:
    """Crop marks outside the bleed for every cut; across each card, its fold line. Nothing is
    printed on a cut, so a cut a little off the line shows no line either."""
    crop_marks(canvas, sheet.crop_marks)
    folds = [
        (mm(slot.strip.x + FOLD_INSET), mm(slot.fold_y), mm(slot.strip.right - FOLD_INSET))
        for slot in sheet.slots
    ]
    # A white line under each dashed fold: grey dashes alone vanish on the darker fills.
    canvas.saveState()
    canvas.setStrokeColor(white)
    canvas.setLineWidth(2.0)
    for x1, y, x2 in folds:
        canvas.line(x1, y, x2, y)
    canvas.restoreState()
    for x1, y, x2 in folds:
        fold_line(canvas, x1, y, x2, y)


def _draw_card_footer(canvas: Canvas, sheet: CardSheet) -> None:
    rect, left, right = sheet.footer, sheet.grid.x, sheet.grid.right
    scale_bar(canvas, mm(left), mm(rect.y + 6.0), 50)
    sheet_footer(canvas, mm(right), mm(rect.y + 2.5), GAME, "letter cards", anchor=Anchor.RIGHT)
    # The legend, right of the scale bar: a crop mark's corner, then a piece of fold line.
    y = rect.y + 7.0
    x = right - 100
    # A corner of a card, its colour running into the bleed, and the corner's two crop marks.
    canvas.saveState()
    canvas.setFillColor(LIGHT_GREY)
    canvas.rect(mm(x + 2), mm(y - 3.5), mm(4), mm(4), stroke=0, fill=1)
    canvas.restoreState()
    crop_marks(canvas, [(x + 3, y + 1.5, x + 3, y + 4), (x + 1.5, y - 0.5, x - 1, y - 0.5)])
    canvas.setFillColor(MARK_GREY)
    draw_text(
        canvas, "cut from mark to mark", mm(x + 8), mm(y - 1), BODY, 7, where="card mark legend"
    )
    x = right - 46
    fold_line(canvas, mm(x), mm(y), mm(x + 12), mm(y))
    canvas.setFillColor(MARK_GREY)
    draw_text(
        canvas, "fold, print outside", mm(x + 14), mm(y - 1), BODY, 7, where="card mark legend"
    )
    canvas.setFillColor(black)


# --- the record sheet and the topic card ---


def build_record(options: BuildOptions, _progress: Progress | None = None) -> bytes:
    layout = load_layout(options.layout)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, record_page(options.paper), _meta("record sheet", options.paper))
    _draw_record(canvas, layout, options.paper)
    canvas.showPage()
    topics = load_topics()
    cards = topic_cards(layout, options.paper)
    for card in cards:
        _draw_topic_card(canvas, card, topics)
    # Under the cards, on the sheet they are cut from.
    sheet_footer(
        canvas,
        mm((cards[0].x + cards[-1].right) / 2),
        mm(cards[0].y - 5),
        GAME,
        "topic cards: cut out, one for each end of the table",
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def load_topics() -> tuple[str, ...]:
    """The topic ideas, from the rules-text source: one list, for the card and the rules."""
    section = load_rules(SEED).section(TOPICS_SECTION)
    return tuple(block.text for block in section.blocks)


# What each column's cells hold, printed small in every round's cell: the header names the
# column, the cell says what goes in it.
RECORD_COLUMNS = (
    ("#", ""),
    ("Topic", "topic"),
    *[(f"Player {n}", "their word") for n in range(1, 6)],
    ("Out, in order", "names, first out first"),
    ("Winner", "name"),
)
HINT_GREY = Color(0.45, 0.45, 0.45)
CELL_HINT_SIZE = 6.0


def _draw_record(canvas: Canvas, layout: Layout, paper: Paper) -> None:
    sheet = record_sheet(layout, paper)
    spec = layout.record
    if spec.players != 5 or len(sheet.columns) != len(RECORD_COLUMNS):
        raise LayoutError(
            f"layout {layout.name!r}: the record sheet prints columns for 5 players "
            f"(one per colour of cards), not {spec.players}"
        )
    title, date = sheet.title, sheet.date
    _draw_title(
        canvas,
        Rect(title.x, title.y, date.x - 12 - title.x, title.height),
        "aiue battle · record sheet",
        "Names across the top once; then one row per round.",
        "record sheet",
    )
    draw_text(
        canvas,
        "Date",
        mm(date.x - 1.5),
        mm(sheet.baseline),
        BODY,
        HINT_SIZE,
        where="record date",
        anchor=Anchor.RIGHT,
    )
    table_top = sheet.header.top
    table_bottom = sheet.rows[-1].y
    canvas.saveState()
    # Every line of the table is a write-in line: dark and wide enough to survive a copier.
    canvas.setStrokeColor(WRITE_IN_INK)
    canvas.setLineWidth(WRITE_IN_WIDTH)
    canvas.line(mm(date.x), mm(date.y), mm(date.right), mm(date.y))
    for column in sheet.columns[1:]:
        canvas.line(mm(column.x), mm(table_bottom), mm(column.x), mm(table_top))
    for row in sheet.rows:
        canvas.line(mm(row.x), mm(row.top), mm(row.right), mm(row.top))
    canvas.setStrokeColor(black)
    canvas.setLineWidth(1.4)
    canvas.rect(
        mm(sheet.header.x),
        mm(table_bottom),
        mm(sheet.header.width),
        mm(table_top - table_bottom),
        stroke=1,
        fill=0,
    )
    canvas.restoreState()

    for index, (column, (heading, hint)) in enumerate(
        zip(sheet.columns, RECORD_COLUMNS, strict=True)
    ):
        draw_text(
            canvas,
            heading,
            mm(column.x + 1.5),
            mm(sheet.header.top - 4.5),
            BOLD,
            8.5,
            where=f"record column {heading!r}",
            max_width=mm(column.width - 3),
        )
        canvas.setFillColor(HINT_GREY)
        if heading.startswith("Player"):
            # The players' names go in the header, once for the whole game.
            draw_text(
                canvas,
                "name",
                mm(column.x + 1.5),
                mm(sheet.header.y + 2),
                BODY,
                CELL_HINT_SIZE,
                where="record column name hint",
            )
        for row in sheet.rows if hint else ():
            draw_text(
                canvas,
                hint,
                mm(column.x + 1.2),
                mm(row.top - 2.6),
                BODY,
                CELL_HINT_SIZE,
                where=f"record cell hint {hint!r} (column {index + 1})",
                max_width=mm(column.width - 2.4),
            )
        canvas.setFillColor(black)
    numbers = sheet.columns[0]
    for number, row in enumerate(sheet.rows, start=1):
        draw_text(
            canvas,
            str(number),
            mm(numbers.x + numbers.width / 2),
            mm(row.y + row.height / 2 - 1.2),
            BODY,
            9,
            where="round number",
            anchor=Anchor.CENTRE,
            max_width=mm(numbers.width - 1),
        )
    canvas.setFillColor(HINT_GREY)
    draw_text(
        canvas,
        "A word is 2 to 7 letters. Out, in order: the names as players go out, first out first.",
        mm(sheet.header.x),
        mm(table_bottom - 4),
        BODY,
        7,
        where="record footnote",
        max_width=mm(sheet.header.width * 0.6),
    )
    canvas.setFillColor(black)
    sheet_footer(
        canvas,
        mm(sheet.header.right),
        mm(table_bottom - 4),
        GAME,
        "record sheet",
        anchor=Anchor.RIGHT,
        max_width=mm(sheet.header.width * 0.38),
    )


TOPIC_BULLET = "•"


def _draw_topic_card(canvas: Canvas, card: Rect, topics: tuple[str, ...]) -> None:
    for x1, y1, x2, y2 in (
        (card.x, card.y, card.right, card.y),
        (card.x, card.top, card.right, card.top),
        (card.x, card.y, card.x, card.top),
        (card.right, card.y, card.right, card.top),
    ):
        cut_line(canvas, mm(x1), mm(y1), mm(x2), mm(y2))
    pad = 7.0
    draw_text(
        canvas,
        "aiue battle · topic ideas",
        mm(card.x + pad),
        mm(card.top - pad - 5),
        BOLD,
        14,
        where="topic card title",
        max_width=mm(card.width - 2 * pad),
        min_size=10,
    )
    intro = ParagraphStyle("topic-intro", fontName=BODY, fontSize=9, leading=11.5)
    intro_box = Box(mm(card.x + pad), mm(card.top - pad - 20), mm(card.width - 2 * pad), mm(12))
    draw_in_box(
        canvas,
        paragraph(
            "No topic in mind? Pick one of these, or make up your own. Everyone then hides a "
            "word of 2 to 7 letters that fits it.",
            intro,
            "topic card intro",
        ),
        intro_box,
        "topic card intro",
    )
    item = ParagraphStyle(
        "topic",
        fontName=BODY,
        bulletFontName=BODY,
        fontSize=10.5,
        bulletFontSize=10.5,
        leading=13.5,
        # A wrapped topic's second line starts under its first line's text, not under the bullet.
        leftIndent=hanging_indent(TOPIC_BULLET, BODY, 10.5),
        bulletIndent=0,
    )
    half = -(-len(topics) // 2)
    column_w = (card.width - 2 * pad - 4) / 2
    top = card.top - pad - 22
    glance_h = 38.0
    for c, chunk in enumerate((topics[:half], topics[half:])):
        x = card.x + pad + c * (column_w + 4)
        box = Box(
            mm(x), mm(card.y + pad + glance_h), mm(column_w), mm(top - card.y - pad - glance_h)
        )
        _draw_list(canvas, chunk, item, box)
    _draw_glance(canvas, Rect(card.x + pad, card.y + pad, card.width - 2 * pad, glance_h - 4))


GLANCE = (
    "<b>Hit</b>: everyone still in with the letter turns every such card; you attack once more "
    "(two attacks a turn at most). Your own letter counts too.",
    "<b>Miss</b>, or a second attack: the next player still in attacks.",
    "<b>Out</b> when all your letters show; the last one in wins. If one attack puts the last "
    "players out together, its attacker wins.",
)


def _draw_glance(canvas: Canvas, rect: Rect) -> None:
    canvas.saveState()
    canvas.setStrokeColor(GRID_GREY)
    canvas.setLineWidth(0.6)
    canvas.line(mm(rect.x), mm(rect.top), mm(rect.right), mm(rect.top))
    canvas.restoreState()
    style = ParagraphStyle("glance", fontName=BODY, fontSize=8.5, leading=10.5, spaceAfter=2)
    box = Box(mm(rect.x), mm(rect.y), mm(rect.width), mm(rect.height - 2))
    _stack(canvas, [paragraph(t, style, "topic card reminder") for t in GLANCE], box, "reminder")


def _draw_list(canvas: Canvas, items: tuple[str, ...], style: ParagraphStyle, box: Box) -> None:
    flowables = []
    for text in items:
        flowable = paragraph(text, style, f"topic {text!r}", bullet=TOPIC_BULLET)
        flowables.append(flowable)
    _stack(canvas, flowables, box, "topic list")


def _stack(canvas: Canvas, flowables: list[Paragraph], box: Box, where: str) -> None:
    """Flowables one under the other from the top of `box`; FitError when they overflow it."""
    top = box.y + box.height
    for flowable in flowables:
        _, height = flowable.wrapOn(canvas, box.width, box.height)
        draw_in_box(canvas, flowable, Box(box.x, box.y, box.width, top - box.y), where)
        top -= height
