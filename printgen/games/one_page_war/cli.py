"""`printgen one-page-war ...`: the solo AI's turn on a typed-in sheet."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from printgen.errors import PrintgenError
from printgen.files import write_text_atomic
from printgen.games.one_page_war.sheet import Sheet, parse_sheet
from printgen.games.one_page_war.solo_ai import DIE_FACES, ai_turn

EXIT_ERROR = 1


@click.group("one-page-war")
def commands() -> None:
    """One Page War: play the solo AI's turn on a typed-in sheet."""


@commands.command("ai-turn")
@click.argument("sheet_path", metavar="SHEET", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--die",
    type=click.IntRange(DIE_FACES.start, DIE_FACES.stop - 1),
    required=True,
    help="The number the die shows this turn (the AI writes one more).",
)
@click.option(
    "--human-arena",
    required=True,
    help="The arena the human just wrote in (the AI avoids it while others have room).",
)
@click.option("--write", is_flag=True, help="Update SHEET in place with the AI's move.")
@click.option("--json", "as_json", is_flag=True, help="Print the AI's move as JSON.")
def ai_turn_command(
    sheet_path: Path, die: int, human_arena: str, write: bool, as_json: bool
) -> None:
    """Say what the solo AI does this turn: the number it writes and where, the power box it
    ticks and, at its first tick in an arena, which of its numbers becomes a star.

    \b
    Examples:
      printgen one-page-war ai-turn solo.toml --die 4 --human-arena Land
      printgen one-page-war ai-turn solo.toml --die 6 --human-arena Sea --write
    """
    from printgen.scoring import load_document

    try:
        parsed = parse_sheet(load_document(sheet_path), str(sheet_path))
        if not isinstance(parsed, Sheet):
            raise PrintgenError(f"{sheet_path}: a team game has no AI; use a solo sheet")
        turn = ai_turn(parsed, die, human_arena)
        if write:
            after = turn.apply(parsed)
            # Written back only once it reads back as a valid sheet.
            text = after.to_json_text() if sheet_path.suffix.lower() == ".json" else after.to_toml()
            parse_sheet(after.to_mapping(), str(sheet_path))
            write_text_atomic(sheet_path, text)
    except PrintgenError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(EXIT_ERROR)
    if as_json:
        data = turn.to_json()
        if write:
            data["written"] = str(sheet_path)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo(turn.to_text())
    if write:
        click.echo(f"wrote {sheet_path}")
