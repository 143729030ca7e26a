"""Whole-process times of the command line beside their floors, measured side by side.

    .venv/bin/python bench/bench_build.py [--runs 9] [--no-photo]

Each command runs as a player runs it, a fresh `printgen` process, and its floor runs
interleaved with it (so a busy machine slows both alike):
- `printgen build war-card` beside bench/floor_war_card.py, bare ReportLab drawing the same
  card's marks and text with the same embedded fonts (target: at most 2x);
- `printgen --help` and `printgen list` beside `python -c pass` (target: at most 0.1 s);
- `printgen score photo.jpg` on one synthetic 12 MP photo (tests/photo_corpus.py; target: at
  most 0.35 s);
- and, once, `printgen build all` (every standalone material, A4).
Prints medians (wall clock) and each command's peak memory (max resident set size).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PRINTGEN = str(Path(sys.executable).with_name("printgen"))


def run_once(command: list[str]) -> tuple[float, float]:
    """(seconds, peak MiB) of one run of `command`, output discarded; it must succeed."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 3):  # 3: a provisional photo reading is still a reading
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}")
    return seconds, usage.ru_maxrss / 1024


def side_by_side(commands: dict[str, list[str]], runs: int) -> dict[str, tuple[float, float]]:
    """Median seconds and median peak MiB of each command, the commands taking turns."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    peaks: dict[str, list[float]] = {name: [] for name in commands}
    for command in commands.values():  # one warm-up each: the page cache, .pyc files
        run_once(command)
    for _ in range(runs):
        for name, command in commands.items():
            seconds, peak = run_once(command)
            times[name].append(seconds)
            peaks[name].append(peak)
    return {n: (statistics.median(times[n]), statistics.median(peaks[n])) for n in commands}


def report(label: str, figures: tuple[float, float], floor: tuple[float, float] | None) -> None:
    seconds, peak = figures
    line = f"{label:<34} {seconds * 1000:6.0f} ms {peak:5.0f} MiB"
    if floor is not None:
        line += (
            f"   {seconds / floor[0]:4.1f}x the floor's time, {peak / floor[1]:3.1f}x its memory"
        )
    print(line, flush=True)


def make_photo(folder: Path) -> Path:
    """One synthetic 12 MP photo, made in a process of its own: this one stays small, so the
    peak memory its children report (which starts from this process's, at fork) is theirs."""
    path = folder / "photo.jpg"
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import photo_corpus; "
        "from pathlib import Path; photo_corpus.make_photo(Path(sys.argv[2]), 1000, (4032, 3024))"
    )
    subprocess.run([sys.executable, "-c", script, str(ROOT / "tests"), str(path)], check=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--no-photo", action="store_true", help="skip the photo (slow to make)")
    args = parser.parse_args()
    print(f"medians of {args.runs} runs; load average {os.getloadavg()[0]:.2f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        card = side_by_side(
            {
                "printgen build war-card": [PRINTGEN, "build", "war-card", "--out", tmp],
                "floor (bare ReportLab)": [
                    sys.executable,
                    str(HERE / "floor_war_card.py"),
                    str(out / "floor.pdf"),
                ],
            },
            args.runs,
        )
        report("floor (bare ReportLab)", card["floor (bare ReportLab)"], None)
        report(
            "printgen build war-card",
            card["printgen build war-card"],
            card["floor (bare ReportLab)"],
        )

        quick = side_by_side(
            {
                "python -c pass": [sys.executable, "-c", "pass"],
                "printgen --help": [PRINTGEN, "--help"],
                "printgen list": [PRINTGEN, "list"],
            },
            args.runs,
        )
        report("python -c pass", quick["python -c pass"], None)
        for name in ("printgen --help", "printgen list"):
            report(name, quick[name], quick["python -c pass"])

        if not args.no_photo:
            photo = make_photo(out)
            scored = side_by_side({"score": [PRINTGEN, "score", str(photo)]}, args.runs)
            report("printgen score photo.jpg (12 MP)", scored["score"], None)

        everything = side_by_side({"all": [PRINTGEN, "build", "all", "--out", tmp]}, 1)
        count = len(list(out.glob("*-a4.pdf")))
        report(f"printgen build all ({count} PDFs, once)", everything["all"], None)


if __name__ == "__main__":
    main()
