"""The command line's side of batch.py (`printgen score` with several photos, `--team`,
`--teams` or `--csv`): a progress bar on stderr while the photos are read, each refused photo
listed with its reason, then the team result or the print run's summary."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from printgen.errors import PrintgenError
from printgen.games.one_page_war.reader.batch import (
    EXIT_REFUSED,
    Photo,
    PhotoResult,
    PrintRun,
    Seating,
    player_names,
    read_photos,
    team_result,
)
from printgen.materials import PhotoOptions


def score_photos(
    photos: list[Photo],
    partial: bool,
    players: str | None,
    team_file: Path | None,
    teams: str | None,
    as_json: bool,
    as_csv: bool,
) -> int:
    """Read and score the photos; returns the exit code."""
    try:
        seating = _seating(team_file, teams)
        names = player_names(players) if players is not None else None
    except PrintgenError as error:
        click.echo(f"error: {error}", err=True)
        return EXIT_REFUSED
    if seating is not None and names is not None:
        click.echo(
            "error: --players is for single sheets; a team file names a team's players", err=True
        )
        return EXIT_REFUSED
    missing = [p for p in photos if isinstance(p, Path) and not p.is_file()]
    if missing:
        click.echo(f"error: {missing[0]}: no such file", err=True)
        return EXIT_REFUSED
    read = _read_with_progress(photos, PhotoOptions(partial=partial, players=names))
    results = tuple(r for r in read if not r.blank)
    for result in read:
        if result.blank:
            click.echo(f"passed over: {result.error}", err=True)
        elif result.error is not None:
            click.echo(f"refused: {result.error}", err=True)
    if not results:
        click.echo("error: every page is blank: no sheet to read", err=True)
        return EXIT_REFUSED
    if seating is not None:
        return _team(results, seating, partial, as_json)
    run = PrintRun(read)  # its blank pages listed as such
    if as_csv:
        click.echo(run.to_csv(), nl=False)
    elif as_json:
        click.echo(json.dumps(run.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(run.to_text())
        hint = team_pack_hint(results)
        if hint:
            click.echo(hint)
    return run.exit_code


def team_pack_hint(results: tuple[PhotoResult, ...]) -> str | None:
    """What to say of photos scored as a print run that are sheets of one team pack: that
    `--teams` scores them as one team game (the web page does so unasked, seating the near
    sides as one team; on the command line the teams are named)."""
    ids = {i for r in results if r.report is not None and (i := r.report.tag.sheet_id)}
    packs = {sheet_id.rsplit("-", 1)[0] for sheet_id in ids}
    if len(ids) < 2 or len(packs) != 1 or not all(i.startswith("T-") for i in ids):
        return None
    return (
        f"\nThese are sheets of team pack {packs.pop()}: score them as one team game with "
        '--teams "Ann,Cid vs Ben,Dee" (the near players first, in the order of the sheets) '
        "or --team team.toml."
    )


def _seating(team_file: Path | None, teams: str | None) -> Seating | None:
    if team_file is not None and teams is not None:
        raise click.UsageError("give the teams either in a file (--team) or inline (--teams)")
    if teams is not None:
        return Seating.from_text(teams)
    if team_file is not None:
        from printgen.scoring import load_document

        return Seating.from_mapping(load_document(team_file), str(team_file))
    return None


def _read_with_progress(photos: list[Photo], options: PhotoOptions) -> tuple[PhotoResult, ...]:
    if len(photos) == 1:
        return read_photos(photos, options)
    with click.progressbar(length=len(photos), label="Reading photos", file=sys.stderr) as bar:
        done = 0

        def progress(now: int, total: int, path: Photo) -> None:
            nonlocal done
            bar.update(now - done)
            done = now

        return read_photos(photos, options, progress)


def _team(results: tuple[PhotoResult, ...], seating: Seating, partial: bool, as_json: bool) -> int:
    try:
        result = team_result(results, seating, partial)
    except PrintgenError as error:
        click.echo(f"error: {error}", err=True)
        return EXIT_REFUSED
    if as_json:
        payload: dict[str, Any] = result.to_json()
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        click.echo(result.to_text())
    return result.exit_code
