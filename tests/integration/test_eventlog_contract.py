"""One contract for every event log backend: memory, SQLite and Redis (services/eventlog/base.py).

The expected values come from the interface (``EventLog`` docstrings in base.py) and DESIGN.md,
"Event log": append-only, per tournament, ``seq`` rises by one from 1, ``follow`` replays then
tails, state is rebuilt by replay (so a reopened log sees everything). The Redis cases need the real
server on 127.0.0.1:6379 (or $VENUE_TEST_REDIS) and FAIL when it is down: nothing here skips.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from services.eventlog import EventLogError, open_log
from services.eventlog.redis import counter_key, stream_key

from eventlog_helpers import (  # noqa: F401 - backend, log, tournament, url are fixtures
    REDIS_URL, backend, delete_redis_log, log, take, tournament, url)

REPO = Path(__file__).resolve().parents[2]


async def test_seq_starts_at_one_and_rises_by_one(log):
    """base.py: ``seq`` rises by one from 1; append returns the stored entry."""
    assert await log.last_seq() == 0
    a = await log.append("round_started", {"round": "1"}, at=1_700_000_000_000)
    b = await log.append("move_played", {"game": "1-1", "move": "e2e4"}, at=1_700_000_000_005)
    c = await log.append("move_played", {"game": "1-1", "move": "e7e5"})
    assert [a.seq, b.seq, c.seq] == [1, 2, 3]
    assert (a.at, a.type, a.data) == (1_700_000_000_000, "round_started", {"round": "1"})
    assert await log.last_seq() == 3
    assert await log.read() == [a, b, c]


async def test_at_defaults_to_now_in_ms(log):
    """base.py: ``at`` defaults to now, in ms since the epoch."""
    before = time.time_ns() // 1_000_000
    e = await log.append("player_arrived", {"player": "Carlsen"})
    after = time.time_ns() // 1_000_000
    assert before <= e.at <= after


async def test_what_json_holds_is_read_back_as_written(log):
    """base.py: ``data`` is a dict JSON can encode: read and follow give back exactly what was
    appended: integers beyond 64 bits, floats, text beyond ASCII and escapes, nesting, null."""
    data = {"big": 10 ** 30, "neg": -(2 ** 70), "f": 0.1, "e": 1e-300, "text": "Ł\u00e9 \"q\" \\ \n ♞ 𝄞",
            "nested": {"list": [1, [2, {"x": None}]], "flag": True}, "empty": {}}
    written = await log.append("arbiter_note", data)
    assert (await log.read())[0].data == data == written.data
    follower = log.follow()
    assert [e.data for e in await take(follower, 1)] == [data]
    await follower.aclose()


async def test_read_after_and_limit(log):
    """base.py: read returns entries with ``seq > after`` in order, at most ``limit``."""
    for i in range(10):
        await log.append("clock_pressed", {"i": i})
    assert [e.seq for e in await log.read(after=3, limit=4)] == [4, 5, 6, 7]
    assert [e.seq for e in await log.read(after=8)] == [9, 10]
    assert await log.read(after=10) == []
    assert [e.data["i"] for e in await log.read(limit=2)] == [0, 1]


async def test_follow_replays_then_tails(log):
    """base.py: follow yields every entry after ``after``, then each new one as appended."""
    for i in range(3):
        await log.append("move_played", {"i": i})
    follower = log.follow(after=1)
    assert [e.seq for e in await take(follower, 2)] == [2, 3]
    pending = asyncio.ensure_future(take(follower, 2))
    await asyncio.sleep(0.05)
    await log.append("move_played", {"i": 3})
    await log.append("game_ended", {"result": "1-0"})
    tail = await pending
    assert [(e.seq, e.type) for e in tail] == [(4, "move_played"), (5, "game_ended")]
    await follower.aclose()


async def test_a_follower_passes_over_what_it_skips(log):
    """base.py ``follow(skip=...)``: ``skip`` is asked for every entry once, in order; the entries it
    says the caller has are not yielded, the others are, in order, then the tail likewise."""
    for i in range(6):
        await log.append("move_played", {"i": i})
    asked = []

    def skip(seq: int) -> bool:
        asked.append(seq)
        return seq % 2 == 0

    follower = log.follow(skip=skip)
    assert [(e.seq, e.data["i"]) for e in await take(follower, 3)] == [(1, 0), (3, 2), (5, 4)]
    pending = asyncio.ensure_future(take(follower, 1))
    await asyncio.sleep(0.05)
    await log.append("move_played", {"i": 6})
    await log.append("move_played", {"i": 7})
    assert [(e.seq, e.data["i"]) for e in await pending] == [(7, 6)]
    assert asked == [1, 2, 3, 4, 5, 6, 7]
    await follower.aclose()


async def test_a_paced_follower_gets_every_entry_in_order(log):
    """base.py ``follow(pace_s=)``: a follower in no hurry reads less often, and misses nothing: the
    entries of several appends made between its reads come in order (the gateway's follower)."""
    follower = log.follow(after=0, pace_s=0.05)
    pending = asyncio.ensure_future(take(follower, 12))
    for batch in range(4):
        await log.append_many([("move_played", {"i": batch * 3 + i}, None) for i in range(3)])
        await asyncio.sleep(0.01)
    got = await pending
    assert [(e.seq, e.data["i"]) for e in got] == [(n, n - 1) for n in range(1, 13)]
    await follower.aclose()


async def test_two_followers_get_the_same_entries(log):
    """DESIGN.md: any number of dashboards follow one log; each sees every entry in order."""
    a = asyncio.ensure_future(take(log.follow(), 20))
    b = asyncio.ensure_future(take(log.follow(), 20))
    await asyncio.sleep(0.05)
    for i in range(20):
        await log.append("move_played", {"i": i})
    ea, eb = await a, await b
    assert [e.seq for e in ea] == list(range(1, 21))
    assert ea == eb


async def test_concurrent_appends_from_50_tasks_leave_no_gaps(log):
    """base.py: one instance may be shared by tasks; seq is unique and rises by one (1..N)."""

    async def board(b: int) -> list[int]:
        seqs = []
        for ply in range(4):
            seqs.append((await log.append("move_played", {"board": b, "ply": ply})).seq)
        return seqs

    per_task = await asyncio.gather(*(board(b) for b in range(50)))
    seqs = sorted(s for task in per_task for s in task)
    assert seqs == list(range(1, 201))
    for task in per_task:  # each task's own appends keep its order
        assert task == sorted(task)
    stored = await log.read()
    assert [e.seq for e in stored] == list(range(1, 201))
    by_board = {}
    for e in stored:
        by_board.setdefault(e.data["board"], []).append(e.data["ply"])
    assert all(plies == [0, 1, 2, 3] for plies in by_board.values())


async def test_append_many_is_in_order_and_contiguous(log):
    """base.py: append_many appends in order; interleaved single appends never split a batch."""
    await log.append("round_started", {"round": "1"})
    batch = [("move_played", {"ply": i}, 1_700_000_000_000 + i) for i in range(30)]
    results = await asyncio.gather(
        log.append_many(batch), log.append("clock_pressed", {}), log.append_many(batch)
    )
    first, single, second = results
    assert [e.seq for e in first] == list(range(first[0].seq, first[0].seq + 30))
    assert [e.seq for e in second] == list(range(second[0].seq, second[0].seq + 30))
    assert [e.data["ply"] for e in first] == list(range(30))
    assert first[5].at == 1_700_000_000_005
    assert sorted([e.seq for e in first + second] + [single.seq]) == list(range(2, 63))
    assert await log.append_many([]) == []


async def test_bad_entries_raise_value_error_and_write_nothing(log):
    """CONTRIBUTING.md: bad input gets a clear error and loses nothing (no partial batch)."""
    await log.append("round_started", {"round": "1"})
    with pytest.raises(ValueError, match="type"):
        await log.append("", {})
    with pytest.raises(ValueError, match="dict"):
        await log.append("move_played", ["e2e4"])
    with pytest.raises(ValueError, match="JSON"):
        await log.append("move_played", {"x": object()})
    with pytest.raises(ValueError, match="at"):
        await log.append("move_played", {}, at=-5)
    with pytest.raises(ValueError, match="item 1"):
        await log.append_many([("move_played", {}, None), ("move_played", {"x": float("nan")}, None)])
    assert await log.last_seq() == 1
    assert (await log.append("move_played", {})).seq == 2


async def test_reopen_sees_everything_and_continues_seq(url, tournament, log):
    """DESIGN.md: a restarted gateway or new dashboard replays the log and carries on."""
    for i in range(5):
        await log.append("move_played", {"i": i})
    await log.close()
    again = open_log(url, tournament)
    try:
        assert [e.data["i"] for e in await again.read()] == [0, 1, 2, 3, 4]
        assert await again.last_seq() == 5
        assert (await again.append("game_ended", {"result": "1/2-1/2"})).seq == 6
    finally:
        await again.close()


async def test_two_instances_on_one_store_share_one_sequence(url, tournament, log):
    """DESIGN.md: gateway and dashboards are separate processes on one log; seq stays 1..N."""
    other = open_log(url, tournament)
    try:
        follower = asyncio.ensure_future(take(log.follow(), 60))
        await asyncio.gather(
            *(log.append("move_played", {"by": "a", "i": i}) for i in range(30)),
            *(other.append("move_played", {"by": "b", "i": i}) for i in range(30)),
        )
        followed = await follower  # includes the other instance's appends (polling for SQLite)
        assert [e.seq for e in followed] == list(range(1, 61))
        assert followed == await other.read()
    finally:
        await other.close()


async def test_logs_of_two_tournaments_are_separate(url, tournament, log):
    """DESIGN.md: one log per tournament; seq restarts at 1 for another tournament."""
    await log.append("move_played", {})
    other_slug = f"{tournament}-b"
    other = open_log(url, other_slug)
    try:
        assert await other.last_seq() == 0
        assert (await other.append("move_played", {})).seq == 1
        assert await log.last_seq() == 1
    finally:
        await other.close()
        if url.startswith("redis"):
            await delete_redis_log(REDIS_URL, other_slug)


async def test_close_ends_followers_and_refuses_appends(log):
    """base.py: close releases connections; a closed log is not written to."""
    await log.append("move_played", {})
    follower = asyncio.ensure_future(take(log.follow(), 99, timeout=10))
    await asyncio.sleep(0.05)
    await log.close()
    await log.close()  # idempotent
    # without close ending it, the follower would wait for 98 more entries and time out
    assert [e.seq for e in await asyncio.wait_for(follower, 5)] == [1]
    with pytest.raises(EventLogError, match="closed"):
        await log.append("move_played", {})


# -- backend specifics -------------------------------------------------------------------------

CHILD = """
import asyncio, sys
from services.eventlog import open_log

async def main():
    log = open_log(sys.argv[1], sys.argv[2])
    while True:
        e = await log.append("move_played", {"ply": 0})
        print(e.seq, flush=True)

asyncio.run(main())
"""


def test_sqlite_entries_survive_sigkill_right_after_append(tmp_path, tournament):
    """sqlite.py durability: an entry whose append returned survives kill -9 of the process."""
    url = f"sqlite:///{tmp_path}/log.sqlite"
    child = subprocess.Popen([sys.executable, "-c", CHILD, url, tournament], cwd=REPO,
                             stdout=subprocess.PIPE, text=True)
    acknowledged = 0
    try:
        while acknowledged < 300:
            line = child.stdout.readline()
            assert line, "the child died before appending"
            acknowledged = int(line)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait(10)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL

    async def check():
        log = open_log(url, tournament)
        try:
            seqs = [e.seq for e in await log.read()]
            assert seqs == list(range(1, len(seqs) + 1))
            assert len(seqs) >= acknowledged
            assert (await log.append("game_ended", {})).seq == len(seqs) + 1
        finally:
            await log.close()

    asyncio.run(check())


def test_sqlite_unopenable_file_raises_event_log_error(tmp_path):
    """__init__.py: a store that cannot be reached raises EventLogError naming it."""
    with pytest.raises(EventLogError, match="no-such-dir"):
        open_log(f"sqlite:///{tmp_path}/no-such-dir/log.sqlite", "t1")


def test_sqlite_relative_url_is_relative_to_the_working_directory(tmp_path, monkeypatch):
    """__init__.py: sqlite:///name is relative, as in SQLAlchemy; sqlite:////abs is absolute."""
    monkeypatch.chdir(tmp_path)
    log = open_log("sqlite:///rel.sqlite", "t1")
    asyncio.run(log.close())
    assert (tmp_path / "rel.sqlite").exists()


@pytest.mark.live
async def test_redis_stream_ids_are_the_seqs(tournament):
    """redis.py: entries are XADDed with ID ``{seq}-0`` so any process can XREAD after a seq."""
    log = open_log(REDIS_URL, tournament)
    client = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        await log.append_many([("move_played", {"i": i}, None) for i in range(3)])
        ids = [i for i, _ in await client.xrange(stream_key(tournament))]
        assert ids == ["1-0", "2-0", "3-0"]
        assert await client.get(counter_key(tournament)) == "3"
    finally:
        await log.close()
        await client.aclose()
        await delete_redis_log(REDIS_URL, tournament)


async def test_redis_unreachable_raises_event_log_error():
    """__init__.py: Redis that cannot be reached raises EventLogError with the address."""
    log = open_log("redis://127.0.0.1:1/0", "t1")
    try:
        with pytest.raises(EventLogError, match="127.0.0.1:1"):
            await log.append("move_played", {})
        with pytest.raises(EventLogError):
            await log.read()
    finally:
        await log.close()


@pytest.mark.parametrize(
    "bad_url, message",
    [
        ("postgres://localhost/venue", "'postgres'"),
        ("kafka://broker:9092", "'kafka'"),
        ("venue.sqlite", "scheme://"),
        ("sqlite://", "sqlite:///PATH"),
        ("sqlite:///", "names no file"),
        ("sqlite:///:memory:", "names no file"),
        ("sqlite:///x.sqlite?fsync=always", "'fsync'"),
    ],
)
def test_bad_url_raises_value_error(bad_url, message):
    """__init__.py: an unknown scheme or malformed URL raises ValueError naming the problem."""
    with pytest.raises(ValueError, match=message):
        open_log(bad_url, "t1")


@pytest.mark.parametrize("slug", ["", "a/b", "a b", "{a}", "+", "#", "-lead"])
def test_bad_tournament_slug_raises_value_error(slug):
    """_rows.py: slugs name MQTT topics and Redis keys, so '/', '+', '#', braces, spaces are out."""
    with pytest.raises(ValueError, match="slug"):
        open_log("memory://", slug)
