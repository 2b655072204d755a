"""The event log: append-only, per tournament, the only source of truth (DESIGN.md, "Event log").

Entries are ``{seq, at, type, data}``: ``seq`` rises by one from 1 per tournament, ``at`` is the
gateway's time in milliseconds since the Unix epoch, ``type`` a word from docs/events.md, ``data`` a
JSON object. A backend is chosen by URL (``open_log``): ``memory://``, ``sqlite:///PATH``,
``redis://HOST:PORT/DB``. This package is the one part of ``services/`` that does I/O.

Identity (issue 11). Two things make an acknowledged append trustworthy:

- **Batch identity.** Every ``append``/``append_many`` call is one batch with a ``batch_id`` (the
  caller's, or a fresh random one). The store records the batch id atomically with the entries, so a
  batch sent again with the same id (after a lost reply: a socket timeout after the store executed
  it, a cut connection) is not appended twice: the call returns the entries stored the first time.
  A batch id is remembered while the batch's first entry is among the tournament's last
  ``DEDUPE_WINDOW`` entries. Reusing a batch id for a batch of another length raises ValueError.
- **Log identity (epoch).** A log gets a random ``epoch`` atomically with its first entry
  (``await log.epoch()``; None while the log is empty). Each EventLog instance remembers the epoch
  and the highest ``seq`` it has seen, and every append, read and follow checks the store against
  them: a store whose epoch changed or vanished (Redis restarted without its AOF, keys deleted, a
  SQLite file swapped) or whose last ``seq`` went back (a restore from an older backup) raises
  ``LogReplaced`` instead of writing over it or silently skipping reused seqs. Appends may also pass
  ``expect_epoch`` and ``known_seq`` explicitly (a writer that learned them elsewhere); ``follow``
  accepts ``expect_epoch``. ``follow`` also checks that the entry it last yielded is still in the
  store unchanged, so a rollback that was then written past its position is caught too.

Text: every entry's ``type`` and ``data`` must encode as UTF-8 JSON (no lone surrogates, NaN or
Infinity, only JSON types). A batch with a bad entry raises ``BadEntryError`` (a ValueError) naming
the entry's index and type before anything is written; the caller can replace that one entry.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

# A batch id is remembered (appending it again returns the first entries) while the batch's first
# entry is among the last DEDUPE_WINDOW entries of the tournament. Only other writers' appends move
# the window while one writer retries a batch: 100,000 is over 30 s at a hall's peak (~3,000 entries/s,
# deploy/SCALE-OUT.md) and hours at a classical round's pace, for ~100 bytes per remembered batch.
DEDUPE_WINDOW = 100_000


@dataclass(frozen=True)
class Entry:
    """One log entry. ``seq``: int >= 1; ``at``: ms since the epoch; ``type``: str; ``data``: dict."""

    seq: int
    at: int
    type: str
    data: dict

    def to_json(self) -> dict:
        return {"seq": self.seq, "at": self.at, "type": self.type, "data": self.data}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))


class EventLogError(RuntimeError):
    """The store cannot be reached or refused a write; nothing was appended (for Redis, after its
    retries ran out the batch may have been stored: append it again with the same ``batch_id``)."""


class LogReplaced(EventLogError):
    """The store's log is not the one this reader or writer knew: its epoch changed or vanished, its
    last seq went back, or an entry already read changed. Nothing was appended.

    Attributes: ``expected_epoch`` / ``found_epoch`` (str or None), ``known_seq`` (the highest seq the
    caller had seen) and ``found_seq`` (the store's last seq, or None when not read). It is sticky:
    the instance keeps refusing until a new one is opened on purpose (an operator's decision).
    """

    def __init__(self, message: str, *, expected_epoch: str | None = None,
                 found_epoch: str | None = None, known_seq: int = 0, found_seq: int | None = None):
        super().__init__(message)
        self.expected_epoch = expected_epoch
        self.found_epoch = found_epoch
        self.known_seq = known_seq
        self.found_seq = found_seq


class BadEntryError(ValueError):
    """An entry cannot be stored (not UTF-8 JSON, bad type or ``at``); nothing of its batch was written.

    ``index``: the entry's position in the batch (0 for ``append``); ``type``: its type (may be
    whatever the caller passed); the message names both and the reason.
    """

    def __init__(self, message: str, *, index: int, type: object):
        super().__init__(message)
        self.index = index
        self.type = type


class EventLog(ABC):
    """One tournament's log. All methods are coroutines; one instance may be shared by tasks.

    Every method may raise ``LogReplaced`` (see the module docstring) besides what it lists.
    """

    tournament: str

    @abstractmethod
    async def append(self, type: str, data: dict, at: int | None = None, *,
                     batch_id: str | None = None, expect_epoch: str | None = None,
                     known_seq: int = 0) -> Entry:
        """Append one entry (a batch of one); returns it with its ``seq``. ``at`` defaults to now
        (ms). ``batch_id``, ``expect_epoch``, ``known_seq``: as for ``append_many``."""

    @abstractmethod
    async def append_many(self, items: Sequence[tuple[str, dict, int | None]], *,
                          batch_id: str | None = None, expect_epoch: str | None = None,
                          known_seq: int = 0) -> list[Entry]:
        """Append ``[(type, data, at), ...]`` atomically, in order, with contiguous seqs; returns them.

        ``batch_id`` (1-64 of ``A-Z a-z 0-9 _ . : -``; default a fresh random one): appending the
        same id again returns the entries stored the first time instead of appending again.
        ``expect_epoch``: refuse (``LogReplaced``) unless the log's epoch is this one;
        ``known_seq``: refuse unless the log holds at least this many entries. Raises
        ``BadEntryError`` (ValueError) for a bad entry before writing anything, ValueError for a bad
        ``batch_id`` or one reused for a batch of another length, EventLogError when the store fails.
        """

    @abstractmethod
    async def epoch(self) -> str | None:
        """The store's epoch of this log (a random id given with the first entry); None when the
        log is empty or was written before epochs existed (its next append gives it one)."""

    @abstractmethod
    async def read(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries with ``seq > after`` in order, at most ``limit``."""

    @abstractmethod
    async def last_seq(self) -> int:
        """The highest ``seq`` (0 when empty)."""

    @abstractmethod
    def follow(self, after: int = 0, *, expect_epoch: str | None = None,
               pace_s: float = 0.0, skip: Callable[[int], bool] | None = None) -> AsyncIterator[Entry]:
        """Every entry with ``seq > after``, then each new one as it is appended, forever.

        ``skip(seq)``: called for each entry in order before it is yielded; True means the caller
        has it already (the gateway's own appends) and it is passed over, not decoded (Redis) nor
        yielded; False (or not knowing yet) means it is yielded. The continuity checks below cover
        the skipped entries alike.

        ``pace_s``: a follower in no hurry (the gateway, which knows its own entries) asks the store
        at most once per ``pace_s`` seconds, so each read brings many entries rather than one (a
        store that serves recent entries from memory, the in-memory and SQLite ones, ignores it).

        Raises ``LogReplaced`` when the log is replaced or rolled back under it (including when the
        store holds fewer than ``after`` entries), when its epoch is not ``expect_epoch`` (if given)
        or not the one this instance knew.
        """

    def writer_lease(self, boards: str, owner: str):
        """The lease a gateway holds while it writes ``boards`` (a SPEC, or ``*`` for every board)
        of this log (``services.eventlog.writers``): a log only one process writes has nothing to
        lease (``NoLease``); the Redis log, which several gateway processes share, overrides it."""
        from services.eventlog.writers import NoLease

        return NoLease()

    @abstractmethod
    async def close(self) -> None:
        """Release connections. Idempotent."""
