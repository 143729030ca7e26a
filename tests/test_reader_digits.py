"""The mark recogniser: the shipped model file, its input, the numpy network, and what it says
about clear marks by writers and real people it never learnt from."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from printgen.games.one_page_war.geometry import Kind, Side
from printgen.games.one_page_war.layout import load_layout
from printgen.games.one_page_war.reader import digits
from printgen.games.one_page_war.reader.cells import Reading
from printgen.games.one_page_war.reader.errors import ModelFileError
from printgen.render.units import Paper

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from training import handwriting as hw  # noqa: E402
from training import measure_digits, real_digits  # noqa: E402


def _arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def test_shipped_model_is_small_and_loads_without_pickle() -> None:
    assert digits.MODEL_PATH.stat().st_size <= 5 * 1024 * 1024
    arrays = _arrays(digits.MODEL_PATH)  # raises if any array needed pickle
    assert all(a.dtype != object for a in arrays.values())
    assert tuple(str(c) for c in arrays["classes"]) == digits.CLASSES
    model = digits.load_model_file(digits.MODEL_PATH)
    assert len(model.nets) >= 1
    for net in model.nets:
        assert net.convs and net.weights[-1].shape[1] == len(digits.CLASSES)
    assert digits.MIN_STROKE > 0 and 0.5 < model.threshold < 1.0


def test_the_model_is_loaded_on_first_read_not_at_import() -> None:
    code = (
        "import printgen.games.one_page_war.reader as r, "
        "printgen.games.one_page_war.reader.digits as d; "
        "print(d.model.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    model = digits.model()
    path = tmp_path / "m.npz"
    digits.save_model(path, model)
    again = digits.load_model_file(path)
    x = np.random.default_rng(0).uniform(0, 1, (3, digits.FEATURES)).astype(np.float32)
    assert np.allclose(model.probabilities(x), again.probabilities(x), atol=1e-4)
    assert again.threshold == pytest.approx(model.threshold)
    assert not list(tmp_path.glob("*.tmp*"))  # written through a temporary file, then renamed


def test_another_model_file_is_read_with_and_a_damaged_one_refused(tmp_path: Path) -> None:
    """The bench measures weights trained for cross-validation (`use_model_file`)."""
    other = tmp_path / "fold2.npz"
    digits.save_model(other, digits.model().with_calibration(1.0, 0.9))
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(other.read_bytes()[:4000])
    try:
        digits.use_model_file(other)
        assert digits.model().threshold == pytest.approx(0.9)
        with pytest.raises(ModelFileError, match="cut short"):
            digits.use_model_file(damaged)
        assert digits.model().threshold == pytest.approx(0.9)  # the one in use stays
    finally:
        digits.use_model_file(digits.MODEL_PATH)
    assert digits.model().threshold == digits.load_model_file(digits.MODEL_PATH).threshold


def test_the_ensemble_averages_logits_and_doubts_where_members_disagree() -> None:
    n = len(digits.CLASSES)
    five, three = np.zeros(n), np.zeros(n)
    five[5], three[3] = 8.0, 8.0
    agree = digits.ensemble_probabilities(np.stack([five, five])[None], 1.0)[0]
    alone = np.exp(five - five.max()) / np.exp(five - five.max()).sum()
    assert np.allclose(agree, alone)  # members that agree: as one member
    other = 0.5 * five + three  # a member that leans to 3
    split = digits.ensemble_probabilities(np.stack([five, other])[None], 1.0)[0]
    assert split.argmax() == 5 and split[5] < 0.9 < 0.99 < agree[5]  # doubt where they differ
    mean = (five + other) / 2  # the logits' mean through a softmax, not the probabilities' mean
    assert np.allclose(split, np.exp(mean - mean.max()) / np.exp(mean - mean.max()).sum())
    cooler = digits.ensemble_probabilities(np.stack([five, five])[None], 2.0)[0]
    assert cooler[5] < agree[5] and np.isclose(split.sum(), 1.0)


def test_a_truncated_model_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.npz"
    data = digits.MODEL_PATH.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFileError, match=r"cut\.npz.*damaged or cut short"):
        digits.load_model_file(path)
    path.write_bytes(b"")
    with pytest.raises(ModelFileError, match="damaged or cut short"):
        digits.load_model_file(path)


def test_a_changed_model_file_is_a_clear_error(tmp_path: Path) -> None:
    arrays = _arrays(digits.MODEL_PATH)
    weight = next(k for k in arrays if k.endswith("_w"))
    arrays[weight] = arrays[weight].copy()
    arrays[weight].flat[0] += 1  # one weight changed, the digest left as it was
    path = tmp_path / "changed.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    with pytest.raises(ModelFileError, match=r"changed\.npz.*changed after it was written") as e:
        digits.load_model_file(path)
    # A model file of one's own training is written again, not reinstalled with printgen.
    assert "train_digits --out" in str(e.value) and "reinstall" not in str(e.value)


def test_a_damaged_shipped_model_says_to_reinstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tmp_path / "digits_model.npz"
    monkeypatch.setattr(digits, "MODEL_PATH", shipped)  # a damaged file where printgen ships one
    shipped.write_bytes(b"not a model")
    with pytest.raises(ModelFileError, match="reinstall printgen"):
        digits.load_model_file(shipped)


def test_a_model_for_other_classes_or_an_older_format_is_refused(tmp_path: Path) -> None:
    arrays = _arrays(digits.MODEL_PATH)
    arrays["classes"] = np.array(["a", "b"])
    arrays["digest"] = np.array(digits._digest(arrays))
    path = tmp_path / "m.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    with pytest.raises(ModelFileError, match="classes"):
        digits.load_model_file(path)
    old = tmp_path / "v4.npz"
    np.savez(old, mean=np.zeros(3), classes=np.array(digits.CLASSES))
    with pytest.raises(ModelFileError, match="format none"):
        digits.load_model_file(old)
    with pytest.raises(ModelFileError, match="missing"):
        digits.load_model_file(tmp_path / "absent.npz")


def test_a_model_error_is_a_printgen_error() -> None:
    from printgen.errors import PrintgenError

    assert issubclass(ModelFileError, PrintgenError) and issubclass(ModelFileError, ValueError)


@pytest.mark.parametrize("channels", [1, 3])  # the first layer's columns are built apart
def test_numpy_convolution_matches_a_reference(channels: int) -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (2, 9, 9, channels)).astype(np.float32)
    w = rng.normal(0, 1, (3, 3, channels, 4)).astype(np.float32)
    b = rng.normal(0, 1, 4).astype(np.float32)
    out = digits.Conv(w, b, pad=True, pool=False)(x)
    for n in range(2):
        for k in range(4):
            ref = sum(
                cv2.filter2D(x[n, :, :, c], -1, w[:, :, c, k], borderType=cv2.BORDER_CONSTANT)
                for c in range(channels)
            )
            assert np.allclose(out[n, :, :, k], np.maximum(ref + b[k], 0), atol=1e-4)
    pooled = digits.Conv(w, b, pad=False, pool=True)(x)
    assert pooled.shape == (2, 3, 3, 4)


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


def _leaning(slant: float) -> np.ndarray:
    """A 28 x 28 image of a stroke, as a plain 1, leaning right by `slant` (columns per row,
    about the middle row)."""
    image = np.zeros((digits.SIDE, digits.SIDE), np.float32)
    for y in range(4, 24):
        x = int(round(14 + slant * (14 - y)))
        image[y, x - 1 : x + 2] = 1.0
    return image


def _lean(image: np.ndarray) -> float:
    """How far the ink's centre moves right per row up (a least-squares fit over the rows)."""
    rows = np.flatnonzero(image.sum(axis=1) > 0.5)
    centres = [(image[y] * np.arange(digits.SIDE)).sum() / image[y].sum() for y in rows]
    return float(-np.polyfit(rows, centres, 1)[0])


@pytest.mark.parametrize("slant", [-0.4, -0.15, 0.0, 0.2, 0.5])
def test_a_leaning_mark_is_stood_upright_whichever_way_it_leans(slant: float) -> None:
    image = _leaning(slant)
    assert _lean(image) == pytest.approx(slant, abs=0.06)
    upright = digits.upright(image)
    assert abs(_lean(upright)) < 0.12
    assert upright.sum() == pytest.approx(image.sum(), rel=0.05)  # nothing sheared off the edge


def test_a_flat_mark_is_left_as_it_is() -> None:
    dash = np.zeros((digits.SIDE, digits.SIDE), np.float32)
    dash[14, 4:24] = 1.0
    assert np.array_equal(digits.upright(dash), dash)
    assert np.array_equal(digits.upright(np.zeros_like(dash)), np.zeros_like(dash))


def test_features_do_not_depend_on_pen_darkness_or_stroke_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sample = real_digits.test_sample()
    i = int(sample.of(4)[0])
    box = (8.0, 8.0, 62.0, 62.0)

    def image(pen: real_digits.Pen) -> np.ndarray:
        r = np.random.default_rng(9)  # the same placement every time
        ink = real_digits.write_digit(sample.images[i], sample.skeleton(i), (70, 70), box, pen, r)
        f = digits.features(digits.significant_ink(ink))
        assert f is not None
        return f

    dark = image(real_digits.Pen(0.03, 0.95, False))
    light = image(real_digits.Pen(0.03, 0.5, False))
    bold = image(real_digits.Pen(0.14, 0.95, False))
    assert np.abs(dark - light).mean() < 0.05
    # A fine pen is thickened towards the common weight: closer to a bold pen than it would be.
    monkeypatch.setattr(digits, "MIN_STROKE", 0.0)
    fine = image(real_digits.Pen(0.03, 0.95, False))
    assert np.abs(dark - bold).mean() < 0.7 * np.abs(fine - bold).mean()


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
    sure = measure_digits.accepted(model, p)
    # 77.1 % at the floor of 0.997 (docs/rulings.md, the reader's rulings on the rules as
    # evidence, 14; 79.2 % at 0.995, 98.6 % right), 84.0 % with the networks before the upright
    # shear (97.9 % right): two of these twelve writers write the continental 1, which stays
    # unsure, and S and 5 went 5 points down, stars, 0 and 1 4 to 5 points up over 300
    # held-out writers.
    assert sure.mean() > 0.75
    assert (right | ~sure).all()


def test_clean_real_digits_come_back_sure_and_right() -> None:
    """Real people's digits the model never learnt from, written plainly in a square: a clean
    ordinary digit must not come back unsure, and none is accepted wrong."""
    sample = real_digits.test_sample()
    model = digits.model()
    rows = list(measure_digits.plain(sample, seed=2).rows)
    p = digits.classify(rows)
    guess = p.argmax(axis=1)
    right = guess == sample.labels
    shown = [digits.CLASSES[g] for g in guess]
    sure = measure_digits.accepted(model, p)
    for k in np.flatnonzero(~right & sure):
        print(f"digit {sample.labels[k]} read as {shown[k]} at {p[k].max():.4f}")
    assert right.mean() >= 0.96
    # 80 % with the shipped calibration (every class at the floor, 0.995, temperature 1.0);
    # 77.5 % with the networks before the upright shear (one pooled threshold, 0.9958), where a
    # threshold per class (85 % here, with the weights before them) had let a 3 read as 2
    # through at the floor on the measure sheets.
    assert sure.mean() >= 0.75
    assert (right | ~sure).all()


def test_real_digits_written_with_a_felt_tip_are_read() -> None:
    """A felt tip on a small digit (strokes a fifth of its height and more) fills its loops and
    gaps. The networks learnt such strokes too (train_digits.FAT_PENS): of the held-out sample,
    each written once so, 91 % read right and 51.5 % surely, none wrong (the networks before the
    upright shear: 94 % and 48.5 %; on 1,200 such squares, 93.6 % and 94.3 % right; the weights
    before felt tips, which had never seen one: 87 % and 38 %)."""
    sample = real_digits.test_sample()
    model = digits.model()
    marks = measure_digits.written(sample, 1, 1, measure_digits.PENS["felt tip (20-24 %)"])
    p = digits.classify(list(marks.rows))
    guess = p.argmax(axis=1)
    right = guess == marks.labels
    sure = measure_digits.accepted(model, p)
    assert len(marks.labels) == len(sample)
    assert right.mean() >= 0.9
    assert sure.mean() >= 0.45
    assert (right | ~sure).all()


def test_a_batch_longer_than_a_chunk_gives_each_mark_what_it_gets_alone() -> None:
    net = digits.model().nets[0]
    rng = np.random.default_rng(11)
    images = rng.random((2 * digits.CHUNK_MARKS + 5, digits.SIDE, digits.SIDE), np.float32)
    batch = net.logits(images)
    assert batch.shape == (len(images), len(digits.CLASSES))
    # In order, mark by mark (to the last bits a product's blocking may change)
    for i in (0, digits.CHUNK_MARKS - 1, digits.CHUNK_MARKS, len(images) - 1):
        assert np.allclose(batch[i], net.logits(images[i : i + 1])[0], atol=1e-4)


def test_members_read_side_by_side_give_what_they_give_one_after_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = digits.model()
    rng = np.random.default_rng(5)
    images = rng.random((digits.SIDE_BY_SIDE_MARKS + 3, digits.SIDE, digits.SIDE), np.float32)
    threads: set[str] = set()
    real_logits = digits.Net.logits

    def noting(net: digits.Net, batch: np.ndarray) -> np.ndarray:
        threads.add(threading.current_thread().name)
        return real_logits(net, batch)

    monkeypatch.setattr(digits.Net, "logits", noting)
    monkeypatch.setattr(digits, "_cores", lambda: 2)
    side_by_side = digits.members_logits(model.nets, images)
    assert len(threads) == len(model.nets)  # each member on a thread of its own
    monkeypatch.setattr(digits, "_side_by_side", False)  # as in a batch's worker
    threads.clear()
    one_after_another = digits.members_logits(model.nets, images)
    assert threads == {threading.current_thread().name}
    assert np.array_equal(side_by_side, one_after_another)


def test_a_member_failing_on_its_own_thread_fails_the_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = digits.model()
    caller = threading.current_thread()

    def failing(net: digits.Net, batch: np.ndarray) -> np.ndarray:
        if threading.current_thread() is not caller:
            raise MemoryError("out of memory on the helper thread")
        return np.zeros((len(batch), len(digits.CLASSES)), np.float32)

    monkeypatch.setattr(digits.Net, "logits", failing)
    monkeypatch.setattr(digits, "_cores", lambda: 2)
    images = np.zeros((digits.SIDE_BY_SIDE_MARKS, digits.SIDE, digits.SIDE), np.float32)
    with pytest.raises(MemoryError, match="helper thread"):
        digits.members_logits(model.nets, images)


def test_the_networks_keep_blas_to_one_thread_and_never_set_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # OpenBLAS's "local" thread count is the whole process's: the two members, each setting it
    # back when done, raced, and a photo's products came out of one thread or two.
    calls: list[tuple[int, str]] = []

    def setter(count: int) -> int:
        calls.append((count, threading.current_thread().name))
        return 2

    monkeypatch.setattr(digits, "_blas_threads_setter", lambda: setter)
    monkeypatch.setattr(digits, "_cores", lambda: 2)
    model = digits.model()
    images = np.zeros((digits.SIDE_BY_SIDE_MARKS, digits.SIDE, digits.SIDE), np.float32)
    digits.members_logits(model.nets, images)  # side by side
    digits.members_logits(model.nets, images[:1])  # on the calling thread alone
    assert {count for count, _ in calls} == {1}
    assert len({thread for _, thread in calls}) == 2  # set where each member runs


def test_the_same_marks_read_twice_give_the_same_probabilities() -> None:
    rng = np.random.default_rng(5)
    marks = (rng.random((2 * digits.SIDE_BY_SIDE_MARKS, digits.SIDE * digits.SIDE)) > 0.8).astype(
        np.float32
    )
    model = digits.model()
    first = model.probabilities(marks)
    for _ in range(30):
        assert np.array_equal(model.probabilities(marks), first)


def _a_square() -> object:
    from printgen.games.one_page_war.geometry import Kind, sheet_geometry
    from printgen.games.one_page_war.layout import load_layout
    from printgen.render.units import Paper

    return sheet_geometry(load_layout("standard"), Paper.A4).select(Kind.SQUARE)[0]


def test_an_s_counts_a_tenth_on_a_number_square(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ruling 13: a five leaning towards S, as real fives do.
    from printgen.games.one_page_war.reader import cells

    row = np.zeros(len(digits.CLASSES))
    row[digits.CLASSES.index("5")], row[digits.CLASSES.index("S")] = 0.88, 0.12
    monkeypatch.setattr(digits, "classify", lambda rows, using=None: np.tile(row, (len(rows), 1)))
    patch = hw.draw_glyph("5", (72, 72), hw.writer(0, held_out=True), np.random.default_rng(0))
    on_square = cells.square_candidates(patch)
    total = 0.88 + 0.1 * 0.12
    assert on_square["5"] == pytest.approx(0.88 / total)
    assert on_square["?"] == pytest.approx(0.012 / total)
    # In the S space it is the 5 that counts a tenth (ruling 15).
    in_space = cells.allies_candidates(patch)
    assert in_space["S"] == pytest.approx(0.12 / (0.12 + 0.1 * 0.88))
    assert in_space["?"] == pytest.approx(0.088 / (0.12 + 0.088))


def _ticks_and_allies(
    allies_ticked: int, s_written: bool, unsure_tick: bool = False
) -> tuple[tuple[Reading, ...], tuple[Reading, ...]]:
    """A sheet's tick boxes and S spaces as read: Politics' Allies box ticked on both sides
    `allies_ticked` times (0 or 1), an S in Land's S space or none."""
    from printgen.games.one_page_war.geometry import sheet_geometry

    geometry = sheet_geometry(load_layout("standard"), Paper.A4)
    ticks = []
    for e in geometry.select(Kind.TICK):
        ticked = e.arena == "Politics" and e.index < allies_ticked
        r = Reading(e, "ticked" if ticked else "empty", 1.0, "?", 0.0, False)
        if unsure_tick and e.arena == "Politics":
            r = r.doubt("near the cut")
        ticks.append(r)
    allies = tuple(
        Reading(e, "S" if s_written and e.arena == "Land" else "empty", 1.0, "?", 0.0, False)
        for e in geometry.select(Kind.ALLIES)
    )
    return tuple(ticks), allies


def test_an_s_counts_a_hundredth_where_every_allies_use_has_its_s_in_an_s_space() -> None:
    # Ruling 13: where no use of Allies is left without its S, none explains an S in a square.
    from printgen.games.one_page_war.reader import cells

    arenas = load_layout("standard").arenas
    assert cells.square_s_weight(arenas, *_ticks_and_allies(0, False)) == 0.01
    assert cells.square_s_weight(arenas, *_ticks_and_allies(1, True)) == 0.01
    assert cells.square_s_weight(arenas, *_ticks_and_allies(1, False)) == 0.1, "its S is missing"
    unsure = _ticks_and_allies(0, False, unsure_tick=True)
    assert cells.square_s_weight(arenas, *unsure) == 0.1, "an unsure box may be ticked"
    # On a solo sheet the AI's tick (its star shows it) wants no S.
    assert cells.square_s_weight(arenas, *_ticks_and_allies(1, False), ai_ticked=1) == 0.01


def test_the_solo_ais_star_read_surely_in_the_allies_arena_shows_its_tick() -> None:
    from printgen.games.one_page_war.geometry import sheet_geometry
    from printgen.games.one_page_war.reader import cells

    layout = load_layout("standard")
    squares = sheet_geometry(layout, Paper.A4).select(Kind.SQUARE)
    model = digits.model()
    star, bar = digits.CLASSES.index("*"), model.threshold_for("*")
    empty = digits.Marks(np.zeros((4, 4), np.float32), np.zeros((4, 4), bool), ())

    def ai_ticked(where: tuple[str, Side], p_star: float) -> int:
        rows = np.zeros((1, len(digits.CLASSES)))
        rows[0, star], rows[0, digits.CLASSES.index("5")] = p_star, 1 - p_star
        asked = [
            cells._Asked(empty, 0 if (e.arena, e.side) == where and e.index == 0 else None, None)
            for e in squares
        ]
        return cells.ai_ticked_allies(layout.arenas, squares, asked, rows, model)

    assert ai_ticked(("Politics", Side.SECOND), bar) == 1
    assert ai_ticked(("Politics", Side.SECOND), bar - 0.01) == 0, "a star read unsure"
    assert ai_ticked(("Politics", Side.FIRST), 1.0) == 0, "the player's side"
    assert ai_ticked(("Land", Side.SECOND), 1.0) == 0, "no Allies there"


def _held_out_s_marks() -> Iterator[tuple[int, int, np.ndarray]]:
    """48 S marks by held-out writers (12 writers, 4 each), each alone in a 72 x 72 patch, with
    its writer's seed and its number."""
    for seed in range(12):
        writer = hw.writer(seed, held_out=True)
        for k in range(4):
            yield (
                seed,
                k,
                hw.draw_glyph(hw.ALLIES, (72, 72), writer, np.random.default_rng([seed, k])),
            )


def test_where_every_allies_use_has_its_s_a_plain_s_in_a_square_still_stays_unsure() -> None:
    # Only an S shaped as a 5 (a flat top and a corner) reads as the 5 it looks like there.
    from printgen.games.one_page_war.reader import cells

    model = digits.model()
    square = _a_square()
    accepted = []
    for seed, k, patch in _held_out_s_marks():
        asked, _, p = cells._asked([patch], [], model)
        candidates = cells._square_candidates(asked[0], p, cells.ACCOUNTED_S_WEIGHT)
        reading = cells.square_reading(square, candidates, model, 6.0)  # type: ignore[arg-type]
        if not reading.unsure:
            accepted.append((seed, k, reading.value))
    assert len(accepted) <= 1 and all(value == "5" for _, _, value in accepted), accepted


def test_in_an_s_space_a_number_counts_a_tenth() -> None:
    # Ruling 15: an S space holds an S or nothing; an S leaning towards 5 is still the S, while
    # another mark (a scribble, an S struck out) keeps its weight.
    from printgen.games.one_page_war.reader import cells

    empty = digits.Marks(np.zeros((4, 4), np.float32), np.zeros((4, 4), bool), ())
    asked = cells._Asked(empty, 0, None)
    row = np.zeros((1, len(digits.CLASSES)))
    row[0, digits.CLASSES.index("S")], row[0, digits.CLASSES.index("5")] = 0.97, 0.03
    assert cells._allies_candidates(asked, row)["S"] == pytest.approx(0.97 / 0.973)
    row[0, digits.CLASSES.index("5")], row[0, digits.CLASSES.index("other")] = 0.0, 0.03
    assert cells._allies_candidates(asked, row)["S"] == pytest.approx(0.97)
    row[0, digits.CLASSES.index("other")], row[0, digits.CLASSES.index("*")] = 0.0, 0.03
    assert cells._allies_candidates(asked, row)["?"] == pytest.approx(0.003 / 0.973)


def test_held_out_writers_s_marks_in_an_s_space_are_mostly_accepted() -> None:
    # 13 of these 48 were accepted with every class at its full weight (ruling 15), 32 now.
    from printgen.games.one_page_war.reader import cells

    model = digits.model()
    bar = model.threshold_for("S")
    accepted = 0
    for _, _, patch in _held_out_s_marks():
        candidates = cells.allies_candidates(patch)
        accepted += max(candidates, key=candidates.__getitem__) == "S" and candidates["S"] >= bar
    assert accepted >= 28


def test_a_real_five_written_in_an_s_space_is_never_accepted_as_an_s() -> None:
    # A number written in the S space by mistake: its S share stays under the bar (ruling 15;
    # on the 330 measure and calibration fives written so, the surest was 0.989).
    from printgen.games.one_page_war.reader import cells

    model = digits.model()
    bar = model.threshold_for("S")
    written = measure_digits.written_squares(real_digits.test_sample(), 3, 5)
    fives = [ink for ink, label in written if label == 5]
    assert len(fives) >= 45
    for i, ink in enumerate(fives):
        assert cells.allies_candidates(ink)["S"] < bar, i


def test_an_s_written_in_a_square_is_never_accepted_as_a_number() -> None:
    from printgen.games.one_page_war.reader import cells

    model = digits.model()
    square = _a_square()
    for seed, k, patch in _held_out_s_marks():
        reading = cells.square_reading(square, cells.square_candidates(patch), model, 6.0)  # type: ignore[arg-type]
        assert reading.unsure, (seed, k, reading)


def test_a_stroke_that_only_meets_the_edge_is_ink_not_a_line_remnant() -> None:
    """A 1 written slanting beside the square's side meets the patch's edge at its foot only:
    dropped as a printed line's remnant, it left its square read as empty, surely."""
    ink = np.zeros((70, 70), np.float32)
    cv2.line(ink, (5, 0), (1, 24), 0.8, 2)
    assert len(digits.significant_ink(ink).boxes) == 1
    # A printed line a fit left a little askew still lies flush along the edge.
    ink = np.zeros((70, 70), np.float32)
    cv2.line(ink, (0, 3), (1, 66), 0.8, 2)
    assert digits.significant_ink(ink).boxes == ()
