"""`printgen serve` through Flask's test client: every page, its status codes and its errors.

The results a page shows must be the CLI's: both go through the same referee. Photos are read
here by a stand-in whose readings the test chooses (tests/web_helpers.py); the real reader is
used at the end of this file and in the browser tests."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from web_helpers import (
    DUEL,
    EXAMPLES,
    SOLO,
    FakeReader,
    as_read,
    error_of,
    example,
    field_errors,
    field_value,
    image_bytes,
    jpeg,
    png_header,
    text_of,
    unsure,
)

from printgen.cli import cli
from printgen.games.one_page_war.reader.errors import BlankPage, ReaderFault
from printgen.web import create_app

ALL_EXAMPLES = sorted(EXAMPLES.glob("*/*.toml"))


@pytest.fixture
def uploads(tmp_path: Path) -> Path:
    folder = tmp_path / "uploads"
    folder.mkdir()
    return folder


@pytest.fixture
def reader() -> FakeReader:
    return FakeReader()


@pytest.fixture
def app(uploads: Path, reader: FakeReader) -> Flask:
    return create_app(upload_root=uploads, photo_reader=reader)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def post_photo(client: FlaskClient, data: bytes, name: str = "sheet.jpg", **form: str) -> Any:
    fields: dict[str, Any] = {"photo": (io.BytesIO(data), name), **form}
    return client.post("/photo", data=fields, content_type="multipart/form-data")


def scored(client: FlaskClient, response: Any) -> Any:
    """The result page a form post redirects to."""
    assert response.status_code == 303, response.text
    return client.get(response.headers["Location"])


def photo_result(client: FlaskClient, name: str = "IMG_0001.jpg", **form: str) -> Any:
    return scored(client, post_photo(client, jpeg(), name, **form))


def result_url(response: Any) -> str:
    return str(response.request.path)


# --- pages --------------------------------------------------------------------------------

PAGES = ["/", "/materials", "/type", "/photo", "/results", "/format/one-page-war"]


@pytest.mark.parametrize("url", PAGES)
def test_every_page_answers_with_the_navigation_and_nothing_from_outside(
    client: FlaskClient, url: str
) -> None:
    response = client.get(url)
    assert response.status_code == 200
    page = response.text
    for link in ('href="/photo"', 'href="/type"', 'href="/materials"', 'href="/results"'):
        assert link in page
    # Nothing leaves the machine, and nothing the CSP forbids: no inline script or style.
    assert not re.search(r'(src|href|action)="(https?:)?//', page)
    assert re.findall(r"<script(?![^>]*\ssrc=\"/static/)", page) == []
    assert "<style" not in page and " style=" not in page


def test_the_stylesheet_and_the_script_are_served_locally(client: FlaskClient) -> None:
    assert "overflow-wrap" in client.get("/static/style.css").text
    script = client.get("/static/shrink.js")
    assert script.status_code == 200 and "toBlob" in script.text


def test_an_unknown_page_is_404_with_a_page_that_says_so(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "no such page" in response.text


def test_the_photo_form_offers_the_camera_and_the_gallery(client: FlaskClient) -> None:
    """Item 12: `capture` alone opens only the camera, so the gallery is a second control."""
    page = client.get("/photo").text
    inputs = re.findall(r"<input[^>]*type=\"file\"[^>]*>", page)
    assert len(inputs) == 2
    camera, gallery = inputs
    assert 'capture="environment"' in camera and 'accept="image/*"' in camera
    assert "capture" not in gallery and "multiple" in gallery
    assert ">Take a photo</label>" in page and ">Choose photos</label>" in page


# --- security: the token, headers, hosts, cross-site posts ----------------------------------

TOKEN = "s3cret-token-XYZ"


@pytest.fixture
def guarded(uploads: Path, reader: FakeReader) -> FlaskClient:
    return create_app(token=TOKEN, upload_root=uploads, photo_reader=reader).test_client()


REFUSED_REQUESTS = [
    ("GET", "/"),
    ("GET", "/?t=wrong"),
    ("GET", f"/?t={TOKEN[:-1]}"),
    ("GET", "/materials/war-card.pdf?paper=a4"),
    ("GET", "/results"),
    ("GET", "/no-such-page"),
    ("POST", "/type"),
    ("POST", "/photo"),
]


@pytest.mark.parametrize(("method", "url"), REFUSED_REQUESTS)
def test_a_refusal_never_shows_the_token(
    guarded: FlaskClient, uploads: Path, method: str, url: str
) -> None:
    """Item 1: the 403 page had a "Back to the start" link carrying the token."""
    if method == "POST":
        data = {"text": DUEL.read_text(), "photo": (io.BytesIO(jpeg()), "a.jpg")}
        response = guarded.post(url, data=data, content_type="multipart/form-data")
    else:
        response = guarded.get(url)
    assert response.status_code == 403
    assert TOKEN not in response.text
    assert TOKEN not in str(response.headers)
    assert "QR code" in response.text
    assert list(uploads.iterdir()) == []


def test_the_stylesheet_and_script_need_no_token_and_carry_none(guarded: FlaskClient) -> None:
    for url in ("/static/style.css", "/static/shrink.js", f"/static/style.css?t={TOKEN}"):
        response = guarded.get(url)
        assert response.status_code == 200 and TOKEN not in response.text
    page = guarded.get("/").text
    assert 'href="/static/style.css"' in page  # a refusal page is styled too


def test_with_the_token_every_link_and_form_carries_it(guarded: FlaskClient) -> None:
    for url in ("/", "/type", "/materials", "/photo"):
        page = guarded.get(f"{url}?t={TOKEN}").text
        links = re.findall(r'(?:href|action|src)="([^"]+)"', page)
        links = [link for link in links if not link.startswith("/static/")]
        assert links and all(f"t={TOKEN}" in link for link in links), url
    # A GET form drops its action's query: it carries the token as a field.
    materials = guarded.get(f"/materials?t={TOKEN}").text
    forms = re.findall(r'<form method="get".*?</form>', materials, re.S)
    assert forms and all(f'name="t" value="{TOKEN}"' in f for f in forms)
    pdf = guarded.get(f"/materials/war-card.pdf?t={TOKEN}&paper=a4")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"


def test_with_the_token_a_sheet_is_scored_and_its_result_shown(guarded: FlaskClient) -> None:
    page = guarded.get(f"/type?t={TOKEN}").text
    action = re.search(r'<form method="post" action="([^"]+)"', page)
    assert action is not None
    posted = guarded.post(html.unescape(action.group(1)), data={"text": DUEL.read_text()})
    assert posted.status_code == 303 and f"t={TOKEN}" in posted.headers["Location"]
    result = guarded.get(posted.headers["Location"])
    assert text_of(result.text, "winner") == "Ann"


CSP = (
    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; "
    "base-uri 'none'; object-src 'none'"
)


@pytest.mark.parametrize(
    "url", ["/", "/photo", "/static/style.css", "/materials/war-card.pdf?paper=a4", "/nope"]
)
def test_every_answer_carries_the_security_headers(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_results_and_their_downloads_are_never_cached(client: FlaskClient) -> None:
    result = scored(client, client.post("/type", data={"text": DUEL.read_text()}))
    urls = [result_url(result), "/results", "/results.csv"]
    urls += [html.unescape(u) for u in re.findall(r'href="(/results/[^"]+/[^"]+)"', result.text)]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == "no-store", url


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "192.168.1.9:8000"])
def test_a_host_other_than_the_address_served_is_refused(client: FlaskClient, host: str) -> None:
    """DNS rebinding: a name pointed at this machine must not reach the app."""
    response = client.get("/", headers={"Host": host})
    assert response.status_code == 421
    assert "address it printed" in response.text
    assert 'href="/type"' not in response.text


def test_the_lan_address_is_answered_and_loopback_names_by_default(uploads: Path) -> None:
    lan = create_app(upload_root=uploads, hosts=("192.168.1.9",)).test_client()
    assert lan.get("/", headers={"Host": "192.168.1.9:8000"}).status_code == 200
    assert lan.get("/", headers={"Host": "localhost:8000"}).status_code == 421
    local = create_app(upload_root=uploads).test_client()
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"):
        assert local.get("/", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://localhost.evil.example"},
        {"Sec-Fetch-Site": "cross-site", "Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": "http://localhost"},
    ],
)
def test_a_cross_site_form_post_is_refused(
    client: FlaskClient, uploads: Path, headers: dict[str, str]
) -> None:
    for url, data in (("/type", {"text": DUEL.read_text()}), ("/photo", {})):
        response = client.post(url, data=data, headers=headers)
        assert response.status_code == 403
        assert "another site" in response.text
    assert client.get("/results").text.count("Result ") == 0
    assert list(uploads.iterdir()) == []


def test_a_cross_site_post_with_the_token_gets_no_link_carrying_it(guarded: FlaskClient) -> None:
    response = guarded.post(
        f"/type?t={TOKEN}",
        data={"text": DUEL.read_text()},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert response.status_code == 403
    assert TOKEN not in response.text


def test_a_post_from_the_apps_own_page_is_taken(client: FlaskClient) -> None:
    # With the no-referrer policy a browser's own form post says Origin "null".
    for headers in (
        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
        {"Origin": "http://localhost"},
        {},
    ):
        response = client.post("/type", data={"text": DUEL.read_text()}, headers=headers)
        assert response.status_code == 303, headers


def test_kept_results_are_capped_by_count_oldest_first(uploads: Path) -> None:
    client = create_app(upload_root=uploads, max_results=3).test_client()
    urls = [
        result_url(scored(client, client.post("/type", data={"text": DUEL.read_text()})))
        for _ in range(5)
    ]
    assert [client.get(u).status_code for u in urls] == [404, 404, 200, 200, 200]
    listed = client.get("/results").text
    assert [int(n) for n in re.findall(r">Result (\d+)<", listed)] == [5, 4, 3]


def test_kept_results_are_capped_by_bytes(uploads: Path, reader: FakeReader) -> None:
    one = create_app(upload_root=uploads, photo_reader=reader)
    photo_result(one.test_client())
    size = one.extensions["printgen"].results.bytes
    cap = int(size * 2.5)
    client = create_app(upload_root=uploads, photo_reader=reader, max_result_bytes=cap)
    test_client = client.test_client()
    urls = [result_url(photo_result(test_client, f"IMG_{n}.jpg")) for n in range(6)]
    codes = [test_client.get(u).status_code for u in urls]
    assert codes[-1] == 200 and 404 in codes
    assert codes == sorted(codes, reverse=True)  # the oldest went first
    store = client.extensions["printgen"].results
    assert store.bytes <= cap and len(store.all()) == 2


# --- materials ----------------------------------------------------------------------------


def test_the_materials_page_lists_each_material_under_its_game_in_words(
    client: FlaskClient,
) -> None:
    from printgen.games import all_games

    page = client.get("/materials").text
    headings = re.findall(r"<h[23]>([^<]*)</h[23]>", page)
    for game in all_games():
        if game.materials:
            assert game.title in headings
        for material in game.materials:
            assert f'action="/materials/{material.name}.pdf"' in page
            assert material.name not in headings  # no machine names as headings
    assert "/materials/card.pdf" not in page  # needs a rules file named on the command line
    assert not re.search(r"--[a-z]", page)


@pytest.mark.parametrize(("name", "paper"), [("war-card", "letter"), ("one-page-war-solo", "a4")])
def test_a_material_downloads_as_the_same_pdf_the_cli_builds(
    client: FlaskClient, name: str, paper: str
) -> None:
    from printgen.games import all_materials
    from printgen.materials import BuildOptions
    from printgen.render.units import Paper

    material = next(m for m in all_materials() if m.name == name)
    response = client.get(f"/materials/{name}.pdf?paper={paper}")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert f'filename="{name}-{paper}.pdf"' in response.headers["Content-Disposition"]
    assert response.data == material.build(BuildOptions(paper=Paper(paper)), None)


@pytest.mark.parametrize(
    ("name", "query", "options"),
    [
        ("one-page-war", "copies=3&batch=Friday", {"copies": 3, "batch": "Friday"}),
        ("one-page-war-team", "pairs=3", {"pairs": 3}),
        ("war-card", "large_print=on", {"large_print": True}),
        ("war-card", "panels=3", {"panels": 3}),
    ],
)
def test_the_materials_form_sets_what_the_command_line_can(
    client: FlaskClient, name: str, query: str, options: dict[str, Any]
) -> None:
    """Item 17: copies with their own ids, team pairs, large print, panels."""
    from printgen.games import all_materials
    from printgen.materials import BuildOptions

    material = next(m for m in all_materials() if m.name == name)
    response = client.get(f"/materials/{name}.pdf?paper=a4&{query}")
    assert response.status_code == 200, response.text
    assert response.data == material.build(BuildOptions(**options), None)


def test_copies_from_the_page_each_carry_their_own_sheet_id(client: FlaskClient) -> None:
    from pypdf import PdfReader

    data = client.get("/materials/one-page-war.pdf?paper=a4&copies=3").data
    pages = PdfReader(io.BytesIO(data)).pages
    assert len(pages) == 3
    ids = {tuple(re.findall(r"\bD-[0-9A-F]{4}-\d{4}\b", p.extract_text())) for p in pages}
    assert len(ids) == 3 and all(len(set(i)) == 1 for i in ids)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/materials/one-page-war.pdf?paper=a4&copies=0", "copies: '0' should be a whole number"),
        ("/materials/one-page-war.pdf?paper=a4&copies=x", "copies: 'x'"),
        ("/materials/one-page-war.pdf?paper=a4&copies=500", "from 1 to 60"),
        ("/materials/one-page-war-team.pdf?paper=a4&pairs=9", "pairs: '9'"),
        ("/materials/war-card.pdf?paper=a3", "paper: 'a3' is not one of A4, Letter"),
        ("/materials/one-board.pdf?paper=a4&layout=../package-war/pad", "layout:"),
        ("/materials/one-page-war.pdf?paper=a4&batch=%2Fetc", "print run name"),
    ],
)
def test_a_bad_material_option_is_400_naming_the_field(
    client: FlaskClient, url: str, message: str
) -> None:
    response = client.get(url)
    assert response.status_code == 400
    assert message in error_of(response.text)
    assert 'href="/materials"' in response.text


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("/materials/one-card.pdf?paper=a4&panels=6&large_print=on", "6 panels: the accordion"),
        ("/materials/one-page-war-card.pdf?paper=a4&large_print=on", "in normal print at"),
    ],
)
def test_a_card_that_cannot_be_built_is_refused_in_the_page_s_words(
    client: FlaskClient, url: str, said: str
) -> None:
    # Not "--panels 6", nor the command line that would build it.
    response = client.get(url)
    assert response.status_code == 422
    message = error_of(response.text)
    assert said in message
    assert "--" not in message and "printgen build" not in message


def test_a_rules_file_is_never_taken_from_a_page(client: FlaskClient) -> None:
    plain = client.get("/materials/package-war-pad.pdf?paper=a4").data
    asked = client.get("/materials/package-war-pad.pdf?paper=a4&rules=/etc/passwd").data
    assert asked == plain


@pytest.mark.parametrize(
    "url",
    [
        "/materials/no-such-thing.pdf",
        "/materials/card.pdf?paper=a4",
        "/materials/..%2Flayouts%2Fone.pdf",
        "/format/..%2F..%2Fetc",
        "/format/chess",
    ],
)
def test_an_unknown_material_or_name_is_404_with_no_path(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "/work" not in response.text and "layouts/" not in response.text


# --- a typed-in sheet ---------------------------------------------------------------------


def cli_json(runner: Any, path: Path) -> tuple[int, dict[str, Any] | str]:
    result = runner.invoke(cli, ["score", "--json", str(path)])
    if result.exit_code == 1:
        return 1, result.stderr.removeprefix("error: ").strip()
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_uploaded_example_gets_the_clis_answer(
    client: FlaskClient, runner: Any, path: Path
) -> None:
    """Every example file: the web's winner is the CLI's. The Package War! log, which `score`
    leaves to the game's own command, is replayed as `package-war play` replays it."""
    data = {"file": (io.BytesIO(path.read_bytes()), path.name)}
    page = scored(client, client.post("/type", data=data, content_type="multipart/form-data"))
    if path.name == "game.toml":
        played = runner.invoke(cli, ["package-war", "play", "--json", str(path)])
        expected = json.loads(played.stdout)
    else:
        code, expected = cli_json(runner, path)
        assert code == 0 and isinstance(expected, dict)
    assert text_of(page.text, "winner") == expected.get("winner")
    status = "Round scored: the game goes on." if path.name == "round.toml" else "Final result."
    assert text_of(page.text, "status") == status


def test_a_pasted_sheet_scores_as_the_cli_scores_its_file(client: FlaskClient, runner: Any) -> None:
    for path in (DUEL, EXAMPLES / "aiue-battle" / "kana.toml"):
        page = scored(client, client.post("/type", data={"text": path.read_text("utf-8")}))
        _, expected = cli_json(runner, path)
        assert isinstance(expected, dict)
        assert text_of(page.text, "winner") == expected["winner"]


def test_a_sheet_pasted_as_json_scores_the_same(client: FlaskClient) -> None:
    response = client.post("/type", data={"text": json.dumps(example(DUEL)), "format": "auto"})
    assert text_of(scored(client, response).text, "winner") == "Ann"


def test_curly_quotes_from_a_phone_keyboard_are_read_as_straight(client: FlaskClient) -> None:
    """Item 15: iOS smart punctuation turns every quote curly."""
    text = DUEL.read_text("utf-8").replace('"one-page-war"', "“one-page-war”")
    text = text.replace('["Ann", "Ben"]', "[‘Ann’, ‘Ben’]")
    assert '"' in text and "“" in text
    page = scored(client, client.post("/type", data={"text": text}))
    assert text_of(page.text, "winner") == "Ann"


def test_the_box_is_not_autocorrected(client: FlaskClient) -> None:
    box = re.search(r"<textarea[^>]*>", client.get("/type").text)
    assert box is not None
    for attribute in ('autocorrect="off"', 'autocapitalize="off"', 'spellcheck="false"'):
        assert attribute in box.group(0)


def test_an_unfinished_sheet_is_the_standing_so_far_with_its_empty_squares(
    client: FlaskClient,
) -> None:
    """Item 11: no box to tick and no second try: the standing so far, marked unfinished."""
    text = DUEL.read_text("utf-8").replace("Ann = [3, 3, 5, 4]", 'Ann = [3, 3, 5, "_"]')
    page = scored(client, client.post("/type", data={"text": text})).text
    assert text_of(page, "status") == "Unfinished game: the standing so far."
    assert "Leading: <strong" in page and "Winner:" not in page
    assert "1 empty square<" in page and "Land, Ann, square 4" in page
    assert "Final result" not in page


def test_an_unfinished_aiue_battle_is_its_standing(client: FlaskClient) -> None:
    text = (EXAMPLES / "aiue-battle" / "apple.toml").read_text("utf-8")
    text = text.replace('"x", "l", "m", "t", "o", "n", "a"', '"x"')
    page = scored(client, client.post("/type", data={"text": text})).text
    assert text_of(page, "status") == "Unfinished game: the standing so far."
    assert "not finished after 3 attacks" in page


def test_a_package_war_round_is_a_round_not_a_final_result(client: FlaskClient) -> None:
    """Item 7: "the game goes on" and "Final result." were shown together."""
    text = (EXAMPLES / "package-war" / "round.toml").read_text("utf-8")
    page = scored(client, client.post("/type", data={"text": text})).text
    assert text_of(page, "status") == "Round scored: the game goes on."
    assert "the game goes on" in (text_of(page, "summary") or "")
    assert "Final result" not in page and 'id="winner"' not in page


def test_a_package_war_log_that_stops_early_is_the_standing(client: FlaskClient) -> None:
    text = (EXAMPLES / "package-war" / "game.toml").read_text("utf-8")
    text = text[: text.index("  # round 3: packaging")] + "]\n"
    page = scored(client, client.post("/type", data={"text": text})).text
    assert text_of(page, "status") == "Unfinished game: the standing so far."
    assert "the log ends before the game does" in page


def test_team_tables_are_headed_by_each_sheets_own_players(client: FlaskClient) -> None:
    """Item 4: every table was headed with the last sheet's players."""
    text = (EXAMPLES / "one-page-war" / "team.toml").read_text("utf-8")
    page = scored(client, client.post("/type", data={"text": text})).text
    tables = re.findall(r"<h2>(Sheet \d: [^<]*)</h2>\s*<table.*?<thead>(.*?)</thead>", page, re.S)
    heads = [(title, re.findall(r"<th>([^<]*)</th>", head)[1:3]) for title, head in tables]
    assert heads == [
        ("Sheet 1: Ann vs Ben", ["Ann", "Ben"]),
        ("Sheet 2: Cid vs Dee", ["Cid", "Dee"]),
    ]


@pytest.mark.parametrize(
    ("text", "fmt", "message"),
    [
        ("game = ", "auto", "the pasted sheet: malformed TOML"),
        ('{"game": }', "auto", "the pasted sheet, line 1: malformed JSON"),
        ('game = "one-page-war"', "json", "malformed JSON"),
        ('players = ["Ann"]', "toml", 'no `game = "..."` key'),
        ('game = "chess"', "toml", "game 'chess' has no referee"),
        ('game = "one-page-war"\nmode = "duel"', "toml", "the pasted sheet"),
    ],
)
def test_a_malformed_sheet_is_422_with_the_referees_message_and_kept_in_the_box(
    client: FlaskClient, text: str, fmt: str, message: str
) -> None:
    response = client.post("/type", data={"text": text, "format": fmt})
    assert response.status_code == 422
    assert message in error_of(response.text)
    kept = re.search(r"<textarea[^>]*>(.*?)</textarea>", response.text, re.S)
    assert kept is not None and html.unescape(kept.group(1)) == text


def test_an_empty_form_is_400(client: FlaskClient) -> None:
    response = client.post("/type", data={"text": "  "})
    assert response.status_code == 400
    assert "Paste a sheet" in error_of(response.text)


def test_an_uploaded_sheet_that_is_not_utf8_is_422(client: FlaskClient) -> None:
    data = {"file": (io.BytesIO(b"game = \xff\xfe"), "odd.toml")}
    response = client.post("/type", data=data, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "odd.toml: not a UTF-8 text file" in error_of(response.text)


def test_an_uploaded_sheet_with_a_byte_order_mark_is_read(client: FlaskClient) -> None:
    data = {"file": (io.BytesIO(b"\xef\xbb\xbf" + DUEL.read_bytes()), "duel.toml")}
    response = client.post("/type", data=data, content_type="multipart/form-data")
    assert text_of(scored(client, response).text, "winner") == "Ann"


def test_every_game_has_a_blank_sheet_that_fills_the_box(client: FlaskClient) -> None:
    from printgen.games import all_games
    from printgen.web.typed import blanks

    found = blanks()
    page = client.get("/type").text
    games = {tomllib.loads(b.text)["game"] for b in found}
    assert games == {g.name for g in all_games() if g.score is not None}
    for blank in found:
        assert f'<option value="{blank.name}">' in page
        assert f'href="/format/{blank.name}"' in page
        filled = client.get(f"/type?blank={blank.name}").text
        box = re.search(r"<textarea[^>]*>(.*?)</textarea>", filled, re.S)
        assert box is not None and html.unescape(box.group(1)) == blank.text
    assert client.get("/type?blank=nothing").status_code == 404


def test_the_one_page_war_blanks_have_the_layouts_arenas(client: FlaskClient) -> None:
    from printgen.games.one_page_war.layout import load_layout
    from printgen.web.typed import blank_named

    arenas = [a.name for a in load_layout("standard").arenas]
    for name in ("one-page-war", "one-page-war-solo"):
        blank = blank_named(name)
        assert blank is not None
        assert list(tomllib.loads(blank.text)["arenas"]) == arenas
    team = blank_named("one-page-war-team")
    assert team is not None
    assert all(list(s["arenas"]) == arenas for s in tomllib.loads(team.text)["sheets"])


@pytest.mark.parametrize("blank", ["one-page-war", "one-page-war-solo", "one-page-war-team"])
def test_a_one_page_war_blank_scored_as_it_is_is_a_game_not_begun(
    client: FlaskClient, blank: str
) -> None:
    # Its lists had been empty: two "0 squares given" problems an arena, and no word of "_".
    from printgen.web.typed import blank_named

    found = blank_named(blank)
    assert found is not None
    page = scored(client, client.post("/type", data={"text": found.text})).text
    assert "squares given" not in page and 'id="problem"' not in page
    assert "standing so far" in text_of(page, "status")


@pytest.mark.parametrize(("blank", "source"), [("one-page-war", DUEL), ("one-page-war-solo", SOLO)])
def test_a_blank_sheet_completed_scores_as_the_example(
    client: FlaskClient, blank: str, source: Path
) -> None:
    from printgen.web.typed import blank_named

    found = blank_named(blank)
    assert found is not None
    document = tomllib.loads(found.text)
    sheet = example(source)
    players = document["players"]
    for name, table in document["arenas"].items():
        for mine, theirs in zip(players, sheet["players"], strict=True):
            table[mine] = sheet["arenas"][name][theirs]
        if sheet["arenas"][name].get("allies"):
            table["allies"] = True
    page = scored(client, client.post("/type", data={"text": json.dumps(document)})).text
    winner = {"duel": "First", "solo": "AI"}[document["mode"]]  # as the examples end
    assert text_of(page, "winner") == winner


CLI_WORDS = re.compile(r"--[a-z]|printgen (?:score|package-war|build)|fix the TOML|war-card<")


def test_no_page_uses_command_line_words(client: FlaskClient, reader: FakeReader) -> None:
    """Item 16: no `--partial`, no "fix the TOML", no command to run, on any page."""
    unfinished = DUEL.read_text("utf-8").replace("Ann = [3, 3, 5, 4]", 'Ann = [3, 3, 5, "_"]')
    aiue = (EXAMPLES / "aiue-battle" / "apple.toml").read_text("utf-8").replace(', "a"]', "]")
    log = (EXAMPLES / "package-war" / "game.toml").read_text("utf-8")
    pages = [client.get(url).text for url in PAGES]
    for text in (unfinished, aiue, log, DUEL.read_text("utf-8")):
        pages.append(scored(client, client.post("/type", data={"text": text})).text)
    reader.unsure = [unsure("Air", "Second", 3, "6", "4")]
    pages.append(photo_result(client).text)
    pages.append(client.get("/results").text)
    # A result's key is random URL-safe text and may itself hold "--x": it is no word shown.
    keys = [kept.key for kept in client.application.extensions["printgen"].results.all()]
    assert keys
    for page in pages:
        for key in keys:
            page = page.replace(key, "KEY")
        assert not CLI_WORDS.search(page), CLI_WORDS.search(page)


# --- photos -------------------------------------------------------------------------------


def test_a_photo_post_without_a_file_is_400(client: FlaskClient) -> None:
    response = client.post("/photo", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Take or choose a photo" in error_of(response.text)


def test_a_photo_is_read_scored_and_shown_at_its_own_address(
    client: FlaskClient, uploads: Path
) -> None:
    response = post_photo(client, jpeg(), "IMG_0001.jpg")
    assert response.status_code == 303  # so reloading the result never sends the photo again
    page = client.get(response.headers["Location"]).text
    assert text_of(page, "winner") == "First"
    assert text_of(page, "status") == "Final result."
    assert "IMG_0001.jpg" in page
    assert list(uploads.iterdir()) == []  # the photo is deleted once read
    again = client.get(response.headers["Location"]).text
    assert text_of(again, "summary") == text_of(page, "summary")


def test_a_photo_over_20_mb_leads_back_to_the_form_with_the_names_kept(
    client: FlaskClient, uploads: Path
) -> None:
    response = post_photo(client, b"\xff" * (20 * 1024 * 1024 + 1), first="Ann", second="Ben")
    assert response.status_code == 413
    assert "sheet.jpg is 21.0 MB, over the 20 MB" in error_of(response.text)
    assert field_value(response.text, "first") == "Ann"
    assert field_value(response.text, "second") == "Ben"
    assert 'id="photo-form"' in response.text
    assert list(uploads.iterdir()) == []


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (
            b"game = 'one-page-war'\n",
            "sheet.jpg",
            "sheet.jpg is not an image; take a photo of the sheet (JPEG, PNG or WebP",
        ),
        (b"", "empty.png", "empty.png is empty (0 bytes); send the photo again"),
        # An iPhone's default, which the file picker offers: said as the command line says it.
        (
            b"\0\0\0\x18ftypheic" + bytes(64),
            "IMG_0042.HEIC",
            "IMG_0042.HEIC: a HEIC photo, which this installation cannot decode: export it as JPEG",
        ),
    ],
)
def test_a_file_that_is_not_an_image_is_415_on_the_form(
    client: FlaskClient, uploads: Path, data: bytes, name: str, message: str
) -> None:
    response = post_photo(client, data, name, first="Ann")
    assert response.status_code == 415
    assert message in error_of(response.text)
    assert field_value(response.text, "first") == "Ann"
    assert list(uploads.iterdir()) == []


def test_an_image_that_is_not_a_photo_format_is_415(client: FlaskClient) -> None:
    response = post_photo(client, image_bytes("GIF"), "anim.gif")
    assert response.status_code == 415
    said = "anim.gif is a GIF image; send a photo (JPEG, PNG or WebP, or a scan as PDF or TIFF)"
    assert said in error_of(response.text)


@pytest.mark.parametrize(
    ("data", "name", "given"),
    [
        (b"%PDF-1.7\n", "scan.pdf", (".pdf", (0, 0), "PDF")),
        (image_bytes("TIFF", 900, 600), "scan.tiff", (".tif", (900, 600), "TIFF")),
    ],
)
def test_a_scan_as_pdf_or_tiff_goes_to_the_reader_as_it_is(
    client: FlaskClient, reader: FakeReader, data: bytes, name: str, given: tuple[object, ...]
) -> None:
    # A phone's scanning app saves a PDF, a flatbed often a TIFF: the reader reads both (and
    # says itself what is wrong with a PDF: its pages, a password, no scanned page in it).
    page = scored(client, post_photo(client, data, name))
    assert text_of(page.text, "winner") == "First"
    assert reader.seen == [given]


def scan_of(pages: int) -> bytes:
    """A scanning app's PDF of `pages` pages, each holding a picture."""
    buffer = io.BytesIO()
    pictures = [Image.new("RGB", (600, 850), (200, 200, 200)) for _ in range(pages)]
    pictures[0].save(buffer, "PDF", save_all=True, append_images=pictures[1:])
    return buffer.getvalue()


def test_each_page_of_a_scan_of_several_is_a_result_of_its_own(
    reader: FakeReader, uploads: Path
) -> None:
    """A team pack scanned in one go; the blank back of its first sheet is passed over."""
    pages: list[int | None] = []

    def reading(path: Path, options: Any) -> Any:
        pages.append(options.page)
        if options.page == 2:
            raise BlankPage(f"{path} (page 2): a blank page (the back of a sheet?)")
        return FakeReader.__call__(reader, path, options)

    test_client = create_app(photo_reader=reading, upload_root=uploads).test_client()
    page = scored(test_client, post_photo(test_client, scan_of(3), "pack.pdf")).text
    assert pages == [1, 2, 3]
    assert "2 sheets read" in page
    assert '<p class="note">pack.pdf (page 2): a blank page, passed over</p>' in page
    links = re.findall(r'href="(/results/[^"/]+)">Result (\d)', page)
    assert len(links) == 2
    shown = [test_client.get(link).text for link, _ in links]
    assert "pack.pdf (page 1)" in shown[0] and "pack.pdf (page 3)" in shown[1]
    assert list(uploads.iterdir()) == []


def test_a_scan_of_several_pages_may_be_as_large_as_as_many_photos(
    client: FlaskClient, reader: FakeReader
) -> None:
    """A flatbed's TIFF of a team pack is some 25 MB a page (here a PDF padded past its end)."""
    padded = scan_of(2) + b"\0" * (25 * 2**20)
    page = scored(client, post_photo(client, padded, "pack.pdf")).text
    assert "2 sheets read" in page
    response = post_photo(client, scan_of(2) + b"\0" * (41 * 2**20), "pack.pdf")
    assert response.status_code == 413
    said = "pack.pdf is 43.0 MB for its 2 pages, over the 20 MB a page may be"
    assert said in error_of(response.text)


def test_a_scan_whose_every_page_is_blank_is_refused(uploads: Path) -> None:
    def reading(path: Path, options: Any) -> Any:
        raise BlankPage(f"{path} (page {options.page}): a blank page (the back of a sheet?)")

    test_client = create_app(photo_reader=reading, upload_root=uploads).test_client()
    response = post_photo(test_client, scan_of(2), "backs.pdf")
    assert response.status_code == 422
    assert "backs.pdf: every page is blank; scan the sheets" in error_of(response.text)
    assert list(uploads.iterdir()) == []


def test_a_fault_of_the_reader_is_the_servers_and_costs_no_other_photo(
    uploads: Path, reader: FakeReader
) -> None:
    """A photo the reader itself fails on (a fault in printgen) is listed as such, 500 when it
    is the only one; sent with others, they are read all the same."""

    def reading(path: Path, options: Any) -> Any:
        if b"fault" in path.read_bytes()[-8:]:
            raise ReaderFault.of(path, ZeroDivisionError("float division by zero"))
        return reader(path, options)

    test_client = create_app(photo_reader=reading, upload_root=uploads).test_client()
    faulty = jpeg() + b"fault"
    response = post_photo(test_client, faulty, "IMG_0002.jpg")
    assert response.status_code == 500
    said = error_of(response.text)
    assert "IMG_0002.jpg: the reader failed on this photo (ZeroDivisionError" in said
    assert "type this sheet in, and please report the photo" in said
    assert str(uploads) not in response.text
    both = test_client.post(
        "/photo",
        data={
            "photos": [(io.BytesIO(jpeg()), "IMG_0001.jpg"), (io.BytesIO(faulty), "IMG_0002.jpg")]
        },
        content_type="multipart/form-data",
    )
    page = scored(test_client, both).text
    assert "IMG_0002.jpg: the reader failed on this photo" in html.unescape(page)
    assert list(uploads.iterdir()) == []


def test_a_scan_of_more_pages_than_sheets_read_at_once_is_refused(
    client: FlaskClient, reader: FakeReader
) -> None:
    response = post_photo(client, scan_of(13), "night.pdf")
    assert response.status_code == 413
    said = "night.pdf holds 13 pages, more than the 12 sheets read at once; save it in parts"
    assert said in error_of(response.text)
    assert not CLI_WORDS.search(response.text)
    # With photos before it: alone, it would be read.
    files = [(io.BytesIO(jpeg()), f"{n}.jpg") for n in range(10)]
    files.append((io.BytesIO(scan_of(3)), "pack.pdf"))
    batch = scored(
        client, client.post("/photo", data={"photos": files}, content_type="multipart/form-data")
    )
    said = "pack.pdf would make more than 12 sheets read at once (it holds 3 pages); send it again"
    assert said in batch.text
    assert len(reader.seen) == 10


def test_a_webp_photo_is_accepted(client: FlaskClient, reader: FakeReader) -> None:
    """Item 14: the reader is given a JPEG of it under the photo's own name."""
    page = scored(client, post_photo(client, image_bytes("WEBP", 900, 600), "IMG_5.webp"))
    assert text_of(page.text, "winner") == "First"
    assert reader.seen == [(".jpg", (900, 600), "JPEG")]


def test_a_heic_photo_is_accepted_where_pillow_opens_it(
    client: FlaskClient, reader: FakeReader
) -> None:
    from PIL import Image

    if "HEIF" not in Image.registered_extensions().values():
        pytest.skip("this Pillow cannot open HEIC (no HEIF plugin installed)")
    page = scored(client, post_photo(client, image_bytes("HEIF"), "IMG_6.heic"))
    assert reader.seen[0][2] == "JPEG" and page.status_code == 200


def test_png_and_jpeg_go_to_the_reader_as_sent(client: FlaskClient, reader: FakeReader) -> None:
    photo_result(client, "a.jpg")
    scored(client, post_photo(client, image_bytes("PNG"), "b.png"))
    assert reader.seen == [(".jpg", (64, 48), "JPEG"), (".png", (64, 48), "PNG")]


def test_a_jpeg_over_50_megapixels_is_shrunk_not_refused(
    client: FlaskClient, reader: FakeReader
) -> None:
    """Item 13: a 50-200 MP photo (a 108 MP phone's) is read at 2,500 px on the long side."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (9000, 6000), 230).save(buffer, "JPEG", quality=50)  # 54 MP
    page = scored(client, post_photo(client, buffer.getvalue(), "big.jpg"))
    assert page.status_code == 200
    assert reader.seen == [(".jpg", (2500, 1667), "JPEG")]


def test_a_png_over_50_megapixels_is_413_and_never_decoded(
    client: FlaskClient, uploads: Path
) -> None:
    response = post_photo(client, png_header(8000, 6251), "huge.png")  # 50.008 MP
    assert response.status_code == 413
    assert "huge.png is 8000 x 6251 pixels (50 megapixels), over the limit" in error_of(
        response.text
    )
    assert list(uploads.iterdir()) == []


def test_an_image_far_over_pillows_own_limit_is_still_a_clear_413(client: FlaskClient) -> None:
    response = post_photo(client, png_header(40000, 40000), "giant.png")
    assert response.status_code == 413
    assert "giant.png is far over" in error_of(response.text)


def test_a_readers_error_names_the_photo_only(uploads: Path) -> None:
    """Item 6: no server path in any message."""
    from printgen.errors import InputError

    def failing(path: Path, options: Any) -> Any:
        raise InputError(f"{path}: no One Page War sheet found")

    app = create_app(upload_root=uploads, photo_reader=failing)
    response = post_photo(app.test_client(), jpeg(), "IMG_0001.jpg", first="Ann")
    assert response.status_code == 422
    assert error_of(response.text) == "IMG_0001.jpg: no One Page War sheet found"
    assert str(uploads) not in response.text and "/tmp" not in response.text
    assert field_value(response.text, "first") == "Ann"
    assert list(uploads.iterdir()) == []


def test_a_sheet_read_but_not_scorable_names_the_photo_only(
    client: FlaskClient, reader: FakeReader, uploads: Path
) -> None:
    reader.sheet["arenas"]["Land"]["First"][0] = "?"
    reader.unsure = [unsure("Land", "First", 1, "?", "3")]
    page = photo_result(client, "IMG_0002.jpg").text
    problem = text_of(page, "problem") or ""
    assert problem.startswith("The sheet as read cannot be scored yet: IMG_0002.jpg")
    assert str(uploads) not in page and "/tmp" not in page
    assert field_value(page, "square|Land|0|1") == ""  # "another mark" is no value


def test_a_reader_that_crashes_gives_a_plain_500_and_leaves_nothing(uploads: Path) -> None:
    def broken_reader(path: Path, options: Any) -> Any:
        raise RuntimeError(f"a bug in the reader at {path}")

    client = create_app(upload_root=uploads, photo_reader=broken_reader).test_client()
    response = post_photo(client, jpeg())
    assert response.status_code == 500
    assert "Sorry (500)" in response.text
    assert "a bug in the reader" not in response.text and "Traceback" not in response.text
    assert str(uploads) not in response.text
    assert list(uploads.iterdir()) == []


def test_a_referee_that_crashes_gives_a_plain_500(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: every crash a plain error page, no path or traceback in it."""
    from printgen.web import typed

    def crash(document: Any, source: str) -> Any:
        raise KeyError(str(Path(__file__)))

    monkeypatch.setattr(typed, "score", crash)
    response = client.post("/type", data={"text": DUEL.read_text()})
    assert response.status_code == 500
    assert "Traceback" not in response.text and __file__ not in response.text
    assert "the sheet was not scored" in response.text


# --- correcting a photographed sheet ------------------------------------------------------


@pytest.fixture
def unsure_duel(reader: FakeReader) -> FakeReader:
    """Two unsure squares: Air, far side, square 3 (read 6, else 4) and Land, near side,
    square 4 (read 4, else 9); and the S space in Politics (read S, else empty)."""
    reader.unsure = [
        unsure("Air", "Second", 3, "6", "4"),
        unsure("Land", "First", 4, "4", "9"),
        unsure("Politics", None, 1, "S", "empty", kind="allies"),  # type: ignore[arg-type]
    ]
    return reader


def test_a_winner_the_unsure_cells_cannot_change_is_said_with_the_names_given(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    unsure_duel.stakes = {"result_holds": True, "winners": ["Second"], "open_arenas": []}
    page = scored(client, post_photo(client, jpeg(), first="Ann", second="Ben")).text
    assert (
        text_of(page, "stakes")
        == "Ben wins whatever these cells hold: confirm them for a true record."
    )


def test_a_draw_the_unsure_cells_cannot_change_is_said(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    unsure_duel.stakes = {"result_holds": True, "winners": [None], "open_arenas": []}
    page = scored(client, post_photo(client, jpeg())).text
    assert (
        text_of(page, "stakes")
        == "It is a draw whatever these cells hold: confirm them for a true record."
    )


def test_the_cells_that_can_change_who_wins_come_first(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    unsure_duel.stakes = {
        "result_holds": False,
        "winners": ["First", "Second"],
        "open_arenas": ["Land", "Politics"],
    }
    page = scored(client, post_photo(client, jpeg())).text
    assert (
        text_of(page, "stakes")
        == "Only the cells in Land, Politics can change who wins: they come first."
    )
    fields = re.findall(r'<(?:input|select) id="(square[^"]*|allies[^"]*)"', page)
    assert fields == ["square|Land|0|4", "allies|Politics", "square|Air|1|3"]


def test_without_the_readers_stakes_the_cells_keep_their_order_and_nothing_is_claimed(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    page = scored(client, post_photo(client, jpeg())).text
    assert text_of(page, "stakes") is None
    fields = re.findall(r'<(?:input|select) id="(square[^"]*|allies[^"]*)"', page)
    assert fields == ["square|Air|1|3", "square|Land|0|4", "allies|Politics"]


def mean(image: Any) -> float:
    return float(sum(image.get_flattened_data())) / image.width / image.height


def correct(client: FlaskClient, page: Any, **fields: str) -> Any:
    """The correction form sent with its own values and `fields` changed."""
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
    for name, value in re.findall(r'<input id="[^"]*" name="([^"]+)" value="([^"]*)"', page.text):
        form[name] = html.unescape(value)
    for name in re.findall(r'<select id="[^"]*" name="([^"]+)"', page.text):
        selected = re.search(
            rf'name="{re.escape(name)}".*?<option value="([^"]*)" selected', page.text, re.S
        )
        form[name] = selected.group(1) if selected else ""
    form.update({k.replace("__", "|"): v for k, v in fields.items()})
    return client.post(result_url(page), data=form)


def test_each_unsure_cell_has_an_upright_crop_and_its_two_readings(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    """Item 8. The stand-in blacks out each unsure cell's top half as printed: upright, a far
    side cell's black half is at the bottom of its crop, a near side cell's at the top."""
    from PIL import Image

    page = photo_result(client).text
    rows = re.findall(r'<div class="cell-row[^"]*">(.*?)</div>\s*</div>', page, re.S)
    assert len(rows) == 3
    crops: dict[str, Any] = {}
    for row in rows:
        name = re.search(r'name="((?:square|allies)\|[^"]+)"', row)
        src = re.search(r'<img class="crop" src="data:image/jpeg;base64,([^"]+)"', row)
        assert name and src, row
        import base64

        colour = Image.open(io.BytesIO(base64.b64decode(src.group(1)))).convert("RGB")
        # Cut from the plain picture: no reading written above the square below shows in it,
        # and the cell is framed in red as the annotated picture frames it.
        pixels = list(colour.get_flattened_data())
        assert not [p for p in pixels if p[1] > 100 and p[0] < 80 and p[2] < 80], name.group(1)
        assert [p for p in pixels if p[0] > 180 and p[1] < 80 and p[2] < 80], name.group(1)
        crops[name.group(1)] = colour.convert("L")
        buttons = re.findall(r'<button type="submit" name="pick" value="([^"]+)"', row)
        assert len(buttons) == 2
    assert re.findall(r'name="pick" value="(square\|Air\|1\|3=\d)"', page) == [
        "square|Air|1|3=6",
        "square|Air|1|3=4",
    ]
    for name, far in (("square|Air|1|3", True), ("square|Land|0|4", False)):
        crop = crops[name]
        top = crop.crop((0, 0, crop.width, crop.height // 2))
        bottom = crop.crop((0, crop.height // 2, crop.width, crop.height))
        dark, light = (bottom, top) if far else (top, bottom)
        assert mean(dark) < mean(light) - 100, name


def test_each_unsure_cell_says_why_the_reader_doubts_it(
    client: FlaskClient, reader: FakeReader
) -> None:
    """The reader's reason (the line, the light, a skipping pen) tells a player where to look
    when the two readings alone do not; a cell with none says nothing more."""
    reader.unsure = [
        unsure("Air", "Second", 3, "6", "4", why="written over the square's line: <part> & more"),
        unsure("Land", "First", 4, "4", "9", why="only 84% sure"),
        unsure("Sea", "First", 1, "3", "8"),
        unsure("Sea", "Second", 1, "ticked", "empty", kind="tick", why="41% of the box inked"),
    ]
    page = photo_result(client).text
    rows = re.findall(r'<div class="cell-row[^"]*">(.*?)</div>\s*</div>', page, re.S)
    reasons = [re.findall(r'<p class="why">([^<]*)</p>', row) for row in rows]
    assert [[html.unescape(r) for r in found] for found in reasons] == [
        ["Written over the square's line: <part> & more."],
        ["Only 84% sure."],
        [],
    ]
    assert "&lt;part&gt; &amp; more" in page  # the reader's words are text, never markup
    assert "tick box 1 is unsure (41% of the box inked); tick boxes do not" in page


def test_a_finished_game_with_cells_to_confirm_says_so_in_words(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    """Item 7: not "Winner so far", not "3 unsure cells" in the reader's words."""
    page = photo_result(client).text
    assert "Winner as read: <strong" in page and "so far" not in page
    assert (
        text_of(page, "status") == "Final result, once 3 cells read from the photo are confirmed."
    )
    assert "3 cells could not be read for sure" in page
    unsure_duel.unsure = unsure_duel.unsure[:1]
    one = photo_result(client).text
    assert text_of(one, "status") == "Final result, once 1 cell read from the photo is confirmed."
    assert "1 cell could not" in one and "1 cells" not in one


def test_choosing_a_reading_scores_with_it_and_confirms_that_cell_only(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    page = photo_result(client)
    # Air as read: First 6 6 1 (a pair of 6s) beats Second 4 4 6; with a 4 Second has 4 4 4.
    after = scored(client, correct(client, page, pick="square|Air|1|3=4"))
    assert text_of(after.text, "winner") == "Second"
    assert field_value(after.text, "square|Air|1|3") == "4"
    assert (
        text_of(after.text, "status")
        == "Final result, once 2 cells read from the photo are confirmed."
    )
    assert result_url(after) == result_url(page)


def test_scoring_with_the_fields_confirms_every_cell_and_keeps_the_picture(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    page = photo_result(client)
    after = scored(client, correct(client, page))
    assert text_of(after.text, "status") == "Final result."
    assert text_of(after.text, "winner") == "First"
    picture = re.search(r'<a href="([^"]+/sheet\.jpg)"><img src="([^"]+)"', after.text)
    assert picture is not None and picture.group(1) == picture.group(2)  # tap: full size
    image = client.get(picture.group(1))
    assert image.status_code == 200 and image.mimetype == "image/jpeg"
    from PIL import Image

    assert Image.open(io.BytesIO(image.data)).size == (1782, 1260)


def test_renaming_the_players_confirms_no_cell_but_those_changed(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    """A player who only named the players had confirmed every cell, a misread among them, and
    the result read "Final result." The names have a button of their own; the main one says
    what it does."""
    page = photo_result(client)
    assert re.search(r'class="main-submit">Confirm all 3 and score<', page.text)
    named = scored(client, correct(client, page, first="Ann", second="Ben", only="names"))
    assert (
        text_of(named.text, "status")
        == "Final result, once 3 cells read from the photo are confirmed."
    )
    assert field_value(named.text, "first") == "Ann"
    # A value typed in is a person's reading: that cell is confirmed, the others are not.
    typed = scored(client, correct(client, named, only="names", **{"square__Air__1__3": "4"}))
    assert (
        text_of(typed.text, "status")
        == "Final result, once 2 cells read from the photo are confirmed."
    )
    assert text_of(typed.text, "winner") == "Ben"


def test_the_referee_s_objection_to_a_corrected_square_stands_on_its_field(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    # It had stood only at the top, "the sheet as read", the field green as confirmed.
    page = photo_result(client)
    after = scored(client, correct(client, page, pick="square|Air|1|3=9")).text
    assert "The sheet as corrected cannot be scored yet: " in after
    row = after[
        after.index('name="square|Air|1|3"') - 800 : after.index('name="square|Air|1|3"') + 900
    ]
    assert 'aria-invalid="true"' in row and "9 is 3 steps past the die" in row
    assert 'class="cell-row confirmed"' not in row
    # Typed again wrongly, the field's own message replaces the objection to the value before.
    again = correct(client, client.get(result_url(page)), **{"square__Air__1__3": "S"})
    assert again.status_code == 422
    assert "is not a number, * or empty" in again.text and "steps past the die" not in again.text


def test_clearing_the_s_space_changes_the_score(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    # Politics: First 4 5 6 is a straight, Second 1 1 1 three of a kind. With the S the straight
    # wins there (Allies); without it three of a kind wins, and Second wins the game 3 to 2.
    page = photo_result(client)
    after = scored(client, correct(client, page, **{"allies__Politics": ""}))
    assert text_of(after.text, "winner") == "Second"
    assert "Politics (S)" not in after.text


@pytest.mark.parametrize("typed", ["x", "3,", "4 4", "100"])
def test_a_mistyped_correction_shows_the_form_again_with_a_message_on_that_field(
    client: FlaskClient, unsure_duel: FakeReader, typed: str
) -> None:
    """Item 9: the photo, every other correction and a message on the field."""
    page = photo_result(client)
    response = correct(
        client, page, **{"square__Air__1__3": "4", "square__Land__0__4": typed, "first": "Ann"}
    )
    assert response.status_code == 422
    assert field_errors(response.text) == [f"{typed!r} is not a number, * or empty"]
    assert field_value(response.text, "square|Land|0|4") == typed
    assert field_value(response.text, "square|Air|1|3") == "4"
    assert field_value(response.text, "first") == "Ann"
    assert "/sheet.jpg" in response.text and 'class="crop"' in response.text
    # Nothing was changed by the slip: the result as it was.
    assert text_of(client.get(result_url(page)).text, "winner") == "First"


def test_a_solo_ais_squares_take_a_star_on_any_keyboard(client: FlaskClient) -> None:
    sheet = as_read(SOLO, ("You", "AI"))
    reader = FakeReader(sheet=sheet, unsure=[unsure("Land", "AI", 3, "*", "2"),
                                             unsure("Land", "You", 1, "3", "8")])  # fmt: skip
    page = photo_result(create_app(photo_reader=reader).test_client()).text
    ai_field = re.search(r'<input id="square\|Land\|1\|3"[^>]*>', page)
    you_field = re.search(r'<input id="square\|Land\|0\|1"[^>]*>', page)
    assert ai_field and you_field
    assert "inputmode" not in ai_field.group(0)
    assert 'inputmode="numeric"' in you_field.group(0)
    assert field_value(page, "square|Land|1|3") == "*"


def test_the_players_names_are_used_in_the_result_and_the_downloads(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    """Item 10: named on the photo form, renamed on the result."""
    page = photo_result(client, first="Ann", second="Ben")
    assert field_value(page.text, "first") == "Ann"
    assert text_of(page.text, "winner") == "Ann"
    assert "Air, Ben, square 3" in page.text
    renamed = scored(client, correct(client, page, second="Bea"))
    assert text_of(renamed.text, "winner") == "Ann"
    toml = client.get(result_url(renamed) + "/sheet.toml")
    sheet = tomllib.loads(toml.text)
    assert sheet["players"] == ["Ann", "Bea"] and set(sheet["arenas"]["Air"]) == {"Ann", "Bea"}
    result = json.loads(client.get(result_url(renamed) + "/result.json").data)
    assert result["players"] == ["Ann", "Bea"] and result["winner"] == "Ann"


def test_two_players_with_one_name_are_refused_on_the_field(
    client: FlaskClient, unsure_duel: FakeReader
) -> None:
    page = photo_result(client)
    response = correct(client, page, first="Ann", second="ann")
    assert response.status_code == 422
    assert field_errors(response.text) == ["the two players need different names, not 'Ann' twice"]


def test_what_is_kept_is_the_corrected_sheet_and_its_result(
    client: FlaskClient, runner: Any, unsure_duel: FakeReader, tmp_path: Path
) -> None:
    """Item 5: the kept sheet held the misread cells."""
    page = photo_result(client)
    after = scored(client, correct(client, page, **{"square__Air__1__3": "4"}))
    sheet_file = tmp_path / "kept.toml"
    sheet_file.write_bytes(client.get(result_url(after) + "/sheet.toml").data)
    kept = tomllib.loads(sheet_file.read_text("utf-8"))
    assert kept["arenas"]["Air"]["Second"] == [4, 4, 4]
    result = json.loads(client.get(result_url(after) + "/result.json").data)
    by_cli = json.loads(runner.invoke(cli, ["score", "--json", str(sheet_file)]).stdout)
    assert result == by_cli and result["winner"] == "Second"


def test_a_photographed_sheet_with_empty_squares_is_its_standing(
    client: FlaskClient, reader: FakeReader
) -> None:
    """Item 11: the standing so far with the empty squares listed, not an error."""
    reader.sheet["arenas"]["Sea"]["First"][4] = "_"
    reader.sheet["arenas"]["Sea"]["Second"][4] = "_"
    page = photo_result(client).text
    assert text_of(page, "status") == "Unfinished game: the standing so far."
    assert "2 empty squares<" in page
    assert "Sea, First, square 5" in page and "Sea, Second, square 5" in page


# --- a game night -------------------------------------------------------------------------


def post_photos(client: FlaskClient, names: list[str]) -> Any:
    files = [(io.BytesIO(jpeg()), name) for name in names]
    return client.post("/photo", data={"photos": files}, content_type="multipart/form-data")


def test_several_photos_are_each_scored_and_listed(client: FlaskClient) -> None:
    """Item 18: a table's finished games sent at once."""
    page = scored(client, post_photos(client, ["a.jpg", "b.jpg", "c.jpg"])).text
    assert "3 photos read" in page
    links = re.findall(r'href="(/results/[^"/]+)">Result (\d)', page)
    assert [n for _, n in links] == ["1", "2", "3"]
    for link, _ in links:
        assert text_of(client.get(link).text, "winner") == "First"
    assert "a team game" not in client.get("/results").text


def test_one_bad_photo_among_several_is_named_and_the_rest_scored(client: FlaskClient) -> None:
    files = [
        (io.BytesIO(jpeg()), "a.jpg"),
        (io.BytesIO(b"no image"), "notes.jpg"),
        # Named as sent, never as made safe for a file system ("jpg", "jpg.jpg").
        (io.BytesIO(b"no image"), "対戦 #2.jpg"),
        (io.BytesIO(jpeg()), "写真.jpg"),
    ]
    response = client.post("/photo", data={"photos": files}, content_type="multipart/form-data")
    page = scored(client, response).text
    assert "notes.jpg is not an image" in page
    assert "対戦 #2.jpg is not an image" in page
    assert "写真.jpg (sheet" in page
    assert len(re.findall(r'href="/results/[^"/]+">Result', page)) == 2
    # Those refused are not counted among those read.
    assert re.search(r"<h1>\s*2 of 4 photos read\s*</h1>", page)


def test_a_team_packs_sheets_are_combined_into_the_team_result(
    client: FlaskClient, reader: FakeReader
) -> None:
    """Item 18: near sides are team 1, far sides team 2, as the pack seats them."""
    team = example(EXAMPLES / "one-page-war" / "team.toml")
    sheets = iter(enumerate(team["sheets"], start=1))

    def next_sheet(path: Path, options: Any) -> Any:
        k, sheet = next(sheets)
        reader.sheet_id = f"T-0C1D-{k:04d}"  # each sheet of the pack has its own id
        reader.sheet = as_read(DUEL) | {"arenas": {
            name: {"First": t[sheet["players"][0]], "Second": t[sheet["players"][1]]}
            for name, t in sheet["arenas"].items()
        }}  # fmt: skip
        return FakeReader.__call__(reader, path, options)

    app = create_app(photo_reader=next_sheet)
    test_client = app.test_client()
    page = scored(test_client, post_photos(test_client, ["t1.jpg", "t2.jpg"])).text
    assert "The team game" in page
    # As typed in: team South (the far sides, Ben and Dee) wins 5 arenas to 4.
    assert text_of(page, "winner") == "Team 2"
    assert text_of(page, "summary") == "team Team 2 wins: arenas Team 1 4, Team 2 5"
    # The team game is a result of the night too, beside each sheet's own.
    listing = test_client.get("/results").text
    assert "2 photos, a team game: team Team 2 wins: arenas Team 1 4, Team 2 5" in listing
    rows = list(csv.reader(io.StringIO(test_client.get("/results.csv").text)))
    # Each sheet's page leads back to the team game its corrections add up in.
    first = re.findall(r'href="(/results/[^"/]+)">Result \d', page)[0]
    back = re.search(r'href="(/results/[^"/]+)">The team game</a>', test_client.get(first).text)
    assert back is not None and "<h2>The team game</h2>" in test_client.get(back.group(1)).text
    (team_row,) = [r for r in rows if r[3] == "2 photos"]
    assert team_row[2:7] == ["One Page War", "2 photos", "Team 1 / Team 2", "Team 2", "final"]
    assert len(rows) == 1 + 2 + 1


def test_a_duel_sheet_sent_with_a_team_pack_is_scored_on_its_own_beside_the_team_game(
    client: FlaskClient, reader: FakeReader
) -> None:
    # Sent with one, the pack's team result had gone without a word.
    team = example(EXAMPLES / "one-page-war" / "team.toml")
    sheets = iter(enumerate(team["sheets"], start=1))

    def next_sheet(path: Path, options: Any) -> Any:
        step = next(sheets, None)
        if step is None:  # the last photo: a duel's sheet
            reader.sheet_id, reader.sheet = "D-B0B6-0001", as_read(DUEL)
            return FakeReader.__call__(reader, path, options)
        k, sheet = step
        reader.sheet_id = f"T-0C1D-{k:04d}"
        reader.sheet = as_read(DUEL) | {"arenas": {
            name: {"First": t[sheet["players"][0]], "Second": t[sheet["players"][1]]}
            for name, t in sheet["arenas"].items()
        }}  # fmt: skip
        return FakeReader.__call__(reader, path, options)

    test_client = create_app(photo_reader=next_sheet).test_client()
    page = scored(test_client, post_photos(test_client, ["t1.jpg", "t2.jpg", "duel.jpg"])).text
    assert "The team game" in page
    assert text_of(page, "summary") == "team Team 2 wins: arenas Team 1 4, Team 2 5"
    assert page.count("(not of the team pack: a game of its own)") == 1
    night = page[page.index("Each photo") :]
    mine = next(line for line in night.splitlines() if "duel.jpg" in line)
    assert "D-B0B6-0001" in mine


def test_team_sheets_of_different_packs_are_not_combined(
    client: FlaskClient, reader: FakeReader
) -> None:
    ids = iter(["T-0C1D-0001", "T-99AA-0002"])

    def reading(path: Path, options: Any) -> Any:
        reader.sheet_id = next(ids)
        return FakeReader.__call__(reader, path, options)

    test_client = create_app(photo_reader=reading).test_client()
    page = scored(test_client, post_photos(test_client, ["t1.jpg", "t2.jpg"])).text
    assert "The team game" not in page


def team_client(
    ids: list[str | None], unsure_first: list[dict[str, Any]] | None = None, **options: Any
) -> FlaskClient:
    """An app (made with `options`) whose reader reads the example team game's sheets in turn,
    each with its id from `ids`; the first sheet with `unsure_first` unsure."""
    team = example(EXAMPLES / "one-page-war" / "team.toml")
    sheets = iter(zip(ids, team["sheets"], strict=True))

    def read(path: Path, options: Any) -> Any:
        sheet_id, sheet = next(sheets)
        arenas = {
            name: {"First": t[sheet["players"][0]], "Second": t[sheet["players"][1]]}
            for name, t in sheet["arenas"].items()
        }
        unsure_cells = (unsure_first or []) if sheet is team["sheets"][0] else []
        reader = FakeReader(as_read(DUEL) | {"arenas": arenas}, unsure_cells, sheet_id)
        return reader(path, options)

    return create_app(photo_reader=read, **options).test_client()


def member_links(page: str) -> list[str]:
    return re.findall(r'href="(/results/[^"/]+)">Result', page)


def test_the_team_result_is_made_from_each_sheet_as_corrected() -> None:
    """Sheet 1's Land as read: the far side's 2 2 2 6, its third square unsure (2 or 3). With a
    3 there, the near side's pair of 3s wins Land, and Team 1 the game, 5 arenas to 4."""
    ids = ["T-0C1D-0001", "T-0C1D-0002"]
    team = team_client(ids, [unsure("Land", "Second", 3, "2", "3")])
    batch = scored(team, post_photos(team, ["t1.jpg", "t2.jpg"]))
    assert text_of(batch.text, "winner") == "Team 2"
    assert (
        text_of(batch.text, "status")
        == "Final result, once 1 cell read from the photo is confirmed."
    )
    first = team.get(member_links(batch.text)[0])
    scored(team, correct(team, first, pick="square|Land|1|3=3"))
    again = team.get(result_url(batch)).text
    assert text_of(again, "winner") == "Team 1"
    assert text_of(again, "summary") == "team Team 1 wins: arenas Team 1 5, Team 2 4"
    assert text_of(again, "status") == "Final result."


def test_the_team_game_names_the_players_by_their_sheets() -> None:
    """No names given: by side and sheet. The same names for every photo of the upload: told
    apart by their sheet. Renamed on a sheet's page: those names."""
    plain = team_client(["T-0C1D-0001", "T-0C1D-0002"])
    page = scored(plain, post_photos(plain, ["t1.jpg", "t2.jpg"])).text
    assert re.findall(r"<h2>(Sheet \d: [^<]*)</h2>", page) == [
        "Sheet 1: First 1 vs Second 1",
        "Sheet 2: First 2 vs Second 2",
    ]
    named = team_client(["T-0C1D-0001", "T-0C1D-0002"])
    files = [(io.BytesIO(jpeg()), name) for name in ("t1.jpg", "t2.jpg")]
    form = {"photos": files, "first": "Ann", "second": "Ben"}
    response = named.post("/photo", data=form, content_type="multipart/form-data")
    batch = scored(named, response)
    assert re.findall(r"<h2>(Sheet \d: [^<]*)</h2>", batch.text) == [
        "Sheet 1: Ann 1 vs Ben 1",
        "Sheet 2: Ann 2 vs Ben 2",
    ]
    second = named.get(member_links(batch.text)[1])
    scored(named, correct(named, second, first="Cid", second="Dee"))
    again = named.get(result_url(batch)).text
    assert re.findall(r"<h2>(Sheet \d: [^<]*)</h2>", again) == [
        "Sheet 1: Ann vs Ben",
        "Sheet 2: Cid vs Dee",
    ]
    assert "Team 1 (Ann, Cid) vs Team 2 (Ben, Dee)" in html.unescape(again)


@pytest.mark.parametrize(
    ("ids", "said"),
    [
        (["T-0C1D-0001", "T-0C1D-0001"],
         "sheet T-0C1D-0001 is photographed twice (t1.jpg and t2.jpg); give one photo of each "
         "sheet (sheets photocopied from one print share its id: a team game needs the sheets "
         "of one team pack, each with its own id)"),
        # T-D6A8 is the id of a pack of three on A4: its third sheet is missing.
        (["T-D6A8-0001", "T-D6A8-0002"],
         "no photo of sheet T-D6A8-0003 (a team of 3 plays 3 sheets: T-D6A8-0001, T-D6A8-0002, "
         "T-D6A8-0003); add its photo"),
        (["T-0C1D-0001", None],
         "t2.jpg: its QR code could not be read, so which sheet of the pack it is is unknown; "
         "retake it with the QR code in focus"),
    ],
    ids=["twice", "missing", "unread"],
)  # fmt: skip
def test_what_keeps_a_team_packs_photos_from_one_game_is_named(
    ids: list[str | None], said: str
) -> None:
    team = team_client(ids)
    page = scored(team, post_photos(team, ["t1.jpg", "t2.jpg"])).text
    assert "The team game" in page
    assert text_of(page, "team-problem") == f"The sheets cannot be scored together yet: {said}"
    assert len(member_links(page)) == 2  # each sheet still scored on its own


def test_a_team_game_with_a_photo_refused_names_it() -> None:
    team = team_client(["T-0C1D-0001"])
    files = [(io.BytesIO(jpeg()), "t1.jpg"), (io.BytesIO(b"no image"), "notes.jpg")]
    response = team.post("/photo", data={"photos": files}, content_type="multipart/form-data")
    page = scored(team, response).text
    assert text_of(page, "team-problem") == (
        "The sheets cannot be scored together yet: 1 photo could not be read, and a team game "
        "needs every sheet: notes.jpg"
    )


def test_a_team_game_whose_sheet_is_no_longer_kept_says_so() -> None:
    team = team_client(["T-0C1D-0001", "T-0C1D-0002"], max_results=3)
    batch = scored(team, post_photos(team, ["t1.jpg", "t2.jpg"]))
    scored(team, team.post("/type", data={"text": DUEL.read_text()}))  # the first sheet goes
    page = team.get(result_url(batch)).text
    assert text_of(page, "team-problem") == (
        "The sheets cannot be scored together yet: a sheet of this game is no longer kept (the "
        "server keeps the night's latest results); send the photos again"
    )


def test_the_nights_table_lists_every_result(client: FlaskClient, reader: FakeReader) -> None:
    """Item 19."""
    scored(client, client.post("/type", data={"text": DUEL.read_text()}))
    photo_result(client, "IMG_9.jpg", first="Ann", second="Ben")
    listing = client.get("/results").text
    assert "the pasted sheet" in listing and "IMG_9.jpg" in listing
    rows = list(csv.reader(io.StringIO(client.get("/results.csv").text)))
    header = ["number", "time", "game", "source", "players", "winner", "standing", "result"]
    assert rows[0] == header
    assert [r[0] for r in rows[1:]] == ["1", "2"]
    assert rows[1][2:6] == ["One Page War", "the pasted sheet", "Ann / Ben", "Ann"]
    assert rows[2][3:7] == ["IMG_9.jpg", "Ann / Ben", "Ann", "final"]
    # An aiue battle's report names no players: the log does (their column had been empty).
    aiue = (EXAMPLES / "aiue-battle" / "apple.toml").read_text("utf-8")
    scored(client, client.post("/type", data={"text": aiue}))
    rows = list(csv.reader(io.StringIO(client.get("/results.csv").text)))
    assert rows[3][2:6] == ["aiue battle", "the pasted sheet", "Ann / Ben / Cid", "Cid"]


def test_the_nights_table_cannot_carry_a_spreadsheet_formula(client: FlaskClient) -> None:
    text = (
        DUEL.read_text("utf-8")
        .replace('"Ann"', '"=HYPERLINK(1)"')
        .replace("Ann =", '"=HYPERLINK(1)" =')
    )
    scored(client, client.post("/type", data={"text": text}))
    rows = list(csv.reader(io.StringIO(client.get("/results.csv").text)))
    assert all(not cell.startswith("=") for cell in rows[1])


def test_an_unknown_result_is_404(client: FlaskClient) -> None:
    assert client.get("/results/nothing-here").status_code == 404
    assert client.get("/results/nothing-here/sheet.toml").status_code == 404
    assert client.post("/results/nothing-here", data={}).status_code == 404


def test_a_typed_sheet_result_takes_no_corrections(client: FlaskClient) -> None:
    page = scored(client, client.post("/type", data={"text": DUEL.read_text()}))
    assert client.post(result_url(page), data={"first": "X"}).status_code == 405


# --- the real photo reader ----------------------------------------------------------------


@pytest.fixture(scope="module")
def sheet_photo(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    import photo_corpus as corpus

    shot = corpus.Shot(size=(1600, 1200), tilt_deg=8, blur=0.4, noise=2, jpeg_quality=90, seed=11)
    path = tmp_path_factory.mktemp("photo") / "sheet.jpg"
    corpus.make_photo(path, seed=11, mode="duel", shot=shot)
    return path.read_bytes()


def test_a_real_photo_is_read_and_leaves_nothing_behind(uploads: Path, sheet_photo: bytes) -> None:
    client = create_app(upload_root=uploads).test_client()
    page = scored(client, post_photo(client, sheet_photo, "IMG_7.jpg")).text
    assert re.search(r'id="summary">[^<]+<', page)
    assert "IMG_7.jpg" in page and "/sheet.jpg" in page
    assert list(uploads.iterdir()) == []


def test_a_real_photo_with_no_sheet_is_422_with_the_readers_message(uploads: Path) -> None:
    client = create_app(upload_root=uploads).test_client()
    response = post_photo(client, jpeg(), "IMG_0001.jpg")
    assert response.status_code == 422
    assert error_of(response.text).startswith("IMG_0001.jpg: ")
    assert str(uploads) not in response.text
    assert list(uploads.iterdir()) == []


def test_a_get_on_a_form_target_is_405(client: FlaskClient) -> None:
    assert client.get("/photo/correct").status_code == 404
    assert client.put("/type").status_code == 405


@pytest.mark.parametrize("layout", ["../package-war/pad", "/etc/hostname", "nope"])
def test_a_sheets_layout_is_only_one_the_project_ships(client: FlaskClient, layout: str) -> None:
    """Issue 19: a sheet's `layout` named any file; the page quotes no path of the machine."""
    from printgen.paths import ROOT

    text = DUEL.read_text("utf-8").replace('layout = "standard"', f'layout = "{layout}"')
    response = client.post("/type", data={"text": text})
    assert response.status_code == 422
    assert str(ROOT) not in response.text and "layouts/" not in response.text


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        ("写真.jpg", "写真.jpg"),
        ("Spiel Ärger #1 (copy) 😀.jpg", "Spiel Ärger #1 (copy) 😀.jpg"),
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\ann\\IMG_0042.JPG", "IMG_0042.JPG"),
        ("evil\u202egpj.exe", "evilgpj.exe"),  # a right-to-left override would disguise it
        ("line\nbreak.jpg", "linebreak.jpg"),
        ("  ", "the photo"),
    ],
)
def test_an_upload_is_named_as_sent_without_its_path_or_control_characters(
    sent: str, shown: str
) -> None:
    from werkzeug.datastructures import FileStorage

    from printgen.web.app import _sent_name

    assert _sent_name(FileStorage(io.BytesIO(b""), sent), "the photo") == shown


@pytest.mark.parametrize(("reading", "second"), [("S", "?"), ("empty", "?"), ("S", "empty")])
def test_an_s_space_offers_both_of_its_values(reading: str, second: str) -> None:
    # Read as S with "another mark" second, it had offered "S" alone: no way to tap "no S".
    from printgen.web.photo import Cell

    cell = Cell("allies", "Politics", None, 1, reading, second)
    values = [value for value, _ in cell.choices]
    assert sorted(values) == ["", "S"]
    assert values[0] == cell.as_field(reading)  # the likelier first
    assert dict(cell.choices)[""] == "no S"
