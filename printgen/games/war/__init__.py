"""War: the folding rules card and an engine that plays it exactly."""

from printgen.accordion import card_material
from printgen.games.war.cli import war
from printgen.materials import Game

WAR_CARD = card_material(
    "war-card",
    "War: one-sheet 4-panel accordion rules card with FOLD and FOLD & TEAR marks",
    "war.md",
)

GAME = Game(name="war", title="War", materials=(WAR_CARD,), commands=war)
