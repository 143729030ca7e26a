"""The other hands the recogniser learns from (training/other_hands.py) and the digits file the
bench writes sheets with (real_digits.from_file, bench_reader.py --digits)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from training import other_hands, real_digits  # noqa: E402


def test_each_dataset_is_framed_as_mnist_frames_its_digits() -> None:
    for name in other_hands.SOURCES:
        digits = other_hands.load(name)
        assert digits.images.shape[1:] == (28, 28)
        assert set(np.unique(digits.labels)) == set(range(10))
        for i in range(0, len(digits), 97):
            ys, xs = np.nonzero(digits.images[i] > 0.15)
            # The longer side 20 pixels (give or take the soft edge), centred.
            assert 18 <= max(np.ptp(ys), np.ptp(xs)) + 1 <= 22, (name, i)
            assert abs((ys.min() + ys.max()) / 2 - 13.5) <= 2
            assert abs((xs.min() + xs.max()) / 2 - 13.5) <= 2


def test_a_stretched_one_gets_its_narrow_width_back() -> None:
    """Both datasets stretched every digit to fill a square: a 1 as wide as a 0."""
    semeion = other_hands.load("semeion")

    def width(i: int) -> int:
        xs = np.nonzero(semeion.images[i] > 0.15)[1]
        return int(np.ptp(xs)) + 1

    ones = [width(i) for i in semeion.of(1)]
    zeros = [width(i) for i in semeion.of(0)]
    assert np.median(ones) < 0.6 * np.median(zeros)


def test_semeion_is_split_by_rounds_into_learnt_and_measured() -> None:
    semeion = other_hands.load("semeion")
    rounds = other_hands.semeion_rounds(semeion.labels)
    assert rounds.max() == 5
    # Within a round the digits only rise: 0s, then 1s, ... then 9s.
    for r in range(6):
        assert (np.diff(semeion.labels[rounds == r]) >= 0).all()
    train, measured = other_hands.part("train"), other_hands.part("semeion")
    assert len(train) + len(measured) == len(semeion)
    learnt = {image.tobytes() for image in train.images}
    assert not any(image.tobytes() in learnt for image in measured.images)
    for part in (train, measured):
        assert min(np.bincount(part.labels, minlength=10)) >= 70
    assert len(other_hands.part("optdigits")) == len(other_hands.load("optdigits"))
    with pytest.raises(ValueError, match="unknown part 'test'"):
        other_hands.part("test")


def test_usps_lines_are_read_and_a_short_line_is_named(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    raster = -np.ones((16, 16))
    raster[3:13, 7:9] = 1  # a 1
    good = tmp_path / "zip.test"
    good.write_text(
        "1 " + " ".join(f"{v:.3f}" for v in raster.ravel()) + "\n"
        "7 " + " ".join(f"{v:.3f}" for v in rng.uniform(-1, 1, 256)) + "\n"
    )
    rasters, labels = other_hands.read_usps(good)
    assert labels == [1, 7] and rasters[0].max() == 1 and rasters[0].min() == 0
    bad = tmp_path / "cut.test"
    bad.write_text("3 " + " ".join(["-1"] * 200) + "\n")
    with pytest.raises(ValueError, match=r"cut.test, line 1: expected a label and 256 greys"):
        other_hands.read_usps(bad)
    bad.write_text("7 " + " ".join(["-1"] * 255) + " x\n")
    with pytest.raises(ValueError, match=r"cut.test, line 1: expected numbers only"):
        other_hands.read_usps(bad)
    bad.write_text("12 " + " ".join(["-1"] * 256) + "\n")
    with pytest.raises(ValueError, match=r"cut.test, line 1: the label 12 is no digit 0-9"):
        other_hands.read_usps(bad)


def test_a_digits_file_is_checked_before_any_sheet_is_written(tmp_path: Path) -> None:
    fine = tmp_path / "fine.npz"
    np.savez(fine, images=np.zeros((3, 28, 28), np.uint8), labels=np.array([1, 2, 3]))
    assert len(real_digits.from_file(fine)) == 3
    wrong_size = tmp_path / "size.npz"
    np.savez(wrong_size, images=np.zeros((3, 16, 16), np.uint8), labels=np.array([1, 2, 3]))
    with pytest.raises(ValueError, match=r"size.npz: images must be uint8, n x 28 x 28"):
        real_digits.from_file(wrong_size)
    wrong_labels = tmp_path / "labels.npz"
    np.savez(wrong_labels, images=np.zeros((2, 28, 28), np.uint8), labels=np.array([1, 12]))
    with pytest.raises(ValueError, match=r"labels.npz: labels must be one digit 0 to 9"):
        real_digits.from_file(wrong_labels)
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match=r"garbage.npz: not an .npz of handwritten digits"):
        real_digits.from_file(garbage)
    bench = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_reader.py"), "--digits", str(wrong_size)],
        capture_output=True,
        text=True,
    )
    assert bench.returncode == 2
    assert "size.npz: images must be uint8" in bench.stderr


def test_half_the_networks_write_half_their_real_digits_with_other_hands() -> None:
    from training import train_digits

    mnist = real_digits.RealDigits(np.zeros((10, 28, 28), np.float32), np.arange(10))
    other = other_hands.part("train")
    both = train_digits.Sources(mnist, (), (), None, other)
    rng = np.random.default_rng(3)
    drawn = [train_digits._hand(both, rng) is other for _ in range(2000)]
    assert abs(np.mean(drawn) - train_digits.OTHER_HANDS) < 0.05
    alone = train_digits.Sources(mnist, (), (), None)
    assert all(train_digits._hand(alone, rng) is mnist for _ in range(50))
    only_other = train_digits.Sources(None, (), (), None, other)
    assert train_digits._hand(only_other, rng) is other and only_other.has_real
    with pytest.raises(ValueError, match="no real handwritten digits"):
        train_digits._hand(train_digits.Sources(None, (), (), None), rng)


def test_digits_for_no_real_set_are_refused(tmp_path: Path) -> None:
    fine = tmp_path / "fine.npz"
    np.savez(fine, images=np.zeros((3, 28, 28), np.uint8), labels=np.array([1, 2, 3]))
    bench = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "bench_reader.py"),
            "--set",
            "drawn",
            "--digits",
            str(fine),
        ],
        capture_output=True,
        text=True,
    )
    assert bench.returncode == 2
    assert "--digits writes the real sets" in bench.stderr


def test_the_converter_writes_a_digits_file_the_bench_takes(tmp_path: Path) -> None:
    out = tmp_path / "semeion.npz"
    done = subprocess.run(
        [sys.executable, "-m", "training.other_hands", "semeion", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert len(real_digits.from_file(out)) == len(other_hands.part("semeion"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["semeion.npz"]
    missing = subprocess.run(
        [sys.executable, "-m", "training.other_hands", "usps", str(tmp_path / "u.npz")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert missing.returncode == 2 and "--source zip.test" in missing.stderr
    assert not (tmp_path / "u.npz").exists()
    nowhere = subprocess.run(
        [sys.executable, "-m", "training.other_hands", "semeion", str(tmp_path / "no" / "s.npz")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert nowhere.returncode == 2 and "cannot write" in nowhere.stderr
    assert not (tmp_path / "no").exists()


def test_training_refuses_an_ensemble_of_no_network() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "training.train_digits", "--nets", "0", "--other-hands-nets", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2 and "at least one network" in done.stderr
