"""Who is asking: the public (the delayed broadcast) or an arbiter (the hall live).

Issue "Broadcast delay": every public route shows the hall as it was ``[broadcast] delay`` ago;
"Arbiters, the console and an authenticated hall-screen view see it live". A request or websocket
sees the live channel (``dashboard.feed.Feed.live``) when it carries an arbiter's session
(``dashboard.arbiter.backend``: the cookie or ``Authorization: Bearer``) and, when a web page
sent it, that page is the dashboard's own (or ``VENUE_ALLOWED_ORIGINS``): cookies do not tell ports
or sites apart, and a page elsewhere must never read the live hall through an arbiter's browser
(``/ws/live`` is open to any page). Everyone else sees the public channel.
"""

from __future__ import annotations

from starlette.datastructures import Headers

from dashboard.arbiter.backend import arbiter_of
from dashboard.feed import Channel
from dashboard.origins import normalize, own_origin


def sees_live(conn) -> bool:
    """Whether this request or websocket may see the hall live (module docstring)."""
    if arbiter_of(conn) is None:
        return False
    headers = Headers(scope=conn.scope)
    origin = headers.get("origin")
    if origin is None:
        return True  # not sent by a web page: a script with the token
    found = normalize(origin)
    allowed: frozenset[str] = getattr(conn.app.state, "allowed_origins", frozenset())
    return found is not None and (found == own_origin(conn.scope, headers) or found in allowed)


def channel(conn) -> Channel:
    """The channel this request or websocket reads: live for an arbiter, else the public one
    (whose entries due by now are released first, so a request is exact at the delay's edge)."""
    feed = conn.app.state.feed
    if sees_live(conn):
        return feed.live
    feed.release()
    return feed.public
