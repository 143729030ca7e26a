"""War: battles per second on one core, and 100,000 Full games with --jobs 2.

Prints medians over several runs. Battles per second is given twice: by wall clock, and by the
process's own CPU time, which is the figure for "one core" on a machine shared with others.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from printgen.games.war.engine import Deck, GameKind, play_deck
from printgen.games.war.fast import play_full, play_seed, play_short, shuffled_strengths
from printgen.games.war.simulate import simulate

RUNS = 7
GAMES_FAST = 3000  # about 550,000 battles of the Full game per run
GAMES_ENGINE = 300
RUNS_JOBS = 3
GAMES_JOBS = 100_000


def rate(play: Callable[[], int], runs: int = RUNS) -> tuple[float, float]:
    """Median battles per second by wall clock and by CPU time over `runs` runs of `play`,
    which returns the battles it played."""
    by_wall, by_cpu = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        battles = play()
        by_wall.append(battles / (time.perf_counter() - wall))
        by_cpu.append(battles / (time.process_time() - cpu))
    return statistics.median(by_wall), statistics.median(by_cpu)


def show(label: str, rates: tuple[float, float]) -> None:
    wall, cpu = rates
    print(f"{label}: median {wall / 1e6:.2f} M battles/s (wall), {cpu / 1e6:.2f} M (CPU)")


def main() -> None:
    decks = [shuffled_strengths(seed) for seed in range(GAMES_FAST)]
    piles = [(deck[0::2], deck[1::2]) for deck in decks]
    show(
        f"fast path, Full game, dealt decks ({GAMES_FAST} games)",
        rate(lambda: sum(play_full(a, b).battles for a, b in piles)),
    )
    show(
        f"fast path, Full game, with each seeded shuffle ({GAMES_FAST} games)",
        rate(lambda: sum(play_seed(seed, True).battles for seed in range(GAMES_FAST))),
    )
    show(
        f"fast path, Short game, dealt decks ({GAMES_FAST} games)",
        rate(lambda: sum(play_short(a, b).battles for a, b in piles)),
    )
    engine_decks = [Deck.shuffled(seed) for seed in range(GAMES_ENGINE)]
    show(
        f"readable engine with records, Full game ({GAMES_ENGINE} games)",
        rate(lambda: sum(play_deck(d, GameKind.FULL).battles for d in engine_decks), runs=3),
    )
    seconds = []
    for _ in range(RUNS_JOBS):
        start = time.perf_counter()
        simulation = simulate(GAMES_JOBS, GameKind.FULL, seed=1, jobs=2)
        seconds.append(time.perf_counter() - start)
    print(
        f"simulate {GAMES_JOBS:,} Full games, --jobs 2: median {statistics.median(seconds):.2f} s "
        f"over {RUNS_JOBS} runs ({simulation.total_battles:,} battles, "
        f"{simulation.total_battles / statistics.median(seconds) / 1e6:.2f} M battles/s)"
    )


if __name__ == "__main__":
    sys.exit(main())
