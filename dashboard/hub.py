"""Fan-out of encoded delta messages to spectators' websockets (field case F12).

Each spectator has a bounded queue of ``(seq, text)`` messages; ``Hub.publish`` appends the already
encoded text (one ``json.dumps`` per delta, shared by every client) to every queue and returns:
it never awaits, so a spectator that stops reading cannot stall the others. When a queue is full
(``cap`` messages or ``cap_bytes`` bytes) the client's backlog is dropped and the client is marked
``stale``: its writer then sends one coalesced latest full state (a snapshot) instead of the
backlog, and carries on with the deltas after it. Memory per client is bounded by its queue's caps
plus what its socket buffers (the transport's high-water mark, then the kernel's send buffer).

Fast path (``dashboard.direct_ws``): a client whose writer is idle (queue empty, waiting) and whose
connection offers ``direct`` gets the message as one websocket frame, framed once per message for all
clients and written straight to its socket inside ``publish``; a client that is busy, stale or not
keeping up is queued for as above. Order is kept: the direct path is used only while nothing is
queued or being sent for that client.

A spectator may follow only some boards (``/ws/live?boards=SPEC``, ``dashboard.boardspec``): the hub
keeps its clients per board label plus the set of all-boards clients, so publishing one board's delta
costs O(that board's followers + all-boards clients), not O(every client).

Grouped mode (``Hub(group_s=...)``, the spectators' hub of ``create_app``; issue 15 "Spectators at
scale"): spectators following the same selection (the same ``boards`` SPEC, or every board) form one
``Group``. ``publish`` only appends the message to each interested group's pending list; a flush
turns a group's pending messages into ONE frame (the message alone, or a JSON array of them in
order, which the pages already read: ``dashboard/static/live.js``) built once and written to every
idle member's socket, or queued per message for a busy or slow one (as above, so F12 holds).

Flushes run in **slices**, oldest first: the groups wait in the order their oldest pending message
arrived; a slice flushes groups from the head until it has spent ``SLICE_S`` of writes, then yields
the event loop (the fold, handshakes and pings run) for ``GROUP_FACTOR`` x the slice's cost, at most
``MAX_GROUP_S``, and the next slice goes on where it stopped. A group is not flushed again within
``group_s`` of its last flush, so a quiet hall's delta goes out at once and a busy page is framed at
most every 20 ms. Why slices: a delta waits for its own group's turn, at most one pass over the
groups (10,000 spectators: ~10,000 writes / the fan-out's share of a core), not for a whole pass
to end, the loop to idle, and its group's place in the next pass (the tick-wide flush before: a
10,000-write flush of ~100-250 ms, then a wait of half of it, then the delta's place in the next
flush). With 10,000 spectators x 15 deltas/s per page, one delta at a time would be 150k writes/s;
grouped, each spectator gets one frame per pass.
A spectator joining a group first lets the group's pending messages go to the members it had, so it
is sent only what was published after its snapshot.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Callable

from dashboard.boardspec import BoardSet
from dashboard.direct_ws import frame

# A queue must hold a whole burst (every board of a 1,000-board round moving at once, plus clock
# messages) or every spectator falls back to ~1 MB snapshots on every burst. Its texts are shared by
# all clients (and kept anyway for resuming: dashboard.feed's history), and grouped, a slow page's
# queue holds its group's chunks, a reference each. DEFAULT_CAP_BYTES bounds what one slow spectator
# can hold if nothing were shared: 256 KB, a 1,000-board burst's deltas (~250 bytes each) for a
# spectator of every board, 6 to 20 s of a hall page's deltas (docs/spectators.md "Slow spectators").
DEFAULT_CAP = 4096
DEFAULT_CAP_BYTES = 256 * 1024
# Grouped mode (module docstring). 20 ms: a lone delta is not held long enough for an eye to see it,
# and a busy page is framed at most 50 times a second. GROUP_FACTOR 0.25: after a slice the loop gets
# a quarter of its duration for the fold, the handshakes and the pings (the fan-out takes at most 4/5
# of a core). Measured against 0.5 in the same runs at 10,000 spectators (bench_latency --fanout
# grouped-x0.25,grouped, docs/performance.md): p99 132 vs 211 ms and 238 vs 539 ms, for 0.79 vs 0.68
# CPU s/s. SLICE_S 10 ms: ~1,000 writes here, short enough that nothing else waits long, long enough
# that the scheduling costs nothing measurable. MAX_GROUP_S: the longest pause between slices (after
# a slice that overran on one huge group).
GROUP_S = 0.02
MAX_GROUP_S = 0.1
GROUP_FACTOR = 0.25
SLICE_S = 0.01


class Signal:
    """``asyncio.Event``'s ``set``/``clear``/``is_set``/``wait`` for one waiter (the client's writer
    task), or a ``callback`` run when it is set: what wakes a spectator's writer. Why not an Event:
    its deque of waiters costs 760 bytes a spectator (bench/bench_spectator_memory.py)."""

    __slots__ = ("_set", "_waiter", "callback")

    def __init__(self) -> None:
        self._set = False
        self._waiter: asyncio.Future | None = None
        self.callback: Callable[[], None] | None = None

    def is_set(self) -> bool:
        """True once set, until cleared."""
        return self._set

    def set(self) -> None:
        """Set it: wake the waiting writer, or run ``callback`` (once until cleared)."""
        if self._set:
            return
        self._set = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        if self.callback is not None:
            self.callback()

    def clear(self) -> None:
        """Unset it."""
        self._set = False

    async def wait(self) -> None:
        """Return once it is set (at once if it is)."""
        if self._set:
            return
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None


class Client:
    """One spectator's queue. ``stale``: the backlog was dropped, a snapshot must go first.
    ``dropped``: messages dropped so far; ``high_water``: the most messages it has held (<= cap).
    ``boards``: the boards it follows (a ``BoardSet``), or None for every board.

    The queue holds **chunks**, lists of ``(seq, text)``: in grouped mode a flush's list, shared by
    every member of the group that could not take the frame at once, so a spectator behind costs a
    reference per frame, not a tuple per message. It is bounded twice (field case F12): ``cap``
    messages and ``cap_bytes`` bytes of text (counted as if no text were shared: the bound of the
    memory a slow spectator can hold); past either, the backlog is dropped and the client goes stale.
    ``wake``: set when something was queued (its writer's ``Signal``)."""

    __slots__ = ("cap", "cap_bytes", "boards", "items", "queued", "queued_bytes", "wake", "stale", "dropped",
                 "high_water", "direct", "idle", "sent_direct", "__dict__")  # a dict only when one is set

    def __init__(self, cap: int = DEFAULT_CAP, boards: BoardSet | None = None, cap_bytes: int = DEFAULT_CAP_BYTES):
        if cap < 1 or cap_bytes < 1:
            raise ValueError(f"queue caps must be >= 1, not {cap} messages, {cap_bytes} bytes")
        self.cap = cap
        self.cap_bytes = cap_bytes
        self.boards = boards
        self.items: list[list[tuple[int, str]]] = []  # chunks, oldest first
        self.queued = 0  # messages in ``items``
        self.queued_bytes = 0  # their texts' length
        self.wake = Signal()
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

    def deliver_frame(self, items: list[tuple[int, str]], data: bytes) -> None:
        """Grouped mode: send ``data`` (the one frame of ``items``, shared by the group) now when
        the client is idle and its connection takes it, else queue ``items`` (shared, not copied).
        Never blocks."""
        if self.idle and self.direct is not None and not self.stale and self.direct(data):
            self.sent_direct += 1
            return
        self.queue(items, len(data))

    def offer(self, seq: int, text: str) -> None:
        """Queue one encoded delta, or drop the backlog when full. Never blocks."""
        self.queue([(seq, text)], len(text))

    def queue(self, chunk: list[tuple[int, str]], size: int) -> None:
        """Queue ``chunk`` (messages in order; ``size``: their bytes), or drop the whole backlog and
        go stale when it would pass ``cap`` messages or ``cap_bytes`` bytes. Never blocks."""
        self.idle = False  # from now until the writer has sent the queue, nothing goes direct
        if self.stale:
            self.dropped += len(chunk)
            return
        n = self.queued + len(chunk)
        if n > self.cap or self.queued_bytes + size > self.cap_bytes:
            self.dropped += n
            self.items.clear()
            self.queued = self.queued_bytes = 0
            self.stale = True
        else:
            self.items.append(chunk)
            self.queued = n
            self.queued_bytes += size
            if n > self.high_water:
                self.high_water = n
        self.wake.set()

    def take(self) -> list[tuple[int, str]]:
        """Everything queued now, oldest first (the queue is emptied)."""
        chunks = self.items
        if not chunks:
            return []
        self.items = []
        self.queued = self.queued_bytes = 0
        return chunks[0] if len(chunks) == 1 else [m for c in chunks for m in c]

    def clear(self) -> None:
        """Forget what is queued (a snapshot replaces it)."""
        self.items.clear()
        self.queued = self.queued_bytes = 0


class Group:
    """Grouped mode: the spectators following one selection (``boards``: a ``BoardSet``, or None for
    every board), ``members``, and the ``pending`` messages ``(seq, text)`` not flushed yet."""

    __slots__ = ("boards", "members", "pending", "last_at")

    def __init__(self, boards: BoardSet | None):
        self.boards = boards
        self.members: set[Client] = set()
        self.pending: list[tuple[int, str]] = []
        self.last_at = float("-inf")  # when it was last flushed (the hub's ``timer``)


class Hub:
    """The connected spectators: ``clients`` (all of them). ``publish`` is synchronous.

    Per-delta mode (``group_s`` None, the default; the arbiters' desk): ``everything`` (those
    following every board) and ``by_board`` (board label -> the clients following that board); a
    board's delta costs O(its followers + ``everything``), each client gets each message at once.

    Grouped mode (``group_s`` in seconds; module docstring): ``groups`` (selection -> ``Group``) and
    ``group_by_board`` (board label -> the groups following it); ``publish`` costs O(the groups
    interested), ``flush`` runs one slice, writing one frame per group. ``later(delay_s, fn)``
    schedules the slices (default: the running loop's ``call_later``; with no running loop every
    waiting group is flushed at once), ``timer()`` is a monotonic clock in seconds (both injected in
    tests). ``slice_s``: the writes a slice may spend, s; ``factor``: the pause after a slice as a
    multiple of its cost; ``max_group_s``: the longest pause; ``frames``: frames built so far;
    ``writes``: frames handed to members; ``flushes``: slices run; ``flush_s``, ``longest_flush_s``,
    ``last_cost_s``: the time spent in slices (in all, the longest, the last one), in seconds of
    ``timer``."""

    def __init__(self, cap: int = DEFAULT_CAP, group_s: float | None = None, *, max_group_s: float = MAX_GROUP_S,
                 cap_bytes: int = DEFAULT_CAP_BYTES,
                 factor: float = GROUP_FACTOR, slice_s: float = SLICE_S,
                 later: Callable[[float, Callable[[], None]], object] | None = None,
                 timer: Callable[[], float] = time.perf_counter):
        if group_s is not None and not 0 <= group_s <= max_group_s:
            raise ValueError(f"group_s must be within 0..{max_group_s} s, not {group_s}")
        self.cap = cap
        self.cap_bytes = cap_bytes
        self.group_s = group_s
        self.max_group_s = max_group_s
        self.factor = factor
        self.slice_s = slice_s
        self.clients: set[Client] = set()
        self.everything: set[Client] = set()
        self.by_board: dict[str, set[Client]] = {}
        self.groups: dict[BoardSet | None, Group] = {}
        self.group_by_board: dict[str, set[Group]] = {}
        self.published = 0
        self.frames = 0
        self.flushes = 0
        self.writes = 0  # frames handed to members (written directly or queued)
        self.flush_s = 0.0  # time spent flushing, s (``timer``)
        self.longest_flush_s = 0.0
        self.last_cost_s = 0.0
        self._later = later
        self._timer = timer
        self._dirty: deque[Group] = deque()  # groups with pending messages, oldest pending first
        self._scheduled = False
        self._next_at = float("-inf")

    @property
    def grouped(self) -> bool:
        """True in grouped mode."""
        return self.group_s is not None

    def add(self, boards: BoardSet | None = None) -> Client:
        """Register a new spectator following ``boards`` (None: every board); it receives the
        matching deltas published from now on, and every message published without a board."""
        c = Client(self.cap, boards, self.cap_bytes)
        self.clients.add(c)
        if self.grouped:
            g = self.groups.get(boards)
            if g is None:
                g = self.groups[boards] = Group(boards)
                for b in (boards.labels if boards is not None else ()):
                    self.group_by_board.setdefault(b, set()).add(g)
            elif g.pending:  # published before this client: for the members it had only
                self._flush_group(g)
            g.members.add(c)
        elif boards is None:
            self.everything.add(c)
        else:
            for b in boards.labels:
                self.by_board.setdefault(b, set()).add(c)
        return c

    def remove(self, client: Client) -> None:
        """Forget a spectator (idempotent)."""
        if client not in self.clients:
            return
        self.clients.discard(client)
        if self.grouped:
            g = self.groups.get(client.boards)
            if g is not None:
                g.members.discard(client)
                if not g.members:
                    del self.groups[client.boards]
                    g.pending.clear()
                    for b in (g.boards.labels if g.boards is not None else ()):
                        gs = self.group_by_board.get(b)
                        if gs is not None:
                            gs.discard(g)
                            if not gs:
                                del self.group_by_board[b]
            return
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
        selection. Grouped mode: the message waits for the next flush (``flush``)."""
        self.published += 1
        if self.grouped:
            self._pend(seq, text, board, text_for)
            return
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

    # --- grouped mode ----------------------------------------------------------------------------
    def _pend(self, seq: int, text: str, board: str | None, text_for) -> None:
        dirty = self._dirty
        if board is not None:
            everyone = self.groups.get(None)
            targets = list(self.group_by_board.get(board, ()))
            if everyone is not None:
                targets.append(everyone)
        else:
            targets = list(self.groups.values())
        for g in targets:
            t = text if board is not None or g.boards is None or text_for is None else text_for(g.boards)
            if not g.pending:
                dirty.append(g)
            g.pending.append((seq, t))
        if dirty and not self._scheduled:
            self._schedule()

    def _schedule(self) -> None:
        """Schedule the next slice: not before the pause after the last one, nor before the oldest
        waiting group may be flushed again (``group_s`` after its last flush)."""
        dirty = self._dirty
        while dirty and not dirty[0].pending:  # emptied since (flushed when a member joined, or removed)
            dirty.popleft()
        if not dirty:
            return
        self._scheduled = True
        now = self._timer()
        delay = max(0.0, self._next_at - now, dirty[0].last_at + (self.group_s or 0.0) - now)
        if self._later is not None:
            self._later(delay, self.flush)
            return
        try:
            asyncio.get_running_loop().call_later(delay, self.flush)
        except RuntimeError:  # no event loop (a synchronous caller): everything now
            self._scheduled = False
            while dirty:
                g = dirty.popleft()
                if g.pending:
                    self._flush_group(g)

    def flush(self) -> None:
        """Grouped mode: one slice (module docstring). Flush the waiting groups oldest first, each as
        one frame to its members (idle ones directly, the others through their queues), until
        ``slice_s`` of writes is spent or the oldest was flushed less than ``group_s`` ago; then
        schedule the next slice after a pause of ``factor`` x this one's cost (at most
        ``max_group_s``)."""
        self._scheduled = False
        timer = self._timer
        t0 = now = timer()
        dirty = self._dirty
        spacing = self.group_s or 0.0
        while dirty:
            g = dirty[0]
            if not g.pending:
                dirty.popleft()
                continue
            if g.last_at + spacing > now:
                break
            dirty.popleft()
            self._flush_group(g)
            now = timer()
            g.last_at = now
            if now - t0 >= self.slice_s:
                break
        self.flushes += 1
        cost = now - t0
        self.last_cost_s = cost
        self.flush_s += cost
        self.longest_flush_s = max(self.longest_flush_s, cost)
        self._next_at = now + min(self.max_group_s, self.factor * cost)
        self._schedule()

    def _flush_group(self, g: Group) -> None:
        items, g.pending = g.pending, []
        body = items[0][1] if len(items) == 1 else "[" + ",".join(t for _, t in items) + "]"
        data = frame(body)
        self.frames += 1
        self.writes += len(g.members)
        for c in g.members:
            c.deliver_frame(items, data)


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
