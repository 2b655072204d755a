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

Identity (base.py, "Identity"). Table ``log_epochs(tournament, epoch)`` holds each log's epoch,
written in the transaction of its first entry; table ``batches(tournament, batch_id, first_seq,
count)`` the batch ids of the last ``DEDUPE_WINDOW`` entries, written in the transaction of their
entries (older rows are deleted as the log grows). Both tables are created in files written before
them; such a log takes an epoch with its next append. Every write checks, inside its transaction,
the epoch and last seq against the batch's expectations; every read checks them too, in one read
transaction with the entries. The file itself is identified by its device and inode: when the path
names another file than the one opened (a backup copied or moved over it), every call raises
LogReplaced, since this instance's connections still point at the old file. Restore a log in place
with ``sqlite3 log.sqlite ".restore backup.sqlite"`` (the readers and writers then see the rollback:
LogReplaced), never by copying or moving a file over a live one: SQLite then keeps the old log's
``-wal`` beside the new file (measured: closing the old connections leaves it), and the next process
to open the path reads the old log's pages over the new file. If a file was swapped anyway, stop
every venue process and delete ``PATH-wal`` and ``PATH-shm`` before starting one.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from services.eventlog._appends import AppendsBatches
from services.eventlog._batch import GroupCommit, Outcome, Submission
from services.eventlog._identity import Identity
from services.eventlog._rows import check_tournament, new_epoch
from services.eventlog.base import DEDUPE_WINDOW, Entry, EventLogError, LogReplaced

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    tournament TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (tournament, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS log_epochs (
    tournament TEXT NOT NULL PRIMARY KEY,
    epoch TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS batches (
    tournament TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (tournament, batch_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS batches_by_seq ON batches (tournament, first_seq);
"""
_SYNCHRONOUS = {"normal": "NORMAL", "full": "FULL"}
_RECENT = 4096  # entries written here that followers are served from memory
_PAGE = 1000  # entries per read while following
_BUSY_MS = 10_000  # how long a write waits for another process's write lock
_FULL_POLL_S = 0.05  # a follower reads at least this often even when the files look unchanged


_REFUSED = "refused"  # a submission whose expectations the store did not meet (see _insert)
_AGAIN = "again"  # a submission whose batch id the log already holds


def _wake(fut: asyncio.Future) -> None:
    if not fut.done():
        fut.set_result(None)


class SqliteLog(AppendsBatches):
    """One tournament's log in the SQLite file at ``path``.

    ``synchronous``: ``"normal"`` (default; survives kill -9) or ``"full"`` (survives power loss);
    ``poll_ms``: how often followers look for other processes' appends (default 5 ms).
    Raises EventLogError at construction when the file cannot be opened or created (for instance its
    directory is missing or not writable), and from any method when the store fails; ValueError for
    a bad slug, option or entry; LogReplaced when the file or its log is not the one opened.
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
        self._file = self._file_id()  # the file both connections opened
        self._identity = Identity(f"{self.path} ({tournament})")
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
        makes the tables. On failure closes ``other`` too and raises EventLogError."""
        conn = None
        try:
            conn = sqlite3.connect(self.path, timeout=_BUSY_MS / 1000, isolation_level=None,
                                   check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout={_BUSY_MS}")
            if create:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(_SCHEMA)
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

    def _file_id(self) -> tuple[int, int] | None:
        """(device, inode) of the file at ``path`` now; None when there is none."""
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def _check_file(self) -> None:
        """LogReplaced when ``path`` no longer names the file this instance opened."""
        if self._file_id() != self._file:
            self._identity.refuse(f"{self.path} is no longer the file opened (moved, deleted or "
                                  "replaced by another)", None, None)

    # -- writing -----------------------------------------------------------------------------

    def _head(self, conn: sqlite3.Connection) -> tuple[str | None, int]:
        """(epoch, last seq) of this tournament's log, read on ``conn``."""
        row = conn.execute("SELECT epoch FROM log_epochs WHERE tournament = ?",
                           (self.tournament,)).fetchone()
        (last,) = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE tournament = ?",
                               (self.tournament,)).fetchone()
        return (row[0] if row else None), last

    def _rows(self, conn: sqlite3.Connection, after: int, limit: int) -> list[Entry]:
        cur = conn.execute(
            "SELECT seq, at, type, data FROM entries WHERE tournament = ? AND seq > ?"
            " ORDER BY seq LIMIT ?", (self.tournament, after, limit))
        return [Entry(seq=s, at=a, type=t, data=json.loads(d)) for s, a, t, d in cur]

    def _stored_batches(self, conn: sqlite3.Connection, ids: list[str]) -> dict[str, tuple[int, int]]:
        """``batch_id -> (first seq, count)`` of those of ``ids`` this log already holds."""
        marks = ",".join("?" * len(ids))
        cur = conn.execute(f"SELECT batch_id, first_seq, count FROM batches WHERE tournament = ?"
                           f" AND batch_id IN ({marks})", (self.tournament, *ids))
        return {b: (first, count) for b, first, count in cur}

    def _insert(self, subs: list[Submission]) -> tuple[list, str | None, int]:
        """In the writer thread: store the submissions in one transaction. Returns, per submission,
        its entries, a ValueError (batch id reused for another length) or ``(_REFUSED, epoch,
        last)`` (the store's state that failed its expectations); then the epoch and last seq."""
        conn = self._wconn
        self._check_file()
        t = self.tournament
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                epoch, last = self._head(conn)
                done = self._stored_batches(conn, [sub.batch_id for sub in subs])
                out: list = []
                entries: list[tuple] = []
                batches: list[tuple] = []
                for sub in subs:
                    if (sub.expect_epoch is not None and sub.expect_epoch != epoch) or last < sub.known_seq:
                        out.append((_REFUSED, epoch, last))
                        continue
                    if (stored := done.get(sub.batch_id)) is not None:
                        first, count = stored
                        out.append((_AGAIN, first, count) if count == len(sub.rows) else
                                   ValueError(f"batch_id {sub.batch_id!r} was used for {count} "
                                              f"entries, not {len(sub.rows)}"))
                        continue
                    if epoch is None:
                        epoch = new_epoch()
                        conn.execute("INSERT INTO log_epochs (tournament, epoch) VALUES (?, ?)", (t, epoch))
                    entries += [(t, last + 1 + i, r.at, r.type, r.data_json) for i, r in enumerate(sub.rows)]
                    batches.append((t, sub.batch_id, last + 1, len(sub.rows)))
                    done[sub.batch_id] = (last + 1, len(sub.rows))
                    out.append([row.entry(last + 1 + i) for i, row in enumerate(sub.rows)])
                    last += len(sub.rows)
                conn.executemany("INSERT INTO entries (tournament, seq, at, type, data)"
                                 " VALUES (?, ?, ?, ?, ?)", entries)
                conn.executemany("INSERT INTO batches (tournament, batch_id, first_seq, count)"
                                 " VALUES (?, ?, ?, ?)", batches)
                out = [self._rows(conn, o[1] - 1, o[2]) if isinstance(o, tuple) and o[0] == _AGAIN
                       else o for o in out]
                conn.execute("DELETE FROM batches WHERE tournament = ? AND first_seq <= ?",
                             (t, last - DEDUPE_WINDOW))
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise EventLogError(f"cannot append to SQLite event log {self.path!r}: {exc}") from exc
        self._check_file()  # committed to a file that was swapped meanwhile: not acknowledged
        return out, epoch, last

    async def _write(self, subs: list[Submission]) -> list[Outcome]:
        loop = asyncio.get_running_loop()
        before = self._identity.snapshot()
        out, epoch, last = await loop.run_in_executor(self._writer, self._insert, subs)
        outcomes: list[Outcome] = []
        for sub, o in zip(subs, out, strict=True):
            if isinstance(o, tuple):
                _, found_epoch, found_last = o
                o = self._identity.refusal(found_epoch, found_last, sub.expect_epoch, sub.known_seq)
            outcomes.append(o)
        try:
            self._identity.check(epoch, last, before=before)
        except LogReplaced as exc:
            return [exc] * len(subs)
        for o in outcomes:
            if isinstance(o, list):
                for e in o:
                    self._recent[e.seq] = e
        while len(self._recent) > _RECENT:
            del self._recent[next(iter(self._recent))]
        self._generation += 1
        for fut in list(self._waiters):
            _wake(fut)
        return outcomes

    async def _submit(self, sub: Submission) -> list[Entry]:
        return await self._commit.submit(sub)

    # -- reading -----------------------------------------------------------------------------

    def _select(self, after: int, limit: int | None) -> tuple[str | None, int, list[Entry], Entry | None]:
        """In the reader thread, one read transaction: (epoch, last seq, entries with ``seq >
        after`` (at most ``limit``), the entry at ``after`` or None)."""
        self._check_file()
        conn = self._rconn
        try:
            conn.execute("BEGIN")
            try:
                epoch, last = self._head(conn)
                entries = self._rows(conn, after, -1 if limit is None else limit) if limit != 0 else []
                at = self._rows(conn, after - 1, 1) if after > 0 else []
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise EventLogError(f"cannot read SQLite event log {self.path!r}: {exc}") from exc
        return epoch, last, entries, (at[0] if at and at[0].seq == after else None)

    async def _read_checked(self, after: int, limit: int | None, expect_epoch: str | None = None
                            ) -> tuple[str | None, int, list[Entry], Entry | None]:
        """``_select`` with the identity check (LogReplaced when the log is not the one known)."""
        loop = asyncio.get_running_loop()
        before = self._identity.snapshot()
        epoch, last, entries, at = await loop.run_in_executor(self._reader, self._select, after, limit)
        self._identity.check(epoch, last, expect_epoch, before)
        return epoch, last, entries, at

    async def _follow_check(self, cursor: int, last: Entry | None, expect_epoch: str | None,
                            limit: int) -> tuple[str | None, int, list[Entry], Entry | None]:
        """A follower's read of up to ``limit`` entries after ``cursor``, checked: the identity,
        an entry at ``cursor`` (when > 0), and that it is ``last`` (the one handed out, if any)."""
        epoch, stored, batch, at = await self._read_checked(cursor, limit, expect_epoch)
        if cursor and at is None:
            self._identity.refuse(f"a follower after seq {cursor} finds {stored} entries", epoch, stored)
        if last is not None:
            self._identity.check_entry(last, at, epoch)
        return epoch, stored, batch, at

    async def epoch(self) -> str | None:
        """The log's epoch in the file; None while the log is empty."""
        self._check_open()
        loop = asyncio.get_running_loop()
        epoch, _, _, _ = await loop.run_in_executor(self._reader, self._select, 0, 0)
        return epoch

    async def read(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries with ``seq > after`` in order, at most ``limit`` (None: all)."""
        self._check_open()
        if limit is not None and limit <= 0:
            return []
        _, _, entries, _ = await self._read_checked(max(after, 0), limit)
        return entries

    async def last_seq(self) -> int:
        """The highest seq, 0 when empty."""
        self._check_open()
        _, last, _, _ = await self._read_checked(0, 0)
        return last

    def _signature(self) -> tuple[int, ...]:
        """(mtime_ns, size) of the database file and its WAL, and the file's inode: they move when
        any process commits (or the file is replaced).

        A cheap stat on the event loop; a full read every ``_FULL_POLL_S`` covers the rare commit
        that leaves both unchanged (same size, same mtime tick after a WAL reset).
        """
        sig: list[int] = []
        for p in (self.path, self.path + "-wal"):
            try:
                st = os.stat(p)
                sig += (st.st_mtime_ns, st.st_size, st.st_ino)
            except OSError:
                sig += (0, 0, 0)
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

    async def follow(self, after: int = 0, *, expect_epoch: str | None = None,
                     pace_s: float = 0.0, skip: Callable[[int], bool] | None = None) -> AsyncIterator[Entry]:
        """Every entry with ``seq > after``, then each new one; ends when this log is closed.

        This instance's appends arrive at once (served from memory when recent); other processes'
        within ``poll_ms`` (one stat of the files per instance; a full read at least every 50 ms).
        Each read from the file checks the epoch, the last seq and that the entry last yielded is
        still there: LogReplaced otherwise. Raises EventLogError if the store fails.
        """
        self._check_open()
        cursor = max(after, 0)
        last: Entry | None = None
        _, _, _, last = await self._follow_check(cursor, None, expect_epoch, 0)
        while not self._closed:
            while (e := self._recent.get(cursor + 1)) is not None:
                cursor, last = cursor + 1, e
                if skip is None or not skip(cursor):
                    yield e
            if self._closed:
                return
            # noted before the read, so a commit landing after the read is still noticed
            generation, sig = self._generation, self._signature()
            _, _, batch, _ = await self._follow_check(cursor, last, expect_epoch, _PAGE)
            for e in batch:
                cursor, last = e.seq, e
                self._identity.saw(e.seq)
                if skip is None or not skip(e.seq):
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
