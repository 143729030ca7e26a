"""aiue battle rules-text source: parses, carries the topic list, and is in the project's words."""

from __future__ import annotations

import re

from printgen.games.aiue_battle.materials import SEED, load_topics
from printgen.rules_text import load_rules


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
