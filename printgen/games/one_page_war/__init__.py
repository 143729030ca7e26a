"""One Page War."""

from printgen.games.one_page_war.cli import commands
from printgen.games.one_page_war.geometry import layout_json
from printgen.games.one_page_war.referee import score
from printgen.games.one_page_war.sheets import MATERIALS
from printgen.materials import Game

GAME = Game(
    name="one-page-war",
    title="One Page War",
    materials=MATERIALS,
    layout=layout_json,
    score=score,
    commands=commands,
)
