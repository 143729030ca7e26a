"""The joint reading of a sheet: each square's probability given the rules of a played game.

The recogniser reads every square on its own. The rules tie the squares together: each turn the
roller writes the die's number and the rival writes the same number (in solo the AI writes it
plus one), so before powers the two sides hold the same numbers. A power changes at most one
number, on its user's side, and ticks a box on both sides: Armored support moves a number one
step, Air raid and Stolen Intel replace one (by the die's number, by a copy of a rival's number),
Redeployment swaps two and Allies writes an S (neither changes which numbers a side holds). So
the numbers of the two sides pair up one to one, each pair from one roll, up to as many replaced
numbers as Air raid and Stolen Intel were used (Air raid writes the die's 1 to 6, so a number
past them it wrote still took its steps) and as many steps as Armored support was; an
unfinished sheet may hold one number its rival has not answered yet. In solo an AI star stands
for the number it replaced, and the human's uses are the ticks less the AI's own (an arena where
the AI has a star holds at least one AI tick). On a team sheet a team-mate may give a power's
use, so the sheet's ticks bound nothing and only what a square can hold is used.

`joint_reading(squares, ticks, layout, mode, temperature)`:

1. Each square's candidates (the recogniser's probabilities, raised to 1 / temperature) are
   kept where the sheet can hold them (`sheet.square_problem`, `sheet.Reach` at the most ticks
   the tick readings allow); the share the recogniser gave "a mark that is no digit" stays as a
   number nobody can read, which pairs with anything.
2. Whole-sheet readings are visited likeliest first (each square's candidates in order of their
   cost, the standard scheme for the best sums of sorted lists), each judged legal or not
   (`fits`, exact on the multisets of numbers), until what is left unvisited is negligible
   against the legal mass found, or a fixed number of readings has been looked at.
3. Each square's posterior given the rules is bounded from below: the legal mass found with the
   square at a value, over all legal mass found plus all the unvisited mass where the square
   holds something else (which is known exactly per square). The bound is what is decided on.
4. A sheet whose likeliest legal reading is far less likely than its likeliest reading
   (`FAR_RATIO`), or where none is found, is `far`: not played by these rules or badly misread,
   so the rules are not used on it at all.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from printgen.games.one_page_war.geometry import Side
from printgen.games.one_page_war.layout import Layout
from printgen.games.one_page_war.reader.cells import Reading, holds_a_mark
from printgen.games.one_page_war.sheet import (
    ARMORED_SUPPORT,
    STOLEN_INTEL,
    Mode,
    Reach,
    square_problem,
)

AIR_RAID = "Air raid"
DIE = range(1, 7)
UNREAD = "?"  # a number written so that nobody can read it: it pairs with anything
EMPTY = "_"
STAR = "*"
W = -1  # in a pairing: a number whose roll is unknown (unread, a star, or not answered yet)

# The search: readings looked at, at most; and when to stop earlier, once the mass not yet
# visited is this small against the legal mass found.
MAX_READINGS = 1500
ENOUGH = 1e-4
# Candidates below this share of a square's mass are dropped (their mass stays unvisited).
MIN_SHARE = 1e-9
# A sheet whose likeliest legal reading is this many times less likely than its likeliest
# reading is far from any legal game.
FAR_RATIO = 1e-8


# --- what the ticks allow -----------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """The most uses of each arena's power the tick boxes allow: (arena, power, uses)."""

    uses: tuple[tuple[str, str, int], ...]
    unbounded: bool = False  # a team sheet: gifts from team-mates are not on this sheet

    def raids(self, starred: frozenset[str] = frozenset()) -> int:
        """Numbers Air raid may have replaced by the die's (1 to 6); in solo an arena where the
        AI has a star holds one AI tick, which changed nothing of the human's."""
        return self._human(AIR_RAID, starred)

    def copies(self, starred: frozenset[str] = frozenset()) -> int:
        """Numbers Stolen Intel may have written as a copy of a rival's number."""
        return self._human(STOLEN_INTEL, starred)

    def steps(self, starred: frozenset[str] = frozenset()) -> int:
        return self._human(ARMORED_SUPPORT, starred)

    def _human(self, power: str, starred: frozenset[str]) -> int:
        return sum(max(0, n - (a in starred)) for a, p, n in self.uses if p == power)

    def of(self, power: str) -> int:
        return sum(n for _, p, n in self.uses if p == power)

    def to_text(self) -> str:
        if self.unbounded:
            return "a team-mate may give a power's use, so this sheet's ticks bound nothing"
        return (
            f"the ticks allow {_times(self.of(AIR_RAID))} Air raid, "
            f"{_times(self.of(STOLEN_INTEL))} Stolen Intel and "
            f"{_times(self.of(ARMORED_SUPPORT))} Armored support"
        )


def _times(n: int) -> str:
    return {0: "no", 1: "one"}.get(n, str(n))


def tick_budget(ticks: Sequence[Reading], layout: Layout, mode: Mode, unsure: bool) -> Budget:
    """Each arena's power uses at most: the ticked boxes of the side that shows more (one use
    ticks both sides), an unsure box counted as ticked when `unsure`, else as empty."""
    uses = []
    for a in layout.arenas:
        most = 0
        for side in Side:
            boxes = [r for r in ticks if r.element.arena == a.name and r.element.side is side]
            most = max(most, sum(1 for r in boxes if _counted(r, unsure)))
        uses.append((a.name, a.power, min(most, a.ticks)))
    return Budget(tuple(uses), unbounded=mode is Mode.TEAM)


def _counted(r: Reading, unsure: bool) -> bool:
    return unsure if r.unsure else r.value == "ticked"


# --- pairing the two sides ------------------------------------------------------------------


def _out(v: int) -> int:
    """Steps of Armored support from the die's 1 to 6 to `v`."""
    return 0 if v in DIE else (1 - v if v < 1 else v - 6)


# A pair's cost: (numbers Air raid replaced, numbers Stolen Intel wrote, steps of Armored support).
Cost = tuple[int, int, int]


@cache
def _duel_costs(x: int, y: int) -> tuple[Cost, ...]:
    """What explains a pair of a duel: two numbers written for one roll. Air raid writes the
    die's 1 to 6, so a replaced number past them still needs its steps; a Stolen Intel copy may
    be any number the rival holds, so it needs none."""
    if x == W and y == W:
        return ((0, 0, 0),)
    if W in (x, y):
        v = y if x == W else x
        return ((0, 0, _out(v)), (0, 1, 0))
    both = min(abs(x - d) + abs(y - d) for d in DIE)
    one = min(_out(x), _out(y))
    # Two numbers replaced never beat one, unless both are copies.
    return ((0, 0, both), (1, 0, _out(x) + _out(y)), (0, 1, one), (0, 2, 0))


@cache
def _solo_costs(h: int, d: int) -> tuple[Cost, ...]:
    """The same for the human's number `h` and the roll `d` the AI wrote (its number less one):
    only the human changes numbers; Air raid writes 1 to 6, Stolen Intel copies the AI's 2 to 7."""
    if h == W:
        return ((0, 0, 0),)
    raided = (1, 0, _out(h))
    copied = (0, 1, max(0, h - 7, 1 - h))
    if d == W:
        return ((0, 0, _out(h)), raided, copied)
    return ((0, 0, abs(h - d)), raided, copied)


# A memo for the recursion within one sheet's search. The most one real-digit sheet of the
# bench needed was 13,363 entries; at 4,096 that sheet's search thrashed (107-141 ms instead of
# about 40). At 16,384 a long batch or a server holds at most about 4 MB of pairings, not the
# 20 MB that 65,536 entries came to.
@lru_cache(maxsize=1 << 14)
def fits(
    a: tuple[int, ...], b: tuple[int, ...], raids: int, copies: int, steps: int, solo: bool
) -> bool:
    """Whether the numbers `a` of one side pair one to one with `b` of the other within the
    budget (W pairs with anything). `a` and `b` are what is left once equal numbers of the die's
    range are paired off, which never costs a better pairing (a pair of equal numbers is free,
    and breaking it can only pair its members with something farther)."""
    if not a:
        return not b
    wild = a.count(W) + b.count(W)
    if len(a) - wild > raids + copies + steps:  # every pair without a W costs something
        return False
    x, rest = a[0], a[1:]
    seen: set[int] = set()
    costs = _solo_costs if solo else _duel_costs
    for j, y in enumerate(b):
        if y in seen:
            continue
        seen.add(y)
        others = b[:j] + b[j + 1 :]
        for r, c, s in costs(x, y):
            if (
                r <= raids
                and c <= copies
                and s <= steps
                and fits(rest, others, raids - r, copies - c, steps - s, solo)
            ):
                return True
    return False


# --- the squares ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Square:
    side: int  # 0 the first player (the human in solo), 1 the second (the AI)
    arena: int
    values: tuple[str, ...]  # legal readings, likeliest first
    q: tuple[float, ...]  # their tempered probabilities, summing to 1
    slots: tuple[int, ...]  # where each value counts in a reading's tally


@dataclass(frozen=True)
class Belief:
    """What the rules make of one square: its legal readings, likeliest first, each with its
    probability given the rules (a lower bound) and a point estimate."""

    values: tuple[str, ...]
    posterior: tuple[float, ...]
    estimate: tuple[float, ...]
    # The square's own probability of each value, with the values the sheet cannot hold left
    # out: what the posterior would be if the other squares said nothing.
    own: tuple[float, ...] = ()

    @property
    def value(self) -> str:
        return self.values[0] if self.values else UNREAD

    def of(self, value: str) -> float:
        return self.posterior[self.values.index(value)] if value in self.values else 0.0

    def own_of(self, value: str) -> float:
        return self.own[self.values.index(value)] if value in self.values and self.own else 0.0


@dataclass(frozen=True)
class Joint:
    """The sheet read with the rules."""

    beliefs: tuple[Belief, ...]  # in the order of the squares given
    far: bool  # no legal game near the reading: the rules are not used on this sheet
    budget: Budget
    ratio: float  # the likeliest legal reading's probability over the likeliest reading's
    readings: int  # whole-sheet readings looked at
    unmatched: tuple[tuple[str, ...], tuple[str, ...]]  # in the likeliest reading, by side
    solo: bool

    def at_most(self, other: Joint) -> Joint:
        """This reading with each square's probability no higher than in `other` (the same
        squares read under other tick counts)."""
        beliefs = []
        for mine, theirs in zip(self.beliefs, other.beliefs, strict=True):
            pairs = sorted(
                (
                    (min(p, theirs.of(v)), e, v, o)
                    for v, p, e, o in zip(
                        mine.values, mine.posterior, mine.estimate, mine.own, strict=True
                    )
                ),
                key=lambda peco: -peco[0],
            )
            beliefs.append(
                Belief(
                    tuple(v for _, _, v, _ in pairs),
                    tuple(p for p, _, _, _ in pairs),
                    tuple(e for _, e, _, _ in pairs),
                    tuple(o for _, _, _, o in pairs),
                )
            )
        return replace(self, beliefs=tuple(beliefs), readings=self.readings + other.readings)

    def contradiction(self, side: int) -> str:
        """Why the likeliest reading of the squares breaks the rules, seen from `side`."""
        mine, theirs = self.unmatched[side], self.unmatched[1 - side]
        other = "the AI" if self.solo and side == 0 else "the other side"
        if theirs:
            found = f"{other} has an unmatched {_listed(theirs)}"
        elif mine:
            found = f"this side's {_listed(mine)} is unmatched"
        else:
            found = "the numbers do not add up"
        if self.budget.raids() + self.budget.copies() + self.budget.steps() == 0:
            return f"{found} and no power explains it"
        return f"{found}, more than {self.budget.to_text()} explain"


def _listed(values: tuple[str, ...]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


class _Tally:
    """Where each reading of a square counts, for the test of a whole-sheet reading: numbers by
    side and value, unread numbers by side, empty squares by side, stars by arena."""

    def __init__(self, highest: int, arenas: int) -> None:
        self.highest = highest
        self.width = highest + 1
        self.unread = 2 * self.width
        self.empty = self.unread + 2
        self.stars = self.empty + 2
        self.size = self.stars + arenas

    def slot(self, side: int, arena: int, value: str) -> int:
        if value == UNREAD:
            return self.unread + side
        if value == EMPTY:
            return self.empty + side
        if value == STAR:
            return self.stars + arena
        return side * self.width + int(value)


def _candidates(r: Reading) -> list[tuple[str, float]]:
    if r.candidates:
        return list(r.candidates)
    # A reading made by hand (tests): its two readings, the rest of the mass unread.
    found = [(r.value, r.confidence), (r.second, r.second_confidence)]
    rest = max(0.0, 1.0 - r.confidence - r.second_confidence)
    return [(v, p) for v, p in found if p > 0] + [(UNREAD, rest)]


def _square(
    r: Reading,
    mode: Mode,
    reach: Reach,
    arena: int,
    ticked: bool,
    temperature: float,
    tally: _Tally,
) -> _Square:
    side = 0 if r.element.side is Side.FIRST else 1
    ai_side = mode is Mode.SOLO and side == 1
    # A square with this much ink in it is not empty, whatever the networks say: what they gave
    # "empty" there is a mark they could not read (a digit that lost a stroke in the photo),
    # which pairs with anything. Ruling "empty" out must not make their first reading surer.
    inked = holds_a_mark(r.glyph_mm)
    mass: dict[str, float] = {}
    for value, p in _candidates(r):
        if p <= 0:
            continue
        key = value if _legal(value, mode, ai_side, reach, ticked) else None
        if value == UNREAD or not (value in (EMPTY, STAR) or value.isdigit()):
            key = UNREAD  # no digit, star or empty: a number nobody can read
        elif value == EMPTY and inked:
            key = UNREAD
        if key is not None:
            mass[key] = mass.get(key, 0.0) + p ** (1.0 / temperature)
    if not mass:
        mass[UNREAD] = 1.0
    total = sum(mass.values())
    ranked = sorted(((v, p / total) for v, p in mass.items()), key=lambda vp: -vp[1])
    kept = [(v, p) for v, p in ranked if p >= MIN_SHARE * ranked[0][1]]
    values = tuple(v for v, _ in kept)
    q = tuple(p for _, p in kept)
    return _Square(side, arena, values, q, tuple(tally.slot(side, arena, v) for v in values))


def _legal(value: str, mode: Mode, ai_side: bool, reach: Reach, ticked: bool) -> bool:
    """Whether the sheet can hold `value` in this square at all."""
    if value == EMPTY:
        return True
    if value == STAR:
        # The AI stars an arena at its first tick there, so only where a box may be ticked.
        return square_problem(value, mode, ai_side) is None and ticked
    if not value.isdigit():
        return False
    number = int(value)
    if square_problem(number, mode, ai_side) is not None:
        return False
    return ai_side or reach.number_problem(number) is None


# --- legality of a whole-sheet reading -------------------------------------------------------


class _Judge:
    """Whether a whole-sheet reading, given as its tally, can come from a legal game."""

    def __init__(self, tally: _Tally, budget: Budget, mode: Mode, arenas: tuple[str, ...]):
        self.tally = tally
        self.budget = budget
        self.solo = mode is Mode.SOLO
        self.arenas = arenas
        self.cache: dict[tuple[int, ...], bool] = {}
        # (raids, copies, steps) the budget allows, by the stars of each arena
        self.allowed: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def __call__(self, counts: tuple[int, ...]) -> bool:
        found = self.cache.get(counts)
        if found is None:
            found = self._judge(counts)
            self.cache[counts] = found
        return found

    def sides(self, counts: tuple[int, ...]) -> tuple[list[int], list[int]] | None:
        """The numbers of each side left once equal rolls are paired off (W for a number whose
        roll is unknown), or None when the counts of numbers cannot follow the turns."""
        t = self.tally
        first, second = counts[: t.width], counts[t.width : 2 * t.width]
        stars = counts[t.stars : t.size]
        n1 = sum(first) + counts[t.unread]
        n2 = sum(second) + counts[t.unread + 1] + sum(stars)
        if self.solo:
            if not 0 <= n1 - n2 <= 1 or max(stars, default=0) > 1:
                return None
            # The AI writes the roll plus one: its 2 to 7 are rolls of 1 to 6.
            rolls = [0] * t.width
            for v in range(1, t.width):
                rolls[v - 1] = second[v]
            second = tuple(rolls)
        elif abs(n1 - n2) > 1:
            return None
        a: list[int] = []
        b: list[int] = []
        for v in range(t.width):
            x, y = first[v], second[v]
            if v in DIE:
                paired = min(x, y)
                x, y = x - paired, y - paired
            a.extend([v] * x)
            b.extend([v] * y)
        a.extend([W] * counts[t.unread])
        b.extend([W] * (counts[t.unread + 1] + sum(stars)))
        if n1 < n2:
            a.append(W)  # the roll the first side has not answered yet
        elif n2 < n1:
            b.append(W)
        return a, b

    def _judge(self, counts: tuple[int, ...]) -> bool:
        found = self.sides(counts)
        if found is None:
            return False
        if self.budget.unbounded:
            return True
        a, b = found
        t = self.tally
        stars = counts[t.stars : t.size]
        allowed = self.allowed.get(stars)
        if allowed is None:
            starred = frozenset(name for name, n in zip(self.arenas, stars, strict=True) if n)
            budget = self.budget
            allowed = (budget.raids(starred), budget.copies(starred), budget.steps(starred))
            self.allowed[stars] = allowed
        return fits(tuple(a), tuple(b), *allowed, self.solo)


# --- the search --------------------------------------------------------------------------------


def joint_reading(
    squares: Sequence[Reading],
    ticks: Sequence[Reading],
    layout: Layout,
    mode: Mode,
    temperature: float = 1.0,
) -> Joint:
    """Each square's probability given the rules (see the module's docstring). Where a tick box
    is unsure, the sheet is read with it ticked and with it empty, and each square keeps the
    lower of its two probabilities: the rules never trust a tick more than its reading does. A
    sheet that is no legal game either way is far (a misread number may be what needs the
    tick: the rules must not lean on the tick to accept it)."""
    most = _read(squares, layout, mode, tick_budget(ticks, layout, mode, True), temperature)
    least_budget = tick_budget(ticks, layout, mode, False)
    if least_budget == most.budget:
        return most
    least = _read(squares, layout, mode, least_budget, temperature)
    return replace(most, far=True) if least.far else most.at_most(least)


def _read(
    squares: Sequence[Reading], layout: Layout, mode: Mode, budget: Budget, temperature: float
) -> Joint:
    reach = Reach(budget.of(ARMORED_SUPPORT), budget.of(STOLEN_INTEL), mode is Mode.SOLO)
    arenas = layout.arena_names
    # The largest number a square of this sheet can hold: the human's reach, the AI's 7.
    tally = _Tally(max(reach.highest, 7), len(arenas))
    ticked = {a: n > 0 for a, _, n in budget.uses}
    model = [
        _square(
            r,
            mode,
            reach,
            arenas.index(r.element.arena or ""),
            ticked[r.element.arena or ""],
            temperature,
            tally,
        )
        for r in squares
    ]
    judge = _Judge(tally, budget, mode, arenas)
    return _search(model, judge, budget, mode)


def _search(model: list[_Square], judge: _Judge, budget: Budget, mode: Mode) -> Joint:
    n = len(model)
    base = [0] * judge.tally.size
    for s in model:
        base[s.slots[0]] += 1
    log_top = sum(math.log(s.q[0]) for s in model)
    top_mass = math.exp(log_top)
    # Squares with a second reading, cheapest change first; cost(i, r) = log q[0] - log q[r].
    order = sorted(
        (i for i in range(n) if len(model[i].q) > 1),
        key=lambda i: math.log(model[i].q[0] / model[i].q[1]),
    )
    costs = [[math.log(model[i].q[0] / p) for p in model[i].q] for i in order]

    explored = legal_mass = 0.0
    seen_at: list[dict[int, float]] = [{} for _ in range(n)]  # mass visited with square at r > 0
    legal_at: list[dict[int, float]] = [{} for _ in range(n)]
    first_legal: float | None = None
    readings = 0
    # Heap entries: (cost, tie-break, changes as ((position in order, rank), ...)).
    heap: list[tuple[float, int, tuple[tuple[int, int], ...]]] = [(0.0, 0, ())]
    counter = 1
    while heap and readings < MAX_READINGS:
        cost, _, changes = heapq.heappop(heap)
        readings += 1
        mass = top_mass * math.exp(-cost)
        counts = list(base)
        for k, rank in changes:
            s = model[order[k]]
            counts[s.slots[0]] -= 1
            counts[s.slots[rank]] += 1
        explored += mass
        legal = judge(tuple(counts))
        for k, rank in changes:
            i = order[k]
            seen_at[i][rank] = seen_at[i].get(rank, 0.0) + mass
            if legal:
                legal_at[i][rank] = legal_at[i].get(rank, 0.0) + mass
        if legal:
            legal_mass += mass
            if first_legal is None:
                first_legal = mass
        for child, step in _children(changes, costs, len(order)):
            heapq.heappush(heap, (cost + step, counter, child))
            counter += 1
        if legal_mass > 0 and 1.0 - explored <= ENOUGH * legal_mass:
            break
    unvisited = max(0.0, 1.0 - explored)
    ratio = (first_legal or 0.0) / top_mass
    far = first_legal is None or ratio < FAR_RATIO
    beliefs = []
    for i, s in enumerate(model):
        posterior, estimate = [], []
        for r, q in enumerate(s.q):
            seen = seen_at[i].get(r, 0.0) if r else explored - sum(seen_at[i].values())
            legal_here = legal_at[i].get(r, 0.0) if r else legal_mass - sum(legal_at[i].values())
            # Mass not visited where this square holds something else: what could still be
            # legal against this value.
            elsewhere = min(unvisited, max(0.0, (1.0 - q) - (explored - seen)))
            denominator = legal_mass + elsewhere
            posterior.append(legal_here / denominator if denominator > 0 else 0.0)
            estimate.append(legal_here / legal_mass if legal_mass > 0 else 0.0)
        ranked = sorted(range(len(s.q)), key=lambda r: (-posterior[r], -s.q[r]))
        beliefs.append(
            Belief(
                tuple(s.values[r] for r in ranked),
                tuple(posterior[r] for r in ranked),
                tuple(estimate[r] for r in ranked),
                tuple(s.q[r] for r in ranked),
            )
        )
    return Joint(
        tuple(beliefs),
        far,
        budget,
        ratio,
        readings,
        _unmatched(judge, base),
        mode is Mode.SOLO,
    )


def _children(
    changes: tuple[tuple[int, int], ...], costs: list[list[float]], n: int
) -> list[tuple[tuple[tuple[int, int], ...], float]]:
    """The next readings after one, each with what it costs more, so that every reading is
    reached once and never before a likelier one: the last changed square one rank further,
    the next square changed as well, or (when the last was at its second reading) the change
    moved on to the next square."""
    if not changes:
        return [(((0, 1),), costs[0][1])] if n else []
    *head, (k, r) = changes
    out = []
    if r + 1 < len(costs[k]):
        out.append(((*head, (k, r + 1)), costs[k][r + 1] - costs[k][r]))
    if k + 1 < n:
        out.append(((*changes, (k + 1, 1)), costs[k + 1][1]))
        if r == 1:
            out.append(((*head, (k + 1, 1)), costs[k + 1][1] - costs[k][1]))
    return out


def _unmatched(judge: _Judge, counts: list[int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The numbers of each side that pair with nothing equal in the likeliest reading, as
    written (the AI's as it wrote them, roll plus one)."""
    found = judge.sides(tuple(counts))
    if found is None:
        return (), ()
    a, b = found
    shift = 1 if judge.solo else 0
    return (
        tuple(str(v) for v in a if v != W),
        tuple(str(v + shift) for v in b if v != W),
    )
