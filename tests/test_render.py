"""The shared rendering layer: paper, glyph checks, text fitting and atomic writes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from reportlab.lib.styles import ParagraphStyle

from printgen.errors import FitError, MissingGlyphError
from printgen.files import write_atomic
from printgen.render.fonts import BODY, KANA, check_glyphs, missing_characters
from printgen.render.marks import scale_bar, sheet_footer
from printgen.render.pdf import PdfMeta, new_canvas
from printgen.render.readback import embedded_fonts, page_size_mm, segments, text_runs
from printgen.render.text import Anchor, Box, draw_in_box, draw_text, fit_size, paragraph
from printgen.render.units import Paper, mm, to_mm


def test_paper_sizes_are_exact_and_parse() -> None:
    assert Paper.A4.size.landscape().width_mm == 297.0
    assert Paper.LETTER.size.points == pytest.approx((612.0, 792.0))
    assert Paper.from_text(" Letter ") is Paper.LETTER
    with pytest.raises(ValueError, match="unknown paper 'a5'.*a4, letter, a3"):
        Paper.from_text("a5")
    assert to_mm(mm(63.5)) == pytest.approx(63.5)


def test_glyph_check_names_the_character_and_where() -> None:
    assert missing_characters("FOLD ▲▼ & tear", BODY) == []
    with pytest.raises(MissingGlyphError, match=r"title: .*'あ' \(U\+3042 HIRAGANA LETTER A\)"):
        check_glyphs("aあ", BODY, "title")
    check_glyphs("あいうえお", KANA.name, "kana board")


def test_fit_size_shrinks_then_fails_with_sizes_in_mm() -> None:
    wide = "A very long line of text"
    size = fit_size(wide, BODY, 12, mm(40), "label", min_size=6)
    assert 6 <= size < 12
    with pytest.raises(FitError, match=r"label: 'A very long line of text' is \d+\.\d mm wide"):
        fit_size(wide, BODY, 12, mm(10), "label", min_size=8)


def test_draw_text_and_paragraph_box_errors() -> None:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, Paper.A4.size, PdfMeta("t", "s"))
    used = draw_text(canvas, "Hello", mm(20), mm(20), BODY, 10, where="x", anchor=Anchor.CENTRE)
    assert used == 10
    style = ParagraphStyle("p", fontName=BODY, fontSize=10, leading=12)
    long = paragraph("word " * 200, style, "notes")
    with pytest.raises(FitError, match=r"notes: .*mm did not fit"):
        draw_in_box(canvas, long, Box(mm(10), mm(10), mm(50), mm(20)), "notes")
    canvas.showPage()
    canvas.save()
    pdf = buffer.getvalue()
    assert page_size_mm(pdf) == pytest.approx((210.0, 297.0))
    assert [r.text.strip() for r in text_runs(pdf)] == ["Hello"]
    assert all(embedded_fonts(pdf).values())


def test_write_atomic_replaces_and_never_leaves_half_files(tmp_path: Path) -> None:
    target = tmp_path / "out" / "a.pdf"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert target.stat().st_mode & 0o044 == 0o044, "others can read a built file"

    with pytest.raises(TypeError):
        write_atomic(target, None)  # type: ignore[arg-type]
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["a.pdf"]


def test_a_script_no_shipped_font_covers_is_named_as_such() -> None:
    with pytest.raises(MissingGlyphError, match=r"bullet: no font printgen ships covers Hangul"):
        check_glyphs("a 한", "PG-Cond", "bullet")
    with pytest.raises(MissingGlyphError, match=r"covers symbols and emoji: .*TROPHY"):
        check_glyphs("🏆", BODY, "x")
    # A glyph another shipped face has is the chosen face's fault, and says so.
    with pytest.raises(MissingGlyphError, match=r"the font PG-Sans \(DejaVuSans.ttf\) has no"):
        check_glyphs("あ", BODY, "x")


def test_the_footer_sets_a_japanese_name_in_the_kana_face() -> None:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, Paper.A4.size, PdfMeta("t", "s"))
    sheet_footer(canvas, mm(100), mm(10), "ねこ", "rules card", max_width=mm(150))
    canvas.showPage()
    canvas.save()
    runs = text_runs(buffer.getvalue())
    assert any(r.text.startswith("ねこ") and "IPAexGothic" in r.font for r in runs)
    assert any("rules card" in r.text for r in runs)


def test_the_scale_bar_keeps_its_whole_stroke_right_of_x() -> None:
    import pypdfium2 as pdfium

    buffer = io.BytesIO()
    canvas = new_canvas(buffer, Paper.A4.size, PdfMeta("t", "s"))
    scale_bar(canvas, mm(6.0), mm(11.0))
    canvas.showPage()
    canvas.save()
    page = pdfium.PdfDocument(buffer.getvalue())[0]
    lefts = [to_mm(o.get_bounds()[0]) for o in page.get_objects() if o.type == 2]
    assert min(lefts) >= 6.0 - 1e-4
    ends = [s.x1_mm for s in segments(buffer.getvalue()) if s.x1_mm == s.x2_mm]
    assert max(ends) - min(ends) == pytest.approx(50.0), "still exactly 50 mm"
