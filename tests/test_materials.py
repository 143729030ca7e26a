"""Print truths that hold for every material printgen builds, on every paper it offers:
fonts embedded as subsets (never Helvetica) under tags that tell the subsets apart, page sizes
exact, a TrimBox on every page, no ink near the sheet's edges, the PDF asks not to be scaled, no
text under 6 pt, write-in lines that survive a photocopier, the rules each sheet promises, and the
same inputs give the same bytes."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from printgen.games import standalone_materials
from printgen.materials import BuildOptions, Material
from printgen.paths import SEEDS_DIR
from printgen.render.fonts import subset_tag
from printgen.render.pdf import set_page_boxes
from printgen.render.readback import (
    Stroke,
    all_text,
    embedded_fonts,
    font_subsets,
    ink_profile,
    page_boxes,
    page_count,
    page_size_mm,
    render_page,
    strokes,
    text_runs,
)
from printgen.render.units import Paper, Rect, mm
from printgen.rules_text import load_rules

DPI = 40
# The rules cards' design puts the card in the sheet's top-left corner, printed to within 5 mm.
EDGE_MM = {"war-card": 5.0}
CASES = [(material, paper) for material in standalone_materials() for paper in material.papers]
IDS = [f"{m.name}-{p.value}" for m, p in CASES]

# What a player must read is at least this big on paper.
MIN_TEXT_PT = 6.0
# A write-in line (square, tick box, name line, score cell) survives a photocopy: this wide and
# this dark at least. Lighter or thinner line work is decoration only.
MIN_LINE_MM = 0.35
MIN_DARKNESS = 0.80
# Rendering for the photocopier check: a copier in text mode keeps what is darker than 50 %.
COPY_DPI = 100
COPY_THRESHOLD = 128
# A dashed write-in line keeps its gaps; a vanished line is one long gap.
MAX_GAP_MM = 2.0


@pytest.fixture(scope="module")
def built() -> dict[tuple[str, str], bytes]:
    return {}


def build(material, paper, cache) -> bytes:  # type: ignore[no-untyped-def]
    key = (material.name, paper.value)
    if key not in cache:
        cache[key] = material.build(BuildOptions(paper=paper), None)
    return cache[key]


@pytest.mark.parametrize(("material", "paper"), CASES, ids=IDS)
def test_print_truths(material, paper, built) -> None:  # type: ignore[no-untyped-def]
    pdf = build(material, paper, built)
    fonts = embedded_fonts(pdf)
    assert fonts, "every material prints some text"
    assert all(fonts.values()), f"unembedded fonts: {fonts}"
    assert not any("Helvetica" in name or "Times" in name for name in fonts)
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert reader.metadata is not None and reader.metadata.title
    size = paper.size
    edge = EDGE_MM.get(material.name, 6.0)
    for index in range(page_count(pdf)):
        width, height = page_size_mm(pdf, index)
        assert sorted((width, height)) == pytest.approx(
            sorted((size.width_mm, size.height_mm)), abs=0.01
        )
        image = render_page(pdf, index, DPI)
        strip = int(edge / 25.4 * DPI) - 1  # one pixel of slack for anti-aliasing
        for name, band in [
            ("top", image[:strip]),
            ("bottom", image[-strip:]),
            ("left", image[:, :strip]),
            ("right", image[:, -strip:]),
        ]:
            assert band.min() > 200, f"page {index + 1}: ink within {edge} mm of the {name} edge"


@pytest.mark.parametrize("material", standalone_materials(), ids=lambda m: m.name)
def test_builds_are_reproducible(material, built) -> None:  # type: ignore[no-untyped-def]
    paper = material.papers[0]
    first = build(material, paper, built)
    assert material.build(BuildOptions(paper=paper), None) == first


# --- prepress --------------------------------------------------------------------------------


@pytest.mark.parametrize(("material", "paper"), CASES, ids=IDS)
def test_every_page_has_a_trim_box_inside_its_bleed_and_media(material, paper, built) -> None:  # type: ignore[no-untyped-def]
    pdf = build(material, paper, built)
    for index in range(page_count(pdf)):
        boxes = page_boxes(pdf, index)
        assert "TrimBox" in boxes, f"page {index + 1} has no TrimBox"
        media, trim = boxes["MediaBox"], boxes["TrimBox"]
        outer = boxes.get("BleedBox", media)
        for inner, box, names in ((trim, outer, "TrimBox in BleedBox"), (outer, media, "in media")):
            assert inner[0] >= box[0] - 1e-3 and inner[1] >= box[1] - 1e-3, (index, names)
            assert inner[2] <= box[2] + 1e-3 and inner[3] <= box[3] + 1e-3, (index, names)


@pytest.mark.parametrize(("material", "paper"), CASES, ids=IDS)
def test_font_subsets_have_distinct_tags(material, paper, built) -> None:  # type: ignore[no-untyped-def]
    subsets = font_subsets(build(material, paper, built))
    assert all(s.tag for s in subsets), [s.base_font for s in subsets]
    tags = [s.tag for s in subsets]
    assert len(set(tags)) == len(tags), f"subset tags repeat: {sorted(tags)}"
    assert "AAAAAA" not in tags


def test_a_subset_tag_names_one_subset_across_every_file(built) -> None:  # type: ignore[no-untyped-def]
    """Files merged or imposed together: the same tagged name never stands for two subsets."""
    programs: dict[str, set[bytes]] = {}
    for material, paper in CASES:
        for subset in font_subsets(build(material, paper, built)):
            programs.setdefault(subset.base_font, set()).add(subset.program)
    assert {name for name, found in programs.items() if len(found) > 1} == set()
    # And the tags do differ between different subsets of one font.
    by_font: dict[str, set[str]] = {}
    for name in programs:
        tag, _, font = name.partition("+")
        by_font.setdefault(font, set()).add(tag)
    assert any(len(tags) > 1 for tags in by_font.values())


def test_a_subset_tag_comes_from_the_subset_itself() -> None:
    tag = subset_tag("DejaVuSans", [65, 66, 67])
    assert re.fullmatch("[A-Z]{6}", tag)
    assert subset_tag("DejaVuSans", [65, 66, 67]) == tag  # the same subset, the same tag
    assert subset_tag("DejaVuSans", [65, 66, 68]) != tag  # one glyph more or less: another
    assert subset_tag("DejaVuSans-Bold", [65, 66, 67]) != tag
    # Two subsets of one file never share a tag, however the hash falls.
    assert subset_tag("DejaVuSans", [65, 66, 67], taken={tag}) not in {tag}


def test_page_boxes_refuse_a_bleed_past_the_sheet() -> None:
    canvas = Canvas(io.BytesIO(), pagesize=(mm(100), mm(100)))
    set_page_boxes(canvas, Rect(10, 10, 80, 80), 3.0)
    with pytest.raises(ValueError, match="reaches past the page"):
        set_page_boxes(canvas, Rect(1, 10, 80, 80), 3.0)
    with pytest.raises(ValueError, match="bleed needs a trim"):
        set_page_boxes(canvas, None, 3.0)


# --- what a player reads and writes ----------------------------------------------------------


@pytest.mark.parametrize(("material", "paper"), CASES, ids=IDS)
def test_no_text_under_6_pt(material, paper, built) -> None:  # type: ignore[no-untyped-def]
    pdf = build(material, paper, built)
    small = [
        f"page {index + 1}: {run.printed_size:.2f} pt {run.text.strip()[:40]!r}"
        for index in range(page_count(pdf))
        for run in text_runs(pdf, index)
        if run.printed_size < MIN_TEXT_PT - 0.01
    ]
    assert not small, f"{len(small)} runs under {MIN_TEXT_PT:g} pt, e.g. {small[:4]}"


@dataclass(frozen=True)
class WriteIn:
    """Somewhere a player writes, in page mm (origin bottom-left). A box's four edges are write-in
    lines; a line is one horizontal write-in line at a height within y1..y2 that covers at least
    `cover` of x1..x2 (a name line shares its box with its label, on whichever side)."""

    what: str
    x1: float
    y1: float
    x2: float
    y2: float
    box: bool = True
    cover: float = 0.95

    @classmethod
    def rect(cls, what: str, x: float, y: float, w: float, h: float) -> WriteIn:
        return cls(what, x, y, x + w, y + h)

    @classmethod
    def line(
        cls, what: str, x1: float, x2: float, y_low: float, y_high: float, cover: float = 0.95
    ) -> WriteIn:
        return cls(what, x1, y_low, x2, y_high, box=False, cover=cover)


# Per page: its write-ins, or RULED when every straight line on the page is a write-in line
# (a score sheet or tally that is nothing but its table).
RULED = "every ruled line"
PageWriteIns = dict[int, list[WriteIn] | str]


def _one_page_war(material: Material, paper: Paper) -> PageWriteIns:
    from printgen.games.one_page_war.geometry import WRITING_KINDS, Kind, sheet_geometry
    from printgen.games.one_page_war.layout import load_layout
    from printgen.games.one_page_war.sheets import TallySpec, team_pages

    geometry = sheet_geometry("standard", paper)
    height = geometry.height
    write_ins: list[WriteIn] = []
    for e in geometry.elements:
        if e.kind not in WRITING_KINDS:
            continue
        bottom = height - e.y - e.h  # the geometry counts y down from the top edge
        what = f"{e.kind.value} {e.arena or ''} {e.side.value if e.side else ''} {e.index}"
        if e.kind is Kind.NAME:
            # The label takes part of the box, at either end: the line runs over 40 % at least.
            write_ins.append(WriteIn.line(what, e.x, e.x + e.w, bottom, bottom + e.h, cover=0.4))
        else:
            write_ins.append(WriteIn.rect(what, e.x, bottom, e.w, e.h))
    if material.name != "one-page-war-team":
        return {0: write_ins}
    pages = team_pages(load_layout("standard"), paper, BuildOptions().pairs)
    return {i: RULED if isinstance(p, TallySpec) else write_ins for i, p in enumerate(pages)}


def _aiue_record(material: Material, paper: Paper) -> PageWriteIns:
    from printgen.games.aiue_battle.layout import load_layout, record_sheet

    sheet = record_sheet(load_layout("standard"), paper)
    write_ins = [
        WriteIn.rect(f"round {r + 1} column {c + 1}", col.x, row.y, col.width, row.height)
        for r, row in enumerate(sheet.rows)
        for c, col in enumerate(sheet.columns)
    ]
    write_ins += [
        WriteIn.rect(f"name {c + 1}", col.x, sheet.header.y, col.width, sheet.header.height)
        for c, col in enumerate(sheet.columns)
    ]
    date = sheet.date
    write_ins.append(WriteIn.line("date", date.x, date.right, date.y - 0.5, date.y + 0.5))
    return {0: write_ins}


def _package_war_pad(material: Material, paper: Paper) -> PageWriteIns:
    from printgen.games.package_war.materials import pad_geometry

    g = pad_geometry(paper)
    write_ins = [
        WriteIn.rect(
            f"round {r + 1} seat {seat + 1} column {c + 1}", x, row.y, g.column_width, row.height
        )
        for r, row in enumerate(g.rows)
        for seat in range(2)
        for c, x in enumerate(g.column_x[seat])
    ]
    write_ins += [
        WriteIn.line(f"name {seat + 1}", line.x, line.right, line.y - 0.5, line.y + 0.5)
        for seat, line in enumerate(g.name_lines)
    ]
    return {0: write_ins}


def _package_war_mat(material: Material, paper: Paper) -> PageWriteIns:
    from printgen.games.package_war.materials import mat_geometry

    lines = mat_geometry(paper).name_lines
    return {
        0: [
            WriteIn.line(f"name {seat + 1}", line.x, line.right, line.y - 0.5, line.y + 0.5)
            for seat, line in enumerate(lines)
        ]
    }


def _none(material: Material, paper: Paper) -> PageWriteIns:
    return {}


WRITE_INS: dict[str, Callable[[Material, Paper], PageWriteIns]] = {
    "war-card": _none,  # the rules cards are read, never written on
    "one-page-war-card": _none,
    "one-card": _none,
    "package-war-card": _none,
    "aiue-battle-card": _none,
    "one-page-war": _one_page_war,
    "one-page-war-solo": _one_page_war,
    "one-page-war-team": _one_page_war,
    "one-board": _none,
    "one-board-tiled": _none,
    "one-score": lambda material, paper: {0: RULED},
    "one-counters": _none,  # counters to cut out: nothing is written on them
    "package-war-pad": _package_war_pad,
    "package-war-mat": _package_war_mat,
    "aiue-board": _none,
    "aiue-cards": _none,  # the white face is the writing space: a panel, not a ruled line
    "aiue-record": _aiue_record,
}


def test_every_material_says_where_players_write() -> None:
    assert sorted(WRITE_INS) == sorted(m.name for m in standalone_materials())


def _good(stroke: Stroke) -> bool:
    return stroke.width_mm >= MIN_LINE_MM - 1e-3 and stroke.darkness >= MIN_DARKNESS - 1e-3


def _covered(span: tuple[float, float], pieces: list[tuple[float, float]]) -> float:
    """How much of `span` the union of `pieces` covers, as a fraction."""
    lo, hi = span
    total, reach = 0.0, lo
    for a, b in sorted(pieces):
        a, b = max(a, reach), min(b, hi)
        if b > a:
            total += b - a
            reach = b
    return total / (hi - lo) if hi > lo else 1.0


def _along(
    stroke: Stroke, horizontal: bool, at: float, tolerance: float
) -> tuple[float, float] | None:
    """The stretch of the line y = at (or x = at) that `stroke` runs along, if it does."""
    if horizontal:
        if abs(stroke.y1_mm - at) <= tolerance and abs(stroke.y2_mm - at) <= tolerance:
            return (min(stroke.x1_mm, stroke.x2_mm), max(stroke.x1_mm, stroke.x2_mm))
    elif abs(stroke.x1_mm - at) <= tolerance and abs(stroke.x2_mm - at) <= tolerance:
        return (min(stroke.y1_mm, stroke.y2_mm), max(stroke.y1_mm, stroke.y2_mm))
    return None


def _longest_gap_mm(found: np.ndarray, length_mm: float) -> float:
    if found.all():
        return 0.0
    runs, current = [], 0
    for hit in found:
        current = 0 if hit else current + 1
        runs.append(current)
    return max(runs) * length_mm / len(found)


def _edges(w: WriteIn) -> list[tuple[str, bool, float, tuple[float, float]]]:
    """A box's four edges, each trimmed to its middle 70 % (rounded corners are not edges)."""
    mx, my = 0.15 * (w.x2 - w.x1), 0.15 * (w.y2 - w.y1)
    return [
        ("bottom", True, w.y1, (w.x1 + mx, w.x2 - mx)),
        ("top", True, w.y2, (w.x1 + mx, w.x2 - mx)),
        ("left", False, w.x1, (w.y1 + my, w.y2 - my)),
        ("right", False, w.x2, (w.y1 + my, w.y2 - my)),
    ]


def _check_edge(
    found: list[Stroke],
    gray: np.ndarray,
    horizontal: bool,
    at: float,
    span: tuple[float, float],
    cover: float = 0.95,
) -> str | None:
    """None if the line along `at` is drawn as a write-in line over `cover` of `span` at least,
    and survives a copy there."""
    near = [(s, _along(s, horizontal, at, 0.45)) for s in found]
    pieces = [piece for s, piece in near if piece is not None and _good(s)]
    if _covered(span, pieces) < cover:
        drawn = [s for s, piece in near if piece is not None]
        if not drawn:
            return "no line drawn"
        thin = min(drawn, key=lambda s: (s.width_mm, s.darkness))
        return f"line {thin.width_mm:.2f} mm at {thin.darkness:.0%} black"
    if cover < 0.95:
        # Check the copy along the longest stretch that is drawn, not across the label.
        lo, hi = max(pieces, key=lambda piece: min(piece[1], span[1]) - max(piece[0], span[0]))
        span = (max(lo, span[0]), min(hi, span[1]))
    start, end = ((span[0], at), (span[1], at)) if horizontal else ((at, span[0]), (at, span[1]))
    profile = ink_profile(gray, COPY_DPI, start, end, threshold=COPY_THRESHOLD)
    gap = _longest_gap_mm(profile, span[1] - span[0])
    return f"a {gap:.1f} mm gap at a 50 % threshold" if gap > MAX_GAP_MM else None


def _problems(pdf: bytes, index: int, write_ins: list[WriteIn] | str) -> list[str]:
    found = strokes(pdf, index)
    gray = render_page(pdf, index, COPY_DPI).mean(axis=2)
    problems = []
    if write_ins == RULED:
        for s in found:
            if s.length_mm < 2.0:
                continue
            horizontal = abs(s.y1_mm - s.y2_mm) < 0.05
            at = s.y1_mm if horizontal else s.x1_mm
            lo, hi = (s.x1_mm, s.x2_mm) if horizontal else (s.y1_mm, s.y2_mm)
            problem = _check_edge(found, gray, horizontal, at, (min(lo, hi), max(lo, hi)))
            if problem:
                problems.append(f"ruled line at {at:.1f} mm: {problem}")
        return problems
    assert not isinstance(write_ins, str)
    for w in write_ins:
        if w.box:
            for edge, horizontal, at, span in _edges(w):
                problem = _check_edge(found, gray, horizontal, at, span)
                if problem:
                    problems.append(f"{w.what} ({edge} edge): {problem}")
            continue
        # A line: the best horizontal write-in line at a height inside the window.
        heights = sorted({round(s.y1_mm, 2) for s in found if w.y1 <= s.y1_mm <= w.y2 and _good(s)})
        results = [_check_edge(found, gray, True, y, (w.x1, w.x2), w.cover) for y in heights]
        if not heights or all(results):
            problems.append(f"{w.what}: {next((r for r in results if r), 'no line drawn')}")
    return problems


@pytest.mark.parametrize(("material", "paper"), CASES, ids=IDS)
def test_write_in_lines_survive_a_photocopy(material, paper, built) -> None:  # type: ignore[no-untyped-def]
    """Every square, tick box, name line and score cell: 0.35 mm and 80 % black at least, and
    still whole on the page rendered and thresholded at 50 % as a copier in text mode does."""
    pdf = build(material, paper, built)
    pages = WRITE_INS[material.name](material, paper)
    assert all(0 <= index < page_count(pdf) for index in pages)
    failures = []
    for index, write_ins in sorted(pages.items()):
        count = len(write_ins) if not isinstance(write_ins, str) else write_ins
        problems = list(dict.fromkeys(_problems(pdf, index, write_ins)))  # each line once
        if problems:
            failures.append(
                f"page {index + 1} ({count} write-ins): {len(problems)} fail, e.g. {problems[:3]}"
            )
    assert not failures, "; ".join(failures)


# --- the rules each sheet promises, read back from the PDF -----------------------------------


def _normal(text: str) -> str:
    text = text.replace("\u00a0", " ").replace("\u2212", "-").replace("\u2011", "-")
    return re.sub(r"\s+", " ", text).strip().lower()


# Material: its rules source, and the sections (with how many of their first blocks, or all)
# that the sheet prints from it: the team rules, Package War!'s round.
RULES_ON_SHEETS: dict[str, tuple[str, tuple[tuple[str, int | None], ...]]] = {
    "one-page-war-team": ("one-page-war.md", (("Team play", None), ("The team result", None))),
    "package-war-pad": ("package-war.md", (("Reminder: a round", None),)),
    "package-war-mat": ("package-war.md", (("Reminder: a round", None),)),
}


@pytest.mark.parametrize(
    ("material", "paper"),
    [(m, p) for m, p in CASES if m.name in RULES_ON_SHEETS],
    ids=[i for (m, _), i in zip(CASES, IDS, strict=True) if m.name in RULES_ON_SHEETS],
)
def test_the_rules_text_is_on_the_sheet(material, paper, built) -> None:  # type: ignore[no-untyped-def]
    source, sections = RULES_ON_SHEETS[material.name]
    rules = load_rules(SEEDS_DIR / source)
    printed = _normal(all_text(build(material, paper, built)))
    missing = [
        block.text
        for title, count in sections
        for block in rules.section(title).blocks[:count]
        if _normal(block.text) not in printed
    ]
    assert not missing, f"not printed on {material.name}: {missing}"


ONE_BOARDS = [(m, p) for m, p in CASES if m.name in ("one-board", "one-board-tiled")]


@pytest.mark.parametrize(
    ("material", "paper"), ONE_BOARDS, ids=[f"{m.name}-{p.value}" for m, p in ONE_BOARDS]
)
def test_a_one_board_says_how_to_set_up(material, paper, built) -> None:  # type: ignore[no-untyped-def]
    """ONE's board in its own words: the stones each player takes (the layout's counts), the
    capture by a jump, and the size of counter that fits."""
    from printgen.games.one.layout import load_layout

    printed = _normal(all_text(build(material, paper, built)))
    for players, stones in sorted(load_layout("standard").stones_per_player.items()):
        # "24 each with 2 players", "20 with 3": the count, then the players it is for.
        assert re.search(rf"\b{stones}\b[^.;]{{0,25}}?\bwith {players}\b", printed), (
            f"no stone count for {players} players"
        )
    assert "jump" in printed and "captur" in printed
    assert re.search(r"\b\d+(\.\d+)? mm\b[^.]{0,40}counter", printed), "no counter size"
