"""The referee for a typed-in game log: `printgen score GAME.toml` with game = "aiue-battle".

    game = "aiue-battle"
    alphabet = "latin"                 # or "kana"
    players = ["Ann", "Ben", "Cid"]    # in turn order; the first starts
    attacks = ["e", "p", "x"]          # the letters declared, in order
    [words]
    Ann = "apple"

TOML puts every key after a `[words]` header inside that table, so a log that writes `attacks`
below `[words]` (as a reader copying the layout above might) is read the same way: a list there
cannot be a word.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from printgen.errors import InputError, PrintgenError, quote
from printgen.games.aiue_battle.engine import (
    Alphabet,
    Attack,
    Battle,
    InvalidSetup,
    Player,
    Word,
)
from printgen.materials import ScoreOptions
from printgen.names import player_name

GAME_NAME = "aiue-battle"
EXIT_FINAL = 0
EXIT_PROVISIONAL = 3


class InvalidLog(InputError):
    """A game log missing a field, or with a field of the wrong kind."""


@dataclass(frozen=True)
class BattleReport:
    """A replayed log: every attack in order and how the game stood at the end."""

    alphabet: Alphabet
    players: tuple[Player, ...]
    attacks: tuple[Attack, ...]
    winner: str | None
    out_order: tuple[str, ...]
    still_in: tuple[str, ...]
    next_attacker: str | None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def exit_code(self) -> int:
        return EXIT_FINAL if self.finished else EXIT_PROVISIONAL

    def to_text(self) -> str:
        lines = [attack_line(attack) for attack in self.attacks]
        lines.append(self._ending())
        return "\n".join(lines)

    def _ending(self) -> str:
        if self.winner is None:
            return (
                f"Not finished: still in {', '.join(self.still_in)}; "
                f"next to attack: {self.next_attacker}"
            )
        last = self.attacks[-1]
        if len(last.out) > 1 and self.winner in last.out:
            how = f"the last players went out together on {self.winner}'s own attack"
        else:
            how = "the last player left"
        out = f"; out in order: {', '.join(self.out_order)}" if self.out_order else ""
        return f"Winner: {self.winner} ({how}{out})"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "winner": self.winner,
            "out_order": list(self.out_order),
            "attacks": [
                {
                    "attacker": a.attacker,
                    "letter": a.letter,
                    "revealed": {r.player: r.count for r in a.revealed},
                    "out": list(a.out),
                }
                for a in self.attacks
            ],
        }

    def summary(self) -> str:
        if self.winner is None:
            return f"not finished after {len(self.attacks)} attacks"
        return f"winner {self.winner} after {len(self.attacks)} attacks"


def attack_line(attack: Attack) -> str:
    """One attack as a line: who, which letter, who revealed what, who went out."""
    head = f"{attack.number:>2}. {attack.attacker} attacks {attack.letter}"
    if attack.second:
        head += " (second attack)"
    if not attack.hit:
        return f"{head}: miss, no one has it"
    shown = ", ".join(
        f"{r.player} reveals {r.count} ({' '.join(r.cards)})" for r in attack.revealed
    )
    line = f"{head}: {shown}"
    if attack.out:
        verb = "is" if len(attack.out) == 1 else "are"
        line += f"; {_and(attack.out)} {verb} out"
    return line


def _and(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def replay(document: Mapping[str, Any], source: str) -> Battle:
    """The battle a log describes, with every attack in it applied; errors name `source`."""
    try:
        _check_keys(document, source)
        alphabet = Alphabet.from_text(_field(document, "alphabet", str, source, "latin"))
        players = _players(document, source)
        words = _field(document, "words", dict, source)
        attacks = _attacks(document, words, source)
        unknown = [
            k
            for k, v in words.items()
            if k not in players and not (k == "attacks" and isinstance(v, list))
        ]
        if unknown:
            raise InvalidLog(
                f"{source}: [words] has {', '.join(map(quote, unknown))}, "
                f"not in players {quote(players)}"
            )
        seated: list[Player] = []
        for name in players:
            if name not in words:
                raise InvalidLog(f"{source}: player {quote(name)} has no word in [words]")
            seated.append(Player(name, Word.from_text(words[name], alphabet, f"{name}'s word")))
        battle = Battle(alphabet, seated)
        for letter in attacks:
            battle.attack(letter)
    except PrintgenError as error:
        if str(error).startswith(source):
            raise
        raise type(error)(f"{source}: {error}") from None
    return battle


def score(document: Mapping[str, Any], source: str, options: ScoreOptions) -> BattleReport:
    battle = replay(document, source)
    if not battle.is_over and not options.partial:
        raise InvalidLog(
            f"{source}: the log ends after {len(battle.records())} attacks with "
            f"{', '.join(battle.still_in)} still in and no winner; add the remaining attacks, "
            f"or pass --partial for the standing so far"
        )
    return BattleReport(
        alphabet=battle.alphabet,
        players=battle.players,
        attacks=battle.records(),
        winner=battle.winner,
        out_order=battle.out_order,
        still_in=battle.still_in,
        next_attacker=battle.attacker,
    )


# What a game log holds. A key misspelt was passed over: `alfabet = "kana"` played a kana
# game on the latin board, as if no alphabet were given.
LOG_KEYS = ("game", "alphabet", "players", "attacks", "words")


def _check_keys(document: Mapping[str, Any], source: str) -> None:
    for key in document:
        if key not in LOG_KEYS:
            near = difflib.get_close_matches(str(key), LOG_KEYS, n=1)
            hint = f" (did you mean `{near[0]}`?)" if near else ""
            raise InvalidLog(
                f"{source}: unknown key {quote(key)}{hint}; a game log holds {', '.join(LOG_KEYS)}"
            )


def _field(
    document: Mapping[str, Any], key: str, kind: type, source: str, default: Any = None
) -> Any:
    if key not in document:
        if default is not None:
            return default
        raise InvalidLog(f"{source}: no `{key}` field")
    value = document[key]
    if not isinstance(value, kind):
        raise InvalidLog(f"{source}: `{key}` should be a {kind.__name__}, got {quote(value)}")
    return value


def _players(document: Mapping[str, Any], source: str) -> list[str]:
    players = _field(document, "players", list, source)
    for position, name in enumerate(players, start=1):
        try:
            player_name(name, f"{source}: players[{position}]")
        except InputError as error:
            raise InvalidLog(str(error)) from None
    if len(set(players)) != len(players):
        raise InvalidSetup(f"players {quote(players)} name someone twice")
    return players


def _attacks(document: Mapping[str, Any], words: Mapping[str, Any], source: str) -> list[Any]:
    if "attacks" in document:
        return list(_field(document, "attacks", list, source))
    if isinstance(words.get("attacks"), list):
        return list(words["attacks"])
    raise InvalidLog(f"{source}: no `attacks` list (the letters declared, in order)")
