"""ONE's printed materials read back: every intersection drawn, labelled and inside the page;
neighbouring intersections far enough apart for counters, measured on the rendered page; the
tiled board's two sheets meeting exactly; the rules, the counter size and the footer on the
sheets; the score sheet's lines surviving a photocopy; and the counter sheet's counters."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from test_seeds_own_words import RULEBOOKS, SOURCES, arithmetic, runs, words

from printgen.cli import cli
from printgen.errors import LayoutError
from printgen.games.one.counters import (
    counter_diameter,
    plan_counter_sheet,
    render_counter_sheet,
)
from printgen.games.one.engine import Point
from printgen.games.one.layout import MIN_TEXT_PT, OneLayout, load_layout, parse_layout
from printgen.games.one.materials import (
    CREDIT,
    FOOT_GAP_MM,
    INK_MARGIN_MM,
    TILING,
    TITLE_BLOCK_MM,
    BoardGeometry,
    foot_height,
    how_to_play,
    render_board,
    render_score_sheet,
    render_tiled_board,
    score_sheet_plan,
    single_board,
    spoke_is_dotted,
    tiled_board,
)
from printgen.layouts import read_layout
from printgen.paths import ROOT
from printgen.render.fonts import BODY, BOLD
from printgen.render.marks import FOOTER_SIZE, footer_text
from printgen.render.readback import (
    all_text,
    page_count,
    page_text,
    render_page,
    segments,
    text_runs,
)
from printgen.render.text import plain_text, text_width
from printgen.render.units import SAFE_MARGIN_MM, Paper, to_mm

LAYOUT = load_layout()
ALL_POINTS = set(LAYOUT.board.points)
LABEL = re.compile(r"^(\d+),(\d+)$")
SINGLE_PAPERS = [Paper.A4, Paper.LETTER, Paper.A3]
TILED_PAPERS = [Paper.A4, Paper.LETTER]
# Issue 16: room for counters between neighbouring intersections, in mm.
WANTED_SPACING = {"a4": 12.0, "letter": 12.0, "a3": 17.0, "tiled": 17.0}
DPI = 60
MEASURE_DPI = 200


@cache
def built(render: Callable[[OneLayout, Paper], bytes], paper: Paper) -> bytes:
    """Each material built once per paper for the whole module."""
    return render(LAYOUT, paper)


def board_pdf(paper: Paper) -> bytes:
    return built(render_board, paper)


def tiled_pdf(paper: Paper) -> bytes:
    return built(render_tiled_board, paper)


def score_pdf(paper: Paper) -> bytes:
    return built(render_score_sheet, paper)


def counters_pdf(paper: Paper) -> bytes:
    return built(render_counter_sheet, paper)


def every_sheet() -> list[tuple[str, bytes]]:
    """Each ONE material's PDF on each paper it offers."""
    return (
        [(f"board-{p.value}", board_pdf(p)) for p in SINGLE_PAPERS]
        + [(f"tiled-{p.value}", tiled_pdf(p)) for p in TILED_PAPERS]
        + [(f"score-{p.value}", score_pdf(p)) for p in TILED_PAPERS]
        + [(f"counters-{p.value}", counters_pdf(p)) for p in TILED_PAPERS]
    )


def labels_on(pdf: bytes, page: int) -> dict[Point, tuple[float, float, float, float]]:
    """Each intersection label read back: its centre x, baseline y, width (mm) and size (pt)."""
    found: dict[Point, tuple[float, float, float, float]] = {}
    for run in text_runs(pdf, page):
        match = LABEL.match(run.text.strip())
        if match and run.font.endswith("+DejaVuSans"):
            point = Point(int(match.group(1)), int(match.group(2)))
            assert point not in found, f"{point} labelled twice"
            width = to_mm(text_width(run.text.strip(), BODY, run.size))
            found[point] = (run.x_mm + width / 2, run.y_mm, width, run.size)
    return found


def assert_inside(x: float, y: float, page: tuple[float, float], room: float = 0.0) -> None:
    width, height = page
    margin = SAFE_MARGIN_MM + room
    assert margin - 1e-6 <= x <= width - margin + 1e-6, (
        f"x {x:.1f} mm within {margin} mm of an edge"
    )
    assert margin - 1e-6 <= y <= height - margin + 1e-6, (
        f"y {y:.1f} mm within {margin} mm of an edge"
    )


def assert_dots_drawn(pdf: bytes, page: int, g: BoardGeometry, points: set[Point]) -> None:
    """The rendered page is dark at every intersection's place: the dot is really there."""
    image = render_page(pdf, page, DPI)
    height_px = image.shape[0]
    for point in points:
        x, y = g.xy(point)
        col = round(x / 25.4 * DPI)
        row = round(height_px - y / 25.4 * DPI)
        assert image[row, col].max() < 90, f"no dot at {point.to_text()} ({x:.1f}, {y:.1f} mm)"


def dots_read_back(pdf: bytes, page: int, g: BoardGeometry, points: set[Point]) -> dict:
    """Each intersection's dot found on the rendered page (its centroid, page mm).

    Lines, labels and numbers are thinner than a dot: an opening wider than them and narrower
    than a dot leaves only the dots."""
    image = render_page(pdf, page, MEASURE_DPI)
    dark = (image.max(axis=2) < 100).astype(np.uint8)
    px = MEASURE_DPI / 25.4
    size = max(3, int(g.drawing.dot_radius * 2 * px * 0.6)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    blobs = cv2.morphologyEx(dark, cv2.MORPH_OPEN, kernel)
    count, _, _, centroids = cv2.connectedComponentsWithStats(blobs)
    height_mm = image.shape[0] / px
    found = [((cx + 0.5) / px, height_mm - (cy + 0.5) / px) for cx, cy in centroids[1:count]]
    # The board's own disc only: the bold title above it has strokes as thick as a dot.
    found = [f for f in found if math.dist(f, (g.centre_x, g.centre_y)) < g.outer + 1.0]
    located = {}
    for point in points:
        x, y = g.xy(point)
        nearest = min(found, key=lambda f: math.dist(f, (x, y)))
        assert math.dist(nearest, (x, y)) < 0.3, f"no dot read back at {point.to_text()}"
        located[point] = nearest
    assert len(found) == len(points), f"{len(found)} dots on the page, {len(points)} expected"
    return located


def spacing_of(positions: dict[Point, tuple[float, float]]) -> float:
    return min(
        math.dist(positions[p], positions[q])
        for p in positions
        for q in LAYOUT.board.neighbours(p)
        if q in positions
    )


# ---------------------------------------------------------------------------------------------
# The boards


@pytest.mark.parametrize("paper", SINGLE_PAPERS, ids=lambda p: p.value)
def test_every_intersection_is_labelled_inside_the_page(paper: Paper) -> None:
    pdf = board_pdf(paper)
    page, g = single_board(LAYOUT, paper)
    size = (page.width_mm, page.height_mm)
    labels = labels_on(pdf, 0)
    assert set(labels) == ALL_POINTS
    for point, (x, baseline, width, points) in labels.items():
        # The label read back is where the geometry puts it, and whole inside the margins.
        expected_x, expected_y = g.label_xy(point)
        assert x == pytest.approx(expected_x, abs=0.2)
        assert baseline == pytest.approx(expected_y, abs=1.5)
        assert points >= 6.0 and points == pytest.approx(g.drawing.label_size)
        assert_inside(x - width / 2, baseline, size)
        assert_inside(x + width / 2, baseline + 2.0, size)
        assert_inside(*g.xy(point), size, room=g.drawing.dot_radius)
    assert_dots_drawn(pdf, 0, g, ALL_POINTS)


@pytest.mark.parametrize("paper", SINGLE_PAPERS, ids=lambda p: p.value)
def test_the_board_is_as_large_as_the_paper_allows(paper: Paper) -> None:
    page, g = single_board(LAYOUT, paper)
    # Under the title, inside the side margins (the ring's stroke too), above the rules...
    assert g.centre_y + g.extent == pytest.approx(page.height_mm - INK_MARGIN_MM - TITLE_BLOCK_MM)
    side_room = g.centre_x - g.extent - INK_MARGIN_MM
    foot_room = g.centre_y - g.extent - (SAFE_MARGIN_MM + foot_height(LAYOUT, page) + FOOT_GAP_MM)
    assert side_room >= -1e-6 and foot_room >= -1e-6
    assert g.centre_x == pytest.approx(page.width_mm / 2)
    # ... and touching one of them: no larger board fits.
    assert min(side_room, foot_room) == pytest.approx(0.0, abs=1e-6)
    # Spoke numbers 1 to 16 all printed round the board.
    numbers = {r.text.strip() for r in text_runs(board_pdf(paper), 0) if r.font.endswith("Bold")}
    assert {str(s) for s in range(1, 17)} <= numbers


@pytest.mark.parametrize("paper", SINGLE_PAPERS, ids=lambda p: p.value)
def test_neighbouring_points_leave_room_for_counters(paper: Paper) -> None:
    _, g = single_board(LAYOUT, paper)
    wanted = WANTED_SPACING[paper.value]
    assert LAYOUT.min_spacing[paper.value] >= wanted
    assert g.neighbour_spacing() >= wanted
    # Measured on the printed page: the dots' centres, neighbour to neighbour.
    dots = dots_read_back(board_pdf(paper), 0, g, ALL_POINTS)
    assert spacing_of(dots) >= wanted - 0.1
    assert spacing_of(dots) == pytest.approx(g.neighbour_spacing(), abs=0.1)


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_the_two_sheet_board_leaves_room_for_glass_gems(paper: Paper) -> None:
    top, bottom = tiled_board(LAYOUT, paper)
    wanted = WANTED_SPACING["tiled"]
    assert top.geometry.neighbour_spacing() >= wanted
    # Each sheet's dots read back, put together about each sheet's board centre.
    board: dict[Point, tuple[float, float]] = {}
    for index, sheet in enumerate((top, bottom)):
        g = sheet.geometry
        for point, (x, y) in dots_read_back(tiled_pdf(paper), index, g, set(sheet.points)).items():
            board[point] = (x - g.centre_x, y - g.centre_y)
    assert set(board) == ALL_POINTS
    assert spacing_of(board) >= wanted - 0.1


@pytest.mark.parametrize("board", ["a4", "letter", "a3", "tiled-a4", "tiled-letter"])
def test_a_counter_hides_no_other_intersections_label(board: str) -> None:
    paper = Paper.from_text(board.removeprefix("tiled-"))
    if board.startswith("tiled"):
        g = tiled_board(LAYOUT, paper)[0].geometry
    else:
        g = single_board(LAYOUT, paper)[1]
    reach = g.largest_counter() / 2
    for point in LAYOUT.board.points:
        left, bottom, right, top = g.label_box(point)
        for other in LAYOUT.board.points:
            if other != point:
                x, y = g.xy(other)
                gap = math.hypot(max(left - x, 0, x - right), max(bottom - y, 0, y - top))
                assert gap > reach, f"a counter on {other.to_text()} hides {point.to_text()}"


def test_the_hub_makes_ring_1_as_roomy_as_a_spoke() -> None:
    # The ruling: ring 1 sits where its neighbours are exactly one ring spacing apart.
    _, g = single_board(LAYOUT, Paper.A4)
    ring_1 = math.dist(g.xy(Point(1, 1)), g.xy(Point(1, 2)))
    assert ring_1 == pytest.approx(g.pitch)
    assert g.neighbour_spacing() == pytest.approx(g.pitch)
    assert g.radii[0] > 2.5 * g.pitch  # the old hub was 2 ring spacings


def test_a_board_short_of_its_promised_spacing_is_an_error() -> None:
    greedy = replace(LAYOUT, min_spacing={**LAYOUT.min_spacing, "letter": 14.0})
    with pytest.raises(LayoutError, match=r"US Letter board.*apart.*min_spacing\.letter"):
        render_board(greedy, Paper.LETTER)
    greedy = replace(LAYOUT, min_spacing={**LAYOUT.min_spacing, "tiled": 19.0})
    with pytest.raises(LayoutError, match=r"two-sheet A4.*min_spacing\.tiled"):
        render_tiled_board(greedy, Paper.A4)


@pytest.mark.parametrize(
    ("section", "field", "value", "message"),
    [
        ("drawing", "label_size", 4.6, r"drawing\.label_size is 4\.6 pt; text is at least 6 pt"),
        ("score_sheet", "rule_width", 0.2, r"score_sheet\.rule_width is 0\.2 mm"),
        ("min_spacing", "a3", None, r"min_spacing must name a3, a4, letter, tiled"),
    ],
)
def test_layout_checks(section: str, field: str, value: float | None, message: str) -> None:
    path, data = read_layout("one", "standard", "ONE")
    changed = {**data, section: dict(data[section])}
    if value is None:
        del changed[section][field]
    else:
        changed[section][field] = value
    with pytest.raises(LayoutError, match=message):
        parse_layout(changed, str(path))
    colours = [list(c) for c in data["counter_sheet"]["colours"]]
    colours[1][1] = colours[0][1]
    doubled = {**data, "counter_sheet": {**data["counter_sheet"], "colours": colours}}
    with pytest.raises(LayoutError, match="two counter colours share a letter"):
        parse_layout(doubled, "x.toml")


def test_orientation_ring_1_innermost_spoke_1_up_clockwise() -> None:
    _, g = single_board(LAYOUT, Paper.A4)
    x, y = g.xy(Point(3, 1))
    assert x == pytest.approx(g.centre_x) and y > g.centre_y
    x, y = g.xy(Point(3, 5))  # a quarter turn clockwise: to the right
    assert x > g.centre_x and y == pytest.approx(g.centre_y)
    distances = [
        abs(complex(*g.xy(Point(r, 7))) - complex(g.centre_x, g.centre_y)) for r in range(1, 7)
    ]
    assert distances == sorted(distances)


def test_spokes_stop_at_ring_1() -> None:
    # No line reaches into the centre: a line through it would join opposite ring-1 points.
    _, g = single_board(LAYOUT, Paper.A4)
    lines = segments(board_pdf(Paper.A4), 0)
    near = [
        s
        for s in lines
        if min(
            abs(complex(s.x1_mm, s.y1_mm) - complex(g.centre_x, g.centre_y)),
            abs(complex(s.x2_mm, s.y2_mm) - complex(g.centre_x, g.centre_y)),
        )
        < g.radii[0] - 0.1
    ]
    assert near == []
    spokes = [s for s in lines if not s.dashed and abs(s.x1_mm - s.x2_mm) + abs(s.y1_mm - s.y2_mm)]
    assert len(spokes) >= LAYOUT.board.spokes


@pytest.mark.parametrize("paper", SINGLE_PAPERS, ids=lambda p: p.value)
def test_spoke_numbers_stand_across_their_spokes_clear_of_the_dots(paper: Paper) -> None:
    _, single = single_board(LAYOUT, paper)
    sheets = tiled_board(LAYOUT, paper) if paper in TILED_PAPERS else ()
    for g in (single, *(s.geometry for s in sheets)):
        for spoke in range(1, LAYOUT.board.spokes + 1):
            x, y = g.number_xy(spoke)
            width, height = g.number_size(spoke)
            a = g.angle(spoke)
            # Turned across the spoke (its baseline square to the spoke), never upside down
            # for a reader at the foot of the page.
            turn = math.radians(g.number_turn(spoke))
            baseline = (math.cos(turn), math.sin(turn))
            assert baseline[0] * math.sin(a) + baseline[1] * math.cos(a) == pytest.approx(0.0)
            assert math.cos(turn) >= -1e-9
            # The box stays outside the outer dot and inside the board's extent.
            dot_x, dot_y = g.xy(Point(LAYOUT.board.rings, spoke))
            inner_edge = math.dist((x, y), (dot_x, dot_y)) - height / 2
            assert inner_edge == pytest.approx(g.drawing.dot_radius + g.drawing.number_gap)
            assert g.number_corner(spoke) <= g.extent + 1e-9
            assert width < 2 * math.pi * g.outer / LAYOUT.board.spokes - 2.0


def test_spoke_numbers_read_back_where_the_geometry_puts_them() -> None:
    page, g = single_board(LAYOUT, Paper.A4)
    runs = {
        r.text.strip(): r
        for r in text_runs(board_pdf(Paper.A4), 0)
        if r.font.endswith("Bold") and r.text.strip().isdigit()
    }
    for spoke in range(1, LAYOUT.board.spokes + 1):
        run = runs[str(spoke)]
        x, y = g.number_xy(spoke)
        width, height = g.number_size(spoke)
        turn = math.radians(g.number_turn(spoke))
        # The run starts at the box's baseline-left corner, turned with the number.
        start_x = x - width / 2 * math.cos(turn) + height / 2 * math.sin(turn)
        start_y = y - width / 2 * math.sin(turn) - height / 2 * math.cos(turn)
        assert (run.x_mm, run.y_mm) == pytest.approx((start_x, start_y), abs=0.05)
        assert run.size == pytest.approx(g.drawing.spoke_number_size)
    assert [s for s in range(1, 17) if spoke_is_dotted(s)] == [6, 9]


# ---------------------------------------------------------------------------------------------
# The two-sheet board


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_the_tiled_board_covers_every_intersection_once(paper: Paper) -> None:
    pdf = tiled_pdf(paper)
    assert page_count(pdf) == 2
    top, bottom = tiled_board(LAYOUT, paper)
    assert set(top.points) | set(bottom.points) == ALL_POINTS
    assert not set(top.points) & set(bottom.points)
    for index, sheet in enumerate((top, bottom)):
        labels = labels_on(pdf, index)
        assert set(labels) == set(sheet.points)
        size = (sheet.page.width_mm, sheet.page.height_mm)
        low, _ = sheet.clip
        for point, (x, baseline, width, points) in labels.items():
            assert points >= 6.0
            assert_inside(x - width / 2, baseline, size)
            assert_inside(x + width / 2, baseline + 2.0, size)
            px, py = sheet.geometry.xy(point)
            assert_inside(px, py, size, room=sheet.geometry.drawing.dot_radius)
            # Sheet 1 shows what lies above its cut, sheet 2 what lies below the join.
            clear = LAYOUT.tiled.join_clearance
            if sheet.number == 1:
                assert py - sheet.geometry.drawing.dot_radius >= low + clear - 1e-6
            else:
                assert py + sheet.geometry.drawing.dot_radius <= sheet.join_y - clear + 1e-6
        assert_dots_drawn(pdf, index, sheet.geometry, set(sheet.points))


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_the_two_sheets_meet_exactly(paper: Paper) -> None:
    top, bottom = tiled_board(LAYOUT, paper)
    # The same board on both sheets, and the join at the same place on it.
    assert top.geometry.radii == bottom.geometry.radii
    assert top.geometry.centre_x == bottom.geometry.centre_x
    assert top.join_y - top.geometry.centre_y == pytest.approx(
        bottom.join_y - bottom.geometry.centre_y
    )
    assert top.tick_xs == bottom.tick_xs
    # The overlap: sheet 2 prints the board above the join, under where sheet 1 will lie.
    assert bottom.clip[1] - bottom.join_y == pytest.approx(LAYOUT.tiled.overlap)
    # Larger than the one-sheet board on the same paper.
    _, single = single_board(LAYOUT, paper)
    assert top.geometry.outer > 1.25 * single.outer
    # The cut line is printed dashed on sheet 1 at the join, the meeting line solid on sheet 2.
    pdf = tiled_pdf(paper)
    cut = [s for s in segments(pdf, 0) if s.dashed and abs(s.y1_mm - top.join_y) < 0.05]
    assert cut and all(abs(s.y2_mm - top.join_y) < 0.05 for s in cut)
    seam = [
        s
        for s in segments(pdf, 1)
        if not s.dashed and abs(s.y1_mm - bottom.join_y) < 0.05 and abs(s.y2_mm - s.y1_mm) < 0.05
    ]
    assert seam and max(s.x2_mm - s.x1_mm for s in seam) > 200
    text = all_text(pdf)
    assert text.count("A") >= 2 and "sheet 1 covers" in text


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_the_alignment_marks_stand_in_the_hub_on_both_sheets(paper: Paper) -> None:
    top, bottom = tiled_board(LAYOUT, paper)
    pdf = tiled_pdf(paper)
    for index, sheet in enumerate((top, bottom)):
        g = sheet.geometry
        vertical = [
            s
            for s in segments(pdf, index)
            if not s.dashed and abs(s.x1_mm - s.x2_mm) < 0.01 and abs(s.y1_mm - s.y2_mm) > 3.0
        ]
        for x in sheet.tick_xs:
            # The marks, not spokes 1 and 9 (also upright, through the centre).
            longest = LAYOUT.tiled.tick_length + LAYOUT.tiled.overlap + 0.01
            marks = [
                s for s in vertical if abs(s.x1_mm - x) < 0.01 and abs(s.y1_mm - s.y2_mm) <= longest
            ]
            assert marks, f"sheet {sheet.number}: no alignment mark at x {x:.1f} mm"
            for s in marks:
                # Every end of every mark inside ring 1, so it crosses no line of the board.
                for end_y in (s.y1_mm, s.y2_mm):
                    assert math.dist((x, end_y), (g.centre_x, g.centre_y)) < g.radii[0] - 3.0
        letters = {r.text.strip() for r in text_runs(pdf, index)}
        assert {"A", "B", "C"} <= letters
    assert top.tick_reach >= 15.0


# ---------------------------------------------------------------------------------------------
# What the boards say


def setup_sentences_in(text: str) -> None:
    flat = " ".join(text.split())
    assert "Setting up." in flat
    for players, stones in LAYOUT.stones_per_player.items():
        assert re.search(rf"\b{stones} (each )?with {players}\b", flat), (players, stones)
    for phrase in ("capture", "jump", "straight beyond", "never diagonally", "last stone"):
        assert phrase in flat, phrase
    assert "largest connected group + 2" in flat


@pytest.mark.parametrize("paper", SINGLE_PAPERS, ids=lambda p: p.value)
def test_the_board_says_how_to_set_up_and_the_counter_size(paper: Paper) -> None:
    pdf = board_pdf(paper)
    _, g = single_board(LAYOUT, paper)
    text = all_text(pdf)
    setup_sentences_in(text)
    assert f"{g.largest_counter()} mm" in text and "the largest counter" in text
    # The rules sit at the foot, under the board and above the bottom margin.
    foot = [r for r in text_runs(pdf, 0) if r.text.strip().startswith("Setting up")]
    assert foot and foot[0].y_mm < g.centre_y - g.extent
    # The counter's circle is drawn that size: dark on its left and right edges.
    image = render_page(pdf, 0, MEASURE_DPI)
    px = MEASURE_DPI / 25.4
    size = next(r for r in text_runs(pdf, 0) if r.text.strip() == f"{g.largest_counter()} mm")
    centre_x = size.x_mm + to_mm(text_width(size.text.strip(), BOLD, size.size)) / 2
    centre_y = size.y_mm + 1.0
    row = round(image.shape[0] - centre_y * px)
    dark = np.flatnonzero(image[row].max(axis=1) < 128) / px
    # Beyond the size written inside, and not as far as the rules' text beside the circle.
    reach = np.abs(dark - centre_x)
    edges = dark[(reach > 4.0) & (reach < g.largest_counter() / 2 + 2.0)]
    assert edges.min() == pytest.approx(centre_x - g.largest_counter() / 2, abs=0.25)
    assert edges.max() == pytest.approx(centre_x + g.largest_counter() / 2, abs=0.25)


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_the_two_sheet_board_says_it_too(paper: Paper) -> None:
    top, bottom = tiled_board(LAYOUT, paper)
    pdf = tiled_pdf(paper)
    second = " ".join(page_text(pdf, 1).split())
    setup_sentences_in(second)
    assert "Sheet 2 of 2" in second and "tape the sheets" in second
    assert f"{bottom.geometry.largest_counter()} mm" in second
    assert bottom.geometry.largest_counter() >= 17


def test_the_rules_on_the_board_match_the_engine_and_the_rules_source() -> None:
    text = plain_text(how_to_play(LAYOUT).replace("<br/>", " "))
    source = " ".join((ROOT / "seeds" / "one.md").read_text(encoding="utf-8").split())
    for players, stones in LAYOUT.stones_per_player.items():
        assert re.search(rf"\b{stones} (stones )?with {players}\b", source)
        assert re.search(rf"\b{stones} (each )?with {players}\b", text)
    # The board's words are the project's own: no six in a row from the rulebook.
    rulebook = sorted(RULEBOOKS.glob(f"{SOURCES['one.md']}*.txt"))
    if not rulebook:
        pytest.skip(f"the ONE rulebook is not in {RULEBOOKS} on this machine")
    theirs = set(runs(words(rulebook[0].read_text(encoding="utf-8"))))
    printed = " ".join(all_text(pdf) for _, pdf in every_sheet())
    ours = runs(words(text + " " + TILING + " " + printed))
    copied = [" ".join(run) for run in ours if run in theirs and not arithmetic(run)]
    assert copied == []


@pytest.mark.parametrize(("name", "pdf"), every_sheet(), ids=[n for n, _ in every_sheet()])
def test_every_one_sheet_has_its_footer_and_no_small_text(name: str, pdf: bytes) -> None:
    for index in range(page_count(pdf)):
        runs = text_runs(pdf, index)
        small = [(r.text.strip(), r.size) for r in runs if r.size < MIN_TEXT_PT - 1e-6]
        assert small == [], f"page {index + 1}: text under 6 pt"
        footers = [r for r in runs if r.text.strip().startswith("ONE \u00b7 ")]
        assert len(footers) == 1, f"page {index + 1}: {len(footers)} footers"
        footer = footers[0]
        assert footer.text.strip().endswith(footer_text("ONE", "x", CREDIT).split(" \u00b7 ")[-1])
        assert footer.size == pytest.approx(FOOTER_SIZE)
        assert footer.y_mm >= SAFE_MARGIN_MM + 0.5  # room for the descenders


def test_the_footers_name_each_sheets_purpose() -> None:
    texts = {name: all_text(pdf) for name, pdf in every_sheet()}
    assert footer_text("ONE", "the board") in texts["board-a4"]
    assert footer_text("ONE", "the board, sheet 1 of 2") in texts["tiled-letter"]
    assert footer_text("ONE", "the board, sheet 2 of 2") in texts["tiled-letter"]
    assert footer_text("ONE", "score sheet") in texts["score-a4"]
    assert footer_text("ONE", "counter sheet") in texts["counters-letter"]


# ---------------------------------------------------------------------------------------------
# The score sheet


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_score_sheet(paper: Paper) -> None:
    pdf = score_pdf(paper)
    text = all_text(pdf)
    for number in range(1, LAYOUT.score_sheet.games + 1):
        assert f"Game {number}" in text
    for title, _ in LAYOUT.score_sheet.columns:
        assert title in text
    assert "2 players 24" in text and "6 players 12" in text
    width, height = paper.size.width_mm, paper.size.height_mm
    for run in text_runs(pdf, 0):
        assert_inside(run.x_mm, run.y_mm, (width, height))


def dark_run_mm(mask: np.ndarray, row: int, col: int, vertical: bool, px: float) -> float:
    """How thick the dark line through (row, col) is, across the line, in mm."""
    line = mask[:, col] if vertical is False else mask[row, :]
    at = row if vertical is False else col
    if not line[at]:
        return 0.0
    low = high = at
    while low > 0 and line[low - 1]:
        low -= 1
    while high < len(line) - 1 and line[high + 1]:
        high += 1
    return (high - low + 1) / px


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_the_score_sheets_lines_survive_a_photocopy(paper: Paper) -> None:
    # A black-and-white copy: the page thresholded at 50 %. Every rule, write-in line and tick
    # box is still there, along its whole length, and at least 0.3 mm thick.
    page, blocks = score_sheet_plan(LAYOUT, paper)
    dpi = 300
    px = dpi / 25.4
    image = render_page(score_pdf(paper), 0, dpi)
    mask = image.max(axis=2) < 128
    height = image.shape[0]

    def row_of(y: float) -> int:
        return int(height - y * px)

    def horizontal(x1: float, x2: float, y: float) -> None:
        samples = np.linspace(x1 + 2.0, x2 - 2.0, 25)
        for x in samples:
            r, c = row_of(y), int(x * px)
            near = max(dark_run_mm(mask, rr, c, False, px) for rr in range(r - 2, r + 3))
            assert near >= 0.3, f"line at y {y:.1f} mm broken or thin at x {x:.1f} mm"

    def vertical(x: float, y1: float, y2: float) -> None:
        for y in np.linspace(y2 + 1.0, y1 - 1.0, 15):
            r, c = row_of(y), int(x * px)
            near = max(dark_run_mm(mask, r, cc, True, px) for cc in range(c - 2, c + 3))
            assert near >= 0.3, f"line at x {x:.1f} mm broken or thin at y {y:.1f} mm"

    for block in blocks:
        for x1, x2, y in block.write_lines:
            horizontal(x1, x2, y)
        for y in block.rule_ys:
            horizontal(block.left, block.right, y)
        for x in block.column_xs:
            vertical(x, block.rule_ys[0], block.rule_ys[-1])
        for x, y, side in block.tick_boxes:
            vertical(x - side / 2, y + side / 2, y - side / 2)
            vertical(x + side / 2, y + side / 2, y - side / 2)
    assert LAYOUT.score_sheet.rule_width >= 0.35


# ---------------------------------------------------------------------------------------------
# The counter sheet


def test_counters_fit_every_board() -> None:
    diameter = counter_diameter(LAYOUT)
    boards = [single_board(LAYOUT, p)[1] for p in SINGLE_PAPERS]
    boards += [tiled_board(LAYOUT, p)[0].geometry for p in TILED_PAPERS]
    assert diameter == min(g.largest_counter() for g in boards)
    assert all(diameter <= g.neighbour_spacing() for g in boards)
    assert diameter >= 12


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_the_counter_sheet_has_every_colour_for_the_most_stones(paper: Paper) -> None:
    plan = plan_counter_sheet(LAYOUT, paper)
    colours = LAYOUT.counter_sheet.colours
    assert len(colours) == 6
    assert plan.per_colour == max(LAYOUT.stones_per_player.values()) == 24
    for colour in colours:
        assert sum(c.colour == colour for c in plan.counters) == 24
    assert len({c.letter for c in colours}) == 6 and len({c.pattern for c in colours}) == 6
    pdf = counters_pdf(paper)
    # Each counter's letter read back at its centre.
    letters = [r for r in text_runs(pdf, 0) if len(r.text.strip()) == 1]
    size = LAYOUT.counter_sheet.letter_size
    for counter in plan.counters:
        width = to_mm(text_width(counter.colour.letter, BOLD, size))
        found = [
            r
            for r in letters
            if r.text.strip() == counter.colour.letter
            and abs(r.x_mm + width / 2 - counter.x) < 0.2
            and abs(r.y_mm - counter.y) < 2.0
        ]
        assert len(found) == 1, f"{counter.colour.name} counter at {counter.x:.1f} mm"
    # Each counter printed in its colour: most of a ring inside its cut line is that colour.
    image = render_page(pdf, 0, MEASURE_DPI).astype(int)
    px = MEASURE_DPI / 25.4
    r = plan.diameter / 2
    for counter in plan.counters:
        want = np.array([round(v * 255) for v in counter.colour.rgb])
        samples = []
        for step in range(36):
            a = step * math.pi / 18
            x = counter.x + 0.8 * r * math.cos(a)
            y = counter.y + 0.8 * r * math.sin(a)
            samples.append(image[int(image.shape[0] - y * px), int(x * px)])
        share = np.mean([np.abs(s - want).max() <= 12 for s in samples])
        assert share >= 0.3, f"{counter.colour.name} counter at ({counter.x:.0f}, {counter.y:.0f})"
        # The cut line: dark all round at the counter's radius.
        for step in range(12):
            a = step * math.pi / 6 + 0.1
            x, y = counter.x + r * math.cos(a), counter.y + r * math.sin(a)
            row, col = int(image.shape[0] - y * px), int(x * px)
            patch = image[row - 1 : row + 2, col - 1 : col + 2]
            assert patch.max(axis=2).min() < 90, f"no cut line round {counter.colour.name}"


@pytest.mark.parametrize("paper", TILED_PAPERS, ids=lambda p: p.value)
def test_counters_sit_apart_inside_the_margins(paper: Paper) -> None:
    plan = plan_counter_sheet(LAYOUT, paper)
    spec = LAYOUT.counter_sheet
    reach = plan.diameter / 2 + spec.bleed
    for counter in plan.counters:
        assert_inside(counter.x, counter.y, (plan.page.width_mm, plan.page.height_mm), reach)
    least = min(
        math.dist((a.x, a.y), (b.x, b.y))
        for i, a in enumerate(plan.counters)
        for b in plan.counters[i + 1 :]
    )
    # White paper between one counter's colour and the next, for the scissors.
    assert least - 2 * reach >= spec.gap - 1e-6


def test_patterns_tell_the_colours_apart_in_grey() -> None:
    # Printed in black and white, each colour's counters still differ: plain is flat grey,
    # the others are patterned, and no two look alike.
    plan = plan_counter_sheet(LAYOUT, Paper.A4)
    image = render_page(counters_pdf(Paper.A4), 0, MEASURE_DPI)
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY).astype(float)
    px = MEASURE_DPI / 25.4
    r = plan.diameter / 2
    signatures = {}
    for colour in LAYOUT.counter_sheet.colours:
        counter = next(c for c in plan.counters if c.colour == colour)
        cx, cy = counter.x * px, grey.shape[0] - counter.y * px
        rows, cols = np.ogrid[: grey.shape[0], : grey.shape[1]]
        distance = np.hypot(cols - cx, rows - cy) / px
        ring = grey[(distance > r * 0.45) & (distance < r * 0.9)]
        signatures[colour.pattern.value] = np.histogram(ring, bins=8, range=(0, 256))[0] / ring.size
    assert signatures["plain"].max() > 0.9
    names = list(signatures)
    for i, a in enumerate(names):
        if a != "plain":
            assert signatures[a].max() < 0.9, f"{a} looks flat"
        for b in names[i + 1 :]:
            assert np.abs(signatures[a] - signatures[b]).sum() > 0.2, f"{a} and {b} look alike"


def test_build_the_counter_sheet_from_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(cli, ["list"])
    assert "one-counters" in listed.output
    for paper in ("a4", "letter"):
        result = runner.invoke(
            cli, ["build", "one-counters", "--paper", paper, "--out", str(tmp_path)]
        )
        assert result.exit_code == 0, result.output
        built = tmp_path / f"one-counters-{paper}.pdf"
        assert built.read_bytes() == counters_pdf(Paper.from_text(paper))
    refused = runner.invoke(cli, ["build", "one-counters", "--paper", "a3", "--out", str(tmp_path)])
    assert refused.exit_code != 0


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER], ids=lambda p: p.value)
@pytest.mark.parametrize("make", [board_pdf, tiled_pdf], ids=["board", "tiled"])
def test_no_ink_within_6_mm_of_the_edge_at_300_dpi(
    make: Callable[[Paper], bytes], paper: Paper
) -> None:
    # The board's ring and the title's round capitals stood on the margin: their stroke and
    # overshoot put ink at 5.8 mm, which 60 dpi could not see.
    pdf = make(paper)
    dpi = 300.0
    edge = int(SAFE_MARGIN_MM / 25.4 * dpi)  # whole pixels lying wholly outside the margin
    for page in range(page_count(pdf)):
        image = render_page(pdf, page, dpi)
        for strip in (image[:edge], image[-edge:], image[:, :edge], image[:, -edge:]):
            assert strip.min() > 245, f"ink within 6 mm of the edge on page {page + 1}"
