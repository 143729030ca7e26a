"""Starting the server: the address to bind, the access token, and the QR code in the terminal.

The server is Werkzeug's threaded server (each request in its own thread), so a photo being read
never holds up the other pages. It is the server Flask already brings; a table of phones is a
handful of clients, well within what it handles."""

from __future__ import annotations

import ipaddress
import secrets
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.graphics.barcode import qrencoder
from werkzeug.serving import BaseWSGIServer, make_server

from printgen.errors import InputError
from printgen.web.app import create_app
from printgen.web.guard import LOOPBACK_NAMES

LOCAL_HOST = "127.0.0.1"
# Documentation-only address (RFC 5737): a UDP socket "connected" to it is never sent a packet,
# but tells which local address the system would route from.
_ROUTE_PROBE = ("192.0.2.1", 9)

# A quiet zone of this many modules around the code, as the QR standard asks.
QUIET_ZONE = 2
WHITE_ON_BLACK = "\x1b[97;40m"
PLAIN = "\x1b[0m"


@dataclass(frozen=True)
class Plan:
    host: str
    port: int
    token: str | None

    @property
    def url(self) -> str:
        query = f"/?t={self.token}" if self.token else "/"
        return f"http://{self.host}:{self.port}{query}"


def plan(lan: bool, port: int, token: str | None = None) -> Plan:
    """Where to listen: loopback, or with `lan` this machine's network address and a token."""
    if not lan:
        return Plan(LOCAL_HOST, port, None)
    return Plan(lan_address(), port, token or secrets.token_urlsafe(16))


def lan_address() -> str:
    """This machine's address on the local network (not loopback)."""
    candidates: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            candidates.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        candidates.extend(str(info[4][0]) for info in infos)
    except OSError:
        pass
    for address in candidates:
        if not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
            return address
    raise InputError("no network address found for --lan; is this machine on a network?")


def qr_text(data: str) -> str:
    """`data` as a QR code drawn with Unicode half blocks: two modules per character row, dark
    modules as spaces on a light background so phones read it on dark terminals too."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(data)
    code.make()
    return half_blocks(code.modules)


def half_blocks(modules: Sequence[Sequence[bool | None]]) -> str:
    size = len(modules)
    span = range(-QUIET_ZONE, size + QUIET_ZONE)

    def dark(row: int, col: int) -> bool:
        return 0 <= row < size and 0 <= col < size and bool(modules[row][col])

    # Light is drawn, dark is left blank: upper half block = top light, lower = bottom light.
    glyphs = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    lines = []
    for row in range(-QUIET_ZONE, size + QUIET_ZONE, 2):
        lines.append("".join(glyphs[dark(row, col), dark(row + 1, col)] for col in span))
    return "\n".join(lines)


def serve(port: int, lan: bool, echo: Callable[[str], object] = print) -> None:
    """`printgen serve`: listen, say where, and serve until interrupted."""
    where = plan(lan, port)
    server = listen(where)
    announce(where, echo)
    if threading.current_thread() is threading.main_thread():
        # Stopped by a signal too, the app still removes its upload folder on the way out.
        signal.signal(signal.SIGTERM, _stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def listen(where: Plan) -> BaseWSGIServer:
    """The app's threaded server, bound to `where` (port 0: any free port)."""
    # Bound here rather than by Werkzeug, which answers a busy port by exiting on its own.
    try:
        listening = socket.create_server((where.host, where.port))
    except OSError as error:
        raise InputError(
            f"cannot listen on {where.host}:{where.port}: {error.strerror}; try --port"
        ) from None
    # Only the address served is answered to: a name pointed at this machine by someone else's
    # DNS (rebinding) is refused.
    hosts = LOOPBACK_NAMES if where.host == LOCAL_HOST else (where.host,)
    app = create_app(token=where.token, hosts=hosts)
    with listening:
        return make_server(where.host, where.port, app, threaded=True, fd=listening.fileno())


def announce(where: Plan, echo: Callable[[str], object]) -> None:
    if where.token:
        # Light modules drawn white on black whatever the terminal's colours.
        for line in qr_text(where.url).splitlines():
            echo(f"{WHITE_ON_BLACK}{line}{PLAIN}")
        echo("Scan the code with a phone on the same network, or open:")
    else:
        echo("Open on this machine (add --lan to reach it from a phone):")
    echo(f"  {where.url}")
    echo("Stop with Ctrl+C.")


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(0)
