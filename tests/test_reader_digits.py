"""The mark recogniser: the shipped model, its features, and what it says about clear marks."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from printgen.games.one_page_war.reader import digits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from training import handwriting as hw  # noqa: E402


def test_shipped_model_is_small_and_loads_without_pickle() -> None:
    assert digits.MODEL_PATH.stat().st_size < 2 * 1024 * 1024
    with np.load(digits.MODEL_PATH, allow_pickle=False) as data:
        assert tuple(str(c) for c in data["classes"]) == digits.CLASSES
    model = digits.load_model_file(digits.MODEL_PATH)
    for net in model.nets:
        assert net.weights[0].shape[0] == digits.FEATURES
        assert net.weights[-1].shape[1] == len(digits.CLASSES)
    assert 0.5 < model.threshold < 1.0


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    model = digits.model()
    path = tmp_path / "m.npz"
    digits.save_model(path, model)
    again = digits.load_model_file(path)
    x = np.random.default_rng(0).normal(0, 1, (3, digits.FEATURES)).astype(np.float32)
    assert np.allclose(model.probabilities(x), again.probabilities(x), atol=1e-3)


def test_a_model_for_other_classes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    with np.load(digits.MODEL_PATH, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["classes"] = np.array(["a", "b"])
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match="classes"):
        digits.load_model_file(path)


def test_paper_with_dust_has_no_significant_ink() -> None:
    ink = np.zeros((70, 70), np.float32)
    ink[10, 10] = 0.9  # a speck
    ink += np.random.default_rng(1).uniform(0, 0.08, ink.shape).astype(np.float32)
    assert digits.features(digits.significant_ink(ink)) is None


def test_box_line_remnant_along_the_edge_is_not_ink() -> None:
    ink = np.zeros((70, 70), np.float32)
    ink[:, 0:2] = 0.5
    marks = digits.significant_ink(ink)
    assert marks.boxes == ()


def test_features_do_not_depend_on_pen_darkness() -> None:
    w = hw.writer(3, held_out=True)
    rng = np.random.default_rng(5)
    ink = hw.draw_glyph("4", (70, 70), w, rng)
    ink = ink / max(float(ink.max()), 1e-6)
    dark = digits.features(digits.significant_ink(ink * 0.95))
    light = digits.features(digits.significant_ink(ink * 0.5))
    assert dark is not None and light is not None
    assert np.abs(dark[: digits.SIDE**2] - light[: digits.SIDE**2]).mean() < 0.05


def test_clear_marks_of_held_out_writers_are_read() -> None:
    """Clean marks by writers never seen in training: nearly all right, and every answer the
    reader would accept (above the calibrated threshold, and not "other", which the reader
    always shows as unsure) right."""
    model = digits.model()
    labels = [*hw.DIGITS, hw.STAR, hw.ALLIES]
    rows, truth = [], []
    for seed in range(12):
        w = hw.writer(seed, held_out=True)
        rng = np.random.default_rng(seed)
        for label in labels:
            f = digits.features(digits.significant_ink(hw.draw_glyph(label, (72, 72), w, rng)))
            assert f is not None
            rows.append(f)
            truth.append(digits.CLASSES.index(label))
    p = digits.classify(rows)
    guess = p.argmax(axis=1)
    right = guess == np.array(truth)
    assert right.mean() > 0.9
    sure = (p.max(axis=1) >= model.threshold) & (guess != digits.CLASSES.index(digits.OTHER))
    assert sure.mean() > 0.5
    assert (right | ~sure).all()
