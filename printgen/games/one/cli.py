"""`printgen one ...`: the ONE referee's own commands."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from printgen.console import EXIT_ERROR, echo, echo_data, echo_json, fail
from printgen.errors import PrintgenError
from printgen.games.one.engine import IllegalMove, Point, verify_capture
from printgen.games.one.layout import load_layout
from printgen.games.one.referee import capture_report, read_position

# What is typed after --path: the first word always (even "4.3", so that its error says what a
# coordinate is), then every word that is digits and separators ("4,5", "-1,5", a typo such as
# "4.5"), split at spaces where the path was quoted whole ("4,3 4,5").
_LANDINGS = re.compile(r"^(?=.*\d)[-\d\s,.;:]+$")


class GreedyPathCommand(click.Command):
    """Lets `--path 2,5 4,5 4,7` take every coordinate that follows it.

    Click options take a fixed number of values, so the arguments are rewritten to
    `--path 2,5 --path 4,5 --path 4,7` before click reads them."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rewritten: list[str] = []
        taken: int | None = None  # words taken since --path; None outside it
        for arg in args:
            if arg == "--path":
                taken = 0
                continue
            if taken is not None and (taken == 0 or _LANDINGS.match(arg)):
                for landing in arg.split() or [arg]:
                    rewritten += ["--path", landing]
                taken += 1
                continue
            taken = None
            rewritten.append(arg)
        if taken == 0:  # --path last, with nothing after it: click says it needs a value
            rewritten.append("--path")
        return super().parse_args(ctx, rewritten)


@click.group(name="one")
def one() -> None:
    """ONE: check a capture on a typed-in position (score one with `printgen score FILE`)."""


@one.command("check-capture", cls=GreedyPathCommand)
@click.argument("position_file", type=click.Path(path_type=Path))
@click.option("--from", "start", required=True, help="The capturing stone, RING,SPOKE.")
@click.option(
    "--path",
    "path",
    multiple=True,
    required=True,
    help="Each landing in turn, RING,SPOKE RING,SPOKE ...",
)
@click.option("--player", help="Whose capture this is; the stone at --from must be theirs.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def check_capture(
    position_file: Path, start: str, path: tuple[str, ...], player: str | None, as_json: bool
) -> None:
    """Check a capture move on POSITION_FILE: print the stones removed and the new position.

    Each jump goes over an adjacent opponent stone, along a ring or a spoke, to the empty
    intersection directly beyond it; jumps may chain. Exit 0 legal, 1 illegal or bad input.

    \b
    Example:
      printgen one check-capture game.toml --from 2,3 --path 2,5 4,5
    """
    from printgen.scoring import load_document

    try:
        position = read_position(load_document(position_file), str(position_file), load_layout())
        origin = Point.from_text(start)
        landings = [Point.from_text(p) for p in path]
        capture = verify_capture(position, origin, landings, player)
    except IllegalMove as error:
        if as_json:
            echo_json({"game": "one", "legal": False, "reason": str(error)})
        echo(f"illegal capture: {error}", err=True)
        sys.exit(EXIT_ERROR)
    except PrintgenError as error:
        fail(str(error))
    if as_json:
        echo_json(capture_report(capture))
        return
    removed = ", ".join(f"[{p.ring}, {p.spoke}] ({owner})" for p, owner in capture.removed)
    echo(f"legal: {capture.player} captures from [{origin.ring}, {origin.spoke}]")
    for number, jump in enumerate(capture.jumps, start=1):
        echo(f"  jump {number}: {jump.to_text()}")
    echo(f"removed: {removed}")
    echo(f"{capture.player} has now captured {capture.after.captured[capture.player]}")
    echo()
    echo("# the new position")
    echo_data(capture.after.to_toml(), nl=False)
