"""The simulator's fast path: the same rules as engine.py, on ranks as small ints.

The outcome of a deal depends only on the ranks in it, so a card here is its strength (0 for a
two up to 12 for an ace) and a pile is a `collections.deque` of them: a battle is two pops, a
compare and two appends, several million a second on one core. No records, no Card objects.

This module repeats the rules rather than sharing code with the readable engine, so
tests/test_war_simulate.py plays both on many seeded deals and hypothesis-chosen piles and
checks that every figure of every outcome is identical.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

from printgen.games.war.engine import CAP_BATTLES, DECK_SIZE, STANDARD_ORDER, WAR_FACE_DOWN

# A war moves the face-down cards and the turned one off the pile.
_WAR_CARDS = WAR_FACE_DOWN + 1
# Strength of each card of the standard order, by its index there.
STRENGTHS: tuple[int, ...] = tuple(card.rank.strength for card in STANDARD_ORDER)

# Who won, as `Outcome.winner` stores it.
DRAW, A_WINS, B_WINS = 0, 1, 2


class Outcome(NamedTuple):
    winner: int  # DRAW, A_WINS or B_WINS
    battles: int
    wars: int
    cards_a: int  # won cards (short) or cards held (full)
    cards_b: int
    capped: bool
    longest_war_chain: int
    taken_back: bool  # ended with neither player able to turn


def shuffled_strengths(seed: int) -> list[int]:
    """The strengths of `Deck.shuffled(seed)`, in deal order: the same shuffle on indices."""
    order = list(range(DECK_SIZE))
    random.Random(seed).shuffle(order)
    return [STRENGTHS[index] for index in order]


def _verdict(a: int, b: int) -> int:
    return DRAW if a == b else (A_WINS if a > b else B_WINS)


def play_short(pile_a: Sequence[int], pile_b: Sequence[int]) -> Outcome:
    """Short game from two equal piles (top first). Both piles shrink alike, so a position in
    them is one index and a won pile is only a count."""
    size = len(pile_a)
    top = 0  # index of the next card to turn, in both piles
    won_a = won_b = battles = wars = longest = 0
    taken_back = False
    while top < size:
        battles += 1
        a, b = pile_a[top], pile_b[top]
        top += 1
        laid = 1  # cards laid by each player in this battle
        chain = 0
        while a == b:
            chain += 1
            left = size - top
            if left == 0:
                taken_back = True  # nobody can turn; each takes back their own, game over
                break
            step = min(_WAR_CARDS, left)  # with fewer than four, all but one go down
            top += step
            laid += step
            a, b = pile_a[top - 1], pile_b[top - 1]
        wars += chain
        longest = max(longest, chain)
        if taken_back:
            break
        if a > b:
            won_a += 2 * laid
        else:
            won_b += 2 * laid
    return Outcome(_verdict(won_a, won_b), battles, wars, won_a, won_b, False, longest, taken_back)


def play_full(pile_a: Sequence[int], pile_b: Sequence[int], played: int = 0) -> Outcome:
    """Full game from two piles (top first) with `played` battles already played, to the end."""
    a, b = deque(pile_a), deque(pile_b)
    pop_a, pop_b, put_a, put_b = a.popleft, b.popleft, a.append, b.append
    wars = longest = 0
    capped = taken_back = False
    battles = played
    # The loop's own count is the game's: a for loop costs less a battle than a counter.
    for battles in range(played + 1, CAP_BATTLES + 1):  # noqa: B007
        x = pop_a()
        y = pop_b()
        # The common case, inline: the winner's card goes under first, then the loser's.
        if x > y:
            put_a(x)
            put_a(y)
            if not b:
                break
        elif y > x:
            put_b(y)
            put_b(x)
            if not a:
                break
        else:
            chain, taken_back = _war(a, b, x, y)
            wars += chain
            longest = max(longest, chain)
            if taken_back or not a or not b:
                break
    else:
        capped = True
    return Outcome(
        _verdict(len(a), len(b)), battles, wars, len(a), len(b), capped, longest, taken_back
    )


def _war(a: deque[int], b: deque[int], x: int, y: int) -> tuple[int, bool]:
    """Plays out the wars after two equal cards x and y, and gives the cards to the winner.
    Returns the number of wars and whether nobody could turn (each took back their own)."""
    laid_a, laid_b = [x], [y]
    chain = 0
    while x == y:
        chain += 1
        if not a or not b:
            break
        for _ in range(min(_WAR_CARDS, len(a))):  # with fewer than four, all but one go down
            laid_a.append(a.popleft())
        for _ in range(min(_WAR_CARDS, len(b))):
            laid_b.append(b.popleft())
        x, y = laid_a[-1], laid_b[-1]
    if x == y:  # the war stopped on an empty pile
        if not a and not b:
            a.extend(laid_a)
            b.extend(laid_b)
            return chain, True
        a_wins = bool(a)  # a player with no card to turn loses the battle
    else:
        a_wins = x > y
    if a_wins:
        a.extend(laid_a)
        a.extend(laid_b)
    else:
        b.extend(laid_b)
        b.extend(laid_a)
    return chain, False


def play_seed(seed: int, full: bool) -> Outcome:
    """The game `printgen war play --seed SEED` plays, without its log."""
    strengths = shuffled_strengths(seed)
    if full:
        return play_full(strengths[0::2], strengths[1::2])
    return play_short(strengths[0::2], strengths[1::2])
