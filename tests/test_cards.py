"""Every game's folding rules card, read back from the built PDF: the fold scheme each takes, the
marks at their exact places and in their direction's style, the text in reading order and clear
of every fold, the source's every heading, sizes, the footer; then the errors a card can give."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from printgen import accordion
from printgen.accordion import (
    CardGeometry,
    CardRequest,
    FoldScheme,
    build_card,
    plan_card,
)
from printgen.cli import cli
from printgen.errors import FitError, InputError
from printgen.games import material_named
from printgen.materials import BuildOptions
from printgen.paths import SEEDS_DIR
from printgen.render.fonts import register_fonts
from printgen.render.readback import (
    Segment,
    TextRun,
    page_count,
    page_size_mm,
    page_text,
    render_page,
    segments,
    text_runs,
)
from printgen.render.units import Paper
from printgen.rules_text import load_rules

# Each game's card and the fold scheme it takes by default: the smallest its text fits.
CARDS = {
    "war-card": ("war.md", FoldScheme.ACCORDION),
    "one-card": ("one.md", FoldScheme.ACCORDION),
    "package-war-card": ("package-war.md", FoldScheme.DOUBLE),
    "aiue-battle-card": ("aiue-battle.md", FoldScheme.DOUBLE),
    "one-page-war-card": ("one-page-war.md", FoldScheme.DOUBLE),
}
PAPERS = {Paper.A4: (297.0, 210.0), Paper.LETTER: (279.4, 215.9)}
CASES = [(name, paper) for name in CARDS for paper in PAPERS]
IDS = [f"{name}-{paper.value}" for name, paper in CASES]
# The PDF names a subset font like ABCDEF+DejaVuSansCondensed; printgen registers it by face.
FACES = {
    "DejaVuSans": "PG-Sans",
    "DejaVuSans-Bold": "PG-Sans-Bold",
    "DejaVuSansCondensed": "PG-Cond",
    "DejaVuSansCondensed-Bold": "PG-Cond-Bold",
    "IPAexGothic": "PG-Kana",
}
# DejaVu's ascender and descender, in em: a run's ink stays within these of its baseline.
ASCENT, DESCENT = 0.93, 0.24
_BUILT: dict[tuple[str, Paper, bool], bytes] = {}


def built(name: str, paper: Paper, large_print: bool = False) -> bytes:
    key = (name, paper, large_print)
    if key not in _BUILT:
        material = material_named(name)
        assert material is not None
        _BUILT[key] = material.build(BuildOptions(paper=paper, large_print=large_print), None)
    return _BUILT[key]


def geometry(name: str, paper: Paper, large_print: bool = False) -> CardGeometry:
    source = load_rules(SEEDS_DIR / CARDS[name][0])
    return plan_card(source, CardRequest(paper, large_print=large_print)).layout.geometry


@dataclass(frozen=True)
class Ink:
    """A text run's box on the page, in mm from the bottom-left corner."""

    run: TextRun
    left: float
    right: float
    bottom: float
    top: float


def inks(pdf: bytes) -> list[Ink]:
    """Every upright text run with its ink box. A line set in several fonts is several runs
    that the reader reports at the line's start: each starts where the one before it ends."""
    register_fonts()
    found: list[Ink] = []
    for run in text_runs(pdf):
        text = run.text.rstrip("\n")
        width = stringWidth(text, FACES[run.font.split("+")[-1]], run.size) * 25.4 / 72
        em = run.size * 25.4 / 72
        if run.upside_down or abs(width) < 1e-9:
            continue
        left = run.x_mm
        previous = found[-1] if found else None
        if previous and (previous.run.x_mm, previous.run.y_mm) == (run.x_mm, run.y_mm):
            left = previous.right
        found.append(Ink(run, left, left + width, run.y_mm - DESCENT * em, run.y_mm + ASCENT * em))
    return found


def on_card(pdf: bytes, g: CardGeometry) -> list[Ink]:
    """The runs printed on the card itself, not on the spare paper."""
    return [i for i in inks(pdf) if i.run.y_mm > g.bottom and i.run.x_mm < g.width]


def panel_of(ink: Ink, g: CardGeometry) -> int:
    for index in range(g.panels):
        rect = g.panel(index)
        if rect.x <= ink.left < rect.right and rect.y <= ink.run.y_mm < rect.top:
            return index
    raise AssertionError(f"{ink.run.text!r} is on no panel")


def lines(found: Iterable[Segment], upright: bool) -> list[Segment]:
    return [s for s in found if (abs(s.x1_mm - s.x2_mm) < 1e-6) == upright]


# --- The scheme each card takes, and the marks --------------------------------------------------


@pytest.mark.parametrize("name", CARDS)
def test_each_card_takes_the_smallest_scheme_its_text_fits(name: str) -> None:
    source, scheme = CARDS[name]
    rules = load_rules(SEEDS_DIR / source)
    for paper in PAPERS:
        plan = plan_card(rules, CardRequest(paper))
        assert plan.layout.geometry.scheme is scheme
        assert plan.body_size >= 7.0
    if scheme is FoldScheme.DOUBLE:
        with pytest.raises(FitError, match="4-panel accordion"):
            plan_card(rules, CardRequest(Paper.A4, FoldScheme.ACCORDION))


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_one_landscape_page_of_exact_size(name: str, paper: Paper) -> None:
    pdf = built(name, paper)
    assert page_count(pdf) == 1
    assert page_size_mm(pdf) == pytest.approx(PAPERS[paper], abs=0.01)


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_marks_stand_exactly_where_the_scheme_puts_them(name: str, paper: Paper) -> None:
    width, height = PAPERS[paper]
    pdf = built(name, paper)
    dashed = [s for s in segments(pdf) if s.dashed]
    upright = sorted({round(s.x1_mm, 2) for s in lines(dashed, True)})
    across = sorted({round(s.y1_mm, 2) for s in lines(dashed, False)})
    if CARDS[name][1] is FoldScheme.ACCORDION:
        # Four poker-size panels, 63.5 x 88.9 mm: three folds, the right-hand tear; the bottom tear.
        assert upright == pytest.approx([63.5, 127.0, 190.5, 254.0], abs=0.2)
        assert across == pytest.approx([height - 88.9], abs=0.2)
    else:
        # Two rows of four bridge-size panels, 57.15 x 88.9 mm: three folds and the right-hand
        # tear through both rows; the long middle fold, and the bottom tear.
        assert upright == pytest.approx([57.15, 114.3, 171.45, 228.6], abs=0.2)
        assert across == pytest.approx([height - 2 * 88.9, height - 88.9], abs=0.2)
    for s in dashed:
        # Nothing starts within 5 mm of the sheet's own top and left edges.
        assert max(s.y1_mm, s.y2_mm) <= height - 5.0 and min(s.x1_mm, s.x2_mm) >= 5.0
    assert width > 0


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_folds_show_their_direction_and_the_first_is_a_mountain(name: str, paper: Paper) -> None:
    pdf = built(name, paper)
    g = geometry(name, paper)
    found = [s for s in segments(pdf) if s.dashed]
    # Two dash patterns for folds (dash-dot and dashed), a third for tears.
    patterns = {s.dash_mm for s in found}
    assert len(patterns) == 3
    tear = next(s.dash_mm for s in found if abs(s.x1_mm - g.width) < 0.2)
    mountain, valley = (p for p in sorted(patterns, key=len, reverse=True) if p != tear)
    assert len(mountain) == 4 and len(valley) == 2, "mountain is dash-dot, valley dashed"

    def style_at(x: float | None, y: float) -> tuple[float, ...]:
        for s in found:
            if x is None and abs(s.y1_mm - y) < 0.2 and abs(s.y2_mm - y) < 0.2:
                return s.dash_mm
            spans = min(s.y1_mm, s.y2_mm) < y < max(s.y1_mm, s.y2_mm)
            if x is not None and abs(s.x1_mm - x) < 0.2 and spans:
                return s.dash_mm
        raise AssertionError(f"no fold at x={x}, y={y}")

    top_row = g.page.height_mm - g.panel_height / 2
    if g.scheme is FoldScheme.ACCORDION:
        expected = [mountain, valley, mountain]
        assert [style_at(k * g.panel_width, top_row) for k in (1, 2, 3)] == expected
    else:
        # Folded in half printed side out: a mountain. An upright crease that is a mountain
        # seen from the top row's face is a valley seen from the bottom row's.
        assert style_at(None, g.page.height_mm - g.panel_height) == mountain
        bottom_row = g.page.height_mm - 1.5 * g.panel_height
        assert [style_at(k * g.panel_width, top_row) for k in (1, 2, 3)] == [
            mountain,
            valley,
            mountain,
        ]
        assert [style_at(k * g.panel_width, bottom_row) for k in (1, 2, 3)] == [
            valley,
            mountain,
            valley,
        ]
    text = " ".join(page_text(pdf).split())
    assert "FOLD 1 · MOUNTAIN" in text
    assert "FOLD 1 is a mountain fold" in text or "FOLD 2 away from you" in text


def fold_directions(pdf: bytes, g: CardGeometry) -> list[bool]:
    """Read back from the marks' dash patterns: for each upright fold, left to right, whether it
    is a mountain seen from the top row's printed face (a dash-dot line there)."""
    found = [s for s in segments(pdf) if s.dashed]
    dot = max(len(s.dash_mm) for s in found)
    y = g.page.height_mm - g.panel_height / 2
    mountains = []
    for k in range(1, g.columns):
        x = k * g.panel_width
        here = [
            s
            for s in found
            if abs(s.x1_mm - x) < 0.2 and min(s.y1_mm, s.y2_mm) < y < max(s.y1_mm, s.y2_mm)
        ]
        assert len(here) == 1
        mountains.append(len(here[0].dash_mm) == dot)
    return mountains


def folded_outside(mountains: list[bool]) -> tuple[tuple[int, str], tuple[int, str]]:
    """Fold the strip as the marks say and return its two outside faces, top then bottom, as
    (leaf, "front" or "back"); leaf 0 is the front panel's. Each leaf's front is the printed
    face of the top row; a one-row card's backs are blank, a double card's are the bottom row."""
    stack = [0]  # leaves, top to bottom
    up = {0: True}  # whether a leaf's front faces up
    for leaf, mountain in enumerate(mountains, start=1):
        before = leaf - 1
        # A mountain fold brings the two leaves' backs together, a valley their fronts.
        below = up[before] if mountain else not up[before]
        up[leaf] = not up[before]
        if below:
            stack.append(leaf)
        else:
            stack.insert(0, leaf)
        assert stack[0] == leaf or stack[-1] == leaf, "a concertina folds onto its outside"
    top, bottom = stack[0], stack[-1]
    return (top, "front" if up[top] else "back"), (bottom, "back" if up[bottom] else "front")


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_folded_as_marked_the_card_shows_its_name_outside_and_no_blank_face(
    name: str, paper: Paper
) -> None:
    pdf = built(name, paper)
    g = geometry(name, paper)
    outside = folded_outside(fold_directions(pdf, g))
    assert (0, "front") in outside, "the front panel, with the game's name, is outside"
    printed = {panel_of(i, g) for i in on_card(pdf, g)}
    for leaf, face in outside:
        panel = leaf if face == "front" else (leaf + g.columns if g.rows == 2 else None)
        assert panel is not None, f"leaf {leaf + 1}'s blank back is outside"
        assert panel in printed, f"panel {panel + 1} is outside and blank"


def test_a_valley_first_would_leave_both_faces_blank() -> None:
    """The reason the first fold is a mountain (issue 16): the fold model agrees."""
    assert folded_outside([False, True, False]) == ((3, "back"), (0, "back"))
    assert folded_outside([True, False, True]) == ((0, "front"), (3, "front"))


# --- The text ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_every_section_heading_of_the_source_is_printed(name: str, paper: Paper) -> None:
    rules = load_rules(SEEDS_DIR / CARDS[name][0])
    text = " ".join(page_text(built(name, paper)).split())
    for section in rules.sections:
        assert section.title.upper() in text
    last = rules.sections[-1].blocks[-1].text
    assert " ".join(last.split()[-3:]) in text, "the last words of the source are printed"


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_the_front_panel_shows_the_games_name(name: str, paper: Paper) -> None:
    pdf = built(name, paper)
    g = geometry(name, paper)
    title = load_rules(SEEDS_DIR / CARDS[name][0]).title
    runs = on_card(pdf, g)
    biggest = max(runs, key=lambda i: i.run.size)
    assert biggest.run.text.strip() == title
    assert panel_of(biggest, g) == 0
    assert biggest.top > max(i.top for i in runs if panel_of(i, g) == 0) - 0.01


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_text_never_crosses_a_fold_nor_comes_within_4mm_of_one(name: str, paper: Paper) -> None:
    pdf = built(name, paper)
    g = geometry(name, paper)
    runs = on_card(pdf, g)
    assert len(runs) > 60
    for ink in runs:
        rect = g.panel(panel_of(ink, g))
        row, column = divmod(panel_of(ink, g), g.columns)
        # 4 mm from every fold and tear; 5 mm from the sheet's own top and left edges.
        left = 5.0 if column == 0 else 4.0
        top = 5.0 if row == 0 else 4.0
        assert ink.left >= rect.x + left - 0.05, f"{ink.run.text!r} near the left of its panel"
        assert ink.right <= rect.right - 4.0 + 0.05, f"{ink.run.text!r} near a fold on its right"
        assert ink.top <= rect.top - top + 0.05, f"{ink.run.text!r} near the top of its panel"
        assert ink.bottom >= rect.y + 4.0 - 0.05, f"{ink.run.text!r} near a fold below it"


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_nothing_printed_within_5mm_of_top_and_left(name: str, paper: Paper) -> None:
    dpi = 150
    image = render_page(built(name, paper), 0, dpi)
    edge = int(5.0 / 25.4 * dpi)
    assert image[:edge, :, :].min() == 255, "ink within 5 mm of the top edge"
    assert image[:, :edge, :].min() == 255, "ink within 5 mm of the left edge"
    assert image[edge : edge + 200, edge:].min() < 128, "the card's text starts near the corner"


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_no_text_under_7pt_on_the_card_nor_under_6pt_anywhere(name: str, paper: Paper) -> None:
    pdf = built(name, paper)
    g = geometry(name, paper)
    assert min(i.run.size for i in on_card(pdf, g)) >= 7.0
    assert min(r.size for r in text_runs(pdf)) >= 6.0


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_text_reads_in_order_across_both_rows(name: str, paper: Paper) -> None:
    """Read as a player reads the card, panel by panel (row by row) and down each panel, the
    text holds the source's headings and the first words of each section's text in order."""
    pdf = built(name, paper)
    g = geometry(name, paper)
    runs = sorted(on_card(pdf, g), key=lambda i: (panel_of(i, g), -round(i.run.y_mm, 2), i.left))
    # A line's runs follow one another; a line ends with a line break.
    read = " ".join("".join(i.run.text.replace("\n", " ") for i in runs).split())
    rules = load_rules(SEEDS_DIR / CARDS[name][0])
    at = 0
    for section in rules.sections:
        for words in (section.title.upper(), " ".join(section.blocks[0].text.split()[:3])):
            found = read.find(words, at)
            assert found >= 0, f"{words!r} out of order (or missing) after {read[at - 40 : at]!r}"
            at = found + len(words)
    if g.rows == 2:
        last = rules.sections[-1].title.upper()
        assert any(panel_of(i, g) >= g.columns for i in runs if i.run.text.strip() == last)


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_a_heading_never_ends_a_panel_and_panels_are_balanced(name: str, paper: Paper) -> None:
    pdf = built(name, paper)
    g = geometry(name, paper)
    runs = on_card(pdf, g)
    body = min(i.run.size for i in runs)
    lowest: dict[int, Ink] = {}
    for ink in runs:
        panel = panel_of(ink, g)
        if panel not in lowest or ink.bottom < lowest[panel].bottom:
            lowest[panel] = ink
    assert sorted(lowest) == list(range(g.panels)), "every panel has text"
    for panel, ink in lowest.items():
        assert ink.run.size <= body + 0.01, f"panel {panel + 1} ends with a heading"
    # Balanced: no panel ends much higher than another (issue 16 saw 27 mm against 6.5 mm).
    empty = [ink.bottom - g.panel(panel).y for panel, ink in lowest.items()]
    assert max(empty) - min(empty) < 16.0, empty


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_wrapped_lines_of_a_bullet_start_under_its_first_line(name: str, paper: Paper) -> None:
    pdf = built(name, paper)
    g = geometry(name, paper)
    runs = on_card(pdf, g)
    bullets = [i for i in runs if i.run.text.strip() == "•"]
    assert bullets
    for bullet in bullets:
        beside = [i for i in runs if abs(i.run.y_mm - bullet.run.y_mm) < 0.01 and i is not bullet]
        first = min(beside, key=lambda i: i.left).left
        below = [
            i
            for i in runs
            if 0 < bullet.run.y_mm - i.run.y_mm < 4.5
            and panel_of(i, g) == panel_of(bullet, g)
            and i.left > bullet.left + 0.5
        ]
        for ink in below:
            assert ink.left >= first - 0.05, f"{ink.run.text!r} starts left of its first line"


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_the_spare_paper_says_how_to_print_and_fold_and_has_a_footer(
    name: str, paper: Paper
) -> None:
    text = " ".join(page_text(built(name, paper)).split())
    rules = load_rules(SEEDS_DIR / CARDS[name][0])
    for words in ("How to print.", "How to fold.", "50 mm: measure this bar", "FOLD & TEAR"):
        assert words in text
    assert f"{rules.title} · rules card" in text and "printgen" in text
    if name == "package-war-card":
        assert "Rasmus Pechuel and Monica Shellman" in text.split("· rules card")[-1]


# --- Other sizes: A3, --panels, --fold, large print ---------------------------------------------


def test_a3_takes_six_panels_a_row(tmp_path: Path) -> None:
    source = SEEDS_DIR / "one-page-war.md"
    pdf = build_card(BuildOptions(rules=source, paper=Paper.A3, fold="double"))
    upright = sorted({round(s.x1_mm, 2) for s in lines(segments(pdf), True) if s.dashed})
    assert upright == pytest.approx([57.15 * k for k in range(1, 7)], abs=0.2)
    assert "12-panel double fold" in page_text(pdf)


def test_panels_and_fold_options() -> None:
    war = SEEDS_DIR / "war.md"
    pdf = build_card(BuildOptions(rules=war, fold="double", panels=6))
    upright = sorted({round(s.x1_mm, 2) for s in lines(segments(pdf), True) if s.dashed})
    assert upright == pytest.approx([57.15, 114.3, 171.45], abs=0.2)
    with pytest.raises(InputError, match="even number of panels"):
        build_card(BuildOptions(rules=war, fold="double", panels=5))
    # Panels narrower than a playing card, or marks run into the 6 mm margin, are refused.
    for paper, panels in ((Paper.A4, 8), (Paper.A4, 5), (Paper.LETTER, 5)):
        with pytest.raises(
            InputError,
            match=rf"--panels {panels}: the accordion on {paper.label} takes at most 4 panels "
            r"of 63.5 x 88.9 mm .*use --panels 4 or fewer",
        ):
            build_card(BuildOptions(rules=war, paper=paper, fold="accordion", panels=panels))
    with pytest.raises(InputError, match="--panels 10: the double fold on A4 takes at most 8"):
        build_card(BuildOptions(rules=war, fold="double", panels=10))
    with pytest.raises(InputError, match="--panels must be 1 or more"):
        build_card(BuildOptions(rules=war, panels=0))


def test_large_print_cards_keep_headings_with_their_text_and_addresses_whole() -> None:
    pdf = built("war-card", Paper.A4, large_print=True)
    g = geometry("war-card", Paper.A4, large_print=True)
    assert g.scheme is FoldScheme.ACCORDION and g.panel_height > 88.9
    runs = on_card(pdf, g)
    assert min(i.run.size for i in runs) >= 11.0
    assert any(i.run.text.strip() == "w.richardpringle.com/games/war/" for i in runs)
    body = min(i.run.size for i in runs)
    for panel in range(g.panels):
        lowest = min((i for i in runs if panel_of(i, g) == panel), key=lambda i: i.bottom)
        assert lowest.run.size <= body + 0.01, f"panel {panel + 1} ends with a heading"
    # Three panels on one side: the name is on the front; the back is panel 3's blank back.
    assert folded_outside(fold_directions(pdf, g)) == ((0, "front"), (2, "back"))


def test_large_print_that_fits_no_sheet_says_what_would_take_it() -> None:
    rules = load_rules(SEEDS_DIR / "one-page-war.md")
    with pytest.raises(FitError) as error:
        plan_card(rules, CardRequest(Paper.A4, large_print=True))
    message = str(error.value)
    assert "in normal print" in message and message.endswith("--paper a4 --fold double")


# --- When the text does not fit ----------------------------------------------------------------


def write_source(tmp_path: Path, body: str, title: str = "Test game", name: str = "r.md") -> Path:
    path = tmp_path / name
    path.write_text(f'+++\ntitle = "{title}"\n+++\n\n{body}\n', encoding="utf-8")
    return path


def sections(count: int, words: int = 60) -> str:
    vocabulary = [
        "roll",
        "write",
        "the",
        "number",
        "in",
        "a",
        "square",
        "of",
        "an",
        "arena",
        "on",
        "your",
        "side",
        "then",
        "pass",
    ]
    text = []
    for i in range(count):
        bullet = " ".join(vocabulary[(i + k) % len(vocabulary)] for k in range(words))
        text.append(f"## Part {i}\n\n- {bullet} end{i}.\n- second point of part {i}.\n")
    return "\n".join(text)


def test_text_too_long_for_the_accordion_names_the_scheme_that_takes_it() -> None:
    rules = load_rules(SEEDS_DIR / "one-page-war.md")
    with pytest.raises(FitError) as error:
        plan_card(rules, CardRequest(Paper.A4, FoldScheme.ACCORDION))
    message = str(error.value)
    assert "4-panel accordion on A4 even at 7 pt" in message
    assert "mm of text is left over after panel 4" in message
    assert re.search(
        r"it would fit the 8-panel double fold on A4 at [\d.]+ pt: printgen build card ", message
    )
    assert message.endswith("seeds/one-page-war.md --paper a4 --fold double")
    assert "''" not in message


def test_the_advice_is_computed_and_the_advised_card_builds(tmp_path: Path) -> None:
    source = write_source(tmp_path, sections(22))
    with pytest.raises(FitError) as error:
        build_card(BuildOptions(rules=source))
    message = str(error.value)
    assert "nor the 4-panel accordion" in message
    assert "it would fit the 12-panel double fold on A3" in message
    command = message.rsplit(": ", 1)[-1].split()
    assert command == [
        "printgen",
        "build",
        "card",
        "--rules",
        str(source),
        *["--paper", "a3", "--fold", "double"],
    ]
    pdf = build_card(BuildOptions(rules=source, paper=Paper(command[6]), fold=command[8]))
    assert "END21." in " ".join(page_text(pdf).split()).upper()


def test_the_first_text_that_did_not_fit_is_quoted_and_the_overflow_grows(tmp_path: Path) -> None:
    over = []
    for count in (20, 21):
        source = write_source(tmp_path, sections(count), name=f"r{count}.md")
        with pytest.raises(FitError) as error:
            build_card(BuildOptions(rules=source, fold="double"))
        message = str(error.value)
        quoted = message.split("did not fit: '", 1)[1].split("'", 1)[0]
        assert len(quoted) > 10
        flat = " ".join(source.read_text(encoding="utf-8").replace("#", "").split()).upper()
        assert quoted.removesuffix(" …").upper() in flat.replace("- ", "")
        over.append(float(message.split(" mm of text")[0].rsplit(" ", 1)[-1]))
    assert 0 < over[0] < over[1]


def test_far_too_long_fails_from_its_length_without_flowing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One 60 KB paragraph: no card can take it, and its length alone shows it, so nothing is
    flowed (ReportLab splitting it panel after panel, size after size, took minutes)."""
    source = write_source(tmp_path, "## One\n\n" + "word " * 12_000)

    def no_flow(*_args: object, **_kw: object) -> None:
        raise AssertionError("flowed a text its length already rules out")

    monkeypatch.setattr(accordion, "flow", no_flow)
    with pytest.raises(FitError) as error:
        build_card(BuildOptions(rules=source))
    message = str(error.value)
    assert "at least" in message and "no card printgen folds takes it" in message
    assert "no text can fit from about: 'word word" in message


def test_a_word_wider_than_a_panel_is_an_error_not_broken(tmp_path: Path) -> None:
    source = write_source(tmp_path, "## Long\n\n- " + "x" * 90)
    with pytest.raises(
        FitError, match=r"the word 'x{60}' on line 7 is \d+\.\d mm wide.*put a space"
    ):
        build_card(BuildOptions(rules=source))
    # Four large-print panels do not fit the sheet's width at their size: refused up front.
    with pytest.raises(InputError, match="takes at most 3 panels of 84.7 x 150 mm"):
        build_card(BuildOptions(rules=SEEDS_DIR / "war.md", panels=4, large_print=True))


# --- Hostile rules sources through the command line -------------------------------------------


def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.md"
    os.mkfifo(path)
    return path


HOSTILE = {
    "control character": (
        "## A\n\n- a bell \x07 here",
        "line 7, column 10: control character U+0007",
    ),
    "escape sequence": ("## A\n\n- red \x1b[31m", "control character U+001B"),
    "nul": ("## A\n\n- a \x00 b", "control character U+0000"),
    "bad reference": ("## A\n\n- a &#0; b", "U+FFFD is not a printable character"),
    "arabic": ("## A\n\n- مرحبا", "Arabic letter 'م' (U+0645): the card sets left-to-right"),
    "hebrew": ("## A\n\n- a שלום b", "Hebrew letter 'ש' (U+05E9)"),
    "hebrew by reference": ("## A\n\n- a &#1488; b", "Hebrew letter 'א'"),
    "fenced code": ("## A\n\n- b\n\n```\ncode\n```", "line 9: a code block"),
    "indented code": ("## A\n\n    code here", "line 7: a code block"),
    "image": ("## A\n\n- see ![the board](board.png)", "an image (board.png)"),
    "empty section": ("## A\n\n## B\n\n- b", "line 5: the heading 'A' has no text under it"),
    "no body": ("", "line 4: no rules after the front matter"),
    "emoji": ("## A\n\n- fine\n- a trophy 🏆 here", "line 8: bullet 'a trophy 🏆 here'"),
    "hangul": ("## A\n\n- 한국어", "line 7: bullet '한국어': no font printgen ships covers Hangul"),
    "simplified chinese": ("## A\n\n- 汉", "no font printgen ships covers Chinese characters"),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_a_source_the_card_cannot_typeset_is_a_one_line_error(
    runner, tmp_path: Path, case: str
) -> None:  # type: ignore[no-untyped-def]
    body, expected = HOSTILE[case]
    source = write_source(tmp_path, body)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["build", "card", "--rules", str(source), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert expected in result.output
    assert str(source) in result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1
    assert (
        "Traceback" not in result.output
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    )
    assert not out.exists()


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda p: p / "folder", "is a directory"),
        (fifo, "is not a regular file"),
        (lambda p: Path("/dev/zero"), "is not a regular file"),
        (lambda p: write_source(p, "## A\n\n- " + "a " * 40_000), "at most 64 KB"),
        (
            lambda p: (
                (p / "latin1.md").write_bytes(b'+++\ntitle = "\xe9"\n+++\n') and p / "latin1.md"
            ),
            "not UTF-8",
        ),
    ],
    ids=["folder", "fifo", "dev-zero", "too-big", "not-utf8"],
)
def test_a_source_that_is_not_a_small_text_file_is_refused(
    runner, tmp_path: Path, make, expected: str
) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "folder").mkdir()
    source = make(tmp_path)
    result = runner.invoke(
        cli, ["build", "card", "--rules", str(source), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code != 0
    assert expected in result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("front", "body", "printed"),
    [
        ('title = "Tab\\there"', "## A\n\n- b", "Tab here"),
        ('title = "Tab\there"', "## A\tB\n\n- b\tc", "A B"),
        ('title = "No&nbsp;break"', "## A&nbsp;B\n\n- a&nbsp;b &amp; c", "a\xa0b & c"),
        (
            'title = "Q&A"',
            "## A\n\n- Cards < 5 & > 2; <b>not bold</b>.",
            "Cards < 5 & > 2; <b>not bold</b>.",
        ),
    ],
    ids=["escaped tab", "raw tab", "entities", "markup characters"],
)
def test_tabs_entities_and_markup_characters_print_as_text(
    tmp_path: Path, front: str, body: str, printed: str
) -> None:
    path = tmp_path / "rules.md"
    path.write_text(f"+++\n{front}\n+++\n{body}\n", encoding="utf-8")
    text = " ".join(page_text(build_card(BuildOptions(rules=path))).replace("\xa0", " ").split())
    assert printed.replace("\xa0", " ") in text and "&nbsp;" not in text


def test_bom_and_windows_line_ends_are_read(tmp_path: Path) -> None:
    path = tmp_path / "rules.md"
    path.write_bytes('\ufeff+++\r\ntitle = "Crlf"\r\n+++\r\n## Part\r\n\r\n- text\r\n'.encode())
    text = page_text(build_card(BuildOptions(rules=path)))
    assert "Crlf" in text and "PART" in text


def test_numbered_items_keep_their_numbers_and_links_their_address(tmp_path: Path) -> None:
    source = write_source(
        tmp_path,
        "## Steps\n\n3. shuffle\n4. deal, see [Pagat](https://www.pagat.com/war/)\n\n"
        "   and a second paragraph\n",
    )
    pdf = build_card(BuildOptions(rules=source))
    texts = [r.text.strip() for r in text_runs(pdf)]
    assert "3." in texts and "4." in texts
    assert "deal, see Pagat (www.pagat.com/war/)" in " ".join(page_text(pdf).split())
    assert texts.count("•") == 0


# --- Front matter, Japanese, and the marks' margins -------------------------------------------


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        (
            'title = "T"\nplayer = "2 players"\nequipement = "a deck"',
            "line 3: unknown front matter key `player` (did you mean `players`?); the keys are "
            "title, players, equipment, credit",
        ),
        (
            'title = "T"\nplayers = "2"\nequipement = "a deck"',
            "line 4: unknown front matter key `equipement` (did you mean `equipment`?)",
        ),
        ('title = "T"\n\ncolour = "red"', "line 4: unknown front matter key `colour`; the keys"),
        (
            'title = "T"\nplayers = "2"\nequipment = "a deck"\nfoo = [',
            "line 5: malformed front matter: Invalid value",
        ),
        (
            'title = "T"\nplayers = = "2"',
            "line 3, column 11: malformed front matter: Invalid value",
        ),
    ],
    ids=["misspelt players", "misspelt equipment", "unknown", "unclosed array", "bad value"],
)
def test_front_matter_errors_name_the_key_and_the_line(
    runner, tmp_path: Path, front: str, expected: str
) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "r.md"
    source.write_text(f"+++\n{front}\n+++\n## A\n\n- b\n", encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["build", "card", "--rules", str(source), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert f"{source}, {expected}" in result.output
    assert "(at " not in result.output, "tomllib's own place is replaced by the file's line"
    assert not out.exists()


def test_a_card_without_players_or_equipment_omits_them(tmp_path: Path) -> None:
    """README: `players` and `equipment` are optional; the subtitle prints what is given."""
    source = tmp_path / "r.md"
    source.write_text('+++\ntitle = "Solo"\nequipment = "a deck"\n+++\n## A\n\n- b\n')
    texts = [r.text.strip() for r in text_runs(build_card(BuildOptions(rules=source)))]
    assert "a deck" in texts and not any(t.startswith("·") or t.endswith("·") for t in texts)


def test_a_japanese_title_prints_in_the_footer_and_unspaced_japanese_wraps(
    tmp_path: Path,
) -> None:
    text = (
        "各プレイヤーは山札の一番上のカードをめくる。"
        "大きいカードが両方を取る。漢字も使う：麒麟、鬱。"
    )
    source = write_source(tmp_path, f"## 遊び方\n\n- {text} Latin words stay whole.", "ねこ")
    pdf = build_card(BuildOptions(rules=source))
    g = plan_card(load_rules(source), CardRequest()).layout.geometry
    assert "ねこ · rules card" in " ".join(page_text(pdf).split())
    runs = on_card(pdf, g)
    printed = "".join(i.run.text.strip() for i in runs)
    assert text in printed, "every character printed, in order"
    lines_of_text = {round(i.run.y_mm, 1) for i in runs if i.run.size < 9}
    assert len(lines_of_text) >= 3, "the unspaced sentence wraps over several lines"
    for ink in runs:
        assert ink.right <= g.text_rect(panel_of(ink, g)).right + 0.01, ink.run.text
    assert "Latin" in [w for i in runs for w in i.run.text.split()], "a Latin word is not broken"


def test_a_too_wide_word_in_japanese_text_is_still_an_error(tmp_path: Path) -> None:
    source = write_source(tmp_path, "## A\n\n- かな " + "x" * 90)
    with pytest.raises(FitError, match=r"the word 'x{60}' on line 7 is"):
        build_card(BuildOptions(rules=source))


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_every_stroke_stays_6mm_inside_the_sheet(name: str, paper: Paper) -> None:
    """A stroke is centred on its line: a mark ending on the 6 mm margin would print half its
    width inside it. Read with pdfium, whose bounds include the stroke's width."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(built(name, paper))
    page = document[0]
    width, height = (v * 25.4 / 72 for v in page.get_size())
    for item in page.get_objects(max_depth=5):
        if item.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        left, bottom, right, top = (v * 25.4 / 72 for v in item.get_bounds())
        assert min(left, bottom, width - right, height - top) >= 6.0 - 1e-4, (left, bottom)


def test_panels_that_fit_keep_their_marks_inside_the_margin() -> None:
    for paper in Paper:
        for scheme in FoldScheme:
            g = accordion.load_card_layout(CardRequest(paper), scheme).geometry
            assert g.panel_width in (63.5, 57.15)
            assert g.width + g.overrun <= g.page.width_mm - 6.0


def label_runs(pdf: bytes) -> list[TextRun]:
    return [r for r in text_runs(pdf) if r.text.strip().startswith("▲ FOLD")]


@pytest.mark.parametrize(("name", "paper"), CASES, ids=IDS)
def test_each_fold_label_states_the_direction_of_the_line_beside_it(
    name: str, paper: Paper
) -> None:
    pdf = built(name, paper)
    g = geometry(name, paper)
    found = [s for s in segments(pdf) if s.dashed]
    labels = label_runs(pdf)
    assert len(labels) == g.columns - 1
    for run in labels:
        number = int(run.text.split()[2])
        x = (number - (1 if g.rows == 1 else 2) + 1) * g.panel_width
        direction = run.text.split("·")[1].split()[0]
        # The stretch of the fold line right above the label.
        beside = [
            s for s in found if abs(s.x1_mm - x) < 0.2 and min(s.y1_mm, s.y2_mm) < run.y_mm + 5.0
        ]
        assert len(beside) == 1, run.text
        assert len(beside[0].dash_mm) == (4 if direction == "MOUNTAIN" else 2), run.text
        if g.rows == 2:
            assert run.text.strip().endswith("ON THIS SIDE")


@pytest.mark.parametrize("name", [n for n in CARDS if CARDS[n][1] is FoldScheme.DOUBLE])
def test_no_note_runs_on_through_the_middle_folds_label(name: str) -> None:
    """On Letter the notes column is narrow: a note split around FOLD 1's label would read on
    through it. Every note starts, and ends, on one side of the label."""
    for paper in PAPERS:
        pdf = built(name, paper)
        g = geometry(name, paper)
        runs = [r for r in text_runs(pdf) if r.x_mm > g.width + 8.0 and abs(r.size - 7.5) < 0.01]
        label = next(r for r in text_runs(pdf) if "FOLD 1 · MOUNTAIN" in r.text)
        below = sorted((r for r in runs if r.y_mm < label.y_mm), key=lambda r: -r.y_mm)
        if below:
            assert below[0].text.strip().startswith(("How to", "Tall page")), below[0].text
        text = " ".join(page_text(pdf).split())
        for title in ("How to print.", "How to fold.", "Tall page in the preview?"):
            assert title in text
