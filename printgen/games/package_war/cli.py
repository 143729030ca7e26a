"""`printgen package-war ...`: replaying a whole game from its log."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from printgen.console import echo, echo_json, fail
from printgen.errors import PrintgenError


@click.group("package-war")
def commands() -> None:
    """Package War!: replay and check a game from its log."""


@commands.command("play")
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the rounds and result as JSON.")
def play(log: Path, as_json: bool) -> None:
    """Replay a whole game from LOG (TOML: the roll-off, every die rolled, every decision; - reads
    it from standard input),
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
        fail(str(error))
    if as_json:
        echo_json(report.to_json())
    else:
        echo(report.to_text())
    sys.exit(report.exit_code)
