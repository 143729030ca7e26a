"""`printgen package-war ...`: replaying a whole game from its log."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from printgen.errors import PrintgenError

EXIT_ERROR = 1


@click.group("package-war")
def commands() -> None:
    """Package War!: replay and check a game from its log."""


@commands.command("play")
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the rounds and result as JSON.")
def play(log: Path, as_json: bool) -> None:
    """Replay a whole game from LOG (TOML: the roll-off, every die rolled, every decision),
    applying every rule, and print each move and each round's scores.

    Exit codes: 0 the game ended; 1 a malformed log or an illegal move (named by its number);
    3 the log stops before the game's end (the standing so far). The format is described in
    docs/package-war-log.md.

    \b
    Example:
      printgen package-war play examples/package-war/game.toml
    """
    from printgen.games.package_war.log import play_log, read_log

    try:
        report = play_log(read_log(log))
    except PrintgenError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(EXIT_ERROR)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(report.to_text())
    sys.exit(report.exit_code)
