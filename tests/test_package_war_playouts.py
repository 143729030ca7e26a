"""Random legal Package War! games: the rules' invariants hold at every move."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.games.package_war.engine import (
    HEAVIEST,
    LIGHTEST,
    LINE_LENGTH,
    Action,
    Match,
    Move,
    Phase,
    Position,
    stack_points,
    verify_stack,
)
from printgen.games.package_war.referee import score_round
from printgen.materials import ScoreOptions

MAX_MOVES = 400


def check_position(position: Position) -> None:
    assert position.pool >= 0
    assert len(position.line) <= LINE_LENGTH
    assert all(LIGHTEST <= w <= HEAVIEST for w in position.line)
    for side in position.sides:
        for stack in side.tables:
            verify_stack(stack, side.name)


@st.composite
def games(draw: st.DrawFn) -> Match:
    dice = draw(st.integers(min_value=16, max_value=26))
    match = Match(("Ann", "Ben"), first=draw(st.integers(0, 1)), dice=dice)
    for _ in range(MAX_MOVES):
        if match.position.phase is Phase.OVER:
            break
        moves = match.legal_moves()
        before = match.position
        move = moves[draw(st.integers(0, len(moves) - 1))]
        record = match.play(move)
        check_position(match.position)
        if move.action is Action.ROLL:
            continue
        # A decision takes exactly one package out of the line.
        assert len(match.position.line) == len(before.line) - 1 or record.scoring is not None
        if record.scoring is not None:
            assert not match.position.line
            assert match.position.phase is Phase.OVER or (
                match.position.to_move != before.opened_by
            )
    return match


@settings(max_examples=40, deadline=None)
@given(games())
def test_random_games_keep_every_invariant(match: Match) -> None:
    names = tuple(s.name for s in match.position.sides)
    previous = dict.fromkeys(names, 5)
    for record in match.records:
        if record.scoring is None:
            continue
        for side in record.scoring.sides:
            assert side.before == previous[side.name]
            assert side.after == side.before + side.stack_points - side.crushed
            previous[side.name] = side.after
        # The round referee agrees with the replay on every round.
        sides = record.position.sides
        document = {
            "game": "package-war",
            "players": {
                scored.name: {
                    "score": scored.before,
                    "tables": [list(t) for t in side.tables],
                    "crushed": scored.crushed,
                }
                for scored, side in zip(record.scoring.sides, sides, strict=True)
            },
        }
        report = score_round(document, "round", ScoreOptions())
        assert [p.score for p in report.players] == [s.after for s in record.scoring.sides]
        assert report.result == record.scoring.result
        assert [p.stack_points for p in report.players] == [
            sum(stack_points(t) for t in side.tables) for side in sides
        ]


@settings(max_examples=25, deadline=None)
@given(games())
def test_random_games_replay_from_their_notation(match: Match) -> None:
    texts = [r.move.to_text() for r in match.records]
    first = 0 if not texts or texts[0].startswith("Ann:") else 1
    again = Match(("Ann", "Ben"), first=first, dice=match.position.dice)
    for text in texts:
        again.play(Move.from_text(text))
    assert again.records == match.records


@settings(max_examples=25, deadline=None)
@given(games(), st.integers(1, 6), st.integers(1, 3))
def test_illegal_moves_leave_position_unchanged(match: Match, value: int, table: int) -> None:
    position = match.position
    if position.phase is Phase.OVER:
        return
    legal = set(match.legal_moves())
    for action in Action:
        for player in ("Ann", "Ben"):
            move = Move(player, action, value, None if action is Action.ROLL else table)
            if move in legal:
                continue
            assert not match.can(move)
            assert match.position == position
