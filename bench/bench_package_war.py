"""Package War!: how long the pad and the mat take to build, and how fast the engine replays the
example game and plays out random ones. Prints medians over several runs (wall-clock)."""

from __future__ import annotations

import random
from pathlib import Path

from timing import median_seconds

from printgen.games import material_named
from printgen.games.package_war.engine import Action, Match, Move, Phase
from printgen.games.package_war.log import play_log, read_log
from printgen.games.package_war.referee import score_round
from printgen.materials import BuildOptions, ScoreOptions
from printgen.render.units import Paper

RUNS = 7
PAD, MAT = (material_named(n) for n in ("package-war-pad", "package-war-mat"))
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "package-war" / "game.toml"


def playout(seed: int) -> Match:
    """A whole game of random legal moves (seeded: the same game every run)."""
    chooser = random.Random(seed)
    match = Match(("Ann", "Ben"))
    while match.position.phase is not Phase.OVER:
        if match.position.phase is Phase.PACKAGING:
            match.play(Move(match.position.mover, Action.ROLL, chooser.randint(1, 6)))
        else:
            match.play(chooser.choice(match.legal_moves()))
    return match


def main() -> None:
    for material in (PAD, MAT):
        for paper in (Paper.A4, Paper.LETTER):
            seconds = median_seconds(
                lambda m=material, p=paper: m.build(BuildOptions(paper=p), None)
            )
            print(f"build {material.name} {paper.value}: {seconds * 1000:.1f} ms")
    log = read_log(EXAMPLE)
    seconds = median_seconds(lambda: play_log(log))
    print(f"replay example game ({len(log.moves)} moves): {seconds * 1000:.2f} ms")
    games = 100
    moves = sum(len(playout(seed).records) for seed in range(games))
    seconds = median_seconds(lambda: [playout(seed) for seed in range(games)], runs=3)
    print(f"{games} random games ({moves} moves): {seconds * 1000:.0f} ms, "
          f"{moves / seconds:,.0f} moves/s")  # fmt: skip
    document = {
        "game": "package-war",
        "players": {
            "Ann": {"score": 5, "tables": [[5, 3, 1], [4]], "crushed": 2},
            "Ben": {"score": 7, "tables": [[2], []], "crushed": 0},
        },
    }
    seconds = median_seconds(
        lambda: [score_round(document, "r", ScoreOptions()) for _ in range(1000)]
    )
    print(f"score 1000 rounds: {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
