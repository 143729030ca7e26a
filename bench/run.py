"""`make bench`: run every bench/bench_*.py in turn, each printing its own medians."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    only = set(sys.argv[1:])
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")):
        if only and script.stem not in only:
            continue
        print(f"== {script.name}", flush=True)
        failed |= subprocess.call([sys.executable, str(script)])
    return failed


if __name__ == "__main__":
    sys.exit(main())
