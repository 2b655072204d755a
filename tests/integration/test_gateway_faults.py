"""The gateway under faults (issue 11 "Nothing lost, no one in"), against real Mosquitto and Redis.

- "Acknowledged before stored": the store down and the gateway killed meanwhile lost moves and
  recorded moves never played. Now a device message is acknowledged only once its entry is stored;
  the broker keeps and redelivers the rest (MQTT 3.1.1 4.4, a persistent session).
- "One message stops all recording": ``{"seq":9007199254740991,"move":"\\ud800"}`` from a board.
- "One board can starve the hall": a flood from one board; the others play on, and the flood
  writes a few counted entries, not one per message.
- "Restarts seen late": a broker restarted under the gateway is noticed and the next move played.

A private ``redis-server`` (tests/eventlog_helpers.PrivateRedis) is frozen with SIGSTOP; a private
``mosquitto`` on a free port is killed and restarted; the shared services are only read and
written under random slugs. Moves are real: FIDE Candidates 2024 (open), round 1, Abasov -
Nepomniachtchi (../shared/data/chess/fide_candidates_2024_open.pgn, game 2).
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
import uuid
from pathlib import Path

import aiomqtt
import pytest
from eventlog_helpers import private_redis  # noqa: F401 - a fixture
from eventually import eventually_async
from live_helpers import Device, candidates_moves, log_until, played
from mosquitto_site import plain_broker
from venue_serve import VENUE, Serve

from gateway import Gateway
from gateway.broker import free_port
from services.eventlog import open_log
from services.eventlog.redis import tournament_keys

pytestmark = pytest.mark.live
MQTT = "mqtt://127.0.0.1:1883"
ROOT = Path(__file__).resolve().parents[2]
REDIS = "redis://127.0.0.1:6379/0"


def round_data(boards: int = 2) -> dict:
    return {"round": "1", "event": "Faults", "site": "", "date": "2024.04.04", "games": [
        {"id": f"1-{b}", "board": str(b), "round": "1", "white": f"W{b}", "black": f"B{b}", "variant": "chess",
         "time_control": None, "fen": None, "kind": "classical"} for b in range(1, boards + 1)]}


def moves_of(entries, game: str) -> list[str]:
    return played(entries, game)


class Gw(Serve):
    """A ``venue gateway`` process: ready once it says so (its one line ends "Ctrl-C to stop.")."""

    async def ready(self, timeout: float = 30.0) -> None:
        def said() -> bool:
            if self.proc.poll() is not None:
                pytest.fail(f"venue gateway exited {self.proc.returncode}: {self.err}")
            assert any(line.endswith("Ctrl-C to stop.") for line in self.lines), f"not ready: {self.lines} {self.err}"
            return True

        await eventually_async(said, timeout, poll=0.05)


async def test_a_gateway_killed_while_the_store_is_down_loses_no_move(private_redis, shared_data):
    """Issue 11: "Redis down 15 s and the gateway killed meanwhile lost 22 moves of a board, recorded 2
    never-played moves". Moves 11-30 reach the gateway while Redis is frozen; it is killed (-9) and
    started again once Redis is back: every move is in the log once, in order, nothing else."""
    slug = f"acks-{uuid.uuid4().hex[:8]}"
    moves = candidates_moves(shared_data, 2)[:40]
    log = open_log(private_redis.url, slug)
    await log.append("round_started", round_data(1))
    argv = [VENUE, "gateway", "--mqtt", MQTT, "--store", private_redis.url, "--tournament", slug]
    first = Gw(argv)
    try:
        await first.ready()
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{slug}") as client:
            board = Device(client, slug, "1")
            for uci in moves[:10]:
                await board.send("move", move=uci)
            await log_until(log, lambda es: len(moves_of(es, "1-1")) == 10, 15)
            private_redis.freeze()
            for uci in moves[10:30]:
                await board.send("move", move=uci)
            await asyncio.sleep(1.0)  # the gateway holds them and cannot store them
            first.proc.send_signal(signal.SIGKILL)
            first.proc.wait(10)
            private_redis.thaw()
            second = Gw(argv)
            try:
                await second.ready()
                entries = await log_until(log, lambda es: len(moves_of(es, "1-1")) >= 30, 20)
                for uci in moves[30:]:
                    await board.send("move", move=uci)
                entries = await log_until(log, lambda es: len(moves_of(es, "1-1")) >= 40, 20)
            finally:
                await second.stop(signal.SIGTERM)
    finally:
        private_redis.thaw()
        if first.proc.poll() is None:
            first.proc.kill()
        await log.close()
    assert moves_of(entries, "1-1") == moves  # each once, in order, none invented
    types = [e.type for e in entries]
    assert types.count("move_rejected") == 0 and types.count("seq_gap") == 0


@pytest.fixture
async def hall():
    """An in-process gateway on the shared Mosquitto and Redis, two boards; yields (gateway, log,
    slug); the log's keys are deleted afterwards."""
    slug = f"faults-{uuid.uuid4().hex[:8]}"
    log = open_log(REDIS, slug)
    await log.append("round_started", round_data(3))
    gw = Gateway(log, MQTT, slug)
    task = asyncio.create_task(gw.run())
    try:
        await asyncio.wait_for(gw.ready.wait(), 10)
        yield gw, log, slug
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        import redis.asyncio as aioredis

        conn = aioredis.from_url(REDIS)
        await conn.delete(*tournament_keys(slug))
        await conn.aclose()
        await log.close()


async def test_a_lone_surrogate_stops_nothing(hall, shared_data):
    """Issue 11: "{"seq":9007199254740991,"move":"\\ud800"} from any board login: ... nothing from any
    board is logged or answered again". It is refused as not UTF-8 text, and every board plays on."""
    gw, log, slug = hall
    moves = candidates_moves(shared_data, 2)[:6]
    async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{slug}") as client:
        await client.publish(f"venue/{slug}/boards/1/move", b'{"seq":9007199254740991,"move":"\\ud800"}', qos=1)
        boards = [Device(client, slug, "1"), Device(client, slug, "2")]
        for uci in moves:
            for d in boards:
                await d.send("move", move=uci)
        entries = await log_until(log, lambda es: len(moves_of(es, "1-2")) == 6 and len(moves_of(es, "1-1")) == 6
                                  and any(e.type == "message_rejected" for e in es), 15)
    [rejected] = [e for e in entries if e.type == "message_rejected"]
    assert rejected.data["reason"].startswith("not UTF-8 text") and rejected.data["board"] == "1"
    assert moves_of(entries, "1-1") == moves_of(entries, "1-2") == moves
    assert gw.counts["internal_errors"] == 0 and gw.counts["store_errors"] == 0


async def test_one_flooding_board_does_not_starve_the_hall(hall, shared_data):
    """Issue 11: "5,000 messages/s from one board for 10 s delayed every other board by 17 to 27 s and
    wrote about 290,000 duplicate/rejected entries". Board 3 floods (its first message again and
    again, and garbage) for 4 s while boards 1 and 2 play: their moves are all applied before the
    flood ends, and the flood leaves a few entries with counts, not one per message."""
    gw, log, slug = hall
    moves = candidates_moves(shared_data, 2)[:20]
    stop = asyncio.Event()
    sent = {"n": 0}

    async def flood(client):
        topic = f"venue/{slug}/boards/3/move"
        await client.publish(topic, json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
        while not stop.is_set():
            for payload in (json.dumps({"seq": 1, "move": "e2e4"}), "not json"):
                await client.publish(topic, payload, qos=0)
                sent["n"] += 1
            if sent["n"] % 200 == 0:
                await asyncio.sleep(0)

    async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"flood-{slug}", max_queued_outgoing_messages=0) as bad, \
            aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{slug}") as good:
        flooding = asyncio.create_task(flood(bad))
        started = time.monotonic()
        boards = [Device(good, slug, "1"), Device(good, slug, "2")]
        for uci in moves:
            for d in boards:
                await d.send("move", move=uci)
            await asyncio.sleep(0.05)
        done = await log_until(log, lambda es: len(moves_of(es, "1-1")) == 20 and len(moves_of(es, "1-2")) == 20,
                               max(0.5, 4.0 - (time.monotonic() - started)))
        stop.set()
        await flooding
    assert moves_of(done, "1-1") == moves_of(done, "1-2") == moves
    await asyncio.sleep(1.0)  # the flood's last entries
    entries = await log.read()
    flood_entries = [e for e in entries if e.data.get("board") == "3"]
    counted = sum(int(e.data.get("count", 1)) for e in flood_entries if e.type != "move_played")
    assert sent["n"] > 2000, "the flood must really flood"
    assert len(flood_entries) < sent["n"] / 20, (len(flood_entries), sent["n"])
    assert counted + gw.counts["dropped"] >= 0.5 * sent["n"]  # accounted for: counted or rate-limited


async def test_a_broker_restart_is_noticed_and_the_next_move_played(tmp_path, shared_data):
    """Issue 11: "after a broker restart under load the gateway noticed the loss only at keepalive
    (18.7 s)". A private Mosquitto is killed (-9) and started again on the same port: the gateway
    reconnects, subscribes again (F11) and the next move is played."""
    port = free_port()
    start_broker = plain_broker(tmp_path, port)
    broker = start_broker()
    slug = f"brk-{uuid.uuid4().hex[:8]}"
    url = f"mqtt://127.0.0.1:{port}"
    log = open_log(f"sqlite:///{tmp_path / 'log.sqlite'}", slug)
    await log.append("round_started", round_data(1))
    gw = Gateway(log, url, slug)
    task = asyncio.create_task(gw.run())
    moves = candidates_moves(shared_data, 2)[:2]
    try:
        await asyncio.wait_for(gw.ready.wait(), 10)
        broker.kill()
        broker.wait(5)
        # noticed from the closed socket, not from the keepalive (60 s: MqttClient's default)
        await eventually_async(lambda: not gw.connected.is_set(), 15)
        broker = start_broker()
        await asyncio.wait_for(gw.connected.wait(), 15)
        async with aiomqtt.Client("127.0.0.1", port, identifier=f"dev-{slug}") as client:
            board = Device(client, slug, "1")
            for uci in moves:
                await board.send("move", move=uci)
            entries = await log_until(log, lambda es: len(moves_of(es, "1-1")) == 2, 10)
        assert moves_of(entries, "1-1") == moves
        assert gw.counts["reconnects"] >= 1
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        broker.kill()
        await log.close()


async def test_a_second_gateway_for_the_tournament_gives_way(tmp_path, shared_data):
    """A new user's finding: a rehearsal gateway started for the same tournament on the same broker
    (another store) took the session over about 6 times a second, and moves acknowledged into the
    rehearsal's store never reached the hall. The newer gateway stops (SessionTakenOver) within
    seconds; the hall's keeps its session and plays the next moves into its own log."""
    from gateway.service import SessionTakenOver

    slug = f"twice-{uuid.uuid4().hex[:8]}"
    hall_log = open_log(f"sqlite:///{tmp_path / 'hall.sqlite'}", slug)
    other_log = open_log(f"sqlite:///{tmp_path / 'rehearsal.sqlite'}", slug)
    for log in (hall_log, other_log):
        await log.append("round_started", round_data(1))
    hall_gw, other_gw = Gateway(hall_log, MQTT, slug), Gateway(other_log, MQTT, slug)
    hall_task = asyncio.create_task(hall_gw.run())
    try:
        await asyncio.wait_for(hall_gw.ready.wait(), 10)
        await asyncio.sleep(3.5)  # the hall's gateway has held its link: it was here first
        other_task = asyncio.create_task(other_gw.run())
        with pytest.raises(SessionTakenOver):
            await asyncio.wait_for(other_task, 30)
        await asyncio.wait_for(hall_gw.connected.wait(), 10)
        moves = candidates_moves(shared_data, 2)[:4]
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{slug}") as client:
            board = Device(client, slug, "1")
            for uci in moves:
                await board.send("move", move=uci)
            entries = await log_until(hall_log, lambda es: len(moves_of(es, "1-1")) == 4, 15)
        assert moves_of(entries, "1-1") == moves and not hall_task.done()
    finally:
        hall_task.cancel()
        await asyncio.gather(hall_task, return_exceptions=True)
        await hall_log.close()
        await other_log.close()


async def test_a_second_venue_gateway_taken_over_says_one_line(tmp_path):
    """Fresh-user report #13: the newcomer printed a WARNING per lost link, a CRITICAL and the error.
    README "One gateway per board": on another store but the same broker "the MQTT session takeover
    is noticed instead and the newcomer stops the same way" as beside a lease: "with exit code 2 and
    one line naming it"."""
    slug = f"twice-cli-{uuid.uuid4().hex[:8]}"
    hall_log = open_log(f"sqlite:///{tmp_path / 'hall.sqlite'}", slug)
    await hall_log.append("round_started", round_data(1))
    hall_gw = Gateway(hall_log, MQTT, slug)
    hall_task = asyncio.create_task(hall_gw.run())
    try:
        await asyncio.wait_for(hall_gw.ready.wait(), 10)
        await asyncio.sleep(3.5)  # the hall's gateway has held its link: it was here first
        newcomer = await asyncio.create_subprocess_exec(  # this checkout's venue (``-m`` from its root)
            sys.executable, "-m", "venue", "gateway", "--mqtt", MQTT, "--store", f"sqlite:///{tmp_path / 'rehearsal.sqlite'}",
            "--tournament", slug, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT)
        _, err = await asyncio.wait_for(newcomer.communicate(), 60)  # 60 s only stops one that hangs
        assert newcomer.returncode == 2
        lines = err.decode().splitlines()
        assert len(lines) == 1, lines
        [line] = lines
        assert line.startswith("venue: error: the gateway stopped: the MQTT session of this gateway "
                               f"(client id venue-gateway-{slug}) was taken over"), line
        assert not hall_task.done()  # the running one carries on
    finally:
        hall_task.cancel()
        await asyncio.gather(hall_task, return_exceptions=True)
        await hall_log.close()


async def test_an_append_whose_reply_was_lost_is_not_folded_twice(shared_data):
    """A store that wrote a batch but whose reply was lost (a timeout under load): the gateway retries
    with the same batch id (the store appends nothing twice) and its follower must not meanwhile read
    those entries as another writer's and fold them again (a suspect, not the cause, of an intermittent
    CI failure of test_round_live: the follower passes over them). Every move of Abasov -
    Nepomniachtchi's first 12 plies recorded once, in order, the game's ply count equal to the moves
    played."""
    slug = f"faults-{uuid.uuid4().hex[:8]}"
    log = open_log(REDIS, slug)
    await log.append("round_started", round_data(1))
    real = log.append_many
    lost = {"left": 1}

    async def append_then_lose_the_reply(entries, **kw):
        stored = await real(entries, **kw)
        if lost["left"] and any(e[0] == "move_played" for e in entries):
            lost["left"] -= 1
            await asyncio.sleep(0.3)  # the follower reads the stored entries meanwhile
            raise ConnectionError("the reply was lost")
        return stored

    log.append_many = append_then_lose_the_reply
    gw = Gateway(log, MQTT, slug)
    task = asyncio.create_task(gw.run())
    moves = candidates_moves(shared_data, 2)[:12]
    try:
        await asyncio.wait_for(gw.ready.wait(), 10)
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"dev-{slug}") as client:
            board = Device(client, slug, "1")
            for uci in moves:
                await board.send("move", move=uci)
            entries = await log_until(log, lambda es: len(moves_of(es, "1-1")) >= len(moves), 15)
        assert lost["left"] == 0  # one reply was lost, and the batch retried
        assert moves_of(entries, "1-1") == moves
        assert gw.hall.state.games["1-1"].ply == len(moves)
        assert not [e for e in entries if e.type in ("move_rejected", "message_rejected")]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        import redis.asyncio as aioredis

        conn = aioredis.from_url(REDIS)
        await conn.delete(*tournament_keys(slug))
        await conn.aclose()
        await log.close()
