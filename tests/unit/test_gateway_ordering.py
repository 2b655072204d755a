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
    # a late message from the hole is now a duplicate
    assert s.offer(K, 2, "b", 2200) == [(DUPLICATE, "b")]


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
