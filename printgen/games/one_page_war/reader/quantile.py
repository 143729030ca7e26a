"""Percentiles and medians for the reader, without numpy's first-call costs.

np.percentile and np.median import numpy.ma on their first call (16 ms of the 0.35 s a photo
may take from start to score), and np.percentile costs some 50 us a call besides; the reader
asks for a few hundred a photo.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# Greys (uint8) this many or more are counted, not sorted: a sheet's median grey (pale_floor)
# took 1 ms a sheet by partial sort, a tenth of that by counting.
COUNT_GREYS = 4096


def percentile(values: np.ndarray, q: float) -> float:
    """np.percentile's linear interpolation for one q (0 to 100), from a partial sort (or, for
    many greys, from how many there are of each)."""
    flat = np.asarray(values).ravel()
    at = q / 100 * (flat.size - 1)
    lo = int(at)
    hi = min(lo + 1, flat.size - 1)
    if flat.dtype == np.uint8 and flat.size >= COUNT_GREYS:
        # The k-th smallest grey is the first whose count, with the darker ones', passes k.
        up_to = np.bincount(flat, minlength=256).cumsum()
        a, b = (float(v) for v in np.searchsorted(up_to, (lo, hi), side="right"))
    else:
        part = flat.copy()  # np.partition's own copy, without its wrappers' cost
        part.partition((lo, hi))
        a, b = float(part[lo]), float(part[hi])
    return a + (b - a) * (at - lo)


def percentiles_along(
    values: np.ndarray, q: float, axis: int, dtype: type[np.floating] = np.float32
) -> np.ndarray:
    """np.percentile's linear interpolation for one q along one axis, worked out in `dtype`
    (float64: each value what `percentile` gives for its slice)."""
    n = values.shape[axis]
    at = q / 100 * (n - 1)
    lo = int(at)
    hi = min(lo + 1, n - 1)
    # Sorted whole: the same two order statistics as a partition's, for two thirds of the cost
    # on the few pixels across a tick box's strip.
    ordered = np.sort(values, axis=axis).astype(dtype, copy=False)
    at_lo: list[int | slice] = [slice(None)] * values.ndim
    at_hi = list(at_lo)
    at_lo[axis], at_hi[axis] = lo, hi
    a, b = ordered[tuple(at_lo)], ordered[tuple(at_hi)]
    return a + (b - a) * dtype(at - lo)


def median(values: Sequence[float]) -> float:
    """The median of a short list (the mean of the middle two when its length is even).

    np.median imports numpy.ma on its first call and the statistics module costs 10 ms to
    import; the reader takes medians of a few dozen numbers."""
    if not values:
        raise ValueError("the median of no values")
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2
