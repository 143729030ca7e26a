"""ONE: how long the boards, the score sheet and the counter sheet take to build, and how fast
the referee scores positions and plays out whole games. Prints medians over several runs
(wall-clock)."""

from __future__ import annotations

import random

from timing import median_seconds

from printgen.games import material_named
from printgen.games.one.engine import Match, capture_paths
from printgen.games.one.layout import load_layout
from printgen.games.one.referee import score_position
from printgen.materials import BuildOptions
from printgen.render.units import Paper

RUNS = 7
BOARD, TILED_BOARD, SCORE_SHEET, COUNTERS = (
    material_named(n) for n in ("one-board", "one-board-tiled", "one-score", "one-counters")
)


def playout(seed: int, players: int) -> Match:
    """A whole 16 x 6 game of random legal moves (seeded: the same game every run)."""
    layout = load_layout()
    chooser = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    match = Match.start(layout.board, names, layout.stones_each(players))
    while not match.is_over:
        player = match.to_move
        pos = match.position
        captures = [
            (stone, path) for stone in pos.stones_of(player) for path in capture_paths(pos, stone)
        ]
        if captures and chooser.random() < 0.5:
            stone, path = chooser.choice(captures)
            match.capture(player, stone, path)
        else:
            free = [p for p in pos.board.points if pos.owner(p) is None]
            match.place(player, chooser.choice(free))
    return match


def main() -> None:
    BOARD.build(BuildOptions(), None)  # warm: fonts load once per process
    for material, papers in (
        (BOARD, (Paper.A4, Paper.A3)),
        (TILED_BOARD, (Paper.A4, Paper.LETTER)),
        (SCORE_SHEET, (Paper.A4,)),
        (COUNTERS, (Paper.A4,)),
    ):
        for paper in papers:
            seconds = median_seconds(
                lambda m=material, p=paper: m.build(BuildOptions(paper=p), None)
            )
            print(
                f"{material.name} {paper.value}: median {seconds * 1000:.0f} ms over {RUNS} builds"
            )
    for players in (2, 6):
        seconds = median_seconds(lambda n=players: playout(1, n))
        print(f"random playout, {players} players: median {seconds * 1000:.0f} ms a game")
    final = playout(2, 4).position
    seconds = median_seconds(lambda: score_position(final, "bench"), 50)
    print(f"score a final 4-player position: median {seconds * 1e6:.0f} us over 50")
    print(f"(that position: {score_position(final, 'bench').summary()})")


if __name__ == "__main__":
    main()
