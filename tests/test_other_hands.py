"""The other hands the recogniser learns from (training/other_hands.py) and the digits file the
bench writes sheets with (real_digits.from_file, bench_reader.py --digits)."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from training import other_hands, real_digits  # noqa: E402


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_reader.py"), *args],
        capture_output=True,
        text=True,
    )


def glyph(digit: int, side: int) -> np.ndarray:
    """A digit as both UCI datasets keep one: drawn, then stretched to fill a `side` x `side`
    box of bits (so a 1 comes out as wide as a 0)."""
    canvas = np.zeros((48, 48), np.uint8)
    cv2.putText(canvas, str(digit), (8, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.3, 255, 4)
    ys, xs = np.nonzero(canvas)
    ink = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return (cv2.resize(ink, (side, side), interpolation=cv2.INTER_AREA) > 100).astype(np.uint8)


# Semeion's records run 0s to 9s six times over (rounds), two of each digit a round here.
SEMEION_LABELS = [d for _ in range(6) for d in range(10) for _ in range(2)]


def semeion_data(path: Path, labels: list[int] = SEMEION_LABELS) -> Path:
    """A semeion.data as UCI shares it: 256 pixels as decimals, then the label as ten bits."""
    lines = []
    for d in labels:
        label_bits = ["1" if k == d else "0" for k in range(10)]
        pixels = [f"{v:.4f}" for v in glyph(d, 16).ravel()]
        lines.append(" ".join(pixels + label_bits) + " \n")
    path.write_text("".join(lines))
    return path


def optdigits_orig(path: Path, labels: list[int]) -> Path:
    """An optdigits-orig.tra as UCI shares it: a header, then 32 lines of 32 bits and the label."""
    lines = ["CREATOR: a header of 21 lines before the first bitmap", *["-"] * 20]
    for d in labels:
        lines += ["".join(map(str, row)) for row in glyph(d, 32)] + [f" {d}"]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Both datasets kept from their UCI files into a data folder of the test's own."""
    monkeypatch.setattr(other_hands, "DATA", tmp_path / "data")
    (tmp_path / "data").mkdir()
    other_hands.load.cache_clear()
    other_hands.keep("semeion", semeion_data(tmp_path / "semeion.data"))
    other_hands.keep("optdigits", optdigits_orig(tmp_path / "o.tra", list(range(10)) * 3))
    yield tmp_path / "data"
    other_hands.load.cache_clear()


def test_the_datasets_are_not_shipped_and_their_absence_says_how_to_keep_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "training/data"], capture_output=True, text=True, cwd=ROOT
    )
    if tracked.returncode == 0:  # a checkout, not an unpacked source archive
        assert tracked.stdout.split() == ["training/data/README.md"]
    monkeypatch.setattr(other_hands, "DATA", tmp_path)
    other_hands.load.cache_clear()
    for name, original in other_hands.ORIGINAL.items():
        with pytest.raises(other_hands.MissingDataError) as caught:
            other_hands.part("train" if name == "semeion" else name)
        message = str(caught.value)
        assert str(tmp_path / f"{name}.npz") in message
        assert f"python -m training.other_hands keep {name} path/to/{original}" in message


def test_each_dataset_is_framed_as_mnist_frames_its_digits(kept: Path) -> None:
    for name in other_hands.SOURCES:
        digits = other_hands.load(name)
        assert digits.images.shape[1:] == (28, 28)
        assert set(np.unique(digits.labels)) == set(range(10))
        for i in range(len(digits)):
            ys, xs = np.nonzero(digits.images[i] > 0.15)
            # The longer side 20 pixels (give or take the soft edge), centred.
            assert 18 <= max(np.ptp(ys), np.ptp(xs)) + 1 <= 22, (name, i)
            assert abs((ys.min() + ys.max()) / 2 - 13.5) <= 2
            assert abs((xs.min() + xs.max()) / 2 - 13.5) <= 2


def test_a_stretched_one_gets_its_narrow_width_back(kept: Path) -> None:
    """Both datasets stretched every digit to fill a square: a 1 as wide as a 0."""
    for name in other_hands.SOURCES:
        digits = other_hands.load(name)
        widths = [int(np.ptp(np.nonzero(image > 0.15)[1])) + 1 for image in digits.images]
        ones = [widths[i] for i in digits.of(1)]
        zeros = [widths[i] for i in digits.of(0)]
        assert np.median(ones) < 0.6 * np.median(zeros), name


def test_semeion_is_split_by_rounds_into_learnt_and_measured(kept: Path) -> None:
    semeion = other_hands.load("semeion")
    assert semeion.labels.tolist() == SEMEION_LABELS
    rounds = other_hands.semeion_rounds(semeion.labels)
    assert rounds.max() == 5
    # Within a round the digits only rise: 0s, then 1s, ... then 9s.
    for r in range(6):
        assert (np.diff(semeion.labels[rounds == r]) >= 0).all()
    train, measured = other_hands.part("train"), other_hands.part("semeion")
    assert len(train) == 4 * 20 and len(measured) == 2 * 20
    assert train.labels.tolist() == SEMEION_LABELS[:80]
    assert len(other_hands.part("optdigits")) == len(other_hands.load("optdigits")) == 30
    with pytest.raises(ValueError, match="unknown part 'test'"):
        other_hands.part("test")


def test_ucis_files_are_kept_bit_for_bit(tmp_path: Path) -> None:
    labels = [3, 0, 7]
    bits, read = other_hands.read_semeion(semeion_data(tmp_path / "s.data", labels))
    assert read.tolist() == labels and bits.shape == (3, 16, 16)
    assert (bits[2] == glyph(7, 16)).all()
    bits, read = other_hands.read_optdigits(optdigits_orig(tmp_path / "o.tra", labels))
    assert read.tolist() == labels and bits.shape == (3, 32, 32)
    assert (bits[1] == glyph(0, 32)).all()
    out = other_hands.keep("optdigits", tmp_path / "o.tra", tmp_path / "o.npz")
    with np.load(out, allow_pickle=False) as data:
        side = int(data["side"])
        unpacked = np.unpackbits(data["bits"], axis=1)[:, : side * side].reshape(-1, side, side)
        assert side == 32 and (unpacked == bits).all() and data["labels"].tolist() == labels


def test_a_broken_line_of_a_ucis_file_is_named(tmp_path: Path) -> None:
    path = semeion_data(tmp_path / "s.data", [1, 2])
    good = path.read_text().splitlines()
    numbers = good[1].split()
    two_labels = numbers[:-1] + ["1"]
    cases = {
        " ".join(numbers[:-3]): r"s.data, line 2: expected 256 pixels and 10 label bits, found 263",
        " ".join(["0.5000", *numbers[1:]]): r"line 2: expected pixels of 0 or 1 and exactly one",
        " ".join(two_labels): r"line 2: expected pixels of 0 or 1 and exactly one label bit",
        " ".join(["x", *numbers[1:]]): r"s.data, line 2: expected numbers only",
    }
    for line, message in cases.items():
        path.write_text(good[0] + "\n" + line + "\n")
        with pytest.raises(ValueError, match=message):
            other_hands.read_semeion(path)
    path.write_text("\n")
    with pytest.raises(ValueError, match=r"s.data: no digit in it"):
        other_hands.read_semeion(path)
    opt = optdigits_orig(tmp_path / "o.tra", [4, 5])
    lines = opt.read_text().splitlines()
    for at, text, message in (
        (21 + 33 + 5, "0101", r"o.tra, line 60: expected the bitmap's 32 bits, found '0101'"),
        (21 + 32, " x", r"o.tra, line 54: expected the digit the bitmap shows, found 'x'"),
    ):
        broken = [*lines[:at], text, *lines[at + 1 :]]
        opt.write_text("\n".join(broken) + "\n")
        with pytest.raises(ValueError, match=message):
            other_hands.read_optdigits(opt)
    opt.write_text("\n".join(lines[:-1]) + "\n")  # the last label cut off
    with pytest.raises(ValueError, match=r"line 87: expected the digit the bitmap shows, found ''"):
        other_hands.read_optdigits(opt)
    opt.write_text("\n".join(lines[:-10]) + "\n")  # cut inside the last bitmap
    with pytest.raises(ValueError, match=r"o.tra: the file ends inside a bitmap \(line 77\)"):
        other_hands.read_optdigits(opt)
    opt.write_text("a header and nothing else\n")
    with pytest.raises(ValueError, match=r"o.tra: no line of 32 bits"):
        other_hands.read_optdigits(opt)


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
    bench = run_bench("--digits", str(wrong_size))
    assert bench.returncode == 2
    assert "size.npz: images must be uint8" in bench.stderr


def write_csv(path: Path, images: np.ndarray, labels: np.ndarray) -> Path:
    """Digits as ../shared/handwriting/ keeps them: a digit a line, 784 greys then the digit."""
    lines = [
        ",".join(map(str, [*image.ravel().tolist(), int(label)]))
        for image, label in zip(images, labels, strict=True)
    ]
    text = "\n".join(lines) + "\n"
    if path.name.endswith(".gz"):
        with gzip.open(path, "wt") as f:
            f.write(text)
    else:
        path.write_text(text)
    return path


def test_digits_in_the_shared_folders_format_read_as_the_same_digits(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    images = np.zeros((4, 28, 28), np.uint8)
    images[:, 4:24, 4:24] = rng.integers(0, 256, (4, 20, 20))
    labels = np.array([0, 9, 3, 3])
    np.savez(tmp_path / "four.npz", images=images, labels=labels)
    kept = real_digits.from_file(tmp_path / "four.npz")
    for name in ("four.csv", "four.csv.gz"):
        read = real_digits.from_file(write_csv(tmp_path / name, images, labels))
        assert np.array_equal(read.images, kept.images), name
        assert np.array_equal(read.labels, kept.labels), name
    # ../shared/handwriting/ itself is read by the same code (a missing line end, a blank line).
    (tmp_path / "ends.csv").write_text((tmp_path / "four.csv").read_text().rstrip() + "\n\n")
    assert len(real_digits.read_csv(tmp_path / "ends.csv")) == 4


@pytest.mark.parametrize("where", ["first", "last", "between"])
def test_a_line_naming_the_columns_says_where_the_digit_stands(tmp_path: Path, where: str) -> None:
    rng = np.random.default_rng(8)
    images = np.zeros((5, 28, 28), np.uint8)
    images[:, 4:24, 4:24] = rng.integers(0, 256, (5, 20, 20))
    labels = np.array([4, 0, 9, 2, 7])
    at = {"first": 0, "last": 784, "between": 300}[where]
    names = [f"pixel{i}" for i in range(784)]
    names.insert(at, "label")
    lines = [",".join(names)]
    for image, digit in zip(images, labels, strict=True):
        row = [str(v) for v in image.ravel()]
        row.insert(at, str(digit))
        lines.append(",".join(row))
    path = tmp_path / "named.csv"
    path.write_text("\n".join(lines) + "\n")
    read = real_digits.from_file(path)
    assert np.array_equal(read.labels, labels)
    assert np.array_equal(read.images, images.astype(np.float32) / 255)


def test_digits_put_first_with_no_line_naming_the_columns_are_refused(tmp_path: Path) -> None:
    images = np.zeros((4, 28, 28), np.uint8)
    images[:, 8:20, 12:16] = 200
    labels = [3, 1, 4, 1]
    lines = [",".join([str(d), *map(str, i.ravel())]) for i, d in zip(images, labels, strict=True)]
    path = tmp_path / "first.csv"
    path.write_text("\n".join(lines) + "\n")
    # Read as digit-last, each would be labelled 0 (its corner's grey) and written as a 0.
    with pytest.raises(ValueError, match=r"first.csv: every line ends in 0 and starts with a numb"):
        real_digits.from_file(path)
    # One digit throughout, its corners paper: nothing to take for a label, read as it stands.
    same = write_csv(tmp_path / "sevens.csv", images, np.array([7, 7, 7, 7]))
    assert list(real_digits.from_file(same).labels) == [7, 7, 7, 7]
    (tmp_path / "unnamed.csv").write_text(",".join(f"pixel{i}" for i in range(784)) + "\n")
    with pytest.raises(ValueError, match=r"unnamed.csv, line 1: a line of column names, expected"):
        real_digits.from_file(tmp_path / "unnamed.csv")
    # A first line of numbers with a word among them is a broken line of digits, not names.
    (tmp_path / "word.csv").write_text(",".join(["0"] * 784 + ["x"]) + "\n")
    with pytest.raises(ValueError, match=r"word.csv, line 1: expected whole numbers only"):
        real_digits.from_file(tmp_path / "word.csv")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("1,2,3", r"line 2: expected 785 comma-separated numbers .* found 3"),
        (",".join(["0"] * 784 + ["x"]), r"line 2: expected whole numbers only"),
        (",".join(["0"] * 783 + ["256", "1"]), r"line 2: a grey outside 0 to 255"),
        (",".join(["0"] * 784 + ["10"]), r"line 2: the digit 10 is not one of 0 to 9"),
    ],
)
def test_a_broken_line_of_digits_is_named(tmp_path: Path, line: str, says: str) -> None:
    path = tmp_path / "mine.csv"
    path.write_text(",".join(["0"] * 784 + ["7"]) + "\n" + line + "\n")
    with pytest.raises(ValueError, match=rf"mine.csv, {says}"):
        real_digits.from_file(path)


def test_an_empty_missing_or_unreadable_digits_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "empty.csv").write_text("\n")
    with pytest.raises(ValueError, match=r"empty.csv: no digits in it"):
        real_digits.from_file(tmp_path / "empty.csv")
    with pytest.raises(ValueError, match=r"gone.csv.gz: no such file"):
        real_digits.from_file(tmp_path / "gone.csv.gz")
    inverted = np.full((3, 28, 28), 255, np.uint8)
    inverted[1, 8:20, 12:16] = 0  # a dark 1 on white paper
    write_csv(tmp_path / "inverted.csv", inverted, np.array([1, 1, 1]))
    with pytest.raises(ValueError, match=r"inverted.csv: digit 1 of the file is mostly ink"):
        real_digits.from_file(tmp_path / "inverted.csv")
    (tmp_path / "plain.csv.gz").write_text("0,1\n")  # not gzipped after all
    with pytest.raises(ValueError, match=r"plain.csv.gz: not a readable file of handwritten"):
        real_digits.from_file(tmp_path / "plain.csv.gz")


def test_the_bench_refuses_digits_that_cannot_write_every_number(tmp_path: Path) -> None:
    images = np.zeros((9, 28, 28), np.uint8)
    few = write_csv(tmp_path / "few.csv", images, np.array([0, 1, 2, 3, 4, 5, 6, 7, 7]))
    bench = run_bench("--digits", str(few))
    assert bench.returncode == 2
    assert "few.csv: holds no 8 or 9; a sheet may need every digit 0 to 9" in bench.stderr


def test_measure_digits_measures_a_digits_file_of_ones_own(tmp_path: Path) -> None:
    sample = real_digits.test_sample()
    rows = np.concatenate([sample.of(d)[:2] for d in range(10)])
    greys = (sample.images[rows] * 255).round().astype(np.uint8)
    mine = write_csv(tmp_path / "mine.csv.gz", greys, sample.labels[rows])
    command = [sys.executable, "-m", "training.measure_digits", "--per-digit", "1"]
    done = subprocess.run(
        [*command, "--digits", str(mine)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert "mine.csv.gz, simulated squares: 20 marks: right" in done.stdout
    assert "mine.csv.gz, written plainly: 20 marks: right" in done.stdout
    assert "measure" not in done.stdout  # the held-out parts are not measured instead
    refused = subprocess.run(
        [*command, "--digits", str(mine), "--styles"], capture_output=True, text=True, cwd=ROOT
    )
    assert refused.returncode == 2
    assert "--digits and --styles each say what to measure" in refused.stderr


def test_half_the_networks_write_half_their_real_digits_with_other_hands() -> None:
    from training import train_digits

    mnist = real_digits.RealDigits(np.zeros((10, 28, 28), np.float32), np.arange(10))
    other = real_digits.RealDigits(np.ones((10, 28, 28), np.float32), np.arange(10))
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


def run_converter(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, str]:
    """`python -m training.other_hands ARGV` in this process (so that it sees the test's data
    folder): its exit code and what it printed on stderr."""
    import contextlib
    import io

    monkeypatch.setattr(sys, "argv", ["other_hands", *argv])
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            other_hands.main()
        except SystemExit as stop:
            return int(stop.code or 0), err.getvalue()
    return 0, err.getvalue()


def test_the_converter_keeps_a_dataset_and_writes_a_digits_file_the_bench_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(other_hands, "DATA", tmp_path / "data")
    (tmp_path / "data").mkdir()
    other_hands.load.cache_clear()
    out = tmp_path / "semeion.npz"
    code, err = run_converter(monkeypatch, "write", "semeion", str(out))
    assert code == 2 and "keep semeion path/to/semeion.data" in err and not out.exists()
    code, err = run_converter(monkeypatch, "keep", "semeion", str(tmp_path / "nowhere.data"))
    assert code == 2 and "cannot read" in err and "nowhere.data" in err
    assert not list((tmp_path / "data").iterdir())
    source = semeion_data(tmp_path / "semeion.data")
    assert run_converter(monkeypatch, "keep", "semeion", str(source)) == (0, "")
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["semeion.npz"]
    assert run_converter(monkeypatch, "write", "semeion", str(out)) == (0, "")
    assert len(real_digits.from_file(out)) == len(other_hands.part("semeion")) == 40
    code, err = run_converter(monkeypatch, "write", "usps", str(tmp_path / "u.npz"))
    assert code == 2 and "--source zip.test" in err
    assert not (tmp_path / "u.npz").exists()
    nowhere = tmp_path / "no" / "s.npz"
    code, err = run_converter(monkeypatch, "write", "semeion", str(nowhere))
    assert code == 2 and f"cannot write {nowhere}" in err
    assert not (tmp_path / "no").exists()
    other_hands.load.cache_clear()


def test_the_bench_and_training_refuse_other_hands_they_do_not_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bench_reader: ModuleType
) -> None:
    monkeypatch.setattr(other_hands, "DATA", tmp_path)
    other_hands.load.cache_clear()
    monkeypatch.setattr(sys, "argv", ["bench_reader.py", "--set", "optdigits", "--count", "1"])
    with pytest.raises(SystemExit) as stop:
        bench_reader.main()
    assert stop.value.code == 2
    from training import train_digits

    monkeypatch.setattr(sys, "argv", ["train_digits", "--other-hands-nets", "1"])
    with pytest.raises(SystemExit) as stop:
        train_digits.main()
    assert stop.value.code == 2


def test_training_without_the_train_extra_stops_before_any_work(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from training import train_digits

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else found(name, *a)
    )
    monkeypatch.setattr(train_digits, "views_dataset", _never)
    monkeypatch.setattr(sys, "argv", ["train_digits"])
    with pytest.raises(SystemExit) as stop:
        train_digits.main()
    assert stop.value.code == 2
    said = capsys.readouterr().err
    assert "training needs PyTorch" in said and "pip install -e '.[train]'" in said
    # Calibrating the shipped weights again needs neither.
    monkeypatch.setattr(train_digits, "calibration_photos", _never)
    monkeypatch.setattr(train_digits.real_digits, "load_all", lambda: None)
    monkeypatch.setattr(sys, "argv", ["train_digits", "--calibrate-only"])
    with pytest.raises(AssertionError, match="got as far as"):
        train_digits.main()


def _never(*args: object, **kwargs: object) -> None:
    raise AssertionError("got as far as the work itself")


def test_training_refuses_an_ensemble_of_no_network() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "training.train_digits", "--nets", "0", "--other-hands-nets", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2 and "at least one network" in done.stderr
