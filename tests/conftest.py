"""Shared fixtures. Tests read built PDFs back with printgen.render.readback."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner
from hypothesis import settings

from training import handwriting

# Property tests assert behaviour, not speed: a loaded CI machine must not fail them on
# Hypothesis's per-example deadline (speed is measured by bench/, never by a test).
settings.register_profile("printgen", deadline=None)
# CI gives a verdict on the change, so its examples are the same on every run; a local run
# keeps drawing new ones, and a failure found there is kept in .hypothesis/ and replayed.
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "printgen")

# The corpus the tests write is the same on every machine. Handwriting fonts found on this one
# (installed, or named by PRINTGEN_HANDWRITING_FONTS for training) would change every writer
# drawn from a seed, and with them what the reader tests meet: a machine with Comic Neue
# installed failed three reader tests that pass on CI.
handwriting.FONT_DIRS = ()
handwriting.find_font.cache_clear()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture(scope="session")
def bench_reader() -> ModuleType:
    """bench/bench_reader.py as a module (it is a script, not part of the package)."""
    path = Path(__file__).resolve().parents[1] / "bench" / "bench_reader.py"
    spec = importlib.util.spec_from_file_location("bench_reader", path)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench
