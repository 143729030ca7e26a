"""The One Page War sheet geometry: one source for drawing, `printgen layout --json` and the
photo reader. These tests check the geometry itself; test_one_page_war_sheets.py checks that the
PDF is drawn exactly where it says."""

from __future__ import annotations

import copy
import itertools
import json

import pytest

from printgen.cli import cli
from printgen.errors import LayoutError
from printgen.games.one_page_war.geometry import (
    MIN_SQUARE_MM,
    MIN_TICK_MM,
    WRITING_KINDS,
    Kind,
    SheetGeometry,
    SheetParams,
    SheetTag,
    Side,
    layout_json,
    sheet_geometry,
    sheet_id,
)
from printgen.games.one_page_war.layout import ArenaSpec, Layout, load_layout
from printgen.render.units import SAFE_MARGIN_MM, Paper

PAPERS = (Paper.A4, Paper.LETTER)


@pytest.fixture(params=PAPERS, ids=lambda p: p.value)
def geometry(request: pytest.FixtureRequest) -> SheetGeometry:
    return sheet_geometry("standard", request.param)


def test_page_is_landscape_and_exact(geometry: SheetGeometry) -> None:
    portrait = geometry.paper.size
    assert (geometry.width, geometry.height) == (portrait.height_mm, portrait.width_mm)


def test_no_two_elements_overlap(geometry: SheetGeometry) -> None:
    for a, b in itertools.combinations(geometry.elements, 2):
        assert not a.rect.overlaps(b.rect), f"{a} overlaps {b}"


def test_arena_frames_do_not_overlap_and_hold_their_arena(geometry: SheetGeometry) -> None:
    frames = [rect for _, rect in geometry.frames]
    for a, b in itertools.combinations(frames, 2):
        assert not a.overlaps(b)
    for element in geometry.elements:
        if element.arena is None:
            continue
        frame = geometry.arena_frame(element.arena)
        r = element.rect
        assert frame.x <= r.x and r.right <= frame.right and frame.y <= r.y
        assert r.bottom <= frame.bottom
        for name, other in geometry.frames:
            if name != element.arena:
                assert not r.overlaps(other)


def test_everything_at_least_6_mm_inside_the_page(geometry: SheetGeometry) -> None:
    boxes = [e.rect for e in geometry.elements] + [rect for _, rect in geometry.frames]
    for r in boxes:
        assert r.x >= SAFE_MARGIN_MM and r.y >= SAFE_MARGIN_MM
        assert geometry.width - r.right >= SAFE_MARGIN_MM
        assert geometry.height - r.bottom >= SAFE_MARGIN_MM


def test_minimum_sizes(geometry: SheetGeometry) -> None:
    for square in geometry.select(Kind.SQUARE):
        assert square.w >= MIN_SQUARE_MM and square.h >= MIN_SQUARE_MM
    for tick in geometry.select(Kind.TICK):
        assert tick.w >= MIN_TICK_MM and tick.h >= MIN_TICK_MM


def test_counts_follow_the_layout(geometry: SheetGeometry) -> None:
    layout = load_layout("standard")
    for arena in layout.arenas:
        for side in Side:
            squares = geometry.select(Kind.SQUARE, arena.name, side)
            ticks = geometry.select(Kind.TICK, arena.name, side)
            assert sorted(e.index for e in squares) == list(range(arena.squares))
            assert sorted(e.index for e in ticks) == list(range(arena.ticks))
            assert len(geometry.select(Kind.LABEL, arena.name, side)) == 1
        assert len(geometry.select(Kind.ALLIES, arena.name)) == 1
    for kind in (Kind.DICE, Kind.NAME, Kind.POWERS, Kind.SHEET_LABEL, Kind.TITLE):
        assert {e.side for e in geometry.select(kind)} == {Side.FIRST, Side.SECOND}
    assert [e.side for e in geometry.select(Kind.FOOTER)] == [Side.FIRST]
    assert sorted(e.index for e in geometry.select(Kind.MARKER)) == [0, 1, 2, 3]
    assert len(geometry.select(Kind.QR)) == 1


def test_arenas_left_to_right_as_the_first_player_sees_them(geometry: SheetGeometry) -> None:
    names = load_layout("standard").arena_names
    xs = [geometry.arena_frame(name).x for name in names]
    assert xs == sorted(xs)


def test_each_half_faces_its_player(geometry: SheetGeometry) -> None:
    middle = geometry.height / 2
    for element in geometry.elements:
        top, bottom = element.y, element.y + element.h
        if element.side is Side.FIRST:
            assert top >= middle
        elif element.side is Side.SECOND:
            assert bottom <= middle


def test_the_far_half_is_the_near_half_turned_about_its_arena(geometry: SheetGeometry) -> None:
    # Turned 180 degrees, the far player sees exactly what the near player sees.
    for near in geometry.elements:
        if near.side is not Side.FIRST or near.arena is None:
            continue
        far = geometry.find(near.kind, near.arena, Side.SECOND, near.index)
        cx = geometry.arena_frame(near.arena).centre[0]
        assert far.x == pytest.approx(2 * cx - near.x - near.w)
        assert far.y == pytest.approx(geometry.height - near.y - near.h)


def test_the_far_strip_is_the_near_one_turned_about_the_page_centre(
    geometry: SheetGeometry,
) -> None:
    # Each player sees the same strip along their edge: name line, title, dice space.
    for kind in (Kind.NAME, Kind.TITLE, Kind.DICE):
        near = geometry.find(kind, side=Side.FIRST)
        far = geometry.find(kind, side=Side.SECOND)
        assert far.rect == near.rect.rotated_about(geometry.width / 2, geometry.height / 2)


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_version_1_keeps_its_own_geometry(paper: Paper) -> None:
    # Version 1 turned the far strip about the arenas' centre; everything a photo is read by
    # (markers, QR code, squares, tick boxes, S spaces) stands where it did.
    first, current = sheet_geometry("standard", paper, 1), sheet_geometry("standard", paper)
    assert first.layout_version == 1 and current.layout_version == load_layout().version
    read_by_the_reader = (Kind.MARKER, Kind.QR, Kind.SQUARE, Kind.TICK, Kind.ALLIES)
    for kind in read_by_the_reader:
        assert first.select(kind) == current.select(kind)
    frames = dict(first.frames)
    play_cx = (frames["Land"].x + frames["Espionage"].right) / 2
    for kind in (Kind.NAME, Kind.DICE):
        near = first.find(kind, side=Side.FIRST)
        assert first.find(kind, side=Side.SECOND).rect == near.rect.rotated_about(
            play_cx, first.height / 2
        )
    assert first.find(Kind.NAME, side=Side.SECOND) != current.find(Kind.NAME, side=Side.SECOND)
    for a, b in itertools.combinations(first.elements, 2):
        assert not a.rect.overlaps(b.rect), f"{a} overlaps {b}"
    assert sheet_geometry("standard", paper, 1) is first  # cached per version


def test_squares_are_numbered_in_their_players_reading_order(geometry: SheetGeometry) -> None:
    for arena in load_layout("standard").arenas:
        near = geometry.select(Kind.SQUARE, arena.name, Side.FIRST)
        # The near player reads from the middle of the sheet down towards their edge.
        keys = [(round(e.y, 6), round(e.x, 6)) for e in sorted(near, key=lambda e: e.index)]
        assert keys == sorted(keys)
        far = geometry.select(Kind.SQUARE, arena.name, Side.SECOND)
        keys = [(-round(e.y, 6), -round(e.x, 6)) for e in sorted(far, key=lambda e: e.index)]
        assert keys == sorted(keys)


def test_allies_space_in_the_middle_of_each_arena(geometry: SheetGeometry) -> None:
    for name, frame in geometry.frames:
        allies = geometry.find(Kind.ALLIES, name)
        assert allies.centre == pytest.approx(frame.centre)
        assert allies.side is None


def test_markers_in_the_corners_and_qr_clear_of_writing(geometry: SheetGeometry) -> None:
    params = SheetParams.from_layout(load_layout("standard"))
    corners = {
        0: (0.0, 0.0),
        1: (geometry.width, 0.0),
        2: (geometry.width, geometry.height),
        3: (0.0, geometry.height),
    }
    for marker in geometry.select(Kind.MARKER):
        cx, cy = corners[marker.index]
        mx, my = marker.centre
        assert abs(mx - cx) < 20 and abs(my - cy) < 20
    aids = geometry.select(Kind.MARKER) + geometry.select(Kind.QR)
    writing = [e for e in geometry.elements if e.kind in WRITING_KINDS]
    for aid in aids:
        for spot in writing:
            assert not aid.rect.overlaps(spot.rect, params.marker_clearance), (aid, spot)
        for other in geometry.elements:
            if other is not aid:
                assert not aid.rect.overlaps(other.rect, params.marker_clearance), (aid, other)


def test_json_is_the_geometry(geometry: SheetGeometry) -> None:
    data = layout_json("standard", geometry.paper)
    assert data["game"] == "one-page-war" and data["layout"] == "standard"
    assert data["paper"] == geometry.paper.value
    assert data["page"] == {"width": geometry.width, "height": geometry.height}
    assert len(data["elements"]) == len(geometry.elements)
    for item, element in zip(data["elements"], geometry.elements, strict=True):
        assert item["kind"] == element.kind.value
        assert item["arena"] == element.arena
        assert item["side"] == (element.side.value if element.side else None)
        assert item["index"] == element.index
        for key in "xywh":
            assert item[key] == pytest.approx(getattr(element, key), abs=0.001)
    assert [a["name"] for a in data["arenas"]] == list(load_layout("standard").arena_names)


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_layout_command_prints_the_json(runner, paper: Paper) -> None:
    result = runner.invoke(
        cli, ["layout", "one-page-war", "--layout", "standard", "--paper", paper.value, "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == layout_json("standard", paper)


def test_layout_command_unknown_layout(runner) -> None:
    result = runner.invoke(cli, ["layout", "one-page-war", "--layout", "huge", "--json"])
    assert result.exit_code == 1
    assert "unknown One Page War layout 'huge'" in result.output
    assert "standard" in result.output


def _variant(changes: dict, arenas: tuple[ArenaSpec, ...] | None = None) -> Layout:
    base = load_layout("standard")
    raw = copy.deepcopy(base.raw)
    raw["sheet"].update(changes)
    return Layout("variant", base.version, arenas or base.arenas, base.lines, raw)


def test_sizes_under_the_minimum_are_refused() -> None:
    with pytest.raises(LayoutError, match="square 12.0 mm is under 13.0 mm"):
        sheet_geometry(_variant({"square": 12.0}), Paper.A4)
    with pytest.raises(LayoutError, match="tick 4.0 mm is under 5.0 mm"):
        sheet_geometry(_variant({"tick": 4.0}), Paper.A4)
    with pytest.raises(LayoutError, match="`qr` must be a positive number"):
        sheet_geometry(_variant({"qr": "big"}), Paper.A4)
    with pytest.raises(LayoutError, match=r"`far_strip` must be one of \['page', 'arenas'\]"):
        sheet_geometry(_variant({"far_strip": "sideways"}), Paper.A4)
    with pytest.raises(LayoutError, match="the name line, the title and the dice space do not"):
        sheet_geometry(_variant({"name_width": 120.0}), Paper.A4)


def test_a_layout_too_wide_for_the_page_is_refused() -> None:
    arenas = load_layout("standard").arenas + (ArenaSpec("Space", 3, 2, "Air raid"),) * 2
    with pytest.raises(LayoutError, match="powers column"):
        sheet_geometry(_variant({}, arenas), Paper.LETTER)


def test_a_layout_in_memory_is_placed_from_its_own_data() -> None:
    wider = sheet_geometry(_variant({"square": 15.0}), Paper.LETTER)
    assert {e.w for e in wider.select(Kind.SQUARE)} == {15.0}
    assert {e.w for e in sheet_geometry("standard", Paper.A4).select(Kind.SQUARE)} == {14.0}


def test_only_a4_and_letter() -> None:
    with pytest.raises(LayoutError, match="A4 or Letter"):
        sheet_geometry("standard", Paper.A3)


def test_sheet_tag_round_trips_in_capitals() -> None:
    tag = SheetTag("standard", 1, Paper.LETTER, "T-12AB-0003")
    text = tag.to_text()
    assert text == "ONE-PAGE-WAR/STANDARD/1/LETTER/T-12AB-0003"
    assert SheetTag.from_text(text) == tag
    assert SheetTag.from_text(text.lower()) == tag
    assert tag.mode == "team"
    assert eval(repr(tag)) == tag


@pytest.mark.parametrize(
    "text, message",
    [
        ("WAR/STANDARD/1/A4/D-0000-0001", "not a One Page War sheet"),
        ("ONE-PAGE-WAR/STANDARD/X/A4/D-0000-0001", "version 'X' is not a number"),
        ("ONE-PAGE-WAR/STANDARD/1/B5/D-0000-0001", "unknown paper 'B5'"),
        ("hello", "not a One Page War sheet"),
    ],
)
def test_sheet_tag_refuses_other_codes(text: str, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        SheetTag.from_text(text)


def test_sheet_ids_are_deterministic_and_distinct() -> None:
    ids = [sheet_id("duel", "standard", Paper.A4, k) for k in range(1, 50)]
    assert ids == [sheet_id("duel", "standard", Paper.A4, k) for k in range(1, 50)]
    assert len(set(ids)) == len(ids)
    assert sheet_id("solo", "standard", Paper.A4, 1) != sheet_id("duel", "standard", Paper.A4, 1)
    assert sheet_id("duel", "standard", Paper.A4, 1, seed="x") != ids[0]
    assert ids[0].startswith("D-") and ids[0].endswith("-0001")
    with pytest.raises(LayoutError, match="unknown sheet mode"):
        sheet_id("trio", "standard", Paper.A4, 1)
