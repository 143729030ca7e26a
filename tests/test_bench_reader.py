"""The photo reader's bench (bench/bench_reader.py): what it takes and what it reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("size", "expected"),
    [("12", "expected WIDTHxHEIGHT"), ("4032*3024", "expected WIDTHxHEIGHT"), ("200x5000", "300")],
)
def test_the_bench_names_a_photo_size_it_cannot_take(size: str, expected: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_reader.py"), "--size", size],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert f"--size: {size!r}" in done.stderr and expected in done.stderr


def test_the_bench_help_says_what_it_does_and_names_every_set(bench_reader: ModuleType) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_reader.py"), "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0
    words = " ".join(done.stdout.split())
    # The whole first paragraph of its docstring, not its first line cut mid-sentence.
    assert "in writing the recogniser never saw." in words
    for name in bench_reader.FIRST_SEED:
        assert name in words


def test_the_bench_takes_a_photo_size_in_either_case(bench_reader: ModuleType) -> None:
    assert bench_reader.photo_size("1600X1200") == (1600, 1200)
    assert bench_reader.photo_size("4032x3024") == (4032, 3024)


def test_the_bench_reports_the_ceiling_no_flagging_could_pass(bench_reader: ModuleType) -> None:
    """A misread must be flagged, so only a sheet with no cell misread can be final with none
    unflagged, and only a square read right can be accepted and right."""

    def sheet(accepted: int, flagged: int, caught: int, silent: int) -> dict[str, Any]:
        counts = {
            "accepted_right": accepted,
            "flagged_right": flagged,
            "caught": caught,
            "silent": silent,
        }
        return {"squares": counts, "cells": counts}

    line = bench_reader._ceiling_line([sheet(30, 8, 0, 0), sheet(35, 3, 2, 0), sheet(36, 3, 0, 1)])
    assert "squares read right 97.46%" in line  # 115 of 118
    assert "sheets with no cell misread 1/3 = 33%" in line


def test_a_kept_folder_says_how_its_photos_were_made(
    bench_reader: ModuleType, tmp_path: Path
) -> None:
    """--keep reuses photos only when made the same way: a folder's figures must be those of the
    photos its heading names."""
    made = bench_reader.made_with("drawn", (1600, 1200), None, False, None)
    assert made == {
        "set": "drawn",
        "size": "1600x1200",
        "layout version": "current",
        "QR code covered": False,
    }
    assert bench_reader.kept_problem(tmp_path, made) is None  # nothing kept yet
    (tmp_path / "sheet-1.jpg").write_bytes(b"")
    assert bench_reader.RECORD in bench_reader.kept_problem(tmp_path, made)
    (tmp_path / bench_reader.RECORD).write_text(json.dumps(made))
    assert bench_reader.kept_problem(tmp_path, made) is None
    bigger = bench_reader.made_with("drawn", (4032, 3024), None, False, None)
    problem = bench_reader.kept_problem(tmp_path, bigger)
    assert problem and "size '1600x1200' there, '4032x3024' here" in problem
    assert str(tmp_path) in problem


def test_a_digits_file_is_known_by_its_content(bench_reader: ModuleType, tmp_path: Path) -> None:
    digits = tmp_path / "mine.csv"
    digits.write_text("1,0\n")
    first = bench_reader.made_with("real", (1600, 1200), 5, True, digits)
    digits.write_text("2,0\n")
    second = bench_reader.made_with("real", (1600, 1200), 5, True, digits)
    assert first["digits"].startswith("mine.csv, SHA-256 ")
    assert first["digits"] != second["digits"]
    assert first["layout version"] == 5 and first["QR code covered"] is True


def test_the_bench_refuses_a_kept_folder_of_other_photos(
    bench_reader: ModuleType, tmp_path: Path
) -> None:
    folder = tmp_path / "drawn"
    folder.mkdir()
    (folder / "sheet-1.jpg").write_bytes(b"")
    made = bench_reader.made_with("drawn", (4032, 3024), None, False, None)
    (folder / bench_reader.RECORD).write_text(json.dumps(made))
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_reader.py"), "--set", "drawn"]
        + ["--size", "1600x1200", "--keep", str(tmp_path), "--count", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert "--keep:" in done.stderr and str(folder) in done.stderr
    assert "size '4032x3024' there, '1600x1200' here" in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == [bench_reader.RECORD, "sheet-1.jpg"]


def test_the_bench_reads_only_the_photos_asked_of_a_fuller_folder(
    bench_reader: ModuleType, tmp_path: Path
) -> None:
    for seed in (1000, 1001, 1002):
        (tmp_path / f"sheet-{seed}.jpg").write_bytes(b"kept")
        (tmp_path / f"sheet-{seed}.json").write_text("{}")
    photos = bench_reader.make_corpus(tmp_path, 2, (1600, 1200), "drawn", None)
    assert [p.name for p in photos] == ["sheet-1000.jpg", "sheet-1001.jpg"]
    assert (tmp_path / "sheet-1000.jpg").read_bytes() == b"kept"  # reused, not made again
    made = json.loads((tmp_path / bench_reader.RECORD).read_text())
    assert made == bench_reader.made_with("drawn", (1600, 1200), None, False, None)


def test_fresh_seeds_are_named_in_how_the_photos_were_made(
    bench_reader: ModuleType, tmp_path: Path
) -> None:
    """--first-seed makes other photos than the set's own: a folder of them is never read again
    as the set's own, and a folder of the set's own still stands for it."""
    own = bench_reader.made_with("drawn", (1600, 1200), None, False, None)
    assert bench_reader.made_with("drawn", (1600, 1200), None, False, None, 1000) == own
    fresh = bench_reader.made_with("drawn", (1600, 1200), None, False, None, 40000)
    assert fresh == {**own, "first seed": 40000}
    (tmp_path / "sheet-40000.jpg").write_bytes(b"kept")
    (tmp_path / "sheet-40000.json").write_text("{}")
    photos = bench_reader.make_corpus(tmp_path, 1, (1600, 1200), "drawn", None, first_seed=40000)
    assert [p.name for p in photos] == ["sheet-40000.jpg"]
    assert json.loads((tmp_path / bench_reader.RECORD).read_text()) == fresh
    problem = bench_reader.kept_problem(tmp_path, own)
    assert problem and "first seed 40000 there, None here" in problem


def test_the_bench_refuses_a_negative_first_seed() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_reader.py"), "--first-seed", "-3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert "--first-seed -3: expected a seed of 0 or more" in done.stderr
