"""Shared fixtures. Tests read built PDFs back with printgen.render.readback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
