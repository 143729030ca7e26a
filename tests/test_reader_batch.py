"""Many photos at once: a team pack's sheets photographed and scored together agree with the
typed-in team referee; missing and duplicated sheet ids are named; a print run's summary as
text, JSON and CSV; a bad photo never stops the batch; player names."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games.one_page_war.reader.batch import (
    PhotoResult,
    PrintRun,
    Seating,
    player_names,
    read_photos,
    team_result,
)
from printgen.games.one_page_war.reader.errors import (
    PlayerNamesError,
    SeatingError,
    TeamSheetsError,
)
from printgen.games.one_page_war.referee import score
from printgen.materials import PhotoOptions, ScoreOptions
from printgen.render.units import Paper

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_corpus  # noqa: E402

SMALL = (1600, 1200)


def _shot(seed: int) -> photo_corpus.Shot:
    return photo_corpus.Shot(
        size=SMALL, tilt_deg=12, rotation_deg=4, blur=0.4, noise=2, jpeg_quality=90, seed=seed
    )


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, dict, str]]:
    """A team pack of two sheets, each filled with a legal game and photographed: (photo,
    truth, sheet id)."""
    folder = tmp_path_factory.mktemp("pack")
    sheets = []
    for k in (1, 2):
        blank = photo_corpus.blank_sheet(Paper.A4, "team", sheet=k)
        truth = photo_corpus.random_game(np.random.default_rng(60 + k), "team")
        image = photo_corpus.photograph(photo_corpus.fill_sheet(blank, truth, 60 + k), _shot(k))
        path = folder / f"sheet-{k}.jpg"
        photo_corpus.save_photo(image, path, _shot(k))
        sheets.append((path, truth, blank.tag.sheet_id))
    return sheets


def _typed_in(pack: list[tuple[Path, dict, str]], seats: list[tuple[str, str]]) -> dict:
    """The same team game typed in from what was written (the truth)."""
    from printgen.games.one_page_war.layout import load_layout

    sheets = []
    for (_, truth, _), (near, far) in zip(pack, seats, strict=True):
        arenas = {}
        for a in load_layout("standard").arenas:
            table = {}
            for side, player in (("first", near), ("second", far)):
                values = [truth[("square", a.name, side, i)] for i in range(a.squares)]
                table[player] = [int(v) if v.isdigit() else v for v in values]
            if truth[("allies", a.name, None, 0)] == "S":
                table["allies"] = True
            arenas[a.name] = table
        sheets.append({"players": [near, far], "arenas": arenas})
    return {
        "game": "one-page-war",
        "mode": "team",
        "teams": {"Team 1": ["Ann", "Cid"], "Team 2": ["Ben", "Dee"]},
        "sheets": sheets,
    }


def test_a_team_pack_from_photos_agrees_with_the_typed_in_referee(
    pack: list[tuple[Path, dict, str]], runner: CliRunner
) -> None:
    photos = [str(p) for p, _, _ in reversed(pack)]  # in any order: the sheet ids decide
    result = runner.invoke(cli, ["score", "--json", "--teams", "Ann,Cid vs Ben,Dee", *photos])
    data = json.loads(result.stdout)
    assert [s["sheet_id"] for s in data["sheets"]] == [sheet_id for _, _, sheet_id in pack]
    assert [s["players"] for s in data["sheets"]] == [["Ann", "Ben"], ["Cid", "Dee"]]
    typed = score(_typed_in(pack, [("Ann", "Ben"), ("Cid", "Dee")]), "typed", ScoreOptions())
    # Every square read is what was written, or flagged for a person to check.
    for sheet, (_, truth, _) in zip(data["team_game"]["sheets"], pack, strict=True):
        unsure = {
            (c["arena"], c["player"], c["index"])
            for s in data["sheets"]
            if s["players"] == sheet["players"]
            for c in s["unsure"]
        }
        for arena, table in sheet["arenas"].items():
            for side, player in zip(("first", "second"), sheet["players"], strict=True):
                for i, value in enumerate(table[player]):
                    expected = truth[("square", arena, side, i)]
                    assert str(value) == expected or (arena, player, i) in unsure
    if data["provisional"]:
        assert result.exit_code == 3
    else:
        assert result.exit_code == 0
        assert data["score"] == typed.to_json()
    # A person checks the unsure cells (here: from what was written) and scores the team game
    # as read: the team referee's result is the typed-in one.
    checked = json.loads(json.dumps(data["team_game"]))
    for sheet, (_, truth, _) in zip(checked["sheets"], pack, strict=True):
        for arena, table in sheet["arenas"].items():
            for side, player in zip(("first", "second"), sheet["players"], strict=True):
                values = [truth[("square", arena, side, i)] for i in range(len(table[player]))]
                table[player] = [int(v) if v.isdigit() else v for v in values]
            allies = truth[("allies", arena, None, 0)] == "S"
            table.pop("allies", None)
            if allies:
                table["allies"] = True
    assert score(checked, "checked", ScoreOptions()).to_json() == typed.to_json()
    text = runner.invoke(cli, ["score", "--teams", "Ann,Cid vs Ben,Dee", *photos]).stdout
    assert "Sheet 1" in text and "Sheet 2" in text and "Team result:" in text


def test_a_team_file_seats_the_pairs_by_sheet_id(
    pack: list[tuple[Path, dict, str]], tmp_path: Path
) -> None:
    (first, _, id1), (second, _, id2) = pack
    team = tmp_path / "team.toml"
    team.write_text(
        'teams = { North = ["Ann", "Cid"], South = ["Ben", "Dee"] }\n'
        f'[sheets]\n"{id1}" = ["Dee", "Cid"]\n"{id2}" = ["Ben", "Ann"]\n'
    )
    seating = Seating.from_mapping(tomllib.loads(team.read_text()), str(team))
    results = read_photos([first, second], PhotoOptions(), workers=1)
    result = team_result(results, seating)
    assert [s.players for s in result.sheets] == [("Dee", "Cid"), ("Ben", "Ann")]
    assert set(result.mapping["teams"]) == {"North", "South"}


def test_a_missing_sheet_is_named(pack: list[tuple[Path, dict, str]], runner: CliRunner) -> None:
    result = runner.invoke(cli, ["score", "--teams", "Ann,Cid vs Ben,Dee", str(pack[0][0])])
    assert result.exit_code == 1
    assert f"no photo of sheet {pack[1][2]}" in result.stderr


def test_a_sheet_photographed_twice_is_named(
    pack: list[tuple[Path, dict, str]], tmp_path: Path, runner: CliRunner
) -> None:
    again = tmp_path / "again.jpg"
    shutil.copy(pack[0][0], again)
    photos = [str(pack[0][0]), str(pack[1][0]), str(again)]
    result = runner.invoke(cli, ["score", "--teams", "Ann,Cid vs Ben,Dee", *photos])
    assert result.exit_code == 1
    assert f"sheet {pack[0][2]} is photographed twice" in result.stderr
    assert str(again) in result.stderr


def test_a_print_run_summary(
    pack: list[tuple[Path, dict, str]], tmp_path: Path, runner: CliRunner
) -> None:
    """Every sheet one row; the same sheet twice is a duplicate counted once; a photo that is
    no photo is listed with its reason, and the batch goes on (exit 1 says one was refused)."""
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(pack[0][0], folder / "a.jpg")
    shutil.copy(pack[1][0], folder / "b.jpg")
    shutil.copy(pack[0][0], folder / "c-retake.jpg")
    (folder / "d-notes.png").write_text("not a photo")
    result = runner.invoke(cli, ["score", str(folder)])
    assert result.exit_code == 1, result.output
    assert "Reading photos" in result.stderr
    assert "refused:" in result.stderr and "d-notes.png" in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["Photo", "Sheet"]
    assert sum(pack[0][2] in line for line in lines[1:5]) == 2
    assert "duplicate" in result.stdout and "counted once" in result.stdout
    assert "2 sheet(s) read" in result.stdout and "1 photo(s) refused" in result.stdout
    data = json.loads(runner.invoke(cli, ["score", "--json", str(folder)]).stdout)
    assert [row["status"] for row in data["sheets"]][2:] == ["duplicate", "refused"]
    assert data["counts"]["duplicate"] == 1 and data["counts"]["refused"] == 1
    rows = list(
        csv.DictReader(io.StringIO(runner.invoke(cli, ["score", "--csv", str(folder)]).stdout))
    )
    assert [r["file"] for r in rows] == [
        str(folder / n) for n in ("a.jpg", "b.jpg", "c-retake.jpg", "d-notes.png")
    ]
    assert rows[0]["sheet_id"] == pack[0][2] and rows[3]["status"] == "refused"


def test_a_duplicate_read_differently_is_provisional() -> None:
    from dataclasses import replace

    from printgen.games.one_page_war.reader import read_photo

    # Two reports of one sheet that disagree: the run says so and stays provisional.
    report = read_photo(_first_photo(), PhotoOptions(partial=True))
    changed = replace(report, mapping={**report.mapping, "arenas": {}})
    run = PrintRun((PhotoResult(Path("a.jpg"), report), PhotoResult(Path("b.jpg"), changed)))
    assert run.rows[1].status == "duplicate" and "READ DIFFERENTLY" in run.rows[1].note
    assert run.exit_code in (3, 1) and run.exit_code != 0


_FIRST: list[Path] = []


def _first_photo() -> Path:
    if not _FIRST:
        import tempfile

        path = Path(tempfile.mkdtemp()) / "one.jpg"
        photo_corpus.make_photo(path, 61, SMALL, mode="duel", shot=_shot(3))
        _FIRST.append(path)
    return _FIRST[0]


def test_players_names_go_into_the_sheet(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["score", "--json", "--partial", "--players", "Ann, Ben", str(_first_photo())]
    )
    data = json.loads(result.stdout)
    assert data["sheet"]["players"] == ["Ann", "Ben"]
    assert set(next(iter(data["sheet"]["arenas"].values()))) >= {"Ann", "Ben"}
    text = runner.invoke(
        cli, ["score", "--partial", "--players", 'Ann "A",Bo Lee', str(_first_photo())]
    )
    toml = text.stdout[text.stdout.index('game = "one-page-war"') :].split("\n\n\n")[0]
    parsed = tomllib.loads(toml.split("\nOne Page War")[0])
    assert parsed["players"] == ['Ann "A"', "Bo Lee"]
    bad = runner.invoke(cli, ["score", "--players", "Ann", str(_first_photo())])
    assert bad.exit_code == 1 and "a duel sheet has two" in bad.stderr


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Ann,Ann", "named twice"),
        ("Ann,,Ben", "an empty name"),
        ("Ann,Ben,Cid", "names 3 players"),
        ("Ann,\x1b[31mBen", "control character"),
        ("Ann,allies", "cannot be called"),
    ],
)
def test_bad_player_names(text: str, said: str) -> None:
    with pytest.raises(PlayerNamesError, match=said):
        player_names(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Ann,Cid", "should name two teams"),
        ("Ann,Cid vs Ben", "every player faces one opponent"),
        ("Ann,Cid vs Ben,Ann", "cannot play on both teams"),
        ("Ann vs Ben", "2 to 6 players"),
    ],
)
def test_bad_teams(text: str, said: str) -> None:
    with pytest.raises(SeatingError, match=said):
        Seating.from_text(text)


def test_a_team_named_like_a_player_is_refused() -> None:
    document = {"teams": {"Ann": ["Ann", "Cid"], "South": ["Ben", "Dee"]}}
    with pytest.raises(SeatingError, match="has a player's name"):
        Seating.from_mapping(document, "team.toml")


def test_a_typed_in_team_game_is_not_a_seating_file() -> None:
    document = {"teams": {"North": ["Ann", "Cid"], "South": ["Ben", "Dee"]}, "sheets": [{}]}
    with pytest.raises(SeatingError, match=r"\[\[sheets\]\]"):
        Seating.from_mapping(document, "team.toml")


def test_sheets_of_two_packs_are_refused(pack: list[tuple[Path, dict, str]]) -> None:
    results = read_photos([pack[0][0]], PhotoOptions(), workers=1)
    report = results[0].report
    assert report is not None
    base, _, _ = report.tag.sheet_id.rpartition("-")  # type: ignore[union-attr]
    other = PhotoResult(Path("other.jpg"), replace_id(report, f"{base}-0003"))
    with pytest.raises(TeamSheetsError, match="2 team packs"):
        team_result((results[0], other), Seating.from_text("Ann,Cid vs Ben,Dee"))


def replace_id(report: object, sheet_id: str) -> object:
    from dataclasses import replace

    return replace(report, tag=replace(report.tag, sheet_id=sheet_id))  # type: ignore[arg-type,attr-defined]


def test_photos_are_read_on_every_core_in_order(pack: list[tuple[Path, dict, str]]) -> None:
    paths = [pack[1][0], pack[0][0]]
    seen: list[int] = []
    results = read_photos(paths, PhotoOptions(), lambda done, total, _: seen.append(done), 2)
    assert [r.path for r in results] == paths and seen == [1, 2]
    assert [r.report.tag.sheet_id for r in results if r.report] == [pack[1][2], pack[0][2]]
