"""Hostile and broken inputs on every command that reads a typed-in file or writes one
(issues 17 and 19): one line naming the file and the cause, exit 1, no traceback, no file half
written or left behind, and text that cannot take over the terminal. Run through the CLI
(CliRunner), so exit codes and printed text are what a person sees."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from printgen.cli import cli
from printgen.files import MAX_INPUT_BYTES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_readers import READERS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DUEL = EXAMPLES / "one-page-war" / "duel.toml"
PRINTGEN = str(Path(sys.executable).with_name("printgen"))


def one_line_error(result: Result, *names: object) -> str:
    """The one error line of a failed command, after checking how it failed."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line]
    assert len(errors) == 1 and errors[0] == lines[-1], result.stderr  # after a progress label
    assert errors[0].startswith("error:"), errors[0]
    for name in names:
        assert str(name) in errors[0], errors[0]
    return errors[0]


def no_temporary_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


# --- what may be read as a typed-in file ---------------------------------------------------------


@pytest.fixture
def big_file(tmp_path: Path) -> Path:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (MAX_INPUT_BYTES + 1))
    return path


@pytest.mark.parametrize("reader", READERS)
def test_a_folder_a_missing_file_and_a_huge_file_are_one_line_errors(
    runner: CliRunner, tmp_path: Path, big_file: Path, reader: str
) -> None:
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    # `score` scores what a folder holds; the others take one file.
    expected = "or scans (PDF, TIFF) in" if reader == "score" else "is a folder"
    assert expected in one_line_error(runner.invoke(cli, READERS[reader](folder)), folder)
    missing = tmp_path / "missing.toml"
    assert "no such file" in one_line_error(runner.invoke(cli, READERS[reader](missing)), missing)
    line = one_line_error(runner.invoke(cli, READERS[reader](big_file)), big_file)
    assert "larger than the 4 MB a typed-in file may be" in line


@pytest.mark.parametrize("reader", READERS)
def test_a_device_is_refused_without_reading_it(runner: CliRunner, reader: str) -> None:
    # /dev/zero never ends: reading it whole was a MemoryError after 3.7 GB.
    line = one_line_error(runner.invoke(cli, READERS[reader](Path("/dev/zero"))), "/dev/zero")
    assert "is a device, not a regular file" in line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("reader", ["score", "package-war play", "war play --deck"])
def test_a_fifo_is_refused_at_once_rather_than_waited_on(tmp_path: Path, reader: str) -> None:
    fifo = tmp_path / "sheet.toml"
    os.mkfifo(fifo)
    # A real process with a deadline: a regression would block forever on open().
    result = subprocess.run(
        [PRINTGEN, *READERS[reader](fifo)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert "is a FIFO (named pipe), not a regular file" in result.stderr
    assert "give - to read it from standard input" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["sheet", "photo.jpg"])
def test_a_fifo_of_any_name_is_refused_by_score(tmp_path: Path, name: str) -> None:
    # With no sheet suffix, score opens the file to see whether it is a photo: that open
    # blocked forever on a FIFO.
    fifo = tmp_path / name
    os.mkfifo(fifo)
    result = subprocess.run(
        [PRINTGEN, "score", str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert f"{fifo}: is a FIFO (named pipe), not a regular file" in result.stderr


def test_an_unreadable_file_is_one_line(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = tmp_path / "duel.toml"
    sheet.write_text(DUEL.read_text(encoding="utf-8"), encoding="utf-8")

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))

    monkeypatch.setattr(Path, "open", refuse)  # as a non-root user without read permission
    line = one_line_error(runner.invoke(cli, ["score", str(sheet)]), sheet)
    assert "cannot read it (Permission denied)" in line


def test_standard_input_is_read_for_a_dash(runner: CliRunner) -> None:
    text = DUEL.read_text(encoding="utf-8")
    from_file = runner.invoke(cli, ["score", "--json", str(DUEL)])
    from_stdin = runner.invoke(cli, ["score", "--json", "-"], input=text)
    assert from_stdin.exit_code == 0, from_stdin.output
    assert json.loads(from_stdin.stdout) == json.loads(from_file.stdout)
    as_json = json.dumps(tomllib.loads(text))
    assert runner.invoke(cli, ["score", "-"], input=as_json).exit_code == 0
    log = (EXAMPLES / "package-war" / "game.toml").read_text(encoding="utf-8")
    assert runner.invoke(cli, ["package-war", "play", "-"], input=log).exit_code == 0
    deck = " ".join(f"{r}{s}" for s in "CDHS" for r in [*"23456789", "10", *"JQKA"])
    assert runner.invoke(cli, ["war", "play", "--deck", "-"], input=deck).exit_code == 0


def test_standard_input_that_is_not_a_sheet_is_named(runner: CliRunner) -> None:
    line = one_line_error(runner.invoke(cli, ["score", "-"], input="game = ["))
    assert line.startswith("error: standard input: malformed TOML")


def test_a_byte_order_mark_is_accepted(runner: CliRunner, tmp_path: Path) -> None:
    sheet = tmp_path / "bom.toml"
    sheet.write_bytes(b"\xef\xbb\xbf" + DUEL.read_bytes())
    result = runner.invoke(cli, ["score", str(sheet)])
    assert result.exit_code == 0, result.output
    json_sheet = tmp_path / "bom.json"
    json_sheet.write_bytes(b"\xef\xbb\xbf" + json.dumps(tomllib.loads(DUEL.read_text())).encode())
    assert runner.invoke(cli, ["score", str(json_sheet)]).exit_code == 0


# --- what a typed-in tree may hold ---------------------------------------------------------------


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("deep.toml", "a = " + "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("deep40.json", '{"game": ' + "[" * 40 + "]" * 40 + "}", "nested more than 32 levels"),
        ("digits.json", '{"game": "one",\n "n": ' + "9" * 5000 + "}", "line 2: a number with"),
        ("digits.toml", 'game = "one"\nn = ' + "9" * 5000, "line 2: a number with"),
        ("large.json", '{"game": "one", "n": ' + "9" * 100 + "}", "far larger than a sheet"),
        ("nan.json", '{"game": "one", "n": NaN}', "NaN is not a number a sheet can hold"),
        ("inf.json", '{"game": "one", "n": 1e999}', "inf is not a number a sheet can hold"),
        ("inf.toml", 'game = "one"\nn = inf', "inf is not a number a sheet can hold"),
        ("surrogate.json", '{"game": "one", "n": "\\ud800"}', "not valid Unicode"),
        ("surrogate-key.json", '{"game": "one", "\\udfff": 1}', "not valid Unicode"),
    ],
)
def test_trees_no_sheet_holds_are_one_line_errors(
    runner: CliRunner, tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = write(tmp_path, name, text)
    line = one_line_error(runner.invoke(cli, ["score", str(path)]), path)
    assert message in line
    assert len(line) < 300  # the bad value is never quoted whole


def test_a_duplicate_json_key_is_refused_naming_key_and_line(
    runner: CliRunner, tmp_path: Path
) -> None:
    text = json.dumps(tomllib.loads(DUEL.read_text()), indent=2)
    doubled = text.replace('"players"', '"mode": "duel",\n  "players"', 1)  # mode given twice
    path = write(tmp_path, "twice.json", doubled)
    line = one_line_error(runner.invoke(cli, ["score", str(path)]), path)
    expected = doubled[: doubled.index('"mode": "duel",\n  "players"')].count("\n") + 1
    assert f"line {expected}: the key 'mode' is given twice" in line


def test_a_duplicate_key_deep_inside_names_its_own_line(runner: CliRunner, tmp_path: Path) -> None:
    text = '{\n "game": "one",\n "players": {\n  "Red": {"stones": [],\n   "stones": []}}}'
    line = one_line_error(runner.invoke(cli, ["score", str(write(tmp_path, "d.json", text))]))
    assert "line 5: the key 'stones' is given twice" in line


def test_a_huge_value_is_quoted_cut_short(runner: CliRunner, tmp_path: Path) -> None:
    text = f'game = "one-page-war"\nmode = "{"x" * 1_000_000}"\n'
    line = one_line_error(runner.invoke(cli, ["score", str(write(tmp_path, "m.toml", text))]))
    assert "(1,000,000 characters)" in line
    assert len(line) < 400


# --- terminal safety -----------------------------------------------------------------------------

ESCAPES = ("Ann\x1b]0;owned\x07", "Ben\x1b[31m")


def duel_named(first: str, second: str) -> str:
    data = tomllib.loads(DUEL.read_text(encoding="utf-8"))
    data["players"] = [first, second]
    for arena in data["arenas"].values():
        arena[first], arena[second] = arena.pop("Ann"), arena.pop("Ben")
        if "ticks" in arena:
            arena["ticks"] = {first: arena["ticks"]["Ann"]}
    return json.dumps(data)


def test_control_characters_in_names_are_shown_escaped(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, "duel.json", duel_named(*ESCAPES))
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "Ann\\x1b]0;owned\\x07" in result.output


def test_json_output_keeps_the_names_exact(runner: CliRunner, tmp_path: Path) -> None:
    path = write(tmp_path, "duel.json", duel_named(*ESCAPES))
    result = runner.invoke(cli, ["score", "--json", str(path)])
    assert "\x1b" not in result.stdout  # escaped the JSON way...
    data = json.loads(result.stdout)
    assert set(data["arenas_won"]) == set(ESCAPES)  # ...and read back exactly


def test_an_error_naming_a_hostile_value_is_escaped_too(runner: CliRunner, tmp_path: Path) -> None:
    text = 'game = "one"\n[players."\\u001b[2J"]\nstones = []\n'
    result = runner.invoke(cli, ["score", str(write(tmp_path, "p.toml", text))])
    assert result.exit_code == 1
    assert "\x1b" not in result.output


# --- output paths --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("a-file", "is not a folder"),
        ("a-file/under", "a file stands where one of its folders should be"),
        ("/dev/null", "is not a folder"),
        ("x" * 300, "File name too long"),
    ],
)
def test_build_out_paths_that_cannot_be_written(
    runner: CliRunner, tmp_path: Path, out: str, message: str
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    target = out if out.startswith("/") else str(tmp_path / out)
    result = runner.invoke(cli, ["build", "war-card", "--out", target])
    assert message in one_line_error(result)
    assert no_temporary_files(tmp_path)


@pytest.mark.parametrize(
    ("where", "code"),
    [("replace", errno.ENOSPC), ("mkstemp", errno.EROFS), ("mkstemp", errno.EACCES)],
)
def test_a_full_disk_or_read_only_place_is_one_line_and_leaves_nothing(
    runner: CliRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    code: int,
) -> None:
    import printgen.files

    def broken(*args: object, **kwargs: object) -> object:
        raise OSError(code, os.strerror(code))

    target = printgen.files.os if where == "replace" else tempfile
    monkeypatch.setattr(target, where, broken)
    line = one_line_error(runner.invoke(cli, ["build", "war-card", "--out", str(tmp_path)]))
    assert os.strerror(code) in line and str(tmp_path) in line
    assert list(tmp_path.iterdir()) == []


def jpeg(path: Path) -> Path:
    from PIL import Image

    Image.new("L", (64, 48), 200).save(path)
    return path


@pytest.mark.parametrize(
    ("annotate", "message"),
    [
        ("photo.jpg", "is one of the inputs"),
        ("/dev/null", "is a device; printgen writes only regular files"),
        ("folder", "is a folder; give a file name"),
    ],
)
def test_annotate_writes_only_a_regular_file_that_is_not_an_input(
    runner: CliRunner, tmp_path: Path, annotate: str, message: str
) -> None:
    photo = jpeg(tmp_path / "photo.jpg")
    before = photo.read_bytes()
    (tmp_path / "folder").mkdir()
    target = annotate if annotate.startswith("/") else str(tmp_path / annotate)
    line = one_line_error(runner.invoke(cli, ["score", str(photo), "--annotate", target]))
    assert message in line
    assert photo.read_bytes() == before


def test_annotate_is_for_one_photo(runner: CliRunner, tmp_path: Path) -> None:
    out = str(tmp_path / "out.png")
    # Usage errors (exit code 2), as click words them.
    typed = runner.invoke(cli, ["score", str(DUEL), "--annotate", out])
    assert typed.exit_code == 2 and "Traceback" not in typed.output
    assert "Error: --annotate applies to photos only" in typed.stderr
    two = [str(jpeg(tmp_path / "a.jpg")), str(jpeg(tmp_path / "b.jpg"))]
    both = runner.invoke(cli, ["score", *two, "--annotate", out])
    assert both.exit_code == 2
    assert "Error: --annotate draws one photo, but 2 files were given" in both.stderr
    assert not Path(out).exists()


SOLO_MID_GAME = """\
# Ann against the AI, round 3: the AI is to play.
game = "one-page-war"   # keep me
mode = "solo"
players = ["Ann", "AI"]

[arenas.Land]
Ann = [3, 4, "_", "_"]  # Ann's Land so far
AI = [5, "_", "_", "_"]

[arenas.Air]
Ann = [2, "_", "_"]
AI = [4, "_", "_"]

[arenas.Sea]
Ann = ["_", "_", "_", "_", "_"]
AI = ["_", "_", "_", "_", "_"]

[arenas.Politics]
Ann = ["_", "_", "_"]
AI = ["_", "_", "_"]

[arenas.Espionage]
Ann = ["_", "_", "_", "_"]
AI = ["_", "_", "_", "_"]
"""


def test_ai_turn_write_goes_through_a_link_and_keeps_comments(
    runner: CliRunner, tmp_path: Path
) -> None:
    real = write(tmp_path, "real.toml", SOLO_MID_GAME)
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    args = ["one-page-war", "ai-turn", str(link), "--die", "5", "--human-arena", "Land", "--write"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    after = real.read_text(encoding="utf-8")
    assert "# Ann against the AI, round 3" in after and "# Ann's Land so far" in after
    assert "# keep me" in after
    data = tomllib.loads(after)
    assert 6 in data["arenas"]["Air"]["AI"] or 6 in data["arenas"]["Land"]["AI"]
    assert no_temporary_files(tmp_path)


def test_ai_turn_write_into_a_read_only_place_is_one_line(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    sheet = write(tmp_path, "solo.toml", SOLO_MID_GAME)

    def read_only(*args: object, **kwargs: object) -> object:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    args = ["one-page-war", "ai-turn", str(sheet), "--die", "5", "--human-arena", "Land", "--write"]
    line = one_line_error(runner.invoke(cli, args), sheet)
    assert "Read-only file system" in line
    assert sheet.read_text(encoding="utf-8") == SOLO_MID_GAME


def test_ai_turn_cannot_write_to_standard_input(runner: CliRunner) -> None:
    args = ["one-page-war", "ai-turn", "-", "--die", "5", "--human-arena", "Land", "--write"]
    line = one_line_error(runner.invoke(cli, args, input=SOLO_MID_GAME))
    assert "--write needs the sheet's file" in line
    args.remove("--write")
    assert runner.invoke(cli, args, input=SOLO_MID_GAME).exit_code == 0


# --- war simulate --------------------------------------------------------------------------------


def test_war_simulate_games_are_capped_and_the_cap_is_in_the_help(runner: CliRunner) -> None:
    help_text = runner.invoke(cli, ["war", "simulate", "--help"]).output
    assert "1 to 10,000,000" in " ".join(help_text.split())
    result = runner.invoke(cli, ["war", "simulate", "--games", "9" * 30])
    assert result.exit_code == 2  # a usage error, said before anything is played
    assert "10000000" in result.output


@pytest.mark.parametrize(
    ("plot", "message"),
    [("device.png", "is a device"), ("folder.png", "is a folder"), ("plot.txt", "as PNG")],
)
def test_war_plot_paths_are_checked_before_playing(
    runner: CliRunner, tmp_path: Path, plot: str, message: str
) -> None:
    (tmp_path / "folder.png").mkdir()
    (tmp_path / "device.png").symlink_to("/dev/null")
    args = ["war", "simulate", "--games", "3", "--seed", "1", "--plot", str(tmp_path / plot)]
    result = runner.invoke(cli, args)
    assert message in one_line_error(result, tmp_path / plot)
    assert "Playing" not in result.stderr  # said before any game is played


def test_war_plot_is_written_whole_or_not_at_all(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import printgen.files

    plot = tmp_path / "lengths.png"

    def full(*args: object, **kwargs: object) -> object:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(printgen.files.os, "replace", full)
    result = runner.invoke(
        cli, ["war", "simulate", "--games", "5", "--seed", "1", "--plot", str(plot)]
    )
    assert "No space left on device" in one_line_error(result, plot)
    assert list(tmp_path.iterdir()) == []


# --- batches -------------------------------------------------------------------------------------


def test_one_bad_file_in_a_batch_is_reported_beside_the_others(
    runner: CliRunner, tmp_path: Path
) -> None:
    good = write(tmp_path, "a.toml", DUEL.read_text(encoding="utf-8"))
    bad = write(tmp_path, "b.toml", "game = [")
    other = write(tmp_path, "c.toml", (EXAMPLES / "one" / "position.toml").read_text())
    result = runner.invoke(cli, ["score", str(good), str(bad), str(other)])
    assert result.exit_code == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [str(good), str(other)]
    assert f"{bad}: malformed TOML" in result.stderr
    as_json = runner.invoke(cli, ["score", "--json", str(good), str(bad), str(other)])
    assert as_json.exit_code == 1
    entries = json.loads(as_json.stdout)
    assert [e["file"] for e in entries] == [str(good), str(bad), str(other)]
    assert "error" in entries[1] and "error" not in entries[0]
    folder = runner.invoke(cli, ["score", "--json", str(tmp_path)])
    assert folder.exit_code == 1 and len(json.loads(folder.stdout)) == 3


def test_json_prints_even_for_a_single_bad_file(runner: CliRunner, tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.toml", "game = [")
    result = runner.invoke(cli, ["score", "--json", str(bad)])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["file"] == str(bad)
    assert "malformed TOML" in json.loads(result.stdout)["error"]


def test_a_nul_in_a_path_is_refused_by_the_file_layer(tmp_path: Path) -> None:
    from printgen.errors import InputError, OutputError
    from printgen.files import read_input, write_atomic

    with pytest.raises(OutputError, match="cannot hold a NUL"):
        write_atomic(tmp_path / "a\x00b.pdf", b"x")
    with pytest.raises(InputError, match="cannot hold a NUL"):
        read_input(tmp_path / "a\x00b.toml")


def test_check_capture_prints_a_position_that_reads_back_whatever_the_names(
    runner: CliRunner, tmp_path: Path
) -> None:
    odd = 'Re"d\\\u0085\u202e\x1b[31mX'
    position = {
        "game": "one",
        "players": {
            odd: {"stones": [[2, 3]], "captured": 0},
            "Blue": {"stones": [[3, 3]], "captured": 0},
        },
    }
    path = write(tmp_path, "p.json", json.dumps(position))
    result = runner.invoke(
        cli, ["one", "check-capture", str(path), "--from", "2,3", "--path", "4,3"]
    )
    assert result.exit_code == 0, result.output
    for raw in ("\x1b", "\u0085", "\u202e"):
        assert raw not in result.stdout
    printed = result.stdout.split("# the new position\n", 1)[1]
    after = tomllib.loads(printed)
    assert after["players"][odd] == {"stones": [[4, 3]], "captured": 1}


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["list"], ["--help"], ["layout", "one-page-war", "--json"]])
def test_output_that_cannot_be_written_is_one_line(args: list[str]) -> None:
    # /dev/full refuses every write as a full disk does: that was a traceback.
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [PRINTGEN, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    assert result.returncode == 1
    assert result.stderr == "error: could not write the output: No space left on device\n"
