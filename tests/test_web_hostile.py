"""Hostile input through the web app's test client (hypothesis): whatever a phone sends, the
answer is a page with a status the app means, and never a path of the server or a traceback."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_helpers import FakeReader, jpeg, unsure

from printgen.paths import ROOT
from printgen.web import create_app

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
EXPECTED = {303, 400, 413, 422}


def clean(page: str) -> bool:
    return str(ROOT) not in page and "Traceback" not in page and "/tmp/" not in page


CLIENT = create_app().test_client()


@SETTINGS
@given(st.text(max_size=400))
def test_any_pasted_text_is_a_result_or_a_message(text: str) -> None:
    response = CLIENT.post("/type", data={"text": text})
    assert response.status_code in EXPECTED, response.text
    assert clean(response.text)


@SETTINGS
@given(
    layout=st.one_of(
        st.text(max_size=60),
        st.sampled_from(["../package-war/pad", "/etc/passwd", "standard/../../x", "STANDARD"]),
    ),
    name=st.text(max_size=80),
)
def test_any_layout_or_name_in_a_sheet_is_refused_cleanly(layout: str, name: str) -> None:
    document = {"game": "one-page-war", "layout": layout, "mode": "duel", "players": [name, "B"]}
    response = CLIENT.post("/type", data={"text": json.dumps(document)})
    assert response.status_code in EXPECTED
    assert clean(response.text)


@SETTINGS
@given(
    values=st.lists(st.text(max_size=12), min_size=3, max_size=3),
    names=st.tuples(st.text(max_size=60), st.text(max_size=60)),
    pick=st.text(max_size=30),
)
def test_any_correction_is_scored_or_shown_again_with_its_message(
    values: list[str], names: tuple[str, str], pick: str
) -> None:
    reader = FakeReader(
        unsure=[
            unsure("Air", "Second", 3, "6", "4"),
            unsure("Land", "First", 4, "4", "9"),
            unsure("Politics", None, 1, "S", "empty", kind="allies"),  # type: ignore[arg-type]
        ]
    )
    client: FlaskClient = create_app(photo_reader=reader).test_client()
    posted = client.post(
        "/photo", data={"photo": (io.BytesIO(jpeg()), "a.jpg")}, content_type="multipart/form-data"
    )
    url = posted.headers["Location"]
    form: dict[str, Any] = {
        "square|Air|1|3": values[0],
        "square|Land|0|4": values[1],
        "allies|Politics": values[2],
        "first": names[0],
        "second": names[1],
        "pick": pick,
    }
    response = client.post(url, data=form)
    assert response.status_code in {303, 422}
    assert clean(response.text)
    page = client.get(url)
    assert page.status_code == 200 and clean(page.text)


@SETTINGS
@given(st.binary(max_size=2000), st.text(max_size=40))
def test_any_upload_is_read_or_refused_with_a_message(data: bytes, name: str) -> None:
    response = CLIENT.post(
        "/photo",
        data={"photo": (io.BytesIO(data), name or "x")},
        content_type="multipart/form-data",
    )
    assert response.status_code in EXPECTED | {415}
    assert clean(response.text)


@SETTINGS
@given(st.dictionaries(st.sampled_from(["paper", "pairs", "batch", "layout"]),
                       st.text(max_size=12), max_size=4))  # fmt: skip
def test_any_bad_material_option_is_a_400_naming_it(query: dict[str, str]) -> None:
    query["copies"] = "0"  # out of range: refused before any PDF is built
    response = CLIENT.get("/materials/one-page-war-team.pdf", query_string=query)
    assert response.status_code == 400
    assert clean(response.text)
    assert re.search(r"(paper|copies|pairs|print run name|layout):", response.text)
