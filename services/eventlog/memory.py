"""The in-process event log, for tests and demos (URL ``memory://`` or ``memory://NAME``).

``memory://`` gives each ``open_log`` call a fresh, private log, so tests never see each other's
entries. ``memory://NAME`` names a store shared by every log opened in this process with the same
NAME and tournament: a gateway and a dashboard running in one process (or a "reopened" log) see the
same entries. Nothing survives the process.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from services.eventlog._rows import Row, check_tournament, make_row, make_rows
from services.eventlog.base import Entry, EventLog, EventLogError


class _Store:
    """One tournament's entries (``entries[i].seq == i + 1``) and the wake-up events of its followers."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.waiters: set[asyncio.Event] = set()

    def add(self, rows: list[Row]) -> list[Entry]:
        first = len(self.entries) + 1
        new = [row.entry(first + i) for i, row in enumerate(rows)]
        self.entries.extend(new)
        for ev in self.waiters:
            ev.set()
        return new


_NAMED: dict[tuple[str, str], _Store] = {}


class MemoryLog(EventLog):
    """One tournament's log held in this process's memory.

    ``MemoryLog(tournament)`` is private; ``MemoryLog(tournament, name="x")`` shares the store named
    "x" with every other MemoryLog of that name and tournament in the process. Appends are atomic
    (no await between taking a seq and storing), so concurrent tasks get seq 1..N without gaps.
    Raises ValueError for a bad slug or entry; EventLogError once closed.
    """

    def __init__(self, tournament: str, name: str | None = None):
        self.tournament = check_tournament(tournament)
        if name:
            self._store = _NAMED.setdefault((name, tournament), _Store())
        else:
            self._store = _Store()
        self._mine: set[asyncio.Event] = set()
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise EventLogError(f"event log for {self.tournament!r} (memory) is closed")

    async def append(self, type: str, data: dict, at: int | None = None) -> Entry:
        """Append one entry and return it with its seq. Raises ValueError on a bad entry."""
        row = make_row(type, data, at)
        self._check_open()
        return self._store.add([row])[0]

    async def append_many(self, items: list[tuple[str, dict, int | None]]) -> list[Entry]:
        """Append ``[(type, data, at), ...]`` atomically, in order; ValueError before any write."""
        rows = make_rows(items)
        self._check_open()
        return self._store.add(rows)

    async def read(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries with ``seq > after`` in order, at most ``limit`` (None: all)."""
        self._check_open()
        start = max(after, 0)
        stop = None if limit is None else start + max(limit, 0)
        return self._store.entries[start:stop]

    async def last_seq(self) -> int:
        """The highest seq, 0 when empty."""
        self._check_open()
        return len(self._store.entries)

    async def follow(self, after: int = 0) -> AsyncIterator[Entry]:
        """Every entry with ``seq > after``, then each new one as appended; ends when this log closes."""
        self._check_open()
        ev = asyncio.Event()
        self._store.waiters.add(ev)
        self._mine.add(ev)
        cursor = max(after, 0)
        try:
            while not self._closed:
                ev.clear()
                entries = self._store.entries
                while cursor < len(entries):
                    cursor += 1
                    yield entries[cursor - 1]
                    if self._closed:
                        return
                if cursor >= len(entries):
                    await ev.wait()
        finally:
            self._store.waiters.discard(ev)
            self._mine.discard(ev)

    async def close(self) -> None:
        """Close this handle (the named store stays for other handles); followers end. Idempotent."""
        self._closed = True
        for ev in list(self._mine):
            ev.set()
