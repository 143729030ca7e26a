"""Photo reader benchmark: photos of sheets from games played by the rulebook, in writing the
recogniser never saw.

    .venv/bin/python bench/bench_reader.py [--set SET] (real, drawn, stress, faint, big, small,
                                                         upright, rubbed, struck, skips,
                                                         underlined,
                                                         semeion, optdigits, unipen,
                                                         printers,
                                                         folded, crumpled, scans)
                                           [--count 24]
                                           [--size 4032x3024] [--layout-version 1]
                                           [--keep DIR] [--verbose] [--digits FILE]
                                           [--fold K --model NPZ] [--first-seed N]

Sets (each made by tests/photo_corpus.py from its own seeds, none used in training or
calibration):
- `real`: every digit is a real handwritten digit from the MEASURE part of ../shared/handwriting/
  (kept out of training and calibration, training/real_digits.py), stars and S by held-out
  writers;
- `drawn`: the held-out procedural writers and fonts of training/handwriting.py;
- `stress`: drawn, every photo hardship at its limit at once (also counts photos refused);
- `faint`: as `real`, every digit written with a thin pencil at a quarter of full darkness, so
  that some stay under the ink floor (docs/reader.md, "Faint writing");
- `big`: as `real`, every digit written too big for its square, 0.97 to 1.22 times the square's
  height, so that most run over its line (docs/reader.md, "Writing over the line");
- `small`: as `real`, every digit written small, 0.28 to 0.45 times the space inside the
  square's line, as a tidy hand writes in a roomy box (docs/reader.md, "Small writing");
- `upright`: as `real`, the far side written the near player's way up, as a solo player may
  write the AI's numbers (docs/reader.md, "Which way up");
- `rubbed`: as `real`, every number written over another digit rubbed out first, as Armored
  support and Air raid ask (docs/reader.md, "Rubbed out");
- `struck`: as `real`, every number corrected as a player with a pen corrects it: another
  number (1 to 7) struck through in the box's left half, the number beside it (docs/reader.md,
  "Struck out with a pen");
- `skips`: as `real`, every digit written with a pen that skips, one to three gaps of about
  1.2 mm in its strokes (docs/reader.md, "A pen that skips");
- `underlined`: as `real`, every 6 and 9 with a line drawn under it, as players of games read
  from every side mark them apart (docs/reader.md, "Underlined");
- `semeion`, `optdigits`: as `real`, every digit by other writers than MNIST's, Italian and
  Turkish (training/other_hands.py; docs/reader.md, "Other hands");
- `unipen`: as `real`, every digit by one of 462 writers of UNIPEN's tablet digits, which no
  network learnt (training/unipen.py). These three datasets are not shipped: kept by hand first
  from their own files (training/data/README.md);
- `printers`: as `real`, each sheet printed as players' printers print it
  (`photo_corpus.random_printer`): light (35 to 100 % of full darkness), on cream, pastel or
  kraft paper, some with an inkjet's white stripes, a laser's faded band or the back's print
  showing through (docs/reader.md, "Printers and paper");
- `folded`: as `real`, each sheet lying not quite flat, 5 to 25 mm of lift: folded in half
  (crease up or down), in four, or curled at an edge (docs/reader.md, "A sheet that is not
  flat");
- `crumpled`: as `real`, each sheet crumpled and smoothed out again: bumps of 2 to 6 mm, one to
  six sharp creases, lit from diffuse to low from one side (`photo_corpus.crumpled`);
- `scans`: as `real`, each sheet scanned flat instead of photographed: 150 to 600 dpi, grey or
  colour, JPEG or PNG (now and then a TIFF, or the JPEG in a one-page PDF, as scanning apps
  save), the scanner's white under or over the paper's
  (`photo_corpus.random_scanner`); `--size` does not apply.

`--digits FILE` writes the real sets with any other handwritten digits instead of the measure
part: a file in the format of ../shared/handwriting/ (a digit a line, 784 greys and the digit;
.csv or .csv.gz), or an .npz (`python -m training.other_hands write` writes one, from the US
Postal Service's digits for one). `--fold K --model NPZ` writes them with fold K's measure part
instead and reads them with weights trained on fold K (`python -m training.train_digits --fold
K --out NPZ`): cross-validation, the recogniser's recipe measured on other real digits than the
shipped model's measure part (docs/reader.md, "Cross-validation"). Keep each fold's photos in a
folder of their own: `--keep` reuses the photos a folder already holds, and refuses a folder
whose photos were made otherwise (another set, size, layout version or digits: its made-with.json
says how).

`--first-seed N` makes each set's photos from seed N on instead of the set's own first seed:
other games, other shots, other writers of stars and S, and other digits in other squares, for
a look at photos no one has tuned the reader on (the sets' own seeds have been read many times
while the reader was built).

The photos are read in a fresh process. Reported: squares auto-accepted and right, right but flagged
unsure, misread and caught (unsure), misread and NOT flagged (the target is 0), for the squares
holding a digit and for every cell (tick boxes and S spaces too); sheets final (no unsure cell at
all), and the ceiling no flagging of the same readings could pass with none unflagged (the squares
read right; the sheets with no cell misread); sheets whose winner holds whatever their unsure cells
hold (reader/stakes.py), and whether that winner is the true one (the target: always), and the share
of unsure cells that can change who wins; the median and worst time per photo, and the reading
process's peak memory while it reads a photo (every photo is read first, one after another as a
batch reads them; only then is each read again for the cells' and the rules' times and the squares
decided alone). Each is given twice, for the same photos: as the reader decides (given the rules of
the game, reader/joint.py) and with every square decided on its own reading, so the rules' share
shows. `make bench` runs the real and the drawn sets at 12 MP.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

FIRST_SEED = {
    "drawn": 1000,
    "stress": 3000,
    "real": 7000,
    "faint": 8000,
    "big": 8500,
    "upright": 8700,
    "small": 8900,
    "rubbed": 9100,
    "skips": 9300,
    "struck": 10900,
    "underlined": 11100,
    "semeion": 9500,
    "optdigits": 9700,
    "unipen": 9900,
    "printers": 10100,
    "folded": 10300,
    "crumpled": 10500,
    "scans": 10700,
}
# The `big` set's digits, as a share of the space inside the square's line (8 % in from it).
BIG = (1.15, 1.45)
SMALL = (0.28, 0.45)
HEIGHT = {"big": BIG, "small": SMALL}
# The sets written with real handwritten digits (the measure part, or --digits).
REAL_SETS = (
    "real",
    "faint",
    "big",
    "small",
    "upright",
    "rubbed",
    "struck",
    "skips",
    "underlined",
    "printers",
    "folded",
    "crumpled",
    "scans",
)
# The sets written with other people's digits than MNIST's (training/other_hands.py).
OTHER_HANDS = ("semeion", "optdigits", "unipen")


def stress_shot(seed: int, size: tuple[int, int]) -> object:
    """Every hardship at the edge of what the reader promises, at once: 28 to 35 degrees, JPEG
    quality 60, a dark shadow, a strong gradient, soft focus, any turn, EXIF orientation."""
    import numpy as np
    import photo_corpus

    rng = np.random.default_rng([seed, 41])
    return photo_corpus.Shot(
        size=size if seed % 2 else (size[1], size[0]),
        tilt_deg=float(rng.uniform(28, 35)),
        rotation_deg=float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 10)),
        fill=float(rng.uniform(0.75, 0.85)),
        blur=float(rng.uniform(0.6, 1.1) * max(size) / 1600),
        noise=4.0,
        jpeg_quality=60,
        shadow=0.45,
        gradient=0.4,
        exif_orientation=int(rng.choice([1, 3, 6, 8])),
        seed=seed,
    )


def folded(seed: int) -> object:
    """A sheet folded to be carried, or curled by the printer, lying not quite flat: 5 to 25 mm
    of lift, as `photo_corpus.lifted` models it."""
    import numpy as np
    import photo_corpus

    rng = np.random.default_rng([seed, 43])
    shape = str(rng.choice(["tent", "valley", "four", "curl"]))
    return photo_corpus.lifted(float(rng.uniform(5, 25)), shape)


def crumpled(seed: int) -> object:
    """A sheet crumpled and smoothed out again, lit from one side: gentle bumps up to 2 to 6 mm,
    one to six sharp creases, a diffuse to a low light, as `photo_corpus.crumpled` models it."""
    import numpy as np
    import photo_corpus

    rng = np.random.default_rng([seed, 53])
    return photo_corpus.crumpled(
        seed, float(rng.uniform(2, 6)), int(rng.integers(1, 7)), float(rng.uniform(0, 1))
    )


def make_corpus(
    out: Path,
    count: int,
    size: tuple[int, int],
    which: str,
    version: int | None,
    cover_qr: bool = False,
    digits: Path | None = None,
    first_seed: int | None = None,
) -> list[Path]:
    """The photos of `count` seeds of the set, from `first_seed` (the set's own first seed
    without it), made where `out` does not hold them yet."""
    import photo_corpus

    from training import other_hands, real_digits

    record = out / RECORD
    if not record.exists():
        made = made_with(which, size, version, cover_qr, digits, first_seed)
        partial = record.with_name(record.name + ".part")
        partial.write_text(json.dumps(made, indent=1) + "\n")
        partial.replace(record)
    real = None
    if which in OTHER_HANDS:
        real = other_hands.part(which)
    elif which in REAL_SETS:
        real = real_digits.from_file(digits) if digits else real_digits.part("measure")
    # A thin pencil at a quarter of full darkness: some digits stay under the ink floor.
    pen = real_digits.Pen(0.05, 0.25, True) if which == "faint" else None
    first = FIRST_SEED[which] if first_seed is None else first_seed
    photos = []
    for seed in range(first, first + count):
        scanner = photo_corpus.random_scanner(seed) if which == "scans" else None
        path = out / f"sheet-{seed}.{scanner.suffix if scanner else 'jpg'}"
        photos.append(path)
        if path.exists() and path.with_suffix(".json").exists():
            continue
        shot = stress_shot(seed, size) if which == "stress" else None
        edit = photo_corpus.cover_qr() if cover_qr else None
        if which == "folded":
            edit = folded(seed)
        if which == "crumpled":
            edit = crumpled(seed)
        photo = photo_corpus.make_photo(
            path,
            seed,
            size,
            shot=shot,  # type: ignore[arg-type]
            edit=edit,
            version=version,
            real=real,
            pen=pen,
            height=HEIGHT.get(which, real_digits.HEIGHT_SHARE),
            far_upright=which == "upright",
            rubbed_out=1.0 if which == "rubbed" else 0.0,
            skips=1.0 if which == "skips" else 0.0,
            struck_out=1.0 if which == "struck" else 0.0,
            underlined=1.0 if which == "underlined" else 0.0,
            printer=photo_corpus.random_printer(seed) if which == "printers" else None,
            scanner=scanner,
        )
        truth = photo_corpus.truth_names(photo.truth)
        path.with_suffix(".json").write_text(json.dumps(truth))
    return photos


OUTCOMES = ("accepted_right", "flagged_right", "caught", "silent")


def _outcome(right: bool, unsure: bool) -> str:
    if right:
        return "flagged_right" if unsure else "accepted_right"
    return "caught" if unsure else "silent"


def _counts(readings: object, truth: dict[str, str]) -> tuple[dict[str, int], dict[str, int], bool]:
    """Outcomes for the squares holding a digit and for every cell, and whether it is final."""
    from printgen.games.one_page_war.reader.truth import cell_key

    digit_squares = dict.fromkeys(OUTCOMES, 0)
    cells = dict.fromkeys(OUTCOMES, 0)
    final = True
    for r in readings.all:  # type: ignore[attr-defined]
        expected = truth[cell_key(r.element)]
        outcome = _outcome(r.value == expected, r.unsure)
        cells[outcome] += 1
        final = final and not r.unsure
        if r.element.kind.value == "square" and expected.isdigit():
            digit_squares[outcome] += 1
    return digit_squares, cells, final


def _holds(report: object, truth: dict[str, str]) -> tuple[bool, bool]:
    """Whether the reader says who wins holds whatever its unsure cells hold
    (reader/stakes.py), and whether the written sheet's true winner is that one."""
    from photo_corpus import truth_from_names, written_winner

    stakes = report.stakes  # type: ignore[attr-defined]
    if stakes is None or not stakes.holds:
        return False, False
    (claimed,) = stakes.winners
    winner = written_winner(report.score.sheet, truth_from_names(truth))  # type: ignore[attr-defined]
    return True, winner == claimed


def read_corpus(folder: Path, model: Path | None = None, names: list[str] | None = None) -> None:
    """Reads the photos `names` of `folder` (all its photos without them). Runs in its own
    process, so its peak memory is the reader's alone: that of the process, with all it has
    read before, while `read_photo` runs."""
    from photo_corpus import key
    from timing import median_seconds

    from printgen.games.one_page_war.layout import load_layout
    from printgen.games.one_page_war.reader import digits, read, read_photo
    from printgen.games.one_page_war.reader.cells import Ink, read_sheet
    from printgen.games.one_page_war.reader.crosscheck import cross_check
    from printgen.games.one_page_war.reader.photo import load_photo_and_pale
    from printgen.games.one_page_war.reader.reading import pale_sheet, read_cells
    from printgen.games.one_page_war.reader.truth import cell_key
    from printgen.games.one_page_war.sheet import Mode
    from printgen.materials import PhotoOptions

    if model:
        digits.use_model_file(model)
    # First every photo is read, and only read, so that the peak memory is that of a process
    # that reads photos one after another (as a batch does), not of one that also holds what
    # the figures below need.
    results = []
    peak_mb = files_mb = 0.0
    read_ok: list[tuple[Path, dict[str, str], dict[str, object]]] = []
    photos = [folder / n for n in names] if names else folder.glob("sheet-*")
    for path in sorted(p for p in photos if p.suffix in (".jpg", ".png", ".tif", ".pdf")):
        truth = json.loads(path.with_suffix(".json").read_text())
        _restart_peak()
        start = time.perf_counter()
        try:
            report = read_photo(path, PhotoOptions(partial=True))
        except Exception as error:  # a refused photo is reported, not a crash of the bench
            results.append({"photo": path.name, "error": str(error)})
            continue
        finally:
            peak = _peak_mb()
            if peak > peak_mb:
                peak_mb, files_mb = peak, _status_mb("RssFile")
        seconds = time.perf_counter() - start
        squares, cells, final = _counts(report.reading, truth)
        holds, holds_right = _holds(report, truth)
        misses = []
        for r in report.reading.all:
            expected = truth[cell_key(r.element)]
            if r.value != expected:
                misses.append(f"{key(r.element)} {expected}->{r.value} unsure={r.unsure}")
        result: dict[str, object] = {
            "photo": path.name,
            "seconds": seconds,
            "squares": squares,
            "cells": cells,
            "final": final,
            "holds": holds,
            "holds_right": holds_right,
            "deciding": report.stakes.deciding if report.stakes else 0,
            "unsure": len(report.unsure),
            "far": any("do not pair up" in n for n in report.reading.notes),
            "misses": misses,
        }
        del report
        read_ok.append((path, truth, result))
    for path, truth, result in read_ok:
        # The recogniser's share: every cell of the sheet read as `read` reads it (cropped, its
        # ink found, recognised, checked for glare, blur and pale ink), each run with the blur
        # at each cell worked out afresh, as for a photo read once.
        again = read(path)
        grey, darkest = load_photo_and_pale(path)
        pale = pale_sheet(darkest, again.located, grey.shape)
        cells_seconds = median_seconds(
            lambda a=again, q=pale: read_cells(a.rectified, q, replace(a.located)), runs=3
        )
        ink, geometry = Ink.of(again.rectified), again.located.geometry
        # The same cells decided each on its own, and the rules' share of the time.
        tag = again.located.tag
        layout, mode = load_layout(tag.layout, tag.version), Mode(tag.mode)
        raw = read_sheet(ink, geometry, again.rectified, again.located.blur_at, mode=mode)
        alone = cross_check(raw, layout, mode, joint=False)
        rules_seconds = median_seconds(lambda r=raw, a=layout, m=mode: cross_check(r, a, m), runs=3)
        squares_alone, cells_alone, final_alone = _counts(alone, truth)
        result.update(
            mode=tag.mode,
            cells_seconds=cells_seconds,
            rules_seconds=rules_seconds,
            squares_alone=squares_alone,
            cells_alone=cells_alone,
            final_alone=final_alone,
        )
        results.append(result)
    print(json.dumps({"results": results, "peak_mb": peak_mb, "files_mb": files_mb}))


def _restart_peak() -> None:
    """On Linux, start this process's peak resident memory afresh from what it holds now: each
    photo's peak counts what the reading process still holds from the photos before it, and
    what reading this one adds."""
    with contextlib.suppress(OSError):  # elsewhere the peak is the whole process's
        Path("/proc/self/clear_refs").write_text("5")


def _peak_mb() -> float:
    """This process's peak resident memory since `_restart_peak`. VmHWM starts afresh at exec,
    unlike ru_maxrss, which would count the corpus maker's memory this process was forked from."""
    return _status_mb("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _status_mb(field: str) -> float:
    """A memory figure of this process from /proc/self/status (0 where there is none)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _line(name: str, counts: dict[str, int]) -> str:
    total = sum(counts.values())
    share = {k: counts[k] / max(1, total) for k in OUTCOMES}
    return (
        f"{name}: {total}; auto-accepted and right {counts['accepted_right']} "
        f"({share['accepted_right']:.2%}), right but flagged {counts['flagged_right']} "
        f"({share['flagged_right']:.2%}), misread and caught {counts['caught']} "
        f"({share['caught']:.2%}), misread and NOT flagged {counts['silent']} (target 0)"
    )


def _ceiling_line(results: list[dict[str, Any]], suffix: str = "") -> str:
    """What no flagging of these readings could beat: every misread must be flagged, so a sheet
    can be final with none unflagged only if no cell of it was misread, and a square can be
    accepted and right only if it was read right."""
    clean = sum(r["cells" + suffix]["caught"] + r["cells" + suffix]["silent"] == 0 for r in results)
    squares = {k: sum(r["squares" + suffix][k] for r in results) for k in OUTCOMES}
    right = squares["accepted_right"] + squares["flagged_right"]
    return (
        f"at best, with no misread unflagged: squares read right "
        f"{right / max(1, sum(squares.values())):.2%}, sheets with no cell misread "
        f"{clean}/{len(results)} = {clean / max(1, len(results)):.0%}"
    )


# What the photos of a kept folder were made with, kept beside them: a folder is only ever read
# again for the same set, size, layout version, QR cover and digits, or its figures would be
# those of other photos under this run's heading.
RECORD = "made-with.json"


def made_with(
    which: str,
    size: tuple[int, int],
    version: int | None,
    cover_qr: bool,
    digits: Path | None,
    first_seed: int | None = None,
) -> dict[str, object]:
    """How this run makes its photos (`RECORD`); a --digits file by its content's SHA-256, a
    first seed only where it is not the set's own (so folders kept before it was asked for
    still stand for the set's own photos)."""
    record: dict[str, object] = {
        "set": which,
        "size": "as scanned" if which == "scans" else f"{size[0]}x{size[1]}",
        "layout version": version or "current",
        "QR code covered": cover_qr,
    }
    if first_seed is not None and first_seed != FIRST_SEED[which]:
        record["first seed"] = first_seed
    if which in REAL_SETS:
        if digits:
            record["digits"] = (
                f"{digits.name}, SHA-256 {hashlib.sha256(digits.read_bytes()).hexdigest()}"
            )
        else:
            from training import real_digits

            record["digits"] = real_digits.measure_part_name()
    return record


def kept_problem(folder: Path, record: dict[str, object]) -> str | None:
    """Why the photos kept in `folder` cannot stand for this run's, or None (none kept yet, or
    made the same way)."""
    if not any(folder.glob("sheet-*")):
        return None
    try:
        kept = json.loads((folder / RECORD).read_text())
    except (OSError, ValueError):
        return (
            f"{folder} holds photos but no {RECORD} saying how they were made (kept by an "
            "older bench?): delete them, or keep this run's photos in another folder"
        )
    # Both ways round: a folder of photos from fresh seeds records what the set's own lack.
    names = [*record, *(name for name in kept if name not in record)]
    differs = [
        f"{name} {kept.get(name)!r} there, {record.get(name)!r} here"
        for name in names
        if kept.get(name) != record.get(name)
    ]
    if differs:
        return (
            f"{folder} holds photos made otherwise ({'; '.join(differs)}): keep each kind of "
            "photo in a folder of its own"
        )
    return None


def _written_with(which: str, digits: Path | None) -> str:
    if which not in REAL_SETS:
        return ""
    if digits:
        return f" written with {digits.name}"
    from training import real_digits

    name = real_digits.measure_part_name()
    return "" if name == "measure part of fold 0" else f" written with the {name}"


def run(
    which: str,
    count: int,
    size: tuple[int, int],
    version: int | None,
    keep: Path | None,
    verbose: bool,
    cover_qr: bool = False,
    digits: Path | None = None,
    model: Path | None = None,
    first_seed: int | None = None,
) -> int:
    width, height = size
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        photos = make_corpus(folder, count, size, which, version, cover_qr, digits, first_seed)
        seeds = f", from seed {first_seed}" if first_seed is not None else ""
        print(
            f"set {which}{_written_with(which, digits)}{f', read with {model}' if model else ''}"
            f"{seeds}: {count} photos {width}x{height}, layout version "
            f"{version or 'current'}, in {folder} "
            f"({time.perf_counter() - start:.0f} s to make)"
        )
        out = subprocess.run(
            [sys.executable, __file__, "--read", str(folder), "--photos", *(p.name for p in photos)]
            + (["--model", str(model)] if model else []),
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    results = [r for r in data["results"] if "error" not in r]
    errors = [r for r in data["results"] if "error" in r]
    print(f"photos read: {len(results)} of {len(data['results'])} (refused: {len(errors)})")
    for r in errors:
        print(f"  refused {r['photo']}: {r['error']}")
    # Every corpus photo holds the whole sheet (fill under 1, offset within the slack), so each
    # refusal is one with all four markers in the frame (issue 14: at most 1 in 100).
    print(
        f"refused with all four markers in the frame: {len(errors)} of {len(data['results'])}"
        f" = {len(errors) / max(1, len(data['results'])):.1%} (target at most 1 %)"
    )
    if results:
        for title, suffix in (
            ("given the rules (what the reader does)", ""),
            ("each square on its own, the same photos", "_alone"),
        ):
            print(f"{title}:")
            squares = {k: sum(r["squares" + suffix][k] for r in results) for k in OUTCOMES}
            cells = {k: sum(r["cells" + suffix][k] for r in results) for k in OUTCOMES}
            print("  " + _line("squares holding a digit", squares))
            print("  " + _line("all cells (squares, tick boxes, S spaces)", cells))
            final = sum(r["final" + suffix] for r in results)
            print(
                f"  sheets final (no unsure cell): {final}/{len(results)} = "
                f"{final / len(results):.0%}"
            )
            print("  " + _ceiling_line(results, suffix))
        holds = [r for r in results if r["holds"] and not r["final"]]
        wrong = sum(not r["holds_right"] for r in holds)
        print(
            f"sheets with unsure cells whose winner holds whatever they hold (reader/stakes.py): "
            f"{len(holds)}/{len(results)} = {len(holds) / len(results):.0%}; winner wrong: "
            f"{wrong} (target 0)"
        )
        unsure = sum(r["unsure"] for r in results)
        deciding = sum(r["deciding"] for r in results)
        print(
            f"unsure cells that can change who wins: {deciding} of {unsure} = "
            f"{deciding / max(1, unsure):.0%}"
        )
        far = sum(r["far"] for r in results)
        print(f"sheets far from any legal game (judged square by square): {far}")
        times = [r["seconds"] for r in results]
        print(f"time per photo: median {statistics.median(times):.3f} s, worst {max(times):.3f} s")
        cell_ms = [1000 * r["cells_seconds"] for r in results]
        print(
            f"reading every cell of a sheet (crop, ink, recognise, checks): median "
            f"{statistics.median(cell_ms):.1f} ms, worst {max(cell_ms):.1f} ms"
        )
        rules_ms = [1000 * r["rules_seconds"] for r in results]
        print(
            f"deciding every square given the rules (crosscheck.py, joint.py): median "
            f"{statistics.median(rules_ms):.1f} ms, worst {max(rules_ms):.1f} ms"
        )
    # Resident pages of the program's and libraries' files count in the peak, but they belong
    # to the page cache, shared with every process that maps them, and how many a process maps
    # is the kernel's choice: right after pip wrote cv2's 78 MB library, 52 MB of it were
    # mapped (probably the cache's large folios, each mapped whole), 18 MB once the cache was
    # dropped; the peak went from 167 to 122 MB (docs/reader.md, "Test corpus and benchmark").
    # The Makefile drops them after every install (settle_libraries.py).
    print(
        f"peak memory of the reading process, reading a photo: {data['peak_mb']:.0f} MB, of which"
        f" pages of program and library files {data['files_mb']:.0f} MB (the page cache's, shared)"
    )
    if verbose:
        for r in results:
            for miss in r["misses"]:
                print(f"  {r['photo']}: {miss}")
    return 0


def photo_size(text: str) -> tuple[int, int]:
    """--size WIDTHxHEIGHT, neither side under what the reader takes (photo.MIN_SHORT_SIDE)."""
    from printgen.games.one_page_war.reader.photo import MIN_SHORT_SIDE

    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected WIDTHxHEIGHT in pixels, e.g. 4032x3024"
        )
    width, height = (int(p) for p in parts)
    if min(width, height) < MIN_SHORT_SIDE:
        raise argparse.ArgumentTypeError(
            f"{text!r}: each side must be {MIN_SHORT_SIDE} pixels or more"
        )
    return width, height


def main() -> int:
    parser = argparse.ArgumentParser(
        description=" ".join(__doc__.split("\n\n")[0].split()),
        epilog="Each set is described at the top of bench/bench_reader.py.",
    )
    parser.add_argument(
        "--set",
        choices=sorted(FIRST_SEED),
        action="append",
        dest="sets",
        metavar="SET",
        help="a set of photos to make and read, repeatable (default: real and drawn): "
        + ", ".join(sorted(FIRST_SEED)),
    )
    parser.add_argument("--count", type=int, default=24, help="photos of each set (default 24)")
    parser.add_argument(
        "--size",
        type=photo_size,
        default="4032x3024",
        help="the photos' width x height in pixels (default 4032x3024, 12 MP; 1600x1200 is 2 MP)",
    )
    parser.add_argument("--layout-version", type=int, help="photograph this layout version")
    parser.add_argument("--keep", type=Path, help="keep the photos in this folder")
    parser.add_argument("--read", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--photos", nargs="+", help=argparse.SUPPRESS)  # of the --read folder
    parser.add_argument("--verbose", action="store_true", help="list every misread cell")
    parser.add_argument(
        "--cover-qr",
        action="store_true",
        help="a finger over every sheet's QR code: read from the printed grid alone",
    )
    parser.add_argument(
        "--digits",
        type=Path,
        metavar="FILE",
        help="write the real sets with these handwritten digits instead of the measure part, "
        "such as other people's handwriting: a .csv or .csv.gz in the format of "
        "../shared/handwriting/ (a digit a line: 784 greys 0 to 255, then the digit; or the "
        "digit in any column under a first line naming it `label`), or an .npz of uint8 "
        "`images` (n x 28 x 28, framed as MNIST) and `labels` (docs/reader.md, 'Other hands')",
    )
    parser.add_argument(
        "--fold",
        type=int,
        default=0,
        help="write the real sets with this fold's measure digits (cross-validation, "
        "training/real_digits.py); with any fold but 0, --model too",
    )
    parser.add_argument(
        "--model",
        type=Path,
        help="read with this model file instead of the shipped one: weights trained with the "
        "same --fold (python -m training.train_digits --fold K --out NPZ)",
    )
    parser.add_argument(
        "--first-seed",
        type=int,
        metavar="N",
        help="make each set's photos from seed N on instead of the set's own first seed: "
        "other games, shots and squares than the ones the reader was tuned on",
    )
    args = parser.parse_args()
    if args.first_seed is not None and args.first_seed < 0:
        parser.error(f"--first-seed {args.first_seed}: expected a seed of 0 or more")
    if args.read:
        read_corpus(args.read, args.model, args.photos)
        return 0
    if args.fold:
        from training import real_digits

        try:
            real_digits.use_fold(args.fold)
        except ValueError as e:
            parser.error(f"--fold: {e}")
        if args.digits:
            parser.error(f"--fold {args.fold} and --digits each say what the real sets hold")
        if not args.model:
            parser.error(
                f"--fold {args.fold} without --model: the shipped model learnt from fold "
                f"{args.fold}'s measure digits; give weights trained with --fold {args.fold}"
            )
    if args.model:
        from printgen.games.one_page_war.reader import digits
        from printgen.games.one_page_war.reader.errors import ModelFileError

        try:
            digits.load_model_file(args.model)
        except ModelFileError as e:
            parser.error(f"--model: {e}")
    if args.digits:
        from training import real_digits

        if not set(args.sets or ["real"]) & set(REAL_SETS):
            parser.error(
                f"--digits writes the real sets ({', '.join(REAL_SETS)}); none was asked for"
            )
        try:
            given = real_digits.from_file(args.digits)
        except ValueError as e:
            parser.error(str(e))
        # A sheet may ask for any digit: 0 to 7 most often, 10 and up as two, any rubbed out.
        missing = sorted(set(range(10)) - set(given.labels.tolist()))
        if missing:
            parser.error(
                f"{args.digits}: holds no {' or '.join(map(str, missing))}; a sheet may need "
                "every digit 0 to 9"
            )
    for which in set(args.sets or []) & set(OTHER_HANDS):
        from training import other_hands

        try:
            other_hands.part(which)  # not shipped: made by hand first (training/data/README.md)
        except other_hands.MissingDataError as e:
            parser.error(f"--set {which}: {e}")
    width, height = args.size
    sets = args.sets or ["real", "drawn"]
    for which in sets if args.keep else []:
        made = made_with(
            which, args.size, args.layout_version, args.cover_qr, args.digits, args.first_seed
        )
        problem = kept_problem(args.keep / which, made)
        if problem:
            parser.error(f"--keep: {problem}")
    for which in sets:
        keep = args.keep / which if args.keep else None
        run(
            which,
            args.count,
            (width, height),
            args.layout_version,
            keep,
            args.verbose,
            args.cover_qr,
            args.digits,
            args.model,
            args.first_seed,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
