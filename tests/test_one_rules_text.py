"""ONE's rules-text source, seeds/one.md: it parses, it states the rulings the engine plays by,
and it is written in the project's own words."""

from __future__ import annotations

import re

from printgen.games.one.layout import load_layout
from printgen.paths import SEEDS_DIR
from printgen.rules_text import load_rules

SOURCE = SEEDS_DIR / "one.md"


def test_the_source_parses_into_sections() -> None:
    rules = load_rules(SOURCE)
    assert rules.title == "ONE"
    titles = [s.title for s in rules.sections]
    for wanted in ("The board", "Capturing", "The end"):
        assert wanted in titles


def test_the_source_gives_the_layouts_stones_per_player() -> None:
    text = " ".join(b.text for s in load_rules(SOURCE).sections for b in s.blocks)
    stated = {int(n): int(s) for s, n in re.findall(r"(\d+) (?:with|for) (\d)", text)}
    stated.update({int(n): int(s) for s, n in re.findall(r"(\d+) stones with (\d)", text)})
    assert stated == dict(load_layout().stones_per_player)
