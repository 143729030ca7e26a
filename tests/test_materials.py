"""Print truths that hold for every material printgen builds, on every paper it offers:
fonts embedded as subsets (never Helvetica), page sizes exact, no ink near the sheet's edges,
the PDF asks not to be scaled, and the same inputs give the same bytes."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from printgen.games import standalone_materials
from printgen.materials import BuildOptions
from printgen.render.readback import embedded_fonts, page_count, page_size_mm, render_page

DPI = 40
# The rules cards' design puts the card in the sheet's top-left corner, printed to within 5 mm.
EDGE_MM = {"war-card": 5.0}
CASES = [(material, paper) for material in standalone_materials() for paper in material.papers]


@pytest.fixture(scope="module")
def built() -> dict[tuple[str, str], bytes]:
    return {}


def build(material, paper, cache) -> bytes:  # type: ignore[no-untyped-def]
    key = (material.name, paper.value)
    if key not in cache:
        cache[key] = material.build(BuildOptions(paper=paper), None)
    return cache[key]


@pytest.mark.parametrize(
    ("material", "paper"), CASES, ids=[f"{m.name}-{p.value}" for m, p in CASES]
)
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
