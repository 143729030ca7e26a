"""ONE: stones on a circular board for 2 to 6 players. The board (one sheet or two tiled), the
score sheet, and a referee that scores a final position and checks capture jumps."""

from printgen.games.one.cli import one
from printgen.games.one.materials import BOARD, SCORE_SHEET, TILED_BOARD, layout_data
from printgen.games.one.referee import score_document
from printgen.materials import Game

GAME = Game(
    name="one",
    title="ONE",
    materials=(BOARD, TILED_BOARD, SCORE_SHEET),
    score=score_document,
    commands=one,
    layout=layout_data,
)
