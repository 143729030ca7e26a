"""Package War!: the score pad, the play mat, the round referee and the game replayer.
Registered in printgen/games/__init__.py."""
