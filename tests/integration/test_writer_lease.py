"""One writer per board of a tournament's log (services/eventlog/writers.py), on the real Redis.

Source: a new user's run (issue 11 "no one in"; README "One gateway per tournament and broker"):
the same ``venue gateway`` started twice, and a ``--boards 1-3`` shard beside a gateway for every
board, both appended each ply twice (seq 329/332: game 1-2 ply 20 ...) before anything stopped them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import pytest
import redis.asyncio as aioredis

from services.eventlog import open_log
from services.eventlog.writers import Holder, RedisLease, WriterConflict, _started, this_host, writers_key

pytestmark = pytest.mark.live
REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture
async def client():
    c = aioredis.Redis.from_url(REDIS, decode_responses=True)
    yield c
    await c.aclose()


def lease(client, t, boards, owner, sleeps):
    async def sleep(s):
        sleeps.append(s)
        for action in on_sleep:
            await action()
    on_sleep: list = []
    one = RedisLease(client, t, boards, owner, sleep=sleep)
    one.on_sleep = on_sleep
    return one


async def test_a_second_writer_of_the_same_boards_is_refused_while_the_first_lives(client):
    t, sleeps = f"lease-{uuid.uuid4().hex[:8]}", []
    first = lease(client, t, "*", "gateway A", sleeps)
    await first.claim()
    assert sleeps == []  # nobody held it: no wait
    second = lease(client, t, "*", "gateway B", sleeps)
    second.on_sleep.append(first.renew)  # the first is alive: it renews while the second waits
    with pytest.raises(WriterConflict) as refused:
        await second.claim()
    assert refused.value.holders == [("gateway A", "*")] and "gateway A" in str(refused.value)
    await client.delete(writers_key(t))


async def test_a_shard_overlapping_a_gateway_for_every_board_is_refused_and_disjoint_shards_are_not(client):
    t, sleeps = f"lease-{uuid.uuid4().hex[:8]}", []
    low, high = lease(client, t, "1-3", "shard 1-3", sleeps), lease(client, t, "4-6", "shard 4-6", sleeps)
    await low.claim()
    await high.claim()
    assert sleeps == []  # disjoint boards never wait
    every = lease(client, t, "*", "gateway", sleeps)
    every.on_sleep += [low.renew, high.renew]
    with pytest.raises(WriterConflict) as refused:
        await every.claim()
    assert sorted(refused.value.holders) == [("shard 1-3", "1-3"), ("shard 4-6", "4-6")]
    overlap = lease(client, t, "3-4", "shard 3-4", sleeps)
    overlap.on_sleep.append(low.renew)
    with pytest.raises(WriterConflict):
        await overlap.claim()
    await client.delete(writers_key(t))


async def test_a_killed_writers_lease_is_taken_over_after_one_renewal_and_a_released_one_at_once(client):
    t, sleeps = f"lease-{uuid.uuid4().hex[:8]}", []
    dead = lease(client, t, "*", "killed -9", sleeps)
    await dead.claim()
    restarted = lease(client, t, "*", "restarted", sleeps)
    await restarted.claim()  # the dead one never renews: taken over after one wait
    assert len(sleeps) == 1
    held = await client.hgetall(writers_key(t))
    assert list(held) == [restarted.token]
    await restarted.release()
    sleeps.clear()
    await lease(client, t, "*", "next", sleeps).claim()
    assert sleeps == []  # a clean stop leaves nothing to wait for
    await client.delete(writers_key(t))


def killed_process() -> Holder:
    """A real process of this host, killed with -9 and reaped: its ``Holder`` as its lease named it."""
    proc = subprocess.Popen(["sleep", "60"])
    holder = Holder(this_host(), proc.pid, _started(proc.pid) or 0)
    assert holder.started and not holder.gone()  # alive, and /proc told its start time
    proc.kill()
    proc.wait(timeout=10)
    return holder


async def test_a_writer_killed_on_this_host_is_taken_over_at_once(client):
    """Issue 28: "a gateway restarted after kill -9 takes 3.7 s before it writes (its old writer lease
    must lapse); the goal for any restart is under one second". The lease names its holder's host and
    process: that process gone from this host, the restart takes the lease without waiting."""
    t, sleeps = f"lease-{uuid.uuid4().hex[:8]}", []
    dead = RedisLease(client, t, "*", "venue gateway (killed -9)", holder=killed_process())
    await dead.claim()
    restarted = lease(client, t, "*", "venue gateway (restarted)", sleeps)
    await restarted.claim()
    assert sleeps == [] and restarted.waited is False  # no renewal period waited
    assert list(await client.hgetall(writers_key(t))) == [restarted.token]  # the dead one's lease is gone
    await client.delete(writers_key(t))


async def test_a_writer_not_provably_gone_is_still_waited_for(client):
    """What the shortcut must not take: a holder on another host (its pid means nothing here), a
    holder alive on this host (it renews: refused), a token of an older gateway (no holder named)."""
    t, sleeps = f"lease-{uuid.uuid4().hex[:8]}", []
    dead_here = killed_process()
    elsewhere = RedisLease(client, t, "*", "gateway elsewhere",
                           holder=Holder("other-host/boot", dead_here.pid, dead_here.started))
    await elsewhere.claim()
    newcomer = lease(client, t, "*", "newcomer", sleeps)
    await newcomer.claim()  # it does not renew: taken over, but only after the wait
    assert len(sleeps) == 1 and newcomer.waited
    alive = lease(client, t, "*", "alive here", sleeps)
    alive.on_sleep.append(newcomer.renew)  # the newcomer (this very process) lives and renews
    with pytest.raises(WriterConflict):
        await alive.claim()
    assert len(sleeps) == 2
    await client.delete(writers_key(t))
    old = RedisLease(client, t, "*", "older gateway", holder=killed_process())
    old.token = "0123456789abcdef"  # a bare token, as gateways before issue 28 wrote
    await old.claim()
    await lease(client, t, "*", "after an older one", sleeps).claim()
    assert len(sleeps) == 3
    await client.delete(writers_key(t))


def test_the_same_venue_gateway_started_twice_stops_at_once_and_writes_nothing(tmp_path):
    """README "One gateway per tournament and broker": the newcomer stops with exit code 2 and one
    line, before it connects or writes."""
    t = f"lease-cli-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-m", "venue", "gateway", "--mqtt", "mqtt://127.0.0.1:1883", "--store", REDIS,
            "--tournament", t]
    first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        for line in first.stdout:
            if "Ctrl-C to stop" in line:
                break
        log = open_log(REDIS, t)
        import asyncio
        before = asyncio.run(log.last_seq())
        # "at once" is the README's "before it connects or writes": the running gateway keeps its
        # session and the log gains nothing (below); 60 s only stops a newcomer that hangs
        second = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
        assert second.returncode == 2, second
        assert "another gateway is writing this tournament's log" in second.stderr
        assert len(second.stderr.strip().splitlines()) == 1, second.stderr
        assert first.poll() is None  # the running one carries on
        assert asyncio.run(open_log(REDIS, t).last_seq()) == before
    finally:
        first.terminate()
        first.wait(timeout=15)
        from services.eventlog.redis import tournament_keys
        import redis
        r = redis.Redis.from_url(REDIS)
        r.delete(*tournament_keys(t), writers_key(t))


async def test_venue_serve_refused_beside_a_writer_does_not_suggest_boards(client):
    """Issue 27: ``venue serve`` refused beside another writer said "give this one other boards
    (--boards)", an option only ``venue gateway`` has; it says what serve can do instead."""
    from venue.serve import SERVE_LEASE_HINT, CliError, writing

    t = f"lease-serve-{uuid.uuid4().hex[:8]}"
    first, second = open_log(REDIS, t), open_log(REDIS, t)
    try:
        async with writing(first, "*", "venue serve A", SERVE_LEASE_HINT):
            with pytest.raises(CliError) as refused:
                async with writing(second, "*", "venue serve B", SERVE_LEASE_HINT):
                    pass
        assert "venue serve writes every board and has no --boards" in str(refused.value)
        assert "give this one other boards" not in str(refused.value)
    finally:
        await first.close()
        await second.close()
        await client.delete(writers_key(t))
