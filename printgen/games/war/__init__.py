"""War."""

from printgen.materials import Game

GAME = Game(name="war", title="War")
