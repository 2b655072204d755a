"""Fan-out of encoded delta messages to spectators' websockets (field case F12).

Each spectator has a bounded queue of ``(seq, text)`` items; ``Hub.publish`` appends the already
encoded text (one ``json.dumps`` per delta, shared by every client) to every queue and returns:
it never awaits, so a spectator that stops reading cannot stall the others. When a queue is full the
client's backlog is dropped and the client is marked ``stale``: its writer then sends one coalesced
latest full state (a snapshot) instead of the backlog, and carries on with the deltas after it.
Memory per client is bounded by ``cap`` items plus what its socket buffers.

Fast path (``dashboard.direct_ws``): a client whose writer is idle (queue empty, waiting) and whose
connection offers ``direct`` gets the message as one websocket frame, framed once per message for all
clients and written straight to its socket inside ``publish``; a client that is busy, stale or not
keeping up is queued for as above. Order is kept: the direct path is used only while nothing is
queued or being sent for that client.

A spectator may follow only some boards (``/ws/live?boards=SPEC``, ``dashboard.boardspec``): the hub
keeps its clients per board label plus the set of all-boards clients, so publishing one board's delta
costs O(that board's followers + all-boards clients), not O(every client).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Callable

from dashboard.boardspec import BoardSet
from dashboard.direct_ws import frame

# A queue must hold a whole burst (every board of a 1,000-board round moving at once, plus clock
# messages) or every spectator falls back to ~1 MB snapshots on every burst. Items are references to
# text shared by all clients, so 4,096 of them cost a client ~40 KB, not 4,096 copies.
DEFAULT_CAP = 4096


class Client:
    """One spectator's queue. ``stale``: the backlog was dropped, a snapshot must go first.
    ``dropped``: items dropped so far; ``high_water``: the longest the queue has been (<= cap).
    ``boards``: the boards it follows (a ``BoardSet``), or None for every board."""

    def __init__(self, cap: int = DEFAULT_CAP, boards: BoardSet | None = None):
        if cap < 1:
            raise ValueError(f"queue cap must be >= 1, not {cap}")
        self.cap = cap
        self.boards = boards
        self.items: deque[tuple[int, str]] = deque()
        self.wake = asyncio.Event()
        self.stale = False
        self.dropped = 0
        self.high_water = 0
        self.direct: Callable[[bytes], bool] | None = None  # DirectProtocol.write_frame, if offered
        self.idle = False  # set by the writer while it waits with nothing queued or in flight
        self.sent_direct = 0

    def deliver(self, seq: int, text: str, framed: Callable[[str], bytes]) -> None:
        """Send one encoded message now as a frame (``framed(text)``) when the client is idle and
        its connection takes it, else queue it (``offer``). Never blocks."""
        if self.idle and self.direct is not None and not self.stale:
            if self.direct(framed(text)):
                self.sent_direct += 1
                return
        self.offer(seq, text)

    def offer(self, seq: int, text: str) -> None:
        """Queue one encoded delta, or drop the backlog when full. Never blocks."""
        self.idle = False  # from now until the writer has sent the queue, nothing goes direct
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
    """The connected spectators: ``clients`` (all of them), ``everything`` (those following every
    board) and ``by_board`` (board label -> the clients following that board). ``publish`` is
    synchronous; a board's delta costs O(its followers + ``everything``)."""

    def __init__(self, cap: int = DEFAULT_CAP):
        self.cap = cap
        self.clients: set[Client] = set()
        self.everything: set[Client] = set()
        self.by_board: dict[str, set[Client]] = {}
        self.published = 0

    def add(self, boards: BoardSet | None = None) -> Client:
        """Register a new spectator following ``boards`` (None: every board); it receives the
        matching deltas published from now on, and every message published without a board."""
        c = Client(self.cap, boards)
        self.clients.add(c)
        if boards is None:
            self.everything.add(c)
        else:
            for b in boards.labels:
                self.by_board.setdefault(b, set()).add(c)
        return c

    def remove(self, client: Client) -> None:
        """Forget a spectator (idempotent)."""
        self.clients.discard(client)
        self.everything.discard(client)
        if client.boards is not None:
            for b in client.boards.labels:
                followers = self.by_board.get(b)
                if followers is not None:
                    followers.discard(client)
                    if not followers:
                        del self.by_board[b]

    def publish(self, seq: int, text: str, board: str | None = None,
                text_for: Callable[[BoardSet], str] | None = None) -> None:
        """Offer one encoded message (log ``seq``). Never awaits.

        ``board`` given: a delta of the game on that board, offered to that board's followers and
        the all-boards clients only. ``board`` None: a message for every client (a new round, an
        arbiter's alert); ``text_for(boards)``, when given, is the text for a client following only
        ``boards`` (the round message with its games cut to them), called once per distinct
        selection."""
        self.published += 1
        framed = _Frames()
        if board is not None:
            for c in self.everything:
                c.deliver(seq, text, framed)
            followers = self.by_board.get(board)
            if followers:
                for c in followers:
                    c.deliver(seq, text, framed)
            return
        cut: dict[BoardSet, str] = {}
        for c in self.clients:
            if c.boards is None or text_for is None:
                c.deliver(seq, text, framed)
            else:
                t = cut.get(c.boards)
                if t is None:
                    t = cut[c.boards] = text_for(c.boards)
                c.deliver(seq, t, framed)


class _Frames:
    """``framed(text)``: the websocket frame of ``text``, built at most once per text per publish."""

    __slots__ = ("_cache",)

    def __init__(self) -> None:
        self._cache: dict[str, bytes] = {}

    def __call__(self, text: str) -> bytes:
        data = self._cache.get(text)
        if data is None:
            data = self._cache[text] = frame(text)
        return data
