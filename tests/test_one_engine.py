"""ONE's rules engine: the board's connectivity, groups, capture jumps and the end of the game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.games.one.engine import (
    Board,
    Direction,
    DoubledStone,
    IllegalCapture,
    IllegalPlacement,
    IllegalTurn,
    InvalidPosition,
    Match,
    OffBoard,
    Point,
    Position,
    UnknownPlayer,
    can_capture,
    capture,
    capture_paths,
    place,
    verify_capture,
    winners,
)

BOARD = Board(16, 6)
P = Point


def position(captured: dict[str, int] | None = None, **stones: list[tuple[int, int]]) -> Position:
    return Position.from_stones(
        BOARD, {name: [P(r, s) for r, s in points] for name, points in stones.items()}, captured
    )


# --- connectivity ------------------------------------------------------------------------------


def test_ring_neighbours_wrap_at_the_seam() -> None:
    assert BOARD.connected(P(3, 16), P(3, 1))
    assert BOARD.connected(P(3, 1), P(3, 16))
    assert BOARD.step(P(3, 16), Direction.CLOCKWISE) == P(3, 1)
    assert BOARD.step(P(3, 1), Direction.ANTICLOCKWISE) == P(3, 16)
    assert set(BOARD.neighbours(P(3, 1))) == {P(2, 1), P(4, 1), P(3, 2), P(3, 16)}


def test_spoke_neighbours_and_the_ends_of_a_spoke() -> None:
    assert BOARD.connected(P(1, 7), P(2, 7))
    assert BOARD.connected(P(5, 7), P(6, 7))
    # No centre intersection: ring 1 has no inward neighbour, the outer ring no outward one.
    assert BOARD.step(P(1, 7), Direction.IN) is None
    assert BOARD.step(P(6, 7), Direction.OUT) is None
    assert set(BOARD.neighbours(P(1, 7))) == {P(2, 7), P(1, 6), P(1, 8)}
    assert set(BOARD.neighbours(P(6, 16))) == {P(5, 16), P(6, 15), P(6, 1)}


def test_spokes_do_not_meet_at_the_centre() -> None:
    # Ring-1 intersections on opposite spokes are not joined by any line.
    for spoke in range(1, 17):
        opposite = (spoke + 7) % 16 + 1
        assert not BOARD.connected(P(1, spoke), P(1, opposite))
    assert all(len(BOARD.neighbours(P(1, s))) == 3 for s in range(1, 17))


@pytest.mark.parametrize(
    ("a", "b"),
    [((2, 2), (3, 3)), ((2, 2), (1, 1)), ((3, 16), (4, 1)), ((3, 1), (2, 16)), ((2, 2), (2, 4))],
)
def test_no_diagonal_or_distant_links(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert not BOARD.connected(P(*a), P(*b))
    assert not BOARD.connected(P(*b), P(*a))


def test_every_link_is_mutual_and_every_point_has_two_to_four_links() -> None:
    for point in BOARD.points:
        links = BOARD.neighbours(point)
        assert 3 <= len(links) <= 4
        assert all(point in BOARD.neighbours(other) for other in links)


def test_group_across_the_seam_is_one_group() -> None:
    pos = position(Red=[(4, 15), (4, 16), (4, 1), (4, 2)], Blue=[(1, 1)])
    assert pos.largest_group("Red") == 4
    assert len(pos.groups("Red")) == 1


def test_rulebook_groups_line_arc_and_cross() -> None:
    spoke_line = position(Red=[(1, 3), (2, 3), (3, 3)], Blue=[])
    arc = position(Red=[(5, 9), (5, 10), (5, 11)], Blue=[])
    cross = position(Red=[(3, 5), (2, 5), (4, 5), (3, 4), (3, 6)], Blue=[])
    assert spoke_line.largest_group("Red") == 3
    assert arc.largest_group("Red") == 3
    assert cross.largest_group("Red") == 5


def test_diagonal_stones_are_separate_groups() -> None:
    pos = position(Red=[(2, 2), (3, 3), (4, 4)], Blue=[(1, 1)])
    assert pos.largest_group("Red") == 1
    assert len(pos.groups("Red")) == 3


def test_another_colour_breaks_a_group() -> None:
    pos = position(Red=[(2, 1), (2, 3), (3, 1), (3, 3)], Blue=[(2, 2), (3, 2)])
    assert pos.largest_group("Red") == 2
    assert pos.largest_group("Blue") == 2


# --- notation --------------------------------------------------------------------------------


def test_point_and_position_round_trip() -> None:
    assert Point.from_text("2,5") == P(2, 5)
    assert Point.from_text(" [6, 16] ") == P(6, 16)
    assert Point.from_text(P(3, 4).to_text()) == P(3, 4)
    pos = position({"Red": 1}, Red=[(1, 1), (2, 9)], Blue=[(6, 16)])
    assert eval(repr(pos)) == pos  # noqa: S307 (the repr rebuilds the position)
    assert eval(repr(P(2, 5))) == P(2, 5)  # noqa: S307


@pytest.mark.parametrize("text", ["2", "a,b", "2;5", ""])
def test_point_text_that_is_not_a_coordinate(text: str) -> None:
    with pytest.raises(InvalidPosition, match="not a coordinate"):
        Point.from_text(text)


# --- errors in a position --------------------------------------------------------------------


def test_two_stones_on_one_intersection_name_both_players() -> None:
    with pytest.raises(
        DoubledStone, match=r"players\.Blue\.stones\[1\]: \[2, 5\] already holds Red"
    ):
        position(Red=[(2, 5)], Blue=[(1, 1), (2, 5)])
    with pytest.raises(DoubledStone, match="another of its own"):
        position(Red=[(2, 5), (2, 5)], Blue=[])


@pytest.mark.parametrize(("ring", "spoke"), [(0, 1), (7, 1), (3, 0), (3, 17), (-1, 4)])
def test_a_coordinate_off_the_board(ring: int, spoke: int) -> None:
    with pytest.raises(OffBoard, match=rf"players\.Blue\.stones\[0\]: \[{ring}, {spoke}\] is off"):
        position(Red=[], Blue=[(ring, spoke)])


def test_an_unknown_player() -> None:
    pos = position(Red=[(1, 1)], Blue=[])
    with pytest.raises(UnknownPlayer, match="unknown player 'Green'; .*Red, Blue"):
        pos.stones_of("Green")
    with pytest.raises(UnknownPlayer, match="Green"):
        Position.from_stones(BOARD, {"Red": []}, {"Green": 2})
    with pytest.raises(UnknownPlayer, match="'Green'"):
        place(pos, "Green", P(2, 2))


def test_a_board_too_small() -> None:
    with pytest.raises(InvalidPosition, match="at least 5 spokes"):
        Board(4, 6)


# --- captures --------------------------------------------------------------------------------


def test_jump_along_a_spoke() -> None:
    pos = position(Red=[(2, 3)], Blue=[(3, 3)])
    done = capture(pos, P(2, 3), [P(4, 3)])
    assert done.removed == ((P(3, 3), "Blue"),)
    assert done.after.owner(P(4, 3)) == "Red"
    assert done.after.owner(P(2, 3)) is None
    assert done.after.owner(P(3, 3)) is None
    assert done.after.captured == {"Red": 1, "Blue": 0}


def test_jump_along_a_ring_across_the_seam() -> None:
    pos = position(Red=[(5, 15)], Blue=[(5, 16)])
    done = capture(pos, P(5, 15), [P(5, 1)])
    assert done.jumps[0].direction is Direction.CLOCKWISE
    assert done.after.owner(P(5, 1)) == "Red"
    back = position(Red=[(5, 2)], Blue=[(5, 1)])
    assert capture(back, P(5, 2), [P(5, 16)]).removed == ((P(5, 1), "Blue"),)


def test_chained_capture_across_colours_turning_corners() -> None:
    # Red jumps Blue out along spoke 3, turns to jump Green along ring 4, turns again to jump
    # Yellow inward along spoke 5: three colours, three directions, one turn.
    pos = position(
        Red=[(2, 3), (6, 6)], Blue=[(3, 3)], Green=[(4, 4)], Yellow=[(3, 5)], Black=[(1, 1)]
    )
    done = capture(pos, P(2, 3), [P(4, 3), P(4, 5), P(2, 5)])
    assert done.removed == ((P(3, 3), "Blue"), (P(4, 4), "Green"), (P(3, 5), "Yellow"))
    assert [j.direction for j in done.jumps] == [
        Direction.OUT,
        Direction.CLOCKWISE,
        Direction.IN,
    ]
    assert done.after.captured["Red"] == 3
    assert set(done.after.stones_of("Red")) == {P(2, 5), P(6, 6)}
    assert done.after.stones_of("Blue") == ()
    assert done.after.stones_of("Black") == (P(1, 1),)


def test_a_chain_may_come_back_to_where_it_started() -> None:
    # The capturing stone leaves its intersection at the first jump, so it may land there later.
    pos = position(Red=[(3, 1)], Blue=[(3, 2), (2, 3), (1, 2), (2, 1)])
    done = capture(pos, P(3, 1), [P(3, 3), P(1, 3), P(1, 1), P(3, 1)])
    assert len(done.removed) == 4
    assert done.after.stones_of("Red") == (P(3, 1),)
    assert done.after.stones_of("Blue") == ()


ILLEGAL = [
    # (name, Red stones, Blue stones, start, path, message)
    ("diagonal", [(2, 2)], [(3, 3)], (2, 2), [(4, 4)], "diagonal"),
    ("own stone", [(2, 2), (2, 3)], [], (2, 2), [(2, 4)], "Red's own"),
    ("nothing to jump", [(2, 2)], [(5, 5)], (2, 2), [(2, 4)], "no stone at \\[2, 3\\]"),
    ("landing taken", [(2, 2)], [(2, 3), (2, 4)], (2, 2), [(2, 4)], "not empty"),
    ("landing own", [(2, 2), (2, 4)], [(2, 3)], (2, 2), [(2, 4)], "not empty"),
    ("one step", [(2, 2)], [(2, 3)], (2, 2), [(2, 3)], "next to"),
    ("three spokes", [(2, 2)], [(2, 3)], (2, 2), [(2, 5)], "two spokes round"),
    ("three rings", [(1, 2)], [(2, 2)], (1, 2), [(4, 2)], "3 rings away"),
    ("through the centre", [(1, 1)], [(1, 16)], (1, 1), [(1, 9)], "cannot cross the centre"),
    ("past ring 1 inward", [(2, 4)], [(1, 4)], (2, 4), [(0, 4)], "off the board"),
    ("past the outer ring", [(5, 4)], [(6, 4)], (5, 4), [(7, 4)], "off the board"),
    ("no capturing stone", [(2, 2)], [(3, 3)], (4, 4), [(4, 6)], "no stone at \\[4, 4\\]"),
    ("empty path", [(2, 2)], [(2, 3)], (2, 2), [], "at least one landing"),
    ("standing still", [(2, 2)], [(2, 3)], (2, 2), [(2, 2)], "must move"),
    ("bad second jump", [(2, 2)], [(2, 3), (3, 4)], (2, 2), [(2, 4), (4, 5)], "jump 2 .*diagonal"),
    ("jump a taken stone again", [(2, 2)], [(2, 3)], (2, 2), [(2, 4), (2, 2)], "jump 2 .*no stone"),
]


@pytest.mark.parametrize(
    ("red", "blue", "start", "path", "message"),
    [case[1:] for case in ILLEGAL],
    ids=[case[0] for case in ILLEGAL],
)
def test_illegal_jumps(
    red: list[tuple[int, int]],
    blue: list[tuple[int, int]],
    start: tuple[int, int],
    path: list[tuple[int, int]],
    message: str,
) -> None:
    pos = position(Red=red, Blue=blue)
    points = [P(*p) for p in path]
    with pytest.raises((IllegalCapture, OffBoard), match=message):
        verify_capture(pos, P(*start), points)
    assert not can_capture(pos, P(*start), points)


def test_a_capture_in_the_name_of_the_wrong_player() -> None:
    pos = position(Red=[(2, 2)], Blue=[(2, 3)])
    assert can_capture(pos, P(2, 2), [P(2, 4)], "Red")
    with pytest.raises(IllegalCapture, match="is Red's, not Blue's"):
        verify_capture(pos, P(2, 2), [P(2, 4)], "Blue")
    with pytest.raises(UnknownPlayer, match="'Green'"):
        verify_capture(pos, P(2, 2), [P(2, 4)], "Green")


def test_capture_paths_lists_chains_and_their_beginnings() -> None:
    pos = position(Red=[(2, 3)], Blue=[(3, 3)], Green=[(4, 4)])
    assert set(capture_paths(pos, P(2, 3))) == {(P(4, 3),), (P(4, 3), P(4, 5))}


# --- the end of the game ---------------------------------------------------------------------


def _free(match: Match) -> Point:
    return next(p for p in match.position.board.points if match.position.owner(p) is None)


def test_game_ends_at_once_when_the_last_player_in_the_round_runs_out() -> None:
    match = Match.start(BOARD, ["Ann", "Bob"], stones_each=2)
    for _ in range(3):
        match.place(match.to_move, _free(match))
    assert not match.is_over
    match.place("Bob", _free(match))  # Bob's last stone: Ann would start the next round
    assert match.is_over
    with pytest.raises(IllegalTurn, match="the game is over"):
        match.place("Ann", _free(match))


def test_the_round_is_finished_after_the_starting_player_runs_out() -> None:
    match = Match.start(BOARD, ["Ann", "Bob", "Cy"], stones_each=1)
    match.place("Ann", P(6, 1))
    assert match.supply["Ann"] == 0 and not match.is_over
    match.place("Bob", P(6, 5))
    assert not match.is_over
    match.place("Cy", P(6, 9))
    assert match.is_over
    assert len(match.records) == 3


def test_a_middle_player_running_out_ends_the_game_before_the_starter_plays() -> None:
    match = Match.start(BOARD, ["Ann", "Bob", "Cy"], stones_each=2)
    match.place("Ann", P(3, 1))
    match.place("Bob", P(3, 2))
    match.place("Cy", P(6, 9))
    # A capture takes no stone from the supply, so Ann keeps one in hand.
    match.capture("Ann", P(3, 1), [P(3, 3)])
    match.place("Bob", P(5, 5))
    assert match.supply == {"Ann": 1, "Bob": 0, "Cy": 1}
    assert not match.is_over  # Cy still plays this round
    assert match.to_move == "Cy"
    match.place("Cy", P(6, 10))
    assert match.is_over
    assert [r.to_text() for r in match.records][-1] == "Cy places 6,10"


def test_placing_needs_a_stone_in_hand() -> None:
    pos = Position.from_stones(BOARD, {"Ann": [P(3, 1)], "Bob": [P(3, 2)]})
    match = Match(pos, {"Ann": 0, "Bob": 4})
    with pytest.raises(IllegalPlacement, match="Ann has no stones left"):
        match.place("Ann", P(5, 5))
    assert not match.can_place("Ann", P(5, 5))
    record = match.capture("Ann", P(3, 1), [P(3, 3)])
    assert record.removed == ((P(3, 2), "Bob"),)


def test_placing_on_a_stone() -> None:
    match = Match.start(BOARD, ["Ann", "Bob"], stones_each=3)
    match.place("Ann", P(2, 2))
    with pytest.raises(IllegalPlacement, match="Bob cannot place at \\[2, 2\\]: Ann's stone"):
        match.place("Bob", P(2, 2))
    with pytest.raises(OffBoard, match="Bob places: \\[9, 2\\] is off the board"):
        match.place("Bob", P(9, 2))


def test_moves_out_of_turn() -> None:
    match = Match.start(BOARD, ["Ann", "Bob"], stones_each=3)
    with pytest.raises(IllegalTurn, match="it is Ann's turn, not Bob's"):
        match.place("Bob", P(1, 1))
    with pytest.raises(UnknownPlayer, match="'Zed'"):
        match.place("Zed", P(1, 1))
    with pytest.raises(InvalidPosition, match="2 to 6 players, not 7"):
        Match.start(BOARD, [str(i) for i in range(7)], 5)


def test_ties_share_the_win() -> None:
    pos = position({"Red": 1, "Blue": 0}, Red=[(1, 1)], Blue=[(2, 2), (2, 3), (2, 4)])
    assert pos.score("Red") == pos.score("Blue") == 3
    assert winners(pos) == ("Red", "Blue")


# --- random legal playouts --------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=6),
    stones_each=st.integers(min_value=1, max_value=6),
    spokes=st.integers(min_value=5, max_value=10),
    rings=st.integers(min_value=2, max_value=4),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=200, max_size=200),
)
def test_random_playouts_keep_the_rules(
    players: int, stones_each: int, spokes: int, rings: int, choices: list[int]
) -> None:
    board = Board(spokes, rings)
    if players * stones_each >= len(board.points):
        stones_each = (len(board.points) - 1) // players
    names = [f"P{i}" for i in range(players)]
    match = Match.start(board, names, stones_each)
    pick = iter(choices)
    turns = 0
    while not match.is_over:
        turns += 1
        assert turns < 1000, "a game must end"
        player = match.to_move
        pos = match.position
        moves: list[tuple[str, Point, tuple[Point, ...]]] = []
        if match.supply[player]:
            moves += [("place", p, ()) for p in board.points if pos.owner(p) is None]
        for stone in pos.stones_of(player):
            moves += [("capture", stone, path) for path in capture_paths(pos, stone)]
        # Whoever is to move still has a stone and somewhere to put it: nobody ever passes.
        assert match.supply[player] > 0
        assert any(pos.owner(p) is None for p in board.points)
        kind, point, path = moves[next(pick, 0) % len(moves)]
        before = pos
        if kind == "place":
            match.place(player, point)
            assert match.position.owner(point) == player
        else:
            record = match.capture(player, point, path)
            assert all(owner != player for _, owner in record.removed)
            assert len(match.position.owners) == len(before.owners) - len(path)
        # Every stone is on the board, in a supply, or held by whoever captured it.
        total = len(match.position.owners) + sum(match.supply.values())
        total += sum(match.position.captured.values())
        assert total == players * stones_each
    # The game ended just before the starting player's turn, with somebody out of stones.
    assert match.to_move == names[0]
    assert min(match.supply.values()) == 0
    assert len(match.records) % players == 0
    final = match.position
    for name in names:
        groups = final.groups(name)
        assert sum(len(g) for g in groups) == len(final.stones_of(name))
        assert final.largest_group(name) == (len(groups[0]) if groups else 0)
