"""Whole-process times of the command line beside their floors, measured side by side.

    .venv/bin/python bench/bench_build.py [--runs 9] [--no-photo] [--against REV]

Each command runs as a player runs it, a fresh `printgen` process, and its floor runs
interleaved with it (so a busy machine slows both alike):
- `printgen build war-card` beside bench/floor_war_card.py, bare ReportLab drawing the same
  card's marks and text with the same embedded fonts (target: at most 2x);
- `printgen --help` and `printgen list` beside `python -c pass` (target: at most 0.1 s);
- `printgen score photo.jpg` on one synthetic 12 MP photo (tests/photo_corpus.py; target: at
  most 0.35 s);
- and, once, `printgen build all` (every standalone material, A4).
Prints medians of the wall-clock time, of the CPU time (user + system: what the process itself
spent on a core, the steadier figure on a machine shared with others) and of the peak memory.

Figures (issue 18), medians of 21 runs side by side, on this 2-core machine shared with seven
other engineers (load average 3.8 to 4.4; figures move by a quarter with the load, ratios
less). "Before" is the tree at 489d3e6, run without ReportLab's accelerator:

    command                    before                    after                     target
    build war-card vs floor    402 ms, x2.4 (CPU x2.5)   270 ms, x1.6 (CPU x1.7)   x2
    --help, list               70 ms, 65 ms              68 ms, 64 ms              0.1 s
    floor (bare ReportLab)     166 ms                    166 ms
    python -c pass             25 ms                     25 ms

What took the card from x2.4 to x1.6, each measured alone (CPU, about this load):
- the flow measures each paragraph's height and splits once per width (`Measures` in
  printgen/render/flow.py), reuses the full flow while balancing, and builds only the
  largest size's story when it fits: 238 paragraph wraps down to 75, -25 ms;
- ReportLab's paragraphs imported without platypus/__init__ and without compiling two
  patterns printgen never uses (printgen/render/platypus.py): 48 ms down to 10 ms;
- `reportlab[accel]`, ReportLab's C helpers (the same PDF bytes): -20 ms;
- gc.freeze() once the material's code is loaded (printgen/cli.py): the collector no longer
  sweeps modules that live until exit, during the build and at exit: -40 ms;
- glyph checks per distinct character, and the rules' character checks skip plain ASCII
  lines: -4 ms.
Every card PDF (5 games x A4 and Letter, and 35 variants of `build card`) and every error
message stayed byte-identical.

Where the card's time goes now, in-process medians of 15 at load 3.2 (ms): click 21,
printgen's CLI modules 11, ReportLab's paragraphs 10, jinja2 16 and markdown-it 18 (issue 2's
design: a template and a real Markdown parser), the card's own modules 16, reading the rules 3,
compiling and rendering the template 6, fitting and balancing 11, drawing 7; and what the floor
pays as well: ReportLab's canvas 36, registering the four DejaVu faces 38, writing the PDF 8,
and starting the interpreter, 25 (`python -c pass`). --help and list are mostly what any click
program pays: the interpreter with site (25 ms), click (20 ms), printgen's registry and CLI
modules (11 ms), click formatting the help (a few ms).

`printgen score photo.jpg` (12 MP, a game played by the rulebook). The machine's speed drifts by
a third and more over a day (the bare ReportLab floor has read 72 ms, when issue 18 was written,
and 138 to 241 ms on 1 December), so the photo is also timed side by side with the tree issue 18
measured at 0.50 s (`--against ed943fc`, both reading one layout-version-1 photo). Medians of 15,
three runs between 20:27 and 20:31 UTC on 1 December (load 1.0 to 1.7, the floor 148 to 173 ms):
337 to 414 ms as the machine slowed, against 549 to 720 ms for ed943fc in the same runs: x 0.55
to 0.58 wall, x 0.50 to 0.53 CPU, which at the 0.50 s the issue measured is 0.28 to 0.29 s
against its 0.35 s target. Where it goes now: the interpreter 30 ms; click and the CLI 35 ms;
numpy, OpenCV and the marker search's modules about 100 ms; then, side by side on the two cores
(reader/start.py), decoding the photo and ArUco's search (about 90 ms when sharing the cores)
against importing the rest of the reader and the referee and loading the model and the sheets
(about 60 ms); then the rest of the read, about 100 ms (the QR code 9, the grid checks 12, the
squares' crops 11, the networks 18, the rules 10, the typed-in TOML 5). Taken off, in the order
done: np.percentile and np.median, whose first call imports numpy.ma (16 ms;
reader/quantile.py); OpenBLAS's idle threads (about 0.1 s of CPU; printgen/cli.py asks for one);
Pillow for plain JPEGs, which OpenCV decodes to the same pixels (about 30 ms of imports;
reader/photo.py); glibc's returning of every large block to the kernel, which faulted each one
in again (20,000 page faults to 11,400, about 35 ms; printgen/cli.py); the model file stored
rather than deflated (9 ms to 3); the QR code's sheet weighed against rival sheets only when a
rival's lines are there, the rivals sharing the photo's ink (about 10 ms); each square's ink
found once, not twice; and the head start (about 20 ms).
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

Figures = tuple[float, float, float]  # wall seconds, CPU seconds, peak MiB

# A player's Python keeps compiled modules (.pyc) after the first run. A shell that turned that
# off (PYTHONDONTWRITEBYTECODE) would charge every run with compiling printgen's sources again,
# which no player pays: the children run with Python's default, warmed up once.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(command: list[str], cwd: Path | None = None) -> Figures:
    """The figures of one run of `command`, output discarded; it must succeed."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=CHILD_ENV, cwd=cwd
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 3):  # 3: a provisional photo reading is still a reading
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def side_by_side(
    commands: dict[str, list[str]], runs: int, cwd: dict[str, Path] | None = None
) -> dict[str, Figures]:
    """The median figures of each command (run in its `cwd` folder, if given), taking turns."""
    results: dict[str, list[Figures]] = {name: [] for name in commands}
    where = cwd or {}
    for name, command in commands.items():  # one warm-up each: the page cache, .pyc files
        run_once(command, where.get(name))
    for _ in range(runs):
        for name, command in commands.items():
            results[name].append(run_once(command, where.get(name)))
    return {
        name: (
            statistics.median(r[0] for r in figures),
            statistics.median(r[1] for r in figures),
            statistics.median(r[2] for r in figures),
        )
        for name, figures in results.items()
    }


def report(label: str, figures: Figures, floor: Figures | None = None) -> None:
    wall, cpu, peak = figures
    line = f"{label:<34} {wall * 1000:5.0f} ms wall {cpu * 1000:5.0f} ms CPU {peak:5.0f} MiB"
    if floor is not None:
        line += f"   floor x {wall / floor[0]:.1f} wall, x {cpu / floor[1]:.1f} CPU"
    print(line, flush=True)


def make_photo(folder: Path, version: int | None = None) -> Path:
    """One synthetic 12 MP photo (of the layout's `version`, the newest by default), made in a
    process of its own: this one stays small, so the peak memory its children report (which
    starts from this process's, at fork) is theirs."""
    path = folder / f"photo-v{version or 'new'}.jpg"
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import photo_corpus; "
        "from pathlib import Path; photo_corpus.make_photo(Path(sys.argv[2]), 1000, (4032, 3024), "
        "version=int(sys.argv[3]) or None)"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(ROOT / "tests"), str(path), str(version or 0)],
        check=True,
    )
    return path


def tree_at(revision: str, folder: Path) -> Path:
    """The repository's files at `revision`, unpacked into `folder` (no checkout is touched)."""
    target = folder / "tree"
    target.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=False
    )
    if archive.returncode != 0:
        raise SystemExit(f"--against {revision}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def score_against(revision: str, out: Path, runs: int) -> None:
    """`printgen score` of this tree and of the tree at `revision`, side by side, on a photo of
    layout version 1, which every tree since the reader's first reads: the machine's speed
    drifts over a day by a third and more, the ratio much less."""
    old = tree_at(revision, out)
    photo = make_photo(out, version=1)
    command = [sys.executable, "-m", "printgen", "score", str(photo)]
    # `python -m` imports the printgen of the folder it runs in.
    scored = side_by_side({"this": command, "then": command}, runs, {"this": ROOT, "then": old})
    report(f"score v1 photo, tree at {revision}", scored["then"])
    report("score v1 photo, this tree", scored["this"])
    print(
        f"{'this tree / then':<34} x {scored['this'][0] / scored['then'][0]:.2f} wall, "
        f"x {scored['this'][1] / scored['then'][1]:.2f} CPU",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--no-photo", action="store_true", help="skip the photo (slow to make)")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also time `printgen score` as the tree at this git revision has it, side by side "
        "(ed943fc: the tree issue 18 measured)",
    )
    args = parser.parse_args()
    print(f"medians of {args.runs} runs; load average {os.getloadavg()[0]:.2f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        floor_card = [sys.executable, str(HERE / "floor_war_card.py"), str(out / "floor.pdf")]
        card = side_by_side(
            {"floor": floor_card, "card": [PRINTGEN, "build", "war-card", "--out", tmp]}, args.runs
        )
        report("floor (bare ReportLab)", card["floor"])
        report("printgen build war-card", card["card"], card["floor"])

        quick = side_by_side(
            {
                "pass": [sys.executable, "-c", "pass"],
                "help": [PRINTGEN, "--help"],
                "list": [PRINTGEN, "list"],
            },
            args.runs,
        )
        report("python -c pass", quick["pass"])
        report("printgen --help", quick["help"], quick["pass"])
        report("printgen list", quick["list"], quick["pass"])

        if not args.no_photo:
            photo = make_photo(out)
            scored = side_by_side({"score": [PRINTGEN, "score", str(photo)]}, args.runs)
            report("printgen score photo.jpg (12 MP)", scored["score"])
            if args.against:
                score_against(args.against, out, args.runs)

        everything = side_by_side({"all": [PRINTGEN, "build", "all", "--out", tmp]}, 1)
        count = len(list(out.glob("*-a4.pdf")))
        report(f"printgen build all ({count} PDFs, once)", everything["all"])
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
