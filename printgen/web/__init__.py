"""`printgen serve`: a small web app to score sheets and print materials from a phone at the table.

The web layer only parses requests and renders pages; scoring, reading photos and building PDFs go
through the same functions as the command line (printgen.cli, the game registry)."""

from printgen.web.app import create_app

__all__ = ["create_app"]
