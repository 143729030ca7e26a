"""aiue battle rules engine: every rule of the issue, the kana ruling, and random legal playouts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.games.aiue_battle.engine import (
    KANA_BOARD,
    LATIN_BOARD,
    Alphabet,
    Battle,
    IllegalAttack,
    InvalidLetter,
    InvalidSetup,
    InvalidWord,
    Word,
)

LATIN = Alphabet.LATIN
KANA = Alphabet.KANA


def battle(*words: tuple[str, str], alphabet: Alphabet = LATIN) -> Battle:
    return Battle.from_words(alphabet, words)


# --- turns: hits, misses, double attacks ---


def test_the_first_player_starts() -> None:
    game = battle(("Ann", "apple"), ("Ben", "lemon"), ("Cid", "tea"))
    assert game.attacker == "Ann"
    assert not game.second_attack_due


def test_a_miss_passes_the_turn() -> None:
    game = battle(("Ann", "apple"), ("Ben", "lemon"), ("Cid", "tea"))
    record = game.attack("x")
    assert not record.hit and record.revealed == () and record.next_attacker == "Ben"


def test_a_hit_earns_one_more_attack_and_never_a_third() -> None:
    game = battle(("Ann", "apple"), ("Ben", "lemon"), ("Cid", "tea"))
    first = game.attack("m")  # Ben's m
    assert first.hit and not first.second and first.next_attacker == "Ann"
    assert game.second_attack_due
    second = game.attack("t")  # Cid's t: a hit, but the turn is spent
    assert second.hit and second.second and second.next_attacker == "Ben"
    assert not game.second_attack_due


def test_a_miss_on_the_second_attack_passes_the_turn() -> None:
    game = battle(("Ann", "apple"), ("Ben", "lemon"), ("Cid", "tea"))
    game.attack("m")
    record = game.attack("z")
    assert record.second and not record.hit and record.next_attacker == "Ben"


def test_every_player_with_the_letter_reveals_every_card_with_it() -> None:
    game = battle(("Ann", "apple"), ("Ben", "pepper"), ("Cid", "tea"))
    record = game.attack("p")
    assert [(r.player, r.count) for r in record.revealed] == [("Ann", 2), ("Ben", 3)]
    assert game.revealed("Ann") == {1, 2}
    assert game.revealed("Ben") == {0, 2, 3}
    assert game.revealed("Cid") == frozenset()


def test_reveals_are_listed_in_turn_order_from_the_attacker() -> None:
    game = battle(("Ann", "apple"), ("Ben", "lemon"), ("Cid", "tea"))
    game.attack("x")  # Ben to attack
    record = game.attack("e")
    assert [r.player for r in record.revealed] == ["Ben", "Cid", "Ann"]


# --- self-destruct ---


def test_self_destruct_is_a_hit_with_a_second_attack() -> None:
    game = battle(("Ann", "apple"), ("Ben", "lemon"), ("Cid", "tea"))
    record = game.attack("p")  # only Ann has p
    assert record.self_destruct and record.hit
    assert record.revealed[0].player == "Ann" and record.revealed[0].cards == ("p", "p")
    assert record.out == () and record.next_attacker == "Ann" and game.second_attack_due


def test_self_destruct_that_puts_the_attacker_out_gives_no_second_attack() -> None:
    game = battle(("Ann", "aa"), ("Ben", "lemon"), ("Cid", "tea"))
    record = game.attack("a")  # Ann's whole word, and Cid's a
    assert record.out == ("Ann",) and record.winner is None
    assert record.next_attacker == "Ben" and not game.second_attack_due
    assert game.still_in == ("Ben", "Cid")


def test_self_destruct_out_on_the_second_attack_passes_to_the_next_player() -> None:
    game = battle(("Ann", "ab"), ("Ben", "lemon"), ("Cid", "tea"))
    game.attack("b")
    record = game.attack("a")
    assert record.second and record.out == ("Ann",) and record.next_attacker == "Ben"


# --- going out, winning ---


def test_the_last_player_left_wins() -> None:
    game = battle(("Ann", "apple"), ("Ben", "ox"))
    game.attack("o")  # Ann hits Ben's o
    record = game.attack("x")  # second attack: Ben's last letter
    assert record.out == ("Ben",) and record.winner == "Ann" and record.next_attacker is None
    assert game.is_over and game.winner == "Ann" and game.out_order == ("Ben",)


def test_simultaneous_elimination_the_attacker_wins() -> None:
    game = battle(("Ann", "to"), ("Ben", "ot"), ("Cid", "zz"))
    game.attack("z")  # Ann hits Cid's zz: Cid is out
    assert game.out_order == ("Cid",) and game.attacker == "Ann"
    game.attack("t")  # Ann's second: her own t and Ben's; the turn passes
    assert game.attacker == "Ben"
    record = game.attack("o")  # the last letter of both Ben and Ann: both out at once
    assert record.self_destruct and record.out == ("Ben", "Ann")
    assert record.winner == "Ben" and game.winner == "Ben"
    assert game.out_order == ("Cid", "Ben", "Ann")


def test_simultaneous_elimination_of_all_players_at_the_first_attack() -> None:
    game = battle(("Ann", "aa"), ("Ben", "aaa"), ("Cid", "aaaa"))
    game.attack("x")
    record = game.attack("a")  # Ben attacks: everyone goes out together
    assert record.attacker == "Ben" and record.winner == "Ben"
    assert record.out == ("Ben", "Cid", "Ann")


def test_attacker_out_with_another_leaves_the_third_the_winner() -> None:
    game = battle(("Ann", "ab"), ("Ben", "ba"), ("Cid", "cat"))
    game.attack("b")
    record = game.attack("a")  # Ann's second: Ann and Ben out, Cid still has c and t hidden
    assert record.out == ("Ann", "Ben") and record.winner == "Cid"


def test_the_turn_passes_over_players_who_are_out() -> None:
    game = battle(("Ann", "apple"), ("Ben", "ox"), ("Cid", "tea"), ("Dan", "kiwi"))
    game.attack("o")
    game.attack("x")  # Ann's second attack puts Ben out
    assert game.out_order == ("Ben",) and game.attacker == "Cid"
    game.attack("q")  # Cid misses
    game.attack("z")  # Dan misses
    game.attack("j")  # Ann misses: Ben is skipped
    assert game.attacker == "Cid"


def test_the_turn_after_the_attacker_goes_out_is_the_next_one_still_in() -> None:
    game = battle(("Ann", "aa"), ("Ben", "ox"), ("Cid", "tea"), ("Dan", "kiwi"))
    game.attack("o")
    game.attack("x")  # Ann's second attack puts Ben out
    game.attack("q")  # Cid misses
    game.attack("j")  # Dan misses
    record = game.attack("a")  # Ann self-destructs out; Ben, next in the seats, is out too
    assert record.out == ("Ann",) and record.next_attacker == "Cid"
    assert game.still_in == ("Cid", "Dan")


# --- what cannot be declared ---


def test_a_letter_can_be_declared_only_once() -> None:
    game = battle(("Ann", "apple"), ("Ben", "lemon"))
    game.attack("x")
    with pytest.raises(IllegalAttack, match=r"attack 2 \('X'\).*already declared at attack 1"):
        game.attack("X")
    assert not game.can_attack("x") and game.can_attack("y")


def test_letters_outside_the_alphabet_are_refused() -> None:
    game = battle(("Ann", "apple"), ("Ben", "lemon"))
    for bad in ("é", "1", "ab", "", "か"):
        with pytest.raises(InvalidLetter, match=r"attack 1"):
            game.attack(bad)
    assert game.records() == ()


def test_no_attack_after_the_game_ended() -> None:
    game = battle(("Ann", "apple"), ("Ben", "ox"))
    game.attack("o")
    game.attack("x")
    with pytest.raises(IllegalAttack, match=r"attack 3 \('a'\).*already over; Ann won"):
        game.attack("a")


@pytest.mark.parametrize("word", ["a", "abcdefgh", "", "app le", "naïve", "r2d2"])
def test_words_of_the_wrong_length_or_with_other_characters(word: str) -> None:
    with pytest.raises(InvalidWord, match="Ben's word"):
        battle(("Ann", "apple"), ("Ben", word))


def test_player_counts_and_names() -> None:
    with pytest.raises(InvalidSetup, match="1 players"):
        battle(("Ann", "apple"))
    with pytest.raises(InvalidSetup, match="6 players"):
        battle(*[(f"P{i}", "ab") for i in range(6)])
    with pytest.raises(InvalidSetup, match="'Ann' is named twice"):
        battle(("Ann", "apple"), ("Ann", "lemon"))


def test_latin_words_in_either_case() -> None:
    assert Word.from_text("ApPlE", LATIN).cards == tuple("apple")


def test_word_round_trips_through_text_and_repr() -> None:
    for word in (Word.from_text("Lemon", LATIN), Word.from_text("がっこう", KANA)):
        assert Word.from_text(word.to_text(), word.alphabet) == word
        assert eval(repr(word)) == word  # noqa: S307 (the repr is documented to rebuild)
    assert Alphabet.from_text(" Kana ") is KANA and KANA.to_text() == "kana"


# --- kana: what counts as the same letter (docs/rulings.md) ---


def test_kana_board_is_the_gojuon_and_the_long_vowel_mark() -> None:
    assert len(KANA_BOARD) == 47 and KANA_BOARD[-1] == "ー"
    assert "が" not in KANA_BOARD and "っ" not in KANA_BOARD


def test_kana_dakuten_and_handakuten_fall_to_the_plain_letter() -> None:
    game = battle(("Aya", "ばなな"), ("Ken", "ぱはは"), ("Rin", "かさ"), alphabet=KANA)
    record = game.attack("は")
    assert [(r.player, r.cards) for r in record.revealed] == [
        ("Aya", ("ば",)),
        ("Ken", ("ぱ", "は", "は")),
    ]
    assert record.out == ("Ken",)


def test_kana_small_letters_fall_to_the_plain_letter() -> None:
    game = battle(("Aya", "きって"), ("Ken", "しゃつ"), alphabet=KANA)
    record = game.attack("つ")
    assert [(r.player, r.cards) for r in record.revealed] == [("Aya", ("っ",)), ("Ken", ("つ",))]
    record = game.attack("や")
    assert [(r.player, r.cards) for r in record.revealed] == [("Ken", ("ゃ",))]


def test_kana_long_vowel_mark_is_a_letter_of_its_own() -> None:
    game = battle(("Aya", "ケーキ"), ("Ken", "こうひい"), alphabet=KANA)
    assert game.players[0].word.cards == ("け", "ー", "き")  # katakana read as hiragana
    record = game.attack("ー")
    assert [(r.player, r.count) for r in record.revealed] == [("Aya", 1)]
    record = game.attack("う")  # ー is not a vowel: う does not reveal it
    assert [(r.player, r.count) for r in record.revealed] == [("Ken", 1)]


def test_kana_a_marked_letter_is_declared_through_its_plain_letter() -> None:
    game = battle(("Aya", "ばなな"), ("Ken", "ねこ"), alphabet=KANA)
    with pytest.raises(InvalidLetter, match=r"declare 'は', which reveals 'ば' too"):
        game.attack("ば")
    with pytest.raises(InvalidLetter, match=r"declare 'つ'"):
        game.attack("ッ")
    assert game.attack("ハ").letter == "は"  # katakana names the same cell


def test_kana_combining_dakuten_is_the_same_letter() -> None:
    assert Word.from_text("か\u3099き", KANA).cards == ("が", "き")


def test_kana_words_count_cards_not_sounds() -> None:
    # Small kana and ー take a card each: しゃしんき is 5 cards, and 8 cards is too long.
    assert len(Word.from_text("しゃしんき", KANA).cards) == 5
    with pytest.raises(InvalidWord, match="8 letters"):
        Word.from_text("チョコレートケーキ"[:8], KANA)


@pytest.mark.parametrize("word", ["ゐど", "かa", "漢字", "ヷヷ"])
def test_kana_words_with_other_characters(word: str) -> None:
    with pytest.raises(InvalidWord, match="not a letter of the kana alphabet"):
        Word.from_text(word, KANA)


def test_latin_letters_are_not_kana_and_back() -> None:
    with pytest.raises(InvalidWord):
        Word.from_text("ねこ", LATIN)
    with pytest.raises(InvalidLetter):
        battle(("Aya", "ねこ"), ("Ken", "いぬ"), alphabet=KANA).attack("a")


# --- random legal playouts ---

KANA_WRITTEN = sorted(
    set(KANA_BOARD) | set("がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽぁぃぅぇぉっゃゅょゎ")
)


@st.composite
def games(draw: st.DrawFn) -> tuple[Alphabet, list[tuple[str, str]], list[str]]:
    alphabet = draw(st.sampled_from(Alphabet))
    # A narrow pool of letters makes shared letters, self-destructs and ties common.
    pool = draw(
        st.lists(
            st.sampled_from(LATIN_BOARD if alphabet is LATIN else KANA_WRITTEN),
            min_size=2,
            max_size=8,
            unique=True,
        )
    )
    count = draw(st.integers(2, 5))
    words = [
        (f"P{i}", "".join(draw(st.lists(st.sampled_from(pool), min_size=2, max_size=7))))
        for i in range(count)
    ]
    order = draw(st.permutations(alphabet.board))
    return alphabet, words, list(order)


@settings(max_examples=150, deadline=None)
@given(games())
def test_random_legal_playouts_keep_every_rule(
    case: tuple[Alphabet, list[tuple[str, str]], list[str]],
) -> None:
    alphabet, words, order = case
    game = Battle.from_words(alphabet, words)
    seats = [p.name for p in game.players]
    previous = None
    for letter in order:
        if game.is_over:
            break
        attacker, still_in = game.attacker, game.still_in
        assert attacker in still_in
        second_due = game.second_attack_due
        record = game.attack(letter)
        assert record.attacker == attacker and record.second == second_due

        # Every player still in with the letter reveals every such card; nobody else.
        expected = {
            p.name: len(p.word.positions_of(letter))
            for p in game.players
            if p.name in still_in and p.word.positions_of(letter)
        }
        assert {r.player: r.count for r in record.revealed} == expected
        assert record.hit == bool(expected)
        assert set(record.out) <= set(expected)
        for player in game.players:
            fully_shown = len(game.revealed(player.name)) == len(player.word.cards)
            assert fully_shown == (player.name in game.out_order)

        # Who attacks next.
        left = [n for n in seats if n not in game.out_order]
        if len(left) <= 1:
            assert game.is_over and record.next_attacker is None
            assert record.winner == (left[0] if left else attacker)
        elif record.hit and not record.second and attacker not in record.out:
            assert record.next_attacker == attacker and game.second_attack_due
        else:
            i = seats.index(attacker)
            following = [seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1)]
            assert record.next_attacker == next(n for n in following if n in left)
        if previous is not None and previous.attacker == attacker and record.second:
            assert previous.hit and not previous.second
        previous = record

    # Every letter card falls once its letter is called, so the game always ends.
    assert game.is_over and game.winner in seats
    assert len(game.records()) == len(game.declared) == len(set(game.declared))
    everyone_out = len(game.out_order) == len(seats)
    assert everyone_out == (game.winner in game.out_order)
    if everyone_out:
        assert game.records()[-1].attacker == game.winner
