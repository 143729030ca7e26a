"""Cross-validation folds of the real handwritten digits (training/real_digits.py) and the tools
that take a fold: training, measuring and the bench refuse what would measure a model on digits
it learnt from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from printgen.games.one_page_war.reader import digits

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from training import real_digits, train_digits  # noqa: E402

# 250 of each digit value, in no order, as in ../shared/handwriting/.
LABELS = np.random.default_rng(5).permutation(np.repeat(np.arange(10), 250))


@pytest.fixture(autouse=True)
def fold_zero_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test leaves the process on fold 0, as it found it."""
    monkeypatch.delenv(real_digits.FOLD_VARIABLE, raising=False)


@pytest.mark.parametrize("fold", range(real_digits.FOLDS))
def test_each_fold_cuts_every_digit_into_disjoint_parts(fold: int) -> None:
    parts = real_digits.split(LABELS, fold)
    rows = np.concatenate(list(parts.values()))
    assert sorted(rows.tolist()) == list(range(len(LABELS)))  # every digit once
    for name, count in real_digits.PARTS.items():
        assert len(parts[name]) == 10 * count
        assert np.bincount(LABELS[parts[name]], minlength=10).tolist() == [count] * 10


def test_the_folds_measure_parts_are_disjoint_and_fold_zero_is_the_split() -> None:
    measured = [set(real_digits.split(LABELS, k)["measure"].tolist()) for k in range(4)]
    for i in range(len(measured)):
        for j in range(i):
            assert not measured[i] & measured[j]
    assert sum(map(len, measured)) == 10 * 240
    plain = real_digits.split(LABELS)
    assert all(np.array_equal(plain[n], real_digits.split(LABELS, 0)[n]) for n in plain)
    # A fold learns from another fold's measure part: that is what makes it one.
    assert measured[0] <= set(real_digits.split(LABELS, 1)["train"].tolist()) | set(
        real_digits.split(LABELS, 1)["calibration"].tolist()
    )


def test_a_fold_is_chosen_for_the_worker_processes_too() -> None:
    real_digits.use_fold(2)
    code = "from training import real_digits; print(real_digits.current_fold())"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "2"


def test_a_fold_out_of_range_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="fold 4: expected 0 to 3"):
        real_digits.use_fold(4)
    monkeypatch.setenv(real_digits.FOLD_VARIABLE, "two")
    with pytest.raises(ValueError, match="PRINTGEN_REAL_DIGITS_FOLD='two'"):
        real_digits.part("measure")


def test_only_fold_zero_falls_back_to_the_tests_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ../shared/, the sample shipped with the tests is fold 0's measure digits: no other
    fold's."""

    def missing(path: Path = real_digits.SOURCE) -> real_digits.RealDigits:
        raise real_digits.MissingHandwriting(f"{path}: not there")

    monkeypatch.setattr(real_digits, "load_all", missing)
    assert len(real_digits.part("measure")) == len(real_digits.test_sample())
    real_digits.use_fold(1)
    with pytest.raises(real_digits.MissingHandwriting):
        real_digits.part("measure")


def _without_shared(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As on a clone with no ../shared/ beside it."""

    def missing(path: Path = real_digits.SOURCE) -> real_digits.RealDigits:
        raise real_digits.MissingHandwriting(f"{path}: not there")

    monkeypatch.setattr(real_digits, "SOURCE", tmp_path / "mnist-2500.csv.gz")
    monkeypatch.setattr(real_digits, "load_all", missing)


def test_what_stands_in_for_the_measure_part_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bench_reader: ModuleType
) -> None:
    """The bench's heading and its record of kept photos say when the tests' 200 digits
    stand in for the measure part's 600: figures on them are not the measure part's."""
    if real_digits.SOURCE.exists():
        assert real_digits.measure_part_name() == "measure part of fold 0"
        assert bench_reader._written_with("real", None) == ""
    real_digits.use_fold(2)
    assert bench_reader._written_with("real", None) == " written with the measure part of fold 2"
    real_digits.use_fold(0)
    _without_shared(monkeypatch, tmp_path)
    name = real_digits.measure_part_name()
    assert name.startswith("tests' sample of the measure part (real-digits-measure.npz")
    assert bench_reader.made_with("real", (1600, 1200), None, False, None)["digits"] == name
    assert bench_reader._written_with("real", None) == f" written with the {name}"
    assert "digits" not in bench_reader.made_with("drawn", (1600, 1200), None, False, None)


def test_without_shared_training_and_measuring_stop_at_once_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from training import measure_digits

    _without_shared(monkeypatch, tmp_path)
    # As with the train extra installed, so that what is missing is the handwriting alone.
    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: found("numpy") if name in ("torch", "sklearn") else found(name, *a),
    )
    for main, argv in (
        (train_digits.main, ["train_digits"]),
        (train_digits.main, ["train_digits", "--calibrate-only"]),
        (measure_digits.main, ["measure_digits"]),
    ):
        monkeypatch.setattr(sys, "argv", argv)
        with pytest.raises(SystemExit) as stop:
            main()
        assert stop.value.code == 2, argv
        said = capsys.readouterr().err
        assert "mnist-2500.csv.gz: not there" in said, argv
    assert "measure digits of your own with --digits FILE" in said


@pytest.mark.skipif(not real_digits.SOURCE.exists(), reason="needs ../shared/handwriting/")
def test_fold_zero_is_the_split_the_shipped_model_was_measured_on() -> None:
    measure = real_digits.split_indices(0)["measure"]
    # Its first rows, as they have been since the split was made: moving them would measure
    # the shipped model on digits it learnt from.
    assert measure[:5].tolist() == [2, 12, 13, 14, 15]
    assert len(real_digits.part("measure")) == 600


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--fold", "4"], "--fold 4: expected 0 to 3"),
        (["--fold", "2"], "--fold 2 writes a model for measuring only"),
        (["--fold", "1", "--out", "x.npz", "--calibrate-only"], "--calibrate-only"),
    ],
)
def test_training_refuses_a_fold_it_would_measure_wrongly(
    argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setattr(sys, "argv", ["train_digits", *argv])
    with pytest.raises(SystemExit) as stop:
        train_digits.main()
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert real_digits.current_fold() == 0  # refused before the fold was taken up


def _bench(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_reader.py"), *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_the_bench_refuses_a_fold_read_with_the_shipped_model() -> None:
    done = _bench("--fold", "2")
    assert done.returncode == 2
    assert "--fold 2 without --model" in done.stderr


def test_the_bench_refuses_a_model_file_it_cannot_load(tmp_path: Path) -> None:
    damaged = tmp_path / "fold2.npz"
    damaged.write_bytes(digits.MODEL_PATH.read_bytes()[:5000])
    done = _bench("--fold", "2", "--model", str(damaged))
    assert done.returncode == 2
    assert f"--model: {damaged}" in done.stderr and "cut short" in done.stderr
