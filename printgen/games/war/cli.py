"""`printgen war play` and `printgen war simulate`: options in, engine out, errors to exit codes."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import click

from printgen.console import echo, echo_json, fail
from printgen.errors import PrintgenError
from printgen.files import input_name, read_input
from printgen.games.war.engine import Deck, GameKind, play_deck

GAMES = ("short", "full")
# About 20 minutes on two cores (docs/war-simulation.md): far past any figure the card needs,
# and the work list stays small in memory.
MAX_GAMES = 10_000_000


@click.group("war")
def war() -> None:
    """Play War exactly as the War card says, or simulate many deals.

    \b
    Examples:
      printgen war play --seed 7 --game full --verbose
      printgen war play --deck my-deal.txt --game short --json
      printgen war simulate --games 100000 --game full --seed 1 --jobs 2 --plot lengths.png
    """


@war.command()
@click.option(
    "--deck",
    "deck_path",
    type=click.Path(path_type=Path),
    help="A file of the 52 cards in deal order (10H AS 2c ...), by spaces or new lines; "
    "- reads them from standard input.",
)
@click.option("--seed", type=int, help="Shuffle the deck with this seed instead (reproducible).")
@click.option("--game", type=click.Choice(GAMES), default="full", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="Print every battle (to stderr with --json).")
def play(deck_path: Path | None, seed: int | None, game: str, as_json: bool, verbose: bool) -> None:
    """Deal one deck and play it to the end: the first card goes to A, the next to B, and so on.

    Exit codes: 0 played, 1 a bad deck file, 2 a usage error.
    """
    if (deck_path is None) == (seed is None):
        raise click.UsageError("give either --deck FILE or --seed N (exactly one)")
    try:
        deck = Deck.shuffled(seed) if seed is not None else _read_deck(deck_path)
    except PrintgenError as error:
        fail(str(error))
    played = play_deck(deck, GameKind(game))
    result = played.result()
    if verbose:
        for record in played.records:
            echo(record.to_text(), err=as_json)
    if as_json:
        echo_json(result.to_json())
    else:
        echo(result.to_text())


def _read_deck(path: Path | None) -> Deck:
    assert path is not None  # play() checked that one of --deck and --seed was given
    return Deck.from_text(read_input(path), source=input_name(path))


@war.command()
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=10_000,
    show_default=True,
    help=f"Deals to play, 1 to {MAX_GAMES:,} (100,000 take about 12 s with --jobs 2).",
)
@click.option("--game", type=click.Choice(GAMES), default="full", show_default=True)
@click.option(
    "--seed",
    type=int,
    help="Game i is played on the deck of `war play --seed SEED+i`; random when not given.",
)
@click.option(
    "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Processes to use."
)
@click.option(
    "--plot",
    type=click.Path(path_type=Path),
    help="Also draw the distribution of game lengths into this PNG file (written whole or "
    "not at all).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def simulate(
    games: int, game: str, seed: int | None, jobs: int, plot: Path | None, as_json: bool
) -> None:
    """Play many shuffled deals and print the figures: wins, draws, capped games, lengths.

    The figures depend only on --games, --game and --seed, never on --jobs.
    """
    from printgen.games.war.simulate import check_plot_path, write_plot
    from printgen.games.war.simulate import simulate as run

    if seed is None:
        # A fresh seed, said aloud so the run can be repeated.
        seed = random.SystemRandom().randrange(1_000_000_000)
        echo(f"seed {seed} (give --seed {seed} to repeat this run)", err=True)
    try:
        if plot is not None:
            check_plot_path(plot)
        with click.progressbar(length=games, label="Playing", file=sys.stderr) as bar:
            simulation = run(games, GameKind(game), seed, jobs, progress=bar.update)
        if plot is not None:
            write_plot(simulation, plot)
    except PrintgenError as error:
        fail(str(error))
    if as_json:
        echo_json(simulation.to_json())
    else:
        echo(simulation.to_text())
    if plot is not None:
        echo(f"wrote {plot}", err=as_json)
