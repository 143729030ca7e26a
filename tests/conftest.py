"""Shared fixtures. Tests read built PDFs back with printgen.render.readback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import settings

# Property tests assert behaviour, not speed: a loaded CI machine must not fail them on
# Hypothesis's per-example deadline (speed is measured by bench/, never by a test).
settings.register_profile("printgen", deadline=None)
settings.load_profile("printgen")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
