"""The rules as a cross-check on what was read: a value no legal play can produce, or tick boxes
that contradict the numbers, make the cells involved unsure (never silently accepted)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from printgen.games.one_page_war.geometry import Side
from printgen.games.one_page_war.layout import Layout
from printgen.games.one_page_war.reader.cells import Reading, SheetReading
from printgen.games.one_page_war.sheet import (
    ARMORED_SUPPORT,
    STOLEN_INTEL,
    Mode,
    Reach,
    square_problem,
)

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


def _likeliest_legal(r: Reading, legal: Callable[[str], bool]) -> Reading:
    """An unsure square shows its likeliest reading the rules allow, and the runner-up."""
    # A square the recogniser found ink in is shown as a value before it is shown as empty.
    allowed = sorted(
        ((v, p) for v, p in r.candidates if legal(v)), key=lambda vp: (vp[0] == "_", -vp[1])
    )
    if not allowed or allowed[0][0] == r.value:
        return r
    (value, p), (second, q) = allowed[0], (allowed[1] if len(allowed) > 1 else ("?", 0.0))
    return replace(r, value=value, confidence=p, second=second, second_confidence=q)


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

    # The rule itself lives with the typed-in sheet's, so both refuse the same numbers.
    reach = Reach(
        uses(sheet, layout, ARMORED_SUPPORT), uses(sheet, layout, STOLEN_INTEL), mode is Mode.SOLO
    )

    def problems(value_text: str, ai_side: bool) -> list[str]:
        """Why a square's value cannot be on this sheet (empty when it can)."""
        value: object = int(value_text) if value_text.isdigit() else value_text
        if value_text == "?":
            return ["a mark that is no digit or star"]
        problem = square_problem(value, mode, ai_side)
        if problem:
            return [problem]
        if isinstance(value, int) and not ai_side:
            beyond = reach.number_problem(value)
            if beyond is not None:
                return [beyond]
        return []

    stars: Counter[str] = Counter()
    squares = []
    for r in sheet.squares:
        ai_side = mode is Mode.SOLO and r.element.side is Side.SECOND
        found = problems(r.value, ai_side)
        if found:
            r = r.doubt(f"read as {r.value}, but {found[0]}")

        def legal(value: str, ai_side: bool = ai_side) -> bool:
            return not problems(value, ai_side)

        if r.unsure and r.candidates:
            r = _likeliest_legal(r, legal)
        squares.append(r)
    sheet = SheetReading(tuple(squares), sheet.ticks, sheet.allies)
    for r in sheet.squares:
        value = r.value
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
