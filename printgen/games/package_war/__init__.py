"""Package War!."""

from printgen.materials import Game

GAME = Game(name="package-war", title="Package War!")
