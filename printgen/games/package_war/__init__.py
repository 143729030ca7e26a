"""Package War!: the score pad, the play mat, the round referee and the game replayer."""

from printgen.games.package_war.cli import commands
from printgen.games.package_war.materials import MATERIALS, layout_data
from printgen.games.package_war.referee import score_round
from printgen.materials import Game

GAME = Game(
    name="package-war",
    title="Package War!",
    materials=MATERIALS,
    score=score_round,
    commands=commands,
    layout=layout_data,
)
