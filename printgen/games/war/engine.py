"""War, played exactly as the War card states it, on an explicit deck.

Pure: no I/O and no hidden randomness. A seeded shuffle is `Deck.shuffled(seed)`; everything else
takes the deck (or the two piles) it is given. Where the card is silent the engine follows the
rulings in docs/rulings.md (## War), each pinned by a test in tests/test_war_engine.py.
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from printgen.errors import InputError, PrintgenError, quote

# The rules' numbers, as the card prints them.
DECK_SIZE = 52
WAR_FACE_DOWN = 3  # cards each player lays face down in a war, before turning one more
CAP_BATTLES = 500  # a Full game stops once this many battles have been played


class InvalidCard(InputError):
    """Text that names no card: quotes it and where it stood."""


class InvalidDeck(InputError):
    """A deck that is not the 52 cards once each: names the missing or repeated card."""


class InvalidPosition(InputError):
    """Two piles that no game of War can be playing from (a card twice, an empty pile)."""


class IllegalBattle(PrintgenError):
    """A battle asked for after the game is over."""


class Suit(Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @classmethod
    def from_text(cls, text: str) -> Suit:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise InvalidCard(f"{quote(text)} is not a suit: C, D, H or S") from None

    def to_text(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


class Rank(Enum):
    """Declared weakest to strongest: the order is the rank table (ace high)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def strength(self) -> int:
        """0 for a two up to 12 for an ace: only the order matters, never the number."""
        return _STRENGTH[self]

    @classmethod
    def from_text(cls, text: str) -> Rank:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise InvalidCard(f"{quote(text)} is not a rank: 2 to 10, J, Q, K or A") from None

    def to_text(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_STRENGTH = {rank: index for index, rank in enumerate(Rank)}
_CARD_TEXT = re.compile(r"(10|[2-9JQKA])([CDHS])", re.IGNORECASE)


@dataclass(frozen=True)
class Card:
    rank: Rank
    suit: Suit

    @classmethod
    def from_text(cls, text: str) -> Card:
        """`10H`, `AS`, `2c`: the rank (2-10, J, Q, K, A) then the suit (C, D, H, S)."""
        match = _CARD_TEXT.fullmatch(text.strip())
        if match is None:
            raise InvalidCard(
                f"{quote(text)} is not a card: write the rank (2-10, J, Q, K, A) then the suit "
                "(C, D, H, S), like 10H, AS or 2c"
            )
        return cls(Rank.from_text(match[1]), Suit.from_text(match[2]))

    def to_text(self) -> str:
        return f"{self.rank.to_text()}{self.suit.to_text()}"

    def __repr__(self) -> str:
        return f"Card.from_text({self.to_text()!r})"

    def __str__(self) -> str:
        return self.to_text()


# Rank by rank, weakest first, so a card's index in this tuple divided by 4 is its strength.
STANDARD_ORDER: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)


class Player(Enum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Player:
        return Player.B if self is Player.A else Player.A

    def __repr__(self) -> str:
        return f"Player.{self.name}"


class GameKind(Enum):
    SHORT = "short"  # won cards go to a won pile; play through the pile once
    FULL = "full"  # won cards go back under the pile; play until one holds every card


class Ending(Enum):
    ALL_CARDS = "one player holds every card"
    PILES_OUT = "the piles ran out"
    CAP = f"the cap: {CAP_BATTLES} battles played"
    TAKEN_BACK = "neither player had a card to turn, so each took back their own"


@dataclass(frozen=True)
class Deck:
    """The 52 cards in deal order: the first card is dealt to A, the second to B, and so on."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_complete(self.cards, "deck")

    @classmethod
    def standard(cls) -> Deck:
        return cls(STANDARD_ORDER)

    @classmethod
    def shuffled(cls, seed: int) -> Deck:
        """The standard order shuffled by `random.Random(seed)`: the same seed, the same deck."""
        cards = list(STANDARD_ORDER)
        random.Random(seed).shuffle(cards)
        return cls(tuple(cards))

    @classmethod
    def from_text(cls, text: str, source: str = "deck") -> Deck:
        """Cards separated by spaces or new lines; errors name `source`, the line and the card."""
        cards: list[Card] = []
        where: list[str] = []
        for line_number, line in enumerate(text.splitlines(), start=1):
            for token in line.split():
                place = f"{source}, line {line_number}, card {len(cards) + 1}"
                try:
                    cards.append(Card.from_text(token))
                except InvalidCard as error:
                    raise InvalidCard(f"{place}: {error}") from None
                where.append(place)
        _check_complete(cards, source, where)
        return cls(tuple(cards))

    def to_text(self) -> str:
        """Thirteen cards a line, so the file reads as four rows."""
        rows = (self.cards[i : i + 13] for i in range(0, len(self.cards), 13))
        return "\n".join(" ".join(card.to_text() for card in row) for row in rows) + "\n"

    def deal(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """One card at a time, alternately, A first; each player's first card is the top of
        their pile. Piles are written top first."""
        return self.cards[0::2], self.cards[1::2]

    def __repr__(self) -> str:
        return f"Deck.from_text({' '.join(card.to_text() for card in self.cards)!r})"


def _check_complete(cards: Sequence[Card], source: str, where: Sequence[str] = ()) -> None:
    seen: dict[Card, int] = {}
    for index, card in enumerate(cards):
        if card in seen:
            first = seen[card] + 1
            place = where[index] if where else f"{source}, card {index + 1}"
            raise InvalidDeck(f"{place}: {card} is repeated (it is already card {first})")
        seen[card] = index
    missing = [card.to_text() for card in STANDARD_ORDER if card not in seen]
    if missing:
        raise InvalidDeck(
            f"{source}: {len(cards)} cards, not {DECK_SIZE}; missing {', '.join(missing)}"
        )


@dataclass(frozen=True)
class Turn:
    """The two cards turned face up together; None for a player who had no card to turn."""

    a: Card | None
    b: Card | None
    down_a: int = 0  # cards A laid face down just before turning
    down_b: int = 0

    def card(self, player: Player) -> Card | None:
        return self.a if player is Player.A else self.b

    def down(self, player: Player) -> int:
        return self.down_a if player is Player.A else self.down_b

    @property
    def is_war(self) -> bool:
        """Two equal ranks (suits do not matter): another war follows."""
        return self.a is not None and self.b is not None and self.a.rank is self.b.rank

    @property
    def taker(self) -> Player | None:
        """Who takes the battle on this turn: the higher card, or the only player able to turn
        (the other loses the battle). None for a war, or when neither could turn."""
        if self.a is None or self.b is None:
            if self.a is None and self.b is None:
                return None
            return Player.B if self.a is None else Player.A
        if self.is_war:
            return None
        return Player.A if self.a.rank.strength > self.b.rank.strength else Player.B


@dataclass(frozen=True)
class BattleRecord:
    """One battle, wars and all: the log of a game is the list of these."""

    number: int
    turns: tuple[Turn, ...]
    laid_a: tuple[Card, ...]  # in the order laid
    laid_b: tuple[Card, ...]
    winner: Player | None  # None: nobody could turn, each took back their own
    cards_a: int  # after the battle: won cards (short) or cards held (full)
    cards_b: int

    @property
    def wars(self) -> int:
        return len(self.turns) - 1

    def laid(self, player: Player) -> tuple[Card, ...]:
        return self.laid_a if player is Player.A else self.laid_b

    def to_text(self) -> str:
        first, *wars = self.turns
        parts = [f"{self.number:>3}. A {first.a} v B {first.b}"]
        for turn in wars:
            parts.append(f"war: A {_war_side(turn, Player.A)} v B {_war_side(turn, Player.B)}")
        if self.winner is None:
            outcome = "nobody can turn: each takes back their own"
        else:
            taken = len(self.laid_a) + len(self.laid_b)
            outcome = f"{self.winner.value} takes {taken}"
        return f"{', '.join(parts)}: {outcome} (A {self.cards_a}, B {self.cards_b})"


def _war_side(turn: Turn, player: Player) -> str:
    card = turn.card(player)
    down = turn.down(player)
    if card is None:
        return "no card to turn"
    return f"{down} down + {card}"


@dataclass(frozen=True)
class Result:
    kind: GameKind
    winner: Player | None  # None: a draw
    battles: int
    wars: int
    cards_a: int  # won cards (short) or cards held (full)
    cards_b: int
    ending: Ending
    longest_war_chain: int  # the most wars in one battle

    @property
    def capped(self) -> bool:
        return self.ending is Ending.CAP

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.kind.value,
            "winner": None if self.winner is None else self.winner.value,
            "battles": self.battles,
            "wars": self.wars,
            "cards": {"A": self.cards_a, "B": self.cards_b},
            "capped": self.capped,
        }

    def to_text(self) -> str:
        counted = "won cards" if self.kind is GameKind.SHORT else "cards held"
        verdict = "a draw" if self.winner is None else f"{self.winner.value} wins"
        wars = "1 war" if self.wars == 1 else f"{self.wars} wars"
        return (
            f"{self.kind.value.capitalize()} game: {verdict}, {counted} A {self.cards_a}, "
            f"B {self.cards_b}. {self.battles} battles, {wars} (longest chain "
            f"{self.longest_war_chain}). Ended: {self.ending.value}."
        )


@dataclass
class WarGame:
    """A game in progress. Piles are deques, top on the left; `records` is the log."""

    kind: GameKind
    pile_a: deque[Card]
    pile_b: deque[Card]
    battles: int = 0
    won_a: list[Card] = field(default_factory=list)  # the Short game's won piles
    won_b: list[Card] = field(default_factory=list)
    records: list[BattleRecord] = field(default_factory=list)
    ending: Ending | None = None

    @classmethod
    def deal(cls, deck: Deck, kind: GameKind) -> WarGame:
        pile_a, pile_b = deck.deal()
        return cls(kind, deque(pile_a), deque(pile_b))

    @classmethod
    def from_piles(
        cls, kind: GameKind, pile_a: Iterable[Card], pile_b: Iterable[Card], battles: int = 0
    ) -> WarGame:
        """A game part way through: each pile top first, `battles` already played. For settling
        "who should have won from here" and for testing the rules at their edges."""
        a, b = tuple(pile_a), tuple(pile_b)
        repeated = sorted({c.to_text() for c in a if c in b} | _repeats(a) | _repeats(b))
        if repeated:
            raise InvalidPosition(f"piles hold {', '.join(repeated)} more than once")
        if not a or not b:
            raise InvalidPosition(f"both piles need a card; A has {len(a)}, B has {len(b)}")
        if kind is GameKind.SHORT and len(a) != len(b):
            # Both short-game piles lose the same number of cards each battle.
            raise InvalidPosition(f"short-game piles are always equal; A has {len(a)}, B {len(b)}")
        if not 0 <= battles < CAP_BATTLES:
            raise InvalidPosition(f"{battles} battles already played is not a game in progress")
        return cls(kind, deque(a), deque(b), battles)

    def pile(self, player: Player) -> deque[Card]:
        return self.pile_a if player is Player.A else self.pile_b

    def won(self, player: Player) -> list[Card]:
        return self.won_a if player is Player.A else self.won_b

    def cards(self, player: Player) -> int:
        """What decides the game: won cards in the Short game, cards held in the Full game."""
        if self.kind is GameKind.SHORT:
            return len(self.won(player))
        return len(self.pile(player))

    def verify_battle(self) -> None:
        if self.ending is not None:
            raise IllegalBattle(
                f"the game is over, after battle {self.battles}: {self.ending.value}"
            )

    def can_battle(self) -> bool:
        return self.ending is None

    def battle(self) -> BattleRecord:
        """Both turn their top card; equal cards mean a war, repeated until one is higher."""
        self.verify_battle()
        laid: dict[Player, list[Card]] = {Player.A: [], Player.B: []}
        turns: list[Turn] = []
        face_down = 0  # a battle's first turn has no face-down cards; each war has three
        while True:
            (a, down_a), (b, down_b) = (self._lay(p, laid[p], face_down) for p in Player)
            turn = Turn(a, b, down_a, down_b)
            turns.append(turn)
            if not turn.is_war:
                break
            face_down = WAR_FACE_DOWN
        winner = turn.taker
        self.battles += 1
        self._gather(winner, laid)
        self.ending = self._ending(winner)
        record = BattleRecord(
            number=self.battles,
            turns=tuple(turns),
            laid_a=tuple(laid[Player.A]),
            laid_b=tuple(laid[Player.B]),
            winner=winner,
            cards_a=self.cards(Player.A),
            cards_b=self.cards(Player.B),
        )
        self.records.append(record)
        return record

    def _lay(self, player: Player, laid: list[Card], face_down: int) -> tuple[Card | None, int]:
        """Lay `face_down` cards then turn one; with too few, all but one go down (ruling).
        Returns the turned card (None: no card to turn) and how many went face down."""
        pile = self.pile(player)
        if not pile:
            return None, 0
        down = min(face_down, len(pile) - 1)
        for _ in range(down + 1):
            laid.append(pile.popleft())
        return laid[-1], down

    def _gather(self, winner: Player | None, laid: dict[Player, list[Card]]) -> None:
        if winner is None:
            # Nobody could turn: each takes back their own, onto their own pile (game over).
            for player in Player:
                self.pile(player).extend(laid[player])
        elif self.kind is GameKind.SHORT:
            self.won(winner).extend(laid[winner] + laid[winner.other])
        else:
            # Ruling: the winner's own cards first, in the order laid, then the loser's.
            self.pile(winner).extend(laid[winner] + laid[winner.other])

    def _ending(self, winner: Player | None) -> Ending | None:
        if winner is None:
            return Ending.TAKEN_BACK
        if self.kind is GameKind.SHORT:
            return Ending.PILES_OUT if not self.pile_a and not self.pile_b else None
        if not self.pile(winner.other):
            return Ending.ALL_CARDS
        if self.battles >= CAP_BATTLES:
            return Ending.CAP
        return None

    def result(self) -> Result:
        if self.ending is None:
            raise IllegalBattle(f"the game is still going after {self.battles} battles")
        a, b = self.cards(Player.A), self.cards(Player.B)
        winner = None if a == b else (Player.A if a > b else Player.B)
        return Result(
            kind=self.kind,
            winner=winner,
            battles=self.battles,
            wars=sum(record.wars for record in self.records),
            cards_a=a,
            cards_b=b,
            ending=self.ending,
            longest_war_chain=max((record.wars for record in self.records), default=0),
        )

    def play_out(self) -> Result:
        while self.can_battle():
            self.battle()
        return self.result()


def _repeats(cards: Sequence[Card]) -> set[str]:
    return {card.to_text() for card in cards if cards.count(card) > 1}


def play_deck(deck: Deck, kind: GameKind) -> WarGame:
    """Deal `deck` and play it to the end; the game keeps its records (the log) and result()."""
    game = WarGame.deal(deck, kind)
    game.play_out()
    return game
