"""One websocket fed from a ``Hub`` client: the writer that sends its queue in order and the
reader that notices the client leaving. Spectators' ``/ws/live`` (dashboard.live) and arbiters'
``/ws/arbiter`` (dashboard.arbiter.routes) both serve a feed this way.
"""

from __future__ import annotations

import contextlib

from starlette.websockets import WebSocket, WebSocketDisconnect

from dashboard.hub import Client

BATCH_MAX = 500  # messages per frame when a resuming client catches up


async def drain_incoming(ws: WebSocket) -> None:
    """Read (and ignore) what the client sends, to notice when it goes away; returns then."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return


async def send_first(ws: WebSocket, first: list[tuple[int, str]], covered: int, batch: bool = False) -> int:
    """Send ``first`` (``batch``: as JSON array frames of up to ``BATCH_MAX`` messages); returns the
    seq now covered (the highest sent, at least ``covered``). Raises WebSocketDisconnect, RuntimeError
    or OSError when the client is gone."""
    if batch and len(first) > 1:
        for i in range(0, len(first), BATCH_MAX):
            chunk = first[i:i + BATCH_MAX]
            await ws.send_text("[" + ",".join(t for _, t in chunk) + "]")
            covered = max(covered, chunk[-1][0])
    else:
        for s, text in first:
            await ws.send_text(text)
            covered = max(covered, s)
    return covered


async def write_feed(ws: WebSocket, feed, client: Client, first: list[tuple[int, str]],
                     covered: int, batch: bool = False) -> None:
    """Send ``first``, then the client's queue in order; a snapshot instead when it went stale.
    ``covered``: the seq up to which the client already has everything (queued items at or below
    it are skipped, so nothing is sent twice). ``feed``: anything with ``snapshot() -> (seq, text)``.
    ``batch``: send what is waiting as one JSON array frame (each message stays whole). Returns
    when the client is gone."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        covered = await send_first(ws, first, covered, batch)
        while True:
            if client.stale:
                client.stale = False
                client.clear()
                seq, text = feed.snapshot()
                await ws.send_text(text)
                covered = max(covered, seq)
                continue
            items = client.take()
            if not items:
                client.wake.clear()
                client.idle = True  # publish may now write to this client directly (hub.Client.deliver)
                try:
                    await client.wake.wait()
                finally:
                    client.idle = False
                continue
            texts = [text for s, text in items if s > covered]
            if batch and len(texts) > 1:
                await ws.send_text("[" + ",".join(texts) + "]")
            else:
                for text in texts:
                    if client.stale:
                        break  # the rest was dropped while we were sending: a snapshot follows
                    await ws.send_text(text)
