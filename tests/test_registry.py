"""The registry (printgen/games/__init__.py): every name in it resolves, and the command line
imports only what a command needs (sys.modules of a real `printgen` process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.games import all_games, all_materials
from printgen.materials import load

GAME_PACKAGES = {
    "war": "printgen.games.war",
    "one-page-war": "printgen.games.one_page_war",
    "one": "printgen.games.one",
    "package-war": "printgen.games.package_war",
    "aiue-battle": "printgen.games.aiue_battle",
}
HEAVY = ("reportlab", "cv2", "numpy", "PIL", "markdown_it", "jinja2", "flask")

# Runs printgen's real entry point in a fresh interpreter and, at exit (printgen always ends
# through sys.exit), writes the names of every module it imported to the file in argv[1].
_PROBE = """
import atexit, json, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["printgen", *sys.argv[2:]]
from printgen.cli import main
main()
"""


def modules_imported_by(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> set[str]:
    record = tmp_path / "modules.json"
    subprocess.run(
        [sys.executable, "-c", _PROBE, str(record), *args],
        cwd=tmp_path,
        env={**os.environ, **(env or {})},
        capture_output=True,
        timeout=120,
    )
    return set(json.loads(record.read_text()))


def packages_of_games(modules: set[str]) -> set[str]:
    return {
        game
        for game, package in GAME_PACKAGES.items()
        if any(m == package or m.startswith(package + ".") for m in modules)
    }


def loaded(modules: set[str], top: str) -> bool:
    return any(m == top or m.startswith(top + ".") for m in modules)


def test_the_table_covers_every_game_package() -> None:
    assert {game.name for game in all_games()} == set(GAME_PACKAGES)


@pytest.mark.parametrize("material", all_materials(), ids=lambda m: m.name)
def test_every_material_names_a_builder_that_exists(material) -> None:  # type: ignore[no-untyped-def]
    assert callable(load(material.builder))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_entry_names_code_that_exists(game) -> None:  # type: ignore[no-untyped-def]
    for target in (game.score, game.layout, game.read_photo):
        if target is not None:
            assert callable(load(target)), target
    if game.commands is not None:
        group = game.command_group()
        assert isinstance(group, click.Group)
        assert group.name == game.name
        # `printgen --help` shows the registry's line without importing the group: they agree.
        assert (group.help or "").startswith(game.commands_help)


def test_help_lists_each_game_command_with_its_line(runner) -> None:  # type: ignore[no-untyped-def]
    output = runner.invoke(cli, ["--help"]).output
    for game in all_games():
        if game.commands is not None:
            line = next(line for line in output.splitlines() if line.split()[:1] == [game.name])
            shown = line.split(maxsplit=1)[1].removesuffix("...")
            assert game.commands_help.startswith(shown)


def test_build_war_card_imports_no_other_game(tmp_path: Path) -> None:
    modules = modules_imported_by(tmp_path, "build", "war-card", "--out", str(tmp_path))
    assert (tmp_path / "war-card-a4.pdf").is_file()
    assert packages_of_games(modules) == set()  # the card builder lives outside every game
    assert not loaded(modules, "cv2")


@pytest.mark.parametrize("args", [["--help"], ["list"], ["war", "--help"]], ids=" ".join)
def test_help_and_list_import_nothing_heavy(tmp_path: Path, args: list[str]) -> None:
    modules = modules_imported_by(tmp_path, *args)
    assert [top for top in HEAVY if loaded(modules, top)] == []
    expected = {"war"} if args[0] == "war" else set()
    assert packages_of_games(modules) == expected


def test_completion_reads_only_the_table(tmp_path: Path) -> None:
    env = {"_PRINTGEN_COMPLETE": "bash_complete", "COMP_WORDS": "printgen ", "COMP_CWORD": "1"}
    modules = modules_imported_by(tmp_path, env=env)
    assert packages_of_games(modules) == set()
    assert not loaded(modules, "reportlab")


def test_completion_offers_commands_and_materials(tmp_path: Path) -> None:
    def complete(words: str, cword: int) -> list[str]:
        env = {
            **os.environ,
            "_PRINTGEN_COMPLETE": "bash_complete",
            "COMP_WORDS": words,
            "COMP_CWORD": str(cword),
        }
        script = "from printgen.cli import main; main()"
        result = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
        )
        # bash_complete prints "type,value" per line.
        return [line.split(",", 1)[1] for line in result.stdout.splitlines()]

    assert {"war", "one", "build", "score"} <= set(complete("printgen ", 1))
    assert set(complete("printgen build war", 2)) == {"war-card"}
    assert "one-page-war" in complete("printgen layout o", 2)


def test_scoring_a_typed_in_sheet_imports_only_its_referee(tmp_path: Path) -> None:
    sheet = Path(__file__).parents[1] / "examples" / "one" / "position.toml"
    modules = modules_imported_by(tmp_path, "score", str(sheet))
    assert packages_of_games(modules) == {"one"}
    assert [top for top in ("reportlab", "cv2") if loaded(modules, top)] == []


def test_scoring_a_photo_imports_only_the_reader(tmp_path: Path) -> None:
    from PIL import Image

    photo = tmp_path / "blank.jpg"
    Image.new("L", (800, 600), 255).save(photo)
    modules = modules_imported_by(tmp_path, "score", str(photo))
    assert packages_of_games(modules) == {"one-page-war"}
    assert not loaded(modules, "reportlab.platypus")
    # A plain JPEG is decoded by OpenCV, which the reader loads anyway (reader/photo.py).
    assert not loaded(modules, "PIL")


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("2", "2")])
def test_the_command_line_asks_openblas_for_one_thread_unless_told(
    given: str | None, expected: str
) -> None:
    # Its idle threads cost a photo read a third more CPU; a value the user set stands.
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    probe = "import os, printgen.cli; print(os.environ['OPENBLAS_NUM_THREADS'])"
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == expected


_MMAPPED_BLOCKS = """
import ctypes, sys
import numpy as np
import printgen.cli

class Info(ctypes.Structure):  # glibc's struct mallinfo2, in its order
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
if sys.argv[1] == "photo":
    printgen.cli._keep_freed_memory()
before = libc.mallinfo2().hblks
block = np.ones(8 << 20, np.uint8)  # the size of a 12 MP photo's working copy, and more
print(libc.mallinfo2().hblks - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
@pytest.mark.parametrize(("command", "mapped"), [("photo", 0), ("other", 1)])
def test_reading_photos_keeps_large_blocks_on_the_heap(command: str, mapped: int) -> None:
    # Blocks glibc maps afresh are faulted in page by page on every use; a photo read makes
    # hundreds of them. Only the photo-reading command line asks for this.
    try:
        done = subprocess.run(
            [sys.executable, "-c", _MMAPPED_BLOCKS, command],
            capture_output=True,
            text=True,
            check=True,
        )
    except subprocess.CalledProcessError as error:
        if "mallinfo2" in error.stderr:
            pytest.skip("no glibc mallinfo2 here")
        raise
    assert int(done.stdout) == mapped


@pytest.mark.parametrize(("photo", "asked"), [(True, True), (False, False)])
def test_only_scoring_photos_asks_to_keep_freed_memory(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, photo: bool, asked: bool
) -> None:
    import printgen.cli

    calls: list[None] = []
    monkeypatch.setattr(printgen.cli, "_keep_freed_memory", lambda: calls.append(None))
    if photo:
        from PIL import Image

        path = tmp_path / "blank.jpg"
        Image.new("L", (800, 600), 255).save(path)
    else:
        path = Path(__file__).resolve().parents[1] / "examples" / "one-page-war" / "duel.toml"
    runner.invoke(cli, ["score", str(path)])
    assert bool(calls) == asked
