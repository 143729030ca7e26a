"""Flowing a story through boxes (printgen.render.flow): what one flow measured, later flows of
the same story reuse, and that changes nothing about where any text goes."""

from __future__ import annotations

import pytest

from printgen.accordion import CardRequest, FoldScheme, card_markup, card_story, load_card_layout
from printgen.paths import SEEDS_DIR
from printgen.render.flow import Flowed, Measures, balanced, flow, flowable_text
from printgen.render.platypus import Paragraph
from printgen.render.units import Box
from printgen.rules_text import load_rules

Layout = tuple[tuple[Box, ...], list[Paragraph]]


def war_card(scheme: FoldScheme, size: float) -> Layout:
    """The War card's panels and its text at `size` points."""
    layout = load_card_layout(CardRequest(), scheme)
    root = card_markup(load_rules(SEEDS_DIR / "war.md"))
    return layout.geometry.text_boxes(), card_story(root, layout.text, size, "war.md")


def where(flowed: Flowed) -> list[tuple[int, float, float, str]]:
    """Where every piece of text went, and what it says."""
    return [
        (p.box, round(p.top, 6), round(p.height, 6), flowable_text(p.flowable))
        for p in flowed.placed
    ] + [(-1, 0.0, round(flowed.left_over_height, 6), flowable_text(f)) for f in flowed.left_over]


@pytest.mark.parametrize(
    ("scheme", "size"), [(FoldScheme.ACCORDION, 8.0), (FoldScheme.DOUBLE, 7.0)], ids=str
)
def test_shared_measures_flow_exactly_as_fresh_ones(scheme: FoldScheme, size: float) -> None:
    """Fills up and down and back, through one Measures: each flow is the one a fresh flow
    makes, split for split, so a split kept for one room is only reused where it holds."""
    boxes, story = war_card(scheme, size)
    deepest = max(box.height for box in boxes)
    fills = [deepest * k / 40 for k in range(8, 41)]
    fills += fills[::-1] + fills[::3] + [f + 0.3 for f in fills[::2]]
    shared = Measures()
    for fill in fills:
        _, fresh_story = war_card(scheme, size)
        expected = where(flow(fresh_story, boxes, fill=fill))
        assert where(flow(story, boxes, fill=fill, measures=shared)) == expected, fill


def test_unsplit_flows_keep_every_paragraph_whole() -> None:
    boxes, story = war_card(FoldScheme.ACCORDION, 8.0)
    measures = Measures()
    for fill in (150.0, 200.0, 120.0, 230.0):
        flowed = flow(story, boxes, fill=fill, split=False, measures=measures)
        assert {id(p.flowable) for p in flowed.placed} <= {id(item) for item in story}
        fresh = flow(war_card(FoldScheme.ACCORDION, 8.0)[1], boxes, fill=fill, split=False)
        assert where(flowed) == where(fresh)


def test_balanced_is_the_shallowest_fill_that_takes_the_story() -> None:
    """Against a plain search: every fill from the full flow's depth down, a quarter point at a
    time, each flowed fresh. The balanced flow is no deeper than the shallowest that fits."""
    boxes, story = war_card(FoldScheme.ACCORDION, 8.0)
    result = balanced(story, boxes)
    assert result.fits
    reached = max(result.depth(i) for i in range(len(boxes)))
    full = flow(war_card(FoldScheme.ACCORDION, 8.0)[1], boxes)
    fill = max(full.depth(i) for i in range(len(boxes)))
    shallowest = fill
    while fill > 0 and flow(war_card(FoldScheme.ACCORDION, 8.0)[1], boxes, fill=fill).fits:
        shallowest = fill
        fill -= 0.25
    assert reached <= shallowest + 0.25
    # Reusing the full flow's measures makes the same card.
    again = balanced(story, boxes, full=flow(story, boxes))
    assert where(again) == where(result)
