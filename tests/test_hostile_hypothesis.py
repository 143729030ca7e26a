"""Random hostile inputs, through the CLI (issues 17 and 19): random bytes and random TOML/JSON
trees for every reader of typed-in files, random output paths, and every TOML printgen emits
read back. Each run is bounded (`max_examples`) so `make test` stays quick."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import tomlkit
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printgen.cli import cli
from printgen.games.one.engine import Board, Point, Position
from printgen.games.one_page_war.geometry import Kind, sheet_geometry
from printgen.games.one_page_war.layout import load_layout
from printgen.games.one_page_war.reader.cells import Reading, SheetReading
from printgen.games.one_page_war.reader.locate import SheetIdentity
from printgen.games.one_page_war.reader.report import sheet_mapping, sheet_toml
from printgen.games.one_page_war.sheet import Sheet, parse_sheet
from printgen.render.units import Paper

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_readers import READERS  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RUNNER = CliRunner()
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def assert_handled(result: Result, path: Path | None = None) -> None:
    """Exit 0, 1 or 3 (never click's 2, never a traceback); an error names the file."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 1, 3), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 1:
        errors = [line for line in result.stderr.splitlines() if line.startswith("error")]
        assert errors, result.stderr
        if path is not None:
            assert str(path) in errors[0] or "standard input" in errors[0], errors[0]
        assert len(errors[0]) < 1000


# --- random bytes --------------------------------------------------------------------------------


@SETTINGS
@given(
    data=st.binary(max_size=300),
    reader=st.sampled_from(sorted(READERS)),
    suffix=st.sampled_from([".toml", ".json", ".txt"]),
)
def test_random_bytes_are_refused_cleanly(
    tmp_path_factory: Any, data: bytes, reader: str, suffix: str
) -> None:
    path = tmp_path_factory.mktemp("bytes") / f"input{suffix}"
    path.write_bytes(data)
    result = RUNNER.invoke(cli, READERS[reader](path))
    assert_handled(result, path)
    assert result.exit_code == 1  # no random bytes are a sheet, a log, a position or a deck


# --- random trees --------------------------------------------------------------------------------

GAMES = ["one-page-war", "one", "package-war", "aiue-battle", "war", "x"]
KEYS = [
    "game", "players", "arenas", "mode", "layout", "teams", "sheets", "stones", "captured",
    "board", "spokes", "rings", "words", "attacks", "alphabet", "score", "tables", "crushed",
    "Land", "Air", "Ann", "Ben", "ticks", "allies", "dice", "start", "moves", "id",
]  # fmt: skip
scalars = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, 1, 2, 6, 7, 9, 99, -1, 2**53 + 1, 10**4000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=20),
    st.sampled_from(["", " Ann", "Ann\x1b[31m", "_", "*", "standard", "../package-war/pad"]),
)
trees = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(
            st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), children, max_size=5
        ),
    ),
    max_leaves=30,
)
documents = st.fixed_dictionaries(
    {"game": st.sampled_from(GAMES)},
    optional={key: trees for key in KEYS[1:12]},
)


def _toml_text(document: dict[str, Any]) -> str | None:
    try:
        return tomlkit.dumps(document)
    except Exception:  # noqa: BLE001 (what TOML cannot hold, e.g. a None or a lone surrogate)
        return None


@SETTINGS
@given(document=documents, as_json=st.booleans(), reader=st.sampled_from(sorted(READERS)))
def test_random_trees_never_crash_a_reader(
    tmp_path_factory: Any, document: dict[str, Any], as_json: bool, reader: str
) -> None:
    text = json.dumps(document) if as_json else _toml_text(document)
    if text is None:
        return
    path = tmp_path_factory.mktemp("trees") / ("sheet.json" if as_json else "sheet.toml")
    path.write_text(text, encoding="utf-8")
    assert_handled(RUNNER.invoke(cli, READERS[reader](path)), path)


def _mutations(example: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """An example sheet with one value somewhere replaced by a random one."""

    def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        found = [prefix] if prefix else []
        if isinstance(value, dict):
            for key, item in value.items():
                found += paths(item, (*prefix, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                found += paths(item, (*prefix, i))
        return found

    def replaced(where: tuple[Any, ...], new: Any) -> dict[str, Any]:
        copy = json.loads(json.dumps(example))
        target = copy
        for step in where[:-1]:
            target = target[step]
        target[where[-1]] = new
        return copy

    return st.builds(replaced, st.sampled_from(paths(example)), trees)


EXAMPLE_SHEETS = sorted(p for p in EXAMPLES.rglob("*.toml") if "game.toml" not in p.name)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_an_example_with_one_value_changed_is_scored_or_refused(data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(EXAMPLE_SHEETS))
    example = tomllib.loads(source.read_text(encoding="utf-8"))
    document = data.draw(_mutations(example))
    result = RUNNER.invoke(cli, ["score", "--json", "-"], input=json.dumps(document))
    assert_handled(result)
    if result.exit_code == 0:
        json.loads(result.stdout)


# --- the One Page War referee never scores what no legal play can write ------------------------


@settings(max_examples=40, deadline=None)
@given(number=st.integers(min_value=9, max_value=10**15), arena=st.sampled_from(["Air", "Sea"]))
def test_no_duel_square_past_eight_is_ever_scored(number: int, arena: str) -> None:
    example = tomllib.loads((EXAMPLES / "one-page-war" / "duel.toml").read_text())
    example["arenas"][arena]["Ann"][0] = number
    result = RUNNER.invoke(cli, ["score", "-"], input=json.dumps(example))
    assert result.exit_code == 1
    assert f"arena {arena}, Ann's square 1: {number} is" in result.stderr


# --- random output paths -------------------------------------------------------------------------

# No "/" (that is a folder), no NUL: a command line cannot carry one (each argument ends at NUL).
names = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="/\x00"),
    min_size=1,
    max_size=300,
)


@settings(max_examples=15, deadline=None)
@given(folder=names, nested=st.booleans())
def test_random_out_folders_are_written_or_refused_cleanly(
    tmp_path_factory: Any, folder: str, nested: bool
) -> None:
    base = tmp_path_factory.mktemp("out")
    (base / "a-file").write_text("x")
    out = base / ("a-file" if nested else "") / folder
    result = RUNNER.invoke(cli, ["build", "war-card", "--out", str(out)])
    assert_handled(result)
    if result.exit_code == 0:
        assert (out / "war-card-a4.pdf").read_bytes().startswith(b"%PDF")
    assert not [p for p in base.rglob("*") if p.name.endswith(".tmp")]


@settings(max_examples=15, deadline=None)
@given(name=names)
def test_random_plot_names_are_written_or_refused_cleanly(tmp_path_factory: Any, name: str) -> None:
    base = tmp_path_factory.mktemp("plot")
    plot = base / f"{name}.png"
    result = RUNNER.invoke(
        cli, ["war", "simulate", "--games", "2", "--seed", "1", "--plot", str(plot)]
    )
    assert_handled(result)
    if result.exit_code == 0:
        assert plot.read_bytes().startswith(b"\x89PNG")
    assert not [p for p in base.rglob("*") if p.name.endswith(".tmp")]


# --- every TOML printgen emits parses back to the same data --------------------------------------

player_names = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=12
).filter(lambda n: n == n.strip())


@settings(max_examples=40, deadline=None)
@given(players=st.lists(player_names, min_size=2, max_size=6, unique=True), data=st.data())
def test_a_one_position_written_as_toml_reads_back(players: list[str], data: Any) -> None:
    board = Board()
    points = data.draw(
        st.lists(st.sampled_from(board.points), unique=True, max_size=len(players) * 3)
    )
    stones: dict[str, list[Point]] = {p: [] for p in players}
    for i, point in enumerate(points):
        stones[players[i % len(players)]].append(point)
    captured = {p: data.draw(st.integers(0, 5)) for p in players}
    position = Position.from_stones(board, stones, captured)
    assert tomllib.loads(position.to_toml()) == position.to_mapping()


LAYOUT = load_layout("standard")


@settings(max_examples=40, deadline=None)
@given(
    first=player_names.filter(lambda n: n not in ("allies", "ticks")),
    second=player_names.filter(lambda n: n not in ("allies", "ticks")),
    notes=st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40),
)
def test_a_one_page_war_sheet_written_as_toml_reads_back(
    first: str, second: str, notes: str
) -> None:
    if first == second:
        return
    example = tomllib.loads((EXAMPLES / "one-page-war" / "duel.toml").read_text())
    arenas = {
        name: {first: arena["Ann"], second: arena["Ben"]}
        | ({"allies": True} if arena.get("allies") else {})
        | ({"ticks": {first: arena["ticks"]["Ann"]}} if "ticks" in arena else {})
        for name, arena in example["arenas"].items()
    }
    document = {**example, "players": [first, second], "arenas": arenas, "notes": notes}
    sheet = parse_sheet(document, "test")
    assert isinstance(sheet, Sheet)
    text = sheet.to_toml()
    assert tomllib.loads(text) == sheet.to_mapping()
    assert parse_sheet(tomllib.loads(text)) == sheet


GEOMETRY = sheet_geometry("standard", Paper.A4)


@settings(max_examples=40, deadline=None)
@given(
    sheet_id=st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=30),
    unsure=st.sets(st.integers(0, 37), max_size=4),
    mode=st.sampled_from(["duel", "solo", "team"]),
)
def test_the_sheet_read_from_a_photo_as_toml_reads_back(
    sheet_id: str, unsure: set[int], mode: str
) -> None:
    squares = tuple(
        Reading(e, "4", 0.99, "1\n#", 0.01, i in unsure, "why\x1b")
        for i, e in enumerate(GEOMETRY.select(Kind.SQUARE))
    )
    ticks = tuple(
        Reading(e, "empty", 0.99, "ticked", 0.01, False) for e in GEOMETRY.select(Kind.TICK)
    )
    allies = tuple(Reading(e, "S", 0.6, "empty", 0.4, True) for e in GEOMETRY.select(Kind.ALLIES))
    reading = SheetReading(squares, ticks, allies)
    tag = SheetIdentity("standard", LAYOUT.version, Paper.A4, mode, sheet_id)
    text = sheet_toml(reading, LAYOUT, mode, tag)
    assert tomllib.loads(text) == sheet_mapping(reading, LAYOUT, mode, tag)


# --- duplicate keys and batches ------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    keys=st.lists(st.sampled_from(KEYS[1:]), min_size=2, max_size=8, unique=True),
    data=st.data(),
)
def test_a_key_given_twice_in_json_is_named_with_its_line(keys: list[str], data: Any) -> None:
    twice = data.draw(st.sampled_from(keys))
    lines = [f'  "{key}": {i}' for i, key in enumerate(["game", *keys])]
    at = data.draw(
        st.integers(
            min_value=lines.index(f'  "{twice}": {keys.index(twice) + 1}') + 1, max_value=len(lines)
        )
    )
    lines.insert(at, f'  "{twice}": "again"')
    text = "{\n" + ",\n".join(lines) + "\n}"
    result = RUNNER.invoke(cli, ["score", "-"], input=text)
    assert result.exit_code == 1
    assert f"line {at + 2}: the key {twice!r} is given twice" in result.stderr


@settings(max_examples=20, deadline=None)
@given(kinds=st.lists(st.sampled_from(["good", "bad", "missing"]), min_size=1, max_size=5))
def test_a_batch_reports_every_file_in_order(tmp_path_factory: Any, kinds: list[str]) -> None:
    folder = tmp_path_factory.mktemp("batch")
    paths = []
    for i, kind in enumerate(kinds):
        path = folder / f"{i}-{kind}.toml"
        if kind == "good":
            path.write_text((EXAMPLES / "one" / "position.toml").read_text(), encoding="utf-8")
        elif kind == "bad":
            path.write_text("game = [", encoding="utf-8")
        paths.append(path)
    result = RUNNER.invoke(cli, ["score", "--json", *map(str, paths)])
    assert_handled(result)
    assert result.exit_code == (0 if set(kinds) == {"good"} else 1)
    entries = json.loads(result.stdout)
    entries = entries if len(kinds) > 1 else [{"file": str(paths[0]), **entries}]
    assert [e["file"] for e in entries] == [str(p) for p in paths]
    assert [("error" in e) for e in entries] == [kind != "good" for kind in kinds]
