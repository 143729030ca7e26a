"""The command line: thin. It parses options, calls the engines and materials, and turns their
errors into messages and exit codes."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from printgen.errors import InputError, PrintgenError
from printgen.materials import (
    OPTION_NAMES,
    BuildOptions,
    Material,
    PhotoOptions,
    ScoreReport,
)
from printgen.paths import OUTPUT_DIR
from printgen.render.pdf import write_atomic
from printgen.render.units import Paper
from printgen.scoring import load_document, read_photo, score_document

# Exit codes: 0 a final result; 1 bad input or a failed build; 2 a usage error (click's own);
# 3 a provisional result (unsure cells in a photo, or a partial standing).
EXIT_ERROR = 1
EXIT_PROVISIONAL = 3

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif"})
SHEET_SUFFIXES = frozenset({".toml", ".json"})


class PrintgenGroup(click.Group):
    """Adds each game's own subcommands (`printgen war ...`) when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from printgen.games import all_games

        names = set(super().list_commands(ctx))
        names.update(game.name for game in all_games() if game.commands is not None)
        return sorted(names)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        from printgen.games import game_named

        game = game_named(cmd_name)
        return game.commands if game is not None else None


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


def fail(message: str, code: int = EXIT_ERROR) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


@cli.command("list")
def list_materials() -> None:
    """Show every material printgen can build, with a one-line description."""
    from printgen.games import all_materials

    materials = all_materials()
    width = max(len(m.name) for m in materials)
    for material in materials:
        click.echo(f"{material.name:<{width}}  {material.description}")


@cli.command()
@click.argument("names", nargs=-1, required=True)
@click.option(
    "--paper",
    type=click.Choice([p.value for p in Paper]),
    default="a4",
    show_default=True,
    help="Paper size; A3 only where a material offers it.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=OUTPUT_DIR,
    show_default="output/",
    help="Folder the PDFs are written to.",
)
@click.option(
    "--rules",
    type=click.Path(dir_okay=False, path_type=Path),
    help="(card) The rules-text source to print, a Markdown file in seeds/.",
)
@click.option("--panels", type=int, help="(card) Number of accordion panels.")
@click.option("--large-print", is_flag=True, help="(cards) Taller panels, body text 11 pt or more.")
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
      printgen build card --rules seeds/war.md --panels 4 --large-print
      printgen build one-page-war --copies 40
    """
    from printgen.games import all_materials

    known = {m.name: m for m in all_materials()}
    if "all" in names:
        chosen = [m for m in known.values() if m.standalone]
    else:
        unknown = [n for n in names if n not in known]
        if unknown:
            fail(f"unknown material {', '.join(map(repr, unknown))}; known: {', '.join(known)}")
        chosen = [known[n] for n in dict.fromkeys(names)]
    options = BuildOptions(
        paper=Paper(paper),
        rules=rules,
        panels=panels,
        large_print=large_print,
        copies=copies,
        pairs=pairs,
        layout=layout,
        batch=batch,
    )
    given = _options_given(click.get_current_context())
    for material in chosen:
        _check_options(material, options, given, building_all="all" in names)
    if len(chosen) == 1:
        _report(_build_one(chosen[0], options, out, show_progress=True))
        return
    written: list[Path | None] = []
    with click.progressbar(chosen, label="Building", file=sys.stderr, item_show_func=_name) as bar:
        for material in bar:
            written.append(_build_one(material, options, out, show_progress=False))
    # Listed after the bar, so the lines do not tear through it on a terminal.
    for target in written:
        _report(target)


def _report(target: Path | None) -> None:
    if target is not None:
        click.echo(f"wrote {target}")


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
        fail(f"{material.name} is printed on {papers}, not {options.paper.value}")
    refused = given - material.accepts
    if refused and not building_all:
        flags = ", ".join("--" + name.replace("_", "-") for name in sorted(refused))
        fail(f"{material.name} does not take {flags}")


def _build_one(
    material: Material, options: BuildOptions, out: Path, show_progress: bool
) -> Path | None:
    if options.paper not in material.papers:
        return None
    target = out / material.file_name(options)
    try:
        if show_progress and options.copies > 1:
            with click.progressbar(
                length=options.copies, label=f"{material.name}", file=sys.stderr
            ) as bar:
                done = 0

                def progress(now: int, total: int) -> None:
                    nonlocal done
                    bar.update(now - done)
                    done = now

                data = material.build(options, progress)
        else:
            data = material.build(options, None)
    except PrintgenError as error:
        fail(f"{material.name}: {error}")
    write_atomic(target, data)
    return target


@cli.command()
@click.argument("game")
@click.option("--layout", "layout_name", default="standard", show_default=True)
@click.option(
    "--paper", type=click.Choice([p.value for p in Paper]), default="a4", show_default=True
)
@click.option("--json", "as_json", is_flag=True, help="Print the geometry as JSON (the default).")
def layout(game: str, layout_name: str, paper: str, as_json: bool) -> None:
    """Print a game sheet's geometry in millimetres: every element, as drawn and as read back."""
    from printgen.games import all_games, game_named

    found = game_named(game)
    if found is None or found.layout is None:
        names = ", ".join(g.name for g in all_games() if g.layout is not None)
        fail(f"no layout for {game!r}; games with layouts: {names or 'none yet'}")
        return
    try:
        data = found.layout(layout_name, Paper(paper))
    except PrintgenError as error:
        fail(str(error))
        return
    click.echo(json.dumps(data, indent=2))


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print results as JSON.")
@click.option("--partial", is_flag=True, help="Score an unfinished sheet: the standing so far.")
@click.option(
    "--annotate",
    type=click.Path(dir_okay=False, path_type=Path),
    help="(photos) Write the rectified sheet with each reading drawn on it to this PNG.",
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
    """Score typed-in sheets (TOML or JSON) or photos of sheets (JPEG, PNG, WebP).

    The file's `game` key picks the referee. Several files, or a folder, are each scored, with a
    summary line per file; several photos give a print run's summary, one row per sheet, read
    on every core. Exit codes: 0 final, 1 bad input (in a batch: some photo refused), 3
    provisional (unsure cells or --partial).

    \b
    Examples:
      printgen score duel.toml
      printgen score --json results/
      printgen score photo.jpg --annotate checked.png --players "Ann,Ben"
      printgen score photos/ --csv > run.csv
      printgen score --teams "Ann,Cid vs Ben,Dee" sheet1.jpg sheet2.jpg
    """
    files = list(_expand(paths))
    if not files:
        fail(f"no .toml, .json, .jpg, .png or .webp files in {', '.join(map(str, paths))}")
    photos = [f for f in files if f.suffix.lower() in IMAGE_SUFFIXES or _looks_like_image(f)]
    batch = team_file is not None or teams is not None or as_csv or len(photos) > 1
    if batch and len(photos) == len(files):
        from printgen.games.one_page_war.reader.batch_cli import score_photos

        sys.exit(score_photos(photos, partial, players, team_file, teams, as_json, as_csv))
    if team_file is not None or teams is not None or as_csv:
        fail("--team, --teams and --csv take photos only; score typed-in sheets on their own")
    names = _player_names(players) if players is not None else None
    single = len(files) == 1
    results: list[dict[str, Any]] = []
    worst = 0
    for path in files:
        try:
            report = _score_file(path, partial, annotate if single else None, names)
        except PrintgenError as error:
            worst = max(worst, EXIT_ERROR)
            if as_json:
                results.append({"file": str(path), "error": str(error)})
            else:
                where = "" if str(path) in str(error) else f"{path}: "
                click.echo(f"{where}error: {error}", err=True)
            continue
        worst = max(worst, report.exit_code)
        if as_json:
            results.append({"file": str(path), **report.to_json()})
        elif single:
            click.echo(report.to_text())
        else:
            click.echo(f"{path}: {report.summary()}")
    if as_json:
        payload: Any = results[0] if single and "error" not in results[0] else results
        if single and "error" in results[0]:
            click.echo(f"error: {results[0]['error']}", err=True)
        else:
            if single:
                payload = {k: v for k, v in results[0].items() if k != "file"}
            click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    sys.exit(worst)


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
        start(port=port, lan=lan, echo=click.echo)
    except PrintgenError as error:
        fail(str(error))


def _expand(paths: tuple[Path, ...]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(
                p for p in path.iterdir() if p.suffix.lower() in SHEET_SUFFIXES | IMAGE_SUFFIXES
            )
        else:
            yield path


def _score_file(
    path: Path, partial: bool, annotate: Path | None, players: tuple[str, ...] | None = None
) -> ScoreReport:
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.suffix.lower() in IMAGE_SUFFIXES or _looks_like_image(path):
        return read_photo(path, PhotoOptions(annotate=annotate, partial=partial, players=players))
    return score_document(load_document(path), str(path), partial)


def _player_names(text: str) -> tuple[str, ...]:
    from printgen.games.one_page_war.reader.batch import player_names

    try:
        return player_names(text)
    except PrintgenError as error:
        fail(str(error))
        raise  # not reached: fail() exits


def _looks_like_image(path: Path) -> bool:
    """An image or PDF, whatever its name: the photo reader says what it is and what it takes."""
    if path.suffix.lower() in SHEET_SUFFIXES:
        return False
    from printgen.games.one_page_war.reader.photo import file_kind

    return file_kind(path) is not None


def main() -> None:
    cli(prog_name="printgen")
