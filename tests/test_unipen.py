"""UNIPEN's tablet digits (training/unipen.py): read from the distribution's files, kept as
strokes, drawn as ink, a few of each digit by each writer measured."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from training import unipen  # noqa: E402

# A contributor's pen data (in `include`, as the distribution keeps it): a tablet whose y counts
# upwards and whose units are twice as tall as wide. Stroke 0 is a 1 (one down-stroke), strokes
# 1 and 2 a 7's bar and stem.
PEN_DATA = """.COMMENT a tablet
.X_POINTS_PER_INCH 200
.Y_POINTS_PER_INCH 100
.COORD X Y
.PEN_DOWN
10 40
10 20
10 0
.PEN_UP
.PEN_DOWN
0 40
40 40
.PEN_UP
.DT 100
.PEN_DOWN
40 40
10 0
.PEN_UP
"""
SEGMENTS = """.VERSION 1.0
.INCLUDE gmd/data/writer.dat
.SEGMENT CHARACTER 0 ? "1"
.SEGMENT CHARACTER 1-2 OK "7"
.SEGMENT CHARACTER 1:0-2:1 ? "4"
.SEGMENT CHARACTER 0 ? "a"
"""


def tree(tmp_path: Path, pen_data: str = PEN_DATA, segments: str = SEGMENTS) -> Path:
    (tmp_path / "include" / "gmd" / "data").mkdir(parents=True)
    (tmp_path / "include" / "gmd" / "data" / "writer.dat").write_text(pen_data)
    (tmp_path / "data" / "1a" / "gmd").mkdir(parents=True)
    (tmp_path / "data" / "1a" / "gmd" / "writer.dat").write_text(segments)
    return tmp_path


def test_a_file_gives_its_digits_strokes_upright_and_to_scale(tmp_path: Path) -> None:
    root = tree(tmp_path)
    one, seven = unipen.read_file(
        root / "data" / "1a" / "gmd" / "writer.dat", root / "include", "gmd/writer"
    )
    # The 4 cut inside a stroke and the letter are left out.
    assert (one.label, seven.label) == (1, 7)
    assert len(one.strokes) == 1 and len(seven.strokes) == 2
    # y downwards, as a page is read: the 1 was written top (y 40) to bottom (y 0).
    top, _, bottom = one.strokes[0]
    assert top[1] < bottom[1]
    # A y unit is twice an x unit's length: the 1 stands 80 x units tall.
    assert bottom[1] - top[1] == pytest.approx(80)
    bar, stem = seven.strokes
    assert bar[0][1] == bar[1][1] and bar[0][1] < stem[1][1]


def test_a_point_that_is_no_point_and_a_stroke_past_the_file_are_named(tmp_path: Path) -> None:
    root = tree(tmp_path, PEN_DATA.replace("10 20\n", "10 zero\n"))
    with pytest.raises(unipen.UnipenError, match=r"writer.dat, line 7: expected a point's x"):
        unipen.read_tree(root)
    root = tree(tmp_path / "past", segments=SEGMENTS.replace("1-2", "1-3"))
    with pytest.raises(unipen.UnipenError, match=r"segment 1-3 names stroke 3, but the file"):
        unipen.read_file(root / "data" / "1a" / "gmd" / "writer.dat", root / "include", "w")
    root = tree(tmp_path / "range", segments=SEGMENTS.replace("1-2", "1-x"))
    with pytest.raises(unipen.UnipenError, match=r"writer.dat, line 4: expected strokes as 3"):
        unipen.read_file(root / "data" / "1a" / "gmd" / "writer.dat", root / "include", "w")
    root = tree(tmp_path / "ppi", PEN_DATA.replace("POINTS_PER_INCH 100", "POINTS_PER_INCH ten"))
    with pytest.raises(unipen.UnipenError, match=r"line 3: expected .Y_POINTS_PER_INCH's number"):
        unipen.read_tree(root)
    with pytest.raises(unipen.UnipenError, match=r"no data/1a folder"):
        unipen.read_tree(tmp_path / "nowhere")


def test_packed_digits_draw_as_mnist_frames_its_digits(tmp_path: Path) -> None:
    from training import other_hands

    root = tree(tmp_path)
    digits = unipen.read_file(
        root / "data" / "1a" / "gmd" / "writer.dat", root / "include", "gmd/writer"
    )
    packed = unipen.pack(digits)
    assert packed["points"].dtype == np.uint8 and packed["points"].max() == unipen.SCALE
    assert list(packed["digit_starts"]) == [0, 1] and list(packed["labels"]) == [1, 7]
    seven = [packed["points"][s:e] for s, e in ((3, 5), (5, 7))]
    image = other_hands.frame(unipen.draw(seven), None)
    ys, xs = np.nonzero(image > 40)
    assert np.ptp(ys) + 1 in range(18, 23)  # taller than wide: its height is the 20 pixels
    assert np.ptp(xs) < np.ptp(ys)
    # The bar is on top: the top rows hold ink across the glyph, the bottom rows only the stem.
    assert np.ptp(xs[ys <= ys.min() + 1]) > 6 > np.ptp(xs[ys >= ys.max() - 1])


def test_the_measured_digits_are_every_writers_first_few_of_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stem = np.array([[5, 0], [5, 10], [5.5, 20]], np.float64)
    ring = np.array([[0, 0], [8, 0], [8, 12], [0, 12], [0, 0]], np.float64)
    # A keen writer wrote ten 1s and ten 0s; two others one of each.
    written = [("syn/keen", 1)] * 10 + [("syn/keen", 0)] * 10
    written += [(w, d) for w in ("gmd/a", "val/b") for d in (1, 0)]
    digits = [unipen.PenDigit(d, (stem,) if d == 1 else (ring,), writer) for writer, d in written]
    monkeypatch.setattr(unipen, "FILE", tmp_path / "unipen.npz")
    np.savez(unipen.FILE, **unipen.pack(digits))
    unipen._arrays.cache_clear()
    unipen.load.cache_clear()
    try:
        drawn, writer = unipen.load()
        assert drawn.labels.tolist() == [d for _, d in written]
        assert len(set(writer.tolist())) == 3
        measured = unipen.measured()
        # The writer of twenty digits gives no more of each than one who wrote a few.
        assert sorted(measured.labels.tolist()) == [0] * 5 + [1] * 5
    finally:
        unipen._arrays.cache_clear()
        unipen.load.cache_clear()
    assert unipen.first_of_each(np.array([4, 4, 4, 1]), np.array([0, 0, 1, 0]), 1).tolist() == [
        True,
        False,
        True,
        True,
    ]


def test_the_file_is_not_shipped_and_its_absence_says_how_to_make_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(unipen, "FILE", tmp_path / "unipen.npz")
    unipen._arrays.cache_clear()
    unipen.load.cache_clear()
    from training import other_hands

    with pytest.raises(other_hands.MissingDataError) as caught:
        other_hands.part("unipen")
    assert str(unipen.FILE) in str(caught.value)
    assert f"python -m training.unipen path/to/train_r01_v07 {unipen.FILE}" in str(caught.value)
    unipen._arrays.cache_clear()


def test_two_digits_in_one_box_and_a_digit_short_of_a_stroke_are_left_out() -> None:
    zero = np.array([[0, 0], [6, 0], [6, 10], [0, 10], [0, 0]], np.float64)
    assert unipen.plausible(0, [zero])
    assert not unipen.plausible(0, [zero, zero + (12, 0)])  # "00" written in one box
    stem = np.array([[5, 0], [5, 10], [5.5, 20]], np.float64)
    assert not unipen.plausible(4, [stem])  # a 4 kept as its stem alone
    assert unipen.plausible(1, [stem]) and unipen.plausible(7, [stem])


def test_one_writers_files_are_one_writer() -> None:
    assert unipen.writer_of("val", "gresai37") == "val/gresai"
    assert unipen.writer_of("val", "gresai30") == "val/gresai"
    assert unipen.writer_of("art", "art01tst") == unipen.writer_of("art", "art01trn")
    assert unipen.writer_of("apa", "app0032") != unipen.writer_of("apa", "app0034")


def test_the_converter_writes_the_file_or_nothing(tmp_path: Path) -> None:
    root = tree(tmp_path / "tree")
    out = tmp_path / "digits.npz"
    run = [sys.executable, "-m", "training.unipen", str(root), str(out)]
    done = subprocess.run(run, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "2 digits by 1 writers" in done.stdout
    with np.load(out) as data:
        assert list(data["labels"]) == [1, 7]
    out.unlink()
    (root / "include" / "gmd" / "data" / "writer.dat").write_text(PEN_DATA.replace("10 20", "x"))
    failed = subprocess.run(run, capture_output=True, text=True, cwd=ROOT)
    assert failed.returncode == 2
    assert "writer.dat, line 7: expected a point's x and y, found 'x'" in failed.stderr
    assert not out.exists() and not list(tmp_path.glob("*.tmp*"))
