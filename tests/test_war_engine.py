"""The War engine: cards and decks as text, the deal, battles, wars, both games and the rulings
in docs/rulings.md (## War), each pinned by the test named there."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.errors import InputError, PrintgenError
from printgen.games.war.engine import (
    CAP_BATTLES,
    STANDARD_ORDER,
    BattleRecord,
    Card,
    Deck,
    Ending,
    GameKind,
    IllegalBattle,
    InvalidCard,
    InvalidDeck,
    InvalidPosition,
    Player,
    Rank,
    Suit,
    Turn,
    WarGame,
    play_deck,
)

FULL, SHORT = GameKind.FULL, GameKind.SHORT


def cards(text: str) -> list[Card]:
    return [Card.from_text(token) for token in text.split()]


def texts(pile: Iterable[Card]) -> str:
    return " ".join(card.to_text() for card in pile)


def full_from(a: str, b: str, battles: int = 0) -> WarGame:
    return WarGame.from_piles(FULL, cards(a), cards(b), battles)


def deck_from_piles(a: list[Card], b: list[Card]) -> Deck:
    """The deck whose deal gives these piles (top first): A's cards at odd places."""
    return Deck(tuple(card for pair in zip(a, b, strict=True) for card in pair))


def filler_piles(pairs: int, leave: Sequence[Card] = ()) -> tuple[list[Card], list[Card]]:
    """`pairs` cards each from the cards the test does not `leave` for itself: A's from the
    top of the rank order, B's from the bottom, so every battle is plain and A wins it."""
    pool = [card for card in STANDARD_ORDER if card not in leave]
    high, low = pool[len(pool) - pairs :], pool[:pairs]
    assert all(hi.rank.strength > lo.rank.strength for hi, lo in zip(high, low, strict=True))
    return high, low


# Cards and ranks


def test_rank_table_runs_two_to_ace_weakest_first() -> None:
    assert "".join(rank.value for rank in Rank) == "2345678910JQKA"
    assert [rank.strength for rank in Rank] == list(range(13))
    assert Rank.ACE.strength > Rank.KING.strength > Rank.TWO.strength


@pytest.mark.parametrize("card", STANDARD_ORDER, ids=lambda c: c.to_text())
def test_every_card_round_trips_through_text_and_repr(card: Card) -> None:
    assert Card.from_text(card.to_text()) == card
    assert Card.from_text(card.to_text().lower()) == card
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("value", [*Rank, *Suit], ids=repr)
def test_ranks_and_suits_round_trip_through_text_and_repr(value: Rank | Suit) -> None:
    kind = type(value)
    assert kind.from_text(value.to_text().lower()) is value
    assert eval(repr(value), {"Rank": Rank, "Suit": Suit}) is value


@pytest.mark.parametrize(("kind", "text"), [(Rank, "1"), (Rank, "T"), (Suit, "X"), (Suit, "")])
def test_unknown_rank_or_suit_is_named(kind: type[Rank] | type[Suit], text: str) -> None:
    with pytest.raises(InvalidCard, match=repr(text)):
        kind.from_text(text)


def test_card_text_is_rank_then_suit() -> None:
    assert Card.from_text("10H") == Card(Rank.TEN, Suit.HEARTS)
    assert Card.from_text("as") == Card(Rank.ACE, Suit.SPADES)
    assert Card.from_text(" 2c ") == Card(Rank.TWO, Suit.CLUBS)


@pytest.mark.parametrize("text", ["1H", "11S", "TH", "AX", "H10", "", "10", "Joker", "AS AS"])
def test_text_that_names_no_card_is_an_error_quoting_it(text: str) -> None:
    with pytest.raises(InvalidCard) as error:
        Card.from_text(text)
    assert repr(text) in str(error.value)
    assert isinstance(error.value, InputError)


def test_fifty_two_distinct_cards_in_rank_order() -> None:
    assert len(set(STANDARD_ORDER)) == 52
    strengths = [card.rank.strength for card in STANDARD_ORDER]
    assert strengths == sorted(strengths)
    assert [STANDARD_ORDER.index(c) // 4 for c in STANDARD_ORDER] == strengths


# Decks


def test_deck_round_trips_through_text_and_repr() -> None:
    deck = Deck.shuffled(11)
    assert Deck.from_text(deck.to_text()) == deck
    assert eval(repr(deck), {"Deck": Deck}) == deck
    assert deck.to_text().count("\n") == 4


def test_deck_text_takes_spaces_new_lines_and_any_case() -> None:
    deck = Deck.shuffled(3)
    words = [card.to_text().lower() for card in deck.cards]
    text = "\n\n".join("  ".join(words[i : i + 5]) for i in range(0, 52, 5))
    assert Deck.from_text(text) == deck


def test_unknown_card_names_it_and_where_it_stood() -> None:
    words = Deck.standard().to_text().split()
    words[30] = "ZQ"
    text = " ".join(words[:20]) + "\n" + " ".join(words[20:])
    with pytest.raises(InvalidCard) as error:
        Deck.from_text(text, source="deal.txt")
    message = str(error.value)
    assert "'ZQ'" in message and "deal.txt, line 2, card 31" in message


def test_repeated_card_names_it_and_both_places() -> None:
    words = Deck.standard().to_text().split()
    words[40] = words[2]  # a second 2H, so 10C (card 41) is missing too
    with pytest.raises(InvalidDeck) as error:
        Deck.from_text(" ".join(words), source="deal.txt")
    message = str(error.value)
    assert "2H is repeated" in message and "card 41" in message and "card 3" in message


def test_missing_card_is_named() -> None:
    words = Deck.standard().to_text().split()
    missing = words.pop(17)
    with pytest.raises(InvalidDeck) as error:
        Deck.from_text(" ".join(words))
    assert f"missing {missing}" in str(error.value)
    assert "51 cards" in str(error.value)


def test_fifty_three_cards_is_a_repeat() -> None:
    text = Deck.standard().to_text() + " AS"
    with pytest.raises(InvalidDeck, match="AS is repeated"):
        Deck.from_text(text)


def test_a_deck_built_in_code_is_checked_too() -> None:
    with pytest.raises(InvalidDeck, match="missing AS"):
        Deck(STANDARD_ORDER[:-1])


def test_seeded_shuffle_is_reproducible_and_a_real_shuffle() -> None:
    assert Deck.shuffled(42) == Deck.shuffled(42)
    assert Deck.shuffled(42) != Deck.shuffled(43)
    assert sorted(Deck.shuffled(42).cards, key=STANDARD_ORDER.index) == list(STANDARD_ORDER)


def test_deal_alternates_from_a_and_the_first_card_is_the_top() -> None:
    deck = Deck.shuffled(5)
    pile_a, pile_b = deck.deal()
    assert pile_a[0] == deck.cards[0] and pile_b[0] == deck.cards[1]
    assert pile_a[1] == deck.cards[2] and pile_b[-1] == deck.cards[51]
    assert len(pile_a) == len(pile_b) == 26
    game = WarGame.deal(deck, FULL)
    record = game.battle()
    assert record.turns[0].a == deck.cards[0] and record.turns[0].b == deck.cards[1]


# Battles


def test_the_higher_card_takes_both() -> None:
    game = full_from("KH 2C", "QS 3D")
    record = game.battle()
    assert record.winner is Player.A and record.wars == 0
    assert texts(game.pile_a) == "2C KH QS" and texts(game.pile_b) == "3D"


def test_suits_do_not_matter_equal_ranks_are_a_war() -> None:
    game = full_from("9S 2C 3C 4C AC", "9C 2D 3D 4D 5D")
    record = game.battle()
    assert record.wars == 1 and record.winner is Player.A
    assert record.turns[1].a == Card.from_text("AC")


def test_full_game_returns_winners_cards_then_losers_in_order_laid() -> None:
    # A war: the winner's laid cards go under first, in the order they left the pile, then
    # the loser's, also in order.
    game = full_from("7H 2C 3C 4C KC 9H", "7S 2D 3D 4D QD 9S")
    record = game.battle()
    assert record.winner is Player.A
    assert texts(record.laid_a) == "7H 2C 3C 4C KC"
    assert texts(game.pile_a) == "9H 7H 2C 3C 4C KC 7S 2D 3D 4D QD"


def test_full_game_order_when_the_loser_is_a() -> None:
    game = full_from("3H 8C", "JS 8D")
    game.battle()
    assert texts(game.pile_b) == "8D JS 3H"


def test_a_chain_of_wars_counts_each_war() -> None:
    game = full_from("5H 2C 3C 4C 8H 2H 3H 4H 9H", "5S 2D 3D 4D 8S 2S 3S 4S 6S")
    record = game.battle()
    assert record.wars == 2 and record.winner is Player.A
    assert len(record.laid_a) == len(record.laid_b) == 9
    assert game.result().longest_war_chain == 2 and game.result().wars == 2


def test_war_with_fewer_than_four_cards_lays_all_but_one() -> None:
    # A has 2 cards left after the tie: lays 1 face down and turns the other.
    game = full_from("6H 2C AC", "6S 2D 3D 4D KD 5D")
    record = game.battle()
    war = record.turns[1]
    assert (war.down_a, war.a) == (1, Card.from_text("AC"))
    assert (war.down_b, war.b) == (3, Card.from_text("KD"))
    assert record.winner is Player.A
    assert texts(game.pile_a) == "6H 2C AC 6S 2D 3D 4D KD" and texts(game.pile_b) == "5D"


def test_war_with_one_card_left_turns_it_with_none_face_down() -> None:
    game = full_from("6H 2C", "6S 2D 3D 4D AD 5D")
    record = game.battle()
    assert (record.turns[1].down_a, record.turns[1].a) == (0, Card.from_text("2C"))
    assert record.winner is Player.B


def test_player_with_no_card_to_turn_loses_the_battle() -> None:
    # A's last card ties: A has nothing to turn in the war, so B takes the battle and, holding
    # every card, wins the game.
    game = full_from("6H", "6S 2D 3D")
    record = game.battle()
    assert record.turns[1].a is None and record.winner is Player.B
    assert game.ending is Ending.ALL_CARDS
    assert game.result().winner is Player.B and game.result().cards_b == 4


def test_a_player_who_runs_out_in_a_plain_battle_has_lost() -> None:
    # Losing the last card ends the Full game at once: the other player holds every card.
    game = full_from("2H", "9S 3D")
    game.battle()
    assert game.ending is Ending.ALL_CARDS and not game.can_battle()
    result = game.result()
    assert (result.winner, result.cards_a, result.cards_b) == (Player.B, 0, 3)


def test_neither_can_turn_each_takes_back_their_own_and_the_game_ends() -> None:
    # Both turn their last cards equal after a short war: nobody can turn again.
    game = full_from("5H 9C 2C", "5S 2D")
    record = game.battle()
    assert record.winner is None and record.turns[-1] == Turn(None, None)
    assert game.ending is Ending.TAKEN_BACK
    assert texts(game.pile_a) == "5H 9C 2C" and texts(game.pile_b) == "5S 2D"
    result = game.result()
    assert (result.winner, result.cards_a, result.cards_b) == (Player.A, 3, 2)
    assert not result.capped


def test_taken_back_with_equal_piles_is_a_draw() -> None:
    game = full_from("5H 2C", "5S 2D")
    game.battle()
    assert game.ending is Ending.TAKEN_BACK and game.result().winner is None


def test_unshuffled_deck_is_one_battle_of_wars_then_taken_back() -> None:
    # In the standard order A and B get the same ranks in the same places: the first battle
    # is a war, then six full wars (24 cards each), a war of one card, and nobody can turn.
    for kind in GameKind:
        game = play_deck(Deck.standard(), kind)
        result = game.result()
        assert result.battles == 1 and result.wars == 8 and result.longest_war_chain == 8
        assert result.ending is Ending.TAKEN_BACK and result.winner is None
        expected = 26 if kind is FULL else 0
        assert (result.cards_a, result.cards_b) == (expected, expected)


def test_no_battle_after_the_game_is_over() -> None:
    game = full_from("2H", "9S")
    game.battle()
    assert not game.can_battle()
    with pytest.raises(IllegalBattle, match="over, after battle 1"):
        game.verify_battle()
    with pytest.raises(IllegalBattle):
        game.battle()
    assert isinstance(IllegalBattle("x"), PrintgenError)


def test_result_of_a_game_still_going_is_refused() -> None:
    game = WarGame.deal(Deck.shuffled(1), FULL)
    with pytest.raises(IllegalBattle, match="still going"):
        game.result()


# Short game


def test_short_game_won_cards_are_not_played_again() -> None:
    a, b = filler_piles(26)
    game = WarGame.deal(deck_from_piles(a, b), SHORT)
    result = game.play_out()
    assert result.battles == 26 and result.ending is Ending.PILES_OUT
    assert (result.winner, result.cards_a, result.cards_b) == (Player.A, 52, 0)
    assert not game.pile_a and not game.pile_b


def test_short_game_ends_when_piles_run_out_mid_war() -> None:
    # The last two cards are equal: nobody can turn for the war, each takes back their own,
    # and those two cards are not won by anyone.
    sevens = cards("7H 7S")
    a, b = filler_piles(25, leave=sevens)
    game = WarGame.deal(deck_from_piles([*a, sevens[0]], [*b, sevens[1]]), SHORT)
    result = game.play_out()
    assert result.ending is Ending.TAKEN_BACK and result.battles == 26
    assert (result.cards_a, result.cards_b) == (50, 0)
    assert list(game.pile_a) == [sevens[0]] and list(game.pile_b) == [sevens[1]]


def test_short_game_war_near_the_end_lays_all_but_one() -> None:
    # A tie with three cards left each: two go face down and the third is turned; the war's
    # winner wins all eight cards.
    end_a, end_b = cards("7C 9C 9D KC"), cards("7D 9H 9S 3C")
    a, b = filler_piles(22, leave=end_a + end_b)
    game = WarGame.deal(deck_from_piles(a + end_a, b + end_b), SHORT)
    result = game.play_out()
    war = game.records[-1].turns[1]
    assert (war.down_a, war.a, war.down_b, war.b) == (2, end_a[3], 2, end_b[3])
    assert result.battles == 23 and result.ending is Ending.PILES_OUT
    assert (result.cards_a, result.cards_b) == (52, 0)


def test_equal_is_a_draw_in_the_short_game() -> None:
    # A wins the first 13 battles, B the last 13: 26 won cards each.
    high, low = filler_piles(26)
    deck = deck_from_piles(high[:13] + low[13:], low[:13] + high[13:])
    result = play_deck(deck, SHORT).result()
    assert (result.cards_a, result.cards_b) == (26, 26)
    assert result.winner is None and result.to_json()["winner"] is None


# The cap


def test_the_500th_battle_stops_a_full_game_and_more_cards_wins() -> None:
    game = full_from("KH 2C 3C", "QS 4D", battles=CAP_BATTLES - 1)
    record = game.battle()
    assert record.number == CAP_BATTLES
    assert game.ending is Ending.CAP and not game.can_battle()
    result = game.result()
    assert result.capped and result.to_json()["capped"] is True
    assert (result.winner, result.cards_a, result.cards_b) == (Player.A, 4, 1)


def test_a_capped_game_with_equal_cards_is_a_draw() -> None:
    game = full_from("KH 2C", "QS 4D 5D 6D", battles=CAP_BATTLES - 1)
    game.battle()
    result = game.result()
    assert result.capped and (result.cards_a, result.cards_b) == (3, 3)
    assert result.winner is None


def test_winning_every_card_on_the_500th_battle_is_not_capped() -> None:
    game = full_from("KH 2C", "QS", battles=CAP_BATTLES - 1)
    game.battle()
    assert game.ending is Ending.ALL_CARDS and not game.result().capped


def test_the_short_game_has_no_cap_and_counts_from_zero() -> None:
    result = play_deck(Deck.shuffled(9), SHORT).result()
    assert not result.capped and result.battles <= 26


# Positions


def test_positions_that_no_game_reaches_are_refused() -> None:
    with pytest.raises(InvalidPosition, match="AS more than once"):
        WarGame.from_piles(FULL, cards("AS 2C"), cards("AS"))
    with pytest.raises(InvalidPosition, match="both piles need a card"):
        WarGame.from_piles(FULL, cards("AS"), [])
    with pytest.raises(InvalidPosition, match="always equal"):
        WarGame.from_piles(SHORT, cards("AS 2C"), cards("KS"))
    with pytest.raises(InvalidPosition, match="500 battles"):
        WarGame.from_piles(FULL, cards("AS"), cards("KS"), battles=CAP_BATTLES)


# Records and results


def test_battle_record_text_tells_the_battle() -> None:
    game = full_from("6H 2C AC", "6S 2D 3D 4D KD 5D")
    line = game.battle().to_text()
    assert line == "  1. A 6H v B 6S, war: A 1 down + AC v B 3 down + KD: A takes 8 (A 8, B 1)"
    game = full_from("6H", "6S 2D")
    assert (
        game.battle()
        .to_text()
        .endswith("war: A no card to turn v B 0 down + 2D: B takes 3 (A 0, B 3)")
    )


def test_golden_transcript_of_a_small_full_game() -> None:
    # Worked out by hand from the rules: each winner puts their own card under first.
    game = full_from("KH 3C 9D", "2S 9S 5D")
    result = game.play_out()
    assert [record.to_text() for record in game.records] == [
        "  1. A KH v B 2S: A takes 2 (A 4, B 2)",
        "  2. A 3C v B 9S: B takes 2 (A 3, B 3)",
        "  3. A 9D v B 5D: A takes 2 (A 4, B 2)",
        "  4. A KH v B 9S: A takes 2 (A 5, B 1)",
        "  5. A 2S v B 3C: B takes 2 (A 4, B 2)",
        "  6. A 9D v B 3C: A takes 2 (A 5, B 1)",
        "  7. A 5D v B 2S: A takes 2 (A 6, B 0)",
    ]
    assert result.to_text() == (
        "Full game: A wins, cards held A 6, B 0. 7 battles, 0 wars (longest chain 0). "
        "Ended: one player holds every card."
    )


def test_result_json_has_exactly_the_documented_keys() -> None:
    result = play_deck(Deck.shuffled(2), FULL).result()
    data = result.to_json()
    assert set(data) == {"game", "winner", "battles", "wars", "cards", "capped"}
    assert data["game"] == "full" and set(data["cards"]) == {"A", "B"}
    assert data["winner"] in ("A", "B", None)


# Random legal playouts


@settings(max_examples=60, deadline=None)
@given(st.permutations(STANDARD_ORDER), st.sampled_from(list(GameKind)))
def test_any_deal_keeps_every_card_and_ends_by_the_rules(order: list[Card], kind: GameKind) -> None:
    game = WarGame.deal(Deck(tuple(order)), kind)
    while game.can_battle():
        record = game.battle()
        _check_record(record)
        held = [*game.pile_a, *game.pile_b, *game.won_a, *game.won_b]
        assert sorted(held, key=STANDARD_ORDER.index) == list(STANDARD_ORDER)
        if kind is SHORT:
            assert len(game.pile_a) == len(game.pile_b)
    result = game.result()
    assert result.battles == len(game.records) <= (26 if kind is SHORT else CAP_BATTLES)
    if result.ending is Ending.ALL_CARDS:
        assert {result.cards_a, result.cards_b} == {0, 52}
    if result.ending is Ending.CAP:
        assert result.battles == CAP_BATTLES and 0 < result.cards_a < 52
    if kind is SHORT and result.ending is Ending.PILES_OUT:
        assert result.cards_a + result.cards_b == 52
    order_of = {None: 0, Player.A: 1, Player.B: 2}
    by_cards = (
        0 if result.cards_a == result.cards_b else (1 if result.cards_a > result.cards_b else 2)
    )
    assert order_of[result.winner] == by_cards


def _check_record(record: BattleRecord) -> None:
    # Every turn but the last is a tie; each side laid its face-down cards and its turned ones.
    for turn in record.turns[:-1]:
        assert turn.a is not None and turn.b is not None and turn.a.rank is turn.b.rank
    for player in Player:
        laid = record.laid(player)
        turned = [turn.card(player) for turn in record.turns if turn.card(player) is not None]
        assert len(laid) == sum(turn.down(player) for turn in record.turns) + len(turned)
        assert all(card in laid for card in turned)
