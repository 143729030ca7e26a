"""One Page War rules: what one side's numbers make in an arena, and which side wins the arena.

The API the referee, the solo AI and the photo reader share:

- `Combination`: the seven combinations, named in the rulebook's words (`.value` is the phrase).
- `RANKS` and `ALLIES_RANKS`: the rank tables, weakest to strongest. `ALLIES_RANKS` is the same
  table with the straight moved to the top, for an arena where the Allies "S" was written.
- `Mark`: the two squares that are not numbers, `Mark.EMPTY` ("_") and `Mark.STAR` ("*").
- `evaluate(squares, allies=False) -> Hand`: a full side (whole numbers 0 or more and at most one
  `Mark.STAR`) scored. A star takes the value that makes the side best (`best_star_value`).
- `judge(first, second) -> Verdict`: who wins the arena (+1 first, -1 second, 0 tie) and why, in
  words: "three of a kind beats two pairs", "both one pair: 6+6 beats 4+4".
- `Hand.key`: (rank, sum of the combination, sum of the rest); a larger key wins, equal keys tie.

Rulings (docs/rulings.md, "One Page War"): equal sums with different numbers tie the arena; a
star may stand for any whole number 0 or more; "nothing" is compared by the sum of all numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, lru_cache

from printgen.errors import PrintgenError


class Mark(Enum):
    """A square that holds no number: still empty, or an AI star (solo mode)."""

    EMPTY = "_"
    STAR = "*"


# What a square on a typed-in sheet holds.
Square = int | Mark


class Combination(Enum):
    NOTHING = "nothing"
    ONE_PAIR = "one pair"
    TWO_PAIRS = "two pairs"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three of a kind"
    FOUR_OF_A_KIND = "four of a kind"
    FIVE_OF_A_KIND = "five of a kind"


# Weakest to strongest, as the rulebook lists them (it lists strongest first).
RANKS: tuple[Combination, ...] = (
    Combination.NOTHING,
    Combination.ONE_PAIR,
    Combination.TWO_PAIRS,
    Combination.STRAIGHT,
    Combination.THREE_OF_A_KIND,
    Combination.FOUR_OF_A_KIND,
    Combination.FIVE_OF_A_KIND,
)

# With the Allies "S" in an arena, a straight beats everything; the rest keep their order.
ALLIES_RANKS: tuple[Combination, ...] = tuple(c for c in RANKS if c is not Combination.STRAIGHT) + (
    Combination.STRAIGHT,
)

_RANK_INDEX = {c: i for i, c in enumerate(RANKS)}
_ALLIES_RANK_INDEX = {c: i for i, c in enumerate(ALLIES_RANKS)}

# How many equal numbers a side holds, largest group first, to the combination it makes. Every
# pattern an arena of 2 to 5 squares can show is listed; all-different numbers are a straight
# or nothing, decided by whether they run consecutively. A triple with a pair is three of a kind.
PATTERNS: dict[tuple[int, ...], Combination] = {
    (5,): Combination.FIVE_OF_A_KIND,
    (4,): Combination.FOUR_OF_A_KIND,
    (4, 1): Combination.FOUR_OF_A_KIND,
    (3,): Combination.THREE_OF_A_KIND,
    (3, 1): Combination.THREE_OF_A_KIND,
    (3, 2): Combination.THREE_OF_A_KIND,
    (3, 1, 1): Combination.THREE_OF_A_KIND,
    (2, 2): Combination.TWO_PAIRS,
    (2, 2, 1): Combination.TWO_PAIRS,
    (2,): Combination.ONE_PAIR,
    (2, 1): Combination.ONE_PAIR,
    (2, 1, 1): Combination.ONE_PAIR,
    (2, 1, 1, 1): Combination.ONE_PAIR,
}

MIN_SQUARES = 2
MAX_SQUARES = 5


class RulesError(PrintgenError):
    """A side handed to the rules that no sheet can hold (a caller's bug or unchecked input)."""


@dataclass(frozen=True)
class Hand:
    """One side of one arena, scored."""

    numbers: tuple[int, ...]  # as counted, in sheet order; a star replaced by its value
    combination: Combination
    combo: tuple[int, ...]  # the numbers making the combination, highest first
    rest: tuple[int, ...]  # the remaining numbers, highest first
    allies: bool = False
    star: int | None = None  # index of the star among the squares, if the side has one

    @cached_property
    def rank(self) -> int:
        table = _ALLIES_RANK_INDEX if self.allies else _RANK_INDEX
        return table[self.combination]

    @cached_property
    def key(self) -> tuple[int, int, int]:
        """Larger wins: rank, then the sum of the combination, then the sum of the rest."""
        return (self.rank, sum(self.combo), sum(self.rest))

    @property
    def star_value(self) -> int | None:
        return None if self.star is None else self.numbers[self.star]

    def to_text(self) -> str:
        shown = [str(n) for n in self.numbers]
        if self.star is not None:
            shown[self.star] = f"*={self.numbers[self.star]}"
        return " ".join(shown)


@dataclass(frozen=True)
class Verdict:
    """Who wins an arena: +1 the first side, -1 the second, 0 a tie; and why, in words."""

    outcome: int
    reason: str


def classify(numbers: Sequence[int]) -> Combination:
    """The combination a full side of whole numbers makes (no stars)."""
    return _split(numbers)[0]


def _split(numbers: Sequence[int]) -> tuple[Combination, tuple[int, ...], tuple[int, ...]]:
    counts = Counter(numbers)
    # Largest group first, then the higher number: the combination is built from the front.
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    pattern = tuple(count for _, count in groups)
    if max(pattern) == 1:
        ordered = tuple(sorted(numbers, reverse=True))
        if ordered[0] - ordered[-1] == len(ordered) - 1:
            return Combination.STRAIGHT, ordered, ()
        # Nothing has no combination numbers of its own: every number is "remaining".
        return Combination.NOTHING, (), ordered
    combination = PATTERNS[pattern]
    in_combo = 2 if combination is Combination.TWO_PAIRS else 1
    combo = tuple(sorted((n for n, c in groups[:in_combo] for _ in range(c)), reverse=True))
    rest = tuple(sorted((n for n, c in groups[in_combo:] for _ in range(c)), reverse=True))
    return combination, combo, rest


def _hand(numbers: tuple[int, ...], allies: bool, star: int | None) -> Hand:
    combination, combo, rest = _split(numbers)
    return Hand(numbers, combination, combo, rest, allies, star)


def star_candidates(others: Iterable[int]) -> tuple[int, ...]:
    """Every value worth trying for a star beside `others`: each of them and the numbers next to
    them. Matching a number raises the rank; a straight only ever needs a neighbour or a gap;
    any other value leaves the rank as it was, which matching always beats."""
    values: set[int] = set()
    for n in others:
        values.update(v for v in (n - 1, n, n + 1) if v >= 0)
    return tuple(sorted(values))


def best_star_value(squares: Sequence[Square], allies: bool = False) -> int:
    """The value a side's star counts as: the best rank, then the best sums; among values that
    score the same, the highest (so the table shows one value, always the same one)."""
    return evaluate(squares, allies).numbers[_star_index(squares)]


def _star_index(squares: Sequence[Square]) -> int:
    stars = [i for i, s in enumerate(squares) if s is Mark.STAR]
    if len(stars) != 1:
        raise RulesError(f"expected one star among {_show(squares)}")
    return stars[0]


def evaluate(squares: Sequence[Square], allies: bool = False) -> Hand:
    """Score a full side: whole numbers 0 or more and at most one star."""
    if any(type(s) is bool for s in squares):
        # True == 1 would otherwise share 1's entry in the lookup below.
        raise RulesError(f"not a full side of whole numbers: {_show(squares)}")
    return _evaluate(tuple(squares), allies)


# Arenas hold few numbers from a small range, so a sheet's sides repeat a lot: a lookup of
# every side seen so far makes scoring a batch of sheets cheap (the pokerkit lookup idea,
# filled lazily rather than enumerated up front, since powers put no upper bound on numbers).
@lru_cache(maxsize=1 << 16)
def _evaluate(squares: tuple[Square, ...], allies: bool) -> Hand:
    if not MIN_SQUARES <= len(squares) <= MAX_SQUARES:
        raise RulesError(
            f"an arena side holds {MIN_SQUARES} to {MAX_SQUARES} squares, not {len(squares)}"
        )
    star: int | None = None
    numbers: list[int] = []
    for i, square in enumerate(squares):
        if square is Mark.STAR:
            if star is not None:
                raise RulesError(f"two stars in one side: {_show(squares)}")
            star = i
            numbers.append(0)
        elif isinstance(square, int) and not isinstance(square, bool) and square >= 0:
            numbers.append(square)
        else:
            raise RulesError(f"not a full side of whole numbers: {_show(squares)}")
    if star is None:
        return _hand(tuple(numbers), allies, None)
    others = numbers[:star] + numbers[star + 1 :]
    best: Hand | None = None
    for value in star_candidates(others):
        numbers[star] = value
        hand = _hand(tuple(numbers), allies, star)
        # Candidates rise, so ">=" keeps the highest value among equally good ones.
        if best is None or hand.key >= best.key:
            best = hand
    assert best is not None  # star_candidates is never empty beside at least one number
    return best


def compare(first: Hand, second: Hand) -> int:
    """+1 if the first side wins, -1 if the second does, 0 for a tie."""
    if first.allies != second.allies:
        raise RulesError("both sides of an arena are scored with the same Allies setting")
    return (first.key > second.key) - (first.key < second.key)


def judge(first: Hand, second: Hand) -> Verdict:
    """Who wins the arena and why, in the words the referee prints."""
    return _judge(first, second)


@lru_cache(maxsize=1 << 16)
def _judge(first: Hand, second: Hand) -> Verdict:
    outcome = compare(first, second)
    winner, loser = (second, first) if outcome < 0 else (first, second)
    name = winner.combination.value
    if winner.rank != loser.rank:
        reason = f"{name} beats {loser.combination.value}"
        if winner.allies and winner.combination is Combination.STRAIGHT:
            reason += " (Allies)"
        return Verdict(outcome, reason)
    both = f"both {name}"
    if winner.combination is Combination.NOTHING:
        # Nothing has only remaining numbers; say so by their sums.
        if outcome:
            return Verdict(
                outcome, f"{both}: {_sum_text(winner.rest)} beats {_sum_text(loser.rest)}"
            )
        return Verdict(0, _tie_reason(both, winner, loser))
    if sum(winner.combo) != sum(loser.combo):
        return Verdict(outcome, f"{both}: {_sum_text(winner.combo)} beats {_sum_text(loser.combo)}")
    if sum(winner.rest) != sum(loser.rest):
        combo = (
            _sum_text(winner.combo)
            if winner.combo == loser.combo
            else f"{_sum_text(winner.combo)} and {_sum_text(loser.combo)} make {sum(winner.combo)}"
        )
        return Verdict(
            outcome,
            f"{both}, {combo}: remaining {_sum_text(winner.rest)} beats {_sum_text(loser.rest)}",
        )
    return Verdict(0, _tie_reason(both, winner, loser))


def _tie_reason(both: str, first: Hand, second: Hand) -> str:
    if sorted(first.numbers) == sorted(second.numbers):
        return f"{both}, the same numbers: tied"
    # Listed in a fixed order, so the reason reads the same whichever side is named first.
    first, second = sorted((first, second), key=lambda h: (h.combo, h.rest), reverse=True)
    return (
        f"{both}, different numbers with equal sums "
        f"({_sum_text(first.combo + first.rest)} and {_sum_text(second.combo + second.rest)}): "
        "tied by ruling"
    )


def _sum_text(numbers: Sequence[int]) -> str:
    return "+".join(str(n) for n in numbers) if numbers else "0"


def _show(squares: Sequence[Square]) -> str:
    return "[" + ", ".join(s.value if isinstance(s, Mark) else repr(s) for s in squares) + "]"
