"""aiue battle referee: `printgen score GAME.toml`, its text and JSON, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.cli import cli
from printgen.errors import PrintgenError
from printgen.games.aiue_battle.engine import (
    KANA_BASE,
    LATIN_BOARD,
    Alphabet,
    Battle,
    InvalidWord,
    Word,
)
from printgen.games.aiue_battle.referee import score
from printgen.materials import ScoreOptions
from printgen.paths import ROOT

EXAMPLES = ROOT / "examples" / "aiue-battle"

HEAD = 'game = "aiue-battle"\nalphabet = "latin"\nplayers = ["Ann", "Ben", "Cid"]\n'
WORDS = '[words]\nAnn = "apple"\nBen = "lemon"\nCid = "tea"\n'


def log(tmp_path: Path, attacks: str, head: str = HEAD, words: str = WORDS) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(f"{head}attacks = [{attacks}]\n{words}", encoding="utf-8")
    return path


def test_example_game_text(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["score", str(EXAMPLES / "apple.toml")])
    assert result.exit_code == 0, result.output
    lines = result.output.rstrip("\n").splitlines()
    assert len(lines) == 10  # nine attacks, then the winner
    assert lines[0] == " 1. Ann attacks e: Ann reveals 1 (e), Ben reveals 1 (e), Cid reveals 1 (e)"
    assert lines[1] == " 2. Ann attacks p (second attack): Ann reveals 2 (p p)"
    assert lines[2] == " 3. Ben attacks x: miss, no one has it"
    assert lines[7] == " 8. Ben attacks n: Ben reveals 1 (n); Ben is out"
    assert (
        lines[8] == " 9. Cid attacks a: Cid reveals 1 (a), Ann reveals 1 (a); Cid and Ann are out"
    )
    assert lines[9].startswith("Winner: Cid (the last players went out together")


def test_example_game_json(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["score", "--json", str(EXAMPLES / "apple.toml")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"game", "winner", "out_order", "attacks"}
    assert data["game"] == "aiue-battle" and data["winner"] == "Cid"
    assert data["out_order"] == ["Ben", "Cid", "Ann"]
    assert len(data["attacks"]) == 9
    assert data["attacks"][0] == {
        "attacker": "Ann",
        "letter": "e",
        "revealed": {"Ann": 1, "Ben": 1, "Cid": 1},
        "out": [],
    }
    assert data["attacks"][2] == {"attacker": "Ben", "letter": "x", "revealed": {}, "out": []}
    assert data["attacks"][-1]["out"] == ["Cid", "Ann"]


def test_kana_example(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["score", "--json", str(EXAMPLES / "kana.toml")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["winner"] == "Aya"
    assert [a["letter"] for a in data["attacks"]] == ["は", "ー", "こ", "ひ"]
    assert data["attacks"][1]["revealed"] == {"Ken": 2}
    text = runner.invoke(cli, ["score", str(EXAMPLES / "kana.toml")]).output
    assert "Aya attacks は: Aya reveals 1 (ば)" in text


def test_attacks_written_under_the_words_table_as_in_the_issue(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # In TOML, `attacks` after `[words]` lands inside that table: read it all the same.
    path = tmp_path / "issue.toml"
    path.write_text(HEAD + WORDS + 'attacks = ["e", "p", "x"]\n', encoding="utf-8")
    result = runner.invoke(cli, ["score", "--partial", "--json", str(path)])
    assert result.exit_code == 3, result.output
    assert [a["letter"] for a in json.loads(result.output)["attacks"]] == ["e", "p", "x"]


def test_json_log(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.json"
    path.write_text(
        json.dumps(
            {
                "game": "aiue-battle",
                "alphabet": "latin",
                "players": ["Ann", "Ben"],
                "words": {"Ann": "apple", "Ben": "ox"},
                "attacks": ["o", "x"],
            }
        ),
        encoding="utf-8",
    )
    result = runner.invoke(cli, ["score", "--json", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.output)["winner"] == "Ann"


@pytest.mark.parametrize(
    ("attacks", "message"),
    [
        ('"e", "q", "E"', "attack 3 ('E'): 'e' was already declared at attack 1"),
        ('"e", "7"', "attack 2 ('7'): '7' is not a letter of the latin board"),
        ('"e", "ab"', "attack 2 ('ab')"),
        ('"e", 5', "attack 2 (5)"),
    ],
)
def test_bad_attacks_name_their_position(
    runner, tmp_path: Path, attacks: str, message: str
) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["score", str(log(tmp_path, attacks))])
    assert result.exit_code == 1
    assert message in result.output
    assert result.output.count("game.toml") == 1


def test_attacks_after_the_game_ended(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    words = '[words]\nAnn = "apple"\nBen = "ox"\nCid = "ox"\n'
    path = log(tmp_path, '"o", "x", "a"', words=words)
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1
    assert "attack 3 ('a'): the game is already over; Ann won at attack 2" in result.output


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ('[words]\nAnn = "a"\nBen = "lemon"\nCid = "tea"\n', "Ann's word: 'a' has 1 letters"),
        ('[words]\nAnn = "apple"\nBen = "lemonade"\nCid = "tea"\n', "Ben's word: 'lemonade'"),
        ('[words]\nAnn = "apple"\nBen = "lem0n"\nCid = "tea"\n', "'0' at letter 4"),
        ('[words]\nAnn = "apple"\nBen = "lemon"\n', "player 'Cid' has no word"),
        ('[words]\nAnn = "apple"\nBen = "lemon"\nCid = "tea"\nDan = "ox"\n', "'Dan', not in"),
        ('[words]\nAnn = "apple"\nBen = 3\nCid = "tea"\n', "Ben's word: expected a word"),
    ],
)
def test_bad_words_name_the_player(runner, tmp_path: Path, words: str, message: str) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["score", str(log(tmp_path, '"e"', words=words))])
    assert result.exit_code == 1
    assert message in result.output


@pytest.mark.parametrize(
    ("head", "message"),
    [
        (
            'game = "aiue-battle"\nalphabet = "cyrillic"\nplayers = ["Ann", "Ben", "Cid"]\n',
            "cyrillic",
        ),
        ('game = "aiue-battle"\nplayers = "Ann"\n', "`players` should be a list"),
        ('game = "aiue-battle"\n', "no `players` field"),
        ('game = "aiue-battle"\nplayers = ["Ann", "Ann", "Cid"]\n', "twice"),
        # A key misspelt was passed over: a kana game was played on the latin board.
        (
            'game = "aiue-battle"\nalfabet = "kana"\nplayers = ["Ann", "Ben", "Cid"]\n',
            "unknown key 'alfabet' (did you mean `alphabet`?); a game log holds game, ",
        ),
        (
            'game = "aiue-battle"\ncolour = "red"\nplayers = ["Ann", "Ben", "Cid"]\n',
            "unknown key 'colour'; a game log holds",
        ),
    ],
)
def test_bad_setups(runner, tmp_path: Path, head: str, message: str) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["score", str(log(tmp_path, '"e"', head=head))])
    assert result.exit_code == 1
    assert message in result.output


def test_no_attacks_list(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.toml"
    path.write_text(HEAD + WORDS, encoding="utf-8")
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1 and "no `attacks` list" in result.output


def test_an_unfinished_log_needs_partial(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = log(tmp_path, '"e", "p"')
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1 and "--partial" in result.output
    partial = runner.invoke(cli, ["score", "--partial", str(path)])
    assert partial.exit_code == 3
    assert partial.output.strip().endswith(
        "Not finished: still in Ann, Ben, Cid; next to attack: Ben"
    )
    data = json.loads(runner.invoke(cli, ["score", "--partial", "--json", str(path)]).output)
    assert data["winner"] is None and data["out_order"] == []


def test_summary_when_scoring_a_folder(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for example in EXAMPLES.glob("*.toml"):
        (tmp_path / example.name).write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    result = runner.invoke(cli, ["score", str(tmp_path)])
    assert result.exit_code == 0
    assert "apple.toml: winner Cid after 9 attacks" in result.output
    assert "kana.toml: winner Aya after 4 attacks" in result.output


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="abcdefg", min_size=2, max_size=7), min_size=2, max_size=5),
    st.permutations(LATIN_BOARD),
)
def test_referee_agrees_with_the_engine(words: list[str], order: list[str]) -> None:
    names = [f"P{i}" for i in range(len(words))]
    game = Battle.from_words(Alphabet.LATIN, zip(names, words, strict=True))
    played = []
    for letter in order:
        if game.is_over:
            break
        game.attack(letter)
        played.append(letter.upper() if len(played) % 2 else letter)  # either case is the same
    document = {
        "game": "aiue-battle",
        "players": names,
        "words": dict(zip(names, words, strict=True)),
        "attacks": played,
    }
    report = score(document, "random.toml", ScoreOptions())
    data = report.to_json()
    assert data["winner"] == game.winner and data["out_order"] == list(game.out_order)
    assert [a["letter"] for a in data["attacks"]] == list(game.declared)
    assert len(report.to_text().splitlines()) == len(played) + 1
    # One more attack after the end is an error naming its position.
    with pytest.raises(PrintgenError, match=f"attack {len(played) + 1} .*already over"):
        score({**document, "attacks": [*played, "a"]}, "random.toml", ScoreOptions())


# --- combining marks (issue 17) ------------------------------------------------------------------


MARKS = "\u0301\u0308\u0332\u20dd\u3099\u309a\ufe0f\u200d"


@settings(max_examples=80, deadline=None)
@given(
    alphabet=st.sampled_from(list(Alphabet)),
    text=st.text(alphabet="abcxyzかきくはひーっ" + MARKS, min_size=1, max_size=9),
)
def test_every_card_of_an_accepted_word_has_its_place_on_the_board(
    alphabet: Alphabet, text: str
) -> None:
    """A word with a mark no card can carry (a combining accent, an enclosing circle, a stray
    dakuten) is refused; one that is accepted has only cards the board can reveal."""
    try:
        word = Word.from_text(text, alphabet)
    except InvalidWord:
        return
    board = LATIN_BOARD if alphabet is Alphabet.LATIN else tuple(KANA_BASE)
    assert all(card in board for card in word.cards)
    assert all(base in alphabet.board for base in word.bases)
