"""Checks shared by every backend: what may be appended, and which tournament slugs are accepted.

A backend turns ``(type, data, at)`` into a ``Row`` before it touches the store, so bad input is
refused with a clear ``ValueError`` and never half-written.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

from services.eventlog.base import Entry

# Slugs name MQTT topics (``venue/{t}/...``) and Redis keys (``venue:{t}:log``, a Cluster hash tag),
# so no '/', '+', '#', braces or spaces.
_SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


def check_tournament(slug: str) -> str:
    """Return ``slug`` if it is a usable tournament slug, else raise ValueError.

    Accepted: 1..128 characters of ``A-Z a-z 0-9 _ . -``, starting with a letter or digit.
    """
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
        raise ValueError(
            f"bad tournament slug {slug!r}: use 1-128 characters of letters, digits, '_', '.', '-'"
        )
    return slug


def now_ms() -> int:
    """The current time in milliseconds since the Unix epoch (the default ``at`` of an entry)."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class Row:
    """An entry not yet given its ``seq``: ``type`` (str), ``data`` as compact JSON text, ``at`` (ms)."""

    type: str
    data_json: str
    at: int

    def entry(self, seq: int) -> Entry:
        """The ``Entry`` this row becomes at ``seq``; ``data`` is a fresh dict decoded from the JSON."""
        return Entry(seq=seq, at=self.at, type=self.type, data=json.loads(self.data_json))


def make_row(type: str, data: dict, at: int | None = None) -> Row:
    """Check one entry's fields and encode its data.

    ``type``: non-empty str; ``data``: dict that JSON can encode (no NaN/Infinity); ``at``: int ms
    since the epoch (>= 0), or None for now. Raises ValueError naming the bad field.
    """
    if not isinstance(type, str) or not type:
        raise ValueError(f"entry type must be a non-empty string, got {type!r}")
    if not isinstance(data, dict):
        raise ValueError(f"entry data must be a dict, got {data.__class__.__name__}")
    if at is None:
        at = now_ms()
    elif isinstance(at, bool) or not isinstance(at, int) or at < 0:
        raise ValueError(f"entry 'at' must be an int of ms since the epoch, got {at!r}")
    try:
        data_json = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"entry data for {type!r} is not JSON: {exc}") from exc
    return Row(type=type, data_json=data_json, at=at)


def make_rows(items: list[tuple[str, dict, int | None]]) -> list[Row]:
    """``make_row`` over ``append_many``'s items; raises ValueError (naming the index) before any write."""
    rows = []
    for i, item in enumerate(items):
        try:
            type, data, at = item
        except (TypeError, ValueError) as exc:
            raise ValueError(f"item {i} must be (type, data, at), got {item!r}") from exc
        try:
            rows.append(make_row(type, data, at))
        except ValueError as exc:
            raise ValueError(f"item {i}: {exc}") from exc
    return rows
