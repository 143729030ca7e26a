"""aiue battle: the letter board, the fold-to-stand letter cards, the record sheet, and a
referee for a game log. Registered in printgen/games/__init__.py."""
