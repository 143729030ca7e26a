"""aiue battle: how long each material takes to build, and how fast the referee replays logs.

Prints medians over several runs (wall-clock)."""

from __future__ import annotations

import random

from timing import median_seconds

from printgen.games import game_named
from printgen.games.aiue_battle.engine import LATIN_BOARD, Alphabet, Battle
from printgen.games.aiue_battle.referee import score
from printgen.materials import BuildOptions, ScoreOptions
from printgen.render.units import Paper

RUNS_BUILD = 5
RUNS_REFEREE = 7
GAMES = 2000


def random_logs(count: int, seed: int) -> list[dict[str, object]]:
    """Finished games between 2 to 5 players with random words, letters called at random."""
    rng = random.Random(seed)
    logs = []
    for _ in range(count):
        players = [f"P{i}" for i in range(rng.randint(2, 5))]
        words = {p: "".join(rng.choices("aeiourstlnm", k=rng.randint(2, 7))) for p in players}
        game = Battle.from_words(Alphabet.LATIN, words.items())
        for letter in rng.sample(LATIN_BOARD, len(LATIN_BOARD)):
            if game.is_over:
                break
            game.attack(letter)
        logs.append(
            {
                "game": "aiue-battle",
                "players": players,
                "words": words,
                "attacks": list(game.declared),
            }
        )
    return logs


def main() -> None:
    aiue = game_named("aiue-battle")
    assert aiue is not None
    materials = aiue.materials
    materials[0].build(BuildOptions(), None)  # warm: fonts load once per process
    for material in materials:
        for paper in (Paper.A4, Paper.LETTER):
            seconds = median_seconds(
                lambda m=material, p=paper: m.build(BuildOptions(paper=p), None), RUNS_BUILD
            )
            print(
                f"{material.name} {paper.value}: median {seconds * 1000:.0f} ms "
                f"over {RUNS_BUILD} builds"
            )
    logs = random_logs(GAMES, seed=6)
    attacks = sum(len(log["attacks"]) for log in logs)  # type: ignore[arg-type]
    seconds = median_seconds(
        lambda: [score(log, "bench", ScoreOptions()) for log in logs], RUNS_REFEREE
    )
    print(
        f"referee: {GAMES} logs ({attacks} attacks) in median {seconds * 1000:.0f} ms, "
        f"{GAMES / seconds:,.0f} logs/s over {RUNS_REFEREE} runs"
    )


if __name__ == "__main__":
    main()
