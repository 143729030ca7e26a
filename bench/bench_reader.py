"""Photo reader benchmark on the held-out corpus (writers and fonts never seen in training).

    .venv/bin/python bench/bench_reader.py [--count 24] [--size 4032x3024] [--keep DIR]
                                           [--stress] [--verbose]

Makes `count` synthetic 12 MP photos of filled sheets (tests/photo_corpus.py, seeds from 1000:
the calibration used other seeds), then reads them in a fresh process and reports: the share of
cells read right (squares, tick boxes, S spaces), the share of sheets read entirely right, the
cells left unsure, the wrong cells NOT flagged unsure (the target is 0), the median and worst
time per photo, and that process's peak memory. `--stress` makes worst-case photos instead
(every hardship at its limit at once) and also counts the photos refused with advice.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))


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


def make_corpus(
    out: Path, count: int, size: tuple[int, int], stress: bool = False, cover_qr: bool = False
) -> None:
    import photo_corpus

    first = 3000 if stress else 1000
    for seed in range(first, first + count):
        path = out / f"sheet-{seed}.jpg"
        if path.exists() and path.with_suffix(".json").exists():
            continue
        shot = stress_shot(seed, size) if stress else None
        edit = photo_corpus.cover_qr() if cover_qr else None
        photo = photo_corpus.make_photo(path, seed, size, shot=shot, edit=edit)  # type: ignore[arg-type]
        truth = {"/".join(str(p) for p in k): v for k, v in photo.truth.items()}
        path.with_suffix(".json").write_text(json.dumps(truth))


def read_corpus(folder: Path) -> None:
    """Runs in its own process, so its peak memory is the reader's alone."""
    from photo_corpus import key

    from printgen.games.one_page_war.reader import read_photo
    from printgen.materials import PhotoOptions

    results = []
    for path in sorted(folder.glob("sheet-*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())
        start = time.perf_counter()
        try:
            report = read_photo(path, PhotoOptions(partial=True))
        except Exception as error:  # a refused photo is reported, not a crash of the bench
            results.append({"photo": path.name, "error": str(error)})
            continue
        seconds = time.perf_counter() - start
        cells = wrong = unsure = silent = 0
        misses = []
        for r in report.reading.all:
            expected = truth["/".join(str(p) for p in key(r.element))]
            expected = {"_": "_"}.get(expected, expected)
            got = r.value
            cells += 1
            unsure += r.unsure
            if got != expected:
                wrong += 1
                silent += not r.unsure
                misses.append(f"{key(r.element)} {expected}->{got} unsure={r.unsure}")
        results.append(
            {
                "photo": path.name,
                "seconds": seconds,
                "cells": cells,
                "wrong": wrong,
                "unsure": unsure,
                "silent": silent,
                "misses": misses,
            }
        )
    print(json.dumps({"results": results, "peak_mb": _peak_mb()}))


def _peak_mb() -> float:
    """This process's peak resident memory. VmHWM starts afresh at exec, unlike ru_maxrss,
    which would count the corpus maker's memory this process was forked from."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--size", default="4032x3024")
    parser.add_argument("--keep", type=Path, help="keep the photos in this folder")
    parser.add_argument("--read", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--verbose", action="store_true", help="list every misread cell")
    parser.add_argument(
        "--stress", action="store_true", help="worst-case photos only (seeds from 3000)"
    )
    parser.add_argument(
        "--cover-qr",
        action="store_true",
        help="a finger over every sheet's QR code: read from the printed grid alone",
    )
    args = parser.parse_args()
    if args.read:
        read_corpus(args.read)
        return 0
    width, height = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        make_corpus(folder, args.count, (width, height), args.stress, args.cover_qr)
        print(
            f"corpus: {args.count} photos {width}x{height} in {folder} "
            f"({time.perf_counter() - start:.0f} s to make)"
        )
        out = subprocess.run(
            [sys.executable, __file__, "--read", str(folder)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    results = [r for r in data["results"] if "error" not in r]
    errors = [r for r in data["results"] if "error" in r]
    cells = sum(r["cells"] for r in results)
    wrong = sum(r["wrong"] for r in results)
    unsure = sum(r["unsure"] for r in results)
    silent = sum(r["silent"] for r in results)
    whole = sum(1 for r in results if r["wrong"] == 0)
    clean = sum(1 for r in results if r["unsure"] == 0 and r["wrong"] == 0)
    times = [r["seconds"] for r in results]
    print(f"photos read: {len(results)} of {len(data['results'])} (refused: {len(errors)})")
    # Every corpus photo holds the whole sheet (fill under 1, offset within the slack), so each
    # refusal is one with all four markers in the frame (issue 14: at most 1 in 100).
    print(
        f"refused with all four markers in the frame: {len(errors)} of {len(data['results'])}"
        f" = {len(errors) / max(1, len(data['results'])):.1%} (target at most 1 %)"
    )
    for r in errors:
        print(f"  refused {r['photo']}: {r['error']}")
    if results:
        print(f"cells right: {cells - wrong}/{cells} = {(cells - wrong) / cells:.2%}")
        print(f"sheets entirely right: {whole}/{len(results)} = {whole / len(results):.0%}")
        print(f"sheets right with no unsure cell: {clean}/{len(results)}")
        print(f"cells unsure (shown for checking): {unsure} = {unsure / cells:.2%}")
        print(f"wrong cells NOT flagged unsure: {silent} (target 0)")
        print(f"time per photo: median {statistics.median(times):.2f} s, worst {max(times):.2f} s")
    print(f"peak memory of the reading process: {data['peak_mb']:.0f} MB")
    if args.verbose:
        for r in results:
            for miss in r["misses"]:
                print(f"  {r['photo']}: {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
