"""ONE: stones on a circular board for 2 to 6 players. The board (one sheet or two tiled), the
score sheet, and a referee that scores a final position and checks capture jumps. Registered in
printgen/games/__init__.py."""
