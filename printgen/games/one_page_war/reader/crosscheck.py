"""The rules as a cross-check on what was read: a value no legal play can produce, or tick boxes
that contradict the numbers, make the cells involved unsure (never silently accepted)."""

from __future__ import annotations

from collections import Counter

from printgen.games.one_page_war.geometry import Side
from printgen.games.one_page_war.layout import Layout
from printgen.games.one_page_war.reader.cells import Reading, SheetReading
from printgen.games.one_page_war.sheet import Mode, square_problem

# Dice give 1 to 6; only Armored support moves a number one up or down per use.
DIE_MAX = 6
ARMORED = "Armored support"
STOLEN_INTEL = "Stolen Intel"
AI_HIGHEST = 7  # the solo AI writes the die plus one
ALLIES = "Allies"


def _ticked(readings: tuple[Reading, ...], arena: str, side: Side) -> int:
    return sum(
        1
        for r in readings
        if r.element.arena == arena and r.element.side is side and r.value == "ticked"
    )


def uses(sheet: SheetReading, layout: Layout, power: str) -> int:
    """How many times the sheet's tick boxes say a power was used (one use ticks both sides)."""
    return sum(
        max(_ticked(sheet.ticks, a.name, Side.FIRST), _ticked(sheet.ticks, a.name, Side.SECOND))
        for a in layout.arenas
        if a.power == power
    )


def cross_check(sheet: SheetReading, layout: Layout, mode: Mode) -> SheetReading:
    doubts: dict[int, list[str]] = {}

    def doubt(r: Reading, why: str) -> None:
        doubts.setdefault(id(r), []).append(why)

    for a in layout.arenas:
        first = _ticked(sheet.ticks, a.name, Side.FIRST)
        second = _ticked(sheet.ticks, a.name, Side.SECOND)
        if first != second:
            for r in sheet.ticks:
                if r.element.arena == a.name:
                    doubt(
                        r,
                        f"the sides show {first} and {second} ticked boxes, but each use of "
                        "a power ticks a box on both sides",
                    )

    armored = uses(sheet, layout, ARMORED)
    highest = DIE_MAX + armored
    if mode is Mode.SOLO and uses(sheet, layout, STOLEN_INTEL):
        highest = max(highest, AI_HIGHEST)  # the human may copy the AI's 7
    stars: Counter[str] = Counter()
    for r in sheet.squares:
        ai_side = mode is Mode.SOLO and r.element.side is Side.SECOND
        value: object = int(r.value) if r.value.isdigit() else r.value
        problem = square_problem(value, mode, ai_side)
        if problem:
            doubt(r, problem)
            continue
        if isinstance(value, int) and not ai_side:
            if value > highest:
                doubt(
                    r,
                    f"{value} needs {value - DIE_MAX} uses of {ARMORED}, the tick boxes show "
                    f"{armored}",
                )
            elif value == 0 and armored == 0:
                doubt(r, f"0 needs a use of {ARMORED}, and no such box is ticked")
        if value == "*":
            assert r.element.arena is not None
            stars[r.element.arena] += 1
            arena_ticks = _ticked(sheet.ticks, r.element.arena, Side.SECOND)
            if arena_ticks == 0:
                doubt(r, "the AI's star comes with its first tick in an arena; none is ticked")
    for r in sheet.squares:
        if r.value == "*" and stars[r.element.arena or ""] > 1:
            doubt(r, "two stars in one arena; the AI stars once per arena")

    allies_written = [r for r in sheet.allies if r.value == "S"]
    allies_uses = uses(sheet, layout, ALLIES)
    if len(allies_written) > allies_uses:
        for r in allies_written:
            doubt(
                r,
                f"{len(allies_written)} S written but the {ALLIES} boxes show {allies_uses} uses",
            )

    def apply(readings: tuple[Reading, ...]) -> tuple[Reading, ...]:
        out = []
        for r in readings:
            for why in doubts.get(id(r), []):
                r = r.doubt(why)
            out.append(r)
        return tuple(out)

    return SheetReading(apply(sheet.squares), apply(sheet.ticks), apply(sheet.allies))
