"""The lane (services/eventlog/_redis_lane.py): the Redis log's appends and followers on one held
connection each, without redis-py's per-call machinery. What the client did for them and a lane
must still do: load the append script again on a server that lost it (a restarted or flushed
Redis answers EVALSHA with NOSCRIPT), keep a connection in step after an error reply in the middle
of pipelined commands, and never read a reply meant for a call that was interrupted.

Against the real Redis of the integration tests (127.0.0.1:6379 or $VENUE_TEST_REDIS), on keys of
their own that are deleted after each test.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from services.eventlog._redis_lane import Lane
from services.eventlog.redis import RedisLog

from eventlog_helpers import REDIS_URL, delete_redis_log

pytestmark = pytest.mark.live


@pytest.fixture
async def client():
    c = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    key = f"venue-test-lane:{uuid.uuid4().hex}"
    yield c, key
    await c.delete(key, key + ":list")
    await c.aclose()


async def test_an_error_reply_between_commands_raises_and_keeps_the_connection_in_step(client):
    """Redis answers each pipelined command in order; an error in the middle (LPUSH on a string:
    WRONGTYPE) must not leave the third reply unread, or the next call would read it as its own."""
    c, key = client
    lane = Lane(c)
    await lane.call([("SET", key, "a string")])
    with pytest.raises(ResponseError, match="WRONGTYPE"):
        await lane.call([("GET", key), ("LPUSH", key, "x"), ("ECHO", "third")])
    assert await lane.call([("ECHO", "next")]) == ["next"]
    assert await lane.call([("GET", key), ("ECHO", "b")]) == ["a string", "b"]
    await lane.release()


async def test_a_call_cancelled_before_its_reply_does_not_leave_the_reply_to_the_next_call(client):
    """A follower cancelled during XREAD BLOCK (a gateway stopping): the connection goes, so the
    next call on the lane never reads the late reply of the cancelled one."""
    c, key = client
    lane = Lane(c)
    blocked = asyncio.ensure_future(lane.call([("BLPOP", key + ":list", 5)]))
    await asyncio.sleep(0.1)
    blocked.cancel()
    with pytest.raises(asyncio.CancelledError):
        await blocked
    await c.rpush(key + ":list", "late")  # what the cancelled BLPOP would have been given
    assert await lane.call([("ECHO", "mine")]) == ["mine"]
    assert await c.lrange(key + ":list", 0, -1) == ["late"]  # nobody took it
    await lane.release()


async def test_appends_go_on_after_the_server_forgets_the_script():
    """SCRIPT FLUSH (what a Redis restarted with its data from AOF also looks like): the next
    append answers NOSCRIPT to EVALSHA and is sent again with the script; stored once."""
    tournament = f"lane-{uuid.uuid4().hex[:12]}"
    log = RedisLog(REDIS_URL, tournament)
    try:
        first = await log.append("round_started", {"round": "1"})
        admin = aioredis.Redis.from_url(REDIS_URL)
        await admin.script_flush()
        await admin.aclose()
        second = await log.append("move_played", {"board": "1", "move": "e2e4"})
        assert (first.seq, second.seq) == (1, 2)
        assert [(e.seq, e.type, e.data) for e in await log.read()] == [
            (1, "round_started", {"round": "1"}), (2, "move_played", {"board": "1", "move": "e2e4"})]
    finally:
        await log.close()
        await delete_redis_log(REDIS_URL, tournament)
