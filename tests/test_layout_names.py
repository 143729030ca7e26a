"""A layout's name comes from outside (a typed-in sheet, a QR code, --layout, a URL): only the
names the project ships are accepted, and never as a path (issue 19)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.cli import cli
from printgen.errors import LayoutError
from printgen.games.aiue_battle.layout import load_layout as aiue_layout
from printgen.games.one.layout import load_layout as one_layout
from printgen.games.one_page_war.layout import load_layout as opw_layout
from printgen.games.package_war.materials import load_layout as package_war_layout
from printgen.layouts import layout_names, read_layout
from printgen.paths import LAYOUTS_DIR

EXAMPLES = Path(__file__).parents[1] / "examples"
LOADERS = [opw_layout, one_layout, aiue_layout, package_war_layout]
FORGED = ["../package-war/pad", "../one/standard", "standard/../standard", "/etc/passwd", ""]
ODD = ["Standard", "standard ", " standard", "standard\n", "standard.toml", "x" * 300, "-", "ü"]


@pytest.mark.parametrize("loader", LOADERS, ids=lambda f: f.__module__)
@pytest.mark.parametrize("name", FORGED + ODD)
def test_only_shipped_names_load(loader, name: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(LayoutError) as caught:
        loader(name)
    message = str(caught.value)
    assert "known layouts:" in message
    assert str(LAYOUTS_DIR) not in message  # the server's folders stay private
    assert len(message) < 300


def test_a_layout_file_elsewhere_on_the_machine_is_never_read(tmp_path: Path) -> None:
    forged = tmp_path / "evil.toml"
    shutil.copy(LAYOUTS_DIR / "one-page-war" / "standard.toml", forged)
    with pytest.raises(LayoutError, match="unknown One Page War layout"):
        read_layout("one-page-war", str(tmp_path / "evil"), "One Page War")


@pytest.mark.parametrize("name", [None, 5, ["standard"], {"name": "standard"}, True])
def test_a_name_that_is_not_text_is_unknown(name: object) -> None:
    with pytest.raises(LayoutError, match="known layouts: standard"):
        read_layout("one-page-war", name, "One Page War")


def test_the_shipped_names_still_load() -> None:
    assert layout_names("one-page-war") == ("standard",)
    assert layout_names("package-war") == ("mat", "pad")
    assert opw_layout("standard").name == "standard"


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_a_shipped_name_or_refused(name: str) -> None:
    if name in layout_names("one"):
        assert one_layout(name).name == name
        return
    with pytest.raises(LayoutError):
        one_layout(name)


@pytest.mark.parametrize("name", ["../package-war/pad", "/tmp/evil", "x" * 300])
def test_a_sheet_naming_a_forged_layout_is_refused_by_the_cli(
    runner, tmp_path: Path, name: str
) -> None:  # type: ignore[no-untyped-def]
    shutil.copy(LAYOUTS_DIR / "one-page-war" / "standard.toml", tmp_path / "evil.toml")
    text = (EXAMPLES / "one-page-war" / "duel.toml").read_text(encoding="utf-8")
    sheet = tmp_path / "duel.toml"
    sheet.write_text(text.replace('layout = "standard"', f'layout = "{name}"'), encoding="utf-8")
    result = runner.invoke(cli, ["score", str(sheet)])
    assert result.exit_code == 1
    assert "unknown One Page War layout" in result.output
    assert "known layouts: standard" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["../package-war/pad", "x" * 300, "/etc/passwd"])
def test_build_layout_option_takes_only_shipped_names(runner, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(cli, ["build", "one-board", "--layout", name, "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "unknown ONE layout" in result.output
    assert list(tmp_path.iterdir()) == []
