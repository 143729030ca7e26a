"""Package War! rules: the packaging line, stacking and crushing, round scores and the game end.

Pure: no I/O and no dice of its own. Every die face comes in as part of a move, so a game is
replayed exactly from its log. A `Match` holds the current `Position`; each move is checked with
verify_x() (raises) or can_x() (bool) and applied with x(), which returns a frozen record. The
list of records is the replay.

Seats: the two players sit at seats 0 and 1 in the order the log names them. Tables are numbered
1 and 2 as players say them; a stack is a tuple of weights from the bottom up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from printgen.errors import InputError, PrintgenError, quote

# The numbers of the game, as the rulebook gives them.
LIGHTEST = 1
HEAVIEST = 5
SIX = 6  # the face that stops the packaging phase; it is never a package
LINE_LENGTH = 5  # a sixth package pushes the oldest one back to the pool
TABLES = 2
START_SCORE = 5
WIN_SCORE = 20  # reaching this wins
LOSE_SCORE = 0  # dropping to this or below loses
MIN_DICE = 16
RECOMMENDED_DICE = 26  # with this many the pool can never run dry (see rulings)
MAX_DICE = 26  # the rulebook's 16 to 26
TALLEST_STACK = HEAVIEST - LIGHTEST + 1  # strictly lighter on heavier: 5, 4, 3, 2, 1

Stack = tuple[int, ...]


class PackageWarError(PrintgenError):
    """Something a Package War! game or round cannot be."""


class InvalidMove(InputError):
    """A move that is not written in the log notation at all."""


class IllegalMove(PackageWarError):
    """A well-written move that the rules do not allow at this point of the game."""


class IllegalStack(PackageWarError):
    """A stack that could not stand on a table: a package on one as heavy or lighter."""


# -- stacks -------------------------------------------------------------------------------------


def stack_points(stack: Stack) -> int:
    """A package on k packages scores k: a stack of h scores 0 + 1 + ... + (h - 1)."""
    height = len(stack)
    return height * (height - 1) // 2


def crushes(stack: Stack, weight: int) -> bool:
    """A package as heavy as the top one, or heavier, crushes the whole stack under it."""
    return bool(stack) and stack[-1] <= weight


def verify_weight(weight: object, where: str) -> int:
    if isinstance(weight, bool) or not isinstance(weight, int):
        raise InvalidMove(f"{where}: {quote(weight)} is not a package (a whole number 1 to 5)")
    if not LIGHTEST <= weight <= HEAVIEST:
        raise IllegalStack(
            f"{where}: a package weighs {LIGHTEST} to {HEAVIEST}, not {weight}"
            + (" (a six is never a package: it starts the distribution)" if weight == SIX else "")
        )
    return weight


def verify_stack(stack: Iterable[object], where: str) -> Stack:
    """A stack as it could stand on a table, bottom to top; IllegalStack naming the position."""
    checked: list[int] = []
    for index, value in enumerate(stack, start=1):
        weight = verify_weight(value, f"{where}, position {index} from the bottom")
        if checked and crushes(tuple(checked), weight):
            raise IllegalStack(
                f"{where}, position {index} from the bottom: a {weight} on a {checked[-1]} "
                f"could not stand (a package as heavy or heavier crushes the stack below it)"
            )
        checked.append(weight)
    return tuple(checked)


# -- the end of the game ------------------------------------------------------------------------


class Ending(Enum):
    """Why the game is over, or that it goes on."""

    GOES_ON = "goes on"
    REACHED_WIN = "reached 20"
    OPPONENT_LOST = "opponent dropped to 0 or below"
    HIGHER_SCORE = "both reached a limit at once; higher score"
    DRAW = "both reached a limit at once with equal scores"
    POOL_EMPTY = "every die is on the tables; higher score"


@dataclass(frozen=True)
class Result:
    over: bool
    winner: int | None  # seat, None for a draw or a game that goes on
    ending: Ending


def game_result(scores: tuple[int, int], pool_empty: bool = False) -> Result:
    """The game-end rule, checked when a round's scores are written down."""
    won = tuple(s >= WIN_SCORE for s in scores)
    lost = tuple(s <= LOSE_SCORE for s in scores)
    at_limit = tuple(w or lo for w, lo in zip(won, lost, strict=True))
    if not any(at_limit) and not pool_empty:
        return Result(False, None, Ending.GOES_ON)
    if at_limit[0] != at_limit[1]:
        seat = 0 if at_limit[0] else 1
        if won[seat]:
            return Result(True, seat, Ending.REACHED_WIN)
        return Result(True, 1 - seat, Ending.OPPONENT_LOST)
    # Both at a limit at once (or the pool ran dry): one winning while the other loses is
    # settled by the higher score too, since the winner's is the higher.
    ending = Ending.POOL_EMPTY if not any(at_limit) else Ending.HIGHER_SCORE
    if scores[0] == scores[1]:
        return Result(True, None, Ending.DRAW)
    return Result(True, 0 if scores[0] > scores[1] else 1, ending)


# -- moves --------------------------------------------------------------------------------------


class Action(Enum):
    ROLL = "roll"
    TAKE = "take"
    PUSH = "push"


_MOVE = re.compile(
    r"^\s*(?P<player>[^:]+?)\s*:\s*(?P<action>roll|take|push)\s+(?P<value>\d+)"
    r"(?:\s+on\s+(?P<table>\d+))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Move:
    """One entry of the log: `Ann: roll 4`, `Ann: take 4 on 1`, `Ann: push 2 on 2`.

    For a roll, `value` is the face; for take and push it is the weight of the package chosen
    from the line, and `table` is the receiving player's table (the pusher's opponent chooses)."""

    player: str
    action: Action
    value: int
    table: int | None = None

    @classmethod
    def from_text(cls, text: str) -> Move:
        match = _MOVE.match(text)
        if match is None:
            raise InvalidMove(
                f"{quote(text)} is not a move; write 'NAME: roll FACE', "
                "'NAME: take WEIGHT on TABLE' or 'NAME: push WEIGHT on TABLE'"
            )
        action = Action(match["action"].lower())
        table = None if match["table"] is None else int(match["table"])
        if action is Action.ROLL and table is not None:
            raise InvalidMove(f"{quote(text)}: a roll goes on no table")
        if action is not Action.ROLL and table is None:
            raise InvalidMove(
                f"{quote(text)}: say which table, e.g. '{match['player']}: take 4 on 1'"
            )
        return cls(match["player"], action, int(match["value"]), table)

    def to_text(self) -> str:
        base = f"{self.player}: {self.action.value} {self.value}"
        return base if self.table is None else f"{base} on {self.table}"

    def __repr__(self) -> str:
        return f"Move.from_text({self.to_text()!r})"


# -- positions ----------------------------------------------------------------------------------


class Phase(Enum):
    PACKAGING = "packaging"
    DISTRIBUTION = "distribution"
    OVER = "over"


@dataclass(frozen=True)
class Side:
    name: str
    score: int  # running: crushes are taken off at once, stack points added at the round's end
    tables: tuple[Stack, Stack] = ((), ())
    crushed: int = 0  # this round

    @property
    def packages(self) -> int:
        return sum(len(t) for t in self.tables)

    def with_table(self, number: int, stack: Stack) -> Side:
        tables = list(self.tables)
        tables[number - 1] = stack
        return replace(self, tables=(tables[0], tables[1]))


@dataclass(frozen=True)
class Position:
    sides: tuple[Side, Side]
    dice: int  # all the dice in the game
    line: Stack = ()  # oldest first
    phase: Phase = Phase.PACKAGING
    to_move: int = 0
    opened_by: int | None = None  # who rolled the six that began this distribution
    round: int = 1
    result: Result = field(default_factory=lambda: Result(False, None, Ending.GOES_ON))

    @property
    def pool(self) -> int:
        return self.dice - len(self.line) - sum(s.packages for s in self.sides)

    def seat_of(self, name: str) -> int | None:
        for seat, side in enumerate(self.sides):
            if side.name == name:
                return seat
        return None

    @property
    def mover(self) -> str:
        return self.sides[self.to_move].name


# -- records ------------------------------------------------------------------------------------


class RollOutcome(Enum):
    PACKAGED = "joins the line"
    OLDEST_BACK = "joins the line; the oldest package goes back to the pool"
    DISTRIBUTION = "a six: the die goes back, distribution begins"
    SIX_IGNORED = "a six on an empty line: ignored, packaging goes on"


@dataclass(frozen=True)
class SideScore:
    name: str
    before: int  # the score written at the end of the last round
    stack_points: int
    crushed: int
    after: int


@dataclass(frozen=True)
class RoundScore:
    round: int
    sides: tuple[SideScore, SideScore]
    result: Result


@dataclass(frozen=True)
class Record:
    """What one move did, and the position it left."""

    number: int  # 1-based position in the log
    move: Move
    position: Position
    roll: RollOutcome | None = None
    picked_up: int | None = None  # the pool was empty: this oldest die of the line was rolled
    returned: int | None = None  # the oldest package, pushed out of a line of six to the pool
    receiver: str | None = None  # for take and push: whose table
    crushed: Stack = ()  # the stack crushed under the new package
    scoring: RoundScore | None = None  # the line emptied: the round was scored

    def to_text(self) -> str:
        move = self.move
        if move.action is Action.ROLL:
            assert self.roll is not None
            text = f"{move.to_text()}: {self.roll.value}"
            if self.returned is not None:
                text += f" ({self.returned})"
            if self.picked_up is not None:
                text += f" (pool empty: the oldest die of the line, a {self.picked_up}, was rolled)"
            line = " ".join(map(str, self.position.line)) or "empty"
            return f"{text}; line: {line}"
        assert self.receiver is not None and move.table is not None
        seat = self.position.seat_of(self.receiver)
        assert seat is not None
        stack = self.position.sides[seat].tables[move.table - 1]
        owner = f"{self.receiver}'s table {move.table}"
        if self.crushed:
            crushed = _stack_text(self.crushed)
            return (
                f"{move.to_text()}: crushes {owner} ({crushed}, -{len(self.crushed)}); "
                f"it now holds {_stack_text(stack)}"
            )
        return f"{move.to_text()}: {owner} now holds {_stack_text(stack)}"


def _stack_text(stack: Stack) -> str:
    return " ".join(map(str, stack)) if stack else "empty"


def first_player(rolls: Iterable[tuple[int, int]]) -> int:
    """The roll-off: both roll, the higher goes first; equal rolls are rolled again."""
    first: int | None = None
    for index, pair in enumerate(rolls, start=1):
        for face in pair:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= SIX:
                raise InvalidMove(f"start roll {index}: {quote(face)} is not a die face (1 to 6)")
        if first is not None:
            raise IllegalMove(
                f"start roll {index}: {list(pair)} comes after the roll-off was decided; only "
                "equal rolls are rolled again"
            )
        if pair[0] != pair[1]:
            first = 0 if pair[0] > pair[1] else 1
    if first is None:
        raise IllegalMove("the roll-off never found a higher roll: equal rolls are rolled again")
    return first


# -- the match ----------------------------------------------------------------------------------


class Match:
    """A game in progress: its position and the records of every move so far."""

    def __init__(self, names: tuple[str, str], first: int = 0, dice: int = RECOMMENDED_DICE):
        if len(names) != 2 or names[0] == names[1] or not all(n.strip() for n in names):
            raise PackageWarError(f"Package War! needs two players with different names: {names}")
        for name in names:
            if ":" in name:
                raise PackageWarError(
                    f"player name {quote(name)}: no ':' (it ends the name in moves)"
                )
        if isinstance(dice, bool) or not isinstance(dice, int) or not MIN_DICE <= dice <= MAX_DICE:
            raise PackageWarError(
                f"the game is played with {MIN_DICE} to {MAX_DICE} dice, not {quote(dice)}"
            )
        if first not in (0, 1):
            raise PackageWarError(f"first player must be seat 0 or 1, not {quote(first)}")
        self.position = Position(
            sides=(Side(names[0], START_SCORE), Side(names[1], START_SCORE)),
            dice=dice,
            to_move=first,
        )
        self.records: list[Record] = []

    @classmethod
    def from_position(cls, position: Position) -> Match:
        """A match that goes on from `position` (a puzzle, or a game picked up mid-way)."""
        names = (position.sides[0].name, position.sides[1].name)
        match = cls(names, position.to_move, position.dice)
        if position.pool < 0:
            raise PackageWarError(f"{position.dice} dice cannot cover the line and the tables")
        for side in position.sides:
            for table, stack in enumerate(side.tables, start=1):
                verify_stack(stack, f"{side.name}, table {table}")
        if position.phase is Phase.DISTRIBUTION and not position.line:
            raise PackageWarError("a distribution phase needs packages in the line")
        if position.phase is Phase.PACKAGING and position.pool == 0 and not position.line:
            raise PackageWarError("every die is on the tables: nobody can roll, the game is over")
        match.position = position
        return match

    # Who may move at all: the game is on and it is this player's turn.
    def _verify_turn(self, move: Move, phase: Phase) -> int:
        position = self.position
        if position.phase is Phase.OVER:
            raise IllegalMove(f"{quote(move.to_text())}: the game is over")
        seat = position.seat_of(move.player)
        if seat is None:
            names = " and ".join(s.name for s in position.sides)
            raise IllegalMove(
                f"{quote(move.to_text())}: {quote(move.player)} is not a player ({names})"
            )
        if position.phase is not phase:
            wanted = {
                Phase.PACKAGING: "it is the distribution phase: take or push a package",
                Phase.DISTRIBUTION: "it is the packaging phase: roll a die",
            }[phase]
            raise IllegalMove(f"{quote(move.to_text())}: {wanted}")
        if seat != position.to_move:
            raise IllegalMove(f"{quote(move.to_text())}: it is {position.mover}'s turn")
        return seat

    # -- roll

    def verify_roll(self, move: Move) -> None:
        if move.action is not Action.ROLL:
            raise IllegalMove(f"{quote(move.to_text())} is not a roll")
        self._verify_turn(move, Phase.PACKAGING)
        if not 1 <= move.value <= SIX:
            raise InvalidMove(f"{quote(move.to_text())}: a die shows 1 to 6, not {move.value}")

    def can_roll(self, move: Move) -> bool:
        return _can(self.verify_roll, move)

    def roll(self, move: Move) -> Record:
        self.verify_roll(move)
        position = self.position
        line = position.line
        # The pool can run dry only with fewer than 26 dice: then the oldest die of the line,
        # which is next to leave anyway, is the one picked up and rolled (a ruling).
        picked_up: int | None = None
        if position.pool == 0:
            assert line, "an empty pool with an empty line ends the game at the round's end"
            picked_up, line = line[0], line[1:]
        returned: int | None = None
        roller = position.to_move
        if move.value == SIX:
            if not line:
                outcome = RollOutcome.SIX_IGNORED
                after = replace(position, line=line, to_move=1 - roller)
            else:
                outcome = RollOutcome.DISTRIBUTION
                after = replace(
                    position,
                    line=line,
                    phase=Phase.DISTRIBUTION,
                    to_move=roller,
                    opened_by=roller,
                )
        else:
            line = (*line, move.value)
            outcome = RollOutcome.PACKAGED
            if len(line) > LINE_LENGTH:
                returned, line = line[0], line[1:]
                outcome = RollOutcome.OLDEST_BACK
            after = replace(position, line=line, to_move=1 - roller)
        return self._record(
            Record(
                len(self.records) + 1,
                move,
                after,
                roll=outcome,
                picked_up=picked_up,
                returned=returned,
            )
        )

    # -- take and push

    def verify_take(self, move: Move) -> None:
        self._verify_distribution(move, Action.TAKE)

    def can_take(self, move: Move) -> bool:
        return _can(self.verify_take, move)

    def take(self, move: Move) -> Record:
        self.verify_take(move)
        return self._distribute(move, receiver=self.position.to_move)

    def verify_push(self, move: Move) -> None:
        self._verify_distribution(move, Action.PUSH)

    def can_push(self, move: Move) -> bool:
        return _can(self.verify_push, move)

    def push(self, move: Move) -> Record:
        self.verify_push(move)
        return self._distribute(move, receiver=1 - self.position.to_move)

    def _verify_distribution(self, move: Move, action: Action) -> None:
        if move.action is not action:
            raise IllegalMove(f"{quote(move.to_text())} is not a {action.value}")
        self._verify_turn(move, Phase.DISTRIBUTION)
        line = self.position.line
        if move.value not in line:
            shown = " ".join(map(str, line))
            raise IllegalMove(
                f"{quote(move.to_text())}: no package of weight {move.value} in the line ({shown})"
            )
        if move.table not in range(1, TABLES + 1):
            raise IllegalMove(f"{quote(move.to_text())}: each player has tables 1 and 2 only")

    def _distribute(self, move: Move, receiver: int) -> Record:
        position = self.position
        assert move.table is not None
        line = list(position.line)
        line.remove(move.value)  # equal weights are the same package to the rules
        side = position.sides[receiver]
        stack = side.tables[move.table - 1]
        crushed: Stack = ()
        if crushes(stack, move.value):
            # Crushed packages go back to the pool; their -1 each is taken off at once.
            crushed, stack = stack, ()
            side = replace(
                side, score=side.score - len(crushed), crushed=side.crushed + len(crushed)
            )
        side = side.with_table(move.table, (*stack, move.value))
        sides = list(position.sides)
        sides[receiver] = side
        after = replace(position, sides=(sides[0], sides[1]), line=tuple(line))
        scoring = None
        if line:
            after = replace(after, to_move=1 - position.to_move)
        else:
            after, scoring = _score_round(after)
        record = Record(
            len(self.records) + 1,
            move,
            after,
            receiver=side.name,
            crushed=crushed,
            scoring=scoring,
        )
        return self._record(record)

    # -- any move

    def verify(self, move: Move) -> None:
        {
            Action.ROLL: self.verify_roll,
            Action.TAKE: self.verify_take,
            Action.PUSH: self.verify_push,
        }[move.action](move)

    def can(self, move: Move) -> bool:
        return _can(self.verify, move)

    def play(self, move: Move) -> Record:
        apply = {Action.ROLL: self.roll, Action.TAKE: self.take, Action.PUSH: self.push}
        return apply[move.action](move)

    def legal_moves(self) -> list[Move]:
        """Every decision open to the player to move (for a roll: every face)."""
        position = self.position
        name = position.mover
        if position.phase is Phase.PACKAGING:
            return [Move(name, Action.ROLL, face) for face in range(1, SIX + 1)]
        if position.phase is Phase.DISTRIBUTION:
            return [
                Move(name, action, weight, table)
                for action in (Action.TAKE, Action.PUSH)
                for weight in sorted(set(position.line))
                for table in range(1, TABLES + 1)
            ]
        return []

    def _record(self, record: Record) -> Record:
        self.position = record.position
        self.records.append(record)
        return record


def _can(verify: object, move: Move) -> bool:
    assert callable(verify)
    try:
        verify(move)
    except PrintgenError:
        return False
    return True


def _score_round(position: Position) -> tuple[Position, RoundScore]:
    """The line is empty: write the round down and check the game end."""
    scored: list[SideScore] = []
    sides: list[Side] = []
    for side in position.sides:
        points = sum(stack_points(t) for t in side.tables)
        total = side.score + points
        scored.append(SideScore(side.name, side.score + side.crushed, points, side.crushed, total))
        sides.append(replace(side, score=total, crushed=0))
    scores = (sides[0].score, sides[1].score)
    pool_empty = position.dice == sum(s.packages for s in sides)
    result = game_result(scores, pool_empty=pool_empty)
    record = RoundScore(position.round, (scored[0], scored[1]), result)
    assert position.opened_by is not None
    after = replace(
        position,
        sides=(sides[0], sides[1]),
        phase=Phase.OVER if result.over else Phase.PACKAGING,
        to_move=1 - position.opened_by,  # the one who did not roll the six begins packaging
        opened_by=None,
        round=position.round + 1,
        result=result,
    )
    return after, record


def replay(
    names: tuple[str, str], first: int, moves: Iterable[Move], dice: int = RECOMMENDED_DICE
) -> Match:
    """A match with every move applied in order; the first illegal one raises."""
    match = Match(names, first, dice)
    for move in moves:
        match.play(move)
    return match


def side_scores(position: Position) -> Mapping[str, int]:
    return {side.name: side.score for side in position.sides}
