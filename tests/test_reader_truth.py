"""Answer keys (reader/truth.py, `printgen one-page-war answer-key`): what a photographed sheet
holds, from the typed-in sheet checked against the paper, as training and calibration read
it beside the photo."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result
from photo_corpus import make_photo, sheet_truth, truth_names
from playout import play_game

from printgen.cli import cli
from printgen.games.one_page_war.reader import digits
from printgen.games.one_page_war.rules import Mark
from printgen.games.one_page_war.sheet import Sheet
from training import train_digits


def _played(tmp: Path, seed: int, mode: str = "duel") -> tuple[Path, Sheet, dict[str, str]]:
    """A photo of a game played by the rulebook, its typed-in sheet, and what the photo shows
    in each square and S space."""
    rng = np.random.default_rng(seed)
    sheet = play_game(rng, mode).sheets[0]
    truth = sheet_truth(sheet, rng)
    photo = tmp / f"sheet-{seed}.jpg"
    make_photo(photo, seed, (1600, 1200), mode=mode, truth=truth)
    cells = {k: v for k, v in truth_names(truth).items() if not k.startswith("tick/")}
    return photo, sheet, cells


def _typed(tmp: Path, sheet: Sheet, name: str = "checked.toml") -> Path:
    path = tmp / name
    path.write_text(sheet.to_toml())
    return path


def _answer_key(runner: CliRunner, photo: Path, typed: Path, *options: str) -> Result:
    return runner.invoke(cli, ["one-page-war", "answer-key", str(photo), str(typed), *options])


def _refused(result: Result, photo: Path, *said: str) -> None:
    """Exit code 1, the error saying each of `said`, and no answer key beside the photo."""
    assert result.exit_code == 1
    for words in said:
        assert words in result.output
    assert not photo.with_suffix(".json").exists()


def test_the_answer_key_is_what_the_checked_sheet_says_in_each_square_and_s_space(
    tmp_path: Path, runner: CliRunner
) -> None:
    photo, sheet, cells = _played(tmp_path, 41)
    result = _answer_key(runner, photo, _typed(tmp_path, sheet))
    assert result.exit_code == 0, result.output
    written = json.loads(photo.with_suffix(".json").read_text())
    assert written == cells
    # Read off the typed-in sheet itself: the near player's numbers on the first side.
    for arena in sheet.arenas:
        for side, held in zip(("first", "second"), arena.sides, strict=True):
            for i, square in enumerate(held.squares):
                shown = square.value if isinstance(square, Mark) else str(square)
                assert written[f"square/{arena.name}/{side}/{i}"] == shown
        assert written[f"allies/{arena.name}/None/0"] == ("S" if arena.allies else "empty")
    squares = sum(1 for k in cells if k.startswith("square/"))
    assert f"{squares} squares and 5 S spaces" in result.output


def test_the_answer_key_follows_the_sheet_not_the_photo(tmp_path: Path, runner: CliRunner) -> None:
    # The person typing the sheet in is the truth: two squares typed the other way round are so
    # in the key, whatever the photo shows there.
    photo, sheet, cells = _played(tmp_path, 42)
    arena = next(a for a in sheet.arenas if a.sides[0].squares[0] != a.sides[0].squares[1])
    first = arena.sides[0]
    swapped = replace(first, squares=(first.squares[1], first.squares[0], *first.squares[2:]))
    changed = replace(
        sheet,
        arenas=tuple(
            replace(a, sides=(swapped, a.sides[1])) if a is arena else a for a in sheet.arenas
        ),
    )
    out = tmp_path / "keys" / "k.json"
    out.parent.mkdir()
    typed = _typed(tmp_path, changed)
    result = _answer_key(runner, photo, typed, "-o", str(out))
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text())
    a, b = (f"square/{arena.name}/first/{i}" for i in (0, 1))
    assert (written[a], written[b]) == (cells[b], cells[a]) != (cells[a], cells[b])
    assert {k: v for k, v in written.items() if k not in (a, b)} == {
        k: v for k, v in cells.items() if k not in (a, b)
    }
    assert not photo.with_suffix(".json").exists()


def test_a_sheet_of_another_mode_is_refused_and_nothing_is_written(
    tmp_path: Path, runner: CliRunner
) -> None:
    photo, _, _ = _played(tmp_path, 43, "duel")
    solo = play_game(np.random.default_rng(7), "solo").sheets[0]
    result = _answer_key(runner, photo, _typed(tmp_path, solo))
    _refused(result, photo, "a solo sheet, but the photo shows a duel sheet")


def test_a_sheet_with_an_arena_the_layout_has_not_is_a_clear_error(
    tmp_path: Path, runner: CliRunner
) -> None:
    photo, sheet, _ = _played(tmp_path, 44)
    typed = _typed(tmp_path, sheet)
    typed.write_text(typed.read_text().replace("[arenas.Land]", "[arenas.Moon]", 1))
    _refused(_answer_key(runner, photo, typed), photo, str(typed), "Moon")


def test_an_answer_key_already_there_is_kept_unless_forced(
    tmp_path: Path, runner: CliRunner
) -> None:
    photo, sheet, cells = _played(tmp_path, 45)
    typed = _typed(tmp_path, sheet)
    there = photo.with_suffix(".json")
    there.write_text("{}")
    result = _answer_key(runner, photo, typed)
    assert result.exit_code == 1
    assert "already there; --force replaces it" in result.output
    assert there.read_text() == "{}"
    result = _answer_key(runner, photo, typed, "--force")
    assert result.exit_code == 0, result.output
    assert json.loads(there.read_text()) == cells
    # Never over the photo itself, forced or not.
    before = photo.read_bytes()
    result = _answer_key(runner, photo, typed, "-o", str(photo), "--force")
    assert result.exit_code == 1 and "is one of the inputs" in result.output
    assert photo.read_bytes() == before


def test_a_file_that_is_no_photo_is_a_clear_error(tmp_path: Path, runner: CliRunner) -> None:
    sheet = play_game(np.random.default_rng(3), "duel").sheets[0]
    fake = tmp_path / "sheet.jpg"
    fake.write_text("not a photo")
    _refused(_answer_key(runner, fake, _typed(tmp_path, sheet)), fake, str(fake))


def test_training_reads_a_folder_of_photos_with_their_answer_keys(
    tmp_path: Path, runner: CliRunner
) -> None:
    photo, sheet, cells = _played(tmp_path, 46)
    _answer_key(runner, photo, _typed(tmp_path, sheet))
    (read,) = train_digits.folder_photos(tmp_path)
    assert read.truth == cells
    written = [t for _, t, _ in read.cells()]
    assert sorted(written) == sorted(cells.values())
    x, y = train_digits.cells_dataset([read])
    labels = {train_digits.cell_label(t) for t in cells.values()} - {None}
    assert {digits.CLASSES[i] for i in y} <= labels
    assert len(y) >= sum(1 for v in cells.values() if v not in ("_", "empty"))


def test_photos_learnt_from_are_never_the_calibration_photos(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no answer keys"):
        train_digits._check_train_dir(tmp_path, None)
    (tmp_path / "a.json").write_text("{}")
    with pytest.raises(SystemExit, match="the same folder"):
        train_digits._check_train_dir(tmp_path, tmp_path / ".")
    train_digits._check_train_dir(tmp_path, tmp_path.parent)
    with pytest.raises(SystemExit, match="not a folder"):
        train_digits._check_train_dir(tmp_path / "a.json", None)


def test_a_sheet_whose_arenas_or_squares_are_not_the_photographed_ones_is_refused() -> None:
    from printgen.games.one_page_war.geometry import sheet_geometry
    from printgen.games.one_page_war.reader.truth import TruthError, sheet_cells
    from printgen.render.units import Paper

    geometry = sheet_geometry("standard", Paper.A4)
    sheet = replace(play_game(np.random.default_rng(8), "duel").sheets[0], source="night.toml")
    assert len(sheet_cells(sheet, geometry)) == 43  # 38 squares and 5 S spaces
    with pytest.raises(
        TruthError, match=r"night\.toml: its arenas are Land, Air, Sea, Politics, but"
    ):
        sheet_cells(replace(sheet, arenas=sheet.arenas[:-1]), geometry)
    land = sheet.arenas[0]
    short = replace(land.sides[1], squares=land.sides[1].squares[:-1])
    with pytest.raises(TruthError, match="Land, Second has 3 squares, but the photographed sheet"):
        sheet_cells(
            replace(sheet, arenas=(replace(land, sides=(land.sides[0], short)), *sheet.arenas[1:])),
            geometry,
        )


def test_a_mirrored_photo_gets_the_answer_key_of_the_photo_turned_back(
    tmp_path: Path, runner: CliRunner
) -> None:
    # The reader reads a mirrored photo turned back: its answer key is located the same way.
    import cv2

    photo, sheet, cells = _played(tmp_path, 43)
    mirrored = tmp_path / "mirrored.png"
    cv2.imwrite(str(mirrored), cv2.imread(str(photo))[:, ::-1])
    result = _answer_key(runner, mirrored, _typed(tmp_path, sheet))
    assert result.exit_code == 0, result.output
    assert json.loads(mirrored.with_suffix(".json").read_text()) == cells
