"""aiue battle, the rules: hidden words, declared letters, reveals, and who is left standing.

Pure: no I/O, no randomness. A `Battle` is set up with the players (in turn order) and their
words; each declared letter is an `attack()`, which returns a frozen `Attack` record. The records,
in order, are the game's log.

The rules, as the referee applies them:
- the first player attacks first; an attack declares a letter of the board, once per game;
- it is a hit when any player still in (the attacker too: a self-destruct) has the letter, and
  every such player reveals every card with that letter;
- a hit earns the same player one more attack, never more than two in a turn; a miss, or a
  second attack, passes the turn to the next player still in;
- a player whose letter cards are all revealed is out and attacks no more; the last player left
  wins, and when the last players are all put out by one attack, the attacker wins.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from printgen.errors import InputError, PrintgenError, quote

# A word is written one letter per card; the rest of a player's cards are blank crosses.
CARDS_PER_PLAYER = 7
MIN_WORD = 2
MAX_WORD = CARDS_PER_PLAYER
# Five colours of cards in the box, one colour per player.
MIN_PLAYERS = 2
MAX_PLAYERS = 5
# Two attacks at most in one turn: the first, and the one a hit earns.
MAX_ATTACKS_PER_TURN = 2


class InvalidWord(InputError):
    """A word that is not 2 to 7 letters of the game's alphabet."""


class InvalidLetter(InputError):
    """A declared letter that is not a letter of the board."""


class InvalidSetup(InputError):
    """Players that cannot sit down to a game: too few, too many, or the same name twice."""


class IllegalAttack(PrintgenError):
    """An attack against the rules: a letter declared before, or after the game has ended."""


# The kana side of the board, in gojuon order (a i u e o within each column), then the long
# vowel mark, which has a cell of its own (see docs/rulings.md, aiue battle).
GOJUON_COLUMNS = (
    "あいうえお",
    "かきくけこ",
    "さしすせそ",
    "たちつてと",
    "なにぬねの",
    "はひふへほ",
    "まみむめも",
    "やゆよ",
    "らりるれろ",
    "わを",
    "ん",
)
GOJUON = "".join(GOJUON_COLUMNS)
LONG_VOWEL_MARK = "ー"
KANA_BOARD = tuple(GOJUON) + (LONG_VOWEL_MARK,)

# Cards written with a mark, or small, are attacked through the plain letter of the board:
# が and ぱ fall to か and は, っ to つ (docs/rulings.md).
DAKUTEN = dict(
    zip(
        "がぎぐげござじずぜぞだぢづでどばびぶべぼゔ",
        "かきくけこさしすせそたちつてとはひふへほう",
        strict=True,
    )
)
HANDAKUTEN = dict(zip("ぱぴぷぺぽ", "はひふへほ", strict=True))
SMALL_KANA = dict(zip("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ", strict=True))
KANA_BASE: dict[str, str] = {
    **{k: k for k in KANA_BOARD},
    **DAKUTEN,
    **HANDAKUTEN,
    **SMALL_KANA,
}

LATIN_BOARD = tuple("abcdefghijklmnopqrstuvwxyz")

# Katakana sits 0x60 above the hiragana of the same sound.
_KATAKANA = range(0x30A1, 0x30F7)
_KATAKANA_OFFSET = 0x60


def _hiragana(ch: str) -> str:
    return chr(ord(ch) - _KATAKANA_OFFSET) if ord(ch) in _KATAKANA else ch


class Alphabet(Enum):
    """Which side of the board the game is played on."""

    LATIN = "latin"
    KANA = "kana"

    @classmethod
    def from_text(cls, text: str) -> Alphabet:
        try:
            return cls(text.strip().lower())
        except ValueError:
            known = ", ".join(repr(a.value) for a in cls)
            raise InvalidSetup(f"alphabet {quote(text)} is not one of {known}") from None

    def to_text(self) -> str:
        return self.value

    @property
    def board(self) -> tuple[str, ...]:
        """The letters that can be declared, in board order."""
        return LATIN_BOARD if self is Alphabet.LATIN else KANA_BOARD

    def card(self, ch: str) -> str | None:
        """A character as it is written on a card (lower case; katakana as hiragana), or None
        when it is no letter of this alphabet."""
        if self is Alphabet.LATIN:
            lower = ch.lower() if ch.isascii() else ch
            return lower if lower in LATIN_BOARD else None
        kana = _hiragana(ch)
        return kana if kana in KANA_BASE else None

    def base(self, card: str) -> str:
        """The board letter whose attack reveals `card`."""
        return card if self is Alphabet.LATIN else KANA_BASE[card]


def _normal(text: str) -> str:
    # A dakuten typed as a combining mark (か + U+3099) is the same letter as が.
    return unicodedata.normalize("NFC", text.strip())


@dataclass(frozen=True)
class Word:
    """A hidden word: one letter per card, as written (the flag card first)."""

    cards: tuple[str, ...]
    alphabet: Alphabet

    @classmethod
    def from_text(cls, text: str, alphabet: Alphabet, where: str = "word") -> Word:
        if not isinstance(text, str):
            raise InvalidWord(f"{where}: expected a word in quotes, got {quote(text)}")
        letters = _normal(text)
        cards: list[str] = []
        for position, ch in enumerate(letters, start=1):
            card = alphabet.card(ch)
            if card is None:
                raise InvalidWord(
                    f"{where}: {quote(text)} has {quote(ch)} at letter {position}, which is not a "
                    f"letter of the {alphabet.value} alphabet{_alphabet_hint(alphabet)}"
                )
            cards.append(card)
        if not MIN_WORD <= len(cards) <= MAX_WORD:
            raise InvalidWord(
                f"{where}: {quote(text)} has {len(cards)} letters; a word has {MIN_WORD} to "
                f"{MAX_WORD} (one per card)"
            )
        return cls(tuple(cards), alphabet)

    def to_text(self) -> str:
        return "".join(self.cards)

    def __repr__(self) -> str:
        return f"Word.from_text({self.to_text()!r}, Alphabet.{self.alphabet.name})"

    @cached_property
    def bases(self) -> tuple[str, ...]:
        """The board letter behind each card (cached: every attack asks every word)."""
        return tuple(self.alphabet.base(card) for card in self.cards)

    def positions_of(self, letter: str) -> tuple[int, ...]:
        """The cards an attack on board letter `letter` reveals (0 is the flag card)."""
        return tuple(i for i, base in enumerate(self.bases) if base == letter)


def _alphabet_hint(alphabet: Alphabet) -> str:
    if alphabet is Alphabet.LATIN:
        return " (A to Z, either case)"
    return " (hiragana or katakana, with ゛ ゜, small kana and ー)"


def parse_letter(text: str, alphabet: Alphabet, where: str) -> str:
    """A declared letter as it stands on the board; InvalidLetter naming `where` otherwise."""
    if not isinstance(text, str):
        raise InvalidLetter(f"{where}: expected one letter in quotes, got {quote(text)}")
    letter = _normal(text)
    card = alphabet.card(letter) if len(letter) == 1 else None
    if card is None:
        raise InvalidLetter(
            f"{where}: {quote(text)} is not a letter of the {alphabet.value} board"
            f"{_alphabet_hint(alphabet)}"
        )
    base = alphabet.base(card)
    if base != card:
        raise InvalidLetter(
            f"{where}: {quote(text)} has no cell of its own on the board; declare {quote(base)}, "
            f"which reveals {quote(card)} too"
        )
    return base


@dataclass(frozen=True)
class Player:
    name: str
    word: Word


@dataclass(frozen=True)
class Reveal:
    """The cards one player turned round for one attack, as written."""

    player: str
    cards: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class Attack:
    """One declared letter and what it did."""

    number: int  # 1-based position in the game's log
    attacker: str
    letter: str
    second: bool  # the attacker's second attack of the turn
    revealed: tuple[Reveal, ...]  # in turn order from the attacker
    out: tuple[str, ...]  # put out by this attack, in turn order from the attacker
    next_attacker: str | None  # None once the game is over
    winner: str | None  # set on the attack that ends the game

    @property
    def hit(self) -> bool:
        return bool(self.revealed)

    @property
    def self_destruct(self) -> bool:
        return any(r.player == self.attacker for r in self.revealed)


class Battle:
    """One game in progress. Its state changes only through attack(); records() is the log."""

    def __init__(self, alphabet: Alphabet, players: Sequence[Player]) -> None:
        names = [p.name for p in players]
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise InvalidSetup(
                f"{len(players)} players: aiue battle is for {MIN_PLAYERS} to {MAX_PLAYERS} "
                f"(one colour of cards each)"
            )
        for name in names:
            if not name.strip():
                raise InvalidSetup(f"players: an empty name in {quote(names)}")
            if names.count(name) > 1:
                raise InvalidSetup(f"players: {quote(name)} is named twice in {quote(names)}")
        for player in players:
            if player.word.alphabet is not alphabet:
                raise InvalidSetup(
                    f"{player.name}: the word {quote(player.word.to_text())} is not written in the "
                    f"{alphabet.value} alphabet"
                )
        self.alphabet = alphabet
        self.players: tuple[Player, ...] = tuple(players)
        self._revealed: dict[str, frozenset[int]] = {name: frozenset() for name in names}
        self._declared: list[str] = []
        self._out: list[str] = []
        self._turn = 0  # index into players of the one to attack
        self._attacks_this_turn = 0
        self._winner: str | None = None
        self._records: list[Attack] = []

    @classmethod
    def from_words(cls, alphabet: Alphabet, words: Iterable[tuple[str, str]]) -> Battle:
        """Players in turn order from (name, word) pairs, as a test or the referee types them."""
        players = [
            Player(name, Word.from_text(word, alphabet, where=f"{name}'s word"))
            for name, word in words
        ]
        return cls(alphabet, players)

    # --- the state, read-only ---

    @property
    def winner(self) -> str | None:
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def attacker(self) -> str | None:
        """Who declares the next letter; None once the game is over."""
        return None if self.is_over else self.players[self._turn].name

    @property
    def second_attack_due(self) -> bool:
        """The next attack is the attacker's second of the turn."""
        return not self.is_over and self._attacks_this_turn == 1

    @property
    def declared(self) -> tuple[str, ...]:
        return tuple(self._declared)

    @property
    def out_order(self) -> tuple[str, ...]:
        return tuple(self._out)

    @property
    def still_in(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if p.name not in self._out)

    def records(self) -> tuple[Attack, ...]:
        return tuple(self._records)

    def revealed(self, name: str) -> frozenset[int]:
        """Positions of `name`'s cards turned round so far (0 is the flag card)."""
        return self._revealed[name]

    def open_letters(self) -> tuple[str, ...]:
        """Board letters not yet declared, in board order."""
        return tuple(letter for letter in self.alphabet.board if letter not in self._declared)

    # --- the move ---

    def verify_attack(self, letter: str) -> str:
        """The board letter `letter` declares, or IllegalAttack / InvalidLetter saying why not."""
        number = len(self._records) + 1
        where = f"attack {number} ({quote(letter)})"
        if self._winner is not None:
            raise IllegalAttack(
                f"{where}: the game is already over; {self._winner} won at attack "
                f"{len(self._records)}"
            )
        base = parse_letter(letter, self.alphabet, where)
        if base in self._declared:
            earlier = self._declared.index(base) + 1
            raise IllegalAttack(
                f"{where}: {quote(base)} was already declared at attack {earlier}; "
                f"each letter is struck through once a game"
            )
        return base

    def can_attack(self, letter: str) -> bool:
        try:
            self.verify_attack(letter)
        except PrintgenError:
            return False
        return True

    def attack(self, letter: str) -> Attack:
        base = self.verify_attack(letter)
        attacker_index = self._turn
        attacker = self.players[attacker_index].name
        second = self._attacks_this_turn == 1
        in_before = set(self.still_in)

        reveals: list[Reveal] = []
        out_now: list[str] = []
        for player in self._from(attacker_index):
            if player.name not in in_before:
                continue
            positions = player.word.positions_of(base)
            if not positions:
                continue
            reveals.append(Reveal(player.name, tuple(player.word.cards[i] for i in positions)))
            shown = self._revealed[player.name] | set(positions)
            self._revealed[player.name] = shown
            if len(shown) == len(player.word.cards):
                out_now.append(player.name)

        self._declared.append(base)
        self._out.extend(out_now)
        left = self.still_in
        if len(left) == 1:
            self._winner = left[0]
        elif not left:
            # Everyone still in went out together: only a self-destruct can do that, and the
            # one who made it wins.
            self._winner = attacker
        elif reveals and not second and attacker not in out_now:
            self._attacks_this_turn = 1
        else:
            self._attacks_this_turn = 0
            self._turn = self._next_in(attacker_index)

        record = Attack(
            number=len(self._records) + 1,
            attacker=attacker,
            letter=base,
            second=second,
            revealed=tuple(reveals),
            out=tuple(out_now),
            next_attacker=self.attacker,
            winner=self._winner,
        )
        self._records.append(record)
        return record

    def _from(self, index: int) -> tuple[Player, ...]:
        """Every player in turn order, starting with the one at `index`."""
        return self.players[index:] + self.players[:index]

    def _next_in(self, index: int) -> int:
        count = len(self.players)
        for step in range(1, count + 1):
            candidate = (index + step) % count
            if self.players[candidate].name not in self._out:
                return candidate
        raise AssertionError("no player left to take the turn")  # the game would be over
