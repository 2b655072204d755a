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


# --- per-board routing (/ws/live?boards=SPEC) ------------------------------------------------------

from dashboard.boardspec import parse  # noqa: E402


def test_a_board_client_gets_its_board_and_round_messages_only():
    hub = Hub(cap=64)
    three, page, everyone = hub.add(parse("3")), hub.add(parse("1-2,12a")), hub.add()
    hub.publish(1, "round", None, lambda boards: f"round for {boards.spec}")
    hub.publish(2, "b1", "1")
    hub.publish(3, "b3", "3")
    hub.publish(4, "b12a", "12a")
    hub.publish(5, "b30", "30")  # nobody follows board 30 but the all-boards client
    hub.publish(6, "alert")  # no board, no cut text: the same text to everyone
    assert three.take() == [(1, "round for 3"), (3, "b3"), (6, "alert")]
    assert page.take() == [(1, "round for 1,2,12a"), (2, "b1"), (4, "b12a"), (6, "alert")]
    assert everyone.take() == [(1, "round"), (2, "b1"), (3, "b3"), (4, "b12a"), (5, "b30"), (6, "alert")]
    assert hub.published == 6


def test_cut_text_is_made_once_per_selection():
    hub = Hub()
    calls = []
    clients = [hub.add(parse("3")) for _ in range(5)] + [hub.add(parse("1-2"))]

    def cut(boards):
        calls.append(boards.spec)
        return boards.spec

    hub.publish(1, "round", None, cut)
    assert sorted(calls) == ["1,2", "3"]
    assert [c.take() for c in clients] == [[(1, "3")]] * 5 + [[(1, "1,2")]]


def test_publish_touches_only_the_boards_followers():
    hub = Hub()
    others = [hub.add(parse(str(b))) for b in range(1, 1001)]
    mine = hub.add(parse("500"))
    offered = []
    for c in (*others, mine):
        c.offer = (lambda c: lambda seq, text: offered.append(c))(c)
    hub.publish(1, "m", "500")
    assert offered == [others[499], mine] or offered == [mine, others[499]]


def test_removing_a_board_client_forgets_its_boards():
    hub = Hub()
    a, b = hub.add(parse("1-3")), hub.add(parse("3"))
    hub.remove(a)
    hub.remove(a)
    assert set(hub.by_board) == {"3"} and hub.by_board["3"] == {b}
    hub.remove(b)
    assert hub.by_board == {} and hub.clients == set() and hub.everything == set()


def test_a_full_board_queue_goes_stale_and_others_do_not():
    hub = Hub(cap=4)
    slow, busy, quiet = hub.add(parse("3")), hub.add(), hub.add(parse("4"))
    for seq in range(1, 11):
        hub.publish(seq, "x", "3")
        busy.take()
    assert slow.stale and slow.dropped == 10 and slow.high_water == 4
    assert not busy.stale and not quiet.stale and quiet.take() == []
