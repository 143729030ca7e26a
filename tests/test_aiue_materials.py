"""aiue battle materials, read back from the PDFs: pages, sizes, letters in their cells, the 40
cards with their flags and folds, the record sheet and the topic card."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from printgen.cli import cli
from printgen.errors import LayoutError
from printgen.games import material_named
from printgen.games.aiue_battle import layout as geo
from printgen.games.aiue_battle import materials
from printgen.games.aiue_battle.engine import KANA_BOARD
from printgen.games.aiue_battle.materials import FLAG_WORDS, build_board, load_topics
from printgen.materials import BuildOptions, Material
from printgen.render.readback import (
    TextRun,
    embedded_fonts,
    page_boxes,
    page_count,
    page_size_mm,
    page_text,
    render_page,
    segments,
    text_runs,
)
from printgen.render.units import Paper

PAPERS = (Paper.A4, Paper.LETTER)
BOARD, CARDS, RECORD = (material_named(n) for n in ("aiue-board", "aiue-cards", "aiue-record"))
DPI = 30
LAYOUT = geo.load_layout("standard")


@pytest.fixture(scope="module")
def pdfs() -> dict[tuple[str, Paper], bytes]:
    return {
        (material.name, paper): material.build(BuildOptions(paper=paper), None)
        for material in (BOARD, CARDS, RECORD)
        for paper in PAPERS
    }


def runs(pdf: bytes, page: int) -> list[TextRun]:
    return [dataclasses.replace(r, text=r.text.strip()) for r in text_runs(pdf, page)]


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
@pytest.mark.parametrize(
    ("material", "pages", "landscape"),
    [(BOARD, 2, True), (CARDS, 5, False), (RECORD, 2, True)],
    ids=lambda v: v.name if isinstance(v, Material) else str(v),
)
def test_pages_and_sizes(
    pdfs, material: Material, pages: int, landscape: bool, paper: Paper
) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[(material.name, paper)]
    assert page_count(pdf) == pages
    size = paper.size.landscape() if landscape else paper.size.portrait()
    for page in range(pages):
        assert page_size_mm(pdf, page) == pytest.approx((size.width_mm, size.height_mm), abs=0.01)


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_every_placed_block_is_inside_the_safe_margin(paper: Paper) -> None:
    pages = {
        "board": geo.board_page(paper),
        "cards": geo.cards_page(paper),
        "record": geo.record_page(paper),
    }
    blocks = [
        ("board", geo.alphabet_side(LAYOUT, paper).block),
        ("board", geo.kana_side(LAYOUT, paper).block),
        ("cards", geo.card_sheet(LAYOUT, paper).header),
        ("cards", geo.card_sheet(LAYOUT, paper).footer),
        *[("cards", slot.strip) for slot in geo.card_sheet(LAYOUT, paper).slots],
        ("record", geo.record_sheet(LAYOUT, paper).title),
        *[("record", card) for card in geo.topic_cards(LAYOUT, paper)],
    ]
    for page, rect in blocks:
        assert rect.inside(pages[page]), (page, rect)


def test_a_layout_too_big_for_the_paper_is_refused() -> None:
    wide = dataclasses.replace(
        LAYOUT,
        board=dataclasses.replace(
            LAYOUT.board, kana=dataclasses.replace(LAYOUT.board.kana, cell_width=23.0)
        ),
    )
    geo.kana_side(wide, Paper.A4)  # 276 mm fits A4's 285
    with pytest.raises(LayoutError, match="kana side of the board is 276.0 x"):
        geo.kana_side(wide, Paper.LETTER)  # but not Letter's 267.4


# --- the board ---


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_board_letters_stand_in_their_cells(pdfs, paper: Paper) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-board", paper)]
    sides = (
        (0, geo.alphabet_side(LAYOUT, paper), LAYOUT.board.alphabet.letter_size),
        (1, geo.kana_side(LAYOUT, paper), LAYOUT.board.kana.letter_size),
    )
    for page, side, size in sides:
        # Drawn at the layout's size, never shrunk: too big a size for its cell is a FitError.
        found = {r.text: r for r in runs(pdf, page) if len(r.text) == 1 and r.size == size}
        assert sorted(found) == sorted(cell.letter for cell in side.cells)
        for cell in side.cells:
            run = found[cell.letter]
            assert cell.rect.x < run.x_mm < cell.rect.right
            assert cell.rect.y < run.y_mm < cell.rect.top


def test_the_board_offers_exactly_the_letters_the_referee_accepts() -> None:
    assert [c.letter for c in geo.alphabet_side(LAYOUT, Paper.A4).cells] == list(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    )
    assert sorted(LAYOUT.board.kana.letters) == sorted(KANA_BOARD)
    # The kana table reads from the right: あ in the top right corner, ー at the far left.
    cells = {c.letter: c.rect for c in geo.kana_side(LAYOUT, Paper.A4).cells}
    assert cells["あ"].right == max(r.right for r in cells.values())
    assert cells["ー"].x == min(r.x for r in cells.values())
    assert cells["い"].top == cells["あ"].y  # rows a i u e o run downwards


def test_a_kana_layout_missing_a_letter_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    columns = tuple(c.replace("ー", " ") for c in LAYOUT.board.kana.columns)
    broken = dataclasses.replace(
        LAYOUT,
        board=dataclasses.replace(
            LAYOUT.board, kana=dataclasses.replace(LAYOUT.board.kana, columns=columns)
        ),
    )
    monkeypatch.setattr(materials, "load_layout", lambda name: broken)
    with pytest.raises(LayoutError, match="missing ー"):
        build_board(BuildOptions())


def test_the_example_place_is_empty() -> None:
    for side in (geo.alphabet_side(LAYOUT, Paper.A4), geo.kana_side(LAYOUT, Paper.A4)):
        assert not any(geo._overlap(cell.rect, side.example) for cell in side.cells)


def test_board_text_and_fonts(pdfs) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-board", Paper.A4)]
    kana = " ".join(page_text(pdf, 1).split())
    assert "long vowel mark" in kana and "が ざ だ ば" in kana and "ぱ → は" in kana
    assert "っ → つ" in kana
    assert "diagonal line" in page_text(pdf, 0)
    fonts = embedded_fonts(pdf)
    kana_fonts = [name for name in fonts if "IPAexGothic" in name]
    # Embedded as a subset: a six-letter tag before the name.
    assert kana_fonts and all(fonts[n] and n[7] == "+" for n in kana_fonts)


# --- the letter cards ---


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_forty_cards_eight_of_each_colour_one_flag_each(pdfs, paper: Paper) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-cards", paper)]
    sheet = geo.card_sheet(LAYOUT, paper)
    flagged = next(slot for slot in sheet.slots if slot.flagged)
    assert len(sheet.slots) == 8
    cards = 0
    for page, colour in enumerate(LAYOUT.cards.colours):
        page_runs = runs(pdf, page)
        faces = [r for r in page_runs if r.text == colour.name and not r.upside_down]
        backs = [r for r in page_runs if r.text == colour.name and r.upside_down]
        assert len(faces) == len(backs) == 8
        cards += len(faces)
        # Each name sits on its own card: faces on the face halves, backs on the back halves.
        for slot in sheet.slots:
            assert sum(1 for r in faces if _in(r, slot.face)) == 1
            assert sum(1 for r in backs if _in(r, slot.back)) == 1
        flags = [r for r in page_runs if r.text == FLAG_WORDS]
        assert len(flags) == 2
        assert any(_in(r, flagged.face) and not r.upside_down for r in flags)
        assert any(_in(r, flagged.back) and r.upside_down for r in flags)
        header = page_runs[0].text
        assert f"{colour.name} ({colour.pattern})" in header and "7 to play, 1 spare" in header
    assert cards == 40


def _in(run: TextRun, rect: geo.Rect) -> bool:
    return rect.x <= run.x_mm <= rect.right and rect.y <= run.y_mm <= rect.top


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_cuts_have_crop_marks_outside_the_bleed_and_folds_a_dashed_line(pdfs, paper: Paper) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-cards", paper)]
    sheet = geo.card_sheet(LAYOUT, paper)
    page = geo.cards_page(paper)
    spec = LAYOUT.cards
    grid = sheet.grid
    # Neighbours share their cuts: 5 vertical cuts for 4 columns, 3 horizontal for 2 rows.
    assert len(sheet.cuts_x) == spec.columns + 1 and len(sheet.cuts_y) == spec.rows + 1
    for slot in sheet.slots:
        assert slot.strip.x in sheet.cuts_x and slot.strip.right in sheet.cuts_x
        assert slot.strip.y in sheet.cuts_y and slot.strip.top in sheet.cuts_y
    drawn = segments(pdf, 0)
    solid = [s for s in drawn if not s.dashed]
    for x1, y1, x2, y2 in sheet.crop_marks:
        # Each mark is drawn, solid, wholly outside the bleed and inside the safe margin.
        assert any(
            abs(s.x1_mm - x1) < 0.01
            and abs(s.y1_mm - y1) < 0.01
            and abs(s.x2_mm - x2) < 0.01
            and abs(s.y2_mm - y2) < 0.01
            for s in solid
        ), (x1, y1, x2, y2)
        for x, y in ((x1, y1), (x2, y2)):
            assert not (
                sheet.bleed.x < x < sheet.bleed.right and sheet.bleed.y < y < sheet.bleed.top
            )
            assert 6.0 <= x <= page.width_mm - 6.0 and 6.0 <= y <= page.height_mm - 6.0
    ends = {(round(x1, 3), round(y1, 3)) for x1, y1, _, _ in sheet.crop_marks}
    for x in sheet.cuts_x:
        assert (round(x, 3), round(grid.top + spec.crop_offset, 3)) in ends
        assert (round(x, 3), round(grid.y - spec.crop_offset, 3)) in ends
    for y in sheet.cuts_y:
        assert (round(grid.x - spec.crop_offset, 3), round(y, 3)) in ends
        assert (round(grid.right + spec.crop_offset, 3), round(y, 3)) in ends
    # Nothing is ruled along a cut inside the block: a miscut would show the line.
    for s in drawn:
        on_x = abs(s.x1_mm - s.x2_mm) < 0.01 and any(abs(s.x1_mm - x) < 0.01 for x in sheet.cuts_x)
        on_y = abs(s.y1_mm - s.y2_mm) < 0.01 and any(abs(s.y1_mm - y) < 0.01 for y in sheet.cuts_y)
        inside = (
            grid.x < (s.x1_mm + s.x2_mm) / 2 < grid.right
            and grid.y < (s.y1_mm + s.y2_mm) / 2 < grid.top
        )
        assert not ((on_x or on_y) and inside), s
    # Each card's fold is dashed across it, stopping just short of its cuts: it looks nothing
    # like the solid marks, and its white underline never reaches the card's edge.
    inset = materials.FOLD_INSET
    for slot in sheet.slots:
        assert slot.fold_y == pytest.approx(slot.strip.y + slot.strip.height / 2)
        assert any(
            s.dashed
            and abs(s.y1_mm - slot.fold_y) < 0.01
            and abs(s.y2_mm - slot.fold_y) < 0.01
            and min(s.x1_mm, s.x2_mm) == pytest.approx(slot.strip.x + inset)
            and max(s.x1_mm, s.x2_mm) == pytest.approx(slot.strip.right - inset)
            for s in drawn
        ), f"card {slot.index}: no fold line"


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_the_colour_runs_across_every_cut_and_into_the_bleed(pdfs, paper: Paper) -> None:  # type: ignore[no-untyped-def]
    """No white hairline at a cut, and a cut 1 mm off the line still shows colour: sampled on
    the colours whose pattern is darker than their fill (a white pattern is white on purpose)."""
    dpi = 150
    pdf = pdfs[("aiue-cards", paper)]
    sheet = geo.card_sheet(LAYOUT, paper)
    height_mm = geo.cards_page(paper).height_mm
    grid, bleed = sheet.grid, sheet.bleed
    for index, colour in enumerate(LAYOUT.cards.colours):
        if colour.ink.upper() == "#FFFFFF":
            continue
        image = render_page(pdf, index, dpi).astype(int)

        def whites(x1: float, y1: float, x2: float, y2: float, image: np.ndarray = image) -> int:
            count = 0
            for t in np.linspace(0, 1, 400):
                x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                row, col = int((height_mm - y) / 25.4 * dpi), int(x / 25.4 * dpi)
                count += int(image[row, col].min() > 235)
            return count

        inner_x = sheet.cuts_x[1:-1]
        inner_y = sheet.cuts_y[1:-1]
        lines = [(x + d, grid.y, x + d, grid.top) for x in inner_x for d in (-1, 0, 1)]
        lines += [(grid.x, y + d, grid.right, y + d) for y in inner_y for d in (-1, 0, 1)]
        # Round the block, halfway into the bleed and 1 mm inside the outer cuts.
        for inset in (-LAYOUT.cards.bleed / 2, 1.0):
            r = geo.Rect(
                grid.x + inset, grid.y + inset, grid.width - 2 * inset, grid.height - 2 * inset
            )
            lines += [(r.x, r.y, r.right, r.y), (r.x, r.top, r.right, r.top)]
            lines += [(r.x, r.y, r.x, r.top), (r.right, r.y, r.right, r.top)]
        for line in lines:
            # Labels and writing panels stand well inside each card, so these lines meet none.
            assert whites(*line) == 0, f"{colour.name}: white along {line}"
        assert bleed.width == pytest.approx(grid.width + 2 * LAYOUT.cards.bleed)


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_card_pages_trim_to_the_block_with_bleed_round_it(pdfs, paper: Paper) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-cards", paper)]
    sheet = geo.card_sheet(LAYOUT, paper)
    for index in range(page_count(pdf)):
        boxes = page_boxes(pdf, index)
        for name, rect in (("TrimBox", sheet.grid), ("BleedBox", sheet.bleed)):
            assert boxes[name] == pytest.approx((rect.x, rect.y, rect.right, rect.top), abs=0.01)
    # The other materials are finished sheets: trimmed to the page, with no bleed.
    record = pdfs[("aiue-record", paper)]
    width, height = page_size_mm(record, 0)
    assert page_boxes(record, 0)["TrimBox"] == pytest.approx((0, 0, width, height), abs=0.01)
    assert "BleedBox" not in page_boxes(record, 0)


def test_card_sheets_say_what_to_print_on_and_where_to_write(pdfs) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-cards", Paper.A4)]
    for index in range(page_count(pdf)):
        text = " ".join(page_text(pdf, index).split())
        assert "Write on the white face" in text
        assert f"card of {materials.CARD_WEIGHT}" in text and "160-200 g/m²" in text
        assert "cut from mark to mark" in text and "fold, print outside" in text


def test_card_backs_are_coloured_faces_are_white_to_write_on(pdfs) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-cards", Paper.A4)]
    sheet = geo.card_sheet(LAYOUT, Paper.A4)
    height_mm = Paper.A4.size.height_mm
    means = []
    for page in range(len(LAYOUT.cards.colours)):
        image = render_page(pdf, page, DPI).astype(float)

        def patch(x: float, y: float, image: np.ndarray = image) -> np.ndarray:
            col, row = int(x / 25.4 * DPI), int((height_mm - y) / 25.4 * DPI)
            return image[row - 1 : row + 2, col - 1 : col + 2].reshape(-1, 3).mean(axis=0)

        for slot in sheet.slots:
            # The back, near the fold, away from its label: the colour and its pattern.
            back = patch(slot.back.x + slot.back.width / 2, slot.back.top - 4)
            assert back.min() < 235, f"page {page + 1} card {slot.index}: back is not coloured"
            # The middle of the face: white, for the letter.
            face = patch(slot.face.x + slot.face.width / 2, slot.face.y + slot.face.height / 2)
            assert face.min() > 245, f"page {page + 1} card {slot.index}: face is not white"
        means.append(
            image[
                int((height_mm - sheet.slots[1].back.top) / 25.4 * DPI) : int(
                    (height_mm - sheet.slots[1].back.y) / 25.4 * DPI
                ),
                int(sheet.slots[1].back.x / 25.4 * DPI) : int(
                    sheet.slots[1].back.right / 25.4 * DPI
                ),
            ]
            .reshape(-1, 3)
            .mean(axis=0)
        )
    # Five colours, five different backs.
    for i in range(len(means)):
        for j in range(i + 1, len(means)):
            assert np.abs(means[i] - means[j]).max() > 15


def test_colours_each_have_a_name_and_their_own_pattern() -> None:
    colours = LAYOUT.cards.colours
    assert len(colours) == 5 and LAYOUT.cards.total == 40
    assert len({c.name for c in colours}) == len({c.pattern for c in colours}) == 5


# --- the record sheet and the topic card ---


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_record_sheet_has_a_row_per_round(pdfs, paper: Paper) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-record", paper)]
    sheet = geo.record_sheet(LAYOUT, paper)
    page_runs = runs(pdf, 0)
    texts = [r.text for r in page_runs]
    for title in ("Topic", "Out, in order", "Winner", *[f"Player {n}" for n in range(1, 6)]):
        assert title in texts
    numbers = [r for r in page_runs if r.text.isdigit() and r.x_mm < sheet.columns[1].x]
    assert [int(r.text) for r in numbers] == list(range(1, LAYOUT.record.rounds + 1))
    for run, row in zip(numbers, sheet.rows, strict=True):
        assert row.y < run.y_mm < row.top


def test_topic_card_lists_every_topic_from_the_rules_source(pdfs) -> None:  # type: ignore[no-untyped-def]
    topics = load_topics()
    assert len(topics) == 30 and "Something to drink" in topics
    text = page_text(pdfs[("aiue-record", Paper.A4)], 1)
    for topic in topics:
        assert text.replace("\n", " ").count(topic) == 2, topic  # two copies of the card


# --- the command line ---


def test_cli_builds_each_material(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(
        cli,
        [
            "build",
            "aiue-board",
            "aiue-cards",
            "aiue-record",
            "--paper",
            "letter",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    for name in ("aiue-board", "aiue-cards", "aiue-record"):
        assert (tmp_path / f"{name}-letter.pdf").stat().st_size > 1000
    listing = runner.invoke(cli, ["list"]).output
    assert "aiue-cards" in listing and "40 fold-to-stand" in listing


def test_cli_layout_json(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["layout", "aiue-battle", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["paper"] == "letter" and len(data["cards"]["sheet"]["slots"]) == 8
    assert len(data["board"]["kana"]["cells"]) == len(KANA_BOARD)
    unknown = runner.invoke(cli, ["layout", "aiue-battle", "--layout", "nope"])
    assert unknown.exit_code == 1 and "unknown aiue battle layout 'nope'" in unknown.output


@pytest.mark.parametrize("name", ["aiue-board", "aiue-cards", "aiue-record"])
def test_only_shipped_fonts_embedded_as_subsets(pdfs, name: str) -> None:  # type: ignore[no-untyped-def]
    fonts = embedded_fonts(pdfs[(name, Paper.A4)])
    assert fonts and all(fonts.values()), fonts
    assert all(font[7] == "+" and ("DejaVu" in font or "IPAex" in font) for font in fonts)


def test_patterns_cover_the_whole_back_and_face_band(pdfs) -> None:  # type: ignore[no-untyped-def]
    # Told apart without hue: each colour's pattern must show across the back and at both ends
    # of the face's name band, not only where the drawing happened to start.
    dpi = 60
    pdf = pdfs[("aiue-cards", Paper.A4)]
    slot = geo.card_sheet(LAYOUT, Paper.A4).slots[5]
    height_mm = Paper.A4.size.height_mm
    band = LAYOUT.cards.name_band

    def spread(x1: float, y1: float, x2: float, y2: float, image: np.ndarray) -> float:
        rows = slice(int((height_mm - y2) / 25.4 * dpi), int((height_mm - y1) / 25.4 * dpi))
        cols = slice(int(x1 / 25.4 * dpi), int(x2 / 25.4 * dpi))
        return float(image[rows, cols].astype(float).std(axis=(0, 1)).max())  # per channel

    for page, colour in enumerate(LAYOUT.cards.colours):
        image = render_page(pdf, page, dpi)
        back, face = slot.back, slot.face
        # Kept 1.5 mm clear of the cut and fold lines, and of the label in the band's middle.
        areas = {
            "back, far corner": (back.right - 11, back.top - 11, back.right - 1.5, back.top - 1.5),
            "back, near corner": (back.x + 1.5, back.y + 1.5, back.x + 11, back.y + 11),
            "band, left end": (face.x + 1.5, face.y + 1.5, face.x + 9, face.y + band - 1.5),
            "band, right end": (
                face.right - 9,
                face.y + 1.5,
                face.right - 1.5,
                face.y + band - 1.5,
            ),
        }
        for where, (x1, y1, x2, y2) in areas.items():
            assert spread(x1, y1, x2, y2, image) > 10, f"{colour.name}: no pattern at {where}"


# --- what every aiue sheet carries, and type by role ---


@pytest.mark.parametrize("name", ["aiue-board", "aiue-cards", "aiue-record"])
def test_every_page_has_the_sheet_footer(pdfs, name: str) -> None:  # type: ignore[no-untyped-def]
    from printgen import __version__

    pdf = pdfs[(name, Paper.LETTER)]
    for index in range(page_count(pdf)):
        footer = [r for r in runs(pdf, index) if r.text.endswith(f"printgen {__version__}")]
        assert len(footer) == 1, f"{name} page {index + 1}"
        assert footer[0].text.startswith("aiue battle · ") and footer[0].size == 6.0
        # The rulebook names no designer, so the footer credits nobody (see docs/rulings.md).
        assert "©" not in footer[0].text


def test_both_board_sides_use_the_same_type_for_the_same_roles(pdfs) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-board", Paper.A4)]
    sides = [runs(pdf, 0), runs(pdf, 1)]

    def role(page_runs: list[TextRun], starts: str) -> set[tuple[str, float]]:
        # The Latin part of a line (the kana side sets its kana in IPAex at the same size).
        found = {
            (r.font.split("+")[1], r.size)
            for r in page_runs
            if starts in r.text and "printgen" not in r.text  # not the footer
        }
        assert found, starts
        return found

    assert (
        role(sides[0], "aiue battle")
        == role(sides[1], "aiue battle")
        == {("DejaVuSans-Bold", materials.TITLE_SIZE)}
    )
    assert role(sides[0], "Call a letter") == {("DejaVuSans", materials.HINT_SIZE)}
    assert role(sides[1], "strike each") == {("DejaVuSans", materials.HINT_SIZE)}
    assert role(sides[0], "called: struck") == role(sides[1], "called: struck")
    kana_hint = [r for r in sides[1] if r.text.startswith("呼んだ")]
    assert kana_hint and all(r.size == materials.HINT_SIZE for r in kana_hint)


def test_wrapped_topics_start_under_their_first_line(pdfs) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-record", Paper.A4)]
    page_runs = runs(pdf, 1)
    for card in geo.topic_cards(LAYOUT, Paper.A4):
        # The two columns of the topic list, between the intro and the reminder at the foot.
        listed = [
            r
            for r in page_runs
            if card.x < r.x_mm < card.right and card.y + 45 < r.y_mm < card.top - 29
        ]
        bullets = {round(r.x_mm, 1) for r in listed if r.text == "•"}
        texts = {round(r.x_mm, 1) for r in listed if r.text != "•"}
        assert len(bullets) == 2, bullets
        # First lines and wrapped lines of each column start at one x: two x's in all.
        assert len(texts) == 2, sorted(texts)
        assert any(r.text == "neighbourhood" for r in listed)  # a topic that wraps


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.value)
def test_each_round_cell_says_what_to_write(pdfs, paper: Paper) -> None:  # type: ignore[no-untyped-def]
    pdf = pdfs[("aiue-record", paper)]
    sheet = geo.record_sheet(LAYOUT, paper)
    page_runs = runs(pdf, 0)
    for column, (heading, hint) in zip(sheet.columns, materials.RECORD_COLUMNS, strict=True):
        if not hint:
            continue
        for row in sheet.rows:
            inside = [
                r
                for r in page_runs
                if r.text == hint and column.x < r.x_mm < column.right and row.y < r.y_mm < row.top
            ]
            assert len(inside) == 1, (heading, row)
    date = [r for r in page_runs if r.text == "Date"]
    assert len(date) == 1 and date[0].x_mm < sheet.date.x
