"""The rules-text sources in seeds/ are written in the project's own words: no run of six words
in a row is taken from the source rulebook (in ../shared/seeds/, beside the checkout)."""

from __future__ import annotations

import re

import pytest

from printgen.paths import ROOT, SEEDS_DIR

RULEBOOKS = ROOT.parent / "shared" / "seeds"
# Each source beside the rulebook it was written from (see ../shared/seeds/README.md).
SOURCES = {
    "one-page-war.md": "000_",
    "war.md": "001_",
    "one.md": "002_",
    "package-war.md": "003_",
    "aiue-battle.md": "004_",
}
RUN = 6


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def runs(tokens: list[str]) -> list[tuple[str, ...]]:
    return [tuple(tokens[i : i + RUN]) for i in range(len(tokens) - RUN + 1)]


def arithmetic(run: tuple[str, ...]) -> bool:
    # "1 + 2 + 3 + 4 = 10 points" is a fact of the game, not a phrase.
    return sum(word.isdigit() for word in run) >= 3


@pytest.mark.parametrize("source", SOURCES, ids=str)
def test_no_six_words_in_a_row_come_from_the_rulebook(source: str) -> None:
    found = sorted(RULEBOOKS.glob(f"{SOURCES[source]}*.txt"))
    if not found:
        pytest.skip(f"the source rulebooks are not at {RULEBOOKS} on this machine")
    theirs = set(runs(words(found[0].read_text(encoding="utf-8"))))
    ours = runs(words((SEEDS_DIR / source).read_text(encoding="utf-8")))
    copied = [" ".join(run) for run in ours if run in theirs and not arithmetic(run)]
    assert copied == [], f"{source} repeats the rulebook's words"


def test_every_source_is_checked() -> None:
    assert set(SOURCES) == {p.name for p in SEEDS_DIR.glob("*.md")}
