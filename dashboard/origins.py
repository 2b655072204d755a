"""Which web pages may act on the dashboard: its own origin, plus ``VENUE_ALLOWED_ORIGINS``.

A browser names the page that makes a request in ``Origin``: on every POST and on every websocket
handshake. Cookies do not tell ports apart, so a page served from another port of the same host
gets the arbiter's cookie sent along (issue 11: such a page recorded a result as ``chief``).
``OriginGuard`` refuses, with 403 and before any route runs:

- a POST, PUT, PATCH or DELETE whose ``Origin`` is neither the dashboard's own nor allowed;
- a websocket handshake to ``/ws/arbiter`` likewise (closed with 1008, which the server answers
  with HTTP 403). The spectators' ``/ws/live`` is public and stays open to any page.

The dashboard's own origin is the request's scheme (``https`` behind TLS: uvicorn's proxy headers
take it from ``X-Forwarded-Proto``) and its ``Host``. Behind a proxy that rewrites ``Host``, or
serving the console under another name, list the public origins in ``VENUE_ALLOWED_ORIGINS``
(comma-separated, e.g. ``https://hall.example.org``). A request without ``Origin`` does not come
from a web page (a script, curl) and is let through: it still needs a session, and a cookie session
still needs the CSRF token (dashboard.security).

No maintained package does this for both HTTP and websockets (Starlette's CORSMiddleware only
adds CORS headers and never refuses a simple POST), hence this small piece.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
GUARDED_WEBSOCKETS = ("/ws/arbiter",)
_DEFAULT_PORTS = {"http": 80, "https": 443}
_HTTP_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def normalize(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case with the scheme's default port left out, or None for
    anything that is no http(s) origin (``null``, a path, garbage)."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username or parts.password:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    shown = "" if port in (None, _DEFAULT_PORTS[parts.scheme]) else f":{port}"
    return f"{parts.scheme}://{host}{shown}"


def allowed_origins(environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """The origins of ``VENUE_ALLOWED_ORIGINS`` (comma-separated). Raises ValueError for an entry
    that is no ``http(s)://host[:port]``."""
    env = os.environ if environ is None else environ
    out = set()
    for item in filter(None, (s.strip() for s in (env.get("VENUE_ALLOWED_ORIGINS") or "").split(","))):
        origin = normalize(item)
        if origin is None:
            raise ValueError(f"VENUE_ALLOWED_ORIGINS: {item!r} is no origin (scheme://host[:port])")
        out.add(origin)
    return frozenset(out)


def own_origin(scope: Scope, headers: Headers) -> str | None:
    """The origin the request was sent to: its scheme and its ``Host`` header."""
    scheme = _HTTP_SCHEME.get(scope.get("scheme", "http"), "http")
    host = headers.get("host")
    return normalize(f"{scheme}://{host}") if host else None


class OriginGuard:
    """ASGI middleware refusing unsafe requests and arbiter websockets from other pages (module
    docstring). ``allowed``: origins besides the dashboard's own (``allowed_origins()``)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str] = frozenset()):
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        guarded = (scope["type"] == "http" and scope["method"] in UNSAFE_METHODS) or (
            scope["type"] == "websocket" and scope["path"].startswith(GUARDED_WEBSOCKETS))
        if guarded:
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            if origin is not None and not self.permits(origin, own_origin(scope, headers)):
                await self._refuse(scope, receive, send, origin)
                return
        await self.app(scope, receive, send)

    def permits(self, origin: str, own: str | None) -> bool:
        """Is a request from page ``origin`` to this dashboard (``own``) allowed."""
        found = normalize(origin)
        return found is not None and (found == own or found in self.allowed)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, origin: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "origin not allowed"})
            return
        error = (f"origin {origin[:100]!r} may not act here: only the dashboard's own pages "
                 "(and VENUE_ALLOWED_ORIGINS) may")
        await JSONResponse({"error": error}, status_code=403)(scope, receive, send)
