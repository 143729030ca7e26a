"""One Page War referee: sheets scored per second over a batch of 10,000 finished sheets.

The batch is made once from a fixed seed (duels and solo games with stars and Allies), then
scored several times; prints the median rate for checking + scoring, for scoring alone, and for
the full report as JSON. Wall-clock, one process."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from printgen.games.one_page_war.layout import load_layout
from printgen.games.one_page_war.referee import score_game
from printgen.games.one_page_war.sheet import Sheet, TeamGame, parse_sheet

BATCH = 10_000
RUNS = 3
SEED = 4


def random_sheet(rng: random.Random) -> dict[str, Any]:
    layout = load_layout("standard")
    solo = rng.random() < 0.5
    players = ["Ann", "AI"] if solo else ["Ann", "Ben"]
    arenas: dict[str, Any] = {}
    for spec in layout.arenas:
        human = [rng.randint(1, 6) for _ in range(spec.squares)]
        other: list[int | str] = [
            rng.randint(2, 7) if solo else rng.randint(1, 6) for _ in range(spec.squares)
        ]
        arena: dict[str, Any] = {players[0]: human, players[1]: other}
        if solo and rng.random() < 0.4:
            other[rng.randrange(spec.squares)] = "*"
            arena["ticks"] = {"AI": 1}
        arenas[spec.name] = arena
    if not solo and rng.random() < 0.4:
        # Ann used Allies once (Politics' power) and wrote an S somewhere.
        arenas[rng.choice(layout.arena_names)]["allies"] = True
        arenas["Politics"]["ticks"] = {"Ann": 1}
    mode = "solo" if solo else "duel"
    return {"game": "one-page-war", "mode": mode, "players": players, "arenas": arenas}


def median_rate(action: Callable[[], object], count: int) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return count / statistics.median(times)


def main() -> None:
    rng = random.Random(SEED)
    batch = [random_sheet(rng) for _ in range(BATCH)]
    games: list[Sheet | TeamGame] = [parse_sheet(data) for data in batch]

    def check_and_score() -> None:
        for data in batch:
            score_game(parse_sheet(data))

    def score_only() -> None:
        for game in games:
            score_game(game)

    def score_to_json() -> None:
        for game in games:
            score_game(game).to_json()

    for label, action in (
        ("check + score", check_and_score),
        ("score only", score_only),
        ("score + JSON report", score_to_json),
    ):
        rate = median_rate(action, BATCH)
        print(f"{label}: median {rate:,.0f} sheets/s over {RUNS} runs of {BATCH:,} sheets")


if __name__ == "__main__":
    main()
