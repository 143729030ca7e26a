"""What printgen can print and score: each game package declares a `Game`, and the CLI only
reads these declarations."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import click

from printgen.render.units import Paper

# A build reports progress as (done, total) when it makes many pages.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class BuildOptions:
    """Every option `printgen build` knows. A material lists the ones it accepts beyond paper."""

    paper: Paper = Paper.A4
    rules: Path | None = None
    panels: int | None = None
    large_print: bool = False
    copies: int = 1
    pairs: int = 2
    layout: str = "standard"
    # Names a print run, so its sheet ids differ from another run's with the same options.
    batch: str = ""


# Names of the optional BuildOptions fields, as a material declares which it accepts.
OPTION_NAMES = ("rules", "panels", "large_print", "copies", "pairs", "layout", "batch")


@dataclass(frozen=True)
class Material:
    name: str
    description: str
    build: Callable[[BuildOptions, Progress | None], bytes]
    accepts: frozenset[str] = frozenset()
    papers: tuple[Paper, ...] = (Paper.A4, Paper.LETTER)
    # False for a material that needs an input file named on the command line (the generic
    # card): `build all`, the web page and the print checks leave it out.
    standalone: bool = True

    def file_name(self, options: BuildOptions) -> str:
        return f"{self.name}-{options.paper.value}.pdf"


class ScoreReport(Protocol):
    """What a referee returns: printable, serialisable, and with an exit code.

    exit_code: 0 a finished, checked result; 3 provisional or partial (see the CLI's help)."""

    def to_text(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...

    @property
    def exit_code(self) -> int: ...

    def summary(self) -> str: ...


@dataclass(frozen=True)
class ScoreOptions:
    partial: bool = False


@dataclass(frozen=True)
class PhotoOptions:
    annotate: Path | None = None
    partial: bool = False
    # The players' names, near edge first (`--players`); None: placeholders.
    players: tuple[str, ...] | None = None


PhotoReader = Callable[[Path, PhotoOptions], ScoreReport]

# A referee scores a parsed typed-in sheet (TOML or JSON as a mapping); `source` names the file.
Scorer = Callable[[Mapping[str, Any], str, ScoreOptions], ScoreReport]


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    materials: tuple[Material, ...] = ()
    score: Scorer | None = None
    commands: click.Group | None = None
    # The printed geometry as plain data (mm), for `printgen layout GAME --json`.
    layout: Callable[[str, Paper], Mapping[str, Any]] | None = None
    # Reads a photographed sheet and scores it (One Page War).
    read_photo: PhotoReader | None = None
