"""When a clock message was made (``services.clock.instant``): the device's ``sent_at`` read as RFC
3339 (docs/protocol.md: "an RFC 3339 date-time (section 5.6: ``2024-04-04T14:00:00Z``,
``2024-04-04T16:00:00.250+02:00``; ``T`` or a space between date and time; the offset is
required)"), and the window a message that may have waited in the broker's queue lies in."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from services.clock.instant import BACKLOG_MS, SENT_AT_SKEW_MS, event_instant, may_have_waited, rfc3339_ms

APRIL_4_14H = int(datetime(2024, 4, 4, 14, tzinfo=timezone.utc).timestamp()) * 1000  # the protocol's example


@pytest.mark.parametrize("text, ms", [
    ("2024-04-04T14:00:00Z", APRIL_4_14H),
    ("2024-04-04T16:00:00.250+02:00", APRIL_4_14H + 250),  # docs/protocol.md's two examples: 2 h east
    ("2024-04-04 14:00:00z", APRIL_4_14H),
    ("2024-04-04T09:30:00.123456789-04:30", APRIL_4_14H + 123),  # fractions beyond ms are cut
    ("2016-12-31T23:59:60Z", int(datetime(2017, 1, 1, tzinfo=timezone.utc).timestamp()) * 1000 - 1),  # RFC 3339 5.7's leap second
])
def test_sent_at_is_read_as_the_instant_it_names(text, ms):
    assert rfc3339_ms(text) == ms


@pytest.mark.parametrize("text", [None, "", "yesterday", "2024-04-04T14:00:00", "2024-02-30T14:00:00Z"])
def test_what_is_not_an_rfc3339_date_time_names_no_instant(text):
    assert rfc3339_ms(text) is None


def test_only_a_message_read_soon_after_the_link_came_up_may_have_waited():
    assert may_have_waited(1_000 + BACKLOG_MS, 1_000)
    assert not may_have_waited(1_001 + BACKLOG_MS, 1_000)
    assert not may_have_waited(5_000, None)  # no link known: a driven hall, every read prompt


def test_a_believed_sent_at_is_the_instant_never_after_the_read_nor_before_the_previous_event():
    # read at 60 s, the game's previous clock event at 10 s
    assert event_instant(60_000, 10_000, 30_000) == (30_000, 30_000)
    assert event_instant(60_000, 10_000, 61_500) == (60_000, 60_000)  # a wall clock 1.5 s fast
    assert event_instant(60_000, 10_000, 9_000) == (10_000, 10_000)   # or slow
    assert event_instant(60_000, 60_000, 60_000 - SENT_AT_SKEW_MS) == (60_000, 60_000)


def test_a_sent_at_far_off_or_none_leaves_the_window_open():
    assert event_instant(60_000, 10_000, None) == (60_000, 10_000)
    assert event_instant(60_000, 10_000, 60_000 + SENT_AT_SKEW_MS + 1) == (60_000, 10_000)
    assert event_instant(60_000, 10_000, 10_000 - 3_600_000) == (60_000, 10_000)  # an hour slow
    assert event_instant(60_000, 90_000, None) == (60_000, 60_000)  # nothing before the read
