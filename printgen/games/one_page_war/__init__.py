"""One Page War."""

from printgen.games.one_page_war.geometry import layout_json
from printgen.materials import Game

GAME = Game(
    name="one-page-war",
    title="One Page War",
    layout=layout_json,
)
