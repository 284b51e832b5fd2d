"""The secret token every request to ``armybuilder serve`` must carry.

The token is made with :mod:`secrets` when the server starts (or given with ``--token``) and
printed once, in the address to open. That first request (``/?token=…``) leaves it in a
cookie of this server's port and the browser is sent on to the bare address, so the token
does not stay in the address bar, the history or a screenshot; the page's static files, its
websocket, downloads and uploads then carry the cookie. A script may give the token as
``?token=`` or ``Authorization: Bearer`` instead. Tokens are compared in constant time
(:func:`hmac.compare_digest`). No token: 401; a wrong one: 403.

The cookie is ``HttpOnly`` and ``SameSite=Strict``: another site's page can neither read it
nor make the browser send it.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Awaitable, Callable

from aiohttp import web

TOKEN_BYTES = 24  # 192 bits, 32 characters in the address
GIVEN_TOKEN = re.compile(r"[A-Za-z0-9._~-]{16,128}")
"""What ``--token`` accepts: long enough to resist guessing, and safe in an address as it is."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def check_given_token(token: str) -> str | None:
    """Why a ``--token`` cannot be used, or None."""
    if GIVEN_TOKEN.fullmatch(token):
        return None
    return "--token needs 16 to 128 characters among letters, digits and . _ ~ -"


def same_token(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode("utf-8"))


def refusal(status: int, title: str, body: str) -> web.Response:
    """A short page that says why (the player may be looking at it)."""
    from html import escape

    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>armybuilder</title>"
        "<style>body{font-family:sans-serif;background:#0c181f;color:#eee;margin:3em}</style></head>"
        f"<body><h1>{escape(title)}</h1><p>{escape(body)}</p></body></html>"
    )
    headers = {"Cache-Control": "no-store", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="armybuilder serve"'
    return web.Response(status=status, text=page, content_type="text/html", headers=headers)


class Gate:
    """The aiohttp middleware that admits only requests carrying the token."""

    def __init__(self, token: str, port: int) -> None:
        self._token = token
        self.use_port(port)

    def use_port(self, port: int) -> None:
        """Name the cookie after the port listened on (a host's cookies are shared by its ports)."""
        self.cookie = f"armybuilder-token-{port}"

    def _given(self, request: web.Request) -> tuple[str | None, bool]:
        """The token the request carries, and whether it came in the address."""
        if "token" in request.query:
            return request.query["token"], True
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            return header[len("Bearer "):].strip(), False
        return request.cookies.get(self.cookie), False

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        given, in_address = self._given(request)
        if given is None:
            return refusal(
                401,
                "A token is needed",
                "Open the address that 'armybuilder serve' printed when it started: it carries the token.",
            )
        if not same_token(given, self._token):
            return refusal(403, "Wrong token", "This token does not open this server. Use the address it printed.")
        if in_address and request.method == "GET" and request.path == "/":
            response = web.Response(status=303, headers={"Location": "/"})
            response.set_cookie(
                self.cookie, given, httponly=True, samesite="Strict", path="/", secure=request.secure
            )
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["Cache-Control"] = "no-store"
            return response
        return await handler(request)
