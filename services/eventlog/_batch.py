"""Group commit: appends made by concurrent tasks are coalesced into one store write.

With hundreds of boards publishing at once, many tasks append in the same instant. Writing them as
one transaction (SQLite) or one script call (Redis) keeps ``seq`` contiguous and in arrival order and
costs one round trip instead of one per entry.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

from services.eventlog._rows import Row
from services.eventlog.base import Entry

Write = Callable[[list[Row]], Awaitable[list[Entry]]]


class GroupCommit:
    """Serialises writes to one store; concurrent ``submit`` calls share a write.

    ``write(rows)`` must store ``rows`` atomically, in order, under consecutive ``seq`` values, and
    return their entries; it raises (EventLogError) having stored nothing. At most ``max_rows`` rows go
    into one write, except that one submission is never split (it stays atomic).
    """

    def __init__(self, write: Write, max_rows: int = 512):
        self._write = write
        self._max_rows = max_rows
        self._pending: deque[tuple[list[Row], asyncio.Future]] = deque()
        self._task: asyncio.Task | None = None

    async def submit(self, rows: list[Row]) -> list[Entry]:
        """Store ``rows`` (in order, contiguous seqs) and return their entries.

        Raises whatever the write raised (EventLogError when the store failed). If the caller is
        cancelled before its rows were taken, they are not written; after that, they may be.
        """
        fut = asyncio.get_running_loop().create_future()
        self._pending.append((rows, fut))
        if self._task is None:
            self._task = asyncio.create_task(self._drain(), name="eventlog-group-commit")
        return await fut

    async def flush(self) -> None:
        """Wait until every submission so far has been written or has failed."""
        while self._task is not None:
            await asyncio.shield(self._task)

    async def _drain(self) -> None:
        try:
            while self._pending:
                batch = self._take()
                if not batch:
                    continue
                rows = [row for rs, _ in batch for row in rs]
                try:
                    entries = await self._write(rows)
                except BaseException as exc:
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_exception(exc)
                    if isinstance(exc, asyncio.CancelledError):
                        raise
                    continue
                i = 0
                for rs, fut in batch:
                    if not fut.done():
                        fut.set_result(entries[i : i + len(rs)])
                    i += len(rs)
        finally:
            self._task = None

    def _take(self) -> list[tuple[list[Row], asyncio.Future]]:
        """The next batch: pending submissions (dropping cancelled ones) up to ``max_rows`` rows."""
        batch, n = [], 0
        while self._pending:
            rows, fut = self._pending[0]
            if fut.cancelled():
                self._pending.popleft()
                continue
            if batch and n + len(rows) > self._max_rows:
                break
            self._pending.popleft()
            batch.append((rows, fut))
            n += len(rows)
        return batch
