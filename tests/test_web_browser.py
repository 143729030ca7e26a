"""`printgen serve` in a real browser: Debian's Chromium driven by Playwright at a phone's
viewport (390 x 844), as a player at the table uses it.

Skipped where /usr/bin/chromium is missing (CI installs it). Every page visited is saved as a
screenshot; set PRINTGEN_SCREENSHOTS=DIR to keep them for looking at."""

from __future__ import annotations

import os
import re
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import DUEL, EXAMPLES, example

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

PHONE = {"width": 390, "height": 844}
MIN_TAP_PX = 44
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
SMUDGED = ("Air", 1, 3)
TOKEN = "tok-Browser-9x"


class Reader:
    """The registry's photo reader, noting the size of each photo it is given and how bright
    its middle grey is."""

    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []
        self.median_greys: list[float] = []

    def __call__(self, path: Path, options: Any) -> Any:
        import numpy as np
        from PIL import Image

        from printgen.scoring import read_photo

        with Image.open(path) as image:
            self.sizes.append(image.size)
            self.median_greys.append(float(np.median(np.asarray(image.convert("L")))))
        return read_photo(path, options)


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def serve(app: Any) -> tuple[Any, threading.Thread, str]:
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{server.server_port}"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory, reader: Reader) -> Iterator[str]:
    from printgen.web import create_app

    uploads = tmp_path_factory.mktemp("uploads")
    server, thread, url = serve(create_app(upload_root=uploads, photo_reader=reader))
    yield url
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
    context = browser.new_context(viewport=PHONE, accept_downloads=True, has_touch=True)
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture
def page_without_js(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kept = os.environ.get("PRINTGEN_SCREENSHOTS")
    if kept:
        Path(kept).mkdir(parents=True, exist_ok=True)
        return Path(kept)
    return tmp_path_factory.mktemp("screens")


def look(page: Any, shots: Path, name: str) -> None:
    """A full-page screenshot, and the page fits the phone's width."""
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    assert int(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"], name


def go(page: Any, target: Any) -> None:
    """Clicks a link or submit button and waits for the page it leads to: reads straight after a
    click (input_value, all_text_contents, an id on both pages) would otherwise see the old page."""
    with page.expect_navigation():
        target.click()


def small_targets(page: Any) -> list[str]:
    """Nav links, buttons and button-like links that are less than 44 px high."""
    found = page.evaluate(
        """(min) => Array.from(document.querySelectorAll(
               'nav a, button, a.button, input[type=file], select, label.check, summary'))
             .filter(e => e.offsetParent !== null)
             .map(e => [e.textContent.trim() || e.name || e.id, e.getBoundingClientRect().height])
             .filter(([, h]) => h < min)
             .map(([t, h]) => t + ': ' + h.toFixed(1) + ' px')""",
        MIN_TAP_PX,
    )
    return [str(item) for item in found]


@pytest.mark.parametrize(
    "path", ["/", "/materials", "/type", "/photo", "/results", "/format/one-page-war-team"]
)
def test_each_page_fits_the_phone_and_its_targets_are_44_px(
    page: Any, base_url: str, shots: Path, path: str
) -> None:
    page.goto(base_url + path)
    look(page, shots, "page" + path.replace("/", "-"))
    assert small_targets(page) == []


def test_typing_in_a_sheet_shows_the_winner(page: Any, base_url: str, shots: Path) -> None:
    page.goto(base_url + "/")
    go(page, page.get_by_role("link", name="Type in a sheet"))
    page.fill("#text", DUEL.read_text(encoding="utf-8"))
    go(page, page.get_by_role("button", name="Score", exact=True))
    assert page.text_content("#winner") == "Ann"
    assert page.text_content("#summary") == "Ann wins, 3 arenas to 2"
    assert page.text_content("#status") == "Final result."
    look(page, shots, "typed-duel")
    page.reload()  # shown again, nothing sent again
    assert page.text_content("#winner") == "Ann"


def test_a_team_games_tables_are_headed_by_their_own_players(
    page: Any, base_url: str, shots: Path
) -> None:
    page.goto(base_url + "/type")
    page.fill("#text", (EXAMPLES / "one-page-war" / "team.toml").read_text(encoding="utf-8"))
    go(page, page.get_by_role("button", name="Score", exact=True))
    heads = [
        page.locator("table.arenas").nth(i).locator("thead th").all_text_contents()[1:3]
        for i in range(2)
    ]
    assert heads == [["Ann", "Ben"], ["Cid", "Dee"]]
    look(page, shots, "typed-team")


def test_a_blank_sheet_fills_the_box_and_an_unfinished_one_is_a_standing(
    page: Any, base_url: str, shots: Path
) -> None:
    page.goto(base_url + "/type")
    page.select_option("#blank", "package-war")
    go(page, page.get_by_role("button", name="Fill the box"))
    text = page.input_value("#text")
    assert tomllib.loads(text)["game"] == "package-war"
    page.fill("#text", text.replace("tables = [[], []]", "tables = [[5, 3], []]", 1))
    go(page, page.get_by_role("button", name="Score", exact=True))
    assert page.text_content("#status") == "Round scored: the game goes on."
    look(page, shots, "typed-round")


def test_a_typing_mistake_is_shown_on_the_form(page: Any, base_url: str, shots: Path) -> None:
    page.goto(base_url + "/type")
    page.fill("#text", 'game = "one-page-war"\nmode = "duel"\nplayers = ["Ann"]')
    go(page, page.get_by_role("button", name="Score", exact=True))
    assert "the pasted sheet" in (page.text_content(".error") or "")
    assert page.input_value("#text").startswith('game = "one-page-war"')
    look(page, shots, "typed-mistake")


def test_a_material_downloads_with_the_options_set_on_the_page(
    page: Any, base_url: str, shots: Path
) -> None:
    from printgen.games import all_materials
    from printgen.materials import BuildOptions
    from printgen.render.units import Paper

    page.goto(base_url + "/materials")
    look(page, shots, "materials")
    section = page.locator("#one-page-war-team")
    section.locator("input[name=pairs]").fill("3")
    with page.expect_download() as download_info:
        section.get_by_role("button", name="PDF Letter").click()
    download = download_info.value
    assert download.suggested_filename == "one-page-war-team-letter-3-pairs.pdf"
    team = next(m for m in all_materials() if m.name == "one-page-war-team")
    expected = team.build(BuildOptions(paper=Paper.LETTER, pairs=3), None)
    assert Path(download.path()).read_bytes() == expected


# --- the access token ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def guarded_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from printgen.web import create_app

    uploads = tmp_path_factory.mktemp("guarded")
    server, thread, url = serve(create_app(token=TOKEN, upload_root=uploads))
    yield url
    server.shutdown()
    thread.join(timeout=30)


@pytest.mark.parametrize("path", ["/", "/?t=wrong", "/materials", "/materials/war-card.pdf"])
def test_a_refusal_shows_no_token_anywhere(
    page: Any, guarded_url: str, shots: Path, path: str
) -> None:
    response = page.goto(guarded_url + path)
    assert response.status == 403
    assert TOKEN not in page.content()
    links = page.eval_on_selector_all("a[href], form[action]", "es => es.length")
    assert links == 0
    look(page, shots, "refused" + re.sub(r"\W", "-", path))
    page.goto(f"{guarded_url}/?t={TOKEN}")
    hrefs = page.eval_on_selector_all("a[href]", "es => es.map(e => e.getAttribute('href'))")
    assert hrefs and all(f"t={TOKEN}" in h for h in hrefs)


# --- a photographed sheet -----------------------------------------------------------------


def photographed(
    out: Path, sheet: dict[str, Any], mode: str, smudge: tuple[str, int, int] | None, seed: int,
    size: tuple[int, int] = (2400, 1800), blank: Any = None,
) -> Path:  # fmt: skip
    """`sheet` written on a printed sheet by two hands and photographed a little tilted, with
    one square smudged by a blot."""
    import cv2
    import photo_corpus as corpus

    from printgen.games.one_page_war.geometry import Kind, Side, sheet_geometry
    from printgen.render.units import Paper

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
    page = corpus.fill_sheet(blank or corpus.blank_sheet(Paper.A4, mode), truth, seed=seed)
    if smudge is not None:
        arena, side, square = smudge
        blot = geometry.find(Kind.SQUARE, arena, (Side.FIRST, Side.SECOND)[side], square - 1)
        k = corpus.SHEET_PX_PER_MM
        centre = (int((blot.x + blot.w / 2) * k), int((blot.y + blot.h / 2) * k))
        axes = (int(blot.w * k * 0.45), int(blot.h * k * 0.3))
        cv2.ellipse(page, centre, axes, 30, 0, 360, (60, 60, 70), -1)
    shot = corpus.Shot(
        size=size, tilt_deg=10, rotation_deg=183, blur=0.5, noise=2, jpeg_quality=90,
        shadow=0.1, gradient=0.1, seed=7,
    )  # fmt: skip
    corpus.save_photo(corpus.photograph(page, shot), out, shot)
    return out


@pytest.fixture(scope="module")
def sheet_photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("photo") / "IMG_2041.jpg"
    return photographed(out, example(DUEL), "duel", SMUDGED, seed=3)


def truth_of(field: str) -> str:
    """What the example sheet holds in the cell a correction field names."""
    sheet = example(DUEL)
    kind, arena, *where = field.split("|")
    if kind == "allies":
        return "S" if sheet["arenas"][arena].get("allies") else ""
    player, square = sheet["players"][int(where[0])], int(where[1])
    return str(sheet["arenas"][arena][player][square - 1])


def test_a_photo_is_read_and_its_unsure_cells_corrected(
    page: Any, base_url: str, sheet_photo: Path, reader: Reader, shots: Path
) -> None:
    page.goto(base_url + "/photo")
    page.fill("#first", "Ann")
    page.fill("#second", "Ben")
    page.set_input_files("#photos", str(sheet_photo))
    page.get_by_role("button", name="Read and score").click()
    page.wait_for_selector("#result, #problem")
    assert (page.text_content("h1") or "").startswith("Result ")
    look(page, shots, "photo-read")
    # Under 2,500 px on the long side: the photo keeps its size.
    assert reader.sizes[-1] == (2400, 1800)

    smudged = "square|{}|{}|{}".format(*SMUDGED)
    fields = page.locator("#unsure .cell")
    names = [fields.nth(i).get_attribute("name") or "" for i in range(fields.count())]
    assert smudged in names, f"the smudged square was not reported unsure: {names}"
    # Beside each field: its crop from the photo, and its two likeliest readings as buttons.
    for name in names:
        row = page.locator(".cell-row", has=page.locator(f'[name="{name}"]'))
        crop = row.locator("img.crop")
        assert crop.count() == 1 and crop.evaluate("i => i.naturalHeight") > 0
        assert row.locator("button.choice").count() >= 1
    assert small_targets(page) == []
    picture = page.locator("figure a img")
    assert picture.evaluate("i => i.naturalWidth") > 1000

    # A slip: a comma in the smudged square. The form comes back with the message on it.
    page.locator(f'[name="{smudged}"]').fill("4,")
    page.locator("#first").fill("Ann")
    go(page, page.locator("button.main-submit"))
    assert page.text_content(".field-error") == "'4,' is not a number, * or empty"
    assert page.input_value(f'[name="{smudged}"]') == "4,"
    assert page.locator("figure a img").count() == 1 and page.locator("img.crop").count() >= 1
    look(page, shots, "photo-mistyped")

    # Put right every unsure cell from the sheet itself: the winner is the sheet's.
    for name in names:
        field = page.locator(f'[name="{name}"]')
        if name.startswith("allies|"):
            field.select_option(truth_of(name))
        else:
            field.fill(truth_of(name))
    go(page, page.locator("button.main-submit"))
    assert page.text_content("#winner") == "Ann"
    assert page.text_content("#status") == "Final result."
    look(page, shots, "photo-corrected")

    # A slip in the smudged square: Ben's 4 4 4 in Air now beats Ann's pair, and the game.
    row = page.locator(".cell-row", has=page.locator(f'[name="{smudged}"]'))
    four = row.locator("button.choice", has_text="4")
    if four.count():
        go(page, four.first)
    else:
        page.locator(f'[name="{smudged}"]').fill("4")
        go(page, page.locator("button.main-submit"))
    assert page.text_content("#winner") == "Ben"
    assert page.text_content("#summary") == "Ben wins, 3 arenas to 2"

    # What is kept is the corrected sheet, with the names given.
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download the sheet (TOML)").click()
    kept = tomllib.loads(Path(download_info.value.path()).read_text(encoding="utf-8"))
    assert kept["players"] == ["Ann", "Ben"]
    assert kept["arenas"]["Air"]["Ben"] == [4, 4, 4]
    go(page, page.get_by_role("link", name="Results", exact=True))
    assert "IMG_2041.jpg" in (page.text_content("#night") or "")
    look(page, shots, "night")


def test_a_large_photo_is_shrunk_in_the_browser_with_a_busy_line(
    page: Any, base_url: str, reader: Reader, tmp_path: Path
) -> None:
    big = photographed(tmp_path / "PXL_1.jpg", example(DUEL), "duel", None, seed=5,
                       size=(4032, 3024))  # fmt: skip
    # How the page stands the moment the shrunk photo is sent (the form's submit()).
    seen: list[tuple[bool, bool, str]] = []
    page.expose_function("reportSending", lambda *state: seen.append(tuple(state)))
    page.add_init_script(
        """const send = HTMLFormElement.prototype.submit;
        HTMLFormElement.prototype.submit = function () {
          const busy = document.getElementById("busy");
          window.reportSending(document.getElementById("send").disabled, !busy.hidden,
                               busy.textContent);
          return send.call(this);
        };"""
    )
    page.goto(base_url + "/photo")
    page.set_input_files("#photo", str(big))
    page.get_by_role("button", name="Read and score").click()
    page.wait_for_selector("#result, #problem")
    assert seen == [(True, True, "Sending and reading the photo…")]
    assert reader.sizes[-1] == (2500, 1875)


def test_a_large_photo_with_transparent_paper_is_shrunk_on_white(
    page: Any, base_url: str, reader: Reader, tmp_path: Path, shots: Path
) -> None:
    """A JPEG has no transparency: drawn on a clear canvas, transparent paper had come out
    black, and the sheet was refused as showing none of its markers."""
    import numpy as np
    from PIL import Image

    photo = photographed(tmp_path / "cut-out.jpg", example(DUEL), "duel", None, seed=5,
                         size=(4032, 3024))  # fmt: skip
    rgb = np.asarray(Image.open(photo).convert("RGB"))
    paper = rgb.min(axis=2) > 170
    # Black under the transparency, as a background remover leaves it.
    rgba = np.dstack([np.where(paper[..., None], 0, rgb), np.where(paper, 0, 255)])
    cut_out = tmp_path / "cut-out.png"
    Image.fromarray(rgba.astype(np.uint8), "RGBA").save(cut_out)
    page.goto(base_url + "/photo")
    page.set_input_files("#photo", str(cut_out))
    page.get_by_role("button", name="Read and score").click()
    page.wait_for_selector("#result, #problem, .error")
    look(page, shots, "photo-transparent")
    assert reader.sizes[-1] == (2500, 1875)
    assert reader.median_greys[-1] > 200, "the paper came through white"
    assert (page.text_content("h1") or "").startswith("Result ")
    assert "cut-out.png" in page.content(), "named as the player chose it"


@pytest.mark.parametrize(
    ("name", "size", "said"),
    [
        # A kind the server does not read is sent as it is, refused as without JavaScript.
        ("scan.bmp", (2600, 1300), "scan.bmp is a BMP image; send a photo"),
        # A panorama is refused by its own size, not the size the browser made of it.
        ("pano.png", (12000, 1500), "12000 x 1500"),
    ],
)
def test_the_browser_sends_what_it_should_not_shrink_as_it_is(
    page: Any, base_url: str, tmp_path: Path, name: str, size: tuple[int, int], said: str
) -> None:
    from PIL import Image

    path = tmp_path / name
    Image.new("RGB", size, "white").save(path)
    page.goto(base_url + "/photo")
    page.set_input_files("#photo", str(path))
    page.get_by_role("button", name="Read and score").click()
    page.wait_for_selector(".error")
    assert said in (page.text_content(".error") or "")


def test_without_javascript_the_original_photo_is_sent(
    page_without_js: Any, base_url: str, reader: Reader, tmp_path: Path
) -> None:
    big = photographed(tmp_path / "PXL_2.jpg", example(DUEL), "duel", None, seed=6,
                       size=(4032, 3024))  # fmt: skip
    page_without_js.goto(base_url + "/photo")
    page_without_js.set_input_files("#photo", str(big))
    page_without_js.get_by_role("button", name="Read and score").click()
    page_without_js.wait_for_selector("#result, #problem")
    assert reader.sizes[-1] == (4032, 3024)


def test_a_file_that_is_not_a_photo_gets_the_form_again(
    page: Any, base_url: str, tmp_path: Path, shots: Path
) -> None:
    notes = tmp_path / "notes.jpg"
    notes.write_text('{"not": "a photo"}')
    page.goto(base_url + "/photo")
    page.fill("#first", "Ann")
    page.set_input_files("#photos", str(notes))
    page.get_by_role("button", name="Read and score").click()
    page.wait_for_selector(".error")
    assert "notes.jpg is not an image" in (page.text_content(".error") or "")
    assert page.input_value("#first") == "Ann"
    look(page, shots, "photo-refused")


def test_a_photo_over_20_mb_leads_back_to_the_form(
    page_without_js: Any, base_url: str, tmp_path: Path, shots: Path
) -> None:
    big = tmp_path / "big.jpg"
    big.write_bytes(b"\xff\xd8" + bytes(21 * 1024 * 1024))
    page = page_without_js
    page.goto(base_url + "/photo")
    page.fill("#second", "Ben")
    page.set_input_files("#photo", str(big))
    go(page, page.get_by_role("button", name="Read and score"))
    assert "over the 20 MB a photo may be" in (page.text_content(".error") or "")
    assert page.input_value("#second") == "Ben"
    look(page, shots, "photo-too-big")


# --- a game night: several photos, a team pack --------------------------------------------


@pytest.fixture(scope="module")
def team_photos(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The example team game written on the two duel sheets of a printed team pack."""
    import photo_corpus as corpus

    from printgen.games import all_materials
    from printgen.games.one_page_war.geometry import SheetTag
    from printgen.games.one_page_war.layout import load_layout
    from printgen.materials import BuildOptions
    from printgen.render.readback import render_page
    from printgen.render.units import Paper

    folder = tmp_path_factory.mktemp("team")
    pack = next(m for m in all_materials() if m.name == "one-page-war-team")
    pdf = pack.build(BuildOptions(paper=Paper.A4, pairs=2), None)
    team = example(EXAMPLES / "one-page-war" / "team.toml")
    photos = []
    for k, sheet in enumerate(team["sheets"]):
        image = render_page(pdf, k, dpi=corpus.SHEET_PX_PER_MM * 25.4)
        tag = SheetTag("standard", load_layout("standard").version, Paper.A4, f"T-{k}")
        blank = corpus.Blank(image, tag)
        photos.append(
            photographed(folder / f"team-{k + 1}.jpg", sheet, "duel", None, 20 + k, blank=blank)
        )
    return photos


def test_a_team_packs_photos_sent_together_give_the_team_result(
    page: Any, base_url: str, team_photos: list[Path], shots: Path
) -> None:
    page.goto(base_url + "/photo")
    page.set_input_files("#photos", [str(p) for p in team_photos])
    page.get_by_role("button", name="Read and score").click()
    page.wait_for_selector("h1:has-text('photos read')")
    look(page, shots, "team-photos")
    assert page.locator(".night li").count() == 2
    status = page.text_content("#status") or ""
    # As typed in: team South (the far sides) wins 5 arenas to 4, once any unsure cell is
    # confirmed on its sheet's own page.
    assert page.text_content("#winner") == "Team 2", status
    assert (page.text_content("#summary") or "").startswith("team Team 2 wins")


def test_a_team_sheet_photographed_twice_is_named_on_the_page(
    page: Any, base_url: str, team_photos: list[Path], shots: Path, tmp_path: Path
) -> None:
    import shutil

    again = tmp_path / "team-1-again.jpg"
    shutil.copy(team_photos[0], again)
    page.goto(base_url + "/photo")
    page.set_input_files("#photos", [str(team_photos[0]), str(again)])
    page.get_by_role("button", name="Read and score").click()
    page.wait_for_selector("h1:has-text('photos read')")
    look(page, shots, "team-photographed-twice")
    problem = page.text_content("#team-problem") or ""
    assert re.search(
        r"sheet T-\w{4}-0001 is photographed twice \(team-1.jpg and team-1-again.jpg\)", problem
    ), problem
    assert page.locator(".night li").count() == 2
    assert small_targets(page) == []
