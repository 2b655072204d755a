"""gateway.ordering: each device's messages exactly once and in order by seq (DESIGN.md, device protocol)."""

from __future__ import annotations

from gateway.ordering import APPLY, DUPLICATE, GAP, HOLD, Sequencer

K = ("1", "board")


def applied(actions):
    return [item for action, item in actions if action == APPLY]


def test_in_order():
    s = Sequencer()
    assert applied(s.offer(K, 1, "a", 0)) == ["a"]
    assert applied(s.offer(K, 2, "b", 0)) == ["b"]


def test_duplicate_is_ignored():
    """QoS 1 redelivery: acknowledged and ignored."""
    s = Sequencer()
    s.offer(K, 1, "a", 0)
    assert s.offer(K, 1, "a again", 5) == [(DUPLICATE, "a again")]


def test_out_of_order_is_put_back_in_order():
    s = Sequencer()
    s.offer(K, 1, "a", 0)
    assert s.offer(K, 3, "c", 10) == [(HOLD, (K, 2, 3))]
    assert s.offer(K, 3, "c twice", 11) == [(DUPLICATE, "c twice")]
    assert applied(s.offer(K, 2, "b", 20)) == ["b", "c"]
    assert s.waiting_count() == 0


def test_gap_reported_after_hold_then_applied():
    s = Sequencer(hold_ms=2000, ask_every_ms=1000)
    s.offer(K, 1, "a", 0)
    assert s.offer(K, 4, "d", 100) == [(HOLD, (K, 2, 4))]
    assert s.offer(K, 5, "e", 150) == []  # one resend request per hole...
    assert s.expire(1000) == []
    assert s.expire(1100) == [(HOLD, (K, 2, 4))]  # ...asked again while the hole stays open
    assert s.expire(2000) == []
    actions = s.expire(2100)
    assert actions[0] == (GAP, (K, 2, 4))
    assert applied(actions) == ["d", "e"]
    # a late message from the hole was never applied: it is applied now, once (not lost as a
    # "duplicate"); its redelivery is the duplicate
    assert s.offer(K, 2, "b", 2200) == [(APPLY, "b")]
    assert s.offer(K, 2, "b", 2300) == [(DUPLICATE, "b")]


def test_devices_and_boards_are_independent():
    s = Sequencer()
    s.offer(("1", "board"), 1, "a", 0)
    assert applied(s.offer(("1", "clock"), 1, "c", 0)) == ["c"]
    assert applied(s.offer(("2", "board"), 1, "x", 0)) == ["x"]


def test_mark_from_replay_and_reset():
    s = Sequencer()
    s.mark(K, 7)
    assert s.offer(K, 7, "old", 0) == [(DUPLICATE, "old")]
    assert applied(s.offer(K, 8, "new", 0)) == ["new"]
    s.reset("1")
    assert applied(s.offer(K, 1, "next round", 0)) == ["next round"]


def test_a_jumped_seq_does_not_turn_the_real_messages_into_duplicates():
    # A stray message with seq 500 (after 37) opens a hole 38..499; when the hold expires the gap is
    # recorded and 500 applied. The device's real 38, 39 were never applied: late, not duplicates
    # (DESIGN.md: "applies each message exactly once").
    from gateway.ordering import APPLY, DUPLICATE, GAP, Sequencer

    s = Sequencer(hold_ms=5000)
    key = ("1", "board")
    for n in range(1, 38):
        s.offer(key, n, n, 0)
    s.offer(key, 500, "stray", 0)
    acts = s.expire(6000)
    assert acts[0] == (GAP, (key, 38, 500)) and acts[1] == (APPLY, "stray")
    assert s.offer(key, 38, "m38", 7000) == [(APPLY, "m38")]
    assert s.offer(key, 39, "m39", 7001) == [(APPLY, "m39")]
    assert s.offer(key, 38, "m38", 7002) == [(DUPLICATE, "m38")]  # a redelivery stays a duplicate
    s2 = Sequencer()
    s2.skip(key, 38, 500)  # the same after a restart, from the seq_gap entry
    s2.mark(key, 38)
    assert s2.offer(key, 38, "again", 0) == [(DUPLICATE, "again")]
    assert s2.offer(key, 40, "m40", 0) == [(APPLY, "m40")]
