"""``/ws/live``: the spectators' feed (DESIGN.md "Dashboard"; field case F12).

Protocol (server to client, JSON text frames; the client never needs to send anything):

1. ``{"type": "snapshot", "seq": N, "round": ROUND|None, "games": [GAME, ...]}`` (services.views.spectator),
   or, when the client connected with ``?after=SEQ`` and the server still holds every delta after
   SEQ, just those deltas;
2. then every delta as it happens (``"round"`` or ``"game"`` messages, each with the log ``seq``);
3. a client that fell too far behind (its queue filled up) gets a fresh snapshot, then deltas.

A frame holds one message, or, when several were waiting for the same client or a page had several
deltas in one tick of the hub (``dashboard.hub`` grouped mode), a JSON array of them in order (fewer
sends when a client or the hall is busy); clients handle both.

A client keeps the highest ``seq`` it saw and reconnects with ``?after=SEQ``. Messages with a seq at
or below one already sent are never sent again on the same connection.

A dashboard serves nobody before it has caught up with the log (``Feed.caught_up``), nor a client
that has seen more of the log (``after``) than it has folded (a node behind a load balancer that
lags its peers): the first message waits until it can be as new as what the client had, for up to
``CATCH_UP_WAIT_S``; then the server closes with 1013 (try again later), and the client reconnects.

``?boards=SPEC`` (``dashboard.boardspec``: ``1-20,25,31-40``; labels are GAME ``board`` strings)
follows those boards only: the snapshot's ``games`` and a new round's ``games`` are cut to them, and
only their games' deltas are sent (a resume sends only theirs; the seqs are still the log's, so they
have gaps). A SPEC that cannot be used is refused after the handshake: the server closes with code
1008 (policy violation) and a reason such as ``boards: range 5-2 is backwards``, so a browser can
read it (``CloseEvent.reason``) and should not retry.

The feed is the public channel (the hall as it was ``[broadcast] delay`` ago: snapshots and deltas
alike), or the live one for a socket with an arbiter's session from the dashboard's own pages
(``dashboard.audience``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools

from starlette.websockets import WebSocket, WebSocketDisconnect

from dashboard.boardspec import BoardSet, BoardSpecError, parse
from dashboard.direct_ws import direct_writer, parker
from dashboard.audience import channel
from dashboard.feed import Channel, Feed
from dashboard.parked import Parked
from dashboard.ws_feed import drain_incoming, send_first, write_feed

CATCH_UP_WAIT_S = 30.0


async def caught_up_to(feed: Feed, source, after: int | None, timeout_s: float | None = None) -> bool:
    """Wait until ``feed`` has folded the log as it stood at start-up and ``source`` (the channel the
    client reads) is at least at ``after`` (the client's last seq); False when that did not happen
    within ``timeout_s`` (default ``CATCH_UP_WAIT_S``)."""
    timeout_s = CATCH_UP_WAIT_S if timeout_s is None else timeout_s
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    try:
        await asyncio.wait_for(feed.caught_up.wait(), timeout_s)
    except asyncio.TimeoutError:
        return False
    while after is not None and source.view.seq < after:
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def beyond_the_log(feed: Feed, after: int | None) -> bool:
    """True when ``after`` (a resuming client's last seq) lies beyond the end of ``feed``'s event
    log: the seq came from another log (the demo started afresh on a new log, or a log replaced),
    so no node will ever fold that far and the client needs a snapshot, not a wait ending in 1013.
    A node merely behind the log (the client saw the seq on another node) reads a log end at or past
    ``after`` and waits as before. False when the log's end cannot be read (the store is down)."""
    if after is None or feed.log is None:
        return False
    try:
        return await feed.log.last_seq() < after
    except Exception:  # noqa: BLE001 - unreadable store: the caught-up wait decides as before
        return False


def _after(ws: WebSocket) -> int | None:
    raw = ws.query_params.get("after")
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if value > 0 else None


# Spectators of one hall page send the same SPEC: one BoardSet shared by all of them (a parsed page
# of 50 boards is ~5 KB, an eighth of what a spectator costs the dashboard; bench_latency).
_parse_shared = functools.lru_cache(maxsize=4096)(parse)


def boards_param(ws: WebSocket) -> BoardSet | None:
    """The ``boards`` query parameter as a ``BoardSet`` (None when absent: every board), the same
    object for the same text. Raises ``BoardSpecError`` when it is malformed or given more than
    once."""
    values = ws.query_params.getlist("boards")
    if not values:
        return None
    if len(values) > 1:
        raise BoardSpecError("boards: given more than once")
    return _parse_shared(values[0])


class _Cut:
    """``snapshot()`` of the feed cut to ``boards`` (what a stale filtered client is sent)."""

    __slots__ = ("feed", "boards")

    def __init__(self, feed: Channel, boards: BoardSet):
        self.feed = feed
        self.boards = boards

    def snapshot(self) -> tuple[int, str]:
        return self.feed.snapshot(self.boards)


async def live(ws: WebSocket) -> None:
    """Serve one spectator until it disconnects; close with 1008 and the reason when its
    ``boards`` SPEC is refused."""
    await ws.accept()
    try:
        boards = boards_param(ws)
    except BoardSpecError as exc:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await ws.close(code=1008, reason=str(exc)[:120])
        return
    feed: Channel = channel(ws)  # the delayed broadcast, or the hall live for an arbiter
    after = _after(ws)
    if after is not None and feed.view.seq < after and await beyond_the_log(ws.app.state.feed, after):
        after = None  # a seq of another log: a snapshot of this one
    if not await caught_up_to(ws.app.state.feed, feed, after):
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await ws.close(code=1013, reason="catching up with the event log: try again")
        return
    client = feed.hub.add(boards)  # before the first message, so nothing published from now is missed
    client.direct = direct_writer(ws.scope)
    park = parker(ws.scope)
    parked = False
    try:
        missed = feed.since(after, boards) if after is not None else None
        if missed is None:
            seq, text = feed.snapshot(boards)
            first = [(seq, text)]
        else:
            assert after is not None  # missed is only read from a seq
            first = missed
            seq = after
        source = feed if boards is None else _Cut(feed, boards)
        if park is not None:  # under venue.serve: the connection is handed to the server (dashboard.parked)
            try:
                seq = await send_first(ws, first, seq, batch=True)
            except (WebSocketDisconnect, RuntimeError, OSError):
                return
            first = []
            parked = Parked(feed.hub, client, source, seq).attach(park)
            if parked:
                return
            # not parked (permessage-deflate negotiated under another configuration): tasks, as elsewhere
        reader = asyncio.create_task(drain_incoming(ws))
        writer = asyncio.create_task(write_feed(ws, source, client, first, seq, batch=True))
        done, pending = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    finally:
        if not parked:
            feed.hub.remove(client)
