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
from typing import Any

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from printgen.cli import cli
from printgen.errors import PrintgenError
from printgen.games.one_page_war.reader import read_photo
from printgen.games.one_page_war.reader.batch import (
    PhotoResult,
    PrintRun,
    Seating,
    SheetRead,
    pack_size,
    player_names,
    read_photos,
    team_from_sheets,
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
from photo_corpus import SMALL  # noqa: E402


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
    _read_as_written(data, pack)
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


def _read_as_written(data: dict[str, Any], pack: list[tuple[Path, dict, str]]) -> None:
    """Every square of the team game read (`printgen score --json --teams`) is what was written,
    or flagged for a person to check."""
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


def _back_of_a_sheet(showing: float = 0.12) -> Image.Image:
    """A sheet's blank back as a scanner sees it: paper, the front's print showing through
    mirrored at `showing` of its contrast, a few specks, and the scanner's shadow along an
    edge."""
    front = photo_corpus.blank_sheet(Paper.A4, "team").image[:, ::-1].mean(axis=2)
    back = 240 - (255 - front) * showing + np.random.default_rng(3).normal(0, 2, front.shape)
    back[500:503, 900:903] = 40
    back[:, :12] = 60
    return Image.fromarray(np.clip(back, 0, 255).astype(np.uint8)).resize((1240, 1754))


@pytest.mark.parametrize(("showing", "blank"), [(0.0, True), (0.12, True), (0.3, False)])
def test_a_blank_back_is_told_by_how_dark_what_shows_through_it_is(
    showing: float, blank: bool
) -> None:
    """Print showing through faintly is a blank page; more than about a fifth of its contrast
    is looked at as a photo (test_a_scan_whose_every_page_is_blank_is_refused): a sheet passed
    over is lost."""
    from printgen.games.one_page_war.reader.reading import _blank

    back = np.asarray(_back_of_a_sheet(showing).resize((1273, 1800)))
    assert _blank(back) is blank
    front = photo_corpus.blank_sheet(Paper.A4, "team").image.mean(axis=2)
    for toner in (1.0, 0.35):  # a printer short of toner: its black a third as dark
        printed = (255 - (255 - front) * toner).astype(np.uint8)
        assert not _blank(cv2.resize(printed, (1273, 1800), interpolation=cv2.INTER_AREA))


@pytest.mark.parametrize("suffix", [".pdf", ".tif"])
def test_a_team_pack_scanned_into_one_file_is_read_page_by_page(
    pack: list[tuple[Path, dict, str]], tmp_path: Path, runner: CliRunner, suffix: str
) -> None:
    """A scanning app or a flatbed saves every page scanned in one go in one PDF or TIFF; a
    blank back (scanned on both sides) is passed over, not refused."""
    first, second = (Image.open(p).convert("RGB") for p, _, _ in pack)
    scan = tmp_path / f"pack{suffix}"
    first.save(scan, save_all=True, append_images=[_back_of_a_sheet(), second], resolution=150)
    result = runner.invoke(cli, ["score", "--json", "--teams", "Ann,Cid vs Ben,Dee", str(scan)])
    data = json.loads(result.stdout)
    assert [s["sheet_id"] for s in data["sheets"]] == [sheet_id for _, _, sheet_id in pack]
    assert [s["file"] for s in data["sheets"]] == [f"{scan} (page 1)", f"{scan} (page 3)"]
    _read_as_written(data, pack)
    assert result.exit_code == (3 if data["provisional"] else 0)
    assert f"passed over: {scan} (page 2): a blank page" in result.stderr
    refused = runner.invoke(cli, ["score", "--annotate", str(tmp_path / "a.png"), str(scan)])
    assert refused.exit_code == 2  # a usage error
    assert f"--annotate draws one photo, but {scan} holds 3 pages" in refused.stderr


def test_a_page_of_a_scan_that_holds_no_sheet_is_refused_by_its_page(
    pack: list[tuple[Path, dict, str]], tmp_path: Path, runner: CliRunner
) -> None:
    from pypdf import PdfReader, PdfWriter
    from reportlab.pdfgen.canvas import Canvas

    scan = tmp_path / "night.pdf"
    Image.open(pack[0][0]).save(scan, save_all=True, append_images=[
        # Something else scanned by mistake: a page of the rulebook's art, say.
        Image.fromarray(np.random.default_rng(5).integers(0, 255, (1754, 1240), np.uint8)),
        _back_of_a_sheet(),
    ], resolution=150)  # fmt: skip
    notes = Canvas(str(tmp_path / "notes.pdf"))  # a page of typed notes: no picture on it
    notes.drawString(100, 700, "Table 4")
    notes.save()
    both = PdfWriter()
    for part in (scan, tmp_path / "notes.pdf"):
        for page in PdfReader(part).pages:
            both.add_page(page)
    both.write(scan)
    result = runner.invoke(cli, ["score", str(scan)])
    assert result.exit_code == 1
    refused = [line for line in result.stderr.splitlines() if line.startswith("refused: ")]
    assert refused == [
        f"refused: {scan} (page 2): no One Page War sheet found (none of its four corner "
        "markers and no QR code); retake the photo with the whole sheet flat in view, filling "
        "most of the picture, or type the sheet in",
        f"refused: {scan} (page 4): no scanned picture on this page (a page of text, or the "
        "printed sheet's own PDF?); scan the filled-in sheet",
    ]
    assert f"passed over: {scan} (page 3): a blank page" in result.stderr
    assert f"{scan} (page 1)  {pack[0][2]}" in result.stdout
    assert "2 photo(s) refused; 0 duplicate(s) not counted; 1 blank page(s) passed over" in (
        result.stdout
    )
    data = json.loads(runner.invoke(cli, ["score", "--json", str(scan)]).stdout)
    assert [row["status"] for row in data["sheets"]][1:] == ["refused", "blank", "refused"]
    assert data["counts"]["blank"] == 1


def test_a_scan_whose_every_page_is_blank_is_refused(tmp_path: Path, runner: CliRunner) -> None:
    # The second back shows its front's print too darkly to be blank at a glance: found as a
    # sheet, mirrored (no scanner mirrors a page) and with nothing written in it, it is a blank
    # back too, not "unfinished game, 38 empty squares".
    scan = tmp_path / "backs.pdf"
    _back_of_a_sheet().save(scan, save_all=True, append_images=[_back_of_a_sheet(0.45)])
    result = runner.invoke(cli, ["score", str(scan)])
    assert result.exit_code == 1
    assert f"passed over: {scan} (page 1): a blank page (the back of a sheet?)" in result.stderr
    said = f"passed over: {scan} (page 2): a blank page (the back of a sheet, its front showing"
    assert said in result.stderr
    assert "error: every page is blank: no sheet to read" in result.stderr


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
    said = f"These are sheets of team pack {pack[0][2][:-5]}: score them as one team game"
    assert said in result.stdout
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


def test_two_games_on_copies_of_one_sheet_are_named_as_such(tmp_path: Path) -> None:
    """Players who photocopied one printed sheet play two games under one sheet id: the run
    counts the first, and says that the second looks like another game and what to do."""
    options = PhotoOptions(partial=True)
    photos = [
        photo_corpus.make_photo(
            tmp_path / f"{seed}.jpg", seed, SMALL, mode="duel", paper=Paper.A4, shot=_shot(seed)
        )
        for seed in (61, 62)
    ]
    reports = [read_photo(p.path, options) for p in photos]
    assert reports[0].tag.sheet_id == reports[1].tag.sheet_id  # one print, copied
    run = PrintRun(tuple(PhotoResult(p.path, r) for p, r in zip(photos, reports, strict=True)))
    assert run.rows[1].status == "duplicate"
    assert "copies of one printed sheet" in run.rows[1].note
    assert "--copies" in run.rows[1].note
    assert run.exit_code != 0


def test_a_retake_whose_sheet_id_was_not_read_is_counted_once(tmp_path: Path) -> None:
    """The same sheet photographed again with a finger over its QR code: known by its cells,
    it is a duplicate, not a second game; another game whose id was not read still counts."""
    options = PhotoOptions(partial=True)
    first = read_photo(_first_photo(), options)
    retake = photo_corpus.make_photo(
        tmp_path / "retake.jpg", 61, SMALL, mode="duel", shot=_shot(5), edit=photo_corpus.cover_qr()
    )
    other = photo_corpus.make_photo(
        tmp_path / "other.jpg", 62, SMALL, mode="duel", shot=_shot(6), edit=photo_corpus.cover_qr()
    )
    again, another = read_photo(retake.path, options), read_photo(other.path, options)
    assert again.tag.sheet_id is None and another.tag.sheet_id is None
    run = PrintRun(
        (
            PhotoResult(_first_photo(), first),
            PhotoResult(retake.path, again),
            PhotoResult(other.path, another),
        )
    )
    assert [row.status for row in run.rows][1] == "duplicate"
    assert "retake" in run.rows[1].note and str(_first_photo()) in run.rows[1].note
    assert run.rows[2].status != "duplicate"
    assert run.counts()["duplicate"] == 1
    # The other way round: the retake first, its id unread; the photo with its id is the retake.
    swapped = PrintRun((PhotoResult(retake.path, again), PhotoResult(_first_photo(), first)))
    assert [row.status for row in swapped.rows][1] == "duplicate"


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


# --- the one team combination, for sheets as read or as corrected (CLI and web) ------------

TEAM_EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "one-page-war" / "team.toml"


def _example_team() -> dict:
    return tomllib.loads(TEAM_EXAMPLE.read_text("utf-8"))


def _as_read(k: int, sheet_id: str | None, players: tuple[str, str] = ("First", "Second"),
             to_confirm: int = 0, source: str | None = None) -> SheetRead:  # fmt: skip
    """Sheet k of the example team game as a photo of it reads: sides named `players`."""
    sheet = _example_team()["sheets"][k - 1]
    renamed = dict(zip(sheet["players"], players, strict=True))
    arenas = {
        name: {renamed.get(key, key): value for key, value in table.items()}
        for name, table in sheet["arenas"].items()
    }
    mapping = {"game": "one-page-war", "layout": "standard", "mode": "duel",
               "players": list(players), "arenas": arenas}  # fmt: skip
    return SheetRead(source or f"sheet-{k}.jpg", sheet_id, mapping, to_confirm)


def _pack_id(pairs: int, k: int, paper: Paper = Paper.A4, batch: str = "") -> str:
    """The id printgen prints on sheet k of the first pack of a team pack of `pairs`."""
    from printgen.games.one_page_war.layout import load_layout
    from printgen.games.one_page_war.sheets import SheetSpec, team_pages

    pages = team_pages(load_layout("standard"), paper, pairs, batch=batch)
    return [p.sheet_id for p in pages if isinstance(p, SheetSpec)][k - 1]


def test_sheets_as_read_combine_as_the_typed_in_team_game_does() -> None:
    """The sheets in any order; the seating renames each side as read to who sat there."""
    ids = [_pack_id(2, 1), _pack_id(2, 2)]
    seating = Seating.from_mapping({"teams": _example_team()["teams"]}, "team.toml")
    result = team_from_sheets([_as_read(2, ids[1]), _as_read(1, ids[0])], seating)
    typed = score(_example_team(), "typed", ScoreOptions())
    assert result.score is not None and result.score.to_json() == typed.to_json()
    assert [(s.sheet_id, s.players) for s in result.sheets] == [
        (ids[0], ("Ann", "Ben")),
        (ids[1], ("Cid", "Dee")),
    ]
    assert result.exit_code == 0 and result.mapping["teams"] == {
        "North": ["Ann", "Cid"],
        "South": ["Ben", "Dee"],
    }


def test_without_a_seating_the_pack_seats_near_sides_as_team_1_by_their_sheets_names() -> None:
    ids = [_pack_id(2, 1), _pack_id(2, 2)]
    placeholders = team_from_sheets([_as_read(1, ids[0]), _as_read(2, ids[1])], None)
    assert placeholders.mapping["teams"] == {
        "Team 1": ["First 1", "First 2"],
        "Team 2": ["Second 1", "Second 2"],
    }
    assert placeholders.score is not None and placeholders.score.summary() == (
        "team Team 2 wins: arenas Team 1 4, Team 2 5"
    )
    # Names a person gave are kept; one given on two sheets is told apart by its sheet.
    named = team_from_sheets(
        [_as_read(1, ids[0], ("Ann", "Ben")), _as_read(2, ids[1], ("Ann", "Dee"))], None
    )
    assert [s.players for s in named.sheets] == [("Ann 1", "Ben"), ("Ann 2", "Dee")]
    assert named.mapping["sheets"][1]["arenas"]["Land"] == {
        "Ann 2": [1, 1, 4, 5],
        "Dee": [6, 6, 2, 2],
    }


def test_a_corrected_sheet_counts_and_cells_to_confirm_keep_it_provisional() -> None:
    ids = [_pack_id(2, 1), _pack_id(2, 2)]
    first = _as_read(1, ids[0], to_confirm=2)
    result = team_from_sheets([first, _as_read(2, ids[1])], None, partial=True)
    assert result.to_confirm == 2 and result.exit_code == 3
    assert result.to_json()["provisional"] is True
    assert "Sheet " + ids[0] in result.to_text() and "2 cell(s) to confirm" in result.to_text()
    # Land as read on sheet 1: the far side's 2 2 2 6. Corrected to 2 2 3 6, Ann's pair of 3s
    # wins Land, and with it the team game.
    corrected = dict(first.sheet)
    corrected["arenas"] = {**first.sheet["arenas"], "Land": {"First": [3, 3, 5, 4],
                                                            "Second": [2, 2, 3, 6]}}  # fmt: skip
    fixed = team_from_sheets(
        [SheetRead(first.source, ids[0], corrected, 0), _as_read(2, ids[1])], None
    )
    assert fixed.exit_code == 0 and fixed.score is not None
    assert fixed.score.summary() == "team Team 1 wins: arenas Team 1 5, Team 2 4"


def test_a_cell_still_another_mark_is_the_reason_while_unsure_and_an_error_once_confirmed() -> None:
    ids = [_pack_id(2, 1), _pack_id(2, 2)]
    first = _as_read(1, ids[0], to_confirm=1)
    first.sheet["arenas"]["Air"]["First"][1] = "?"
    unsure = team_from_sheets([first, _as_read(2, ids[1])], None)
    assert unsure.score is None and "sheet 1, arena Air" in (unsure.score_problem or "")
    confirmed = SheetRead(first.source, ids[0], first.sheet, 0)
    with pytest.raises(PrintgenError, match="sheet 1, arena Air, First 1's square 2"):
        team_from_sheets([confirmed, _as_read(2, ids[1])], None)


@pytest.mark.parametrize(
    ("reads", "said"),
    [
        (lambda i: [_as_read(1, i(2, 1)), _as_read(2, i(2, 1), source="again.jpg")],
         r"sheet T-\w{4}-0001 is photographed twice \(sheet-1.jpg and again.jpg\)"),
        (lambda i: [_as_read(1, i(2, 1)), _as_read(2, None)],
         r"sheet-2.jpg: its QR code could not be read"),
        # A pack of three, as its ids say: the third sheet is named though no one said how
        # many played.
        (lambda i: [_as_read(1, i(3, 1)), _as_read(2, i(3, 2))],
         r"no photo of sheet T-\w{4}-0003 \(a team of 3 plays 3 sheets"),
        (lambda i: [_as_read(1, i(2, 1)), _as_read(2, i(3, 2))],
         r"sheet T-\w{4}-0002 \(sheet-2.jpg\) is one of a pack of 3 sheets"),
        (lambda i: [_as_read(1, i(2, 1)), _as_read(2, "D-1234-0002")],
         r"D-1234-0002 is no team pack sheet"),
    ],
    ids=["twice", "unread", "missing", "another-size", "not-a-team-sheet"],
)  # fmt: skip
def test_sheets_that_are_not_one_pack_are_named(reads: Any, said: str) -> None:
    with pytest.raises(TeamSheetsError, match=said):
        team_from_sheets(reads(_pack_id), None)


def test_a_refused_photo_is_named_for_a_team_game() -> None:
    sheets = [_as_read(1, _pack_id(2, 1))]
    with pytest.raises(TeamSheetsError, match="1 photo could not be read.*: notes.jpg"):
        team_from_sheets(sheets, None, refused=["notes.jpg"])


def test_teams_of_another_size_than_the_pack_printed_are_named() -> None:
    ids = [_pack_id(3, 1), _pack_id(3, 2)]
    seating = Seating.from_text("Ann,Cid vs Ben,Dee")
    with pytest.raises(TeamSheetsError, match="--teams seats 2 pairs: name 3 players a team"):
        team_from_sheets([_as_read(1, ids[0]), _as_read(2, ids[1])], seating)


@pytest.mark.parametrize("paper", list(Paper))
def test_a_team_packs_size_is_read_from_its_ids(paper: Paper) -> None:
    for pairs in range(2, 7):
        assert pack_size(_pack_id(pairs, pairs, paper), "standard") == pairs
    # A named print run's ids say nothing of its size: the sheets given decide.
    assert pack_size(_pack_id(3, 1, paper, batch="club"), "standard") is None
    assert pack_size("D-1234-0001", "standard") is None


def test_a_folder_of_photos_with_their_answer_keys_is_scored_as_photos(
    pack: list[tuple[Path, dict, str]], tmp_path: Path, runner: CliRunner
) -> None:
    # `printgen one-page-war answer-key` writes IMG.json beside IMG.jpg: no typed-in sheet, so
    # the folder is still a batch of photos (it was refused as photos mixed with sheets).
    folder = tmp_path / "night"
    folder.mkdir()
    for path, truth, _ in pack:
        shutil.copy(path, folder / path.name)
        key = folder / path.with_suffix(".json").name
        key.write_text(json.dumps(photo_corpus.truth_names(truth)))
    result = runner.invoke(cli, ["score", "--json", str(folder)])
    assert result.exit_code in (0, 3), result.output
    assert {Path(r["file"]).name for r in json.loads(result.stdout)["sheets"]} == {
        path.name for path, _, _ in pack
    }
    # A typed-in sheet named as a photo is a sheet still: photos and sheets do not mix.
    duel = TEAM_EXAMPLE.with_name("duel.toml").read_text("utf-8")
    (folder / f"{pack[0][0].stem}.json").write_text(json.dumps(tomllib.loads(duel)))
    result = runner.invoke(cli, ["score", str(folder)])
    assert result.exit_code == 2  # a usage error
    assert "take photos only" in result.stderr


def test_a_folder_s_photos_are_found_by_every_name_a_jpeg_goes_by(
    pack: list[tuple[Path, dict, str]], tmp_path: Path, runner: CliRunner
) -> None:
    # A browser on Windows saves a JPEG as .jfif; a camera may write .JPG.
    folder = tmp_path / "saved"
    folder.mkdir()
    names = ["from-the-web.jfif", "IMG_0001.JPE"]
    for (path, _, _), name in zip(pack, names, strict=True):
        shutil.copy(path, folder / name)
    result = runner.invoke(cli, ["score", "--json", str(folder)])
    assert result.exit_code in (0, 3), result.output
    read = [Path(r["file"]).name for r in json.loads(result.stdout)["sheets"]]
    assert sorted(read) == sorted(names)


def test_only_the_sheets_of_one_team_pack_are_said_to_make_a_team_game() -> None:
    from types import SimpleNamespace

    from printgen.games.one_page_war.reader.batch_cli import team_pack_hint

    def results(*ids: str) -> tuple[PhotoResult, ...]:
        return tuple(
            PhotoResult(Path(f"{i}.jpg"), SimpleNamespace(tag=SimpleNamespace(sheet_id=i)))  # type: ignore[arg-type]
            for i in ids
        )

    assert team_pack_hint(results("T-0C1D-0001", "T-0C1D-0002")) is not None
    assert team_pack_hint(results("T-0C1D-0001")) is None  # one sheet is no game of teams
    assert team_pack_hint(results("T-0C1D-0001", "T-99AA-0002")) is None  # two packs
    assert team_pack_hint(results("T-0C1D-0001", "D-0C1D-0002")) is None  # a duel sheet
    assert team_pack_hint(results("D-1A2B-0001", "D-1A2B-0002")) is None


def test_a_provisional_sheets_winner_is_in_the_table_when_no_unsure_cell_can_change_it() -> None:
    """The summary line said "none can change who wins: First wins" where the table's winner
    was "-"; a winner the unsure cells can still change stays out of it."""
    from dataclasses import replace

    from printgen.games.one_page_war.reader import read_photo
    from printgen.games.one_page_war.reader.stakes import Stakes

    report = read_photo(_first_photo(), PhotoOptions())
    winner = report.score.winner
    assert report.exit_code == 3 and report.unsure and winner is not None
    holds = replace(report, stakes=Stakes((), frozenset({winner})))
    open_ = replace(report, stakes=Stakes((), frozenset({"First", "Second"})))
    for stakes_of, shown in ((holds, winner), (open_, None)):
        run = PrintRun((PhotoResult(Path("a.jpg"), stakes_of),))
        (row,) = run.rows
        assert (row.status, row.winner) == ("provisional", shown)
        assert run.to_text().splitlines()[1].split()[-2:] == [shown or "-", "provisional"]
