"""The solo AI's turn, exactly by the rulebook, on a typed-in solo sheet.

- `verify_ai_turn(sheet, die, human_arena)` raises `IllegalAiTurn` if the AI cannot play now;
  `can_ai_turn(...)` says the same as a bool.
- `ai_turn(sheet, die, human_arena) -> AiTurn`: what the AI does: it writes die + 1 into the arena
  holding most of that number on its side, then most numbers entered, then the leftmost, never
  the arena the human just wrote in unless no other has room; it ticks the leftmost arena whose
  power it has opened (all its squares there filled) and that has boxes left; and the first time
  it ticks in an arena, one of its numbers there becomes the star that scores best.
- `AiTurn.apply(sheet) -> Sheet`: the sheet after the turn (write it back with `to_toml()`).

Rulings (docs/rulings.md): the AI counts the number on its own side only; it writes into the
leftmost empty square of the arena; it ticks after writing, so an arena filled this turn is
ticked this turn; among stars that score the same, the leftmost square is replaced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from printgen.errors import PrintgenError, quote
from printgen.games.one_page_war.rules import Hand, Mark, evaluate
from printgen.games.one_page_war.sheet import Arena, Mode, Sheet

DIE_FACES = range(1, 7)


class IllegalAiTurn(PrintgenError):
    """The AI cannot take a turn on this sheet now (or the die or arena given is not possible)."""


@dataclass(frozen=True)
class StarPlacement:
    arena: str
    square: int  # 0-based index on the AI's side
    replaced: int  # the number the star replaces
    hand: Hand  # the AI's side with the star, as scored

    @property
    def value(self) -> int:
        return self.hand.numbers[self.square]


@dataclass(frozen=True)
class AiTurn:
    die: int
    number: int  # what the AI writes: die + 1
    arena: str
    square: int  # 0-based index of the AI square written
    why: str  # why this arena, in words
    tick: str | None  # the arena whose box the AI ticks, if any
    star: StarPlacement | None

    def apply(self, sheet: Sheet) -> Sheet:
        ai = _ai(sheet)
        after = sheet.with_square(self.arena, ai, self.square, self.number)
        if self.tick is not None:
            after = after.with_ticks(self.tick, ai, after.arena(self.tick).side(ai).uses + 1)
        if self.star is not None:
            after = after.with_square(self.star.arena, ai, self.star.square, Mark.STAR)
        return after

    def to_text(self) -> str:
        lines = [
            f"The AI rolls {self.die} + 1: writes {self.number} in {self.arena}, "
            f"square {self.square + 1} ({self.why})."
        ]
        if self.tick is None:
            lines.append("No power box to tick.")
        else:
            lines.append(f"It ticks a box in {self.tick}.")
        if self.star is not None:
            star = self.star
            lines.append(
                f"First tick in {star.arena}: square {star.square + 1} ({star.replaced}) becomes "
                f"a star, counted as {star.value}: {star.hand.combination.value} "
                f"({star.hand.to_text()})."
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        star = None
        if self.star is not None:
            star = {
                "arena": self.star.arena,
                "square": self.star.square + 1,
                "replaces": self.star.replaced,
                "counts_as": self.star.value,
                "rank": self.star.hand.combination.value,
            }
        return {
            "die": self.die,
            "number": self.number,
            "arena": self.arena,
            "square": self.square + 1,
            "why": self.why,
            "tick": self.tick,
            "star": star,
        }


def _ai(sheet: Sheet) -> str:
    if sheet.mode is not Mode.SOLO or sheet.ai is None:
        raise IllegalAiTurn(
            f'{sheet.source or "sheet"}: the AI plays only in a solo game (mode = "solo")'
        )
    return sheet.ai


def verify_ai_turn(sheet: Sheet, die: int, human_arena: str) -> None:
    ai = _ai(sheet)
    human = sheet.players[0]
    where = f"{sheet.source}: " if sheet.source else ""
    if die not in DIE_FACES:
        raise IllegalAiTurn(f"a die shows 1 to 6, not {die}")
    if human_arena not in sheet.layout.arena_names:
        known = ", ".join(sheet.layout.arena_names)
        raise IllegalAiTurn(f"{where}no arena {quote(human_arena)}; the arenas: {known}")
    h, a = sheet.filled(human), sheet.filled(ai)
    if h != a + 1:
        raise IllegalAiTurn(
            f"{where}not the AI's turn: {human} has {h} numbers and the AI {a}; the AI writes "
            f"right after {human}, when it has one number fewer"
        )
    if sheet.arena(human_arena).side(human).filled == 0:
        raise IllegalAiTurn(
            f"{where}{human} has no number in {human_arena}, so did not just write there"
        )


def can_ai_turn(sheet: Sheet, die: int, human_arena: str) -> bool:
    try:
        verify_ai_turn(sheet, die, human_arena)
    except PrintgenError:
        return False
    return True


def ai_turn(sheet: Sheet, die: int, human_arena: str) -> AiTurn:
    verify_ai_turn(sheet, die, human_arena)
    ai = _ai(sheet)
    number = die + 1
    arena, why = _pick_arena(sheet, ai, number, human_arena)
    square = arena.side(ai).squares.index(Mark.EMPTY)
    written = sheet.with_square(arena.name, ai, square, number)
    tick = _pick_tick(written, ai)
    star = None
    if tick is not None:
        side = tick.side(ai)
        if side.uses == 0 and not side.has_star:
            star = best_star(tick, ai)
    return AiTurn(die, number, arena.name, square, why, tick.name if tick else None, star)


def _pick_arena(sheet: Sheet, ai: str, number: int, human_arena: str) -> tuple[Arena, str]:
    with_room = [a for a in sheet.arenas if not a.side(ai).is_full]
    elsewhere = [a for a in with_room if a.name != human_arena]
    pool = elsewhere or with_room
    forced = "" if elsewhere else f"; only {human_arena}, where the human just wrote, has room"

    def same(arena: Arena) -> int:
        return arena.side(ai).squares.count(number)

    def entered(arena: Arena) -> int:
        return arena.side(ai).filled

    most = max(same(a) for a in pool)
    best = [a for a in pool if same(a) == most]
    if len(best) == 1:
        return best[0], f"most {number}s on its side: {most}{forced}"
    most_entered = max(entered(a) for a in best)
    fullest = [a for a in best if entered(a) == most_entered]
    tied = f"{most} {number}s in {len(best)} arenas" if most else f"no {number} yet"
    if len(fullest) == 1:
        return fullest[0], f"{tied}; most numbers entered: {most_entered}{forced}"
    # Layout order is left to right as the human, the first player, sees the sheet.
    return fullest[0], f"{tied}; {most_entered} numbers in each; leftmost{forced}"


def _pick_tick(sheet: Sheet, ai: str) -> Arena | None:
    for arena in sheet.arenas:
        if arena.side(ai).is_full and arena.boxes_left > 0:
            return arena
    return None


def best_star(arena: Arena, ai: str) -> StarPlacement:
    """Which of the AI's numbers in a full arena becomes the star: the one whose replacement
    scores best (rank, then sums); among equals, the leftmost."""
    squares = arena.side(ai).squares
    best: StarPlacement | None = None
    for i, replaced in enumerate(squares):
        if not isinstance(replaced, int):
            continue
        hand = evaluate(squares[:i] + (Mark.STAR,) + squares[i + 1 :], arena.allies)
        if best is None or hand.key > best.hand.key:
            best = StarPlacement(arena.name, i, replaced, hand)
    if best is None:
        raise IllegalAiTurn(f"arena {arena.name}: the AI has no number to replace with a star")
    return best
