"""Group commit: appends made by concurrent tasks are coalesced into one store write.

With hundreds of boards publishing at once, many tasks append in the same instant. Writing them as
one transaction (SQLite) or one script call (Redis) keeps ``seq`` contiguous and in arrival order and
costs one round trip instead of one per entry.

Each submission keeps its own identity inside the shared write (base.py, "Identity"): its
``batch_id`` (a store that already holds that batch returns the first entries instead of appending
again) and its expectations (``expect_epoch``, ``known_seq``). A store checks them submission by
submission, so one refused or repeated submission neither fails nor doubles the others in its write.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from services.eventlog._rows import Row
from services.eventlog.base import Entry


@dataclass(frozen=True)
class Submission:
    """One ``append``/``append_many`` call: its rows (non-empty), batch id and what the store must
    hold for it to be written: epoch ``expect_epoch`` (None: any) and at least ``known_seq`` entries."""

    rows: list[Row]
    batch_id: str
    expect_epoch: str | None = None
    known_seq: int = 0


# A write's outcome per submission, in order: its entries, or the exception its caller gets.
Outcome = list[Entry] | BaseException
Write = Callable[[list[Submission]], Awaitable[list[Outcome]]]


class GroupCommit:
    """Serialises writes to one store; concurrent ``submit`` calls share a write.

    ``write(subs)`` must store each submission atomically (all its rows or none), in order, under
    consecutive ``seq`` values, and return one outcome per submission; it raises (EventLogError)
    having stored nothing, or (Redis, retries exhausted) possibly having stored some submissions,
    which their batch ids then make safe to submit again. At most ``max_rows`` rows go into one write,
    except that one submission is never split (it stays atomic).
    """

    def __init__(self, write: Write, max_rows: int = 512):
        self._write = write
        self._max_rows = max_rows
        self._pending: deque[tuple[Submission, asyncio.Future]] = deque()
        self._task: asyncio.Task | None = None

    async def submit(self, sub: Submission) -> list[Entry]:
        """Store ``sub`` (in order, contiguous seqs) and return its entries.

        Raises what the write raised for the whole write or for this submission (EventLogError when
        the store failed, LogReplaced, ValueError). If the caller is cancelled before its rows were
        taken, they are not written; after that, they may be.
        """
        fut = asyncio.get_running_loop().create_future()
        self._pending.append((sub, fut))
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
                try:
                    outcomes = await self._write([sub for sub, _ in batch])
                except BaseException as exc:
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_exception(exc)
                    if isinstance(exc, asyncio.CancelledError):
                        raise
                    continue
                for (_, fut), outcome in zip(batch, outcomes, strict=True):
                    if fut.done():
                        continue
                    if isinstance(outcome, BaseException):
                        fut.set_exception(outcome)
                    else:
                        fut.set_result(outcome)
        finally:
            self._task = None

    def _take(self) -> list[tuple[Submission, asyncio.Future]]:
        """The next batch: pending submissions (dropping cancelled ones) up to ``max_rows`` rows."""
        batch: list[tuple[Submission, asyncio.Future]] = []
        n = 0
        while self._pending:
            sub, fut = self._pending[0]
            if fut.cancelled():
                self._pending.popleft()
                continue
            if batch and n + len(sub.rows) > self._max_rows:
                break
            self._pending.popleft()
            batch.append((sub, fut))
            n += len(sub.rows)
        return batch
