"""The append front end every backend shares: check the entries, give the batch its identity, submit.

A backend implements ``_submit(sub)`` (store one ``Submission`` and return its entries) and
``_check_open()``; ``append`` and ``append_many`` are the same everywhere (base.py, "Identity").
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

from services.eventlog._batch import Submission
from services.eventlog._identity import Identity
from services.eventlog._rows import BatchIds, make_rows
from services.eventlog.base import Entry, EventLog


class AppendsBatches(EventLog):
    """``append``/``append_many`` over ``_submit``; the backend sets ``self._identity``."""

    _identity: Identity
    _batch_ids: BatchIds | None = None

    @abstractmethod
    async def _submit(self, sub: Submission) -> list[Entry]:
        """Store ``sub`` atomically and return its entries (base.py ``append_many``'s errors)."""

    @abstractmethod
    def _check_open(self) -> None:
        """Raise EventLogError when this log is closed."""

    async def append(self, type: str, data: dict, at: int | None = None, *,
                     batch_id: str | None = None, expect_epoch: str | None = None,
                     known_seq: int = 0) -> Entry:
        """Append one entry (a batch of one) and return it once stored; see ``append_many``."""
        entries = await self._append_items([(type, data, at)], batch_id, expect_epoch, known_seq)
        return entries[0]

    async def append_many(self, items: Sequence[tuple[str, dict, int | None]], *,
                          batch_id: str | None = None, expect_epoch: str | None = None,
                          known_seq: int = 0) -> list[Entry]:
        """Append ``[(type, data, at), ...]`` atomically, in order, contiguous seqs (base.py).

        ``BadEntryError`` (ValueError, naming the item's index and type) before anything is
        written; ValueError for a bad ``batch_id`` or ``known_seq``; LogReplaced; EventLogError.
        """
        return await self._append_items(items, batch_id, expect_epoch, known_seq)

    async def _append_items(self, items: Sequence[tuple[str, dict, int | None]], batch_id: str | None,
                            expect_epoch: str | None, known_seq: int) -> list[Entry]:
        rows = make_rows(items)
        if self._batch_ids is None:
            self._batch_ids = BatchIds()
        bid = self._batch_ids.take(batch_id)
        self._check_open()
        if not rows:
            return []
        epoch, known = self._identity.expectations(expect_epoch, known_seq)
        return await self._submit(Submission(rows, bid, epoch, known))
