"""The simulator: its fast path plays exactly the engine's rules, and its figures are the sum of
the games it plays, whatever the number of jobs."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.errors import InputError
from printgen.games.war import fast
from printgen.games.war.engine import (
    CAP_BATTLES,
    STANDARD_ORDER,
    Card,
    Deck,
    Ending,
    GameKind,
    Player,
    Result,
    WarGame,
    play_deck,
)
from printgen.games.war.simulate import (
    CHUNK_GAMES,
    MAX_BARS,
    draw_plot,
    histogram,
    play_chunk,
    simulate,
    write_plot,
)

WINNER_CODE = {None: fast.DRAW, Player.A: fast.A_WINS, Player.B: fast.B_WINS}


def as_outcome(result: Result) -> fast.Outcome:
    return fast.Outcome(
        winner=WINNER_CODE[result.winner],
        battles=result.battles,
        wars=result.wars,
        cards_a=result.cards_a,
        cards_b=result.cards_b,
        capped=result.capped,
        longest_war_chain=result.longest_war_chain,
        taken_back=result.ending is Ending.TAKEN_BACK,
    )


def strengths(cards: list[Card] | tuple[Card, ...]) -> list[int]:
    return [card.rank.strength for card in cards]


# The fast path is the engine


def test_seeded_strengths_are_the_seeded_decks() -> None:
    for seed in (0, 1, 99, 2**40):
        assert fast.shuffled_strengths(seed) == strengths(Deck.shuffled(seed).cards)


@pytest.mark.parametrize("kind", list(GameKind))
def test_fast_path_matches_the_engine_on_many_seeds(kind: GameKind) -> None:
    for seed in range(150):
        engine = as_outcome(play_deck(Deck.shuffled(seed), kind).result())
        assert fast.play_seed(seed, kind is GameKind.FULL) == engine, f"seed {seed}"


@settings(max_examples=150, deadline=None)
@given(st.permutations(STANDARD_ORDER), st.sampled_from(list(GameKind)))
def test_fast_path_matches_the_engine_on_any_deal(order: list[Card], kind: GameKind) -> None:
    engine = as_outcome(play_deck(Deck(tuple(order)), kind).result())
    ranks = strengths(order)
    if kind is GameKind.FULL:
        assert fast.play_full(ranks[0::2], ranks[1::2]) == engine
    else:
        assert fast.play_short(ranks[0::2], ranks[1::2]) == engine


# Decks of few ranks make wars, chains of wars and empty piles mid-war common: the edges.
FEW_RANKS = [card for card in STANDARD_ORDER if card.rank.strength in (0, 5, 12)]


@settings(max_examples=300, deadline=None)
@given(
    st.permutations(STANDARD_ORDER).flatmap(
        lambda order: st.tuples(st.just(order), st.integers(1, len(order) - 1))
    )
    | st.permutations(FEW_RANKS).flatmap(
        lambda order: st.tuples(st.just(order), st.integers(1, len(order) - 1))
    ),
    st.integers(0, CAP_BATTLES - 1),
)
def test_fast_path_matches_the_engine_from_any_full_position(
    split: tuple[list[Card], int], played: int
) -> None:
    order, at = split
    game = WarGame.from_piles(GameKind.FULL, order[:at], order[at:], battles=played)
    engine = as_outcome(game.play_out())
    assert fast.play_full(strengths(order[:at]), strengths(order[at:]), played) == engine


@settings(max_examples=200, deadline=None)
@given(st.permutations(FEW_RANKS), st.integers(1, len(FEW_RANKS) // 2))
def test_fast_path_matches_the_engine_from_any_short_position(order: list[Card], size: int) -> None:
    a, b = order[:size], order[size : 2 * size]
    engine = as_outcome(WarGame.from_piles(GameKind.SHORT, a, b).play_out())
    assert fast.play_short(strengths(a), strengths(b)) == engine


def test_few_rank_positions_reach_every_ending() -> None:
    # Guards the test above: the edge cases it is meant to reach do come up.
    endings = set()
    someone_could_not_turn = False
    for seed in range(300):
        order = list(FEW_RANKS)
        random.Random(seed).shuffle(order)
        at = 1 + seed % (len(order) - 1)
        game = WarGame.from_piles(GameKind.FULL, order[:at], order[at:], battles=seed)
        endings.add(game.play_out().ending)
        turns = [turn for record in game.records for turn in record.turns]
        someone_could_not_turn |= any((t.a is None) != (t.b is None) for t in turns)
    assert endings == {Ending.ALL_CARDS, Ending.CAP, Ending.TAKEN_BACK}
    assert someone_could_not_turn


# The simulator's figures


def test_a_chunk_sums_its_games() -> None:
    chunk = play_chunk(1000, 40, full=True)
    outcomes = [fast.play_seed(1000 + i, True) for i in range(40)]
    assert list(chunk.lengths) == [o.battles for o in outcomes]
    assert chunk.a_wins == sum(o.winner == fast.A_WINS for o in outcomes)
    assert chunk.b_wins == sum(o.winner == fast.B_WINS for o in outcomes)
    assert chunk.capped == sum(o.capped for o in outcomes)
    assert chunk.wars == sum(o.wars for o in outcomes)
    longest = max(o.longest_war_chain for o in outcomes)
    assert chunk.longest_war_chain == longest
    first = next(i for i, o in enumerate(outcomes) if o.longest_war_chain == longest)
    assert chunk.longest_war_seed == 1000 + first


@pytest.mark.parametrize("kind", list(GameKind))
def test_simulation_figures_are_its_games(kind: GameKind) -> None:
    games = CHUNK_GAMES + 77  # two chunks, the second short
    progress: list[int] = []
    simulation = simulate(games, kind, seed=20, progress=progress.append)
    assert sum(progress) == games
    outcomes = [fast.play_seed(20 + i, kind is GameKind.FULL) for i in range(games)]
    lengths = [o.battles for o in outcomes]
    assert list(simulation.lengths) == lengths
    assert simulation.a_wins + simulation.b_wins + simulation.draws == games
    assert simulation.draws == sum(o.winner == fast.DRAW for o in outcomes)
    assert simulation.capped == sum(o.capped for o in outcomes)
    assert simulation.median_battles == pytest.approx(float(np.median(lengths)))
    assert simulation.p95_battles == pytest.approx(float(np.percentile(lengths, 95)))
    assert simulation.longest_war_chain == max(o.longest_war_chain for o in outcomes)
    replay = play_deck(Deck.shuffled(simulation.longest_war_seed), kind).result()
    assert replay.longest_war_chain == simulation.longest_war_chain
    data = simulation.to_json()
    assert data["wins"] == {"A": simulation.a_wins, "B": simulation.b_wins}
    assert data["battles"]["total"] == sum(lengths)
    if kind is GameKind.SHORT:
        assert simulation.capped == 0 and data["capped_share"] is None


def test_figures_do_not_depend_on_the_number_of_jobs() -> None:
    games = 2 * CHUNK_GAMES + 10
    one = simulate(games, GameKind.FULL, seed=7, jobs=1)
    two = simulate(games, GameKind.FULL, seed=7, jobs=2)
    assert one == two
    assert list(one.lengths) == list(two.lengths)
    assert one.to_text() == two.to_text()


def test_text_names_every_figure() -> None:
    text = simulate(50, GameKind.FULL, seed=3).to_text()
    for words in ("A wins", "B wins", "draws", "capped", "median", "95th percentile", "chain"):
        assert words in text
    assert "printgen war play --seed" in text


def test_bad_counts_are_refused() -> None:
    with pytest.raises(InputError, match="at least one game"):
        simulate(0, GameKind.FULL, seed=1)
    with pytest.raises(InputError, match="at least one job"):
        simulate(5, GameKind.FULL, seed=1, jobs=0)


# The plot


def test_histogram_bins_are_round_and_hold_every_game() -> None:
    simulation = simulate(300, GameKind.FULL, seed=1)
    counts, edges = histogram(simulation.lengths)
    width = int(edges[1] - edges[0])
    assert counts.sum() == 300 and len(counts) <= MAX_BARS
    assert width in (1, 2, 5, 10, 20, 50) and all(np.diff(edges) == width)
    assert edges[0] % width == 0 and edges[0] <= simulation.lengths.min()
    assert edges[-1] > simulation.lengths.max()


def test_capped_games_stand_alone_in_the_last_bin() -> None:
    lengths = np.array([30, 31, 120, 499, CAP_BATTLES, CAP_BATTLES])
    counts, edges = histogram(lengths)
    assert edges[-2] == CAP_BATTLES and counts[-1] == 2


def test_plot_is_a_png_with_bars_and_the_cap_in_red(tmp_path: Path) -> None:
    simulation = simulate(400, GameKind.FULL, seed=11)
    assert simulation.capped > 0
    image = draw_plot(simulation)
    blue = np.all(image == (170, 110, 40), axis=2).sum()
    red = np.all(image == (60, 60, 200), axis=2).sum()
    assert blue > 1000 and red > 0
    target = tmp_path / "lengths.png"
    write_plot(simulation, target)
    read = cv2.imread(str(target))
    assert read is not None and read.shape == image.shape and np.array_equal(read, image)
    with pytest.raises(InputError, match=r"name the file \.png"):
        write_plot(simulation, tmp_path / "lengths.jpg")
