"""aiue battle."""

from printgen.materials import Game

GAME = Game(name="aiue-battle", title="aiue battle")
