"""What every benchmark here measures with: the median wall-clock time of repeated runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(action: Callable[[], object], runs: int = 7) -> float:
    """Run `action` `runs` times; the median of the wall-clock seconds each run took."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
