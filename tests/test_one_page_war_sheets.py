"""The printed One Page War sheets, read back from the PDF and from pypdfium2 renders: the
markers and the QR code a camera needs, every square where the geometry says, the far half
upside down, the words from the rules-text source, batches, the team pack and bad input."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from printgen.cli import cli
from printgen.errors import FitError, InputError, LayoutError
from printgen.games.one_page_war.geometry import (
    Kind,
    Rect,
    SheetGeometry,
    SheetTag,
    Side,
    sheet_geometry,
)
from printgen.games.one_page_war.layout import LineStyle, layout_versions, load_layout
from printgen.games.one_page_war.sheets import (
    ARENA,
    POWER,
    REMINDER,
    TALLY_TOTALS,
    TITLE,
    _fit,
    build_duel,
    build_solo,
    build_team,
)
from printgen.games.one_page_war.texts import SOURCE, _texts, sheet_texts
from printgen.materials import BuildOptions
from printgen.render import readback
from printgen.render.marks import footer_text
from printgen.render.units import SAFE_MARGIN_MM, Paper, mm
from printgen.rules_text import load_rules

PAPERS = (Paper.A4, Paper.LETTER)
BUILDERS: dict[str, Callable[..., bytes]] = {
    "duel": build_duel,
    "solo": build_solo,
    "team": build_team,
}
_CACHE: dict[tuple[str, Paper], bytes] = {}


def built(mode: str, paper: Paper) -> bytes:
    if (mode, paper) not in _CACHE:
        _CACHE[(mode, paper)] = BUILDERS[mode](BuildOptions(paper=paper))
    return _CACHE[(mode, paper)]


def gray(pdf: bytes, page: int, dpi: float) -> np.ndarray:
    return cv2.cvtColor(readback.render_page(pdf, page, dpi), cv2.COLOR_RGB2GRAY)


def px(value_mm: float, dpi: float) -> float:
    return value_mm * dpi / 25.4


def qr_text(pdf: bytes, page: int, paper: Paper = Paper.A4) -> str:
    """The page's QR code, read as the photo reader does: from around where the geometry puts
    it (OpenCV's whole-page search misses about one clean render in twenty, at any version)."""
    dpi = 120.0
    qr = sheet_geometry("standard", paper).find(Kind.QR).rect
    image = gray(pdf, page, dpi)
    x0, y0 = int(px(qr.x - 4, dpi)), int(px(qr.y - 4, dpi))
    x1, y1 = int(px(qr.right + 4, dpi)), int(px(qr.bottom + 4, dpi))
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        text = detector.detectAndDecode(image[y0:y1, x0:x1])[0]
        if text:
            return str(text)
    raise AssertionError(f"no QR code read on page {page + 1}")


CASES = [(mode, paper) for mode in BUILDERS for paper in PAPERS]
CASE_IDS = [f"{mode}-{paper.value}" for mode, paper in CASES]


# --- Reading aids: what the photo reader starts from ----------------------------------------


@pytest.mark.parametrize("mode, paper", CASES, ids=CASE_IDS)
def test_opencv_finds_the_four_markers_where_the_geometry_says(mode: str, paper: Paper) -> None:
    dpi = 100.0
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    corners, ids, _ = detector.detectMarkers(gray(built(mode, paper), 0, dpi))
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    geometry = sheet_geometry("standard", paper)
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        marker = geometry.find(Kind.MARKER, index=int(marker_id))
        top_left = quad[0].min(axis=0)
        bottom_right = quad[0].max(axis=0)
        # Within half a millimetre: pixel centres and anti-aliasing, not a misplaced marker.
        assert top_left == pytest.approx([px(marker.x, dpi), px(marker.y, dpi)], abs=px(0.5, dpi))
        assert bottom_right == pytest.approx(
            [px(marker.x + marker.w, dpi), px(marker.y + marker.h, dpi)], abs=px(0.5, dpi)
        )


@pytest.mark.parametrize("mode, paper", CASES, ids=CASE_IDS)
def test_the_qr_code_decodes_to_the_layout_and_sheet(mode: str, paper: Paper) -> None:
    dpi = 110.0
    image = gray(built(mode, paper), 0, dpi)
    text, points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    tag = SheetTag.from_text(text)
    current = load_layout("standard").version
    assert (tag.layout, tag.version, tag.paper, tag.mode) == ("standard", current, paper, mode)
    assert current >= 2  # version 2: write-in lines that survive a photocopy
    assert tag.sheet_id.endswith("-0001")
    qr = sheet_geometry("standard", paper).find(Kind.QR).rect
    centre = points[0].mean(axis=0)
    assert centre == pytest.approx([px(qr.centre[0], dpi), px(qr.centre[1], dpi)], abs=px(1, dpi))
    # The id printed beside the code is the one in it.
    assert tag.sheet_id in readback.page_text(built(mode, paper))


def test_team_pack_sheets_each_carry_their_own_id() -> None:
    pairs = 3
    pdf = build_team(BuildOptions(paper=Paper.LETTER, pairs=pairs))
    assert readback.page_count(pdf) == pairs + 1
    ids = []
    for k in range(pairs):
        tag = SheetTag.from_text(qr_text(pdf, k, Paper.LETTER))
        assert tag.mode == "team"
        ids.append(tag.sheet_id)
        page = readback.page_text(pdf, k)
        assert f"sheet {k + 1} of {pairs}" in page
        assert tag.sheet_id in page
    assert len(set(ids)) == pairs
    tally = readback.page_text(pdf, pairs)
    assert "team tally" in tally and all(label in tally for label in TALLY_TOTALS)
    for k, ident in enumerate(ids, start=1):
        assert f"{k} of {pairs}" in tally and ident in tally
    # The team rules and the tiebreak are printed on it, in the source's own words.
    texts = sheet_texts("standard")
    assert texts.team_play and texts.team_result
    for markup in texts.team_play + texts.team_result:
        assert _words(markup) in _words(tally)


# --- Drawn exactly where the geometry (and so the JSON) says --------------------------------


def _outlines(image: np.ndarray, dpi: float, size_mm: float) -> list[Rect]:
    """Boxes (in mm) of the drawn square outlines about `size_mm` on a side."""
    ink = (image < 200).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if abs(w - px(size_mm, dpi)) < px(0.8, dpi) and abs(h - px(size_mm, dpi)) < px(0.8, dpi):
            scale = 25.4 / dpi
            found.append(Rect(x * scale, y * scale, w * scale, h * scale))
    return found


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_squares_and_tick_boxes_are_drawn_at_the_json_positions(paper: Paper) -> None:
    dpi = 150.0
    pdf = built("duel", paper)
    image = gray(pdf, 0, dpi)
    geometry = sheet_geometry("standard", paper)
    for kind in (Kind.SQUARE, Kind.TICK):
        elements = geometry.select(kind)
        drawn = _outlines(image, dpi, elements[0].w)
        # Each outline gives an outer and an inner contour: both hug the element's box.
        for element in elements:
            near = [
                r
                for r in drawn
                if abs(r.centre[0] - element.centre[0]) < 0.3
                and abs(r.centre[1] - element.centre[1]) < 0.3
            ]
            assert near, f"nothing drawn at {element}"
        # And nothing of that size is drawn where the geometry has no element (the QR code's
        # and the markers' own squares aside).
        aids = [e.rect for e in geometry.elements if e.kind in (Kind.QR, Kind.MARKER)]
        for r in drawn:
            if any(r.overlaps(aid) for aid in aids):
                continue
            assert any(
                abs(r.centre[0] - e.centre[0]) < 0.3 and abs(r.centre[1] - e.centre[1]) < 0.3
                for e in elements
            ), f"an outline at {r} that the geometry does not have"


def test_square_edges_read_back_from_the_pdf_line_work() -> None:
    # The squares are stroked as straight lines inside the sheet's shared PDF form, which
    # readback.segments follows into.
    pdf = built("duel", Paper.A4)
    geometry = sheet_geometry("standard", Paper.A4)
    corners = set()
    for s in readback.segments(pdf):
        for x, y in ((s.x1_mm, s.y1_mm), (s.x2_mm, s.y2_mm)):
            corners.add((round(x, 2), round(geometry.height - y, 2)))
    for element in geometry.select(Kind.SQUARE) + geometry.select(Kind.TICK):
        for cx in (element.x, element.x + element.w):
            for cy in (element.y, element.y + element.h):
                assert (round(cx, 2), round(cy, 2)) in corners, (element, cx, cy)


@pytest.mark.parametrize("mode, paper", CASES, ids=CASE_IDS)
def test_nothing_printed_within_6_mm_of_the_edges(mode: str, paper: Paper) -> None:
    dpi = 60.0
    pdf = built(mode, paper)
    width, height = readback.page_size_mm(pdf)
    assert (width, height) == pytest.approx((paper.size.height_mm, paper.size.width_mm), abs=0.01)
    edge = int(px(SAFE_MARGIN_MM, dpi)) - 1
    for page in range(readback.page_count(pdf)):
        image = gray(pdf, page, dpi)
        border = np.concatenate(
            [
                image[:edge].ravel(),
                image[-edge:].ravel(),
                image[:, :edge].ravel(),
                image[:, -edge:].ravel(),
            ]
        )
        assert border.min() > 245, f"ink within 6 mm of the edge on page {page + 1}"


# --- Text: both halves, the far one upside down, words from the source ----------------------


def _words(text: str) -> str:
    return re.sub(r"<[^>]+>", "", re.sub(r"\s+", " ", text)).replace("&amp;", "&").strip()


def _inside(run: readback.TextRun, rect: Rect, height: float) -> bool:
    y = height - run.y_mm  # the run's baseline origin, in the geometry's top-down mm
    return rect.x - 0.5 <= run.x_mm <= rect.right + 0.5 and rect.y - 0.5 <= y <= rect.bottom + 0.5


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_both_halves_carry_the_arena_names_and_the_far_half_is_upside_down(paper: Paper) -> None:
    pdf = built("duel", paper)
    geometry = sheet_geometry("standard", paper)
    runs = readback.text_runs(pdf)
    middle = geometry.height / 2
    for arena in geometry.arenas:
        named = [r for r in runs if r.text.strip() == arena.name.upper()]
        near = [r for r in named if r.y_mm < middle]
        far = [r for r in named if r.y_mm > middle]
        assert len(near) == 1 and len(far) == 1
        assert not near[0].upside_down and far[0].upside_down
        assert _inside(
            far[0], geometry.find(Kind.LABEL, arena.name, Side.SECOND).rect, geometry.height
        )
    # Every piece of text on the far half faces the far player, every one on the near half
    # the near player.
    for run in runs:
        assert run.upside_down == (run.y_mm > middle), run


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_solo_sheet_labels_the_ai_and_reminds_its_rules_facing_the_human(paper: Paper) -> None:
    pdf = built("solo", paper)
    geometry = sheet_geometry("standard", paper)
    runs = readback.text_runs(pdf)
    # Everything about the AI is read by the human alone; only the AI's arena labels face the
    # far edge, as its squares do.
    about_the_ai = [
        geometry.find(kind, side=Side.SECOND).rect
        for kind in (Kind.POWERS, Kind.NAME, Kind.DICE, Kind.TITLE, Kind.SHEET_LABEL)
    ]
    middle = geometry.height / 2
    upright = []
    for run in runs:
        if any(_inside(run, box, geometry.height) for box in about_the_ai):
            assert not run.upside_down, run
            upright.append(run.text.strip())
        else:
            assert run.upside_down == (run.y_mm > middle), run
    assert {"AI (you play its turns)", "AI: die + 1", "The AI's side"} <= set(upright)
    text = _words(readback.page_text(pdf))
    for markup in sheet_texts("standard").ai_turn:
        assert _words(markup) in text


@pytest.mark.parametrize("mode", ["duel", "team"])
def test_powers_explained_in_full_from_the_rules_source(mode: str) -> None:
    text = _words(readback.page_text(built(mode, Paper.LETTER)))
    texts = sheet_texts("standard")
    for power in texts.powers:
        # Twice: once for each player's reading direction.
        assert text.count(_words(power.explanation)) == 2, power.name
        assert text.count(power.reminder) == 2
    for markup in texts.using_powers:
        assert text.count(_words(markup)) == 2


def test_every_power_needs_its_text_in_the_source(tmp_path: Path) -> None:
    source = SOURCE.read_text(encoding="utf-8")
    broken = tmp_path / "one-page-war.md"
    line = "- **Air raid:** a number becomes the die\n"
    assert line in source
    broken.write_text(source.replace(line, ""))
    with pytest.raises(
        LayoutError, match="'Power reminders' has no bullet for the power 'Air raid'"
    ):
        _texts("standard", broken)


def test_text_too_long_for_the_powers_column_is_a_fit_error() -> None:
    with pytest.raises(FitError, match="shorten it"):
        _fit([[("word " * 2000, False)]], mm(60), mm(60), "the powers column")


# --- Batches, reproducibility, bad input ----------------------------------------------------


def test_copies_each_with_its_own_id_and_progress() -> None:
    seen: list[tuple[int, int]] = []
    pdf = build_duel(BuildOptions(copies=3), lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert readback.page_count(pdf) == 3
    ids = [SheetTag.from_text(qr_text(pdf, k)).sheet_id for k in range(3)]
    assert [i[-4:] for i in ids] == ["0001", "0002", "0003"]
    assert len(set(ids)) == 3
    # The shared part of the sheet is drawn once and placed on every page.
    assert pdf.count(b"/Subtype /Form") == 1


def test_a_named_batch_gets_ids_of_its_own(runner, tmp_path) -> None:  # type: ignore[no-untyped-def]
    def first_id(pdf: bytes) -> str:
        return SheetTag.from_text(qr_text(pdf, 0)).sheet_id

    plain = build_duel(BuildOptions())
    club = build_duel(BuildOptions(batch="club-night-2026-11-29"))
    assert first_id(plain) != first_id(club)
    assert first_id(club) == first_id(build_duel(BuildOptions(batch="club-night-2026-11-29")))
    assert first_id(club).endswith("-0001")
    team = build_team(BuildOptions(batch="finals"))
    assert first_id(team) != first_id(build_team(BuildOptions()))
    result = runner.invoke(
        cli, ["build", "one-page-war", "--batch", "finals", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    refused = runner.invoke(cli, ["build", "war-card", "--batch", "x", "--out", str(tmp_path)])
    assert refused.exit_code == 2 and "--batch" in refused.output  # a usage error


def test_same_inputs_same_bytes() -> None:
    options = BuildOptions(paper=Paper.LETTER, copies=2)
    assert build_solo(options) == build_solo(options)


@pytest.mark.parametrize(
    "builder, options, error, message",
    [
        (build_duel, BuildOptions(copies=0), InputError, "--copies must be a whole number from 1"),
        (build_solo, BuildOptions(copies=-3), InputError, "not -3"),
        (
            build_team,
            BuildOptions(pairs=1),
            InputError,
            "not 1: a team game needs at least two pairs",
        ),
        (
            build_team,
            BuildOptions(pairs=7),
            InputError,
            "not 7: a team pack holds at most 6 pairs (12 players)",
        ),
        (build_duel, BuildOptions(layout="huge"), LayoutError, "unknown One Page War layout"),
    ],
)
def test_bad_input_is_a_clear_error(builder, options, error, message) -> None:
    with pytest.raises(error, match=re.escape(message)):
        builder(options)


@pytest.mark.parametrize(
    "args, message, code",
    [
        (["one-page-war", "--copies", "0"], "--copies must be a whole number from 1", 1),
        (["one-page-war-team", "--pairs", "1"], "--pairs must be from 2 to 6, not 1", 1),
        (["one-page-war", "--layout", "huge"], "unknown One Page War layout 'huge'", 1),
        (["one-page-war-solo", "--pairs", "3"], "does not take --pairs", 2),  # usage
    ],
)
def test_cli_bad_input(runner, tmp_path: Path, args: list[str], message: str, code: int) -> None:
    result = runner.invoke(cli, ["build", *args, "--out", str(tmp_path)])
    assert result.exit_code == code
    assert message in result.output
    assert not list(tmp_path.iterdir())


def test_cli_builds_a_batch(runner, tmp_path: Path) -> None:
    result = runner.invoke(
        cli, ["build", "one-page-war", "--copies", "2", "--paper", "letter", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    pdf = (tmp_path / "one-page-war-letter.pdf").read_bytes()
    assert readback.page_count(pdf) == 2
    assert all(readback.embedded_fonts(pdf).values())


def test_geometry_object_is_shared(geometry_pair=("standard", Paper.A4)) -> None:
    # Drawing and the JSON use the same cached object: one source, not two computations.
    first: SheetGeometry = sheet_geometry(*geometry_pair)
    assert sheet_geometry(*geometry_pair) is first


def test_team_pack_copies_repeat_the_pack_with_new_ids() -> None:
    pdf = build_team(BuildOptions(pairs=2, copies=2))
    assert readback.page_count(pdf) == 6  # two sheets and a tally, twice
    tallies = [readback.page_text(pdf, k) for k in (2, 5)]
    assert all("team tally" in t for t in tallies)
    ids = [set(re.findall(r"T-[0-9A-F]{4}-\d{4}", t)) for t in tallies]
    assert len(ids[0]) == len(ids[1]) == 2 and not ids[0] & ids[1]


def test_rules_source_parses_and_names_every_power() -> None:
    rules = load_rules(SOURCE)
    assert rules.title == "One Page War"
    texts = sheet_texts("standard")
    assert [p.name for p in texts.powers] == [a.power for a in load_layout("standard").arenas]
    assert all(p.reminder and p.explanation for p in texts.powers)


# --- Layout versions: write-in lines that survive a photocopy; version 1 still drawn and read --


def _edge_coverage(binary: np.ndarray, rect: Rect, dpi: float) -> float:
    """The share of an element's outline still dark after thresholding: points along each edge
    (corners aside), each dark when a black pixel lies within 0.3 mm across the edge."""
    k = dpi / 25.4
    reach = max(1, int(round(0.3 * k)))
    hits = total = 0
    for horizontal, fixed in (
        (True, rect.y),
        (True, rect.bottom),
        (False, rect.x),
        (False, rect.right),
    ):
        start, end = (rect.x, rect.right) if horizontal else (rect.y, rect.bottom)
        across = int(round(fixed * k))
        for along in range(int((start + 0.6) * k), int((end - 0.6) * k)):
            window = (
                binary[across - reach : across + reach + 1, along]
                if horizontal
                else binary[along, across - reach : across + reach + 1]
            )
            hits += bool(window.any())
            total += 1
    return hits / total


def _thresholded(pdf: bytes, page: int, dpi: float) -> np.ndarray:
    """Black where a copier in text mode (or a black-and-white scan at 50 %) prints black."""
    return gray(pdf, page, dpi) < 128


@pytest.mark.parametrize("mode, paper", CASES, ids=CASE_IDS)
def test_every_square_and_tick_box_survives_a_50_percent_threshold(mode: str, paper: Paper) -> None:
    dpi = 150.0
    pdf = built(mode, paper)
    geometry = sheet_geometry("standard", paper)
    binary = _thresholded(pdf, 0, dpi)
    for element in geometry.select(Kind.SQUARE) + geometry.select(Kind.TICK):
        coverage = _edge_coverage(binary, element.rect, dpi)
        assert coverage == 1.0, f"{element}: only {coverage:.0%} of its outline left at 50 %"


def test_version_1_write_in_lines_vanish_at_a_50_percent_threshold() -> None:
    # Why version 2 exists: the same check on a version-1 sheet finds no outline left.
    dpi = 150.0
    pdf = build_duel(BuildOptions(), version=1)
    geometry = sheet_geometry("standard", Paper.A4, version=1)
    binary = _thresholded(pdf, 0, dpi)
    kept = [
        e
        for e in geometry.select(Kind.SQUARE) + geometry.select(Kind.TICK)
        if _edge_coverage(binary, e.rect, dpi) > 0.5
    ]
    assert kept == []


def test_layout_versions_differ_in_line_work_as_the_data_says() -> None:
    assert layout_versions("standard") == (1, 2)
    current, first = load_layout("standard"), load_layout("standard", 1)
    assert load_layout("standard", current.version) is current
    assert first.version == 1 and first.arenas == current.arenas
    assert current.lines.write_in.width >= 0.35 and current.lines.write_in.black >= 0.8
    for style in (current.lines.dice, current.lines.allies):
        assert style.width >= 0.35 and style.black >= 0.8
    assert first.lines.write_in == LineStyle(0.2117, 0.45)
    assert first.lines.allies.dash == (1.2, 1.0)
    # Version 1's QR code says 1, and its geometry is version 1's.
    pdf = build_solo(BuildOptions(paper=Paper.LETTER), version=1)
    tag = SheetTag.from_text(qr_text(pdf, 0, Paper.LETTER))
    assert (tag.version, tag.mode) == (1, "solo")
    assert sheet_geometry("standard", Paper.LETTER, 1).layout_version == 1


def test_an_unknown_layout_version_is_a_clear_error() -> None:
    with pytest.raises(
        LayoutError, match=r"standard.toml: the layout has no version 7 \(it has 1, 2\)"
    ):
        load_layout("standard", 7)
    with pytest.raises(LayoutError, match="no version 0"):
        build_duel(BuildOptions(), version=0)


def test_a_malformed_line_style_names_its_role(tmp_path: Path) -> None:
    from printgen.games.one_page_war.layout import _lines

    lines = load_layout("standard").raw["lines"]

    with pytest.raises(LayoutError, match=r"x.toml: \[lines\] dice: `black` must be a number"):
        _lines(
            {
                "lines": {
                    **load_layout("standard").raw["lines"],
                    "dice": {"width": 0.4, "black": "dark"},
                }
            },
            "x.toml",
        )
    with pytest.raises(LayoutError, match=r"\[lines\] has no `frame` style"):
        _lines({"lines": {k: v for k, v in lines.items() if k != "frame"}}, "x.toml")


@pytest.mark.parametrize("version", [1, 2])
def test_photos_of_version_1_and_version_2_sheets_both_read(tmp_path: Path, version: int) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import photo_corpus

    from printgen.games.one_page_war.reader import read

    shot = photo_corpus.Shot(
        size=(1600, 1200), tilt_deg=18, rotation_deg=4, blur=0.6, noise=2, jpeg_quality=80, seed=5
    )
    photo = photo_corpus.make_photo(
        tmp_path / f"v{version}.jpg",
        31,
        (1600, 1200),
        mode="duel",
        paper=Paper.A4,
        shot=shot,
        version=version,
    )
    result = read(photo.path)
    assert result.located.tag.version == version
    assert result.located.geometry.layout_version == version
    sure = 0
    for r in result.reading.all:
        expected = photo.truth[photo_corpus.key(r.element)]
        assert r.value == expected or r.unsure, f"{photo_corpus.key(r.element)} read {r.value}"
        sure += not r.unsure
    assert sure >= 0.8 * len(result.reading.all)


# --- Type: one size per role, nothing under 6 pt, a title and a footer on every sheet --------


def _pages(mode: str, paper: Paper) -> range:
    return range(readback.page_count(built(mode, paper)))


@pytest.mark.parametrize("mode, paper", CASES, ids=CASE_IDS)
def test_no_text_under_6_pt_and_each_role_at_one_size(mode: str, paper: Paper) -> None:
    pdf = built(mode, paper)
    geometry = sheet_geometry("standard", paper)
    texts = sheet_texts("standard")
    for page in _pages(mode, paper):
        runs = readback.text_runs(pdf, page)
        assert min(r.size for r in runs) >= 6.0, min(runs, key=lambda r: r.size)
    runs = readback.text_runs(pdf, 0)
    roles = {
        "arena names": (ARENA, {a.name.upper() for a in geometry.arenas}),
        "power names": (POWER, {a.power for a in geometry.arenas}),
        "reminders": (REMINDER, {p.reminder for p in texts.powers}),
    }
    labels = geometry.select(Kind.LABEL)
    for role, (expected, words) in roles.items():
        sizes = [
            r.size
            for r in runs
            if r.text.strip() in words and any(_inside(r, e.rect, geometry.height) for e in labels)
        ]
        assert len(sizes) == 2 * len(geometry.arenas) and set(sizes) == {expected.size}, role
    # The rules columns (both halves; on a solo sheet the AI's turn too): one body size, never
    # under 6.5 pt, whatever the paper.
    columns = geometry.select(Kind.POWERS)
    body = {
        round(r.size, 2)
        for r in runs
        if any(_inside(r, c.rect, geometry.height) for c in columns) and "Bold" not in r.font
    }
    assert len(body) == 1 and min(body) >= 6.5, body


@pytest.mark.parametrize("mode, paper", CASES, ids=CASE_IDS)
def test_every_sheet_has_a_title_and_the_shared_footer(mode: str, paper: Paper) -> None:
    pdf = built(mode, paper)
    geometry = sheet_geometry("standard", paper)
    for page in _pages(mode, paper):
        text = readback.page_text(pdf, page)
        runs = readback.text_runs(pdf, page)
        is_tally = mode == "team" and page == readback.page_count(pdf) - 1
        purpose = {"duel": "duel sheet", "solo": "solo sheet"}.get(
            mode, "team tally" if is_tally else f"team pack, sheet {page + 1} of 2"
        )
        # One Page War's rulebook names no designer, so the footer credits none (a ruling).
        assert footer_text("One Page War", purpose) in text, (page, purpose)
        titles = [r for r in runs if r.text.startswith("One Page War") and r.size >= TITLE.size]
        if is_tally:
            assert titles
            continue
        # A title along each player's edge, facing that player (the solo AI's says whose it is).
        near = [r for r in titles if not r.upside_down]
        assert near and _inside(
            near[0], geometry.find(Kind.TITLE, side=Side.FIRST).rect, geometry.height
        )
        far = geometry.find(Kind.TITLE, side=Side.SECOND).rect
        far_titles = [r for r in runs if _inside(r, far, geometry.height) and r.size == TITLE.size]
        assert len(far_titles) == 1
        assert far_titles[0].upside_down == (mode != "solo")


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_tally_totals_stand_under_their_headings_and_empty_cells_are_shaded(paper: Paper) -> None:
    pdf = built("team", paper)
    tally = readback.page_count(pdf) - 1
    dpi = 100.0
    image = gray(pdf, tally, dpi)
    runs = readback.text_runs(pdf, tally)
    height = readback.page_size_mm(pdf, tally)[1]

    def x_of(text: str) -> list[float]:
        return sorted(r.x_mm for r in runs if r.text.strip() == text)

    def y_of(text: str) -> float:
        return height - next(r.y_mm for r in runs if r.text.strip() == text)

    team_columns = x_of("Team 1") + x_of("Team 2")  # arenas won: 1, 2; sheet won: 1, 2
    arenas_1, sheets_1, arenas_2, sheets_2 = team_columns
    assert arenas_1 < arenas_2 < sheets_1 < sheets_2
    assert x_of("Arenas won")[0] == pytest.approx(arenas_1) and x_of(
        "Sheet won (tick; a draw: none)"
    )[0] == pytest.approx(sheets_1)

    def shade(x_mm: float, row_label: str) -> float:
        # The middle of the cell whose left edge is 1.5 mm left of the heading's text.
        y = y_of(row_label) - 1.5
        x = x_mm + 10
        return float(image[int(px(y, dpi)), int(px(x, dpi))])

    arenas_row, sheets_row = TALLY_TOTALS
    for x in (arenas_1, arenas_2):
        assert shade(x, arenas_row) > 250 and shade(x, sheets_row) < 225
    for x in (sheets_1, sheets_2):
        assert shade(x, arenas_row) < 225 and shade(x, sheets_row) > 250


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_the_largest_team_pack_fits_its_tally_sheet(paper: Paper) -> None:
    # Six pairs: the longest table; the rules still fit above the footer, at 7.5 pt or more.
    pdf = build_team(BuildOptions(paper=paper, pairs=6))
    tally = readback.page_count(pdf) - 1
    text = _words(readback.page_text(pdf, tally))
    assert all(_words(m) in text for m in sheet_texts("standard").team_play)
    runs = readback.text_runs(pdf, tally)
    assert min(r.size for r in runs if "printgen" not in r.text) >= 7.5
