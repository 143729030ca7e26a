"""The typed-in One Page War sheet: what players wrote, checked against the layout and the rules.

The API the referee, the solo AI and the photo reader share:

- `parse_sheet(mapping, source="") -> Sheet | TeamGame`: from the TOML/JSON mapping (see issue 4
  and examples/one-page-war/). Raises `InvalidSheet` (malformed: wrong type, count, unknown arena
  or player) or `IllegalSheet` (against the rules: negative, a star outside solo or on the human
  side, two stars in one arena, more ticks than boxes...). Every problem found is listed in the
  message, each naming the file, arena, side and square (1-based, left to right). Empty squares
  are NOT an error here: an unfinished sheet parses, and the referee decides (`--partial`).
- `find_problems(mapping, source="") -> tuple[Problem, ...]`: the same checks, returned instead
  of raised, empty squares included as `ProblemKind.EMPTY`; for the photo reader's cross-check.
- `square_problem(value, mode=..., ai_side=...) -> str | None`: why a single square value is
  impossible (None if it is possible); `SOLO_AI_NUMBERS` is what the solo AI can ever hold;
  `tick_limit(spec, squares)`: the most ticks a side can show in an arena.
- `Sheet` (duel or solo) and `TeamGame` (several duel sheets): frozen, in layout order.
  `Sheet.to_toml()` / `Sheet.to_mapping()` write it back; `Sheet.with_square(...)`,
  `Sheet.with_ticks(...)`, `Sheet.with_allies(...)` return changed copies (the solo AI uses them).
- Squares are `int | Mark` (`Mark.EMPTY` "_", `Mark.STAR` "*"), from the rules module.

`ticks` on a sheet count each player's uses of that arena's power. One use ticks a box on both
sides, so the uses of both players together never exceed the arena's boxes (docs/rulings.md).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from printgen.errors import InputError, PrintgenError, quote
from printgen.games.one_page_war.layout import ArenaSpec, Layout, load_layout
from printgen.games.one_page_war.rules import Mark, Square

GAME_NAME = "one-page-war"

# The solo AI writes the die plus one and never changes a number afterwards (it only ticks).
SOLO_AI_NUMBERS = range(2, 8)
DIE_HIGHEST = 6
ARMORED_SUPPORT = "Armored support"
STOLEN_INTEL = "Stolen Intel"

# Keys a sheet may carry beside the ones scored, kept when the sheet is written back.
EXTRA_KEYS = ("id", "date", "notes")
ARENA_KEYS = ("allies", "ticks")
ALLIES_POWER = "Allies"


class Mode(Enum):
    DUEL = "duel"
    SOLO = "solo"
    TEAM = "team"


class InvalidSheet(InputError):
    """The typed-in sheet is malformed: a wrong type, count, or an unknown arena or player."""


class IllegalSheet(InputError):
    """The typed-in sheet holds something the rules never allow."""


class UnfinishedSheet(InputError):
    """Squares are still empty: the game is not over (score with --partial for the standing)."""


class ProblemKind(Enum):
    MALFORMED = "malformed"
    ILLEGAL = "illegal"
    EMPTY = "empty"


@dataclass(frozen=True)
class Problem:
    kind: ProblemKind
    message: str  # names the file, arena, side and square

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class SquareRef:
    """Where a square stands: arena, player, and its index from the left (0-based)."""

    arena: str
    player: str
    index: int

    def __str__(self) -> str:
        return f"arena {self.arena}, {self.player}'s square {self.index + 1}"


@dataclass(frozen=True)
class Side:
    """One player's squares in one arena, and their uses of that arena's power."""

    player: str
    squares: tuple[Square, ...]
    ticks: int | None = None  # None when the sheet does not record them

    @property
    def filled(self) -> int:
        return sum(1 for s in self.squares if s is not Mark.EMPTY)

    @property
    def is_full(self) -> bool:
        return Mark.EMPTY not in self.squares

    @property
    def has_star(self) -> bool:
        return Mark.STAR in self.squares

    @property
    def uses(self) -> int:
        if self.ticks is not None:
            return self.ticks
        # Ticks not written down: a solo AI's star still shows it ticked here once.
        return 1 if self.has_star else 0


@dataclass(frozen=True)
class Arena:
    spec: ArenaSpec
    sides: tuple[Side, Side]  # the first player's side first
    allies: bool = False

    @property
    def name(self) -> str:
        return self.spec.name

    def side(self, player: str) -> Side:
        for side in self.sides:
            if side.player == player:
                return side
        raise KeyError(player)

    @property
    def boxes_left(self) -> int:
        return self.spec.ticks - sum(s.uses for s in self.sides)

    @property
    def ticks_recorded(self) -> bool:
        return any(s.ticks is not None for s in self.sides)


@dataclass(frozen=True)
class Sheet:
    """One sheet between two players, duel or solo (in solo the second player is the AI)."""

    mode: Mode
    players: tuple[str, str]
    arenas: tuple[Arena, ...]  # in layout order, left to right as the first player sees them
    layout: Layout
    source: str = field(default="", compare=False)  # where it was read from
    extras: tuple[tuple[str, Any], ...] = ()

    @property
    def ai(self) -> str | None:
        return self.players[1] if self.mode is Mode.SOLO else None

    def arena(self, name: str) -> Arena:
        for arena in self.arenas:
            if arena.name == name:
                return arena
        known = ", ".join(a.name for a in self.arenas)
        raise InvalidSheet(f"{self.source or 'sheet'}: no arena {quote(name)}; its arenas: {known}")

    def empty_squares(self) -> tuple[SquareRef, ...]:
        return tuple(
            SquareRef(arena.name, side.player, i)
            for arena in self.arenas
            for side in arena.sides
            for i, square in enumerate(side.squares)
            if square is Mark.EMPTY
        )

    @property
    def is_finished(self) -> bool:
        return not self.empty_squares()

    def filled(self, player: str) -> int:
        return sum(arena.side(player).filled for arena in self.arenas)

    def _with_side(self, arena_name: str, player: str, side: Side) -> Sheet:
        def changed(arena: Arena) -> Arena:
            first, second = (side if s.player == player else s for s in arena.sides)
            return replace(arena, sides=(first, second))

        arenas = tuple(changed(a) if a.name == arena_name else a for a in self.arenas)
        return replace(self, arenas=arenas)

    def with_square(self, arena: str, player: str, index: int, value: Square) -> Sheet:
        side = self.arena(arena).side(player)
        squares = side.squares[:index] + (value,) + side.squares[index + 1 :]
        return self._with_side(arena, player, replace(side, squares=squares))

    def with_ticks(self, arena: str, player: str, ticks: int) -> Sheet:
        found = self.arena(arena)
        # Once one side's ticks are written down, the other side's count is known too (0).
        sheet = self
        for other in found.sides:
            if other.ticks is None and other.player != player:
                sheet = sheet._with_side(arena, other.player, replace(other, ticks=0))
        side = sheet.arena(arena).side(player)
        return sheet._with_side(arena, player, replace(side, ticks=ticks))

    def with_allies(self, arena: str) -> Sheet:
        """The sheet with an Allies "S" written in `arena`."""
        self.arena(arena)
        arenas = tuple(replace(a, allies=True) if a.name == arena else a for a in self.arenas)
        return replace(self, arenas=arenas)

    def to_mapping(self) -> dict[str, Any]:
        """The sheet as the TOML/JSON mapping it parses from."""
        data: dict[str, Any] = {"game": GAME_NAME, "layout": self.layout.name}
        data["mode"] = self.mode.value
        data["players"] = list(self.players)
        data.update(dict(self.extras))
        data["arenas"] = {arena.name: _arena_mapping(arena) for arena in self.arenas}
        return data

    def to_toml(self) -> str:
        """The sheet as a typed-in TOML file; it parses back to `to_mapping()` exactly."""
        import tomlkit

        from printgen.tomldoc import inline

        data = self.to_mapping()
        arenas = tomlkit.table(is_super_table=True)
        for name, arena in data.pop("arenas").items():
            table = tomlkit.table()
            for key, value in arena.items():
                table[key] = inline(value) if key == "ticks" else value
            arenas[name] = table
        document = tomlkit.document()
        document.update(data)
        document["arenas"] = arenas
        return tomlkit.dumps(document)

    def to_json_text(self) -> str:
        return json.dumps(self.to_mapping(), indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Team:
    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class TeamGame:
    """A team game: two teams, and one duel sheet per pair of opponents."""

    teams: tuple[Team, Team]
    sheets: tuple[Sheet, ...]
    layout: Layout
    source: str = field(default="", compare=False)  # where it was read from
    extras: tuple[tuple[str, Any], ...] = ()

    def team_of(self, player: str) -> Team:
        for team in self.teams:
            if player in team.players:
                return team
        raise KeyError(player)

    def empty_squares(self) -> tuple[SquareRef, ...]:
        return tuple(ref for sheet in self.sheets for ref in sheet.empty_squares())


def _arena_mapping(arena: Arena) -> dict[str, Any]:
    data: dict[str, Any] = {
        side.player: [_square_value(s) for s in side.squares] for side in arena.sides
    }
    if arena.allies:
        data["allies"] = True
    if arena.ticks_recorded:
        data["ticks"] = {side.player: side.uses for side in arena.sides}
    return data


def _square_value(square: Square) -> int | str:
    return square.value if isinstance(square, Mark) else square


# --- reading a mapping ------------------------------------------------------------------------


def square_problem(value: object, mode: Mode = Mode.DUEL, ai_side: bool = False) -> str | None:
    """Why `value` cannot stand in a square (None if it can): for validation and the photo
    reader's cross-check. `value` is as typed: an int, "*", "_", or a `Mark`."""
    square = _as_square(value)
    if square is None:
        return f"{quote(value)} is not a whole number, '*' or '_'"
    if square is Mark.EMPTY:
        return None
    if square is Mark.STAR:
        if mode is not Mode.SOLO:
            return "a star '*' is written only by the AI in a solo game"
        if not ai_side:
            return "a star '*' is the AI's; it cannot stand on the human's side"
        return None
    if square < 0:
        return f"{square} is negative; a square holds a whole number 0 or more"
    if mode is Mode.SOLO and ai_side and square not in SOLO_AI_NUMBERS:
        return (
            f"the solo AI only writes {SOLO_AI_NUMBERS.start} to {SOLO_AI_NUMBERS.stop - 1} "
            f"(the die plus one) and never changes a number, so {square} cannot be on its side"
        )
    return None


@dataclass(frozen=True)
class Reach:
    """How far legal play can take a player's numbers past the die's 1 to 6.

    Dice and Air raid write 1 to 6 and Redeployment only swaps, so a number outside 1 to 6 comes
    from Armored support, one step per use (7 and 0 take one use, 8 two), or from Stolen Intel
    copying a rival's number in the same arena, which in solo may be the AI's 7 (die plus one).
    `armored` and `stolen` are the uses of those powers the sheet allows: the ticks written
    down, or every box when ticks are not recorded. Shared by the typed-in referee and the photo
    reader's cross-check (reader/crosscheck.py)."""

    armored: int
    stolen: int
    solo: bool = False

    @property
    def highest(self) -> int:
        copied = SOLO_AI_NUMBERS.stop - 1 if self.solo and self.stolen else DIE_HIGHEST
        return copied + self.armored

    @property
    def steps(self) -> int:
        """The most steps outside 1 to 6, summed over a sheet's player-written numbers: each
        Armored use adds one, each Stolen Intel copy at most the copied number's own."""
        return self.armored + self.stolen * (self.highest - DIE_HIGHEST)

    def number_problem(self, value: int) -> str | None:
        """Why a player-written number is out of reach on this sheet (None if it is not)."""
        if value > self.highest:
            return (
                f"{value} is {value - DIE_HIGHEST} steps past the die's {DIE_HIGHEST}, and each "
                f"step is a use of {ARMORED_SUPPORT}; the sheet allows {self.armored}, so "
                f"{self.highest} is the most a square can hold"
            )
        if value == 0 and self.armored == 0:
            return f"0 is a 1 moved down by {ARMORED_SUPPORT}, which the sheet does not allow"
        return None


def steps_outside_the_die(value: int) -> int:
    return value - DIE_HIGHEST if value > DIE_HIGHEST else (1 if value == 0 else 0)


def tick_limit(spec: ArenaSpec, squares: Sequence[Square]) -> int:
    """The most power uses a side can show in an arena: none until it is filled, then at most
    the arena's boxes (shared with the other side: see `Arena.boxes_left`)."""
    return spec.ticks if Mark.EMPTY not in squares else 0


def _as_square(value: object) -> Square | None:
    if isinstance(value, Mark):
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        for mark in Mark:
            if value.strip() == mark.value:
                return mark
    return None


class _Reader:
    """Reads a mapping into a sheet, collecting every problem rather than stopping at the first."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[Problem] = []

    def where(self, text: str) -> str:
        return f"{self.source}: {text}" if self.source else text

    def malformed(self, text: str) -> None:
        self.problems.append(Problem(ProblemKind.MALFORMED, self.where(text)))

    def illegal(self, text: str) -> None:
        self.problems.append(Problem(ProblemKind.ILLEGAL, self.where(text)))

    def empty(self, ref: SquareRef) -> None:
        self.problems.append(Problem(ProblemKind.EMPTY, self.where(f"{ref} is empty")))

    # The document --------------------------------------------------------------------------

    def document(self, data: Mapping[str, Any]) -> Sheet | TeamGame | None:
        game = data.get("game", GAME_NAME)
        if game != GAME_NAME:
            self.malformed(f"game = {game!r}, but this referee scores {GAME_NAME!r}")
        layout = self.layout(data.get("layout", "standard"))
        mode_text = data.get("mode", Mode.DUEL.value)
        try:
            mode = Mode(mode_text)
        except ValueError:
            modes = ", ".join(repr(m.value) for m in Mode)
            self.malformed(f"mode = {quote(mode_text)} is not one of {modes}")
            return None
        if layout is None:
            return None
        extras = self.extras(data)
        if mode is Mode.TEAM:
            self.unknown_keys(data, ("game", "layout", "mode", "teams", "sheets", *EXTRA_KEYS), "")
            return self.team_game(data, layout, extras)
        self.unknown_keys(data, ("game", "layout", "mode", "players", "arenas", *EXTRA_KEYS), "")
        return self.sheet(data, layout, mode, "", extras)

    def layout(self, name: object) -> Layout | None:
        if not isinstance(name, str):
            self.malformed(f"layout = {quote(name)} should be a layout name such as 'standard'")
            return None
        try:
            return load_layout(name)
        except PrintgenError as error:
            self.malformed(str(error))
            return None

    def extras(self, data: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
        kept = []
        for key in EXTRA_KEYS:
            if key in data:
                value = data[key]
                if isinstance(value, datetime.date | datetime.time):  # TOML's date = 2026-12-07
                    value = value.isoformat()
                if isinstance(value, str | int | float | bool):
                    kept.append((key, value))
                else:
                    self.malformed(f"{key} = {quote(value)} should be a string or a number")
        return tuple(kept)

    def unknown_keys(self, data: Mapping[str, Any], known: Sequence[str], where: str) -> None:
        for key in data:
            if key not in known:
                self.malformed(
                    f"{where}unknown key {quote(key)}; expected {', '.join(repr(k) for k in known)}"
                )

    def players(self, value: object, where: str) -> tuple[str, str] | None:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(p, str) and p.strip() for p in value)
        ):
            self.malformed(
                f'{where}players = {quote(value)} should name two players, ["Ann", "Ben"]'
            )
            return None
        first, second = (p.strip() for p in value)
        if first == second:
            self.malformed(f"{where}players = {quote(value)} names the same player twice")
            return None
        for name in (first, second):
            if name in ARENA_KEYS:
                self.malformed(
                    f"{where}a player cannot be called {quote(name)}: it is an arena key"
                )
                return None
        return first, second

    # One sheet -----------------------------------------------------------------------------

    def sheet(
        self,
        data: Mapping[str, Any],
        layout: Layout,
        mode: Mode,
        where: str,
        extras: tuple[tuple[str, Any], ...] = (),
    ) -> Sheet | None:
        players = self.players(data.get("players"), where)
        arenas_data = data.get("arenas")
        if not isinstance(arenas_data, Mapping):
            self.malformed(f"{where}no [arenas] table: each arena of the layout needs its squares")
            return None
        if players is None:
            return None
        for name in arenas_data:
            if name not in layout.arena_names:
                known = ", ".join(layout.arena_names)
                self.malformed(
                    f"{where}unknown arena {quote(name)}; layout {quote(layout.name)} has: {known}"
                )
        arenas = []
        for spec in layout.arenas:
            if spec.name not in arenas_data:
                self.malformed(f"{where}arena {spec.name} is missing")
                continue
            arena = self.arena(arenas_data[spec.name], spec, players, mode, where)
            if arena is not None:
                arenas.append(arena)
        if len(arenas) != len(layout.arenas):
            return None
        sheet = Sheet(mode, players, tuple(arenas), layout, self.source, extras)
        self.check_sheet(sheet, where)
        return sheet

    def arena(
        self, data: object, spec: ArenaSpec, players: tuple[str, str], mode: Mode, where: str
    ) -> Arena | None:
        at = f"{where}arena {spec.name}"
        if not isinstance(data, Mapping):
            self.malformed(f"{at} should be a table of each player's squares")
            return None
        data = self.trimmed(data, at)
        for key in data:
            if key not in players and key not in ARENA_KEYS:
                self.malformed(
                    f"{at}: unknown player {quote(key)}; "
                    f"the players are {players[0]} and {players[1]}"
                )
        allies = data.get("allies", False)
        if not isinstance(allies, bool):
            self.malformed(f"{at}: allies = {quote(allies)} should be true or false")
            allies = False
        ticks = self.ticks(data.get("ticks"), spec, players, at)
        sides = []
        for i, player in enumerate(players):
            if player not in data:
                self.malformed(f"{at}: no squares for {player}")
                continue
            ai_side = mode is Mode.SOLO and i == 1
            side = self.side(data[player], spec, player, mode, ai_side, where)
            if side is not None:
                sides.append(replace(side, ticks=None if ticks is None else ticks[player]))
        if len(sides) != 2:
            return None
        arena = Arena(spec, (sides[0], sides[1]), allies)
        self.check_arena(arena, mode, at)
        return arena

    def trimmed(self, table: Mapping[str, Any], at: str) -> dict[str, Any]:
        """`table` with its keys' outer spaces trimmed, as the players' names are."""
        keys: dict[str, str] = {}
        for key in table:
            name = key.strip()
            if name in keys:
                self.malformed(f"{at}: {quote(keys[name])} and {quote(key)} are one player")
            keys[name] = key
        return {name: table[key] for name, key in keys.items()}

    def ticks(
        self, value: object, spec: ArenaSpec, players: tuple[str, str], at: str
    ) -> dict[str, int] | None:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            self.malformed(
                f"{at}: ticks = {quote(value)} should be a table, {{ {players[0]} = 1 }}"
            )
            return None
        boxes = "1 box" if spec.ticks == 1 else f"{spec.ticks} boxes"
        counts = {player: 0 for player in players}
        problems = len(self.problems)
        for player, count in self.trimmed(value, f"{at}: ticks").items():
            if player not in players:
                self.malformed(
                    f"{at}: ticks for unknown player {quote(player)}; the players are "
                    f"{players[0]} and {players[1]}"
                )
            elif isinstance(count, bool) or not isinstance(count, int):
                self.malformed(f"{at}: {player}'s ticks = {quote(count)} should be a whole number")
            elif count < 0:
                self.illegal(f"{at}: {player}'s ticks = {count} is negative")
            elif count > spec.ticks:
                self.illegal(f"{at}: {player} has {count} ticks, more than the arena's {boxes}")
            else:
                counts[player] = count
        if len(self.problems) > problems:
            # Ticks refused are not known to be none: the checks that count uses fall back
            # on every box, rather than adding a problem of their own.
            return None
        total = sum(counts.values())
        if total > spec.ticks:
            self.illegal(
                f"{at}: ticks {players[0]} {counts[players[0]]} + {players[1]} "
                f"{counts[players[1]]} = {total} uses, more than the arena's {boxes} "
                "(each use ticks a box on both sides)"
            )
        return counts

    def side(
        self, value: object, spec: ArenaSpec, player: str, mode: Mode, ai_side: bool, where: str
    ) -> Side | None:
        at = f"{where}arena {spec.name}"
        if not isinstance(value, list):
            self.malformed(
                f"{at}, {player}: {quote(value)} should be a list of {spec.squares} squares"
            )
            return None
        if len(value) != spec.squares:
            self.malformed(
                f"{at}, {player}: {len(value)} squares given, the arena has {spec.squares} "
                f'on each side: {quote(value)} (write "_" for a square still empty)'
            )
            return None
        squares: list[Square] = []
        ai_solo = mode is Mode.SOLO and ai_side
        for i, raw in enumerate(value):
            # The usual square, a plain number in range, needs no further look.
            if type(raw) is int and raw >= 0 and (not ai_solo or raw in SOLO_AI_NUMBERS):
                squares.append(raw)
                continue
            ref = SquareRef(spec.name, player, i)
            problem = square_problem(raw, mode, ai_side)
            square = _as_square(raw)
            if problem is not None:
                (self.malformed if square is None else self.illegal)(f"{where}{ref}: {problem}")
                square = Mark.EMPTY if square is None else square
            assert square is not None
            squares.append(square)
        return Side(player, tuple(squares))

    # Rules that look at more than one square ------------------------------------------------

    def check_arena(self, arena: Arena, mode: Mode, at: str) -> None:
        for side in arena.sides:
            stars = [i for i, s in enumerate(side.squares) if s is Mark.STAR]
            if len(stars) > 1:
                places = " and ".join(str(i + 1) for i in stars)
                self.illegal(
                    f"{at}, {side.player}: two stars (squares {places}); at most one per arena"
                )
            if stars and not side.is_full:
                self.illegal(
                    f"{at}, {side.player}: a star beside empty squares; the AI stars an arena "
                    "only once it has filled it"
                )
            if side.ticks and not side.is_full:
                self.illegal(
                    f"{at}: {side.player} ticked this arena's power with squares still empty; "
                    "a power opens only once its arena is filled"
                )
        if mode is Mode.SOLO and arena.ticks_recorded:
            ai = arena.sides[1]
            if ai.has_star and not ai.uses:
                self.illegal(
                    f"{at}: the AI has a star but no tick; "
                    "it stars an arena the first time it ticks there"
                )
            if ai.uses and not ai.has_star:
                self.illegal(
                    f"{at}: the AI ticked here but has no star; "
                    "it stars the arena at its first tick"
                )

    def check_sheet(self, sheet: Sheet, where: str) -> None:
        first, second = sheet.players
        a, b = sheet.filled(first), sheet.filled(second)
        if sheet.mode is Mode.SOLO and not 0 <= a - b <= 1:
            self.illegal(
                f"{where}{first} has {a} numbers and {second} (the AI) {b}: the human writes first "
                "each round, then the AI, so the AI has as many or one fewer"
            )
        elif abs(a - b) > 1:
            self.illegal(
                f"{where}{first} has {a} numbers and {second} {b}: each turn both write one, "
                "so the counts differ by at most one"
            )
        self.check_reach(sheet, where)
        allies_arenas = [a for a in sheet.arenas if a.spec.power == ALLIES_POWER]
        if allies_arenas and all(a.ticks_recorded for a in allies_arenas):
            # The AI only ticks; it never writes an S.
            writers = [first] if sheet.mode is Mode.SOLO else [first, second]
            uses = sum(a.side(p).uses for a in allies_arenas for p in writers)
            written = [a.name for a in sheet.arenas if a.allies]
            if len(written) > uses:
                self.illegal(
                    f"{where}an S is written in {len(written)} arena(s) ({', '.join(written)}) "
                    f"but the Allies power was used {uses} time(s)"
                )

    def check_reach(self, sheet: Sheet, where: str) -> None:
        """Numbers no legal play can write: past what Armored support allows (9, 99, 1000 on the
        standard layout, whose Land arena has 2 boxes), or too many steps past the die in all."""
        writers = sheet.players[:1] if sheet.mode is Mode.SOLO else sheet.players
        reach = Reach(
            armored=_uses_allowed(sheet, ARMORED_SUPPORT, writers),
            stolen=_uses_allowed(sheet, STOLEN_INTEL, writers),
            solo=sheet.mode is Mode.SOLO,
        )
        outside: list[str] = []
        steps = 0
        for arena in sheet.arenas:
            for player in writers:
                for i, square in enumerate(arena.side(player).squares):
                    if not isinstance(square, int):
                        continue
                    ref = SquareRef(arena.name, player, i)
                    problem = reach.number_problem(square)
                    if problem is not None:
                        self.illegal(f"{where}{ref}: {problem}")
                        return
                    if steps_outside_the_die(square):
                        outside.append(f"{square} in {arena.name}")
                        steps += steps_outside_the_die(square)
        if steps > reach.steps:
            self.illegal(
                f"{where}the numbers outside 1 to 6 ({', '.join(outside)}) are {steps} steps "
                f"from the die's range, but {reach.armored} use(s) of {ARMORED_SUPPORT} and "
                f"{reach.stolen} of {STOLEN_INTEL} reach at most {reach.steps}"
            )

    # A team game -----------------------------------------------------------------------------

    def team_game(
        self, data: Mapping[str, Any], layout: Layout, extras: tuple[tuple[str, Any], ...]
    ) -> TeamGame | None:
        teams = self.teams(data.get("teams"))
        sheets_data = data.get("sheets")
        if not isinstance(sheets_data, list) or not sheets_data:
            self.malformed("a team game needs [[sheets]], one table per pair of opponents")
            return None
        sheets = []
        for n, sheet_data in enumerate(sheets_data, start=1):
            where = f"sheet {n}, "
            if not isinstance(sheet_data, Mapping):
                self.malformed(f"{where}should be a table with players and arenas")
                continue
            self.unknown_keys(sheet_data, ("players", "arenas", *EXTRA_KEYS), where)
            sheet = self.sheet(sheet_data, layout, Mode.DUEL, where, self.extras(sheet_data))
            if sheet is not None:
                sheets.append(sheet)
        if teams is None or len(sheets) != len(sheets_data):
            return None
        game = TeamGame(teams, tuple(sheets), layout, self.source, extras)
        self.check_teams(game)
        return game

    def teams(self, value: object) -> tuple[Team, Team] | None:
        example = '{ North = ["Ann", "Cid"], South = ["Ben", "Dee"] }'
        if not isinstance(value, Mapping) or len(value) != 2:
            self.malformed(f"teams = {quote(value)} should name two teams: teams = {example}")
            return None
        teams = []
        for name, players in value.items():
            if (
                not isinstance(players, list)
                or not players
                or not all(isinstance(p, str) and p.strip() for p in players)
            ):
                self.malformed(f"team {name}: {quote(players)} should list its players, {example}")
                return None
            names = tuple(p.strip() for p in players)
            if len(set(names)) != len(names):
                self.malformed(f"team {name} names a player twice: {quote(players)}")
            teams.append(Team(str(name), names))
        everyone = set(teams[0].players) | set(teams[1].players)
        for team in teams:
            if team.name in everyone:
                self.malformed(
                    f"team {quote(team.name)} is named like a player, so the result could mean "
                    "either; give the team a name of its own"
                )
        both = set(teams[0].players) & set(teams[1].players)
        if both:
            self.malformed(f"{', '.join(sorted(both))} cannot play on both teams")
        if len(teams[0].players) == len(teams[1].players) == 1:
            self.malformed(
                f"teams {teams[0].name} and {teams[1].name} have one player each: team mode is "
                'for four or more players; two players play a duel (mode = "duel")'
            )
        elif len(teams[0].players) != len(teams[1].players):
            self.malformed(
                f"team {teams[0].name} has {len(teams[0].players)} players and team "
                f"{teams[1].name} {len(teams[1].players)}: every player faces one opponent"
            )
        return teams[0], teams[1]

    def check_teams(self, game: TeamGame) -> None:
        seen: dict[str, int] = {}
        for n, sheet in enumerate(game.sheets, start=1):
            teams = []
            for player in sheet.players:
                try:
                    teams.append(game.team_of(player).name)
                except KeyError:
                    self.malformed(f"sheet {n}: player {quote(player)} is on neither team")
                if player in seen:
                    self.malformed(f"sheet {n}: {player} already plays on sheet {seen[player]}")
                seen[player] = n
            if len(teams) == 2 and teams[0] == teams[1]:
                self.malformed(
                    f"sheet {n}: {sheet.players[0]} and {sheet.players[1]} are both on team "
                    f"{teams[0]}; opponents come one from each team"
                )
        for team in game.teams:
            for player in team.players:
                if player not in seen:
                    self.malformed(f"team {team.name}: {player} has no sheet")


def _uses_allowed(sheet: Sheet, power: str, players: Sequence[str]) -> int:
    """Uses of `power` by `players`: their ticks where the sheet records them, else every box."""
    return sum(
        sum(arena.side(p).uses for p in players) if arena.ticks_recorded else arena.spec.ticks
        for arena in sheet.arenas
        if arena.spec.power == power
    )


def find_problems(data: Mapping[str, Any], source: str = "") -> tuple[Problem, ...]:
    """Every problem in a typed-in sheet, empty squares included, without raising."""
    reader = _Reader(source)
    parsed = reader.document(data)
    problems = list(reader.problems)
    if parsed is not None:
        problems.extend(
            Problem(ProblemKind.EMPTY, reader.where(f"{ref} is empty"))
            for ref in parsed.empty_squares()
        )
    return tuple(problems)


def parse_sheet(data: Mapping[str, Any], source: str = "") -> Sheet | TeamGame:
    """A checked sheet or team game from its mapping; raises InvalidSheet or IllegalSheet listing
    every problem. Empty squares are allowed here (see `Sheet.empty_squares`)."""
    reader = _Reader(source)
    parsed = reader.document(data)
    if reader.problems or parsed is None:
        problems = reader.problems or [Problem(ProblemKind.MALFORMED, reader.where("unreadable"))]
        error = (
            InvalidSheet if any(p.kind is ProblemKind.MALFORMED for p in problems) else IllegalSheet
        )
        raise error(_listing(problems, source))
    return parsed


def _listing(problems: Sequence[Problem], source: str) -> str:
    if len(problems) == 1:
        return problems[0].message
    # The first line names the file, so it stands alone as the error's summary.
    head = f"{source}: {len(problems)} problems:" if source else f"{len(problems)} problems:"
    return head + "\n" + "\n".join(f"  - {p.message}" for p in problems)
