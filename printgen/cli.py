"""The command line: thin. It parses options, calls the engines and materials, and turns their
errors into messages and exit codes."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

from printgen.console import EXIT_ERROR, echo, echo_json, fail
from printgen.errors import InputError, PrintgenError, quote
from printgen.files import (
    STDIN,
    check_output,
    check_output_folder,
    check_regular_file,
    input_name,
    read_input,
    write_atomic,
)
from printgen.games import all_games, all_materials, game_named
from printgen.materials import (
    OPTION_NAMES,
    BuildOptions,
    Game,
    Material,
    PhotoOptions,
    ScoreReport,
    load,
)
from printgen.paths import OUTPUT_DIR
from printgen.render.units import Paper

if TYPE_CHECKING:  # the reader loads only when photos are scored
    from printgen.games.one_page_war.reader.photo import ScanPage

# OpenBLAS starts a thread per core when numpy is imported, and they spin: a photo read took a
# third more CPU and 0.06 s more wall time for them. Nothing printgen runs wants them (the
# recogniser's small products run on one thread anyway; batches use a process per core). Set
# here, before anything imports numpy; a value the user set stands.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# OpenCV prints libtiff's warnings (a scanner's private tags: "Unknown field with tag 65000")
# on the terminal as it decodes a TIFF, beside the reader's own messages; its errors still show.
# Read when cv2 is imported, so set before that too.
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")

# glibc's mallopt parameters, and what reading photos sets them to (see _keep_freed_memory).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8
PHOTO_MMAP_THRESHOLD = PHOTO_TRIM_THRESHOLD = 64 << 20


def _keep_freed_memory() -> None:
    """Let this process reuse the memory it frees. glibc gives every block over 128 KiB back to
    the kernel when it is freed, and the next such block is faulted in again, page by page:
    reading one photo makes hundreds of arrays of megabytes, and its page faults went from
    20,000 to 11,400 with this, about 35 ms of a 12 MP photo (bench/bench_build.py), for a few
    MB more peak memory. For the command line only: it reads and exits, where `printgen
    serve` lives on and should give memory back. Elsewhere than glibc, nothing changes.

    Kept so, the memory is kept by the heap that freed it, and a thread has a heap of its own:
    the thread that decodes the photo (reader/start.py) kept what decoding took, and a 12 MP
    WebP peaked at 188 MB (a PNG at 144). So one heap serves every thread: 126 and 130 MB."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, PHOTO_MMAP_THRESHOLD)
    mallopt(M_TRIM_THRESHOLD, PHOTO_TRIM_THRESHOLD)
    mallopt(M_ARENA_MAX, 1)


# A folder's photos and scans, by name (a JPEG saved from a browser on Windows is a .jfif).
IMAGE_SUFFIXES = frozenset(
    {".jpg", ".jpeg", ".jpe", ".jfif", ".png", ".webp", ".heic", ".heif", ".avif", ".tif"}
    | {".tiff", ".pdf"}
)
SHEET_SUFFIXES = frozenset({".toml", ".json"})


class PrintgenGroup(click.Group):
    """Adds each game's own commands (`printgen war ...`) from the registry. A game's command
    module is imported only when one of its commands runs: the listing in `--help` and shell
    completion use the registry's one line (`Game.commands_help`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_game_commands()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        game = _game_commands().get(cmd_name)
        return game.command_group() if game is not None else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = self._summaries(formatter.width)
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        items = [
            CompletionItem(name, help=summary)
            for name, summary in self._summaries(80)
            if name.startswith(incomplete)
        ]
        # The group's options (click.Command's part), without importing every game's commands.
        return items + click.Command.shell_complete(self, ctx, incomplete)

    def _summaries(self, width: int) -> list[tuple[str, str]]:
        """(name, one line) for every command, as click would show it, importing no game."""
        limit = width - 6 - max(len(name) for name in [*self.commands, *_game_commands()])
        rows = {
            name: command.get_short_help_str(limit)
            for name, command in self.commands.items()
            if not command.hidden
        }
        for name, game in _game_commands().items():
            # A stand-in command carrying the registry's line, shortened exactly as click would.
            rows[name] = click.Command(name, help=game.commands_help).get_short_help_str(limit)
        return sorted(rows.items())


def _game_commands() -> dict[str, Game]:
    return {game.name: game for game in all_games() if game.commands is not None}


@click.group(cls=PrintgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="printgen")
def cli() -> None:
    """printgen: print-ready PDFs for tabletop games, and referees that score the sheets.

    \b
    Examples:
      printgen list                         every material, one line each
      printgen build war-card               the War rules card (A4) into output/
      printgen build all --paper letter     everything, on US Letter
      printgen score game.toml              score a typed-in sheet
      printgen score photo.jpg              read and score a photo of a One Page War sheet
      printgen serve --lan                  score from a phone at the table
      printgen war play --seed 7            a game's own commands: printgen GAME --help
    """


@cli.command("list")
def list_materials() -> None:
    """Show every material printgen can build, with a one-line description."""
    materials = all_materials()
    width = max(len(m.name) for m in materials)
    for material in materials:
        echo(f"{material.name:<{width}}  {material.description}")


def _complete_material(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    names = [(m.name, m.description) for m in all_materials()] + [("all", "every material")]
    return [CompletionItem(name, help=text) for name, text in names if name.startswith(incomplete)]


def _complete_game(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    return [
        CompletionItem(game.name, help=game.title)
        for game in all_games()
        if game.layout is not None and game.name.startswith(incomplete)
    ]


@cli.command()
@click.argument("names", nargs=-1, required=True, shell_complete=_complete_material)
@click.option(
    "--paper",
    type=click.Choice([p.value for p in Paper]),
    default="a4",
    show_default=True,
    help="Paper size; A3 only where a material offers it.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=OUTPUT_DIR,
    show_default="output/",
    help="Folder the PDFs are written to.",
)
@click.option(
    "--rules",
    type=click.Path(dir_okay=False, path_type=Path),
    help="(card) The rules-text source to print, a Markdown file in seeds/.",
)
@click.option("--panels", type=int, help="(cards) Number of panels (even for --fold double).")
@click.option(
    "--fold",
    type=click.Choice(["accordion", "double"]),
    help="(cards) One row of panels, or two folded in half; default: the smaller that fits.",
)
@click.option("--large-print", is_flag=True, help="(cards) Larger panels, body text 11 pt or more.")
@click.option(
    "--copies",
    type=int,
    default=1,
    show_default=True,
    help="Sheets in one PDF, each with its own id.",
)
@click.option(
    "--pairs",
    type=int,
    default=2,
    show_default=True,
    help="(team pack) Pairs of opponents, 2 to 6.",
)
@click.option("--layout", default="standard", show_default=True, help="Layout data to draw from.")
@click.option(
    "--batch",
    default="",
    help="(One Page War) Name this print run, e.g. a date: its sheet ids differ from other runs'.",
)
def build(
    names: tuple[str, ...],
    paper: str,
    out: Path,
    rules: Path | None,
    panels: int | None,
    fold: str | None,
    large_print: bool,
    copies: int,
    pairs: int,
    layout: str,
    batch: str,
) -> None:
    """Build materials into PDFs. NAMES are from `printgen list`, or `all`.

    \b
    Examples:
      printgen build war-card --paper letter
      printgen build card --rules seeds/war.md --fold double --large-print
      printgen build one-page-war --copies 40
    """
    known = {m.name: m for m in all_materials()}
    if "all" in names:
        chosen = [m for m in known.values() if m.standalone]
    else:
        unknown = [n for n in names if n not in known]
        if unknown:
            names_given = ", ".join(map(quote, unknown))
            fail(f"unknown material {names_given}; known: {', '.join(known)}")
        chosen = [known[n] for n in dict.fromkeys(names)]
    options = BuildOptions(
        paper=Paper(paper),
        rules=rules,
        panels=panels,
        large_print=large_print,
        fold=fold,
        copies=copies,
        pairs=pairs,
        layout=layout,
        batch=batch,
    )
    given = _options_given(click.get_current_context())
    for material in chosen:
        _check_options(material, options, given, building_all="all" in names)
    try:
        check_output_folder(out)
    except PrintgenError as error:
        fail(f"--out {error} (it names the folder the PDFs are written to)")
    _load_code(chosen)
    if len(chosen) == 1:
        try:
            _report(_build_one(chosen[0], options, out, show_progress=True))
        except PrintgenError as error:
            fail(f"{chosen[0].name}: {error}")
        return
    written: list[Path | None] = []
    failed = ""
    with click.progressbar(chosen, label="Building", file=sys.stderr, item_show_func=_name) as bar:
        for material in bar:
            try:
                written.append(_build_one(material, options, out, show_progress=False))
            except PrintgenError as error:
                failed = f"{material.name}: {error}"
                break
    # Listed after the bar, so the lines do not tear through it on a terminal; and before a
    # failure, so what was written before it is known.
    for target in written:
        _report(target)
    other_paper = [m.name for m, target in zip(chosen, written, strict=False) if target is None]
    if other_paper:
        # Said, not passed over in silence: `build all --paper a3` had written one file.
        echo(
            f"not printed on {options.paper.value}, so not built: {', '.join(other_paper)}",
            err=True,
        )
    if failed:
        fail(failed)


def _load_code(materials: list[Material]) -> None:
    """Import the materials' code, then take everything loaded so far (modules, classes, the
    registry) out of the garbage collector's sweeps: it all lives until the process ends, and
    sweeping it again and again, and once more at exit, was a seventh of `build war-card`
    (bench/bench_build.py). Once a process: one that builds again (the tests, through
    CliRunner) goes on collecting what it makes."""
    for material in materials:
        load(material.builder)
    _freeze_once()


@cache
def _freeze_once() -> None:
    gc.freeze()


def _report(target: Path | None) -> None:
    if target is not None:
        echo(f"wrote {target}")


def _name(material: Material | None) -> str:
    return material.name if material is not None else ""


def _options_given(ctx: click.Context) -> set[str]:
    return {
        name
        for name in OPTION_NAMES
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    }


def _check_options(
    material: Material, options: BuildOptions, given: set[str], building_all: bool
) -> None:
    if options.paper not in material.papers:
        if building_all:
            return
        papers = ", ".join(p.value for p in material.papers)
        raise click.UsageError(f"{material.name} is printed on {papers}, not {options.paper.value}")
    refused = given - material.accepts
    if refused and not building_all:
        flags = ", ".join("--" + name.replace("_", "-") for name in sorted(refused))
        raise click.UsageError(f"{material.name} does not take {flags}")


def _build_one(
    material: Material, options: BuildOptions, out: Path, show_progress: bool
) -> Path | None:
    """Build one material into its file under `out` (None on a paper it is not printed on); a
    PrintgenError says why it could not."""
    if options.paper not in material.papers:
        return None
    target = out / material.file_name(options)
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []  # click.progressbar, once opened

        def progress(now: int, total: int) -> None:
            # The bar appears with the first sheet drawn, so an option refused first (too
            # many copies) leaves no label behind.
            if not bars:
                bar = click.progressbar(length=total, label=material.name, file=sys.stderr)
                bars.append(stack.enter_context(bar))
            bars[0].update(now - bars[0].pos)

        data = material.build(options, progress if show_progress and options.copies > 1 else None)
    write_atomic(target, data)
    return target


@cli.command()
@click.argument("game", shell_complete=_complete_game)
@click.option("--layout", "layout_name", default="standard", show_default=True)
@click.option(
    "--paper", type=click.Choice([p.value for p in Paper]), default="a4", show_default=True
)
@click.option("--json", "as_json", is_flag=True, help="Print the geometry as JSON (the default).")
def layout(game: str, layout_name: str, paper: str, as_json: bool) -> None:
    """Print a game sheet's geometry in millimetres: every element, as drawn and as read back."""
    found = game_named(game)
    if found is None or found.layout is None:
        names = ", ".join(g.name for g in all_games() if g.layout is not None)
        fail(f"no layout for {quote(game)}; games with layouts: {names or 'none yet'}")
    if Paper(paper) not in found.papers:
        papers = ", ".join(p.value for p in found.papers)
        raise click.UsageError(f"{found.name} is printed on {papers}, not {paper}")
    try:
        data = found.layout_data()(layout_name, Paper(paper))
    except PrintgenError as error:
        fail(str(error))
    echo_json(data)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print results as JSON.")
@click.option("--partial", is_flag=True, help="Score an unfinished sheet: the standing so far.")
@click.option(
    "--annotate",
    type=click.Path(path_type=Path),
    help="(one photo) Write the rectified sheet with each reading drawn on it to this PNG.",
)
@click.option(
    "--players",
    help='(photos) The players\' names, near edge first: "Ann,Ben" (a solo sheet: "Ann"), '
    "instead of First and Second.",
)
@click.option(
    "--team",
    "team_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="(photos) Score the photos of a team pack's sheets as one team game; the TOML file "
    "names the teams and, optionally, who sat at which sheet id.",
)
@click.option(
    "--teams",
    help='(photos) The same with the teams given here: "Ann,Cid vs Ben,Dee" (the first team '
    "at the near edge; sheet k of the pack is each team's k-th player).",
)
@click.option(
    "--csv",
    "as_csv",
    is_flag=True,
    help="(photos) Print the print run's summary (one row per sheet) as CSV.",
)
def score(
    paths: tuple[Path, ...],
    as_json: bool,
    partial: bool,
    annotate: Path | None,
    players: str | None,
    team_file: Path | None,
    teams: str | None,
    as_csv: bool,
) -> None:
    """Score typed-in sheets (TOML or JSON) or photos of sheets (JPEG, PNG, WebP) or scans
    (PDF, TIFF: each page a sheet, blank pages passed over); `-` reads a typed-in sheet from
    standard input.

    The file's `game` key picks the referee. Several files, or a folder, are each scored, with a
    summary line (or an error) per file; several photos alone, or a scan of several pages, give
    a print run's summary, one row per sheet, read on every core. Exit codes: 0 final, 1 bad
    input (in any of the files; a refused photo), 3 provisional (unsure cells or --partial).

    \b
    Examples:
      printgen score duel.toml
      printgen score --json results/
      printgen score photo.jpg --annotate checked.png --players "Ann,Ben"
      printgen score photos/ --csv > run.csv
      printgen score --teams "Ann,Cid vs Ben,Dee" sheet1.jpg sheet2.jpg
      printgen score --teams "Ann,Cid vs Ben,Dee" pack.pdf
      cat duel.toml | printgen score -
    """
    try:
        files = _expand(paths)
    except InputError as error:
        fail(str(error))
    photos = [f for f in files if _is_photo(f)]
    sheets = _sheets_in(photos)
    if annotate is not None:
        _check_annotate(annotate, files, len(sheets))
    if photos:
        _keep_freed_memory()
    if team_file is not None or teams is not None or as_csv or len(sheets) > 1:
        if len(photos) != len(files):
            raise click.UsageError(
                "--team, --teams, --csv and batches of photos take photos only; score "
                "typed-in sheets on their own"
            )
        from printgen.games.one_page_war.reader.batch_cli import score_photos

        sys.exit(score_photos(sheets, partial, players, team_file, teams, as_json, as_csv))
    names = _player_names(players) if players is not None else None
    outcomes: list[tuple[Path, ScoreReport | PrintgenError]] = []
    for path in files:
        try:
            outcomes.append((path, _score_file(path, partial, annotate, names)))
        except PrintgenError as error:
            outcomes.append((path, error))
    if as_json:
        _print_json(outcomes)
    else:
        _print_text(outcomes)
    sys.exit(max(EXIT_ERROR if isinstance(o, PrintgenError) else o.exit_code for _, o in outcomes))


def _expand(paths: tuple[Path, ...]) -> list[Path]:
    """The files to score: each path given, and a folder's sheets and photos: by name, or by
    their first bytes (a photo saved with no extension). What a folder holds besides is passed
    over by name on standard error (hidden files in silence), so that nothing is left unsaid."""
    files: list[Path] = []
    for path in paths:
        if path != STDIN and path.is_dir():
            try:
                listed = sorted(path.iterdir())
            except OSError as error:
                raise InputError(f"{path}: cannot list the folder ({error.strerror})") from None
            keys = _answer_keys(listed)
            found = [p for p in listed if p not in keys and _to_score(p)]
            passed = [p.name for p in listed if p not in keys and p not in found]
            if not found:  # beside other paths too: a folder given is meant to hold sheets
                raise InputError(
                    f"no typed-in sheets (.toml, .json), photos (JPEG, PNG, WebP, HEIC, AVIF) "
                    f"or scans (PDF, TIFF) in {path}"
                )
            shown = [n for n in passed if not n.startswith(".")]
            if shown:
                echo(
                    f"{path}: passed over what is no sheet, photo or scan: {', '.join(shown)}",
                    err=True,
                )
            files += found
        else:
            files.append(path)
    return files


def _to_score(path: Path) -> bool:
    """Whether a folder's file is scored: a sheet by name, or a photo as `_is_photo` knows one
    (by name, or by its first bytes for a file that is not hidden)."""
    if path.suffix.lower() in SHEET_SUFFIXES | IMAGE_SUFFIXES:
        return True
    return not path.name.startswith(".") and _is_photo(path)


def _answer_keys(listed: list[Path]) -> set[Path]:
    """The answer keys among a folder's files: `printgen one-page-war answer-key` writes one
    beside its photo, under the photo's name, a cell's reading for each of its cells and no
    `game` as a typed-in sheet has. Scored as sheets, they had stopped a folder of photos with
    "batches of photos take photos only"."""
    import json

    photos = {p.stem for p in listed if p.suffix.lower() in IMAGE_SUFFIXES}
    keys = set()
    for path in listed:
        if path.suffix.lower() != ".json" or path.stem not in photos:
            continue
        try:
            data = json.loads(read_input(path))
        except (InputError, ValueError):
            continue  # no answer key: scored as a sheet, which says what is wrong with it
        if isinstance(data, dict) and "game" not in data:
            keys.add(path)
    return keys


def _sheets_in(photos: list[Path]) -> list[Path | ScanPage]:
    """The photos to read: each page of a scan of several (a team pack scanned in one go)."""
    if not photos:
        return []
    from printgen.games.one_page_war.reader.photo import sheets_in

    return [sheet for photo in photos for sheet in sheets_in(photo)]


def _check_annotate(annotate: Path, files: list[Path], sheets: int) -> None:
    if len(files) > 1:
        raise click.UsageError(f"--annotate draws one photo, but {len(files)} files were given")
    if sheets > 1:
        raise click.UsageError(f"--annotate draws one photo, but {files[0]} holds {sheets} pages")
    if not _is_photo(files[0]):
        raise click.UsageError(f"--annotate applies to photos only; {files[0]} is a typed-in sheet")
    try:
        check_output(annotate, inputs=files)
    except PrintgenError as error:
        fail(f"--annotate {error}")


def _score_file(
    path: Path, partial: bool, annotate: Path | None, players: tuple[str, ...] | None = None
) -> ScoreReport:
    # Imported here: `printgen --help` and `printgen build` need no parser of sheets.
    from printgen.scoring import load_document, read_photo, score_document

    if _is_photo(path):
        check_regular_file(path)
        options = PhotoOptions(annotate=annotate, partial=partial, players=players)
        return read_photo(path, options)
    return score_document(load_document(path), input_name(path), partial)


def _error_line(path: Path, error: PrintgenError) -> str:
    where = "" if input_name(path) in str(error) else f"{input_name(path)}: "
    return f"{where}error: {error}"


def _print_text(outcomes: list[tuple[Path, ScoreReport | PrintgenError]]) -> None:
    for path, outcome in outcomes:
        if isinstance(outcome, PrintgenError):
            echo(_error_line(path, outcome), err=True)
        elif len(outcomes) == 1:
            echo(outcome.to_text())
        else:
            echo(f"{path}: {outcome.summary()}")


def _print_json(outcomes: list[tuple[Path, ScoreReport | PrintgenError]]) -> None:
    """One file: its report (or {file, error}); several: a list, each entry naming its file.
    Errors also go to stderr, for the person watching."""
    entries: list[dict[str, Any]] = []
    for path, outcome in outcomes:
        if isinstance(outcome, PrintgenError):
            echo(_error_line(path, outcome), err=True)
            entries.append({"file": str(path), "error": str(outcome)})
        elif len(outcomes) == 1:
            entries.append(outcome.to_json())
        else:
            entries.append({"file": str(path), **outcome.to_json()})
    echo_json(entries[0] if len(outcomes) == 1 else entries)


@cli.command()
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--lan",
    is_flag=True,
    help="Listen on this machine's network address, for phones; the URL then carries a "
    "random access token, shown as a QR code.",
)
def serve(port: int, lan: bool) -> None:
    """Start a small web app to score sheets from a phone: a photo of a One Page War sheet, any
    typed-in sheet, and the printable PDFs. Listens on 127.0.0.1 unless --lan."""
    from printgen.web.serve import serve as start

    try:
        # click.echo, not the escaping echo: the QR code is drawn with terminal colours.
        start(port=port, lan=lan, echo=click.echo)
    except PrintgenError as error:
        fail(str(error))


def _is_photo(path: Path) -> bool:
    """A photo by its name, or an image or PDF whatever its name (the photo reader then says
    what it is and what it takes)."""
    if path == STDIN:
        return False
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return True
    if path.suffix.lower() in SHEET_SUFFIXES:
        return False
    from printgen.games.one_page_war.reader.photo import file_kind

    return file_kind(path) is not None


def _player_names(text: str) -> tuple[str, ...]:
    from printgen.games.one_page_war.reader.batch import player_names

    try:
        return player_names(text)
    except PrintgenError as error:
        fail(str(error))
        raise  # not reached: fail() exits


def main() -> None:
    try:
        try:
            cli(prog_name="printgen")
        finally:
            if sys.stdout is not None:  # None where the shell closed it (`>&-`)
                sys.stdout.flush()  # here, where a full disk can still be reported in one line
    except OSError as error:
        # Files printgen opens name themselves in their errors (`error.filename`); one without
        # a name is the output itself: a full disk, a closed pipe, a device that refuses it.
        if error.filename is not None:
            raise
        # What is still buffered for the output would fail again as Python exits.
        if sys.stdout is not None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"error: could not write the output: {error.strerror or error}", file=sys.stderr)
        sys.exit(EXIT_ERROR)
