"""The event log: append-only, per tournament, the only source of truth (DESIGN.md, "Event log").

Entries are ``{seq, at, type, data}``: ``seq`` rises by one from 1 per tournament, ``at`` is the
gateway's time in milliseconds since the Unix epoch, ``type`` a word from docs/events.md, ``data`` a
JSON object. A backend is chosen by URL (``open_log``): ``memory://``, ``sqlite:///PATH``,
``redis://HOST:PORT/DB``. This package is the one part of ``services/`` that does I/O.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass


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
    """The store cannot be reached or refused a write; nothing was appended."""


class EventLog(ABC):
    """One tournament's log. All methods are coroutines; one instance may be shared by tasks."""

    tournament: str

    @abstractmethod
    async def append(self, type: str, data: dict, at: int | None = None) -> Entry:
        """Append one entry; returns it with its ``seq``. ``at`` defaults to now (ms)."""

    async def append_many(self, items: list[tuple[str, dict, int | None]]) -> list[Entry]:
        """Append several entries in order, atomically where the backend allows; returns them."""
        return [await self.append(t, d, a) for (t, d, a) in items]

    @abstractmethod
    async def read(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries with ``seq > after`` in order, at most ``limit``."""

    @abstractmethod
    async def last_seq(self) -> int:
        """The highest ``seq`` (0 when empty)."""

    @abstractmethod
    def follow(self, after: int = 0) -> AsyncIterator[Entry]:
        """Every entry with ``seq > after``, then each new one as it is appended, forever."""

    @abstractmethod
    async def close(self) -> None:
        """Release connections. Idempotent."""
