"""aiue battle: the letter board, the fold-to-stand letter cards, the record sheet, and a
referee for a game log."""

from printgen.games.aiue_battle.layout import geometry
from printgen.games.aiue_battle.materials import MATERIALS
from printgen.games.aiue_battle.referee import score
from printgen.materials import Game

GAME = Game(
    name="aiue-battle", title="aiue battle", materials=MATERIALS, score=score, layout=geometry
)
