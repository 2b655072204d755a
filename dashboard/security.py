"""The dashboard's request-level protections, as Starlette middleware (docs/arbiter.md "Security").

``middleware(secret)`` is the stack ``create_app`` runs every request through, outermost first:

- ``SecurityHeaders``: on every HTTP response a Content-Security-Policy (scripts, styles, images
  and connections from the dashboard itself only, no inline script or style, no framing),
  ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy:
  same-origin``. The board pictures (``image/svg+xml``) get a policy of their own that lets their
  ``style`` attributes colour the pieces when one is opened by itself, and loads nothing;
- ``OriginGuard`` (dashboard.origins): POSTs and ``/ws/arbiter`` handshakes from other pages, 403;
- ``CSRF``: asgi-csrf's double-submit cookie. A POST that carries the session cookie must also
  carry the ``csrftoken`` cookie's signed value in ``X-CSRFToken`` (the console page holds it in
  ``<meta name="csrf-token">``). A request without the session cookie can forge nothing (it gets
  the route's 401; a login is JSON-only, which no other page can send unasked) and one with
  ``Authorization: Bearer`` was not sent by a browser unasked: neither needs the token. Failures:
  403 ``{"error"}``.

asgi-csrf (Simon Willison's, Datasette's CSRF layer) over starlette-csrf: the latter crashes on
websocket scopes (its issue #14, open since 2023) and has had no release since June 2023.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os

from asgi_csrf import asgi_csrf
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dashboard.origins import OriginGuard, allowed_origins

CSRF_COOKIE = "csrftoken"
CSRF_HEADER = "x-csrftoken"

PAGE_CSP = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
    "connect-src 'self'",  # fetch and the websockets (CSP 3: 'self' covers ws/wss to this host)
    "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
    "frame-ancestors 'none'",
])
# A board picture opened by itself is an SVG document: python-chess colours the pieces with style
# attributes. It loads nothing and runs no script.
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
COMMON_HEADERS = (
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
)


class SecurityHeaders:
    """ASGI middleware adding the headers of the module docstring to every HTTP response (a
    route's own value of one of them is replaced)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                svg = headers.get("content-type", "").startswith("image/svg+xml")
                headers["content-security-policy"] = SVG_CSP if svg else PAGE_CSP
                for name, value in COMMON_HEADERS:
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _csrf_failed(scope: Scope, send: Send, message_id) -> None:
    body = json.dumps({"error": "CSRF check failed: a request with cookies must send the console "
                                "page's token in X-CSRFToken (reload the page)"}).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class CSRF:
    """asgi-csrf with its cookie marked ``Secure`` when the request came over TLS (the scope's
    scheme; uvicorn's proxy headers set it behind a TLS proxy), checking only requests that carry
    the ``session_cookie``. ``secret``: signs the tokens (one value for every dashboard process,
    derived from ``VENUE_SECRET``)."""

    def __init__(self, app: ASGIApp, secret: str, session_cookie: str):
        def without_session(scope: Scope) -> bool:
            return session_cookie not in HTTPConnection(scope).cookies

        options = dict(cookie_name=CSRF_COOKIE, http_header=CSRF_HEADER, signing_secret=secret,
                       cookie_samesite="Strict", send_csrf_failed=_csrf_failed,
                       skip_if_scope=without_session)
        self._plain = asgi_csrf(app, cookie_secure=False, **options)
        self._tls = asgi_csrf(app, cookie_secure=True, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = self._tls if scope.get("scheme") in ("https", "wss") else self._plain
        await app(scope, receive, send)


def csrf_token(request) -> str:
    """The CSRF token for a page to send back in ``X-CSRFToken`` (sets the cookie when missing)."""
    return request.scope["csrftoken"]()


def middleware(secret: bytes, session_cookie: str, environ: dict | None = None) -> list[Middleware]:
    """The stack of the module docstring. ``secret``: the arbiters' session secret (the CSRF key is
    derived from it); ``session_cookie``: the name of the cookie holding a session; ``environ``:
    where ``VENUE_ALLOWED_ORIGINS`` is read (default os.environ). Raises ValueError for a malformed
    ``VENUE_ALLOWED_ORIGINS``."""
    env = os.environ if environ is None else environ
    csrf_key = hmac.new(secret, b"venue csrf token", hashlib.sha256).hexdigest()
    return [
        Middleware(SecurityHeaders),
        Middleware(OriginGuard, allowed=allowed_origins(env)),
        Middleware(CSRF, secret=csrf_key, session_cookie=session_cookie),
    ]
