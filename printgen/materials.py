"""What printgen can print and score, as plain declarations that import nothing heavy.

The table itself lives in printgen/games/__init__.py. Each entry names the code behind it as a
string, "package.module:attribute", imported only when that entry is used: `printgen list`,
`--help` and shell completion read the table alone, `printgen build war-card` imports only the
War card's module, and `printgen score sheet.toml` only the referee its `game` key names."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from printgen.paths import SEEDS_DIR
from printgen.render.units import Paper

if TYPE_CHECKING:
    import click

# A build reports progress as (done, total) when it makes many pages.
Progress = Callable[[int, int], None]


def load(target: str) -> Any:
    """The object a registry entry names as "package.module:attribute", imported now."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class BuildOptions:
    """Every option `printgen build` knows. A material lists the ones it accepts beyond paper."""

    paper: Paper = Paper.A4
    rules: Path | None = None
    panels: int | None = None
    large_print: bool = False
    # (cards) "accordion" or "double"; None: the smallest fold scheme the text fits.
    fold: str | None = None
    copies: int = 1
    pairs: int = 2
    layout: str = "standard"
    # Names a print run, so its sheet ids differ from another run's with the same options.
    batch: str = ""


# Names of the optional BuildOptions fields, as a material declares which it accepts.
OPTION_NAMES = ("rules", "panels", "large_print", "fold", "copies", "pairs", "layout", "batch")

# What a material's builder is: options in, the PDF's bytes out.
Builder = Callable[[BuildOptions, Progress | None], bytes]


@dataclass(frozen=True)
class Material:
    """One printable thing, e.g. `war-card`. `builder` names its Builder ("module:function")."""

    name: str
    description: str
    builder: str
    accepts: frozenset[str] = frozenset()
    papers: tuple[Paper, ...] = (Paper.A4, Paper.LETTER)
    # False for a material that needs an input file named on the command line (the generic
    # card): `build all`, the web page and the print checks leave it out.
    standalone: bool = True
    # A rules card's source in seeds/: the builder gets it as `options.rules`.
    rules_source: str | None = None

    def build(self, options: BuildOptions, progress: Progress | None = None) -> bytes:
        if self.rules_source is not None:
            options = replace(options, rules=SEEDS_DIR / self.rules_source)
        builder: Builder = load(self.builder)
        return builder(options, progress)

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
    # The rectified sheet with nothing drawn on it, as a PNG (the web page's crops of unsure
    # cells: the annotated picture writes each cell's reading over the gap above it, which the
    # crop of the cell above took in).
    plain: Path | None = None
    partial: bool = False
    # The players' names, near edge first (`--players`); None: placeholders.
    players: tuple[str, ...] | None = None
    # Which page of a scan of several pages (from 1); None: a photo, or a scan of one page.
    page: int | None = None


PhotoReader = Callable[[Path, PhotoOptions], ScoreReport]

# A referee scores a parsed typed-in sheet (TOML or JSON as a mapping); `source` names the file.
Scorer = Callable[[Mapping[str, Any], str, ScoreOptions], ScoreReport]

# `printgen layout GAME`: the printed geometry as plain data (mm).
LayoutData = Callable[[str, Paper], Mapping[str, Any]]


@dataclass(frozen=True)
class Game:
    """One game. Each field after `materials` names code as "module:attribute" (or None)."""

    name: str
    title: str
    materials: tuple[Material, ...] = ()
    # A Scorer for typed-in sheets whose `game` key is this game's name.
    score: str | None = None
    # The click group of `printgen GAME ...`, and its one line in `printgen --help`.
    commands: str | None = None
    commands_help: str = ""
    # A LayoutData function.
    layout: str | None = None
    # A PhotoReader (One Page War).
    read_photo: str | None = None

    def referee(self) -> Scorer:
        return _named(self.score, f"{self.name} has no referee")

    def command_group(self) -> click.Group:
        return _named(self.commands, f"{self.name} has no commands of its own")

    @property
    def papers(self) -> tuple[Paper, ...]:
        """Every paper one of its materials is printed on, in `Paper`'s order."""
        return tuple(p for p in Paper if any(p in m.papers for m in self.materials))

    def layout_data(self) -> LayoutData:
        return _named(self.layout, f"{self.name} has no layout data")

    def photo_reader(self) -> PhotoReader:
        return _named(self.read_photo, f"{self.name} reads no photos")


def _named(target: str | None, missing: str) -> Any:
    if target is None:
        raise LookupError(missing)  # a caller's bug: it should have checked the field first
    return load(target)
