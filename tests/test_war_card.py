"""The War rules card: page, marks, text, fonts and margins, read back from the built PDF."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from printgen.accordion import CardGeometry, build_card, load_card_layout
from printgen.cli import cli
from printgen.errors import FitError, InputError, MissingGlyphError
from printgen.materials import BuildOptions
from printgen.paths import SEEDS_DIR
from printgen.render.fonts import register_fonts
from printgen.render.readback import (
    embedded_fonts,
    page_count,
    page_size_mm,
    page_text,
    render_page,
    segments,
    text_runs,
)
from printgen.render.units import Paper

WAR = SEEDS_DIR / "war.md"
PAPERS = [(Paper.A4, 297.0, 210.0), (Paper.LETTER, 279.4, 215.9)]
# The PDF names a subset font like AAAAAA+DejaVuSansCondensed; printgen registers it by face name.
FACES = {
    "DejaVuSans": "PG-Sans",
    "DejaVuSans-Bold": "PG-Sans-Bold",
    "DejaVuSansCondensed": "PG-Cond",
    "DejaVuSansCondensed-Bold": "PG-Cond-Bold",
}


def card(paper: Paper, **kw: object) -> bytes:
    return build_card(BuildOptions(paper=paper, **kw), WAR)  # type: ignore[arg-type]


@pytest.fixture(scope="module", params=PAPERS, ids=["a4", "letter"])
def built(request: pytest.FixtureRequest) -> tuple[Paper, float, float, bytes]:
    paper, width, height = request.param
    return paper, width, height, card(paper)


def geometry(paper: Paper) -> CardGeometry:
    return load_card_layout(paper, None, False).geometry


def run_width_mm(run) -> float:  # type: ignore[no-untyped-def]
    register_fonts()
    face = FACES[run.font.split("+")[-1]]
    return stringWidth(run.text.rstrip("\n"), face, run.size) * 25.4 / 72


def test_one_landscape_page_of_exact_size(built) -> None:  # type: ignore[no-untyped-def]
    _paper, width, height, pdf = built
    assert page_count(pdf) == 1
    w, h = page_size_mm(pdf)
    assert w == pytest.approx(width, abs=0.01) and h == pytest.approx(height, abs=0.01)


def test_fold_and_tear_marks_are_exactly_placed(built) -> None:  # type: ignore[no-untyped-def]
    paper, _width, height, pdf = built
    dashed = [s for s in segments(pdf) if s.dashed]
    vertical = sorted(s.x1_mm for s in dashed if abs(s.x1_mm - s.x2_mm) < 1e-6)
    horizontal = [s for s in dashed if abs(s.y1_mm - s.y2_mm) < 1e-6]
    # Three FOLD lines between the 63.5 mm panels and the FOLD & TEAR line on the right edge.
    assert vertical == pytest.approx([63.5, 127.0, 190.5, 254.0], abs=0.2)
    # The FOLD & TEAR line along the bottom edge of the 88.9 mm tall card.
    assert [s.y1_mm for s in horizontal] == pytest.approx([height - 88.9], abs=0.2)
    card_bottom = height - 88.9
    for s in dashed:
        # Each mark runs out onto the spare paper below (or beside) the card.
        assert min(s.y1_mm, s.y2_mm) < card_bottom + 0.2
    assert max(max(s.x1_mm, s.x2_mm) for s in horizontal) > 254.0 + 5


def test_marks_are_labelled(built) -> None:  # type: ignore[no-untyped-def]
    pdf = built[3]
    texts = [r.text.strip() for r in text_runs(pdf)]
    assert texts.count("▲ FOLD ▼") == 3
    assert texts.count("FOLD & TEAR") == 2


def test_every_section_and_glossary_word_is_printed(built) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(page_text(built[3]).split())
    for heading in [
        "THE IDEA",
        "THE DEAL",
        "A BATTLE",
        "A WAR",
        "THE END",
        "WORDS THIS GAME USES",
        "WHERE THESE CAME FROM",
    ]:
        assert heading in text
    for word in ["Battle:", "War:", "Won pile:", "Face down:", "The cap:"]:
        assert word in text
    for fact in ["Short game", "Full game", "500", "Pagat.com", "w.richardpringle.com/games/war/"]:
        assert fact in text


def test_fonts_are_embedded_subsets_and_never_helvetica(built) -> None:  # type: ignore[no-untyped-def]
    fonts = embedded_fonts(built[3])
    assert fonts and all(fonts.values()), fonts
    assert all("+" in name for name in fonts), "fonts are embedded as subsets"
    assert not any("Helvetica" in name for name in fonts)


def test_nothing_printed_within_5mm_of_top_and_left(built) -> None:  # type: ignore[no-untyped-def]
    pdf = built[3]
    dpi = 150
    image = render_page(pdf, 0, dpi)
    edge = int(5.0 / 25.4 * dpi)
    assert image[:edge, :, :].min() == 255, "ink within 5 mm of the top edge"
    assert image[:, :edge, :].min() == 255, "ink within 5 mm of the left edge"
    assert image[edge : edge + 200, edge:].min() < 128, "the card's text starts near the corner"


def test_text_stays_inside_its_panel_and_off_the_fold_lines(built) -> None:  # type: ignore[no-untyped-def]
    paper, _w, height, pdf = built
    g = geometry(paper)
    card_bottom = height - g.panel_height
    edges = [0.0, *g.fold_xs(), g.width]
    checked = 0
    for run in text_runs(pdf):
        if run.y_mm < card_bottom or "FOLD" in run.text:
            continue
        left, right = run.x_mm, run.x_mm + run_width_mm(run)
        panel = max(i for i, x in enumerate(edges[:-1]) if x <= left + 1e-6)
        assert right <= edges[panel + 1] - 1.0, (
            f"{run.text!r} crosses the line at {edges[panel + 1]}"
        )
        checked += 1
    assert checked > 40


def test_a_heading_never_ends_a_panel(built) -> None:  # type: ignore[no-untyped-def]
    paper, _w, height, pdf = built
    g = geometry(paper)
    on_card = [r for r in text_runs(pdf) if r.y_mm > height - g.panel_height and r.x_mm < g.width]
    body = min(r.size for r in on_card)
    lowest: dict[int, object] = {}
    for run in on_card:
        panel = int(run.x_mm // g.panel_width)
        if panel not in lowest or run.y_mm < lowest[panel].y_mm:  # type: ignore[attr-defined]
            lowest[panel] = run
    assert len(lowest) == 4
    for panel, run in lowest.items():
        assert run.size <= body + 0.01, f"panel {panel + 1} ends with a heading"  # type: ignore[attr-defined]


def test_body_text_at_least_7pt_and_large_print_at_least_11pt() -> None:
    for large, floor in [(False, 7.0), (True, 11.0)]:
        pdf = card(Paper.A4, large_print=large)
        g = load_card_layout(Paper.A4, None, large).geometry
        sizes = [
            r.size for r in text_runs(pdf) if r.y_mm > 210.0 - g.panel_height and r.x_mm < g.width
        ]
        assert min(sizes) >= floor
    assert load_card_layout(Paper.A4, None, True).geometry.panel_height > 88.9


def test_print_settings_and_metadata(built) -> None:  # type: ignore[no-untyped-def]
    reader = PdfReader(io.BytesIO(built[3]))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    meta = reader.metadata
    assert meta is not None
    assert meta.title == "War: rules card"
    assert "accordion" in (meta.subject or "")
    assert (meta.creator or "").startswith("printgen")


def test_builds_are_byte_identical() -> None:
    assert card(Paper.A4) == card(Paper.A4)
    assert card(Paper.A4) != card(Paper.LETTER)


def test_the_card_has_a_50mm_scale_bar(built) -> None:  # type: ignore[no-untyped-def]
    solid = [s for s in segments(built[3]) if not s.dashed and abs(s.y1_mm - s.y2_mm) < 1e-6]
    assert any(abs(abs(s.x2_mm - s.x1_mm) - 50.0) < 0.05 for s in solid)
    assert "50 mm" in page_text(built[3])


def write_source(tmp_path: Path, body: str, title: str = "Test game") -> Path:
    path = tmp_path / "rules.md"
    path.write_text(f'+++\ntitle = "{title}"\n+++\n\n{body}\n', encoding="utf-8")
    return path


def test_markup_characters_in_the_rules_print_as_themselves(tmp_path: Path) -> None:
    source = write_source(tmp_path, "## Odd signs\n\n- Cards < 5 & > 2 are low; <b>not bold</b>.")
    text = page_text(build_card(BuildOptions(rules=source)))
    assert "Cards < 5 & > 2 are low; <b>not bold</b>." in " ".join(text.split())


def test_a_source_too_long_names_the_panel_and_the_overflow(tmp_path: Path) -> None:
    long_rules = "\n".join(f"## Part {i}\n\n- " + "word " * 120 for i in range(12))
    source = write_source(tmp_path, long_rules)
    with pytest.raises(FitError, match=r"after panel 4 .*\d+\.\d mm|\d+\.\d mm of text .* panel 4"):
        build_card(BuildOptions(rules=source))


def test_a_character_no_shipped_font_has_is_named(tmp_path: Path) -> None:
    source = write_source(tmp_path, "## Music\n\n- The clef 𝄞 is in no shipped font.")
    with pytest.raises(MissingGlyphError, match=r"U\+1D11E MUSICAL SYMBOL G CLEF"):
        build_card(BuildOptions(rules=source))


def test_kana_in_a_rules_source_prints_in_the_kana_face(tmp_path: Path) -> None:
    source = write_source(tmp_path, "## Kana\n\n- The word **あいうえお** means vowels.")
    pdf = build_card(BuildOptions(rules=source))
    kana = [r for r in text_runs(pdf) if "あいうえお" in r.text]
    assert kana and all("IPAexGothic" in r.font for r in kana)
    assert "means vowels" in " ".join(page_text(pdf).split())


def test_a_source_without_a_title_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "untitled.md"
    path.write_text('+++\nplayers = "2"\n+++\n## A\n- b\n', encoding="utf-8")
    with pytest.raises(InputError, match="title"):
        build_card(BuildOptions(rules=path))
    path.write_text("## A\n- no front matter\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1"):
        build_card(BuildOptions(rules=path))


def test_generic_card_with_other_panel_counts(tmp_path: Path) -> None:
    pdf = build_card(BuildOptions(rules=WAR, panels=3, large_print=False, paper=Paper.A4))
    dashed = [s for s in segments(pdf) if s.dashed and abs(s.x1_mm - s.x2_mm) < 1e-6]
    assert sorted(s.x1_mm for s in dashed) == pytest.approx([63.5, 127.0, 190.5], abs=0.2)
    # More panels than fit at 63.5 mm share the sheet's width, down to 40 mm each.
    five = build_card(BuildOptions(rules=WAR, panels=5, paper=Paper.LETTER))
    folds = sorted(s.x1_mm for s in segments(five) if s.dashed and abs(s.x1_mm - s.x2_mm) < 1e-6)
    step = (279.4 - 10.0) / 5
    assert folds == pytest.approx([step * k for k in range(1, 6)], abs=0.2)
    with pytest.raises(InputError, match="8 panels would each be 35.9 mm wide"):
        build_card(BuildOptions(rules=WAR, panels=8))
    with pytest.raises(InputError, match="--panels must be 1 or more"):
        build_card(BuildOptions(rules=WAR, panels=0))


def test_cli_builds_and_lists(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["build", "war-card", "--paper", "letter", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "war-card-letter.pdf").is_file()
    listing = runner.invoke(cli, ["list"])
    assert "war-card" in listing.output and "card" in listing.output
    generic = runner.invoke(
        cli, ["build", "card", "--rules", str(WAR), "--panels", "4", "--out", str(tmp_path)]
    )
    assert generic.exit_code == 0, generic.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build", "war-card", "--paper", "a5"], "a5"),
        (["build", "no-such-thing"], "known: "),
        (["build", "card", "--rules", "missing.md"], "does not exist"),
        (["build", "war-card", "--copies", "3"], "does not take --copies"),
        (["build", "card", "--rules", "README.md"], "front matter"),
    ],
)
def test_cli_bad_input_is_a_clear_error_and_writes_nothing(  # type: ignore[no-untyped-def]
    runner, tmp_path: Path, args: list[str], message: str
) -> None:
    result = runner.invoke(cli, [*args, "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert message in result.output
    assert list(tmp_path.iterdir()) == []


def test_cli_overflow_leaves_no_partial_pdf(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    source = write_source(tmp_path, "\n".join("## P\n\n- " + "word " * 200 for _ in range(10)))
    out = tmp_path / "out"
    result = runner.invoke(cli, ["build", "card", "--rules", str(source), "--out", str(out)])
    assert result.exit_code == 1
    assert "do not fit" in result.output
    assert not out.exists() or list(out.iterdir()) == []


def test_rendered_marks_are_dark_enough_to_see() -> None:
    image = render_page(card(Paper.A4), 0, 150)
    x = int(round(63.5 / 25.4 * 150))
    column = image[int(20 / 25.4 * 150) : int(80 / 25.4 * 150), x - 1 : x + 2].min(axis=(1, 2))
    assert np.count_nonzero(column < 100) > 40, "the FOLD line prints dark, not pale grey"
    assert np.count_nonzero(column > 200) > 10, "and dashed"
