"""The rules cards: time to build each game's card in-process, and the slow cases a rules
source can make, which must stay fast (issue 19: one long paragraph once took minutes).

    .venv/bin/python bench/bench_cards.py [--runs 5]

Prints the median wall-clock time over the runs, and for each the result (the scheme and size a
card took, or the first words of the error), so a figure is never quoted for the wrong outcome.
Fonts are registered and the layout read before timing starts: a fresh process pays about
0.5 s more to import and register them (bench/bench_build.py times whole processes).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from timing import median_seconds

from printgen.accordion import CardRequest, FoldScheme, plan_card, render_card
from printgen.errors import FitError
from printgen.paths import SEEDS_DIR
from printgen.render.units import Paper
from printgen.rules_text import RulesText, load_rules, parse_rules

CARDS = ("war", "one", "package-war", "aiue-battle", "one-page-war")
WORDS = "the player rolls a die and writes the number in any square of an arena on their side"


def paragraph(kilobytes: int, seed: int = 1) -> RulesText:
    """One section holding one paragraph of about `kilobytes` KB of words."""
    rng = random.Random(seed)
    words = WORDS.split()
    body = " ".join(rng.choice(words) for _ in range(kilobytes * 1024 // 5))
    return parse_rules(f'+++\ntitle = "Long"\n+++\n## One\n\n{body}\n', f"{kilobytes} KB paragraph")


def outcome(rules: RulesText, request: CardRequest) -> str:
    try:
        plan = plan_card(rules, request)
    except FitError as error:
        return "FitError: " + str(error).split(": ", 2)[-1][:70]
    g = plan.layout.geometry
    return f"{g.describe()} at {plan.body_size:g} pt"


def attempt(rules: RulesText, request: CardRequest) -> Callable[[], object]:
    def run() -> object:
        try:
            return render_card(rules, request)
        except FitError:
            return None

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    cases: list[tuple[str, RulesText, CardRequest]] = []
    for name in CARDS:
        cases.append((f"{name} card, A4", load_rules(SEEDS_DIR / f"{name}.md"), CardRequest()))
    war = load_rules(SEEDS_DIR / "war.md")
    cases.append(("war card, A4, large print", war, CardRequest(large_print=True)))
    opw = load_rules(SEEDS_DIR / "one-page-war.md")
    cases.append(
        ("one-page-war, --fold accordion (advice)", opw, CardRequest(fold=FoldScheme.ACCORDION))
    )
    cases.append(("one-page-war, large print (advice)", opw, CardRequest(large_print=True)))
    for kilobytes, paper in ((8, Paper.A4), (12, Paper.A3), (16, Paper.A4), (62, Paper.A4)):
        cases.append(
            (
                f"one {kilobytes} KB paragraph, {paper.label}",
                paragraph(kilobytes),
                CardRequest(paper),
            )
        )
    attempt(war, CardRequest())()  # fonts, layout and template loaded before timing
    print(f"median of {runs} runs, in-process")
    for label, rules, request in cases:
        seconds = median_seconds(attempt(rules, request), runs)
        print(f"{label:<44} {seconds * 1000:7.0f} ms  {outcome(rules, request)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
