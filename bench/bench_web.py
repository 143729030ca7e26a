"""`printgen serve` benchmarks.

Default (`--link`): a phone's photo from upload to result over an emulated 8/3 Mbit/s Wi-Fi link
(Chromium's network emulation, at a 390 x 844 viewport), with the in-browser shrink (JavaScript
on) and without it (JavaScript off: the original photo is sent). Prints the median and spread of
several runs of each, and the bytes sent.

`--load`: 20 phones upload a 12 MP photo at the same moment. Starts `printgen serve` on
127.0.0.1 in its own process (as a player would), sends the uploads at once from 20 threads, and
while they are read asks for the start page now and then, to show that a queue of photos does
not hold up the other pages. Prints how many uploads were answered and how (none may be lost),
and the median and worst latency of each.

    python bench/bench_web.py [--runs 5]
    python bench/bench_web.py --load [--uploads 20] [--photos 4]
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

HOST = "127.0.0.1"
SIZE = (4032, 3024)  # 12 MP
TIMEOUT = 600.0  # seconds; a request slower than this counts as lost


def make_photos(folder: Path, count: int) -> list[bytes]:
    """Synthetic photos of filled sheets, saved at a phone camera's JPEG quality (about 95),
    so each upload weighs what a phone sends."""
    import numpy as np
    import photo_corpus as corpus

    photos = []
    for seed in range(count):
        path = folder / f"sheet-{seed}.jpg"
        shot = corpus.random_shot(np.random.default_rng(seed), SIZE)
        corpus.make_photo(path, seed=2000 + seed, shot=replace(shot, jpeg_quality=95))
        photos.append(path.read_bytes())
    return photos


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def start_server(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "printgen", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("printgen serve did not start within 60 s")


def upload(port: int, photo: bytes, name: str) -> tuple[int, float]:
    boundary = "printgen-bench-boundary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="{name}"\r\n'
        "Content-Type: image/jpeg\r\n\r\n"
    ).encode()
    body = head + photo + f"\r\n--{boundary}--\r\n".encode()
    start = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
    try:
        connection.request(
            "POST", "/photo", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        )
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    except OSError:
        return 0, time.perf_counter() - start
    finally:
        connection.close()


def get(port: int, path: str) -> tuple[int, float]:
    start = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - start
    finally:
        connection.close()


# The link: 8 Mbit/s down, 3 Mbit/s up, 20 ms each way (a busy home Wi-Fi and its uplink).
DOWN_BPS = 8_000_000
UP_BPS = 3_000_000
LATENCY_MS = 40
CHROMIUM = "/usr/bin/chromium"


def link_bench(runs: int) -> None:
    """Upload to result in Chromium over the emulated link, shrunk in the browser or not."""
    import photo_corpus as corpus
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from printgen.web import create_app

    with tempfile.TemporaryDirectory() as folder:
        photo = Path(folder) / "PXL_20261201.jpg"
        # A phone's photo: 12 MP, sensor noise and JPEG quality 95 give a phone's 4-5 MB.
        shot = corpus.Shot(size=SIZE, tilt_deg=8, blur=0.5, noise=6, jpeg_quality=95, seed=7)
        corpus.make_photo(photo, seed=2007, mode="duel", shot=shot)
        size = photo.stat().st_size
        print(f"photo: {SIZE[0]} x {SIZE[1]}, {size / 1e6:.1f} MB; link {DOWN_BPS / 1e6:g}/"
              f"{UP_BPS / 1e6:g} Mbit/s, {LATENCY_MS} ms round trip")  # fmt: skip
        import logging

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
        bodies: list[int] = []
        app = create_app(upload_root=Path(folder))

        def counting(environ: dict, start_response: object) -> object:
            if environ.get("REQUEST_METHOD") == "POST":
                bodies.append(int(environ.get("CONTENT_LENGTH") or 0))
            return app(environ, start_response)  # type: ignore[arg-type]

        server = make_server(HOST, 0, counting, threaded=True)  # type: ignore[arg-type]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
                )
                for shrink in (False, True):
                    times = []
                    bodies.clear()
                    for _ in range(runs):
                        times.append(_one_upload(browser, server.server_port, photo, shrink))
                    label = "shrunk in the browser" if shrink else "original (no JavaScript)"
                    print(f"  {label:<26} median {statistics.median(times):5.1f} s "
                          f"(min {min(times):.1f}, max {max(times):.1f}; {runs} runs), "
                          f"sent {statistics.median(bodies) / 1e6:.2f} MB")  # fmt: skip
                browser.close()
        finally:
            server.shutdown()


def _one_upload(browser: object, port: int, photo: Path, shrink: bool) -> float:
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 390, "height": 844}, java_script_enabled=shrink
    )
    page = context.new_page()
    page.goto(f"http://{HOST}:{port}/photo")
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": LATENCY_MS,
            "downloadThroughput": DOWN_BPS / 8,
            "uploadThroughput": UP_BPS / 8,
        },
    )
    page.set_input_files("#photo", str(photo))
    start = time.perf_counter()
    page.click("#send")
    page.wait_for_selector("#result, #problem, .error", timeout=TIMEOUT * 1000)
    seconds = time.perf_counter() - start
    context.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", action="store_true", help="20 concurrent uploads instead")
    parser.add_argument("--runs", type=int, default=5, help="(link) runs of each")
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--photos", type=int, default=4, help="distinct photos, sent in turn")
    args = parser.parse_args()
    if not args.load:
        link_bench(args.runs)
        return

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        photos = make_photos(Path(folder), args.photos)
        sizes = ", ".join(f"{len(p) / 1e6:.1f}" for p in photos)
        print(f"made {len(photos)} photos of {SIZE[0]} x {SIZE[1]} ({sizes} MB) in "
              f"{time.perf_counter() - start:.0f} s")  # fmt: skip

    port = free_port()
    server = start_server(port)
    try:
        results: list[tuple[int, float]] = [(0, 0.0)] * args.uploads
        gets: list[tuple[int, float]] = []

        def send(i: int) -> None:
            results[i] = upload(port, photos[i % len(photos)], f"phone-{i}.jpg")

        threads = [threading.Thread(target=send, args=(i,)) for i in range(args.uploads)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        while any(t.is_alive() for t in threads):
            gets.append(get(port, "/"))
            time.sleep(0.5)
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(timeout=30)

    statuses = Counter(status for status, _ in results)
    latencies = [seconds for _, seconds in results]
    page_latencies = [seconds for _, seconds in gets]
    print(f"{args.uploads} concurrent uploads of 12 MP photos, all done in {wall:.1f} s")
    print(f"  answers: {dict(sorted(statuses.items()))} (0 = lost: no answer)")
    print(f"  upload latency: median {statistics.median(latencies):.2f} s, "
          f"worst {max(latencies):.2f} s")  # fmt: skip
    print(f"  start page during the load ({len(gets)} requests): median "
          f"{statistics.median(page_latencies) * 1000:.0f} ms, worst "
          f"{max(page_latencies) * 1000:.0f} ms")  # fmt: skip
    if statuses.get(0):
        raise SystemExit(f"{statuses[0]} uploads were lost")


if __name__ == "__main__":
    main()
