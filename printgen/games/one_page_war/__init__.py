"""One Page War."""

from printgen.materials import Game

GAME = Game(name="one-page-war", title="One Page War")
