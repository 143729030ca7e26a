"""`printgen one-page-war ...`: the solo AI's turn on a typed-in sheet."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from printgen.console import echo, echo_json, fail
from printgen.errors import OutputError, PrintgenError
from printgen.files import STDIN, check_output, input_name, read_input, write_text_atomic
from printgen.games.one_page_war.sheet import Sheet, parse_sheet
from printgen.games.one_page_war.solo_ai import DIE_FACES, AiTurn, ai_turn
from printgen.scoring import parse_document


@click.group("one-page-war")
def commands() -> None:
    """One Page War: the solo AI's turn on a typed-in sheet; a photo's answer key.

    `ai-turn` plays the solo AI's move; `answer-key` writes what a photographed sheet holds,
    for the photo reader to learn from."""


@commands.command("ai-turn")
@click.argument("sheet_path", metavar="SHEET", type=click.Path(path_type=Path))
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
@click.option(
    "--write",
    is_flag=True,
    help="Update SHEET in place with the AI's move (a link's target; comments are kept).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the AI's move as JSON.")
def ai_turn_command(
    sheet_path: Path, die: int, human_arena: str, write: bool, as_json: bool
) -> None:
    """Say what the solo AI does this turn: the number it writes and where, the power box it
    ticks and, at its first tick in an arena, which of its numbers becomes a star. SHEET may be
    - (standard input) when not writing.

    \b
    Examples:
      printgen one-page-war ai-turn solo.toml --die 4 --human-arena Land
      printgen one-page-war ai-turn solo.toml --die 6 --human-arena Sea --write
    """
    source = input_name(sheet_path)
    try:
        if write and sheet_path == STDIN:
            raise OutputError("--write needs the sheet's file, not standard input")
        text = read_input(sheet_path)
        as_json_file = sheet_path.suffix.lower() == ".json"
        document = parse_document(text, source, as_json=as_json_file)
        parsed = parse_sheet(document, source)
        if not isinstance(parsed, Sheet):
            raise PrintgenError(f"{source}: a team game has no AI; use a solo sheet")
        turn = ai_turn(parsed, die, human_arena)
        if write:
            played = _played(turn, parsed, document, text, as_json_file, source)
            write_text_atomic(sheet_path, played)
    except PrintgenError as error:
        fail(str(error))
    if as_json:
        data = turn.to_json()
        if write:
            data["written"] = str(sheet_path)
        echo_json(data)
        return
    echo(turn.to_text())
    if write:
        echo(f"wrote {sheet_path}")


def _played(
    turn: AiTurn, sheet: Sheet, given: Mapping[str, Any], text: str, as_json: bool, source: str
) -> str:
    """The sheet's text after the AI's turn. TOML is edited in place (comments, order and the
    rest of the layout kept); JSON, which has no comments, is written afresh. Returned only once
    it reads back as exactly the sheet after the turn."""
    after = turn.apply(sheet)
    if as_json:
        written = after.to_json_text()
        read_back = json.loads(written)
    else:
        import tomlkit

        from printgen.tomldoc import update

        document = tomlkit.parse(text)
        update(document["arenas"], given["arenas"], after.to_mapping()["arenas"])
        written = tomlkit.dumps(document)
        read_back = tomllib.loads(written)
    if parse_sheet(read_back, source) != after:
        raise PrintgenError(f"{source}: the sheet after the AI's turn did not read back the same")
    return written


@commands.command("answer-key")
@click.argument("photo_path", metavar="PHOTO", type=click.Path(path_type=Path))
@click.argument("sheet_path", metavar="SHEET", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--out",
    type=click.Path(path_type=Path),
    help="Where to write it. Default: beside PHOTO, with its name and .json, where the "
    "trainer looks for it.",
)
@click.option("--force", is_flag=True, help="Replace an answer key that is already there.")
def answer_key_command(photo_path: Path, sheet_path: Path, out: Path | None, force: bool) -> None:
    """Write PHOTO's answer key: what each square and S space of the photographed sheet holds,
    as SHEET says. SHEET is the typed-in sheet (TOML or JSON), checked cell by cell against the
    paper. Start from the TOML that `printgen score PHOTO` prints, or that `printgen serve`
    offers once a photo is read. Check every cell, not only the ones marked UNSURE.

    A folder of photos, each with its answer key, is what the photo reader learns real
    handwriting from (`python -m training.train_digits --train-dir FOLDER`) and is calibrated
    on (`--calibration-dir` with another folder). See docs/reader.md, "Real photos".

    \b
    Examples:
      printgen one-page-war answer-key IMG_0412.jpg IMG_0412.toml
      printgen one-page-war answer-key IMG_0412.jpg checked.toml -o keys/IMG_0412.json
    """
    from printgen.games.one_page_war.reader.truth import answer_key

    target = out or photo_path.with_suffix(".json")
    try:
        if sheet_path == STDIN:
            raise PrintgenError("SHEET must be a file here, not standard input")
        check_output(target, (photo_path, sheet_path))
        if target.exists() and not force:
            raise OutputError(f"{target}: an answer key is already there; --force replaces it")
        source = input_name(sheet_path)
        text = read_input(sheet_path)
        document = parse_document(text, source, as_json=sheet_path.suffix.lower() == ".json")
        parsed = parse_sheet(document, source)
        if not isinstance(parsed, Sheet):
            raise PrintgenError(f"{source}: a team game; answer keys are made one sheet at a time")
        key = answer_key(photo_path, parsed)
        write_text_atomic(target, json.dumps(key, indent=1, ensure_ascii=False) + "\n")
    except PrintgenError as error:
        fail(str(error))
    squares = sum(1 for k in key if k.startswith("square/"))
    echo(f"wrote {target}: {squares} squares and {len(key) - squares} S spaces")
