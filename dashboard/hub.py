"""Fan-out of encoded delta messages to spectators' websockets (field case F12).

Each spectator has a bounded queue of ``(seq, text)`` items; ``Hub.publish`` appends the already
encoded text (one ``json.dumps`` per delta, shared by every client) to every queue and returns:
it never awaits, so a spectator that stops reading cannot stall the others. When a queue is full the
client's backlog is dropped and the client is marked ``stale``: its writer then sends one coalesced
latest full state (a snapshot) instead of the backlog, and carries on with the deltas after it.
Memory per client is bounded by ``cap`` items plus what its socket buffers.
"""

from __future__ import annotations

import asyncio
from collections import deque

# A queue must hold a whole burst (every board of a 1,000-board round moving at once, plus clock
# messages) or every spectator falls back to ~1 MB snapshots on every burst. Items are references to
# text shared by all clients, so 4,096 of them cost a client ~40 KB, not 4,096 copies.
DEFAULT_CAP = 4096


class Client:
    """One spectator's queue. ``stale``: the backlog was dropped, a snapshot must go first.
    ``dropped``: items dropped so far; ``high_water``: the longest the queue has been (<= cap)."""

    def __init__(self, cap: int = DEFAULT_CAP):
        if cap < 1:
            raise ValueError(f"queue cap must be >= 1, not {cap}")
        self.cap = cap
        self.items: deque[tuple[int, str]] = deque()
        self.wake = asyncio.Event()
        self.stale = False
        self.dropped = 0
        self.high_water = 0

    def offer(self, seq: int, text: str) -> None:
        """Queue one encoded delta, or drop the backlog when full. Never blocks."""
        if self.stale:
            self.dropped += 1
            return
        items = self.items
        n = len(items)
        if n >= self.cap:
            self.dropped += n + 1
            items.clear()
            self.stale = True
        else:
            items.append((seq, text))
            if n >= self.high_water:
                self.high_water = n + 1
        self.wake.set()

    def take(self) -> list[tuple[int, str]]:
        """Everything queued now, oldest first (the queue is emptied)."""
        out = list(self.items)
        self.items.clear()
        return out


class Hub:
    """The set of connected spectators. ``publish`` is synchronous and O(clients)."""

    def __init__(self, cap: int = DEFAULT_CAP):
        self.cap = cap
        self.clients: set[Client] = set()
        self.published = 0

    def add(self) -> Client:
        """Register a new spectator; it receives every delta published from now on."""
        c = Client(self.cap)
        self.clients.add(c)
        return c

    def remove(self, client: Client) -> None:
        """Forget a spectator (idempotent)."""
        self.clients.discard(client)

    def publish(self, seq: int, text: str) -> None:
        """Offer one encoded delta (log ``seq``) to every spectator. Never awaits."""
        self.published += 1
        for c in self.clients:
            c.offer(seq, text)
