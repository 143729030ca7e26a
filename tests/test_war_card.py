"""The War rules card in particular: its labels and words, the figure it states, fonts, print
settings and the command line. What every game's card shares (marks, folds, margins, reading
order, sizes) is checked in tests/test_cards.py."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader

from printgen.accordion import CardRequest, FoldScheme, build_card, plan_card
from printgen.cli import cli
from printgen.errors import InputError, MissingGlyphError
from printgen.materials import BuildOptions
from printgen.paths import ROOT, SEEDS_DIR
from printgen.render.readback import embedded_fonts, page_text, render_page, segments, text_runs
from printgen.render.units import Paper
from printgen.rules_text import load_rules

WAR = SEEDS_DIR / "war.md"


def card(paper: Paper = Paper.A4, **kw: object) -> bytes:
    return build_card(BuildOptions(paper=paper, rules=WAR, **kw))  # type: ignore[arg-type]


@pytest.fixture(scope="module", params=[Paper.A4, Paper.LETTER], ids=["a4", "letter"])
def built(request: pytest.FixtureRequest) -> bytes:
    return card(request.param)


def test_the_war_card_is_the_4_panel_accordion_at_8pt() -> None:
    for paper in (Paper.A4, Paper.LETTER):
        plan = plan_card(load_rules(WAR), CardRequest(paper))
        assert plan.layout.geometry.scheme is FoldScheme.ACCORDION
        assert plan.layout.geometry.panels == 4
        assert plan.body_size == 8.0


def test_marks_are_labelled_with_their_order_and_direction(built: bytes) -> None:
    texts = [r.text.strip() for r in text_runs(built)]
    assert [t for t in texts if t.startswith("▲ FOLD")] == [
        "▲ FOLD 1 · MOUNTAIN",
        "▲ FOLD 2 · VALLEY",
        "▲ FOLD 3 · MOUNTAIN",
    ]
    assert texts.count("FOLD & TEAR") == 2


def test_every_section_and_glossary_word_is_printed(built: bytes) -> None:
    text = " ".join(page_text(built).split())
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


def test_the_card_says_what_was_measured_not_where_to_look(built: bytes) -> None:
    """A player holding the card has no docs folder: the card states the simulation's figures,
    and they are the ones docs/war-simulation.md reports."""
    text = " ".join(page_text(built).split())
    assert "docs/" not in text and ".md" not in text
    stated = re.search(
        r"About 1 Full game in (\d+) reaches the cap: .*? ([\d,]+) shuffled deals, "
        r"and ([\d,]+) of them",
        text,
    )
    assert stated is not None, text
    one_in, deals, capped = (int(g.replace(",", "")) for g in stated.groups())
    docs = (ROOT / "docs" / "war-simulation.md").read_text(encoding="utf-8")
    figure = re.search(
        r"1 Full game in (\d+) reaches the 500-battle cap: ([\d,]+) of ([\d,]+)", docs
    )
    assert figure is not None
    assert (one_in, capped, deals) == (
        int(figure.group(1)),
        int(figure.group(2).replace(",", "")),
        int(figure.group(3).replace(",", "")),
    )
    assert round(deals / capped) == one_in


def test_fonts_are_embedded_subsets_and_never_helvetica(built: bytes) -> None:
    fonts = embedded_fonts(built)
    assert fonts and all(fonts.values()), fonts
    assert all("+" in name for name in fonts), "fonts are embedded as subsets"
    assert not any("Helvetica" in name for name in fonts)


def test_print_settings_and_metadata(built: bytes) -> None:
    reader = PdfReader(io.BytesIO(built))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    meta = reader.metadata
    assert meta is not None
    assert meta.title == "War: rules card"
    assert "4-panel accordion" in (meta.subject or "")
    assert (meta.creator or "").startswith("printgen")


def test_builds_are_byte_identical() -> None:
    assert card(Paper.A4) == card(Paper.A4)
    assert card(Paper.A4) != card(Paper.LETTER)


def test_the_card_has_a_50mm_scale_bar(built: bytes) -> None:
    solid = [s for s in segments(built) if not s.dashed and abs(s.y1_mm - s.y2_mm) < 1e-6]
    assert any(abs(abs(s.x2_mm - s.x1_mm) - 50.0) < 0.05 for s in solid)
    assert "50 mm" in page_text(built)


def test_rendered_marks_are_dark_enough_to_see() -> None:
    image = render_page(card(Paper.A4), 0, 150)
    x = int(round(63.5 / 25.4 * 150))
    column = image[int(20 / 25.4 * 150) : int(80 / 25.4 * 150), x - 1 : x + 2].min(axis=(1, 2))
    assert np.count_nonzero(column < 100) > 40, "the FOLD line prints dark, not pale grey"
    assert np.count_nonzero(column > 200) > 10, "and broken, not solid"


def test_large_print_is_three_wide_tall_panels_at_11pt_or_more() -> None:
    plan = plan_card(load_rules(WAR), CardRequest(Paper.A4, large_print=True))
    g = plan.layout.geometry
    assert (g.scheme, g.panels, g.panel_width, g.panel_height) == (
        FoldScheme.ACCORDION,
        3,
        84.7,
        150.0,
    )
    assert plan.body_size >= 11.0


def write_source(tmp_path: Path, body: str, title: str = "Test game") -> Path:
    path = tmp_path / "rules.md"
    path.write_text(f'+++\ntitle = "{title}"\n+++\n\n{body}\n', encoding="utf-8")
    return path


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
    # A TOML error names the file's own line (the opening fence counts).
    path.write_text('+++\ntitle = "A"\nplayers = oops\n+++\n## A\n- b\n', encoding="utf-8")
    with pytest.raises(
        InputError, match=r"untitled.md, line 3, column 11: malformed front matter: Invalid value$"
    ):
        build_card(BuildOptions(rules=path))


def test_cli_builds_and_lists(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["build", "war-card", "--paper", "letter", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "war-card-letter.pdf").is_file()
    listing = runner.invoke(cli, ["list"]).output
    for name in ("card", "war-card", "one-page-war-card", "one-card", "package-war-card"):
        assert re.search(rf"^{name}\s", listing, re.MULTILINE), name
    assert re.search(r"^aiue-battle-card\s", listing, re.MULTILINE)
    generic = runner.invoke(
        cli,
        ["build", "card", "--rules", str(WAR), "--fold", "double", "--out", str(tmp_path)],
    )
    assert generic.exit_code == 0, generic.output
    assert "8-panel double fold" in page_text((tmp_path / "card-a4.pdf").read_bytes())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build", "war-card", "--paper", "a5"], "a5"),
        (["build", "no-such-thing"], "known: "),
        (["build", "card", "--rules", "missing.md"], "does not exist"),
        (["build", "war-card", "--copies", "3"], "does not take --copies"),
        (["build", "war-card", "--rules", str(WAR)], "does not take --rules"),
        (["build", "war-card", "--fold", "triple"], "triple"),
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
    assert "do not fit" in result.output and result.output.count("\n") == 1
    assert not out.exists() or list(out.iterdir()) == []
