"""One Page War layouts: which arenas a sheet has, in order, with their squares, tick boxes and
powers, and how its lines are drawn. Layouts are data in `layouts/one-page-war/NAME.toml`; the
sheet, the referee and the photo reader all read the same file.

A layout has versions. The file describes the current one; its `[versions.N]` tables say what an
earlier version N changed in version N + 1 (line work, sizes), so every version ever printed can
still be drawn (`load_layout(name, version=1)`) and read from a photo: the QR code says which."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from printgen import layouts
from printgen.errors import LayoutError

LAYOUT_FOLDER = "one-page-war"
LINE_ROLES = ("write_in", "dice", "allies", "frame")


@dataclass(frozen=True)
class ArenaSpec:
    name: str
    squares: int  # on each side
    ticks: int  # tick boxes on each side
    power: str


@dataclass(frozen=True)
class LineStyle:
    """How one role of line is drawn, in mm; `black` from 0 (white) to 1 (solid black)."""

    width: float
    black: float
    dash: tuple[float, ...] = ()  # on, off, ...; empty for a solid line
    radius: float = 0.0  # corner radius of a box


@dataclass(frozen=True)
class Lines:
    write_in: LineStyle  # squares, tick boxes, name lines: what players write in
    dice: LineStyle  # the space the die is put on
    allies: LineStyle  # the S space in the middle of an arena
    frame: LineStyle  # the outline around an arena: decoration


@dataclass(frozen=True)
class Layout:
    name: str
    version: int
    arenas: tuple[ArenaSpec, ...]
    lines: Lines
    raw: dict  # the whole TOML table of this version, for the sheet geometry drawn from it

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


def _read(name: object) -> tuple[Path, Mapping[str, Any]]:
    if not isinstance(name, str):  # a typed-in or scanned name: refused with the known names
        return layouts.read_layout(LAYOUT_FOLDER, name, "One Page War")
    return _read_file(name)


@cache
def _read_file(name: str) -> tuple[Path, Mapping[str, Any]]:
    return layouts.read_layout(LAYOUT_FOLDER, name, "One Page War")


def layout_versions(name: str = "standard") -> tuple[int, ...]:
    """Every version of a layout that printgen can draw and read, oldest first."""
    path, data = _read(name)
    current = _version(data, path)
    return tuple(sorted({current, *(int(v) for v in _older(data, path))}))


def load_layout(name: str = "standard", version: int | None = None) -> Layout:
    """The layout as its current version, or as the earlier `version` asked for."""
    path, data = _read(name)
    current = _version(data, path)
    return _load(name, current if version is None else version)


@cache
def _load(name: str, version: int) -> Layout:
    path, data = _read(name)
    current = _version(data, path)
    if version != current:
        data = _as_version(data, current, version, f"{path}")
    try:
        arenas = tuple(
            ArenaSpec(str(a["name"]), int(a["squares"]), int(a["ticks"]), str(a["power"]))
            for a in data["arenas"]
        )
        layout = Layout(str(data["name"]), version, arenas, _lines(data, f"{path}"), dict(data))
    except (KeyError, TypeError, ValueError) as error:
        raise LayoutError(f"{path}: missing or malformed field {error}") from None
    if len({a.name for a in arenas}) != len(arenas):
        raise LayoutError(f"{path}: two arenas share a name")
    return layout


def _version(data: Mapping[str, Any], path: object) -> int:
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise LayoutError(f"{path}: `version` must be a whole number from 1, not {version!r}")
    return version


def _older(data: Mapping[str, Any], path: object) -> dict[str, Any]:
    older = data.get("versions", {})
    if not isinstance(older, Mapping) or not all(
        k.isdigit() and isinstance(v, Mapping) for k, v in older.items()
    ):
        raise LayoutError(f"{path}: [versions] holds one table per earlier version, [versions.N]")
    return dict(older)


def _as_version(data: Mapping[str, Any], current: int, version: int, where: str) -> dict[str, Any]:
    """The layout's data as it was at `version`: each older version's changes applied in turn."""
    older = _older(data, where)
    known = ", ".join(str(v) for v in sorted({current, *(int(k) for k in older)}))
    if version > current or not all(str(v) in older for v in range(version, current)):
        raise LayoutError(f"{where}: the layout has no version {version} (it has {known})")
    merged = dict(data)
    for v in range(current - 1, version - 1, -1):
        merged = _merged(merged, older[str(v)])
    merged["version"] = version
    return merged


def _merged(base: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in changes.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), Mapping):
            out[key] = _merged(base[key], value)
        else:
            out[key] = value
    return out


def _lines(data: Mapping[str, Any], where: str) -> Lines:
    table = data.get("lines")
    if not isinstance(table, Mapping):
        raise LayoutError(f"{where}: the layout has no [lines] table (how its lines are drawn)")
    styles = {}
    for role in LINE_ROLES:
        spec = table.get(role)
        if not isinstance(spec, Mapping):
            raise LayoutError(f"{where}: [lines] has no `{role}` style")
        styles[role] = _style(spec, f"{where}: [lines] {role}")
    return Lines(**styles)


def _style(spec: Mapping[str, Any], where: str) -> LineStyle:
    def number(key: str, default: float | None = None) -> float:
        raw = spec.get(key, default)
        if isinstance(raw, bool) or not isinstance(raw, int | float) or raw < 0:
            raise LayoutError(f"{where}: `{key}` must be a number from 0, not {raw!r}")
        return float(raw)

    width, black = number("width"), number("black")
    if width == 0 or black > 1:
        raise LayoutError(
            f"{where}: width {width} mm, black {black}: expected width over 0 and black from 0 to 1"
        )
    dash = spec.get("dash", [])
    if not isinstance(dash, list) or not all(
        isinstance(d, int | float) and not isinstance(d, bool) and d > 0 for d in dash
    ):
        raise LayoutError(f"{where}: `dash` must be a list of lengths in mm, not {dash!r}")
    return LineStyle(width, black, tuple(float(d) for d in dash), number("radius", 0.0))
