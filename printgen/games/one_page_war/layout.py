"""One Page War layouts: which arenas a sheet has, in order, with their squares, tick boxes and
powers. Layouts are data in `layouts/one-page-war/NAME.toml`; the sheet, the referee and the photo
reader all read the same file."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from printgen import layouts
from printgen.errors import LayoutError

LAYOUT_FOLDER = "one-page-war"


@dataclass(frozen=True)
class ArenaSpec:
    name: str
    squares: int  # on each side
    ticks: int  # tick boxes on each side
    power: str


@dataclass(frozen=True)
class Layout:
    name: str
    version: int
    arenas: tuple[ArenaSpec, ...]
    raw: dict  # the whole TOML table, for the sheet geometry drawn from it

    def arena(self, name: str) -> ArenaSpec:
        for spec in self.arenas:
            if spec.name == name:
                return spec
        known = ", ".join(a.name for a in self.arenas)
        raise LayoutError(f"layout {self.name!r} has no arena {name!r}; its arenas: {known}")

    def index(self, name: str) -> int:
        return self.arenas.index(self.arena(name))

    def neighbours(self, name: str) -> tuple[str, ...]:
        i = self.index(name)
        return tuple(self.arenas[j].name for j in (i - 1, i + 1) if 0 <= j < len(self.arenas))

    @property
    def arena_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.arenas)


def layout_names() -> tuple[str, ...]:
    return layouts.layout_names(LAYOUT_FOLDER)


@cache
def load_layout(name: str = "standard") -> Layout:
    path, data = layouts.read_layout(LAYOUT_FOLDER, name, "One Page War")
    try:
        arenas = tuple(
            ArenaSpec(str(a["name"]), int(a["squares"]), int(a["ticks"]), str(a["power"]))
            for a in data["arenas"]
        )
        layout = Layout(str(data["name"]), int(data["version"]), arenas, data)
    except (KeyError, TypeError, ValueError) as error:
        raise LayoutError(f"{path}: missing or malformed field {error}") from None
    if len({a.name for a in arenas}) != len(arenas):
        raise LayoutError(f"{path}: two arenas share a name")
    return layout
