"""War: the folding rules card and an engine that plays it exactly. Registered in
printgen/games/__init__.py."""
