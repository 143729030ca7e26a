"""One Page War: the duel, solo and team sheets, the referee, the solo AI and the photo reader.
Registered in printgen/games/__init__.py."""
