"""The rules as a check on what was read, and as evidence where the handwriting is not enough.

Every square is decided on its probability given the rules of a played game (joint.py): a
square the recogniser was unsure of is accepted when the rules settle it, and a square it was
sure of is unsure when the rules contradict it, saying why. A sheet far from any legal game is
judged square by square instead, and says so. On every sheet, a value no legal play can produce,
or tick boxes that contradict the numbers, make the cells involved unsure (never silently
accepted)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from printgen.games.one_page_war.geometry import Side
from printgen.games.one_page_war.layout import Layout
from printgen.games.one_page_war.reader import digits
from printgen.games.one_page_war.reader.cells import (
    Reading,
    SheetReading,
    percent,
    power_uses,
    ticked,
)
from printgen.games.one_page_war.reader.joint import DIE, UNREAD, Belief, Joint, joint_reading
from printgen.games.one_page_war.sheet import (
    ARMORED_SUPPORT,
    STOLEN_INTEL,
    Mode,
    Reach,
    square_problem,
)

ALLIES = "Allies"
# The rules may settle a square on a value the recogniser gave at least this probability, never
# on one it all but ruled out.
RESCUE_SUPPORT = 0.01
# A reading sure on its own stays sure while its probability given the rules is at least this
# and no other value is likelier: the rules may contradict a reading, never make one surer.
KEEP = 0.5
# A player's number past the die (0, 7, 8) is always checked by the player: only Armored
# support (or a copied number) makes one, so it is rare on a sheet, while the recogniser learnt
# every digit as equally likely, and a 1 written with a flag is its surest mistake (read as 7).
PAST_THE_DIE = (
    "read as {value}, a number past the die's 1 to 6, which only Armored support or a copied "
    "number makes: check it"
)
FAR_NOTE = (
    "the numbers on the two sides do not pair up as in a game played by the rules ({why}), so "
    "each square was judged on its own: check the sheet"
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
    second, q = _beside(r, value, second, q)
    return replace(r, value=value, confidence=p, second=second, second_confidence=q)


def _beside(r: Reading, value: str, second: str, q: float) -> tuple[str, float]:
    """The reading shown beside `value`: what a second look at the mark read (its lighter
    strokes, its pieces joined), which the reason names, else the runner-up `second`."""
    if r.offered is not None and r.offered[0] != value:
        return r.offered
    return second, q


class _Problems:
    """Why a value cannot stand in a square of this sheet, whatever the other squares hold."""

    def __init__(self, sheet: SheetReading, layout: Layout, mode: Mode) -> None:
        self.mode = mode
        # The rule itself lives with the typed-in sheet's, so both refuse the same numbers.
        self.reach = Reach(
            power_uses(sheet.ticks, layout.arenas, ARMORED_SUPPORT),
            power_uses(sheet.ticks, layout.arenas, STOLEN_INTEL),
            mode is Mode.SOLO,
        )

    def __call__(self, value_text: str, ai_side: bool) -> list[str]:
        if value_text == "?":
            return ["a mark that is no digit or star"]
        value: object = int(value_text) if value_text.isdigit() else value_text
        problem = square_problem(value, self.mode, ai_side)
        if problem:
            return [problem]
        if isinstance(value, int) and not ai_side:
            beyond = self.reach.number_problem(value)
            if beyond is not None:
                return [beyond]
        return []


def cross_check(
    sheet: SheetReading,
    layout: Layout,
    mode: Mode,
    using: digits.Model | None = None,
    joint: bool = True,
) -> SheetReading:
    """The sheet's readings decided with the rules; `using` the shipped model's calibration
    (the joint decision's temperature and thresholds) unless given. With `joint` False, every
    square is decided on its own reading, as on a sheet far from any legal game (the bench
    compares the two; calibration measures the recogniser's own thresholds so)."""
    model = using or digits.model()
    doubts: dict[int, list[str]] = {}

    def doubt(r: Reading, why: str) -> None:
        doubts.setdefault(id(r), []).append(why)

    for a in layout.arenas:
        first = ticked(sheet.ticks, a.name, Side.FIRST)
        second = ticked(sheet.ticks, a.name, Side.SECOND)
        if first != second:
            for r in sheet.ticks:
                if r.element.arena == a.name:
                    doubt(
                        r,
                        f"the sides show {first} and {second} ticked boxes, but each use of "
                        "a power ticks a box on both sides",
                    )

    problems = _Problems(sheet, layout, mode)
    notes: tuple[str, ...] = ()
    read = (
        joint_reading(sheet.squares, sheet.ticks, layout, mode, model.joint_temperature)
        if joint
        else None
    )
    if read is None:
        squares = tuple(_alone(r, problems, mode) for r in sheet.squares)
    elif read.far:
        squares = tuple(_alone(r, problems, mode) for r in sheet.squares)
        why = ", ".join(
            f"{name} has {', '.join(values)} unmatched"
            for name, values in zip(_names(mode), read.unmatched, strict=True)
            if values
        )
        notes = (FAR_NOTE.format(why=why or "the counts of numbers do not follow the turns"),)
    else:
        squares = tuple(
            _decide(r, b, read, problems, mode, model)
            for r, b in zip(sheet.squares, read.beliefs, strict=True)
        )
        settled = sum(r.settled_by_rules for r in squares)
        if settled:
            notes = (f"the rules of the game settled {settled} square(s) the writing left open",)
    sheet = SheetReading(squares, sheet.ticks, sheet.allies, sheet.notes + notes)

    for r in sheet.squares:
        if not r.unsure and _past_the_die(r, mode):
            doubt(r, PAST_THE_DIE.format(value=r.value))

    for r, why in _unanswered_empties(sheet.squares):
        doubt(r, why)

    stars: Counter[str] = Counter()
    for r in sheet.squares:
        if r.value == "*":
            assert r.element.arena is not None
            stars[r.element.arena] += 1
            arena_ticks = ticked(sheet.ticks, r.element.arena, Side.SECOND)
            if arena_ticks == 0:
                doubt(r, "the AI's star comes with its first tick in an arena; none is ticked")
    for r in sheet.squares:
        if r.value == "*" and stars[r.element.arena or ""] > 1:
            doubt(r, "two stars in one arena; the AI stars once per arena")

    allies_written = [r for r in sheet.allies if r.value == "S"]
    allies_uses = power_uses(sheet.ticks, layout.arenas, ALLIES)
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

    return SheetReading(apply(sheet.squares), apply(sheet.ticks), apply(sheet.allies), sheet.notes)


def _unanswered_empties(squares: tuple[Reading, ...]) -> list[tuple[Reading, str]]:
    """The squares read surely empty on a side that holds two or more numbers fewer than the
    other, each with why. Every roll writes a number on both sides (the rival's in another
    arena; powers replace numbers, never add one), so the two sides differ by one at most, on
    an unfinished sheet; the likelier cause is writing too faint to see. Within one arena the
    sides may differ by more: the rival may not answer in the arena just written in."""
    sides = {side: [r for r in squares if r.element.side is side] for side in Side}
    numbers = {side: sum(r.value != "_" for r in rs) for side, rs in sides.items()}
    fewer = min(numbers, key=lambda side: numbers[side])
    more = max(numbers.values())
    if more - numbers[fewer] < 2:
        return []
    why = (
        f"read as empty, but this side holds {numbers[fewer]} numbers and the other {more}: "
        "each roll writes one on both sides"
    )
    return [(r, why) for r in sides[fewer] if r.value == "_" and not r.unsure]


def _names(mode: Mode) -> tuple[str, str]:
    return ("you", "the AI") if mode is Mode.SOLO else ("the first player", "the second player")


def _ai_side(r: Reading, mode: Mode) -> bool:
    return mode is Mode.SOLO and r.element.side is Side.SECOND


def _past_the_die(r: Reading, mode: Mode) -> bool:
    """Whether a square shows a player's number the die cannot roll (the solo AI writes the
    die plus one, so its 7 is an ordinary number)."""
    return not _ai_side(r, mode) and r.value.isdigit() and int(r.value) not in DIE


def _alone(r: Reading, problems: _Problems, mode: Mode) -> Reading:
    """A square decided on its own reading: unsure when that value cannot be on the sheet, and
    then shown as its likeliest reading that can."""
    ai_side = _ai_side(r, mode)
    found = problems(r.value, ai_side)
    if found:
        r = r.doubt(f"read as {r.value}, but {found[0]}")
    if r.unsure and r.candidates:
        r = _likeliest_legal(r, lambda value: not problems(value, ai_side))
    return r


def _decide(
    r: Reading, b: Belief, joint: Joint, problems: _Problems, mode: Mode, model: digits.Model
) -> Reading:
    """A square decided given the rules. A reading sure on its own stays sure unless the rules
    make another value likelier; one unsure only of its value becomes sure when its probability
    given the rules clears the calibrated threshold, never below the recogniser's own for that
    value (and the recogniser gave that value at least RESCUE_SUPPORT); any other doubt
    stays."""
    shown = [v for v in b.values if v != UNREAD]
    if not shown:  # no reading the sheet can hold: the rules say nothing of it
        return _alone(r, problems, mode)
    value = shown[0]
    p = b.of(value)
    second = shown[1] if len(shown) > 1 else "?"
    q = b.estimate[b.values.index(second)] if second in b.values else 0.0
    second, q = _beside(r, value, second, q)
    decided = replace(r, value=value, confidence=p, second=second, second_confidence=q)
    if not r.unsure:
        if b.value == r.value and p >= KEEP:
            return decided
        found = problems(r.value, _ai_side(r, mode))
        if found:
            why = f"read as {r.value}, but {found[0]}"
        elif value != r.value:
            why = f"read as {r.value}, but {joint.contradiction(_side(r))}"
        else:
            why = (
                f"read as {r.value}, but given the rules only {percent(p)} sure ({second} fits too)"
            )
        return replace(decided, unsure=True, why=why, only_low_confidence=False)
    support = dict(r.candidates).get(value, r.confidence if value == r.value else 0.0)
    # The probability given the rules leaves out the values the sheet cannot hold. Where it is
    # the recogniser's own first choice that stays first, the bar given the rules is calibrated
    # on exactly that probability; where the recogniser preferred a value the sheet cannot hold,
    # leaving it out is no evidence for the rest, and only the pairing counts (`paired`).
    sure = p if value == r.value else paired(support, p, b.own_of(value))
    decided = replace(decided, confidence=sure)
    # The bar given the rules is never below the recogniser's own: where the rules say nothing,
    # a square's probability given them is its own, which was not enough on its own.
    bar = max(model.threshold_for(value), model.joint_threshold_for(value))
    if r.only_low_confidence and b.value != UNREAD and sure >= bar and support >= RESCUE_SUPPORT:
        return replace(
            decided, unsure=False, why="", only_low_confidence=False, settled_by_rules=True
        )
    why = r.why
    if r.only_low_confidence:
        # The square is listed with its value and probability given the rules, and "only N %
        # sure" is the recogniser's own figure: say what it was of.
        if value != r.value:
            why = f"read as {r.value}, {why}"
        elif percent(sure) != percent(r.confidence):
            why += f" on its own, {percent(sure)} given the rules"
    if value != r.value:
        why += f"; given the rules more likely {value}"
    return replace(decided, why=why)


def paired(own: float, posterior: float, legal: float) -> float:
    """The recogniser's probability `own` of a value, moved by what the other squares add and
    nothing else: its odds times the odds of the `posterior` given the rules over the odds of
    the square's `legal` probability (its own, the values the sheet cannot hold left out). For
    a square the recogniser read first as a value the sheet cannot hold (a 9, an 8 without
    Armored support): a square read as 9 or 3 is no surer a 3 for 9 being impossible, so only
    the pairing with the other squares counts."""
    if legal >= 1.0 or own <= 0.0 or posterior <= 0.0:
        return own  # one value the square can hold, or none: the other squares add nothing
    if posterior >= 1.0 or own >= 1.0:
        return 1.0
    odds = own / (1 - own) * (posterior / (1 - posterior)) / (legal / (1 - legal))
    return odds / (1 + odds)


def _side(r: Reading) -> int:
    return 0 if r.element.side is Side.FIRST else 1
