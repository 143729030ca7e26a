"""The CLI's own behaviour: listing, unknown names, score dispatch and input errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from printgen.cli import cli
from printgen.games import all_materials


def test_list_shows_every_material_with_a_description(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["list"])
    assert result.exit_code == 0
    for material in all_materials():
        line = next(line for line in result.output.splitlines() if line.startswith(material.name))
        assert material.description in line


def test_help_explains_commands(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    for command in ("build", "list", "score", "layout"):
        assert command in result.output
    assert "Examples" in runner.invoke(cli, ["build", "--help"]).output


def test_unknown_material_lists_the_known_ones(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["build", "nope", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "unknown material 'nope'" in result.output
    assert "war-card" in result.output


def test_score_errors_name_the_file_and_line(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    missing = runner.invoke(cli, ["score", str(tmp_path / "none.toml")])
    assert missing.exit_code == 1 and "no such file" in missing.output

    bad = tmp_path / "bad.toml"
    bad.write_text('game = "war"\nplayers = = 2\n', encoding="utf-8")
    result = runner.invoke(cli, ["score", str(bad)])
    assert result.exit_code == 1
    assert "bad.toml" in result.output and "line 2" in result.output
    assert result.output.count("bad.toml") == 1

    no_game = tmp_path / "nogame.json"
    no_game.write_text('{"players": []}', encoding="utf-8")
    result = runner.invoke(cli, ["score", str(no_game)])
    assert result.exit_code == 1 and "game" in result.output

    other = tmp_path / "other.toml"
    other.write_text('game = "chess"\n', encoding="utf-8")
    result = runner.invoke(cli, ["score", str(other)])
    assert result.exit_code == 1 and "'chess'" in result.output

    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"game": "one",\n "x": }', encoding="utf-8")
    result = runner.invoke(cli, ["score", str(bad_json)])
    assert result.exit_code == 1 and "line 2" in result.output


def test_score_an_empty_folder_is_an_error(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["score", str(tmp_path)])
    assert result.exit_code == 1 and "no typed-in sheets (.toml, .json)" in result.output
    # Beside a sheet too: the folder was passed over, and the command said nothing of it.
    sheet = Path(__file__).resolve().parents[1] / "examples" / "one" / "position.toml"
    result = runner.invoke(cli, ["score", str(tmp_path), str(sheet)])
    assert result.exit_code == 1
    assert (
        f"error: no typed-in sheets (.toml, .json), photos (JPEG, PNG, WebP, HEIC, AVIF) or "
        f"scans (PDF, TIFF) in {tmp_path}"
    ) in result.stderr


def test_a_folder_says_what_it_passed_over(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A folder's files are scored by name or by their first bytes; the rest are named, not
    passed over in silence."""
    sheet = Path(__file__).resolve().parents[1] / "examples" / "one" / "position.toml"
    (tmp_path / "position.toml").write_bytes(sheet.read_bytes())
    (tmp_path / "notes.txt").write_text("who brought the dice\n", encoding="utf-8")
    (tmp_path / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    # A photo saved with no extension is an image by its bytes: it is read, and refused by name.
    (tmp_path / "IMG_0001").write_bytes(b"\xff\xd8\xff\xe0" + b"\0" * 64)
    result = runner.invoke(cli, ["score", str(tmp_path)])
    assert f"{tmp_path}: passed over what is no sheet, photo or scan: notes.txt\n" in result.stderr
    assert ".DS_Store" not in result.output
    assert f"{tmp_path / 'IMG_0001'}" in result.stderr
    assert "position.toml" in result.output
    assert result.exit_code == 1  # the photo cut short


def test_layout_for_a_game_without_one(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["layout", "war"])
    assert result.exit_code == 1 and "no layout for 'war'" in result.output


@pytest.mark.parametrize("game", ["package-war", "aiue-battle", "one-page-war"])
def test_layout_on_a_paper_the_game_never_prints_on(runner, game: str) -> None:  # type: ignore[no-untyped-def]
    # `build` refuses these materials on A3; their geometry there would describe no sheet.
    result = runner.invoke(cli, ["layout", game, "--paper", "a3"])
    assert result.exit_code == 2  # a usage error
    assert f"{game} is printed on a4, letter, not a3" in result.output


def test_layout_on_a3_for_the_one_board(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["layout", "one", "--paper", "a3"])
    assert result.exit_code == 0 and '"paper": "a3"' in result.output


def test_a_build_that_fails_part_way_says_what_it_wrote_first(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # One Page War's rules do not fit a large-print card; the War card, built first, does.
    args = ["build", "war-card", "one-page-war-card", "--large-print", "--out", str(tmp_path)]
    result = runner.invoke(cli, args)
    assert result.exit_code == 1
    assert f"wrote {tmp_path / 'war-card-a4.pdf'}" in result.stdout
    assert "error: one-page-war-card: " in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["war-card-a4.pdf"]


def test_too_many_copies_leave_no_progress_label(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    args = ["build", "one-page-war", "--copies", "10001", "--out", str(tmp_path)]
    result = runner.invoke(cli, args)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: one-page-war: --copies must be a whole number"), (
        result.stderr
    )


def test_building_all_on_a3_says_what_is_not_printed_on_it(runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Only the ONE board is printed on A3: the rest were passed over in silence.
    result = runner.invoke(cli, ["build", "all", "--paper", "a3", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["one-board-a3.pdf"]
    said = next(line for line in result.stderr.splitlines() if line.startswith("not printed"))
    assert said.startswith("not printed on a3, so not built: war-card, one-page-war, ")
    assert "one-board," not in said and said.endswith("aiue-battle-card")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # TOML notices the missing `]` two lines on; the player's slip is on line 3.
        (
            'game = "one"\n# the board\nplayers = ["Red", "Blue"\n\n[x]\n',
            "the bracket opened on line 3 is never closed",
        ),
        ('game = "one"\nnote = "a [ b"\nstones = [1, 2\n', "opened on line 3"),
        ('game = "one"\nboard = { spokes = 16\n', "opened on line 2"),
    ],
)
def test_an_unclosed_list_names_the_line_it_opened_on(  # type: ignore[no-untyped-def]
    runner, tmp_path: Path, text: str, said: str
) -> None:
    path = tmp_path / "sheet.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 1 and said in result.stderr, result.stderr
