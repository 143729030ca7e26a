"""The reader's percentile agrees with numpy's, for the dtypes the reader hands it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from printgen.games.one_page_war.reader.quantile import (
    COUNT_GREYS,
    median,
    percentile,
    percentiles_along,
)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8])
def test_percentile_is_numpys(dtype: type) -> None:
    rng = np.random.default_rng(4)
    for shape in [(1,), (2,), (7, 9), (71, 70)]:
        values: np.ndarray = (rng.uniform(0, 1, shape) * 255).astype(dtype)
        for q in (0, 1, 5, 50, 90, 95, 99.5, 100):
            assert percentile(values, q) == pytest.approx(np.percentile(values, q), abs=1e-4)


def test_many_greys_counted_give_numpys_percentile_exactly() -> None:
    # At COUNT_GREYS greys or more, a percentile comes from counting each grey, not sorting.
    rng = np.random.default_rng(7)
    for size in (COUNT_GREYS - 1, COUNT_GREYS, 50_000):
        for values in (
            rng.integers(0, 256, size).astype(np.uint8),
            np.clip(rng.normal(230, 12, size), 0, 255).astype(np.uint8),  # paper, a few marks
            np.full(size, 77, np.uint8),
        ):
            for q in (0, 0.5, 50, 90, 99.5, 100):
                assert percentile(values, q) == float(np.percentile(values, q))
                strided = values[: size // 8 * 8].reshape(-1, 8)[:, ::2]  # as a sheet's every 4th
                assert percentile(strided, q) == float(np.percentile(strided, q))


@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_percentiles_along_an_axis_are_numpys(dtype: type) -> None:
    rng = np.random.default_rng(6)
    for shape in [(1, 5), (7, 9), (30, 11)]:
        values: np.ndarray = (rng.uniform(0, 1, shape) * 255).astype(dtype)
        for axis in (0, 1):
            for q in (0, 50, 90, 100):
                expected = np.percentile(values, q, axis=axis)
                got = percentiles_along(values, q, axis)
                assert got.shape == expected.shape
                assert got == pytest.approx(expected, abs=1e-3)


def test_median_is_the_middle_or_the_mean_of_the_middle_two() -> None:
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 10, 11):
        values = list(rng.uniform(0, 9, n))
        assert median(values) == pytest.approx(float(np.median(values)))
    with pytest.raises(ValueError, match="no values"):
        median([])


def test_reading_a_photo_never_imports_numpy_ma(tmp_path: Path) -> None:
    # np.percentile's first call imports numpy.ma: 16 ms of the 0.35 s a photo may take.
    photo = tmp_path / "sheet.jpg"
    make = "import sys; sys.path.insert(0, 'tests'); import photo_corpus; from pathlib import Path;"
    make += "photo_corpus.make_photo(Path(sys.argv[1]), 5, (1600, 1200))"
    subprocess.run([sys.executable, "-c", make, str(photo)], check=True)
    read = "import sys; from pathlib import Path; from printgen import scoring;"
    read += "from printgen.materials import PhotoOptions;"
    read += "scoring.read_photo(Path(sys.argv[1]), PhotoOptions());"
    read += "print(sorted(m for m in sys.modules if m.split('.')[:2] == ['numpy', 'ma']))"
    done = subprocess.run(
        [sys.executable, "-c", read, str(photo)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
