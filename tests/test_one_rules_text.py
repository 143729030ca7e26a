"""ONE's rules-text source, seeds/one.md: it parses, it states the rulings the engine plays by,
and it is written in the project's own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from printgen.games.one.layout import load_layout
from printgen.paths import SEEDS_DIR
from printgen.rules_text import load_rules

SOURCE = SEEDS_DIR / "one.md"
RULEBOOK = Path("/work/shared/seeds/002_3b803bd6289ce504.txt")


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


@pytest.mark.skipif(not RULEBOOK.is_file(), reason="the source rulebook is not on this machine")
def test_no_sentence_is_copied_from_the_rulebook() -> None:
    ours = " ".join(SOURCE.read_text(encoding="utf-8").lower().split())
    for line in RULEBOOK.read_text(encoding="utf-8").splitlines():
        words = line.lower().split()
        # Any run of eight words in a row from the rulebook would be a pasted phrase.
        for start in range(len(words) - 7):
            phrase = " ".join(words[start : start + 8])
            assert phrase not in ours, f"copied from the rulebook: {phrase!r}"
