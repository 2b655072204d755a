"""A dashboard node behind a load balancer refuses work until it has caught up with the log.

A node restarted by its service manager replays the whole log before it can serve the round as it
stands (10-20 s for a big round). Without this gate the load balancer sends it spectators and page
loads at once: they wait, or see a partial round. With it (``venue dashboard --refuse-until-caught-up``,
set by deploy/'s nginx deployment) every request but ``/api/health`` gets ``503 Service
Unavailable`` with ``Retry-After`` until the start-up replay is folded (``Feed.caught_up``), and
nginx's ``proxy_next_upstream ... http_503`` passes it on to another node. A websocket handshake is
refused with the same 503 (ASGI's ``websocket.http.response`` extension, which uvicorn offers) before
it is accepted, so nginx can still try the next node. A lone dashboard (the demo, ``venue serve``)
keeps the default: spectators wait for it (dashboard.live)."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]

RETRY_AFTER_S = 2
OPEN_PATHS = ("/api/health",)  # the balancer's and the operators' view of the node stays open
BODY = b"this dashboard node is catching up with the event log: try again in a moment\n"


class RefuseUntilCaughtUp:
    """ASGI middleware: ``503`` (HTTP) or a refused handshake with status 503 (websocket) while
    ``ready()`` is False, for every path but ``OPEN_PATHS``; lifespan and everything after the
    catch-up pass through unchanged. ``ready``: e.g. ``feed.caught_up.is_set``."""

    def __init__(self, app, ready: Callable[[], bool]):
        self.app = app
        self.ready = ready

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or self.ready() or scope.get("path") in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        headers = [(b"content-type", b"text/plain; charset=utf-8"),
                   (b"retry-after", str(RETRY_AFTER_S).encode()),
                   (b"content-length", str(len(BODY)).encode())]
        if kind == "http":
            await send({"type": "http.response.start", "status": 503, "headers": headers})
            await send({"type": "http.response.body", "body": BODY})
            return
        await receive()  # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", "status": 503, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": BODY})
        else:  # a server without the extension answers a refused handshake with 403
            await send({"type": "websocket.close", "code": 1013})
