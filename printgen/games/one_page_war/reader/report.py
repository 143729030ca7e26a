"""What the reader tells: the sheet in the referee's typed-in TOML format (unsure cells marked
in comments), the unsure cells with their two likeliest readings, the score, and a picture."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from printgen.errors import OutputError
from printgen.files import write_atomic
from printgen.games.one_page_war.geometry import Kind, Side
from printgen.games.one_page_war.layout import Layout
from printgen.games.one_page_war.reader.cells import Reading, SheetReading, percent
from printgen.games.one_page_war.reader.errors import PlayerNamesError
from printgen.games.one_page_war.reader.locate import PX_PER_MM, SheetIdentity
from printgen.materials import ScoreReport

if TYPE_CHECKING:
    from printgen.games.one_page_war.reader.stakes import Stakes

EXIT_PROVISIONAL = 3


def players_for(mode: str, names: tuple[str, ...] | None = None) -> tuple[str, str]:
    """The players' names, near edge first: as given (`--players`), else placeholders. The
    names written on the sheet are not read; a person can rename them in the TOML."""
    if names:
        if len(names) == 2:
            return (names[0], names[1])
        if mode == "solo":
            return (names[0], "AI")
        raise PlayerNamesError(
            f"--players names {len(names)} player(s), but a {mode} sheet has two, near edge first"
        )
    return ("You", "AI") if mode == "solo" else ("First", "Second")


def side_name(side: Side | None, players: tuple[str, str]) -> str:
    return players[0] if side is Side.FIRST else players[1]


def shown(value: str) -> str:
    """A reading in words where it is no typed-in value."""
    return {"?": "another mark", "_": "empty"}.get(value, value)


def describe(r: Reading, players: tuple[str, str]) -> str:
    e = r.element
    owner = side_name(e.side, players)
    owner = "your" if owner == "You" else f"{owner}'s"
    if e.kind is Kind.SQUARE:
        where = f"{e.arena}, {owner} square {e.index + 1}"
    elif e.kind is Kind.TICK:
        where = f"{e.arena}, {owner} tick box {e.index + 1}"
    else:
        where = f"{e.arena}, S space"
    first, second = shown(r.value), shown(r.second)
    # Given the rules, a runner-up's share counts only the whole-sheet readings looked at, so a
    # legal value the recogniser gave a sliver of a chance can come out 0: never "0%" beside it.
    beside = percent(r.second_confidence) if r.second_confidence > 0 else "under 1%"
    reading = f"{first} ({percent(r.confidence)}) or {second} ({beside})"
    return f"{where}: {reading}" + (f" — {r.why}" if r.why else "")


def sheet_mapping(
    reading: SheetReading,
    layout: Layout,
    mode: str,
    tag: SheetIdentity,
    players: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """The typed-in sheet as a mapping the referee accepts."""
    players = players or players_for(mode)
    arenas: dict[str, Any] = {}
    for a in layout.arenas:
        table: dict[str, Any] = {}
        for side, player in zip((Side.FIRST, Side.SECOND), players, strict=True):
            cells = sorted(
                (
                    r
                    for r in reading.squares
                    if r.element.arena == a.name and r.element.side is side
                ),
                key=lambda r: r.element.index,
            )
            table[player] = [int(r.value) if r.value.isdigit() else r.value for r in cells]
        if any(r.value == "S" for r in reading.allies if r.element.arena == a.name):
            table["allies"] = True
        arenas[a.name] = table
    mapping: dict[str, Any] = {
        "game": "one-page-war",
        "layout": layout.name,
        "mode": "solo" if mode == "solo" else "duel",
        "players": list(players),
    }
    if tag.sheet_id is not None:
        mapping["id"] = tag.sheet_id
    mapping["arenas"] = arenas
    return mapping


def sheet_toml(
    reading: SheetReading,
    layout: Layout,
    mode: str,
    tag: SheetIdentity,
    players: tuple[str, str] | None = None,
) -> str:
    """The reading as a typed-in sheet to check and score: `sheet_mapping`'s data, written by a
    TOML writer so it parses back to exactly that mapping, with the unsure cells as comments."""
    import tomlkit

    from printgen.tomldoc import comment, with_comment

    named = players is not None
    players = players or players_for(mode)
    data = sheet_mapping(reading, layout, mode, tag, players)
    document = tomlkit.document()
    for line in (
        f"Read from a photo of sheet {tag.shown_id} ({tag.paper.value}). Check the lines marked",
        "UNSURE, fix them if needed, then score this file with `printgen score`.",
        "The players' names are as given to the reader, near edge first."
        if named
        else "The players' names are not read from the photo: rename them as you like.",
    ):
        document.add(comment(line))
    if tag.sheet_id is None:
        document.add(comment("id: unread (the QR code could not be read)"))
    if mode == "team":
        document.add(comment("One sheet of a team game: add it to the team file's [[sheets]]."))
    document.update({k: v for k, v in data.items() if k != "arenas"})
    arenas = tomlkit.table(is_super_table=True)
    for a in layout.arenas:
        table = tomlkit.table()
        for side, player in zip((Side.FIRST, Side.SECOND), players, strict=True):
            cells = sorted(
                (
                    r
                    for r in reading.squares
                    if r.element.arena == a.name and r.element.side is side
                ),
                key=lambda r: r.element.index,
            )
            unsure = [
                f"square {r.element.index + 1}: {shown(r.value)} or {shown(r.second)}"
                for r in cells
                if r.unsure
            ]
            values = data["arenas"][a.name][player]
            table[player] = (
                with_comment(values, f"UNSURE {'; '.join(unsure)}") if unsure else values
            )
        s_reads = [r for r in reading.allies if r.element.arena == a.name]
        if data["arenas"][a.name].get("allies"):
            unsure_s = any(r.unsure for r in s_reads)
            table["allies"] = with_comment(True, "UNSURE") if unsure_s else True
        elif any(r.unsure for r in s_reads):
            table.add(comment("allies = true  # UNSURE: is there an S in this arena?"))
        ticks = [r for r in reading.ticks if r.element.arena == a.name]
        counts = {
            side: sum(1 for r in ticks if r.element.side is side and r.value == "ticked")
            for side in (Side.FIRST, Side.SECOND)
        }
        note = " UNSURE" if any(r.unsure for r in ticks) else ""
        table.add(
            comment(
                f"tick boxes ticked:{note} {players[0]!r} side {counts[Side.FIRST]}, "
                f"{players[1]!r} side {counts[Side.SECOND]} (of {a.ticks})"
            )
        )
        arenas[a.name] = table
    document["arenas"] = arenas
    return tomlkit.dumps(document)


@dataclass(frozen=True)
class PhotoReport:
    """A photographed sheet, read and scored; provisional while any cell is unsure."""

    source: str
    tag: SheetIdentity
    reading: SheetReading
    toml: str
    mapping: dict[str, Any]
    advice: tuple[str, ...]
    score: ScoreReport | None
    score_problem: str | None  # why the read sheet could not be scored, when it could not
    players: tuple[str, str]
    timings: dict[str, float] = field(default_factory=dict)
    stakes: Stakes | None = None  # what the unsure cells can change, on a finished sheet

    @property
    def unsure(self) -> tuple[Reading, ...]:
        return tuple(r for r in self.reading.all if r.unsure)

    @property
    def exit_code(self) -> int:
        if self.unsure or self.score is None:
            return EXIT_PROVISIONAL
        return self.score.exit_code

    def to_text(self) -> str:
        out = [
            f"Read {self.source}: sheet {self.tag.shown_id}, layout {self.tag.layout} "
            f"v{self.tag.version}, {self.tag.paper.value}"
        ]
        out += [f"advice: {a}" for a in self.advice]
        if self.unsure:
            out.append(f"{len(self.unsure)} unsure cell(s); the score is PROVISIONAL:")
            out += [f"  {describe(r, self.players)}" for r in self.unsure]
            if self.stakes is not None:
                out.append(self.stakes.to_text(len(self.unsure)))
        out.append("")
        out.append(self.toml.rstrip())
        out.append("")
        if self.score is not None:
            out.append(self.score.to_text())
        else:
            out.append(f"not scored: {self.score_problem}")
        if self.unsure:
            out.append("PROVISIONAL: check the unsure cells above, fix the TOML, and score it.")
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "one-page-war",
            "sheet_id": self.tag.sheet_id,
            "sheet_id_read": self.tag.sheet_id is not None,
            "mode": self.tag.mode,
            "layout": self.tag.layout,
            "version": self.tag.version,
            "paper": self.tag.paper.value,
            "provisional": bool(self.unsure) or self.score is None,
            "sheet": self.mapping,
            "ticks": [_reading_json(r, self.players) for r in self.reading.ticks],
            "unsure": [_reading_json(r, self.players) for r in self.unsure],
            "advice": list(self.advice),
            "score": self.score.to_json() if self.score is not None else None,
            "score_problem": self.score_problem,
            "stakes": self.stakes.to_json() if self.stakes is not None else None,
        }

    def summary(self) -> str:
        head = (
            self.score.summary() if self.score is not None else f"not scored ({self.score_problem})"
        )
        if self.unsure:
            holds = ", none can change who wins" if self.stakes and self.stakes.holds else ""
            return f"PROVISIONAL ({len(self.unsure)} unsure cells{holds}): {head}"
        return head


def _reading_json(r: Reading, players: tuple[str, str]) -> dict[str, Any]:
    e = r.element
    return {
        "kind": e.kind.value,
        "arena": e.arena,
        "player": side_name(e.side, players) if e.side is not None else None,
        "index": e.index,
        "reading": r.value,
        "confidence": round(r.confidence, 4),
        "second": r.second,
        "second_confidence": round(r.second_confidence, 4),
        "unsure": r.unsure,
        "why": r.why,
    }


def _mark(value: str) -> str:
    """A reading as drawn beside its cell (Hershey fonts have no tick or ellipsis)."""
    return {"ticked": "v", "empty": "-", "_": "-", "?": "mark"}.get(value, value)


def annotate(rectified: np.ndarray, reading: SheetReading, path: Path) -> None:
    """The rectified sheet with each reading beside its cell; unsure cells highlighted."""
    image = cv2.cvtColor(rectified, cv2.COLOR_GRAY2BGR)
    overlay = image.copy()
    for r in reading.all:
        e = r.element
        p0 = (int(e.x * PX_PER_MM), int(e.y * PX_PER_MM))
        p1 = (int((e.x + e.w) * PX_PER_MM), int((e.y + e.h) * PX_PER_MM))
        if r.unsure:
            cv2.rectangle(overlay, p0, p1, (0, 220, 255), -1)
    image = cv2.addWeighted(overlay, 0.35, image, 0.65, 0)
    for r in reading.all:
        e = r.element
        p0 = (int(e.x * PX_PER_MM), int(e.y * PX_PER_MM))
        p1 = (int((e.x + e.w) * PX_PER_MM), int((e.y + e.h) * PX_PER_MM))
        colour = (0, 0, 230) if r.unsure else (0, 150, 0)
        cv2.rectangle(image, p0, p1, colour, 2 if r.unsure else 1)
        label = _mark(r.value)
        if r.unsure:
            label = f"{label} or {_mark(r.second)}?"
        scale = 0.5 if e.kind is Kind.TICK or r.unsure else 0.7
        cv2.putText(
            image,
            label,
            (p0[0] + 2, p0[1] - 3),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            colour,
            2,
            cv2.LINE_AA,
        )
    _write_png(image, path)


def write_plain(rectified: np.ndarray, path: Path) -> None:
    """The rectified sheet as read, nothing drawn on it, at the annotated picture's scale."""
    _write_png(rectified, path)


def _write_png(image: np.ndarray, path: Path) -> None:
    """Written atomically, so a failed write leaves nothing behind."""
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise OutputError(f"{path}: cannot encode the picture as PNG")
    write_atomic(Path(path), data.tobytes())
