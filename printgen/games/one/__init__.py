"""ONE."""

from printgen.materials import Game

GAME = Game(name="one", title="ONE")
