"""The Redis event log under a frozen, restarted or flushed server (issue 11), on a private Redis.

Each test starts its own ``redis-server`` on a free port (eventlog_helpers.PrivateRedis, persistence
off as a Redis run without AOF) and freezes it with SIGSTOP, kills it with -9 or flushes it; the
shared Redis on 6379 is never touched. Timeouts are injected short (``socket_timeout`` 0.2 s) so a
freeze of about a second is "longer than the socket timeout" without long sleeps.

Expected behaviour, from issue 11: "Appends must be idempotent (each batch carries its identity; a
retry after a lost reply cannot append twice)"; "a gap or rollback is an error the operators see
(... the process refusing to write over a log it does not recognise)". Before this change the first
test's scenario stored the frozen append's ply twice (seqs 2 and 3) once the caller retried.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from services.eventlog import EventLogError
from services.eventlog.base import LogReplaced
from services.eventlog.redis import RedisLog

from eventlog_helpers import PrivateRedis, private_redis, take  # noqa: F401 - a fixture

pytestmark = pytest.mark.live

T = "frozen-redis"
SHIPPED_CONF = Path(__file__).resolve().parents[2] / "deploy" / "redis.conf"
FREEZE_S = 1.0  # five socket timeouts


def short_log(server, append_retry_s: float = 5.0) -> RedisLog:
    return RedisLog(server.url, T, socket_timeout=0.2, append_retry_s=append_retry_s)


async def stored(server) -> list[tuple[int, dict]]:
    """(seq, data) of every entry, read by a fresh instance."""
    log = RedisLog(server.url, T)
    try:
        return [(e.seq, e.data) for e in await log.read()]
    finally:
        await log.close()


async def test_an_append_frozen_past_the_socket_timeout_is_stored_once(private_redis):
    """Issue 11, "A store stall doubles entries": Redis frozen mid-append longer than the socket
    timeout. The client retries the same batches (group commit: three concurrent appends), Redis
    runs every queued try when it wakes, and each batch is in the log once."""
    log = short_log(private_redis)
    try:
        await log.append("round_started", {"round": "1"})
        private_redis.freeze()
        moves = [asyncio.ensure_future(log.append("move_played", {"board": b, "move": "e2e4"}))
                 for b in range(3)]
        await asyncio.sleep(FREEZE_S)
        assert not any(m.done() for m in moves)  # still retrying, not failed
        private_redis.thaw()
        entries = await asyncio.gather(*moves)
    finally:
        private_redis.thaw()
        await log.close()
    assert sorted(e.seq for e in entries) == [2, 3, 4]
    assert await stored(private_redis) == [(1, {"round": "1"})] + [
        (e.seq, {"board": e.data["board"], "move": "e2e4"}) for e in sorted(entries, key=lambda e: e.seq)]


async def test_a_caller_retry_with_the_batch_id_after_a_failed_append_is_not_stored_twice(private_redis):
    """Issue 11: the append gives up (no retries left) while Redis is frozen; Redis then runs it
    when it wakes. The caller's retry with the same batch id returns that entry: one copy."""
    log = short_log(private_redis, append_retry_s=0)
    try:
        await log.append("round_started", {"round": "1"})
        private_redis.freeze()
        with pytest.raises(EventLogError, match="same batch_id"):
            await log.append_many([("move_played", {"move": "e2e4"}, 1_700_000_000_000)],
                                  batch_id="gw-42")
        private_redis.thaw()
        client = aioredis.Redis.from_url(private_redis.url)
        async with asyncio.timeout(5):  # the frozen call runs once Redis is back
            while await client.xlen(f"venue:{{{T}}}:log") < 2:
                await asyncio.sleep(0.01)
        await client.aclose()
        again = await log.append_many([("move_played", {"move": "e2e4"}, 1_700_000_000_000)],
                                      batch_id="gw-42")
    finally:
        private_redis.thaw()
        await log.close()
    assert [e.seq for e in again] == [2]
    assert await stored(private_redis) == [(1, {"round": "1"}), (2, {"move": "e2e4"})]


async def test_a_redis_restarted_empty_is_refused_by_the_writer_and_the_followers(private_redis):
    """Issue 11, "A lost or rolled-back log goes unnoticed": Redis without AOF killed (-9) and
    restarted loses the whole log. The writer refuses to start it again from seq 1; a follower
    raises (dashboards report it) instead of waiting for seqs it has already seen."""
    writer = short_log(private_redis)
    reader = short_log(private_redis)
    try:
        await writer.append_many([("move_played", {"ply": i}, None) for i in range(5)])
        follower = reader.follow()
        assert len(await take(follower, 5)) == 5
        private_redis.restart()
        with pytest.raises(LogReplaced, match="vanished"):
            await take(follower, 1, timeout=5)
        with pytest.raises(LogReplaced, match="vanished"):
            await writer.append("move_played", {"ply": 5})
    finally:
        await writer.close()
        await reader.close()
    assert await stored(private_redis) == []


async def test_flushdb_mid_follow_then_a_new_log_is_refused(private_redis):
    """Issue 11: FLUSHDB, then a restarted gateway writes a new log from seq 1 past the
    follower's position: the follower raises before handing out any entry of the new log."""
    reader = short_log(private_redis)
    first = short_log(private_redis)
    try:
        await first.append_many([("move_played", {"ply": i}, None) for i in range(3)])
        follower = reader.follow()
        seen = await take(follower, 3)
        client = aioredis.Redis.from_url(private_redis.url)
        await client.flushdb()
        await client.aclose()
        second = short_log(private_redis)
        await second.append_many([("move_played", {"ply": 100 + i}, None) for i in range(6)])
        await second.close()
        with pytest.raises(LogReplaced, match="epoch changed|read before"):
            seen += await take(follower, 3, timeout=5)
        assert [e.data["ply"] for e in seen] == [0, 1, 2]
        with pytest.raises(LogReplaced, match="epoch changed"):
            await first.append("move_played", {"ply": 3})
    finally:
        await first.close()
        await reader.close()


async def test_the_shipped_redis_conf_keeps_every_acknowledged_entry_through_kill_9(tmp_path):
    """deploy/redis.conf (AOF on; only port, bind and dir overridden): Redis killed (-9) while a
    writer appends keeps every entry whose append returned, with the same epoch, and the same
    writer carries on without LogReplaced (deploy/SCALE-OUT.md; a power loss, which appendfsync
    always is for, cannot be staged here)."""
    server = PrivateRedis(tmp_path, config=SHIPPED_CONF)
    server.start()
    log = short_log(server)
    acknowledged: list[int] = []

    async def appender():
        for ply in range(10_000):
            acknowledged.append((await log.append("move_played", {"ply": ply})).seq)

    try:
        task = asyncio.ensure_future(appender())
        while len(acknowledged) < 200:
            await asyncio.sleep(0.01)
        epoch = await log.epoch()
        server.restart()
        seen = len(acknowledged)
        await asyncio.sleep(0.5)
        task.cancel()
        with pytest.raises((asyncio.CancelledError, EventLogError)):
            await task
        after = await stored(server)
        assert [seq for seq, _ in after][: len(acknowledged)] == acknowledged  # none lost
        assert len(acknowledged) >= seen and await log.epoch() == epoch
        e = await log.append("game_ended", {"result": "1-0"})
        assert e.seq == len(after) + 1
    finally:
        await log.close()
        server.stop()


async def test_a_read_after_a_redis_restart_does_not_fail_on_the_pools_stale_connection(private_redis):
    """A log read (epoch, read, last_seq) on a connection of the pool that stayed idle while Redis
    was killed and started again: the first command on it finds the connection closed. Reads are
    idempotent: the read is made once more on a fresh connection, and the caller gets the answer
    (seen once in CI after the appends moved to a lane of their own: the writer no longer cycled
    the pool's connections). Persistence is off here, so the restarted Redis is empty."""
    writer = short_log(private_redis)
    reader = RedisLog(private_redis.url, "empty-tournament", socket_timeout=0.2)  # a log with no entry
    try:
        await writer.append("round_started", {"round": "1"})
        assert await writer.epoch() is not None  # the pool's connection, now idle
        assert await reader.last_seq() == 0  # the reader's pool has an idle connection too
        private_redis.restart()
        assert await writer.epoch() is None  # answered; the writer's own checks refuse the emptied log later
        private_redis.restart()
        assert await reader.read() == []
        private_redis.restart()
        assert await reader.last_seq() == 0
    finally:
        await writer.close()
        await reader.close()
