"""printgen: print-ready PDFs for tabletop games, and referees that score what players wrote."""

__version__ = "0.1.0"
