"""The spectators' fan-out queues (dashboard.hub), field case F12: bounded per-client queues, a full
queue drops its backlog and marks the client for one coalesced snapshot; publishing never waits.
Source: ../shared/cases/field-cases.md F12."""

from __future__ import annotations

from dashboard.hub import Client, Hub


def test_publish_reaches_every_client_in_order():
    hub = Hub(cap=8)
    a, b = hub.add(), hub.add()
    for seq in range(1, 6):
        hub.publish(seq, f"m{seq}")
    assert a.take() == b.take() == [(s, f"m{s}") for s in range(1, 6)]
    assert a.take() == []


def test_a_full_queue_drops_its_backlog_and_goes_stale():
    hub = Hub(cap=4)
    slow, fast = hub.add(), hub.add()
    for seq in range(1, 501):
        hub.publish(seq, "x" * 2048)
        fast.take()
    assert slow.stale and slow.items == type(slow.items)()
    assert slow.high_water == 4 and slow.dropped == 500
    assert fast.dropped == 0 and not fast.stale


def test_removed_clients_get_nothing():
    hub = Hub()
    c = hub.add()
    hub.remove(c)
    hub.remove(c)
    hub.publish(1, "m")
    assert c.take() == [] and not c.wake.is_set()


def test_cap_must_be_positive():
    import pytest

    with pytest.raises(ValueError):
        Client(0)
