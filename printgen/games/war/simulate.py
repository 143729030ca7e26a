"""Many shuffled deals of War, played on the fast path, summed up into the card's figures.

Game i of a run with seed S is the deal `Deck.shuffled(S + i)`, so any one game can be replayed
with `printgen war play --seed S+i`, and the figures do not depend on how many jobs shared the
work: each job plays whole runs of consecutive seeds and the runs are put back in order.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from printgen.errors import InputError, OutputError
from printgen.files import check_output, write_atomic
from printgen.games.war.engine import CAP_BATTLES, GameKind
from printgen.games.war.fast import A_WINS, B_WINS, play_seed

# Games per unit of work: big enough that handing it to a process costs little, small enough
# that the progress bar moves and both jobs finish together.
CHUNK_GAMES = 500


@dataclass(frozen=True)
class Chunk:
    """The figures of games first_seed, first_seed + 1, ... (one unit of work)."""

    first_seed: int
    lengths: np.ndarray = field(compare=False, repr=False)  # battles in each game, in seed order
    a_wins: int
    b_wins: int
    capped: int
    taken_back: int
    wars: int
    longest_war_chain: int
    longest_war_seed: int  # the first seed in the chunk whose game had the longest chain


def play_chunk(first_seed: int, games: int, full: bool) -> Chunk:
    lengths = np.empty(games, dtype=np.int32)
    a_wins = b_wins = capped = taken_back = wars = longest = 0
    longest_seed = first_seed
    for i in range(games):
        outcome = play_seed(first_seed + i, full)
        lengths[i] = outcome.battles
        a_wins += outcome.winner == A_WINS
        b_wins += outcome.winner == B_WINS
        capped += outcome.capped
        taken_back += outcome.taken_back
        wars += outcome.wars
        if outcome.longest_war_chain > longest:
            longest, longest_seed = outcome.longest_war_chain, first_seed + i
    return Chunk(
        first_seed, lengths, a_wins, b_wins, capped, taken_back, wars, longest, longest_seed
    )


def _play_chunk_job(job: tuple[int, int, bool]) -> Chunk:
    return play_chunk(*job)


@dataclass(frozen=True)
class Simulation:
    kind: GameKind
    games: int
    seed: int
    a_wins: int
    b_wins: int
    draws: int
    capped: int  # Full games stopped by the cap (always 0 in the Short game)
    taken_back: int  # games ended with neither player able to turn
    wars: int
    median_battles: float
    p95_battles: float
    mean_battles: float
    longest_war_chain: int
    longest_war_seed: int
    lengths: np.ndarray = field(compare=False, repr=False)

    @property
    def capped_share(self) -> float:
        return self.capped / self.games

    @property
    def total_battles(self) -> int:
        return int(self.lengths.sum())

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.kind.value,
            "games": self.games,
            "seeds": [self.seed, self.seed + self.games - 1],
            "wins": {"A": self.a_wins, "B": self.b_wins},
            "draws": self.draws,
            "capped": self.capped if self.kind is GameKind.FULL else None,
            "capped_share": self.capped_share if self.kind is GameKind.FULL else None,
            "taken_back": self.taken_back,
            "battles": {
                "median": self.median_battles,
                "p95": self.p95_battles,
                "mean": self.mean_battles,
                "total": self.total_battles,
            },
            "wars": self.wars,
            "longest_war_chain": {"wars": self.longest_war_chain, "seed": self.longest_war_seed},
        }

    def to_text(self) -> str:
        def share(n: int) -> str:
            return f"{n:>9,}  ({100 * n / self.games:.1f} %)"

        last = self.seed + self.games - 1
        if self.kind is GameKind.FULL:
            capped = f"{share(self.capped)} reached the {CAP_BATTLES}-battle cap"
        else:
            capped = "        -  (the Short game has no cap)"
        replay = f"printgen war play --seed {self.longest_war_seed} --game {self.kind.value} -v"
        return "\n".join(
            [
                f"{self.kind.value.capitalize()} game, {self.games:,} shuffled deals "
                f"(seeds {self.seed} to {last})",
                f"  A wins     {share(self.a_wins)}",
                f"  B wins     {share(self.b_wins)}",
                f"  draws      {share(self.draws)}",
                f"  capped     {capped}",
                f"  taken back {share(self.taken_back)} ended with nobody able to turn",
                f"  battles    median {self.median_battles:g}, 95th percentile "
                f"{self.p95_battles:g}, mean {self.mean_battles:.1f}",
                f"  wars       {self.wars:,} in all; longest chain {self.longest_war_chain} "
                f"in one battle, first at seed {self.longest_war_seed}",
                f"             (replay it: {replay})",
            ]
        )


def simulate(
    games: int,
    kind: GameKind,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Plays seeds seed .. seed + games - 1; `progress` hears how many games each step added."""
    if games < 1:
        raise InputError(f"--games {games}: play at least one game")
    if jobs < 1:
        raise InputError(f"--jobs {jobs}: use at least one job")
    full = kind is GameKind.FULL
    work = [
        (seed + start, min(CHUNK_GAMES, games - start), full)
        for start in range(0, games, CHUNK_GAMES)
    ]
    chunks = []
    for chunk in _run(work, jobs):
        chunks.append(chunk)
        if progress is not None:
            progress(len(chunk.lengths))
    chunks.sort(key=lambda chunk: chunk.first_seed)
    return _summarise(kind, seed, chunks)


def _run(work: list[tuple[int, int, bool]], jobs: int) -> Iterator[Chunk]:
    if jobs == 1 or len(work) == 1:
        yield from map(_play_chunk_job, work)
        return
    # spawn, not fork: the same on every platform, and safe beside threads in the parent.
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(jobs, len(work))) as pool:
        yield from pool.imap_unordered(_play_chunk_job, work)


def _summarise(kind: GameKind, seed: int, chunks: list[Chunk]) -> Simulation:
    lengths = np.concatenate([chunk.lengths for chunk in chunks])
    a_wins = sum(chunk.a_wins for chunk in chunks)
    b_wins = sum(chunk.b_wins for chunk in chunks)
    # The first chunk (lowest seeds) with the longest chain names the seed to replay.
    top = max(chunks, key=lambda chunk: (chunk.longest_war_chain, -chunk.first_seed))
    median, p95 = np.percentile(lengths, [50, 95])
    return Simulation(
        kind=kind,
        games=len(lengths),
        seed=seed,
        a_wins=a_wins,
        b_wins=b_wins,
        draws=len(lengths) - a_wins - b_wins,
        capped=sum(chunk.capped for chunk in chunks),
        taken_back=sum(chunk.taken_back for chunk in chunks),
        wars=sum(chunk.wars for chunk in chunks),
        median_battles=float(median),
        p95_battles=float(p95),
        mean_battles=float(lengths.mean()),
        longest_war_chain=top.longest_war_chain,
        longest_war_seed=top.longest_war_seed,
        lengths=lengths,
    )


# The histogram, drawn with OpenCV on a white canvas (pixels).
PLOT_SIZE = (1000, 560)  # width, height
PLOT_MARGIN = {"left": 90, "right": 30, "top": 60, "bottom": 80}
MAX_BARS = 60
MAX_LABELS = 12
INK = (40, 40, 40)
BAR = (170, 110, 40)  # BGR: a blue
CAP_BAR = (60, 60, 200)  # BGR: a red, for the games stopped by the cap


def histogram(lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Counts of games per length bin, and the bins' edges: each bin a round number of battles
    wide (1, 2, 5, 10, 20, 50, ...) and at most MAX_BARS of them. Bins start on a multiple of
    their width, so a Full game's games stopped by the cap stand alone in the bin from 500."""
    shortest, longest = int(lengths.min()), int(lengths.max())
    width = next(w for w in _round_widths() if (longest // w - shortest // w) < MAX_BARS)
    edges = np.arange(shortest // width * width, (longest // width + 1) * width + 1, width)
    counts, _ = np.histogram(lengths, bins=edges)
    return counts, edges


def _round_widths() -> Iterator[int]:
    power = 1
    while True:
        yield from (power, 2 * power, 5 * power)
        power *= 10


def draw_plot(simulation: Simulation) -> np.ndarray:
    """The distribution of game lengths as a BGR image."""
    import cv2

    width, height = PLOT_SIZE
    image = np.full((height, width, 3), 255, dtype=np.uint8)
    left, right = PLOT_MARGIN["left"], width - PLOT_MARGIN["right"]
    top, bottom = PLOT_MARGIN["top"], height - PLOT_MARGIN["bottom"]
    counts, edges = histogram(simulation.lengths)
    tallest = int(counts.max())
    y_top = _nice_ceiling(tallest)
    bar_width = (right - left) / len(counts)
    font = cv2.FONT_HERSHEY_SIMPLEX

    def text(label: str, x: float, y: float, scale: float = 0.5, centre: bool = False) -> None:
        (w, _), _ = cv2.getTextSize(label, font, scale, 1)
        origin = (round(x - w / 2) if centre else round(x), round(y))
        cv2.putText(image, label, origin, font, scale, INK, 1, cv2.LINE_AA)

    for step in range(6):  # y gridlines and their counts
        value = y_top * step // 5
        y = bottom - (bottom - top) * value / y_top
        cv2.line(image, (left, round(y)), (right, round(y)), (225, 225, 225), 1)
        label = f"{value:,}"
        (w, _), _ = cv2.getTextSize(label, font, 0.45, 1)
        text(label, left - 8 - w, y + 5, 0.45)
    for i, count in enumerate(counts):
        x0 = left + i * bar_width
        y = bottom - (bottom - top) * int(count) / y_top
        colour = CAP_BAR if edges[i] <= CAP_BATTLES < edges[i + 1] else BAR
        if simulation.kind is GameKind.SHORT or simulation.capped == 0:
            colour = BAR
        cv2.rectangle(
            image, (round(x0 + 1), round(y)), (round(x0 + bar_width - 1), bottom), colour, -1
        )
    bin_width = int(edges[1] - edges[0])
    # Round steps between labels, so a Full game's labels land on 0, 50, ... and the cap.
    label_every = next(step for step in _round_widths() if len(counts) / step <= MAX_LABELS)
    for i in range(0, len(counts), label_every):
        # A bar of one length is labelled in its middle; a wider bar at its left edge.
        x = left + (i + (0.5 if bin_width == 1 else 0)) * bar_width
        cv2.line(image, (round(x), bottom), (round(x), bottom + 5), INK, 1)
        text(str(int(edges[i])), x, bottom + 22, 0.45, centre=True)
    cv2.line(image, (left, bottom), (right, bottom), INK, 1)
    cv2.line(image, (left, top), (left, bottom), INK, 1)
    kind = simulation.kind.value.capitalize()
    title = f"War, {kind} game: battles per game, {simulation.games:,} deals"
    text(title, left, 32, 0.7)
    caption = "battles in the game" + (
        f" (each bar: {bin_width} lengths, from the tick on its left)" if bin_width > 1 else ""
    )
    if simulation.kind is GameKind.FULL and simulation.capped:
        caption += f"; red: stopped at the {CAP_BATTLES}-battle cap"
    text(caption, (left + right) / 2, height - 25, 0.5, centre=True)
    text("games", 10, top - 16, 0.5)
    return image


def _nice_ceiling(value: int) -> int:
    """The top of the y axis: the least round number (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a
    power of ten) at or above `value`, so the tallest bar fills most of the height."""
    power = 10 ** max(0, len(str(max(value, 1))) - 1)
    for factor in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8):
        top = factor * power
        if top >= value and top == int(top):
            return int(top)
    return 10 * power


def check_plot_path(path: Path) -> None:
    """Before the games are played: a plot that cannot be written is said at once."""
    if path.suffix.lower() != ".png":
        raise InputError(f"--plot {path}: the plot is written as PNG; name the file .png")
    try:
        check_output(path)
    except OutputError as error:
        raise OutputError(f"--plot {error}") from None


def write_plot(simulation: Simulation, path: Path) -> None:
    """The plot as a PNG, written atomically (a full disk leaves no truncated picture)."""
    import cv2

    check_plot_path(path)
    ok, encoded = cv2.imencode(".png", draw_plot(simulation))
    if not ok:
        raise OutputError(f"--plot {path}: OpenCV could not encode the plot")
    try:
        write_atomic(path, encoded.tobytes())
    except OutputError as error:
        raise OutputError(f"--plot {error}") from None
