"""The in-process event log, for tests and demos (URL ``memory://`` or ``memory://NAME``).

``memory://`` gives each ``open_log`` call a fresh, private log, so tests never see each other's
entries. ``memory://NAME`` names a store shared by every log opened in this process with the same
NAME and tournament: a gateway and a dashboard running in one process (or a "reopened" log) see the
same entries. Nothing survives the process.

Identity (base.py): the store takes its epoch with its first entry and remembers batch ids for the
last ``DEDUPE_WINDOW`` entries, as the other backends do. ``wipe(NAME, tournament)`` empties a named
store in place (the in-memory FLUSHDB), so tests can show how readers and writers notice a lost log.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable

from services.eventlog._appends import AppendsBatches
from services.eventlog._batch import Outcome, Submission
from services.eventlog._identity import Identity
from services.eventlog._rows import check_tournament, new_epoch
from services.eventlog.base import DEDUPE_WINDOW, Entry, EventLogError


class _Store:
    """One tournament's entries (``entries[i].seq == i + 1``), its epoch, recent batch ids
    (``batch_id -> (first seq, count)``, oldest first) and the wake-up events of its followers."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.epoch: str | None = None
        self.batches: OrderedDict[str, tuple[int, int]] = OrderedDict()
        self.waiters: set[asyncio.Event] = set()

    def write(self, sub: Submission, identity: Identity) -> Outcome:
        """Store one submission (or return its earlier entries, or its refusal); no await inside,
        so it is atomic among tasks."""
        last = len(self.entries)
        if (sub.expect_epoch is not None and sub.expect_epoch != self.epoch) or last < sub.known_seq:
            return identity.refusal(self.epoch, last, sub.expect_epoch, sub.known_seq)
        if (done := self.batches.get(sub.batch_id)) is not None:
            first, count = done
            if count != len(sub.rows):
                return ValueError(f"batch_id {sub.batch_id!r} was used for {count} entries, "
                                  f"not {len(sub.rows)}")
            return self.entries[first - 1 : first - 1 + count]
        if self.epoch is None:
            self.epoch = new_epoch()
        new = [row.entry(last + 1 + i) for i, row in enumerate(sub.rows)]
        self.entries.extend(new)
        self.batches[sub.batch_id] = (last + 1, len(new))
        while self.batches and next(iter(self.batches.values()))[0] <= len(self.entries) - DEDUPE_WINDOW:
            self.batches.popitem(last=False)
        self.wake()
        return new

    def wipe(self) -> None:
        self.entries = []
        self.epoch = None
        self.batches.clear()
        self.wake()

    def wake(self) -> None:
        for ev in self.waiters:
            ev.set()


_NAMED: dict[tuple[str, str], _Store] = {}


def wipe(name: str, tournament: str) -> None:
    """Empty the named store ``memory://NAME`` of ``tournament`` in place: entries, epoch and batch
    ids gone, as a Redis restart without AOF loses them. Its logs then raise LogReplaced. Tests only."""
    if (store := _NAMED.get((name, tournament))) is not None:
        store.wipe()


class MemoryLog(AppendsBatches):
    """One tournament's log held in this process's memory.

    ``MemoryLog(tournament)`` is private; ``MemoryLog(tournament, name="x")`` shares the store named
    "x" with every other MemoryLog of that name and tournament in the process. Appends are atomic
    (no await between taking a seq and storing), so concurrent tasks get seq 1..N without gaps.
    Raises ValueError for a bad slug or entry; EventLogError once closed; LogReplaced (base.py).
    """

    def __init__(self, tournament: str, name: str | None = None):
        self.tournament = check_tournament(tournament)
        if name:
            self._store = _NAMED.setdefault((name, tournament), _Store())
        else:
            self._store = _Store()
        self._identity = Identity(f"memory://{name or ''} {tournament}")
        self._mine: set[asyncio.Event] = set()
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise EventLogError(f"event log for {self.tournament!r} (memory) is closed")

    async def _submit(self, sub: Submission) -> list[Entry]:
        outcome = self._store.write(sub, self._identity)
        if isinstance(outcome, BaseException):
            raise outcome
        self._checked()
        return outcome

    def _checked(self) -> int:
        """Check the store against this instance's identity; returns its last seq."""
        last = len(self._store.entries)
        self._identity.check(self._store.epoch, last)
        return last

    async def epoch(self) -> str | None:
        """The store's epoch; None while it is empty."""
        self._check_open()
        return self._store.epoch

    async def read(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries with ``seq > after`` in order, at most ``limit`` (None: all)."""
        self._check_open()
        self._checked()
        start = max(after, 0)
        stop = None if limit is None else start + max(limit, 0)
        return self._store.entries[start:stop]

    async def last_seq(self) -> int:
        """The highest seq, 0 when empty."""
        self._check_open()
        return self._checked()

    async def follow(self, after: int = 0, *, expect_epoch: str | None = None,
                     pace_s: float = 0.0, skip: Callable[[int], bool] | None = None) -> AsyncIterator[Entry]:
        """Every entry with ``seq > after``, then each new one as appended; ends when this log
        closes. Raises LogReplaced when the store is wiped or holds fewer than ``after`` entries."""
        self._check_open()
        ev = asyncio.Event()
        self._store.waiters.add(ev)
        self._mine.add(ev)
        cursor = max(after, 0)
        store = self._store
        last = store.entries[cursor - 1] if 0 < cursor <= len(store.entries) else None
        try:
            while not self._closed:
                ev.clear()
                self._identity.check(store.epoch, None, expect_epoch)
                entries = store.entries
                if cursor > len(entries) or (last is not None and entries[cursor - 1] is not last):
                    self._identity.refuse(f"a follower at seq {cursor} finds {len(entries)} entries"
                                          + ("" if cursor > len(entries) else ", another at its seq"),
                                          store.epoch, len(entries))
                while cursor < len(entries):
                    cursor += 1
                    last = entries[cursor - 1]
                    self._identity.saw(cursor)
                    if skip is not None and skip(cursor):
                        continue
                    yield last
                    if self._closed:
                        return
                if cursor >= len(store.entries) and store.entries is entries:
                    await ev.wait()
        finally:
            self._store.waiters.discard(ev)
            self._mine.discard(ev)

    async def close(self) -> None:
        """Close this handle (the named store stays for other handles); followers end. Idempotent."""
        self._closed = True
        for ev in list(self._mine):
            ev.set()
