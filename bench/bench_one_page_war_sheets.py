"""One Page War sheets: how long `printgen build one-page-war --copies N` takes, and how big the
PDF is. Target: N = 500 well under a minute on a 2-core machine. Prints medians over runs.

    .venv/bin/python bench/bench_one_page_war_sheets.py [--copies 500] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from printgen.games.one_page_war.sheets import build_duel, build_team
from printgen.materials import BuildOptions
from printgen.render.units import Paper


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    build_duel(BuildOptions())  # fonts, OpenCV's dictionary, the text source: loaded once
    for paper in (Paper.A4, Paper.LETTER):
        times, size = [], 0
        for _ in range(args.runs):
            start = time.perf_counter()
            pdf = build_duel(BuildOptions(paper=paper, copies=args.copies))
            times.append(time.perf_counter() - start)
            size = len(pdf)
        median = statistics.median(times)
        print(
            f"duel sheet --copies {args.copies} ({paper.value}): median {median:.2f} s "
            f"over {args.runs} runs ({1000 * median / args.copies:.1f} ms a sheet), "
            f"PDF {size / 1e6:.2f} MB"
        )
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        build_team(BuildOptions(pairs=6))
        times.append(time.perf_counter() - start)
    print(f"team pack --pairs 6 (a4): median {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
