"""The photo reader's bench (bench/bench_reader.py): what it takes and what it reports."""

from __future__ import annotations

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
