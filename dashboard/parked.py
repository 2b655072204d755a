"""A spectator served without a task once its first messages are sent (``/ws/live`` under
``venue.serve``: ``dashboard.direct_ws.DirectProtocol.park``; issue 31 "Spectators, cheaper").

The hub writes its frames straight to the socket while the spectator keeps up (``Client.idle``, as
before). What it could not take at once waits in its bounded queue (``hub.Client``, field case F12)
and ``Parked.drain`` writes it, as one frame, when the socket can take more: at once when something
was queued while the socket had room, else when asyncio resumes writing (the transport's buffer fell
under its low-water mark). A spectator whose queue overflowed (stale) is written one snapshot of its
boards, framed once per selection and seq for every stale spectator of that selection, then the
deltas after it. Nothing is sent twice: queued messages at or below the seq already covered (the
first messages, a snapshot) are skipped. When the connection ends, ``lost`` takes the spectator out
of the hub.

What a slow spectator costs the dashboard, at most: the transport's buffer (its high-water mark,
64 KiB, plus the frame that crossed it), its queue (``cap_bytes`` of text, most of it shared with
its group and the resume history), and a share of one snapshot frame of its boards; the kernel's
send buffer beyond that (``venue.serve.SEND_BUFFER``). docs/spectators.md "Slow spectators".
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from dashboard.direct_ws import frame
from dashboard.hub import Client, Hub


class Link(Protocol):
    """The parked connection as the writer sees it (``DirectProtocol``)."""

    def ready(self) -> bool: ...

    def write_frame(self, data: bytes) -> bool: ...


class Snapshots(Protocol):
    """What a stale spectator is sent: ``snapshot() -> (seq, text)`` of its boards."""

    def snapshot(self) -> tuple[int, str]: ...


class Parked:
    """One parked spectator: ``client`` (its queue in ``hub``), ``source`` (its snapshots),
    ``covered`` (the seq up to which it has everything), ``link`` (set by ``attach``)."""

    __slots__ = ("hub", "client", "source", "covered", "link", "_scheduled")

    def __init__(self, hub: Hub, client: Client, source: Snapshots, covered: int):
        self.hub = hub
        self.client = client
        self.source = source
        self.covered = covered
        self.link: Link | None = None
        self._scheduled = False

    def attach(self, park: Callable[[Callable[[], None], Callable[[], None]], Link | None]) -> bool:
        """Park the connection (``park``: the server's ``venue.direct`` park) and write what was
        queued meanwhile; False when the connection is already closing (nothing changed)."""
        link = park(self.drain, self.lost)
        if link is None:
            return False
        self.link = link
        self.client.wake.callback = self.kick
        self.drain()
        return True

    def kick(self) -> None:
        """Something was queued: drain it on the next loop turn (never inside ``Hub.publish``)."""
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.drain)

    def drain(self) -> None:
        """Write what waits (a snapshot when stale, else the queue as one frame) while the socket
        takes it; mark the client idle once nothing waits."""
        self._scheduled = False
        link, c = self.link, self.client
        if link is None:
            return
        while link.ready():
            if c.stale:
                c.stale = False
                c.clear()
                seq, data = snapshot_frame(self.source)
                link.write_frame(data)
                self.covered = max(self.covered, seq)
                continue
            items = c.take()
            if not items:
                c.wake.clear()
                c.idle = True  # the hub writes its frames directly again
                return
            texts = [t for s, t in items if s > self.covered]
            if texts:
                link.write_frame(frame(texts[0] if len(texts) == 1 else "[" + ",".join(texts) + "]"))
        c.idle = False  # the socket is full: asyncio's resume_writing drains again

    def lost(self) -> None:
        """The connection ended: forget the spectator."""
        self.link = None
        self.client.wake.callback = None
        self.hub.remove(self.client)


_frames: dict[tuple[int, object], tuple[int, str, bytes]] = {}  # (id(source's channel), boards) -> seq, text, frame
FRAMES_KEPT = 1024


def snapshot_frame(source: Snapshots) -> tuple[int, bytes]:
    """``(seq, frame)`` of ``source.snapshot()``, framed once per text for every stale spectator
    of the same selection (a page's snapshot is tens of KB; a slow tenth of 10,000 spectators
    going stale together would otherwise hold a thousand copies)."""
    seq, text = source.snapshot()
    key = (id(getattr(source, "feed", source)), getattr(source, "boards", None))
    hit = _frames.get(key)
    if hit is not None and hit[1] is text:
        return seq, hit[2]
    data = frame(text)
    if len(_frames) >= FRAMES_KEPT:
        del _frames[next(iter(_frames))]
    _frames[key] = (seq, text, data)
    return seq, data
