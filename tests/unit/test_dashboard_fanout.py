"""The spectators' hub in grouped mode (dashboard.hub ``Hub(group_s=...)``; issue 15 "Spectators at
scale"): each selection's deltas gathered per tick into one shared frame, with what spectators rely on
kept (docs/spectators.md): order per board, ``boards=SPEC``, resume from a seq without a repeat, a
slow spectator queued (then a snapshot) without holding the others (field case F12,
../shared/cases/field-cases.md), and a snapshot plus the deltas ending equal to the live state.
Ticks are driven by hand (an injected ``later`` and ``timer``), never slept.
Data: round 5 of the FIDE Candidates 2024, ../shared/data/chess/fide_candidates_2024_open.pgn."""

from __future__ import annotations

import copy
import json

import pytest

from dashboard.boardspec import parse
from dashboard.feed import Feed
from dashboard.hub import GROUP_FACTOR, Hub
from replay_entries import game_entries, round_started
from services.eventlog.base import Entry


class Ticks:
    """Manual scheduling: ``later(delay, fn)`` records the flush; ``run()`` fires what is scheduled,
    the clock first moved on to the instant it was due (as a loop's ``call_later`` would)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.due: list[tuple[float, object]] = []
        self._at: list[float] = []

    def later(self, delay: float, fn) -> None:
        self.due.append((delay, fn))
        self._at.append(self.now + delay)

    def timer(self) -> float:
        return self.now

    def run(self) -> None:
        due, self.due = self.due, []
        at, self._at = self._at, []
        for when, (_, fn) in zip(at, due):
            self.now = max(self.now, when)
            fn()


def unframe(data: bytes) -> list[dict]:
    """The messages of one unmasked server text frame (RFC 6455 5.2): one message or an array."""
    assert data[0] == 0x81  # FIN + text
    n, at = data[1] & 0x7F, 2
    if n == 126:
        n, at = int.from_bytes(data[2:4], "big"), 4
    elif n == 127:
        n, at = int.from_bytes(data[2:10], "big"), 10
    assert len(data) == at + n
    body = json.loads(data[at:])
    return body if isinstance(body, list) else [body]


class Socket:
    """A connection's ``direct`` writer: records each frame; ``full`` makes it refuse (a slow reader)."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.full = False

    def __call__(self, data: bytes) -> bool:
        if self.full:
            return False
        self.frames.append(data)
        return True

    def messages(self) -> list[dict]:
        return [m for f in self.frames for m in unframe(f)]


def idle_client(hub: Hub, spec: str | None = None):
    c = hub.add(parse(spec) if spec else None)
    c.direct = Socket()
    c.idle = True  # as ws_feed.write_feed sets it while it waits with nothing queued
    return c


def grouped(ticks: Ticks, cap: int = 4096) -> Hub:
    return Hub(cap, group_s=0.02, later=ticks.later, timer=ticks.timer)


def delta(seq: int, board: str) -> str:
    return json.dumps({"type": "game", "seq": seq, "id": f"g{board}", "board": board})


def test_one_frame_per_selection_and_tick_in_order():
    ticks = Ticks()
    hub = grouped(ticks)
    page = [idle_client(hub, "1-2") for _ in range(3)]
    three = idle_client(hub, "3")
    for seq, board in enumerate(["1", "3", "2", "1", "3", "2", "1"], start=1):
        hub.publish(seq, delta(seq, board), board)
    assert all(not c.direct.frames for c in page)  # gathered until the tick
    ticks.run()
    assert hub.frames == 2 and hub.writes == 4
    assert page[0].direct.frames[0] is page[1].direct.frames[0]  # framed once, shared
    assert [m["seq"] for m in page[0].direct.messages()] == [1, 3, 4, 6, 7]
    assert [m["seq"] for m in three.direct.messages()] == [2, 5]
    assert all(len(c.direct.frames) == 1 for c in (*page, three))


def test_a_lone_message_goes_as_itself_and_at_once_after_a_quiet_spell():
    ticks = Ticks()
    hub = grouped(ticks)
    c = idle_client(hub)
    hub.publish(1, delta(1, "1"), "1")
    assert ticks.due[0][0] == 0.0  # nothing flushed lately: no wait
    ticks.run()
    assert json.loads(c.direct.frames[0][2:]) == {"type": "game", "seq": 1, "id": "g1", "board": "1"}


def test_the_tick_grows_with_the_flush_cost_up_to_the_cap():
    ticks = Ticks()
    hub = grouped(ticks)
    idle_client(hub)
    write = hub._flush_group
    cost = [0.0]

    def costly(g) -> None:  # writing the frames takes ``cost`` seconds of the injected clock
        write(g)
        ticks.now += cost[0]

    hub._flush_group = costly
    waits = []
    for seq, c in enumerate((0.001, 0.1, 0.5), start=1):
        cost[0] = c
        hub.publish(seq, delta(seq, "1"), "1")
        ticks.run()  # the flush ends now
        hub.publish(seq, delta(seq, "1"), "1")
        waits.append(ticks.due[-1][0])  # how long the next one waits
        ticks.now += waits[-1]
        ticks.run()
    # cheap: the floor (group_s); 100 ms of writes: GROUP_FACTOR x as long; never above max_group_s
    assert waits == pytest.approx([0.02, GROUP_FACTOR * 0.1, hub.max_group_s])


def test_slices_serve_the_groups_oldest_first_and_a_served_group_waits_its_turn():
    # issue 15: a delta waits for its own group's turn (one pass over the groups), not for a whole
    # flush to end and the next to reach it; each group's write here costs 4 ms of the injected clock
    ticks = Ticks()
    hub = grouped(ticks)
    pages = {spec: idle_client(hub, spec) for spec in ("1-50", "51-100", "101-150", "151-200")}
    order = []
    write = hub._flush_group

    def costly(g) -> None:
        write(g)
        order.append(g.boards.spec)
        ticks.now += 0.004

    hub._flush_group = costly
    for seq, board in enumerate(["60", "1", "160", "110"], start=1):  # pages dirtied in this order
        hub.publish(seq, delta(seq, board), board)
    ticks.run()  # 4 ms, 8 ms, 12 ms >= SLICE_S (10 ms): the slice stops after three groups
    assert order == ["51-100", "1-50", "151-200"] and hub.flushes == 1
    hub.publish(5, delta(5, "61"), "61")  # page 51-100 again: behind page 101-150, which still waits
    assert ticks.due[-1][0] == pytest.approx(GROUP_FACTOR * 0.012)  # the loop's pause after the slice
    ticks.run()
    assert order[3:] == ["101-150"]  # 51-100 was framed 18 ms ago: it waits for GROUP_S (20 ms)
    ticks.run()
    # its slice began GROUP_S after its last frame went out (4 ms), and took its 4 ms
    assert order[3:] == ["101-150", "51-100"] and ticks.now == pytest.approx(0.004 + hub.group_s + 0.004)
    assert [m["seq"] for m in pages["51-100"].direct.messages()] == [1, 5]
    assert all(len(c.direct.frames) >= 1 for c in pages.values())


def test_a_busy_page_is_framed_at_most_once_per_group_s():
    ticks = Ticks()
    hub = grouped(ticks)
    c = idle_client(hub, "1-50")
    frames_at = []
    for seq in range(1, 41):  # a delta every 2 ms for 80 ms
        hub.publish(seq, delta(seq, "1"), "1")
        while ticks.due and ticks._at[0] <= ticks.now:
            ticks.run()
            frames_at.append(ticks.now)
        ticks.now += 0.002
    ticks.now += 1
    ticks.run()
    gaps = [b - a for a, b in zip(frames_at, frames_at[1:])]
    assert gaps and min(gaps) >= hub.group_s - 1e-9  # GROUP_S: 20 ms between a page's frames
    assert [m["seq"] for m in c.direct.messages()] == list(range(1, 41))


def test_boards_filter_and_round_messages_cut_once_per_selection():
    ticks = Ticks()
    hub = grouped(ticks)
    a, b, everyone = idle_client(hub, "1-2"), idle_client(hub, "1-2"), idle_client(hub)
    three = idle_client(hub, "3")
    cuts = []

    def cut(boards):
        cuts.append(boards.spec)
        return json.dumps({"type": "round", "seq": 1, "games": boards.spec})

    hub.publish(1, json.dumps({"type": "round", "seq": 1, "games": "all"}), None, cut)
    hub.publish(2, delta(2, "3"), "3")
    hub.publish(3, delta(3, "30"), "30")  # followed by nobody but the all-boards spectators
    ticks.run()
    assert sorted(cuts) == ["1,2", "3"]
    assert a.direct.messages() == b.direct.messages() == [{"type": "round", "seq": 1, "games": "1,2"}]
    assert [m["seq"] for m in three.direct.messages()] == [1, 2]
    assert everyone.direct.messages()[0]["games"] == "all"
    assert [m["seq"] for m in everyone.direct.messages()] == [1, 2, 3]


def test_a_slow_spectator_is_queued_then_goes_stale_and_the_others_get_every_frame():
    ticks = Ticks()
    hub = grouped(ticks, cap=8)
    fast, slow = idle_client(hub, "1-50"), idle_client(hub, "1-50")
    slow.direct.full = True  # its socket buffer is full (direct_ws.MAX_BUFFERED): queue instead
    seq = 0
    for tick in range(5):
        for board in ("1", "2", "3"):
            seq += 1
            hub.publish(seq, delta(seq, board), board)
        ticks.run()
        assert len(fast.direct.frames) == tick + 1  # one frame each tick, whatever the slow one does
    assert [m["seq"] for m in fast.direct.messages()] == list(range(1, 16))
    # a flush's messages are queued together (its group's chunk, shared): two frames of 3 held, the
    # third would pass the cap of 8: backlog dropped, a snapshot follows
    assert slow.stale and not slow.items and slow.high_water == 6 and slow.dropped == 15  # none of 15 sent
    assert not fast.stale and fast.dropped == 0


def test_a_busy_spectator_gets_the_messages_through_its_queue_in_order():
    ticks = Ticks()
    hub = grouped(ticks)
    c = idle_client(hub)
    c.idle = False  # its writer is sending
    for seq in (1, 2, 3):
        hub.publish(seq, delta(seq, "1"), "1")
    ticks.run()
    assert [s for s, _ in c.take()] == [1, 2, 3] and not c.direct.frames


def test_a_spectator_joining_mid_tick_gets_only_what_follows_its_snapshot():
    ticks = Ticks()
    hub = grouped(ticks)
    old = idle_client(hub, "1-2")
    hub.publish(1, delta(1, "1"), "1")
    hub.publish(2, delta(2, "2"), "2")
    new = idle_client(hub, "1-2")  # its snapshot is at seq 2: 1 and 2 are in it
    assert [m["seq"] for m in old.direct.messages()] == [1, 2]  # the members it had got them first
    hub.publish(3, delta(3, "1"), "1")
    ticks.run()
    assert [m["seq"] for m in new.direct.messages()] == [3]
    assert [m["seq"] for m in old.direct.messages()] == [1, 2, 3]


def test_removing_the_last_member_forgets_the_group():
    ticks = Ticks()
    hub = grouped(ticks)
    a, b = idle_client(hub, "1-2"), idle_client(hub, "2")
    hub.remove(a)
    hub.remove(a)
    assert set(hub.groups) == {parse("2")} and set(hub.group_by_board) == {"2"}
    hub.publish(1, delta(1, "1"), "1")
    ticks.run()
    assert not a.direct.frames and not b.direct.frames
    hub.remove(b)
    assert hub.groups == {} and hub.group_by_board == {} and hub.clients == set()


def test_without_an_event_loop_a_flush_happens_at_once():
    hub = Hub(group_s=0.02)
    c = idle_client(hub)
    hub.publish(1, delta(1, "1"), "1")
    assert [m["seq"] for m in c.direct.messages()] == [1]


# --- the real feed: a snapshot plus the deltas ends equal to the live state --------------------

@pytest.fixture(scope="module")
def entries(round5):
    items = [round_started(round5, "5", 0)]
    for i, g in enumerate(round5, start=1):
        items += game_entries(g, f"5-{i}", str(i), 1000)[:60]
    return [Entry(i, at, t, d) for i, (t, d, at) in enumerate(sorted(items, key=lambda x: x[2]), start=1)]


def apply(state: dict, m: dict) -> None:
    """A page's reducer, as dashboard/static/live.js ``handle``/``applyGame`` does it."""
    if m["type"] in ("snapshot", "round"):
        state.update(round=m["round"], games={g["id"]: g for g in m["games"]}, seq=m["seq"])
    elif m["type"] == "game":
        state["seq"] = max(state["seq"], m["seq"])
        g = state["games"].get(m["id"])
        if g is None:
            return
        if m.get("append"):
            g["moves"].append(m["append"]["move"])
            g["san"].append(m["append"]["san"])
            g["clocks"].append(None)
            g.setdefault("spent", []).append(m["append"].get("spent"))
        for ply, ms in m.get("clk") or ():
            g["clocks"][ply - 1] = ms
        g.update(m.get("set") or {})


@pytest.mark.parametrize("spec", [None, "2-3"])
def test_snapshot_then_grouped_deltas_end_equal_to_the_live_state(entries, spec):
    ticks = Ticks()
    hub = grouped(ticks)
    feed = Feed(None, hub)
    boards = parse(spec) if spec else None
    half = len(entries) // 2
    for e in entries[:half]:
        feed.ingest(e)
    ticks.run()
    client = idle_client(hub, spec)  # as live.live: added, then its snapshot
    state: dict = {}
    apply(state, json.loads(feed.snapshot(boards)[1]))
    for k, e in enumerate(entries[half:]):
        feed.ingest(e)
        if k % 7 == 0:
            ticks.run()
    ticks.run()
    for m in client.direct.messages():
        assert m["seq"] > state["seq"] or m["type"] != "game"  # nothing sent twice
        apply(state, copy.deepcopy(m))
    want = json.loads(feed.snapshot(boards)[1])
    assert state["seq"] <= want["seq"] and state["round"] == want["round"]
    assert list(state["games"].values()) == want["games"]
    if spec:
        assert {g["board"] for g in want["games"]} == {"2", "3"}
