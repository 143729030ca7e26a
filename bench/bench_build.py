"""Build times: the War card in-process, and `printgen build all` as a player runs it.

Prints medians over several runs (wall-clock seconds)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from timing import median_seconds

from printgen.games.war import WAR_CARD
from printgen.materials import BuildOptions
from printgen.render.units import Paper

RUNS_CARD = 9
RUNS_ALL = 3


def main() -> None:
    WAR_CARD.build(BuildOptions(), None)  # warm: font loading happens once per process
    for paper in (Paper.A4, Paper.LETTER):
        seconds = median_seconds(
            lambda p=paper: WAR_CARD.build(BuildOptions(paper=p), None), RUNS_CARD
        )
        print(f"war-card {paper.value}: median {seconds * 1000:.0f} ms over {RUNS_CARD} builds")
    printgen = Path(sys.executable).with_name("printgen")
    with tempfile.TemporaryDirectory() as out:
        command = [str(printgen), "build", "all", "--out", out]
        seconds = median_seconds(
            lambda: subprocess.run(command, check=True, capture_output=True), RUNS_ALL
        )
        count = len(list(Path(out).glob("*.pdf")))
    print(f"printgen build all (a4, {count} PDFs): median {seconds:.2f} s over {RUNS_ALL} runs")


if __name__ == "__main__":
    main()
