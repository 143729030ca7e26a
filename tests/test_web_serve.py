"""`printgen serve` itself: the address plan, the terminal QR code, and the command's errors."""

from __future__ import annotations

import socket

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from printgen.cli import cli
from printgen.web.serve import (
    LOCAL_HOST,
    PLAIN,
    WHITE_ON_BLACK,
    Plan,
    announce,
    half_blocks,
    listen,
    plan,
    qr_text,
)

# Each character is two modules stacked: light modules are drawn, dark ones left blank.
GLYPH_MODULES = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}


def modules_of(text: str) -> np.ndarray:
    """The terminal drawing back as a light (1) / dark (0) module grid."""
    rows: list[list[int]] = []
    for line in text.splitlines():
        pairs = [GLYPH_MODULES[c] for c in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    return np.array(rows, np.uint8)


def decode(text: str) -> str:
    """What a QR reader finds in the terminal drawing ("" for nothing). OpenCV's classic
    detector misses about 1 in 140 valid codes at any one module size (the URL's port decides
    which: port 46841 failed in CI), so the drawing is tried at three sizes, and with OpenCV's
    ArUco-based detector, as a phone's reader tries again; a wrong code decodes to no URL."""
    light = modules_of(text)
    detectors = [cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()]
    for size in (8, 6, 10):
        image = np.kron(light * 255, np.ones((size, size), np.uint8)).astype(np.uint8)
        image = cv2.copyMakeBorder(image, 32, 32, 32, 32, cv2.BORDER_CONSTANT, value=255)
        for detector in detectors:
            found, _, _ = detector.detectAndDecode(image)
            if found:
                return str(found)
    return ""


def test_the_terminal_qr_code_reads_back_as_the_url_with_its_token() -> None:
    url = Plan("192.168.1.20", 8000, "Xk3_q-9ZtLmN0pQr").url
    assert url == "http://192.168.1.20:8000/?t=Xk3_q-9ZtLmN0pQr"
    assert decode(qr_text(url)) == url


def test_half_blocks_put_two_module_rows_in_each_line_with_a_light_quiet_zone() -> None:
    # A 3 x 3 grid: dark corners, light elsewhere.
    grid = [[True, False, True], [False, False, False], [True, False, True]]
    text = half_blocks(grid)
    lines = text.splitlines()
    assert len(lines) == 4  # 3 rows + 2 quiet rows on each side = 7 rows, two per line
    assert all(len(line) == 7 for line in lines)
    assert lines[0] == "█" * 7  # quiet zone: light
    decoded = modules_of(text)[2:5, 2:5]
    assert decoded.tolist() == [[0, 1, 0], [1, 1, 1], [0, 1, 0]]


def test_by_default_it_listens_on_loopback_without_a_token() -> None:
    where = plan(lan=False, port=8123)
    assert (where.host, where.port, where.token) == (LOCAL_HOST, 8123, None)
    assert where.url == "http://127.0.0.1:8123/"


def test_serve_explains_a_busy_port_and_exits_1() -> None:
    with socket.socket() as taken:
        taken.bind((LOCAL_HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "try --port" in result.output


def test_serve_is_listed_with_its_options() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--lan" in result.output and "--port" in result.output
    assert "serve" in CliRunner().invoke(cli, ["--help"]).output


@pytest.mark.parametrize("port", ["0", "70000", "http"])
def test_serve_refuses_a_port_out_of_range(port: str) -> None:
    assert CliRunner().invoke(cli, ["serve", "--port", port]).exit_code == 2


def test_a_token_server_answers_403_without_it_and_its_qr_carries_it() -> None:
    """What --lan sets up, on loopback: the QR code's URL is the only way in."""
    import http.client
    import threading

    server = listen(Plan(LOCAL_HOST, 0, "tok-3n9Xq2"))
    where = Plan(LOCAL_HOST, server.port, "tok-3n9Xq2")
    said: list[str] = []
    announce(where, said.append)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def status(path: str) -> int:
        connection = http.client.HTTPConnection(LOCAL_HOST, where.port, timeout=30)
        connection.request("GET", path)
        return connection.getresponse().status

    try:
        assert status("/") == 403
        assert status("/?t=tok-3n9Xq") == 403
        qr_lines = [line.removeprefix(WHITE_ON_BLACK).removesuffix(PLAIN) for line in said]
        url = decode(
            "\n".join(line for line in qr_lines if line and set(line) <= set(GLYPH_MODULES))
        )
        assert url == where.url
        assert status(url.removeprefix(f"http://{LOCAL_HOST}:{where.port}")) == 200
        assert f"  {where.url}" in said
    finally:
        server.shutdown()
        server.server_close()


def test_the_served_app_answers_only_to_its_own_address() -> None:
    """DNS rebinding: a page whose name points at this machine gets no answer but a refusal."""
    import http.client
    import threading

    server = listen(Plan(LOCAL_HOST, 0, None))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def status(host: str) -> int:
        connection = http.client.HTTPConnection(LOCAL_HOST, server.port, timeout=30)
        connection.request("GET", "/", headers={"Host": host})
        return connection.getresponse().status

    try:
        assert status(f"127.0.0.1:{server.port}") == 200
        assert status(f"localhost:{server.port}") == 200
        assert status(f"rebound.example:{server.port}") == 421
    finally:
        server.shutdown()
        server.server_close()
