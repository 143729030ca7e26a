"""Who may use the app, and the headers every answer carries.

- With `--lan`, every request must carry the token from the QR code (`?t=TOKEN`), but for the
  stylesheet and script. Links the app makes carry it only on pages answered to a request that
  had it: a refusal never hands it out.
- `Host` must name the address served, so a web page whose name an attacker points at this
  machine (DNS rebinding) cannot read it.
- A form post must come from the app's own pages (`Sec-Fetch-Site`, or `Origin` from a browser
  too old to send it), so another site open on the phone cannot post sheets or photos to it.
- Every answer forbids inline script and style, framing, sniffing and the Referer; pages and
  results are never cached (they carry the token, and a result is the table's business)."""

from __future__ import annotations

import hmac
from collections.abc import Collection
from typing import Any

from flask import Flask, abort, g, request
from werkzeug.wrappers import Response

TOKEN_ARG = "t"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
# A browser's own form post (or a typed URL): anything else is another site's.
SAME_SITE = {"same-origin", "none"}
POSTS = {"POST", "PUT", "PATCH", "DELETE"}

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
        "form-action 'self'; base-uri 'none'; object-src 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


class Refusal(Exception):
    """A request refused before it reached a page: the status and what to tell the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def install(app: Flask, token: str | None, hosts: Collection[str]) -> None:
    """Check every request (token, Host, Origin) and add the headers to every answer."""
    allowed = {h.lower() for h in hosts}

    @app.before_request
    def check() -> None:
        g.token = None
        name = _host_name(request.host)
        if allowed and name not in allowed:
            raise Refusal(421, "This server answers only at the address it printed.")
        # The stylesheet and script are the same for everyone and hold nothing private: served
        # without the token, so that a refusal page is styled too.
        if request.method in POSTS and not _same_site():
            raise Refusal(403, "This form was sent from another site; open the page again here.")
        if token is not None and request.endpoint != "static":
            given = request.args.get(TOKEN_ARG, "")
            if not hmac.compare_digest(given.encode(), token.encode()):
                abort(403)
            g.token = token

    @app.url_defaults
    def carry_token(endpoint: str, values: dict[str, Any]) -> None:
        # Only a request that showed the token gets links carrying it.
        if g.get("token") is not None and endpoint != "static":
            values.setdefault(TOKEN_ARG, g.token)

    @app.context_processor
    def token_field() -> dict[str, Any]:
        # GET forms drop the query of their action, so they carry the token as a field.
        return {"token": g.get("token")}

    @app.after_request
    def headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.endpoint != "static":
            response.headers["Cache-Control"] = "no-store"
        return response


def _host_name(host: str) -> str:
    """The name in a Host header, without its port: `[::1]:8000` -> `::1`."""
    host = host.lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _same_site() -> bool:
    """Whether a post comes from the app's own page. Browsers say so in Sec-Fetch-Site (all
    current ones); an older browser is judged by Origin, which the no-referrer policy turns
    into "null" for the app's own forms, so only a foreign origin is refused there."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site in SAME_SITE
    origin = request.headers.get("Origin", "null")
    if origin == "null":
        return True
    return hmac.compare_digest(origin.lower(), f"{request.scheme}://{request.host}".lower())
