"""`printgen serve` through Flask's test client: every page, its status codes and its errors.

The results a page shows must be the CLI's: both go through the same referee."""

from __future__ import annotations

import html
import io
import json
import re
import struct
import threading
import tomllib
import zlib
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from printgen.cli import cli
from printgen.errors import InputError
from printgen.materials import PhotoOptions, ScoreReport
from printgen.web import create_app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*/*.toml"))
DUEL = ROOT / "examples" / "one-page-war" / "duel.toml"


@pytest.fixture
def uploads(tmp_path: Path) -> Path:
    folder = tmp_path / "uploads"
    folder.mkdir()
    return folder


@pytest.fixture
def app(uploads: Path) -> Flask:
    return create_app(upload_root=uploads)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def text_of(html: str, element_id: str) -> str | None:
    found = re.search(rf'id="{element_id}">([^<]*)<', html)
    return None if found is None else found.group(1)


def error_of(page: str) -> str:
    found = re.search(r'class="error" role="alert">([^<]*)<', page)
    assert found is not None, page
    return html.unescape(found.group(1))


def jpeg(width: int = 64, height: int = 48) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 200, 200)).save(buffer, "JPEG")
    return buffer.getvalue()


def png_header(width: int, height: int) -> bytes:
    """The start of a PNG that claims `width` x `height`: enough for anything that reads the
    header only, and cheap for sizes no test should decode."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"")


# --- pages --------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/", "/materials", "/type", "/photo"])
def test_every_page_answers_with_the_navigation_and_no_outside_resource(
    client: FlaskClient, url: str
) -> None:
    response = client.get(url)
    assert response.status_code == 200
    html = response.text
    for link in ('href="/photo"', 'href="/type"', 'href="/materials"'):
        assert link in html
    # Nothing leaves the machine: no absolute URL in any src or href, no script at all.
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "<script" not in html


def test_the_stylesheet_is_served_locally(client: FlaskClient) -> None:
    response = client.get("/static/style.css")
    assert response.status_code == 200
    assert "overflow-wrap" in response.text


def test_an_unknown_page_is_404_with_a_page_that_says_so(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "no such page" in response.text


def test_the_photo_form_opens_the_phone_camera(client: FlaskClient) -> None:
    html = client.get("/photo").text
    assert re.search(
        r'<input[^>]*type="file"[^>]*accept="image/\*"[^>]*capture="environment"', html
    )


# --- materials ----------------------------------------------------------------------------


def test_the_materials_page_lists_each_material_with_a_pdf_per_paper(client: FlaskClient) -> None:
    from printgen.games import all_materials

    html = client.get("/materials").text
    for material in all_materials():
        if not material.standalone:  # needs a rules file: `printgen build all` skips it too
            assert "/materials/card-" not in html
            continue
        for paper in material.papers:
            assert f'href="/materials/{material.name}-{paper.value}.pdf"' in html


@pytest.mark.parametrize(("name", "paper"), [("war-card", "letter"), ("one-page-war-solo", "a4")])
def test_a_material_downloads_as_the_same_pdf_the_cli_builds(
    client: FlaskClient, name: str, paper: str
) -> None:
    from printgen.games import all_materials
    from printgen.materials import BuildOptions
    from printgen.render.units import Paper

    material = next(m for m in all_materials() if m.name == name)
    response = client.get(f"/materials/{name}-{paper}.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert f'filename="{name}-{paper}.pdf"' in response.headers["Content-Disposition"]
    assert response.data == material.build(BuildOptions(paper=Paper(paper)), None)


@pytest.mark.parametrize(
    "url",
    ["/materials/no-such-thing-a4.pdf", "/materials/war-card-a3.pdf", "/materials/card-a4.pdf"],
)
def test_an_unknown_material_or_paper_is_404(client: FlaskClient, url: str) -> None:
    assert client.get(url).status_code == 404


# --- a typed-in sheet ---------------------------------------------------------------------


def cli_result(runner: Any, path: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(cli, ["score", "--json", *extra, str(path)])
    return dict(json.loads(result.output))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_uploaded_example_gets_the_clis_answer(
    client: FlaskClient, runner: Any, path: Path
) -> None:
    """Every example file: the web's winner or error is the CLI's (some examples are game logs
    for a game's own command, which `printgen score` refuses; the web refuses them the same)."""
    data = {"file": (io.BytesIO(path.read_bytes()), path.name)}
    response = client.post("/type", data=data, content_type="multipart/form-data")
    by_cli = runner.invoke(cli, ["score", "--json", str(path)])
    if by_cli.exit_code == 1:
        assert response.status_code == 422
        cli_error = by_cli.stderr.removeprefix("error: ").strip()
        assert error_of(response.text) == cli_error.replace(str(path), path.name)
        return
    assert response.status_code == 200
    expected = json.loads(by_cli.stdout)
    assert text_of(response.text, "winner") == expected.get("winner")
    assert ("Final result." in response.text) == (by_cli.exit_code == 0)


def test_a_pasted_sheet_scores_as_the_cli_scores_its_file(client: FlaskClient, runner: Any) -> None:
    for path in DUEL, ROOT / "examples" / "aiue-battle" / "kana.toml":
        response = client.post("/type", data={"text": path.read_text(encoding="utf-8")})
        assert response.status_code == 200
        assert text_of(response.text, "winner") == cli_result(runner, path)["winner"]


def test_a_sheet_pasted_as_json_scores_the_same(client: FlaskClient, runner: Any) -> None:
    document = tomllib.loads(DUEL.read_text(encoding="utf-8"))
    response = client.post("/type", data={"text": json.dumps(document), "format": "auto"})
    assert response.status_code == 200
    assert text_of(response.text, "winner") == cli_result(runner, DUEL)["winner"] == "Ann"


def test_an_uploaded_sheet_file_is_scored_and_its_name_kept(client: FlaskClient) -> None:
    data = {"file": (io.BytesIO(DUEL.read_bytes()), "duel.toml"), "text": ""}
    response = client.post("/type", data=data, content_type="multipart/form-data")
    assert response.status_code == 200
    assert "duel.toml" in response.text  # the referee's report names its source
    assert text_of(response.text, "winner") == "Ann"


def test_an_unfinished_sheet_needs_partial_and_then_shows_a_provisional_standing(
    client: FlaskClient,
) -> None:
    text = DUEL.read_text(encoding="utf-8").replace("Ann = [3, 3, 5, 4]", 'Ann = [3, 3, 5, "_"]')
    refused = client.post("/type", data={"text": text})
    assert refused.status_code == 422
    assert "unfinished game" in error_of(refused.text)
    kept = re.search(r"<textarea[^>]*>(.*?)</textarea>", refused.text, re.S)
    assert kept is not None and html.unescape(kept.group(1)) == text  # kept, to be fixed
    standing = client.post("/type", data={"text": text, "partial": "on"})
    assert standing.status_code == 200
    assert "Provisional" in standing.text
    assert text_of(standing.text, "winner") is None


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
def test_a_malformed_sheet_is_422_with_the_referees_message(
    client: FlaskClient, text: str, fmt: str, message: str
) -> None:
    response = client.post("/type", data={"text": text, "format": fmt})
    assert response.status_code == 422
    assert message in error_of(response.text)


def test_an_empty_form_is_400(client: FlaskClient) -> None:
    response = client.post("/type", data={"text": "  "})
    assert response.status_code == 400
    assert "Paste a sheet" in error_of(response.text)


def test_an_uploaded_sheet_that_is_not_utf8_is_422(client: FlaskClient) -> None:
    data = {"file": (io.BytesIO(b"game = \xff\xfe"), "odd.toml")}
    response = client.post("/type", data=data, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "odd.toml: not a UTF-8 text file" in error_of(response.text)


# --- photo uploads ------------------------------------------------------------------------


def post_photo(client: FlaskClient, data: bytes, name: str = "sheet.jpg", **form: str) -> Any:
    fields: dict[str, Any] = {"photo": (io.BytesIO(data), name), **form}
    return client.post("/photo", data=fields, content_type="multipart/form-data")


def test_a_photo_post_without_a_file_is_400(client: FlaskClient) -> None:
    response = client.post("/photo", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose or take a photo" in error_of(response.text)


def test_an_upload_over_20_mb_is_413_with_a_message(client: FlaskClient, uploads: Path) -> None:
    response = post_photo(client, b"\xff" * (20 * 1024 * 1024 + 1))
    assert response.status_code == 413
    assert "over 20 MB" in error_of(response.text)
    assert list(uploads.iterdir()) == []


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (b"game = 'one-page-war'\n", "sheet.jpg", "sheet.jpg is not an image"),
        (b"", "empty.png", "empty.png is not an image"),
    ],
)
def test_a_file_that_is_not_an_image_is_415(
    client: FlaskClient, uploads: Path, data: bytes, name: str, message: str
) -> None:
    response = post_photo(client, data, name)
    assert response.status_code == 415
    assert message in error_of(response.text)
    assert list(uploads.iterdir()) == []


def test_an_image_that_is_not_a_photo_format_is_415(client: FlaskClient) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buffer, "GIF")
    response = post_photo(client, buffer.getvalue(), "anim.gif")
    assert response.status_code == 415
    assert "a GIF image; send a JPEG or PNG" in error_of(response.text)


def test_an_image_over_50_megapixels_is_413_and_never_decoded(
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
    assert "over" in error_of(response.text)


def test_a_photo_with_no_sheet_is_422_with_the_readers_message_and_is_deleted(
    client: FlaskClient, uploads: Path
) -> None:
    response = post_photo(client, jpeg(), "IMG_0001.jpg")
    assert response.status_code == 422
    message = error_of(response.text)
    assert "IMG_0001" in message
    assert str(uploads) not in response.text  # no server path leaks into the page
    assert list(uploads.iterdir()) == []


def test_a_slow_photo_does_not_block_other_pages(uploads: Path) -> None:
    """A real threaded server: while one photo is being read, other pages still answer."""
    import http.client

    from werkzeug.serving import make_server

    reading = threading.Event()
    release = threading.Event()

    def slow_reader(path: Path, options: PhotoOptions) -> ScoreReport:
        reading.set()
        release.wait(timeout=60)
        raise InputError(f"{path}: no sheet in this photo")

    app = create_app(upload_root=uploads, photo_reader=slow_reader)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    port = server.server_port
    answers: dict[str, int] = {}

    def upload() -> None:
        boundary = "b0undary"
        head = (
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="photo"; filename="a.jpg"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        )
        body = head.encode() + jpeg() + f"\r\n--{boundary}--\r\n".encode()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request(
            "POST", "/photo", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        )
        answers["photo"] = connection.getresponse().status

    uploader = threading.Thread(target=upload)
    try:
        uploader.start()
        assert reading.wait(timeout=60)
        for url in ("/", "/materials", "/type"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", url)
            answers[url] = connection.getresponse().status
        assert not release.is_set() and "photo" not in answers  # still reading
    finally:
        release.set()
        uploader.join(timeout=60)
        server.shutdown()
    assert answers == {"/": 200, "/materials": 200, "/type": 200, "photo": 422}
    assert list(uploads.iterdir()) == []


# --- correcting unsure cells --------------------------------------------------------------


def duel_sheet() -> dict[str, Any]:
    return dict(tomllib.loads(DUEL.read_text(encoding="utf-8")))


def test_a_corrected_cell_is_scored_by_the_referee(client: FlaskClient) -> None:
    sheet = duel_sheet()
    sheet["arenas"]["Land"]["Ann"][3] = "_"  # as if read unsure
    form = {"sheet": json.dumps(sheet), "square|Land|Ann|4": "4"}
    response = client.post("/photo/correct", data=form)
    assert response.status_code == 200
    assert text_of(response.text, "winner") == "Ann"
    assert "Final result." in response.text


def test_correcting_a_cell_changes_the_score(client: FlaskClient) -> None:
    # Air as typed: Ann 6 6 1 (pair of 6s) beats Ben 4 4 6 (pair of 4s); Ann wins 3 arenas to
    # 2. Ben's third square corrected to 4 gives Ben three 4s: Air, and the game, go to Ben.
    sheet = duel_sheet()
    before = client.post("/photo/correct", data={"sheet": json.dumps(sheet)})
    assert text_of(before.text, "winner") == "Ann"
    after = client.post(
        "/photo/correct", data={"sheet": json.dumps(sheet), "square|Air|Ben|3": "4"}
    )
    assert after.status_code == 200
    assert text_of(after.text, "winner") == "Ben"
    assert text_of(after.text, "summary") == "Ben wins, 3 arenas to 2"


def test_an_unsure_s_space_can_be_set_or_cleared(client: FlaskClient) -> None:
    # Politics: Ann 4 5 6 is a straight, Ben 1 1 1 three of a kind. With Ann's S the straight
    # wins there (Allies); without it three of a kind wins, and Ben wins the game 3 to 2.
    sheet = duel_sheet()
    cleared = client.post(
        "/photo/correct", data={"sheet": json.dumps(sheet), "allies|Politics": ""}
    )
    assert cleared.status_code == 200
    assert "Politics (S)" not in cleared.text
    assert text_of(cleared.text, "winner") == "Ben"
    kept = client.post("/photo/correct", data={"sheet": json.dumps(sheet), "allies|Politics": "S"})
    assert "Politics (S)" in kept.text
    assert text_of(kept.text, "winner") == "Ann"


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"sheet": "{not json"}, "lost the sheet"),
        ({}, "lost the sheet"),
        ({"sheet": json.dumps(duel_sheet()), "square|Land|Ann|4": "x"}, "'x' is not a number"),
        ({"sheet": json.dumps(duel_sheet()), "square|Land|Zed|1": "3"}, "no such square"),
        ({"sheet": json.dumps(duel_sheet()), "square|Land|Ann|9": "3"}, "no such square"),
    ],
)
def test_a_bad_correction_is_422(client: FlaskClient, form: dict[str, str], message: str) -> None:
    response = client.post("/photo/correct", data=form)
    assert response.status_code == 422
    assert message in error_of(response.text)


def test_kept_downloads_refuse_unknown_names(client: FlaskClient) -> None:
    assert client.get("/kept/short/annotated.png").status_code == 404
    assert client.get(f"/kept/{'a' * 32}/annotated.png").status_code == 404
    assert client.get(f"/kept/{'a' * 32}/..%2Fsecret").status_code == 404


# --- the access token for --lan -----------------------------------------------------------


@pytest.fixture
def guarded(uploads: Path) -> FlaskClient:
    return create_app(token="s3cret-token", upload_root=uploads).test_client()


@pytest.mark.parametrize(
    "url", ["/", "/materials", "/static/style.css", "/materials/war-card-a4.pdf", "/photo"]
)
def test_without_the_token_every_request_is_403(guarded: FlaskClient, url: str) -> None:
    assert guarded.get(url).status_code == 403
    assert guarded.get(url + "?t=wrong").status_code == 403


def test_a_post_without_the_token_is_403_before_anything_is_read(
    guarded: FlaskClient, uploads: Path
) -> None:
    response = post_photo(guarded, jpeg())
    assert response.status_code == 403
    assert "QR code" in response.text
    assert guarded.post("/type", data={"text": DUEL.read_text()}).status_code == 403
    assert list(uploads.iterdir()) == []


def test_with_the_token_every_link_and_form_carries_it(guarded: FlaskClient) -> None:
    response = guarded.get("/?t=s3cret-token")
    assert response.status_code == 200
    links = re.findall(r'(?:href|action)="([^"]+)"', response.text)
    assert links and all("t=s3cret-token" in link for link in links)
    form = guarded.get("/type?t=s3cret-token").text
    action = re.search(r'action="([^"]+)"', form)
    assert action is not None
    scored = guarded.post(action.group(1).replace("&amp;", "&"), data={"text": DUEL.read_text()})
    assert scored.status_code == 200
    assert text_of(scored.text, "winner") == "Ann"


# --- a real photo, read by the One Page War reader ----------------------------------------


@pytest.fixture(scope="module")
def sheet_photo(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    import photo_corpus as corpus

    shot = corpus.Shot(size=(1600, 1200), tilt_deg=8, blur=0.4, noise=2, jpeg_quality=90, seed=11)
    path = tmp_path_factory.mktemp("photo") / "sheet.jpg"
    corpus.make_photo(path, seed=11, mode="duel", shot=shot)
    return path.read_bytes()


def test_a_read_photo_shows_the_sheet_and_leaves_nothing_behind(
    client: FlaskClient, uploads: Path, sheet_photo: bytes
) -> None:
    response = post_photo(client, sheet_photo, "IMG_7.jpg")
    assert response.status_code == 200
    assert 'src="data:image/jpeg;base64,' in response.text
    assert re.search(r'id="summary">[^<]+<', response.text)
    assert "/kept/" not in response.text
    assert list(uploads.iterdir()) == []


def test_a_kept_result_downloads_the_annotated_sheet_and_the_sheet_as_read(
    client: FlaskClient, uploads: Path, sheet_photo: bytes
) -> None:
    response = post_photo(client, sheet_photo, "IMG_8.jpg", keep="on")
    assert response.status_code == 200
    links = sorted(set(re.findall(r'href="(/kept/[^"]+)"', response.text)))
    assert [link.rsplit("/", 1)[1] for link in links] == ["annotated.png", "sheet.json"]
    (folder,) = uploads.iterdir()
    assert sorted(p.name for p in folder.iterdir()) == ["annotated.png", "sheet.json"]  # no photo
    image = client.get(links[0])
    assert image.status_code == 200
    assert image.data.startswith(b"\x89PNG")
    sheet = client.get(links[1])
    assert json.loads(sheet.data)["game"] == "one-page-war"
    carried = re.search(r'name="sheet" value="([^"]*)"', response.text)
    if carried is not None:  # the correction form carries the same sheet
        assert json.loads(html.unescape(carried.group(1))) == json.loads(sheet.data)


def test_a_photo_named_like_the_results_does_not_clash_with_them(
    client: FlaskClient, uploads: Path, sheet_photo: bytes
) -> None:
    response = post_photo(client, sheet_photo, "annotated.png", keep="on")
    assert response.status_code == 200  # a JPEG whatever its name says
    (folder,) = uploads.iterdir()
    assert sorted(p.name for p in folder.iterdir()) == ["annotated.png", "sheet.json"]
    link = re.search(r'href="(/kept/[^"]+/annotated.png)"', response.text)
    assert link is not None
    assert client.get(link.group(1)).data.startswith(b"\x89PNG")


def test_a_get_on_a_form_target_is_405(client: FlaskClient) -> None:
    assert client.get("/photo/correct").status_code == 405


def test_the_type_in_form_names_every_game_with_a_referee(client: FlaskClient) -> None:
    from printgen.games import all_games

    html_text = client.get("/type").text
    for game in all_games():
        assert (f"<code>{game.name}</code>" in html_text) == (game.score is not None)


def test_a_refused_photo_is_not_kept_even_when_asked(client: FlaskClient, uploads: Path) -> None:
    response = post_photo(client, jpeg(), "blank.jpg", keep="on")
    assert response.status_code == 422
    assert list(uploads.iterdir()) == []


def test_a_reader_that_fails_unexpectedly_gives_500_and_leaves_nothing(uploads: Path) -> None:
    def broken_reader(path: Path, options: PhotoOptions) -> ScoreReport:
        raise RuntimeError("a bug in the reader")

    client = create_app(upload_root=uploads, photo_reader=broken_reader).test_client()
    response = post_photo(client, jpeg(), keep="on")
    assert response.status_code == 500
    assert "Sorry (500)" in response.text
    assert "a bug in the reader" not in response.text  # no internals shown to the table
    assert list(uploads.iterdir()) == []
