"""ONE's printed materials read back: every intersection drawn, labelled and inside the page,
the tiled board's two sheets meeting exactly, and the score sheet's games."""

from __future__ import annotations

import re
from functools import cache

import pytest

from printgen.games.one.engine import Point
from printgen.games.one.layout import load_layout
from printgen.games.one.materials import (
    BoardGeometry,
    render_board,
    render_score_sheet,
    render_tiled_board,
    single_board,
    tiled_board,
)
from printgen.render.fonts import BODY
from printgen.render.readback import all_text, page_count, render_page, segments, text_runs
from printgen.render.text import text_width
from printgen.render.units import SAFE_MARGIN_MM, Paper, to_mm

LAYOUT = load_layout()
ALL_POINTS = set(LAYOUT.board.points)
LABEL = re.compile(r"^(\d+),(\d+)$")
DPI = 60


@cache
def board_pdf(paper: Paper) -> bytes:
    return render_board(LAYOUT, paper)


@cache
def tiled_pdf(paper: Paper) -> bytes:
    return render_tiled_board(LAYOUT, paper)


def labels_on(pdf: bytes, page: int) -> dict[Point, tuple[float, float, float]]:
    """Each intersection label read back: its centre x, baseline y and width, in mm."""
    found: dict[Point, tuple[float, float, float]] = {}
    for run in text_runs(pdf, page):
        match = LABEL.match(run.text.strip())
        if match and run.font.endswith("+DejaVuSans"):
            point = Point(int(match.group(1)), int(match.group(2)))
            assert point not in found, f"{point} labelled twice"
            width = to_mm(text_width(run.text.strip(), BODY, run.size))
            found[point] = (run.x_mm + width / 2, run.y_mm, width)
    return found


def assert_inside(x: float, y: float, page: tuple[float, float], room: float = 0.0) -> None:
    width, height = page
    margin = SAFE_MARGIN_MM + room
    assert margin <= x <= width - margin, f"x {x:.1f} mm is within {margin} mm of an edge"
    assert margin <= y <= height - margin, f"y {y:.1f} mm is within {margin} mm of an edge"


def assert_dots_drawn(pdf: bytes, page: int, g: BoardGeometry, points: set[Point]) -> None:
    """The rendered page is dark at every intersection's place: the dot is really there."""
    image = render_page(pdf, page, DPI)
    height_px = image.shape[0]
    for point in points:
        x, y = g.xy(point)
        col = round(x / 25.4 * DPI)
        row = round(height_px - y / 25.4 * DPI)
        assert image[row, col].max() < 90, f"no dot at {point.to_text()} ({x:.1f}, {y:.1f} mm)"


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER, Paper.A3], ids=lambda p: p.value)
def test_every_intersection_is_labelled_inside_the_page(paper: Paper) -> None:
    pdf = board_pdf(paper)
    page, g = single_board(LAYOUT, paper)
    size = (page.width_mm, page.height_mm)
    labels = labels_on(pdf, 0)
    assert set(labels) == ALL_POINTS
    for point, (x, baseline, width) in labels.items():
        # The label read back is where the geometry puts it, and whole inside the margins.
        expected_x, expected_y = g.label_xy(point)
        assert x == pytest.approx(expected_x, abs=0.2)
        assert baseline == pytest.approx(expected_y, abs=1.5)
        assert_inside(x - width / 2, baseline, size)
        assert_inside(x + width / 2, baseline + 2.0, size)
        assert_inside(*g.xy(point), size, room=g.drawing.dot_radius)
    assert_dots_drawn(pdf, 0, g, ALL_POINTS)


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER, Paper.A3], ids=lambda p: p.value)
def test_the_board_is_as_large_as_the_paper_allows(paper: Paper) -> None:
    page, g = single_board(LAYOUT, paper)
    assert g.centre_x - g.extent == pytest.approx(SAFE_MARGIN_MM)
    assert g.centre_x + g.extent == pytest.approx(page.width_mm - SAFE_MARGIN_MM)
    assert g.centre_y + g.extent <= page.height_mm - SAFE_MARGIN_MM
    # Spoke numbers 1 to 16 all printed round the board.
    numbers = {r.text.strip() for r in text_runs(board_pdf(paper), 0) if r.font.endswith("Bold")}
    assert {str(s) for s in range(1, 17)} <= numbers


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


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER], ids=lambda p: p.value)
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
        low, high = sheet.clip
        for point, (x, baseline, width) in labels.items():
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


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER], ids=lambda p: p.value)
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


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER], ids=lambda p: p.value)
def test_score_sheet(paper: Paper) -> None:
    pdf = render_score_sheet(LAYOUT, paper)
    text = all_text(pdf)
    for number in range(1, LAYOUT.score_sheet.games + 1):
        assert f"Game {number}" in text
    for title, _ in LAYOUT.score_sheet.columns:
        assert title in text
    assert "2 players 24" in text and "6 players 12" in text
    width, height = paper.size.width_mm, paper.size.height_mm
    for run in text_runs(pdf, 0):
        assert_inside(run.x_mm, run.y_mm, (width, height))


@pytest.mark.parametrize("paper", [Paper.A4, Paper.LETTER, Paper.A3], ids=lambda p: p.value)
def test_spoke_numbers_stay_clear_of_the_outer_dots_and_inside_the_band(paper: Paper) -> None:
    _, single = single_board(LAYOUT, paper)
    sheets = tiled_board(LAYOUT, paper) if paper is not Paper.A3 else ()
    for g in (single, *(s.geometry for s in sheets)):
        size = g.drawing.spoke_number_size
        for spoke in range(1, LAYOUT.board.spokes + 1):
            x, y = g.number_xy(spoke)
            half_w = to_mm(text_width(str(spoke), "PG-Sans-Bold", size)) / 2
            half_h = size * 0.73 * 25.4 / 72 / 2
            dot_x, dot_y = g.xy(Point(LAYOUT.board.rings, spoke))
            # The gap between the number's box and the dot's circle.
            dx = max(abs(x - dot_x) - half_w, 0.0)
            dy = max(abs(y - dot_y) - half_h, 0.0)
            assert (dx * dx + dy * dy) ** 0.5 > g.drawing.dot_radius + 0.5
            corner = max(
                abs(complex(x + sx * half_w, y + sy * half_h) - complex(g.centre_x, g.centre_y))
                for sx in (-1, 1)
                for sy in (-1, 1)
            )
            assert corner <= g.extent
