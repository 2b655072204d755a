"""Checks shared by every backend: what may be appended, and which tournament slugs are accepted.

A backend turns ``(type, data, at)`` into a ``Row`` before it touches the store, so bad input is
refused with a clear ``ValueError`` (``BadEntryError`` naming the item) and never half-written: every
row's text is checked to be UTF-8 JSON here, since a store only finds out while writing (a lone
surrogate raised ``UnicodeEncodeError`` inside the Redis client, issue 11).
"""

from __future__ import annotations

import itertools
import json
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from services.eventlog.base import BadEntryError, Entry

_decode = msgspec.json.Decoder().decode

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
        """The ``Entry`` this row becomes at ``seq``; ``data`` is a fresh dict decoded from the JSON
        (by msgspec: a third of json.loads's time, and the same values for what ``make_row`` wrote,
        which has no NaN or infinity; every append returns its entries so)."""
        return Entry(seq=seq, at=self.at, type=self.type, data=_decode(self.data_json))


def _utf8(text: str, what: str) -> None:
    """ValueError unless ``text`` encodes as UTF-8 (a lone surrogate such as "\\ud800" does not)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start:exc.end].encode("unicode_escape").decode("ascii")
        raise ValueError(f"{what} is not valid UTF-8 text: {bad} at character {exc.start}") from None


def make_row(type: str, data: dict, at: int | None = None) -> Row:
    """Check one entry's fields and encode its data.

    ``type``: non-empty str; ``data``: dict that JSON can encode (no NaN/Infinity, only JSON types)
    as valid UTF-8 (no lone surrogates); ``at``: int ms since the epoch (>= 0), or None for now.
    Raises ValueError naming the bad field.
    """
    if not isinstance(type, str) or not type:
        raise ValueError(f"entry type must be a non-empty string, got {type!r}")
    _utf8(type, "entry type")
    if not isinstance(data, dict):
        raise ValueError(f"entry data must be a dict, got {data.__class__.__name__}")
    if at is None:
        at = now_ms()
    elif isinstance(at, bool) or not isinstance(at, int) or at < 0:
        raise ValueError(f"entry 'at' must be an int of ms since the epoch, got {at!r}")
    try:
        data_json = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"entry data is not JSON: {exc}") from exc
    _utf8(data_json, "entry data")
    return Row(type=type, data_json=data_json, at=at)


def make_rows(items: Sequence[tuple[str, dict, int | None]]) -> list[Row]:
    """``make_row`` over a batch's items; raises ``BadEntryError`` (a ValueError naming the item's
    index and type, with ``.index`` and ``.type``) before anything is written."""
    rows = []
    for i, item in enumerate(items):
        try:
            type, data, at = item
        except (TypeError, ValueError):
            raise BadEntryError(f"item {i} must be (type, data, at), got {item!r:.200}",
                                index=i, type=None) from None
        try:
            rows.append(make_row(type, data, at))
        except ValueError as exc:
            raise BadEntryError(f"item {i} ({_shown(type)}): {exc}", index=i, type=type) from exc
    return rows


def _shown(type: object) -> str:
    """The type as a message shows it: ASCII only, so the message itself is safe to log anywhere."""
    return ascii(type)[:80]


_BATCH_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


class BatchIds:
    """Fresh batch ids for one EventLog instance: a random prefix (uuid4, once) and a counter, so
    ids never repeat across instances or processes and cost no system call each (``os.urandom``
    took ~20 us a call under load, as much as the rest of an append)."""

    def __init__(self) -> None:
        self._prefix = uuid.uuid4().hex
        self._n = itertools.count(1)

    def take(self, given: str | None) -> str:
        """``given`` if it is a usable batch id (1-64 of ``A-Z a-z 0-9 _ . : -``), a fresh one
        (``{32 hex digits}.{n}``) for None; ValueError otherwise."""
        if given is None:
            return f"{self._prefix}.{next(self._n)}"
        if not isinstance(given, str) or not _BATCH_ID.fullmatch(given):
            raise ValueError(f"bad batch_id {given!r}: use 1-64 characters of letters, digits, '_.:-'")
        return given


def new_epoch() -> str:
    """A fresh log epoch: 32 random hex digits (uuid4), given to a log with its first entry."""
    return uuid.uuid4().hex
