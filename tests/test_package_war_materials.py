"""Package War! score pad and play mat: built, read back and rendered."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.errors import InputError, LayoutError
from printgen.games import material_named
from printgen.games.package_war.engine import RECOMMENDED_DICE, START_SCORE
from printgen.games.package_war.materials import (
    RULES_SOURCE,
    load_reminders,
    mat_geometry,
    pad_geometry,
)
from printgen.materials import BuildOptions
from printgen.render.readback import (
    all_text,
    embedded_fonts,
    page_size_mm,
    render_page,
    segments,
    text_runs,
)
from printgen.render.text import plain_text
from printgen.render.units import SAFE_MARGIN_MM, Paper

PAD, MAT = (material_named(n) for n in ("package-war-pad", "package-war-mat"))
PAPERS = (Paper.A4, Paper.LETTER)


@cache
def built(name: str, paper: Paper) -> bytes:
    material = {"pad": PAD, "mat": MAT}[name]
    return material.build(BuildOptions(paper=paper), None)


def words(pdf: bytes) -> str:
    return " ".join(run.text for run in text_runs(pdf))


@pytest.mark.parametrize("paper", PAPERS)
def test_page_sizes(paper: Paper) -> None:
    width, height = paper.size.width_mm, paper.size.height_mm
    assert page_size_mm(built("pad", paper)) == pytest.approx((width, height), abs=0.01)
    assert page_size_mm(built("mat", paper)) == pytest.approx((height, width), abs=0.01)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("name", ["pad", "mat"])
def test_everything_inside_the_safe_margin(name: str, paper: Paper) -> None:
    pdf = built(name, paper)
    width, height = page_size_mm(pdf)
    low, high_x, high_y = SAFE_MARGIN_MM - 0.01, width - SAFE_MARGIN_MM, height - SAFE_MARGIN_MM
    for run in text_runs(pdf):
        assert low <= run.x_mm <= high_x + 0.01 and low <= run.y_mm <= high_y + 0.01, run
    for seg in segments(pdf):
        for x, y in ((seg.x1_mm, seg.y1_mm), (seg.x2_mm, seg.y2_mm)):
            assert low <= x <= high_x + 0.01 and low <= y <= high_y + 0.01, seg
    # And in pixels: a 6 mm border of white all round.
    image = render_page(pdf, dpi=60)
    border = round(SAFE_MARGIN_MM / 25.4 * 60) - 1
    for strip in (image[:border], image[-border:], image[:, :border], image[:, -border:]):
        assert strip.min() > 240


@pytest.mark.parametrize("name", ["pad", "mat"])
def test_reproducible_and_fonts_embedded(name: str) -> None:
    material = {"pad": PAD, "mat": MAT}[name]
    pdf = material.build(BuildOptions(paper=Paper.A4), None)
    assert pdf == built(name, Paper.A4)
    fonts = embedded_fonts(pdf)
    assert fonts and all(fonts.values())
    assert all("DejaVu" in font for font in fonts), fonts  # only the shipped faces


@pytest.mark.parametrize("paper", PAPERS)
def test_pad_has_start_rounds_and_thresholds(paper: Paper) -> None:
    pdf = built("pad", paper)
    runs = text_runs(pdf)
    geometry = pad_geometry(paper)
    start = [
        r for r in runs if r.text.strip() == str(START_SCORE) and r.x_mm > geometry.column_x[0][0]
    ]
    # The printed start of 5, once in each player's total column, inside the start row.
    assert len(start) == 2
    for run, xs in zip(sorted(start, key=lambda r: r.x_mm), geometry.column_x, strict=True):
        assert xs[2] < run.x_mm < xs[2] + geometry.column_width
        assert geometry.start_row.y < run.y_mm < geometry.start_row.top
    numbers = [
        r.text.strip()
        for r in runs
        if r.text.strip().isdigit()
        and r.x_mm < geometry.column_x[0][0]
        and r.y_mm > geometry.rows[-1].y
    ]
    assert numbers == [str(n) for n in range(1, len(geometry.rows) + 1)]
    assert len(geometry.rows) >= 20
    text = words(pdf)
    assert text.count("20 wins") == 3  # at the top, and over each total column
    assert "0 or below loses" in text and text.count("\u2264 0 loses") == 2
    assert text.count("Player:") == 2


def test_pad_and_mat_reminders_come_from_the_rules_source() -> None:
    reminders = load_reminders()

    def flat(text: str) -> str:
        return " ".join(text.replace("\u00a0", " ").split())

    mat_text, pad_text = flat(words(built("mat", Paper.A4))), flat(words(built("pad", Paper.A4)))
    for topic in ("a round", "stacking", "scoring"):
        for line in reminders.topic(topic):
            # Each line, twice on the mat (one turned to each player); spot its first words.
            start = flat(plain_text(line))[:18]
            assert mat_text.count(start) == 2, start
    for topic in ("a round", "scoring"):
        for line in reminders.topic(topic):
            assert flat(plain_text(line))[:18] in pad_text


@pytest.mark.parametrize("name", ["pad", "mat"])
def test_the_distribution_phase_is_printed(name: str) -> None:
    """What the issue found printed nowhere: take or push, alternate until the line is empty,
    then score; the other player starts packaging again; a 6 on an empty line; both limits."""
    text = " ".join(all_text(built(name, Paper.LETTER)).replace("\u00a0", " ").split())
    for words_ in (
        "take it onto your own tables or push it across to your rival",
        "Alternate until the line is empty",
        "Then write the round's scores on the pad",
        "The player who did not roll the 6 starts the next packaging",
        "A 6 on an empty line changes nothing; packaging goes on",
        "Both at a limit at once: the higher score wins",
    ):
        assert words_ in text, words_


@pytest.mark.parametrize("paper", PAPERS)
def test_the_pool_holds_every_die(paper: Paper) -> None:
    geometry = mat_geometry(paper)
    # The rulebook's 26 dice of 16 mm, side by side between the pool's two label bands.
    assert geometry.die == 16.0
    inner = geometry.pool.height - 2 * geometry.pool_bands[0].height
    assert int(geometry.pool.width // 16) * int(inner // 16) >= RECOMMENDED_DICE
    assert geometry.pool_capacity >= RECOMMENDED_DICE
    text = words(built("mat", paper))
    assert text.count(f"all {RECOMMENDED_DICE} dice wait here") == 2


def test_a_pool_too_small_for_the_dice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.games.package_war import materials

    data = {**materials.load_layout("mat"), "pool": {**materials.load_layout("mat")["pool"]}}
    data["pool"]["width"] = 60.0
    monkeypatch.setattr(materials, "load_layout", lambda name: data)
    with pytest.raises(LayoutError, match="the pool holds 12 dice of 16 mm, not the 26"):
        materials.mat_geometry(Paper.A4)


@pytest.mark.parametrize("paper", PAPERS)
def test_designers_credited_and_a_footer_on_both_sheets(paper: Paper) -> None:
    credit = "\u00a9 2004 Rasmus Pechuel and Monica Shellman"
    pad, mat = words(built("pad", paper)), words(built("mat", paper))
    assert credit in pad and mat.count(credit) == 2  # once under each player's title
    assert "Package War! · score pad · " + credit + " · printgen " in pad
    assert "Package War! · play mat · printgen " in mat


@pytest.mark.parametrize("paper", PAPERS)
def test_the_scale_bar_stands_clear_of_the_scoring_box(paper: Paper) -> None:
    geometry = pad_geometry(paper)
    pdf = built("pad", paper)
    bottom = min(r.y for r in geometry.reminders)
    # The bar's strokes: the lowest drawn lines, in the scale band.
    bar = [s for s in segments(pdf) if max(s.y1_mm, s.y2_mm) <= geometry.scale.top + 0.01]
    assert bar, "no scale bar drawn"
    assert bottom - max(max(s.y1_mm, s.y2_mm) for s in bar) >= 3.9


def test_the_rulebook_examples_are_in_the_reminders() -> None:
    scoring = " ".join(plain_text(x) for x in load_reminders().topic("scoring"))
    assert "1\u00a0+\u00a02\u00a0+\u00a03\u00a0+\u00a04\u00a0=\u00a010" in scoring
    stacking = " ".join(plain_text(x) for x in load_reminders().topic("stacking"))
    assert "Heavier or equal" in stacking and "Lighter on heavier" in stacking


def test_a_changed_rules_source_changes_the_mat(tmp_path: Path) -> None:
    source = RULES_SOURCE.read_text(encoding="utf-8")
    changed = tmp_path / "package-war.md"
    changed.write_text(
        source.replace("whoever receives a package picks the table", "the receiver decides"),
        encoding="utf-8",
    )
    pdf = MAT.build(BuildOptions(paper=Paper.A4, rules=changed), None)
    assert words(pdf).count("the receiver decides") == 2
    missing = tmp_path / "bare.md"
    missing.write_text('+++\ntitle = "X"\n+++\n## Rules\n\n- none\n', encoding="utf-8")
    with pytest.raises(InputError, match="Reminder"):
        MAT.build(BuildOptions(paper=Paper.A4, rules=missing), None)


@pytest.mark.parametrize("paper", PAPERS)
def test_mat_faces_both_players(paper: Paper) -> None:
    runs = text_runs(built("mat", paper))
    for label in ("TABLE 1", "TABLE 2", "A round", "Stacking", "Scoring", "PACKAGE POOL", "Player"):
        found = [r for r in runs if r.text.strip() == label]
        assert sorted(r.upside_down for r in found) == [False, True], label
    geometry = mat_geometry(paper)
    height = geometry.page.height_mm
    for run in runs:
        if run.text.strip() in ("TABLE 1", "TABLE 2"):
            # Each player's tables are on that player's half of the mat.
            assert (run.y_mm > height / 2) == run.upside_down


@pytest.mark.parametrize("paper", PAPERS)
def test_mat_geometry_is_drawn_where_the_layout_says(paper: Paper) -> None:
    geometry = mat_geometry(paper)
    image = render_page(built("mat", paper), dpi=100)
    px = 100 / 25.4

    def ink(x_mm: float, y_mm: float) -> int:
        row = round((geometry.page.height_mm - y_mm) * px)
        col = round(x_mm * px)
        return int(image[row - 2 : row + 3, col - 2 : col + 3].min())

    assert len(geometry.spaces) == 5
    for rect in (*geometry.spaces, *geometry.tables[0], *geometry.tables[1]):
        cx, cy = rect.centre
        assert ink(cx, cy) > 240  # an empty space for a die
        assert ink(rect.x, cy) < 120 and ink(rect.right, cy) < 120  # its edges are drawn
    # The way out of the line: an arrow between the oldest space and the pool.
    first = geometry.spaces[0]
    assert ink((geometry.pool.right + first.x) / 2, first.centre[1]) < 120
    # Spaces take a 16 mm die.
    assert all(rect.width >= 18 for rect in geometry.spaces)


def test_mat_geometry_has_no_overlaps_and_the_line_order() -> None:
    geometry = mat_geometry(Paper.LETTER)
    xs = [rect.x for rect in geometry.spaces]
    assert xs == sorted(xs)
    assert geometry.pool.right < geometry.spaces[0].x  # the oldest end faces the pool


def test_pixels_show_ink_on_both_materials() -> None:
    for name in ("pad", "mat"):
        image = render_page(built(name, Paper.A4), dpi=40)
        dark = np.count_nonzero(image.min(axis=2) < 128)
        assert dark > 1000, name


def test_layout_command(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["layout", "package-war", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["mat"]["space 1"]["width"] == pytest.approx(
        mat_geometry(Paper.LETTER).spaces[0].width
    )
    assert data["pad"]["rounds"] == len(pad_geometry(Paper.LETTER).rows)


def test_build_command_writes_both_papers(runner: CliRunner, tmp_path: Path) -> None:
    for paper in ("a4", "letter"):
        result = runner.invoke(
            cli,
            [
                "build",
                "package-war-pad",
                "package-war-mat",
                "--paper",
                paper,
                "--out",
                str(tmp_path),
            ],
        )
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.glob("*.pdf"))
    assert names == [
        "package-war-mat-a4.pdf",
        "package-war-mat-letter.pdf",
        "package-war-pad-a4.pdf",
        "package-war-pad-letter.pdf",
    ]
    assert (tmp_path / "package-war-mat-a4.pdf").read_bytes() == built("mat", Paper.A4)


def test_rules_source_states_the_engine_numbers() -> None:
    from printgen.games.package_war.engine import (
        LINE_LENGTH,
        MIN_DICE,
        RECOMMENDED_DICE,
        WIN_SCORE,
    )
    from printgen.rules_text import load_rules

    rules = load_rules(RULES_SOURCE)
    assert rules.title == "Package War!"
    text = " ".join(block.text for section in rules.sections for block in section.blocks)
    assert f"write {START_SCORE} points" in text
    assert f"Reach {WIN_SCORE} points" in text
    assert f"holds {['zero', 'one', 'two', 'three', 'four', 'five'][LINE_LENGTH]} packages" in text
    assert f"{MIN_DICE} to {RECOMMENDED_DICE} six-sided dice" in rules.equipment


@pytest.mark.parametrize("paper", PAPERS)
def test_wrapped_reminder_lines_start_under_their_first_line(paper: Paper) -> None:
    geometry = pad_geometry(paper)
    for box in geometry.reminders:
        inside = [
            r
            for r in text_runs(built("pad", paper))
            if box.x < r.x_mm < box.right and box.y < r.y_mm < box.top - 6  # below the title
        ]
        lines: dict[float, float] = {}
        for run in inside:
            if run.text.strip() != "\u2022":
                y = round(run.y_mm, 1)
                lines[y] = min(lines.get(y, run.x_mm), run.x_mm)
        assert len(lines) >= 6
        starts = {round(x, 1) for x in lines.values()}
        assert len(starts) == 1, sorted(starts)
