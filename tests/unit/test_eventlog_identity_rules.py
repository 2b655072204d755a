"""The identity check every event log backend runs (services/eventlog/_identity.py; base.py, "Identity").

Expected behaviour, from base.py: a store whose epoch changed or vanished, or whose last seq went
below what the instance saw, is refused with LogReplaced, and the instance stays refused; a
refusal caused only by the caller's own ``expect_epoch`` is not remembered; replies to calls sent
concurrently may arrive out of order, so a check compares with what was known when its call was
sent (``snapshot``), not with what a later reply taught.
"""

from __future__ import annotations

import pytest

from services.eventlog._identity import Identity
from services.eventlog._rows import BatchIds
from services.eventlog.base import Entry, EventLogError, LogReplaced

EPOCH, OTHER = "a" * 32, "b" * 32


def test_the_first_epoch_seen_is_adopted_and_kept():
    identity = Identity("test")
    identity.check(None, 0)
    identity.check(EPOCH, 3)
    assert (identity.epoch, identity.seq) == (EPOCH, 3)
    identity.check(EPOCH, 5)
    assert identity.seq == 5


@pytest.mark.parametrize("found_epoch, found_seq, reason", [
    (OTHER, 9, "epoch changed"),
    (None, 0, "vanished"),
    (EPOCH, 4, "went back to seq 4"),
], ids=["replaced", "lost", "rolled-back"])
def test_a_store_that_is_not_the_log_seen_is_refused_for_good(found_epoch, found_seq, reason):
    identity = Identity("test")
    identity.check(EPOCH, 5)
    with pytest.raises(LogReplaced, match=reason) as refused:
        identity.check(found_epoch, found_seq)
    assert isinstance(refused.value, EventLogError)
    assert (refused.value.expected_epoch, refused.value.known_seq) == (EPOCH, 5)
    with pytest.raises(LogReplaced):  # sticky, even once the store looks right again
        identity.check(EPOCH, 5)
    with pytest.raises(LogReplaced):
        identity.expectations(None, 0)


def test_a_stale_reply_to_a_call_sent_before_a_write_is_not_a_rollback():
    """A read sent while the log was empty answers after a write taught the epoch and seq 6."""
    identity = Identity("test")
    before = identity.snapshot()
    identity.check(EPOCH, 6)  # the write's reply
    identity.check(None, 0, before=before)  # the read's stale reply
    assert (identity.epoch, identity.seq, identity.refused) == (EPOCH, 6, None)


def test_only_the_callers_expectation_failing_is_not_remembered():
    identity = Identity("test")
    identity.check(EPOCH, 2)
    with pytest.raises(LogReplaced, match="caller expects"):
        identity.check(EPOCH, 2, expect_epoch=OTHER)
    exc = identity.refusal(EPOCH, 2, EPOCH, 7)  # the caller had seen seq 7, this instance 2
    assert isinstance(exc, LogReplaced) and identity.refused is None
    assert identity.expectations(None, 0) == (EPOCH, 2)


def test_expectations_merge_the_callers_and_the_instances():
    identity = Identity("test")
    identity.check(EPOCH, 4)
    assert identity.expectations(None, 9) == (EPOCH, 9)
    assert identity.expectations(EPOCH, 1) == (EPOCH, 4)
    with pytest.raises(LogReplaced):
        identity.expectations(OTHER, 0)
    for bad in (-1, True, "3"):
        with pytest.raises(ValueError, match="known_seq"):
            identity.expectations(None, bad)
    with pytest.raises(ValueError, match="expect_epoch"):
        identity.expectations("two words", 0)


def test_a_follower_notices_the_entry_it_handed_out_changed():
    identity = Identity("test")
    last = Entry(6, 1_700_000_000_000, "move_played", {"ply": 5})
    identity.check_entry(last, Entry(6, 1_700_000_000_000, "move_played", {"ply": 5}), EPOCH)
    with pytest.raises(LogReplaced, match="entry 6 was read before"):
        identity.check_entry(last, Entry(6, 1_700_000_009_000, "move_played", {"ply": 200}), EPOCH)


def test_generated_batch_ids_never_repeat_and_given_ones_are_checked():
    a, b = BatchIds(), BatchIds()
    ids = [a.take(None) for _ in range(1000)] + [b.take(None) for _ in range(1000)]
    assert len(set(ids)) == 2000
    assert a.take("gw-17") == "gw-17"
    for bad in ("", "has space", "x" * 65, 5):
        with pytest.raises(ValueError, match="batch_id"):
            a.take(bad)
