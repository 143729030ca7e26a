"""`printgen serve` in a real headless Chromium, as a phone 360 px wide would use it.

Debian's `chromium` package driven by Playwright's Python package, which talks to the browser
over its DevTools protocol and downloads no browser of its own (`playwright install` is never
run). Playwright rather than Selenium: it needs no chromedriver matched to the browser, and it
uploads files and catches downloads without browser preferences. `.ci/run` installs Chromium."""

from __future__ import annotations

import json
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "no /usr/bin/chromium: the browser tests need Debian's chromium package "
        "(apt-get install -y chromium; .ci/run installs it)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser tests need playwright: pip install -e '.[test]'"
)

ROOT = Path(__file__).resolve().parents[1]
DUEL = ROOT / "examples" / "one-page-war" / "duel.toml"
PHONE = {"width": 360, "height": 740}
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# The reader names the two sides of a photographed sheet; the example's players in that order.
SIDES = ("First", "Second")
# The square the photo smudges, so that it is read unsure (Air, far side, third square).
SMUDGED = ("Air", "Second", 3)


@pytest.fixture(scope="module")
def uploads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("uploads")


@pytest.fixture(scope="module")
def base_url(uploads: Path) -> Iterator[str]:
    from werkzeug.serving import make_server

    from printgen.web import create_app

    server = make_server("127.0.0.1", 0, create_app(upload_root=uploads), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    opened = context.new_page()
    yield opened
    context.close()


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("path", ["/", "/materials", "/type", "/photo"])
def test_each_page_fits_a_360_px_screen(page: Any, base_url: str, path: str) -> None:
    page.goto(base_url + path)
    assert page_width(page) <= PHONE["width"]


def test_typing_in_a_sheet_shows_the_winner(page: Any, base_url: str) -> None:
    page.goto(base_url + "/")
    page.get_by_role("link", name="Type in a sheet").click()
    page.fill("#text", DUEL.read_text(encoding="utf-8"))
    page.get_by_role("button", name="Score").click()
    assert page.text_content("#winner") == "Ann"
    assert page.text_content("#summary") == "Ann wins, 3 arenas to 2"
    assert page_width(page) <= PHONE["width"]


def test_a_typing_mistake_is_shown_on_the_form(page: Any, base_url: str) -> None:
    page.goto(base_url + "/type")
    page.fill("#text", 'game = "one-page-war"\nmode = "duel"\nplayers = ["Ann"]')
    page.get_by_role("button", name="Score").click()
    assert "the pasted sheet" in (page.text_content(".error") or "")
    assert page.input_value("#text").startswith('game = "one-page-war"')


def test_a_material_downloads_as_a_pdf(page: Any, base_url: str) -> None:
    from printgen.games import all_materials
    from printgen.materials import BuildOptions
    from printgen.render.units import Paper

    page.goto(base_url + "/materials")
    link = page.locator('a[href="/materials/war-card-a4.pdf"]')
    assert link.text_content() == "PDF A4"
    with page.expect_download() as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename == "war-card-a4.pdf"
    card = next(m for m in all_materials() if m.name == "war-card")
    assert Path(download.path()).read_bytes() == card.build(BuildOptions(paper=Paper.A4), None)


# --- a photographed sheet -----------------------------------------------------------------


def duel() -> dict[str, Any]:
    return dict(tomllib.loads(DUEL.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def sheet_photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example duel written on a printed sheet by two hands and photographed a little
    tilted, with one square smudged by a blot."""
    import cv2
    import photo_corpus as corpus

    from printgen.games.one_page_war.geometry import Kind, Side, sheet_geometry
    from printgen.render.units import Paper

    sheet = duel()
    players = dict(zip((Side.FIRST, Side.SECOND), sheet["players"], strict=True))
    geometry = sheet_geometry("standard", Paper.A4)
    truth: dict[Any, str] = {}
    for e in geometry.elements:
        if e.arena is None:
            continue
        arena = sheet["arenas"][e.arena]
        if e.kind is Kind.SQUARE and e.side is not None:
            truth[corpus.key(e)] = str(arena[players[e.side]][e.index])
        elif e.kind is Kind.TICK:
            # One use of a power ticks a box on both sides.
            truth[corpus.key(e)] = (
                "ticked" if e.index < sum(arena.get("ticks", {}).values()) else "empty"
            )
        elif e.kind is Kind.ALLIES:
            truth[corpus.key(e)] = "S" if arena.get("allies") else "empty"
    page = corpus.fill_sheet(corpus.blank_sheet(Paper.A4, "duel"), truth, seed=3)
    arena, side, square = SMUDGED
    blot = geometry.find(Kind.SQUARE, arena, Side(side.lower()), square - 1)
    k = corpus.SHEET_PX_PER_MM
    centre = (int((blot.x + blot.w / 2) * k), int((blot.y + blot.h / 2) * k))
    axes = (int(blot.w * k * 0.45), int(blot.h * k * 0.3))
    cv2.ellipse(page, centre, axes, 30, 0, 360, (60, 60, 70), -1)
    shot = corpus.Shot(
        size=(2400, 1800), tilt_deg=10, rotation_deg=183, blur=0.5, noise=2, jpeg_quality=90,
        shadow=0.1, gradient=0.1, seed=7,
    )  # fmt: skip
    path = tmp_path_factory.mktemp("photo") / "IMG_2041.jpg"
    corpus.save_photo(corpus.photograph(page, shot), path, shot)
    return path


def truth_of(field: str) -> str:
    """What the example sheet holds in the cell a correction field names."""
    sheet = duel()
    kind, arena, *where = field.split("|")
    if kind == "allies":
        return "S" if sheet["arenas"][arena].get("allies") else ""
    player, square = sheet["players"][SIDES.index(where[0])], int(where[1])
    return str(sheet["arenas"][arena][player][square - 1])


def test_a_photo_is_read_and_its_unsure_cells_corrected(
    page: Any, base_url: str, sheet_photo: Path, uploads: Path
) -> None:
    page.goto(base_url + "/photo")
    page.set_input_files("#photo", str(sheet_photo))
    page.get_by_role("button", name="Read and score").click()
    assert page.text_content("h1") == "Photo result"
    image = page.locator("figure img")
    assert (image.get_attribute("src") or "").startswith("data:image/jpeg;base64,")
    assert page_width(page) <= PHONE["width"]
    assert list(uploads.iterdir()) == []  # the photo is gone once scored

    fields = page.locator("#unsure .cell")
    names = [fields.nth(i).get_attribute("name") or "" for i in range(fields.count())]
    smudged = "square|{}|{}|{}".format(*SMUDGED)
    assert smudged in names, f"the smudged square was not reported unsure: {names}"

    # Put right every unsure cell from the sheet itself: the winner is the sheet's.
    for name in names:
        field = page.locator(f'[name="{name}"]')
        if name.startswith("allies|"):
            field.select_option(truth_of(name))
        else:
            field.fill(truth_of(name))
    page.get_by_role("button", name="Score with these").click()
    assert page.text_content("h1") == "Corrected result"
    assert page.text_content("#winner") == SIDES[0]  # Ann's side, as in the CLI's result
    assert "Final result." in (page.text_content("#result") or "")

    # A slip in the smudged square: Ben's 4 4 4 in Air now beats Ann's pair, and the game.
    page.locator(f'[name="{smudged}"]').fill("4")
    page.get_by_role("button", name="Score with these").click()
    assert page.text_content("#winner") == SIDES[1]
    assert page.text_content("#summary") == f"{SIDES[1]} wins, 3 arenas to 2"
    assert page_width(page) <= PHONE["width"]


def test_a_file_that_is_not_a_photo_gets_a_message(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.jpg"
    notes.write_text(json.dumps({"not": "a photo"}))
    page.goto(base_url + "/photo")
    page.set_input_files("#photo", str(notes))
    page.get_by_role("button", name="Read and score").click()
    assert "notes.jpg is not an image" in (page.text_content(".error") or "")


def test_a_photo_over_20_mb_gets_a_page_not_a_broken_connection(
    page: Any, base_url: str, tmp_path: Path
) -> None:
    big = tmp_path / "big.jpg"
    big.write_bytes(b"\xff\xd8" + bytes(21 * 1024 * 1024))
    page.goto(base_url + "/photo")
    page.set_input_files("#photo", str(big))
    with page.expect_navigation():
        page.get_by_role("button", name="Read and score").click()
    assert page.text_content("h1") == "Sorry (413)"
    assert "over 20 MB" in (page.text_content(".error") or "")
