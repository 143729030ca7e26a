"""One Page War."""

from pathlib import Path

from printgen.games.one_page_war.cli import commands
from printgen.games.one_page_war.geometry import layout_json
from printgen.games.one_page_war.referee import score
from printgen.games.one_page_war.sheets import MATERIALS
from printgen.materials import Game, PhotoOptions, ScoreReport


def read_photo(path: Path, options: PhotoOptions) -> ScoreReport:
    # Imported here so OpenCV loads only when a photo is read (reader/__init__.py).
    from printgen.games.one_page_war.reader import read_photo as read

    return read(path, options)


GAME = Game(
    name="one-page-war",
    title="One Page War",
    materials=MATERIALS,
    layout=layout_json,
    score=score,
    commands=commands,
    read_photo=read_photo,
)
