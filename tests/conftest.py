"""Shared fixtures. Tests read built PDFs back with printgen.render.readback."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from hypothesis import settings

# Property tests assert behaviour, not speed: a loaded CI machine must not fail them on
# Hypothesis's per-example deadline (speed is measured by bench/, never by a test).
settings.register_profile("printgen", deadline=None)
# CI gives a verdict on the change, so its examples are the same on every run; a local run
# keeps drawing new ones, and a failure found there is kept in .hypothesis/ and replayed.
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "printgen")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
