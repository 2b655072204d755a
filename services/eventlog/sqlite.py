"""The embedded event log: one SQLite file, WAL mode (URL ``sqlite:///PATH``).

Table ``entries(tournament, seq, at, type, data)`` with primary key ``(tournament, seq)``, so one
file may hold several tournaments. Each ``SqliteLog`` owns two connections, each used by one thread
of its own: a writer and a reader (WAL lets readers run beside the writer).

Sequence: a write is ``BEGIN IMMEDIATE``; ``MAX(seq)``; insert; ``COMMIT``, so ``seq`` stays unique
and contiguous even with several processes writing one file. Concurrent appends from tasks of one
process are coalesced into one transaction (group commit) in arrival order.

Durability: ``synchronous=NORMAL`` (default). An entry whose ``append`` has returned is committed to
the WAL and survives the process being killed (``kill -9``); a power loss or OS crash may lose the
last transactions (never corrupts the file). ``?synchronous=full`` in the URL fsyncs every commit,
so a returned append survives a power loss too, at about a millisecond per write on SSDs.

Following: appends made through this instance wake its followers at once; appends by other
processes (or other instances) are seen by polling every ``poll_ms`` (default 5 ms; URL ``?poll_ms=20``).
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from services.eventlog._batch import GroupCommit
from services.eventlog._rows import Row, check_tournament, make_row, make_rows
from services.eventlog.base import Entry, EventLog, EventLogError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    tournament TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (tournament, seq)
) WITHOUT ROWID
"""
_SYNCHRONOUS = {"normal": "NORMAL", "full": "FULL"}
_RECENT = 4096  # entries written here that followers are served from memory
_PAGE = 1000  # entries per read while following
_BUSY_MS = 10_000  # how long a write waits for another process's write lock
_FULL_POLL_S = 0.05  # a follower reads at least this often even when the files look unchanged


def _wake(fut: asyncio.Future) -> None:
    if not fut.done():
        fut.set_result(None)


class SqliteLog(EventLog):
    """One tournament's log in the SQLite file at ``path``.

    ``synchronous``: ``"normal"`` (default; survives kill -9) or ``"full"`` (survives power loss);
    ``poll_ms``: how often followers look for other processes' appends (default 5 ms).
    Raises EventLogError at construction when the file cannot be opened or created (for instance its
    directory is missing or not writable), and from any method when the store fails; ValueError for
    a bad slug, option or entry.
    """

    def __init__(self, path: str | Path, tournament: str, *, synchronous: str = "normal",
                 poll_ms: float = 5.0):
        self.tournament = check_tournament(tournament)
        if synchronous.lower() not in _SYNCHRONOUS:
            raise ValueError(f"sqlite synchronous must be 'normal' or 'full', got {synchronous!r}")
        if not poll_ms > 0:
            raise ValueError(f"sqlite poll_ms must be > 0, got {poll_ms!r}")
        self.path = os.path.abspath(path)
        self._poll_s = poll_ms / 1000.0
        self._closed = False
        self._wconn = self._connect(_SYNCHRONOUS[synchronous.lower()], create=True)
        self._rconn = self._connect("NORMAL", create=False, other=self._wconn)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix=f"eventlog-sqlite-w-{tournament}")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix=f"eventlog-sqlite-r-{tournament}")
        self._commit = GroupCommit(self._write)
        self._recent: dict[int, Entry] = {}
        self._waiters: set[asyncio.Future] = set()  # followers napping until the next commit
        self._generation = 0  # commits made through this instance
        self._watcher: asyncio.Task | None = None

    def _connect(self, synchronous: str, create: bool,
                 other: sqlite3.Connection | None = None) -> sqlite3.Connection:
        """A connection in autocommit mode (transactions are explicit); ``create`` sets WAL and
        makes the table. On failure closes ``other`` too and raises EventLogError."""
        conn = None
        try:
            conn = sqlite3.connect(self.path, timeout=_BUSY_MS / 1000, isolation_level=None,
                                   check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout={_BUSY_MS}")
            if create:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(_SCHEMA)
            conn.execute(f"PRAGMA synchronous={synchronous}")
            return conn
        except sqlite3.Error as exc:
            for c in (conn, other):
                if c is not None:
                    c.close()
            raise EventLogError(f"cannot open SQLite event log {self.path!r}: {exc}") from exc

    def _check_open(self) -> None:
        if self._closed:
            raise EventLogError(f"event log for {self.tournament!r} ({self.path}) is closed")

    # -- writing -----------------------------------------------------------------------------

    def _insert(self, rows: list[Row]) -> int:
        """In the writer thread: store rows in one transaction; returns the first seq."""
        conn = self._wconn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                (last,) = conn.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE tournament = ?",
                    (self.tournament,),
                ).fetchone()
                conn.executemany(
                    "INSERT INTO entries (tournament, seq, at, type, data) VALUES (?, ?, ?, ?, ?)",
                    [(self.tournament, last + 1 + i, r.at, r.type, r.data_json)
                     for i, r in enumerate(rows)],
                )
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise EventLogError(f"cannot append to SQLite event log {self.path!r}: {exc}") from exc
        return last + 1

    async def _write(self, rows: list[Row]) -> list[Entry]:
        loop = asyncio.get_running_loop()
        first = await loop.run_in_executor(self._writer, self._insert, rows)
        entries = [row.entry(first + i) for i, row in enumerate(rows)]
        for e in entries:
            self._recent[e.seq] = e
        while len(self._recent) > _RECENT:
            del self._recent[next(iter(self._recent))]
        self._generation += 1
        for fut in list(self._waiters):
            _wake(fut)
        return entries

    async def append(self, type: str, data: dict, at: int | None = None) -> Entry:
        """Append one entry; returns it once committed. ValueError on a bad entry, EventLogError
        when the store fails (nothing appended)."""
        row = make_row(type, data, at)
        self._check_open()
        return (await self._commit.submit([row]))[0]

    async def append_many(self, items: list[tuple[str, dict, int | None]]) -> list[Entry]:
        """Append ``[(type, data, at), ...]`` in one transaction, in order, with contiguous seqs."""
        rows = make_rows(items)
        self._check_open()
        return await self._commit.submit(rows) if rows else []

    # -- reading -----------------------------------------------------------------------------

    def _select(self, after: int, limit: int | None) -> list[Entry]:
        try:
            cur = self._rconn.execute(
                "SELECT seq, at, type, data FROM entries WHERE tournament = ? AND seq > ?"
                " ORDER BY seq LIMIT ?",
                (self.tournament, after, -1 if limit is None else limit),
            )
            return [Entry(seq=s, at=a, type=t, data=json.loads(d)) for s, a, t, d in cur]
        except sqlite3.Error as exc:
            raise EventLogError(f"cannot read SQLite event log {self.path!r}: {exc}") from exc

    async def read(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries with ``seq > after`` in order, at most ``limit`` (None: all)."""
        self._check_open()
        if limit is not None and limit <= 0:
            return []
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader, self._select, max(after, 0), limit)

    def _max_seq(self) -> int:
        try:
            (last,) = self._rconn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE tournament = ?", (self.tournament,)
            ).fetchone()
            return last
        except sqlite3.Error as exc:
            raise EventLogError(f"cannot read SQLite event log {self.path!r}: {exc}") from exc

    async def last_seq(self) -> int:
        """The highest seq, 0 when empty."""
        self._check_open()
        return await asyncio.get_running_loop().run_in_executor(self._reader, self._max_seq)

    def _signature(self) -> tuple[int, ...]:
        """(mtime_ns, size) of the database file and its WAL: they move when any process commits.

        A cheap stat on the event loop; a full read every ``_FULL_POLL_S`` covers the rare commit
        that leaves both unchanged (same size, same mtime tick after a WAL reset).
        """
        sig: list[int] = []
        for p in (self.path, self.path + "-wal"):
            try:
                st = os.stat(p)
                sig += (st.st_mtime_ns, st.st_size)
            except OSError:
                sig += (0, 0)
        return tuple(sig)

    async def _nap(self) -> None:
        """Wait until this instance commits, the watcher sees the files move, or the log closes."""
        fut = asyncio.get_running_loop().create_future()
        self._waiters.add(fut)
        if self._watcher is None:
            self._watcher = asyncio.create_task(self._watch(), name="eventlog-sqlite-watch")
        try:
            await fut
        finally:
            self._waiters.discard(fut)

    async def _watch(self) -> None:
        """One task per instance, while followers nap: every ``poll_ms`` stat the files and wake
        them all on a change (another process committed), and at least every 50 ms regardless."""
        loop = asyncio.get_running_loop()
        sig, woke_at = self._signature(), loop.time()
        try:
            while self._waiters and not self._closed:
                await asyncio.sleep(self._poll_s)
                now = self._signature()
                if now != sig or loop.time() - woke_at >= _FULL_POLL_S:
                    sig, woke_at = now, loop.time()
                    for fut in list(self._waiters):
                        _wake(fut)
        finally:
            self._watcher = None

    async def follow(self, after: int = 0) -> AsyncIterator[Entry]:
        """Every entry with ``seq > after``, then each new one; ends when this log is closed.

        This instance's appends arrive at once (served from memory when recent); other processes'
        within ``poll_ms`` (one stat of the files per instance; a full read at least every 50 ms).
        Raises EventLogError if the store fails.
        """
        self._check_open()
        cursor = max(after, 0)
        while not self._closed:
            while (e := self._recent.get(cursor + 1)) is not None:
                cursor += 1
                yield e
            if self._closed:
                return
            # noted before the read, so a commit landing after the read is still noticed
            generation, sig = self._generation, self._signature()
            batch = await self.read(cursor, _PAGE)
            for e in batch:
                cursor = e.seq
                yield e
            if not batch and self._generation == generation and self._signature() == sig:
                await self._nap()

    async def close(self) -> None:
        """Finish pending appends, end followers, close both connections. Idempotent."""
        if self._closed:
            return
        await self._commit.flush()
        self._closed = True
        for fut in list(self._waiters):
            _wake(fut)
        if self._watcher is not None:
            self._watcher.cancel()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._writer, self._wconn.close)
        await loop.run_in_executor(self._reader, self._rconn.close)
        self._writer.shutdown(wait=False)
        self._reader.shutdown(wait=False)
