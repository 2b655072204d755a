"""The broadcast delay: which log entries the public may see by now (issue "Broadcast delay").

Elite events delay the public feed (15 to 30 minutes is usual) so nobody can relay moves to a player.
The tournament file's ``[broadcast] delay`` (``Tournament.broadcast_delay_ms``, 0 to 3600 s) says how
long: the public routes, the PGN feeds, the board pictures, the standings and the pushes to lichess
all read a second fold of the log (``services.state.HallState``) that has taken in only the entries
made at least that long ago. Moves, clocks, results and terminations are therefore as they stood
then, and nothing newer leaks, not even a result; the arbiters read the live fold.

:class:`Delay` holds the entries not yet public, in log order, and hands them out when due: an entry
made at ``at`` is public from ``at + delay`` on (``due``). An entry is never released before one
appended ahead of it, so the public fold sees the log in its own order (a later entry stamped earlier
by another writer waits for the one before it). Pure: the time is passed in (ms since the epoch).

A running clock: the public state holds the clock reading as it stood at ``at``; a spectator's page
shows ``ms - (now - at)`` for the running side. Shifting the reading's ``at`` by the delay
(``services.views.spectator.game_json``, ``shift_ms``) makes that the time the clock showed ``delay``
ago, counting down from the delayed reading.
"""

from __future__ import annotations

from collections import deque

from services.eventlog.base import Entry

MAX_DELAY_MS = 3600 * 1000


class Delay:
    """Entries waiting for their public time. ``delay_ms``: the delay in force (0 to
    ``MAX_DELAY_MS``; ValueError outside it). Changing it applies to the entries still waiting."""

    def __init__(self, delay_ms: int = 0):
        self.pending: deque[Entry] = deque()
        self.delay_ms = 0
        self.set_delay(delay_ms)

    def set_delay(self, delay_ms: int) -> None:
        """The delay from now on, ms. Raises ValueError outside 0..3600 s."""
        if isinstance(delay_ms, bool) or not isinstance(delay_ms, int) or not 0 <= delay_ms <= MAX_DELAY_MS:
            raise ValueError(f"broadcast delay must be 0 to {MAX_DELAY_MS} ms, not {delay_ms!r}")
        self.delay_ms = delay_ms

    def offer(self, entry: Entry) -> None:
        """An entry folded live, to be made public when due."""
        self.pending.append(entry)

    def due(self, now_ms: int) -> list[Entry]:
        """The entries public by ``now_ms`` (removed from the queue), in log order: each made at
        or before ``now_ms - delay_ms``."""
        out = []
        cut = now_ms - self.delay_ms
        while self.pending and self.pending[0].at <= cut:
            out.append(self.pending.popleft())
        return out

    def next_due(self) -> int | None:
        """When the next entry becomes public (ms since the epoch), or None when none waits."""
        return self.pending[0].at + self.delay_ms if self.pending else None

    def __len__(self) -> int:
        return len(self.pending)


class DelayedHall:
    """Two folds of one log for a process that serves only the public (``venue broadcast``):
    ``live`` takes every entry at once (it knows the delay in force: the registered tournament
    file's ``broadcast_delay_ms``), ``public`` only the entries due (``release``)."""

    def __init__(self) -> None:
        from services.state import HallState

        self.live = HallState()
        self.public = HallState()
        self.delay = Delay(0)

    def take(self, entry: Entry) -> None:
        """One entry of the log, in order: folded live, queued for the public."""
        if entry.seq and entry.seq <= self.live.seq:
            return
        self.live.apply(entry)
        t = self.live.config
        self.delay.set_delay(getattr(t, "broadcast_delay_ms", 0) if t is not None else 0)
        self.delay.offer(entry)

    def release(self, now_ms: int) -> int:
        """Fold into ``public`` the entries due by ``now_ms``; how many."""
        due = self.delay.due(now_ms)
        for entry in due:
            self.public.apply(entry)
        return len(due)
