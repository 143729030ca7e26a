"""aiue battle rules-text source: parses, carries the topic list, and is in the project's words."""

from __future__ import annotations

import re

import pytest

from printgen.games.aiue_battle.materials import SEED, load_topics
from printgen.paths import ROOT
from printgen.rules_text import load_rules

RULEBOOK = ROOT.parent / "shared" / "seeds" / "004_fe8c31aaa3ba3f1b.txt"


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def test_the_source_parses_with_its_sections() -> None:
    rules = load_rules(SEED)
    assert rules.title == "aiue battle" and rules.players == "2 to 5 players"
    for title in ("Attacking", "Out, and the winner", "Japanese words on the kana side"):
        assert rules.section(title).blocks


def test_the_topic_list_has_all_thirty_ideas() -> None:
    topics = load_topics()
    assert len(topics) == len(set(topics)) == 30


def test_no_five_words_in_a_row_come_from_the_rulebook() -> None:
    if not RULEBOOK.is_file():  # shared/ sits beside the checkout on developer machines and CI
        pytest.skip(f"rulebook not found at {RULEBOOK}")
    book = words(RULEBOOK.read_text(encoding="utf-8"))
    ours = words(SEED.read_text(encoding="utf-8"))
    n = 5
    shingles = {tuple(book[i : i + n]) for i in range(len(book) - n + 1)}
    copied = [
        " ".join(ours[i : i + n])
        for i in range(len(ours) - n + 1)
        if tuple(ours[i : i + n]) in shingles
    ]
    assert copied == []
