"""Package War! rules engine: every rule, the rulebook's own examples, and the rulings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from printgen.games.package_war.engine import (
    RECOMMENDED_DICE,
    START_SCORE,
    Action,
    Ending,
    IllegalMove,
    IllegalStack,
    InvalidMove,
    Match,
    Move,
    PackageWarError,
    Phase,
    Position,
    RollOutcome,
    Side,
    crushes,
    first_player,
    game_result,
    stack_points,
    verify_stack,
)


def play(match: Match, *texts: str) -> None:
    for text in texts:
        match.play(Move.from_text(text))


def distribution(
    line: tuple[int, ...],
    ann: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()),
    ben: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()),
    *,
    scores: tuple[int, int] = (START_SCORE, START_SCORE),
    to_move: int = 0,
    dice: int = RECOMMENDED_DICE,
) -> Match:
    """Ann (seat 0) and Ben mid-distribution, `to_move` having rolled the six."""
    position = Position(
        sides=(Side("Ann", scores[0], ann), Side("Ben", scores[1], ben)),
        dice=dice,
        line=line,
        phase=Phase.DISTRIBUTION,
        to_move=to_move,
        opened_by=to_move,
    )
    return Match.from_position(position)


# -- stacks and their points --------------------------------------------------------------------


def test_rulebook_five_stack_scores_ten() -> None:
    assert stack_points((5, 4, 3, 2, 1)) == 1 + 2 + 3 + 4 == 10


@pytest.mark.parametrize(
    ("stack", "points"), [((), 0), ((3,), 0), ((5, 1), 1), ((5, 3, 1), 3), ((5, 4, 2, 1), 6)]
)
def test_a_package_on_k_packages_scores_k(stack: tuple[int, ...], points: int) -> None:
    assert stack_points(stack) == points


def test_rulebook_four_or_five_on_a_four_crushes_all_below() -> None:
    for heavier_or_equal in (4, 5):
        match = distribution((heavier_or_equal,), ann=((5, 4), ()))
        record = match.take(Move.from_text(f"Ann: take {heavier_or_equal} on 1"))
        assert record.crushed == (5, 4)
        assert match.position.sides[0].tables[0] == (heavier_or_equal,)


def test_lighter_on_heavier_stands() -> None:
    match = distribution((3, 1), ann=((5, 4), ()))
    play(match, "Ann: take 3 on 1", "Ben: push 1 on 1")
    assert match.position.sides[0].tables[0] == (5, 4, 3, 1)


def test_ruling_crush_takes_whole_stack() -> None:
    # A 3 on 5 4 2: the 2 is lighter, and the whole stack below the 3 goes, 5 and 4 too.
    match = distribution((3,), ann=((5, 4, 2), ()))
    record = match.take(Move.from_text("Ann: take 3 on 1"))
    assert record.crushed == (5, 4, 2)
    assert match.position.sides[0].tables[0] == (3,)


def test_crush_taken_off_at_once() -> None:
    match = distribution((2, 1), ann=((5, 4, 2), ()))
    match.take(Move.from_text("Ann: take 2 on 1"))
    side = match.position.sides[0]
    assert (side.score, side.crushed) == (START_SCORE - 3, 3)
    assert match.position.pool == RECOMMENDED_DICE - 2  # the three crushed dice are back


def test_crushes_needs_a_stack() -> None:
    assert not crushes((), 5)
    assert crushes((3,), 3)
    assert not crushes((3,), 2)


def test_verify_stack_names_position() -> None:
    with pytest.raises(IllegalStack, match=r"Ann, table 2, position 3 from the bottom: a 3 on a 3"):
        verify_stack([5, 3, 3], "Ann, table 2")
    with pytest.raises(IllegalStack, match="position 1 .* not 6"):
        verify_stack([6], "Ann, table 1")
    with pytest.raises(InvalidMove, match="'4'"):
        verify_stack(["4"], "Ann, table 1")


def test_ruling_empty_table_always_open() -> None:
    # Ann already holds three packages on table 1; a fourth may still start table 2.
    match = distribution((4,), ann=((5, 3, 1), ()))
    assert match.can_take(Move.from_text("Ann: take 4 on 2"))
    match.take(Move.from_text("Ann: take 4 on 2"))
    assert match.position.sides[0].tables == ((5, 3, 1), (4,))


def test_push_goes_to_receivers_table() -> None:
    match = distribution((2, 1), ben=((), (3,)))
    record = match.push(Move.from_text("Ann: push 2 on 2"))
    assert record.receiver == "Ben"
    assert match.position.sides[1].tables == ((), (3, 2))
    assert match.position.sides[0].tables == ((), ())


def test_equal_weights_are_the_same_package() -> None:
    match = distribution((4, 2, 4))
    match.take(Move.from_text("Ann: take 4 on 1"))
    assert sorted(match.position.line) == [2, 4]


# -- packaging ----------------------------------------------------------------------------------


def test_packaging_alternates_and_builds_line_in_order() -> None:
    match = Match(("Ann", "Ben"), first=1)
    play(match, "Ben: roll 3", "Ann: roll 1", "Ben: roll 5")
    assert match.position.line == (3, 1, 5)
    assert match.position.mover == "Ann"
    assert match.position.pool == RECOMMENDED_DICE - 3
    with pytest.raises(IllegalMove, match="it is Ann's turn"):
        match.roll(Move.from_text("Ben: roll 2"))


def test_line_of_six_returns_oldest() -> None:
    match = Match(("Ann", "Ben"))
    play(match, "Ann: roll 1", "Ben: roll 2", "Ann: roll 3", "Ben: roll 4", "Ann: roll 5")
    record = match.roll(Move.from_text("Ben: roll 2"))
    assert record.roll is RollOutcome.OLDEST_BACK and record.returned == 1
    assert match.position.line == (2, 3, 4, 5, 2)
    assert match.position.pool == RECOMMENDED_DICE - 5


def test_six_starts_distribution_roller_first() -> None:
    match = Match(("Ann", "Ben"))
    play(match, "Ann: roll 4", "Ben: roll 2")
    record = match.roll(Move.from_text("Ann: roll 6"))
    assert record.roll is RollOutcome.DISTRIBUTION
    position = match.position
    assert position.phase is Phase.DISTRIBUTION and position.mover == "Ann"
    assert position.line == (4, 2)
    assert position.pool == RECOMMENDED_DICE - 2  # the six went back
    with pytest.raises(IllegalMove, match="distribution phase"):
        match.roll(Move.from_text("Ann: roll 3"))


def test_ruling_six_on_empty_line_passes_turn() -> None:
    match = Match(("Ann", "Ben"))
    record = match.roll(Move.from_text("Ann: roll 6"))
    assert record.roll is RollOutcome.SIX_IGNORED
    assert match.position.phase is Phase.PACKAGING
    assert match.position.mover == "Ben"
    assert match.position.pool == RECOMMENDED_DICE


def test_distribution_alternates_then_scores_and_other_player_begins() -> None:
    match = Match(("Ann", "Ben"))
    play(match, "Ann: roll 5", "Ben: roll 3", "Ann: roll 1", "Ben: roll 6")
    assert match.position.mover == "Ben"
    play(match, "Ben: take 5 on 1", "Ann: push 3 on 1")
    record = match.take(Move.from_text("Ben: take 1 on 1"))
    assert record.scoring is not None
    ben = record.scoring.sides[1]
    assert (ben.before, ben.stack_points, ben.crushed, ben.after) == (5, 3, 0, 8)
    position = match.position
    assert position.phase is Phase.PACKAGING
    assert position.mover == "Ann"  # Ben rolled the six
    assert position.round == 2


def test_surviving_stacks_score_every_round() -> None:
    match = distribution((1,), ann=((5, 3), ()))
    first = match.take(Move.from_text("Ann: take 1 on 1")).scoring
    assert first is not None and first.sides[0].stack_points == 3
    # Round two: Ben rolls the six on a one-package line and sends it to his own empty table.
    play(match, "Ben: roll 2", "Ann: roll 6", "Ann: push 2 on 2")
    second = match.records[-1].scoring
    assert second is not None
    assert second.sides[0].stack_points == 3
    assert match.position.sides[0].score == START_SCORE + 3 + 3


def test_take_and_push_must_name_a_package_in_the_line_and_a_table() -> None:
    match = distribution((3, 2))
    with pytest.raises(IllegalMove, match="no package of weight 5"):
        match.take(Move.from_text("Ann: take 5 on 1"))
    with pytest.raises(IllegalMove, match="tables 1 and 2"):
        match.push(Move.from_text("Ann: push 3 on 3"))
    with pytest.raises(IllegalMove, match="it is Ann's turn"):
        match.take(Move.from_text("Ben: take 3 on 1"))
    with pytest.raises(IllegalMove, match="not a player"):
        match.take(Move.from_text("Cy: take 3 on 1"))
    with pytest.raises(IllegalMove, match="packaging phase"):
        Match(("Ann", "Ben")).take(Move.from_text("Ann: take 3 on 1"))
    assert not match.can_push(Move.from_text("Ann: push 4 on 1"))
    assert match.can_push(Move.from_text("Ann: push 3 on 1"))


# -- game end -----------------------------------------------------------------------------------


def test_reaching_twenty_wins() -> None:
    match = distribution((1,), ann=((5, 4, 3, 2), ()), scores=(10, 5))
    scoring = match.take(Move.from_text("Ann: take 1 on 1")).scoring
    assert scoring is not None and scoring.sides[0].after == 20
    result = match.position.result
    assert result.over and result.winner == 0 and result.ending is Ending.REACHED_WIN
    assert match.position.phase is Phase.OVER
    with pytest.raises(IllegalMove, match="game is over"):
        match.roll(Move.from_text("Ben: roll 3"))
    assert match.legal_moves() == []


def test_dropping_to_zero_loses() -> None:
    match = distribution((5,), ben=((4, 3), ()), scores=(5, 2))
    match.push(Move.from_text("Ann: push 5 on 1"))
    result = match.position.result
    assert result.over and result.winner == 0 and result.ending is Ending.OPPONENT_LOST


def test_ruling_game_end_checked_at_round_end() -> None:
    # Ben drops to 0 at the crush, but his other stack lifts him to 3 when the round is scored.
    match = distribution((5, 1), ben=((4, 3), (5, 4, 2)), scores=(5, 2))
    match.push(Move.from_text("Ann: push 5 on 1"))
    assert match.position.sides[1].score == 0
    assert match.position.phase is Phase.DISTRIBUTION
    scoring = match.push(Move.from_text("Ben: push 1 on 2")).scoring
    assert scoring is not None
    assert match.position.sides[1].score == 0 + 3
    assert not match.position.result.over


def test_ruling_both_limits_equal_is_draw() -> None:
    assert game_result((20, 20)).winner is None
    assert game_result((20, 20)).over
    assert game_result((0, 0)) == game_result((-2, -2)) == game_result((21, 21))
    assert game_result((-1, -1)).ending is Ending.DRAW


def test_both_limits_higher_score_wins() -> None:
    assert game_result((22, 20)).winner == 0
    assert game_result((-3, 0)).winner == 1
    assert game_result((20, 0)).winner == 0
    assert game_result((20, 0)).ending is Ending.HIGHER_SCORE
    assert game_result((19, 1)).over is False


# -- the pool -----------------------------------------------------------------------------------


def test_twenty_six_dice_never_run_dry() -> None:
    # The most dice ever out of the pool: two full stacks each, a full line, one in the hand.
    full = (5, 4, 3, 2, 1)
    position = Position(
        sides=(Side("Ann", 10, (full, full)), Side("Ben", 10, (full, full))),
        dice=RECOMMENDED_DICE,
        line=(1, 2, 3, 4, 5),
    )
    assert position.pool == 1


def test_ruling_empty_pool_rolls_oldest() -> None:
    position = Position(
        sides=(
            Side("Ann", 10, ((5, 4, 3, 2, 1), (5, 4, 3))),
            Side("Ben", 10, ((5, 3), (4, 2))),
        ),
        dice=16,
        line=(2, 3, 4, 1),
    )
    match = Match.from_position(position)
    assert match.position.pool == 0
    record = match.roll(Move.from_text("Ann: roll 5"))
    assert record.picked_up == 2
    assert match.position.line == (3, 4, 1, 5)
    assert match.position.pool == 0
    record = match.roll(Move.from_text("Ben: roll 6"))
    assert record.picked_up == 3 and match.position.line == (4, 1, 5)
    assert match.position.pool == 1


def test_ruling_all_dice_on_tables_ends_game() -> None:
    ann, ben = ((5, 4, 3, 2), (5, 4, 3)), ((5, 4, 3, 2, 1), (5, 4, 3))
    match = distribution((1,), ann=ann, ben=ben, scores=(6, 4), dice=16)
    assert match.position.pool == 0
    match.take(Move.from_text("Ann: take 1 on 2"))
    result = match.position.result
    assert result.over and result.ending is Ending.POOL_EMPTY
    assert result.winner == 0  # Ann 6 + 6 + 6 = 18, Ben 4 + 10 + 3 = 17


def test_ruling_fewer_than_16_dice_refused() -> None:
    with pytest.raises(PackageWarError, match="16 to 26 dice"):
        Match(("Ann", "Ben"), dice=27)
    with pytest.raises(PackageWarError, match="16 to 26 dice"):
        Match(("Ann", "Ben"), dice=15)
    Match(("Ann", "Ben"), dice=16)


# -- setup, notation ----------------------------------------------------------------------------


def test_ruling_rolloff_ties_roll_again() -> None:
    assert first_player([(3, 3), (2, 5)]) == 1
    assert first_player([(6, 1)]) == 0
    with pytest.raises(IllegalMove, match="rolled again"):
        first_player([(4, 4)])
    with pytest.raises(InvalidMove, match="not a die face"):
        first_player([(7, 1)])
    # Rolls after the deciding one were passed over in silence.
    with pytest.raises(IllegalMove, match=r"start roll 3: \[2, 3\] comes after the roll-off"):
        first_player([(2, 2), (1, 5), (2, 3)])


def test_players_need_two_different_names() -> None:
    with pytest.raises(PackageWarError, match="different names"):
        Match(("Ann", "Ann"))
    with pytest.raises(PackageWarError, match="no ':'"):
        Match(("Ann: A", "Ben"))


@pytest.mark.parametrize("text", ["Ann: roll 4", "Ben: take 4 on 1", "Ann Lee: push 2 on 2"])
def test_move_notation_round_trips(text: str) -> None:
    move = Move.from_text(text)
    assert move.to_text() == text
    assert eval(repr(move)) == move  # the repr rebuilds the move


@pytest.mark.parametrize(
    "text", ["Ann roll 4", "Ann: roll", "Ann: take 4", "Ann: roll 4 on 1", "Ann: jump 3 on 1"]
)
def test_malformed_moves_are_invalid(text: str) -> None:
    with pytest.raises(InvalidMove):
        Move.from_text(text)


def test_roll_face_must_be_a_die_face() -> None:
    with pytest.raises(InvalidMove, match="1 to 6"):
        Match(("Ann", "Ben")).roll(Move.from_text("Ann: roll 7"))


def test_legal_moves_cover_every_decision() -> None:
    match = distribution((4, 2, 4))
    moves = match.legal_moves()
    assert len(moves) == 2 * 2 * 2  # take/push x weights {2, 4} x tables
    assert all(match.can(m) for m in moves)
    assert {m.action for m in moves} == {Action.TAKE, Action.PUSH}
    assert len(Match(("Ann", "Ben")).legal_moves()) == 6


def test_from_position_refuses_impossible_positions() -> None:
    position = Position(sides=(Side("Ann", 5, ((3, 4), ())), Side("Ben", 5)), dice=26)
    with pytest.raises(IllegalStack, match="Ann, table 1"):
        Match.from_position(position)
    full = ((5, 4, 3, 2, 1), (5, 4, 3, 2, 1))
    crowded = replace(position, sides=(Side("Ann", 5, full), Side("Ben", 5, full)), dice=16)
    with pytest.raises(PackageWarError, match="cannot cover"):
        Match.from_position(crowded)
    with pytest.raises(PackageWarError, match="needs packages in the line"):
        Match.from_position(replace(position, sides=(Side("Ann", 5), Side("Ben", 5)),
                                    phase=Phase.DISTRIBUTION))  # fmt: skip
