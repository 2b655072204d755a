"""When was a clock event made? The instant the clock model judges a device's clock message at
(docs/protocol.md "When a clock message was made"; docs/events.md, the clock entries' ``made_at``
and ``earliest_at``).

The gateway reads a message some time after the device sent it. On a live link that is a few ms
(p99 12.6 ms at 1,000 boards, docs/performance.md), well inside the clock tolerance (2 s by
default, docs/tournament-file.md ``clock_tolerance``): the read instant is the event's instant.
After an outage it is not: the broker queues a device's messages while the gateway is away (MQTT
3.1.1 3.1.2.4, field case F11) and delivers them all at once when it comes back, so a press made
5 s before it was read would be charged 5 s to the player and be a false ``clock_disagreement``.

The rule (``event_instant``), for a message read at ``read_ms`` that may have waited (read within
``BACKLOG_MS`` of the gateway's link coming up, or resent after a lost message), whose earliest
possible instant is ``earliest_ms`` (the previous clock event of its game: a device's messages are
sent in ``seq`` order):

- with the device's ``sent_at`` inside ``[earliest_ms - SENT_AT_SKEW_MS, read_ms + SENT_AT_SKEW_MS]``:
  the event was made at ``sent_at``, brought into ``[earliest_ms, read_ms]`` (a press is never judged
  after it was read, nor before the previous event);
- with no ``sent_at``, or one outside that range (the device's wall clock is wrong: a ``sent_at``
  an hour off is not trusted): the instant is unknown within ``[earliest_ms, read_ms]``; the clock
  model judges it at ``read_ms`` and reports only what no instant of the window explains
  (``services.regulations.clock_watch``).

A message that cannot have waited (the link has been up longer than ``BACKLOG_MS``) is judged at
its read instant, ``sent_at`` or not: the gateway cannot tell a device's wrong wall clock from a
late message there, and its own clock is the one the model runs on.

Pure: every instant is passed in (ms since the Unix epoch, the gateway's clock).
"""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timezone

BACKLOG_MS = 30_000
"""How long after the gateway's MQTT link comes up a message may still be one the broker queued
during the outage: the broker delivers the session's queue at once, at up to its in-flight window
per round trip, and the gateway drains it at ~0.5 ms a message (docs/performance.md), so a
1,000-board hall's queue of a few minutes' outage is read within seconds; 30 s leaves a loaded
machine room. A message read later is judged at its read instant."""

# RFC 3339 section 5.6 date-time ("T" or, as its note allows, a space), as gateway/payload.py checks it.
_RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})")

SENT_AT_SKEW_MS = 2_000
"""How far outside the window a device's ``sent_at`` may lie and still be believed (then brought
into the window): a device without a time server drifts by a second or two; further off, its wall
clock is wrong and ``sent_at`` says nothing about when the event was made."""


def rfc3339_ms(text: str | None) -> int | None:
    """The instant (ms since the Unix epoch) of an RFC 3339 date-time (section 5.6) as
    ``gateway.payload`` accepts it (``2024-04-04T14:00:00Z``, ``2024-04-04 16:00:00.250+02:00``; a
    leap second 60 read as 59.999); None for None or text that is not one. Fractions beyond ms are
    cut."""
    m = _RFC3339.fullmatch(text or "")
    if m is None:
        return None
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    fraction, offset = m.group(7), m.group(8)
    leap = second == 60
    try:
        moment = datetime(year, month, day, hour, minute, 59 if leap else second, tzinfo=timezone.utc)
    except ValueError:
        return None
    ms = calendar.timegm(moment.timetuple()) * 1000
    if leap:
        ms += 999
    elif fraction:
        ms += int((fraction[1:] + "00")[:3])
    if offset not in ("Z", "z"):
        sign = 1 if offset[0] == "+" else -1
        ms -= sign * (int(offset[1:3]) * 60 + int(offset[4:6])) * 60_000
    return ms


def may_have_waited(read_ms: int, link_since_ms: int | None) -> bool:
    """Whether a message read at ``read_ms`` may be one the broker queued while the gateway was
    away: read within ``BACKLOG_MS`` of the link coming up at ``link_since_ms`` (None: not known, a
    gateway driven without a link, e.g. the tests: every read is prompt)."""
    return link_since_ms is not None and read_ms - link_since_ms <= BACKLOG_MS


def event_instant(read_ms: int, earliest_ms: int, sent_ms: int | None,
                  skew_ms: int = SENT_AT_SKEW_MS) -> tuple[int, int]:
    """``(at_ms, earliest_ms)``: the instant the clock model takes for a message read at ``read_ms``
    that may have waited since ``earliest_ms`` (see the module), and the earliest instant it can
    have been made (``at_ms`` when it is known: a believed ``sent_ms``). ``earliest_ms`` after
    ``read_ms`` is taken as ``read_ms``. Never raises."""
    lo = min(earliest_ms, read_ms)
    if sent_ms is not None and lo - skew_ms <= sent_ms <= read_ms + skew_ms:
        at = min(max(sent_ms, lo), read_ms)
        return at, at
    return read_ms, lo
