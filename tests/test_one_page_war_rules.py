"""One Page War rules: combinations, the rank tables, Allies, tiebreaks and stars."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cmp_to_key

import pytest
from hypothesis import given
from hypothesis import strategies as st

from printgen.games.one_page_war.rules import (
    ALLIES_RANKS,
    RANKS,
    Combination,
    Hand,
    Mark,
    RulesError,
    best_star_value,
    classify,
    compare,
    evaluate,
    judge,
)

C = Combination
STAR = Mark.STAR


@pytest.mark.parametrize(
    ("numbers", "combination"),
    [
        ([4, 4, 4, 4, 4], C.FIVE_OF_A_KIND),
        ([2, 2, 2, 2], C.FOUR_OF_A_KIND),
        ([2, 6, 2, 2, 2], C.FOUR_OF_A_KIND),
        ([1, 1, 1], C.THREE_OF_A_KIND),
        ([5, 1, 5, 5], C.THREE_OF_A_KIND),
        ([3, 3, 3, 6, 6], C.THREE_OF_A_KIND),  # a triple and a pair is three of a kind
        ([3, 2, 1], C.STRAIGHT),  # any order
        ([5, 3, 4, 6], C.STRAIGHT),
        ([0, 1, 2], C.STRAIGHT),
        ([7, 5, 6, 4, 3], C.STRAIGHT),
        ([1, 1, 2, 2], C.TWO_PAIRS),
        ([5, 5, 3, 3, 1], C.TWO_PAIRS),
        ([1, 1, 6], C.ONE_PAIR),
        ([3, 3, 5, 4], C.ONE_PAIR),
        ([6, 2, 6, 1, 4], C.ONE_PAIR),
        ([1, 3, 5], C.NOTHING),
        ([1, 2, 3, 5], C.NOTHING),  # a run with a gap is no straight
        ([1, 2, 4, 5, 6], C.NOTHING),
    ],
)
def test_every_combination(numbers: list[int], combination: Combination) -> None:
    assert classify(numbers) is combination
    assert evaluate(numbers).combination is combination


def test_rank_tables_weakest_to_strongest() -> None:
    assert RANKS[0] is C.NOTHING and RANKS[-1] is C.FIVE_OF_A_KIND
    assert RANKS.index(C.THREE_OF_A_KIND) > RANKS.index(C.STRAIGHT) > RANKS.index(C.TWO_PAIRS)
    assert ALLIES_RANKS[-1] is C.STRAIGHT
    assert [c for c in ALLIES_RANKS if c is not C.STRAIGHT] == [
        c for c in RANKS if c is not C.STRAIGHT
    ]
    assert set(RANKS) == set(ALLIES_RANKS) == set(Combination)


@pytest.mark.parametrize(
    ("first", "second", "outcome", "reason"),
    [
        ([2, 2, 2, 6], [3, 3, 5, 4], 1, "three of a kind beats one pair"),
        ([1, 2, 3], [6, 6, 5], 1, "straight beats one pair"),
        ([1, 1, 1], [4, 5, 6], 1, "three of a kind beats straight"),
        ([3, 3, 3, 1], [2, 2, 6, 6], 1, "three of a kind beats two pairs"),
        ([4, 4, 6], [6, 6, 1], -1, "both one pair: 6+6 beats 4+4"),
        ([1, 2, 3], [3, 4, 5], -1, "both straight: 5+4+3 beats 3+2+1"),
        ([1, 1, 6], [1, 1, 2], 1, "both one pair, 1+1: remaining 6 beats 2"),
        (
            [2, 2, 2, 6, 6],
            [2, 2, 2, 5, 5],
            1,
            "both three of a kind, 2+2+2: remaining 6+6 beats 5+5",
        ),
        ([6, 5, 1], [5, 3, 1], 1, "both nothing: 6+5+1 beats 5+3+1"),
        ([3, 3, 5, 4], [4, 3, 5, 3], 0, "both one pair, the same numbers: tied"),
    ],
)
def test_verdicts_and_reasons(
    first: list[int], second: list[int], outcome: int, reason: str
) -> None:
    verdict = judge(evaluate(first), evaluate(second))
    assert (verdict.outcome, verdict.reason) == (outcome, reason)


def test_equal_sums_with_different_numbers_tie() -> None:
    """Ruling: the rulebook breaks ties only by sums; equal sums with different numbers tie."""
    pairs = judge(evaluate([1, 1, 6, 6]), evaluate([3, 3, 4, 4]))
    assert pairs.outcome == 0
    assert "tied by ruling" in pairs.reason
    nothing = judge(evaluate([1, 4, 6]), evaluate([2, 3, 6]))
    assert nothing.outcome == 0 and "tied by ruling" in nothing.reason


def test_pair_remaining_sum_ties_by_ruling() -> None:
    verdict = judge(evaluate([3, 3, 6, 1]), evaluate([3, 3, 5, 2]))
    assert verdict.outcome == 0
    assert "tied by ruling" in verdict.reason


def test_allies_straight_beats_everything() -> None:
    for strong in ([4, 4, 4], [2, 2, 2, 2], [6, 6, 6, 6, 6]):
        straight = [1, 2, 3, 4, 5][: len(strong)]
        verdict = judge(evaluate(straight, allies=True), evaluate(strong, allies=True))
        assert verdict.outcome == 1
        assert verdict.reason.endswith("(Allies)")
        assert judge(evaluate(straight), evaluate(strong)).outcome == -1


def test_allies_leaves_other_comparisons_alone() -> None:
    assert judge(evaluate([1, 1, 1], True), evaluate([5, 5, 6], True)).outcome == 1
    assert judge(evaluate([1, 2, 3], True), evaluate([3, 4, 5], True)).outcome == -1


def test_sides_scored_with_different_allies_settings_are_refused() -> None:
    with pytest.raises(RulesError):
        compare(evaluate([1, 2, 3], True), evaluate([1, 2, 3], False))


@pytest.mark.parametrize(
    ("squares", "value", "combination"),
    [
        ([STAR, 3, 5], 4, C.STRAIGHT),
        ([STAR, 2, 5], 5, C.ONE_PAIR),  # the higher pair
        ([7, 7, STAR, 2], 7, C.THREE_OF_A_KIND),
        ([2, STAR, 6, 6], 6, C.THREE_OF_A_KIND),
        ([3, 3, 5, 5, STAR], 5, C.THREE_OF_A_KIND),  # joins the higher pair
        ([4, 4, 4, 4, STAR], 4, C.FIVE_OF_A_KIND),
        ([2, 3, 4, STAR], 5, C.STRAIGHT),  # the straight with the higher sum
    ],
)
def test_star_takes_the_best_value(
    squares: list[int | Mark], value: int, combination: Combination
) -> None:
    hand = evaluate(squares)
    assert hand.combination is combination
    assert best_star_value(squares) == value
    assert hand.star == squares.index(STAR)
    assert f"*={value}" in hand.to_text()


def test_star_may_stand_above_seven() -> None:
    """Ruling: a star counts as any whole number 0 or more, so 6, 7 and a star run to 8."""
    hand = evaluate([STAR, 6, 7])
    assert (hand.combination, hand.star_value) == (C.STRAIGHT, 8)


def test_star_never_below_zero() -> None:
    hand = evaluate([STAR, 0, 1])
    assert hand.star_value == 2
    assert min(hand.numbers) >= 0


def test_bad_sides_are_refused() -> None:
    for squares in ([STAR, STAR, 1], [1, -1, 2], [1, Mark.EMPTY, 2], [1], [1] * 6):
        with pytest.raises(RulesError):
            evaluate(squares)


# --- properties -----------------------------------------------------------------------------

numbers = st.integers(min_value=0, max_value=9)


@st.composite
def sides(draw: st.DrawFn, size: int | None = None) -> list[int]:
    n = size if size is not None else draw(st.integers(min_value=3, max_value=5))
    return draw(st.lists(numbers, min_size=n, max_size=n))


@st.composite
def arenas(draw: st.DrawFn) -> tuple[list[int], list[int], bool]:
    n = draw(st.integers(min_value=3, max_value=5))
    return draw(sides(n)), draw(sides(n)), draw(st.booleans())


@given(arenas())
def test_comparison_is_antisymmetric(arena: tuple[list[int], list[int], bool]) -> None:
    first, second, allies = arena
    a, b = evaluate(first, allies), evaluate(second, allies)
    assert compare(a, b) == -compare(b, a)
    assert judge(a, b).outcome == -judge(b, a).outcome
    assert judge(a, b).reason == judge(b, a).reason
    assert compare(a, a) == 0


@given(arenas(), st.randoms(use_true_random=False))
def test_order_of_numbers_does_not_matter(
    arena: tuple[list[int], list[int], bool], random: object
) -> None:
    first, second, allies = arena
    shuffled = list(first)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    before = judge(evaluate(first, allies), evaluate(second, allies))
    after = judge(evaluate(shuffled, allies), evaluate(second, allies))
    assert before == after


@given(sides(), st.data(), st.booleans())
def test_a_star_is_never_worse_than_a_number_in_its_place(
    side: list[int], data: st.DataObject, allies: bool
) -> None:
    where = data.draw(st.integers(min_value=0, max_value=len(side) - 1))
    starred: list[int | Mark] = list(side)
    starred[where] = STAR
    with_star = evaluate(starred, allies)
    for value in range(0, 15):
        replaced = list(side)
        replaced[where] = value
        assert compare(with_star, evaluate(replaced, allies)) >= 0
    # ...and it is one of those numbers: what it counts as is a real value.
    as_counted = list(side)
    as_counted[where] = with_star.numbers[where]
    assert evaluate(as_counted, allies).key == with_star.key


@given(arenas(), arenas())
def test_comparison_is_transitive(
    x: tuple[list[int], list[int], bool], y: tuple[list[int], list[int], bool]
) -> None:
    n = len(x[0])
    a, b = evaluate(x[0], x[2]), evaluate(x[1], x[2])
    c = evaluate((y[0] * 2)[:n], x[2])
    if compare(a, b) >= 0 and compare(b, c) >= 0:
        assert compare(a, c) >= 0


# --- every arena, sorted ----------------------------------------------------------------------


def _reference_combination(numbers: tuple[int, ...]) -> Combination:
    """The rulebook's list read top down, written independently of the rank table."""
    counts = sorted(Counter(numbers).values(), reverse=True)
    if counts[0] == 5:
        return C.FIVE_OF_A_KIND
    if counts[0] == 4:
        return C.FOUR_OF_A_KIND
    if counts[0] == 3:
        return C.THREE_OF_A_KIND
    if len(set(numbers)) == len(numbers) and sorted(numbers) == list(
        range(min(numbers), min(numbers) + len(numbers))
    ):
        return C.STRAIGHT
    if counts[:2] == [2, 2]:
        return C.TWO_PAIRS
    if counts[0] == 2:
        return C.ONE_PAIR
    return C.NOTHING


@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("allies", [False, True])
def test_every_arena_sorts_into_a_total_order(size: int, allies: bool) -> None:
    table = ALLIES_RANKS if allies else RANKS
    hands = [
        evaluate(numbers, allies)
        for numbers in itertools.combinations_with_replacement(range(0, 8), size)
    ]
    for hand in hands:
        assert hand.combination is _reference_combination(hand.numbers)
    ordered = sorted(hands, key=cmp_to_key(compare))
    # The combinations come out in the table's order, weakest first...
    ranks = [table.index(h.combination) for h in ordered]
    assert ranks == sorted(ranks)
    # ...every hand beats or ties every hand before it, and ties only its equals.
    for lower, higher in itertools.pairwise(ordered):
        assert compare(lower, higher) <= 0
    tied_blocks = [list(g) for _, g in itertools.groupby(ordered, key=lambda h: h.key)]
    for block in tied_blocks:
        assert all(compare(block[0], other) == 0 for other in block)
    for lower, higher in itertools.pairwise(tied_blocks):
        assert compare(lower[0], higher[0]) == -1
    # Higher combination numbers win within a combination: the rulebook's 1,2,3 < 3,4,5.
    for a, b in itertools.pairwise(ordered):
        if a.combination is b.combination and sum(a.combo) != sum(b.combo):
            assert sum(a.combo) < sum(b.combo)


def test_hand_key_is_rank_then_sums() -> None:
    hand = evaluate([3, 3, 3, 6, 6])
    assert isinstance(hand, Hand)
    assert hand.combo == (3, 3, 3) and hand.rest == (6, 6)
    assert hand.key == (RANKS.index(C.THREE_OF_A_KIND), 9, 12)
