"""Fault drills of the gateway for docs/reliability.md (issue 11: the gateway rows).

Drills, each on a broker and store of its own (a private ``mosquitto`` and ``redis-server`` on free
ports; the shared 127.0.0.1 services are not touched), with the moves of a real game (FIDE
Candidates 2024, round 1, Abasov - Nepomniachtchi):

1. the store frozen while moves arrive and the gateway killed (-9), then both back: moves lost,
   moves invented, time until every move is in the log;
2. one board flooding (duplicates and garbage as fast as one client sends, QoS 0) while two boards
   play a move every 50 ms: the flood's messages and entries, the other boards' move latency
   (publish -> stored) with and without the flood, beside each other;
3. the broker killed (-9) and restarted: time until the gateway notices, until it is subscribed
   again, and until the next move is stored.

Prints a table. Usage: ``.venv/bin/python bench/bench_gateway_faults.py`` from the repository root.
"""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import aiomqtt  # noqa: E402
import chess.pgn  # noqa: E402
from eventlog_helpers import PrivateRedis  # noqa: E402

from gateway import Gateway  # noqa: E402
from gateway.broker import free_port  # noqa: E402
from services.eventlog import open_log  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "chess" / "fide_candidates_2024_open.pgn"
VENUE = str(Path(sys.executable).with_name("venue"))


def moves() -> list[str]:
    stream = io.StringIO(SHARED.read_text())
    chess.pgn.read_game(stream)
    return [m.uci() for m in chess.pgn.read_game(stream).mainline_moves()]


def round_data(boards: int) -> dict:
    return {"round": "1", "event": "Drill", "site": "", "date": "2024.04.04", "games": [
        {"id": f"1-{b}", "board": str(b), "round": "1", "white": f"W{b}", "black": f"B{b}", "variant": "chess",
         "time_control": None, "fen": None, "kind": "classical"} for b in range(1, boards + 1)]}


class Broker:
    def __init__(self, directory: Path):
        self.port = free_port()
        self.conf = directory / "mosquitto.conf"
        self.conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                             "max_inflight_messages 200\nset_tcp_nodelay true\n")
        self.proc = None

    def start(self) -> None:
        self.proc = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.3)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(5)


async def until(pred, timeout: float = 30.0) -> float:
    start = time.monotonic()
    while not await pred():
        if time.monotonic() - start > timeout:
            raise TimeoutError
        await asyncio.sleep(0.02)
    return time.monotonic() - start


def played(entries, game: str) -> list[str]:
    return [e.data["move"] for e in entries if e.type == "move_played" and e.data["game"] == game]


async def drill_store_down_and_kill(tmp: Path, game: list[str]) -> list[str]:
    redis, broker = PrivateRedis(tmp), Broker(tmp)
    redis.start()
    broker.start()
    slug = f"drill-{uuid.uuid4().hex[:6]}"
    log = open_log(redis.url, slug)
    await log.append("round_started", round_data(1))
    argv = [VENUE, "gateway", "--mqtt", f"mqtt://127.0.0.1:{broker.port}", "--store", redis.url, "--tournament", slug]
    gw = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    gw.stdout.readline()
    try:
        async with aiomqtt.Client("127.0.0.1", broker.port, identifier=f"dev-{slug}") as c:
            for seq, uci in enumerate(game[:30], start=1):
                if seq == 11:
                    await until(lambda: _count(log, 10))
                    redis.freeze()
                await c.publish(f"venue/{slug}/boards/1/move", json.dumps({"seq": seq, "move": uci}), qos=1)
            await asyncio.sleep(1.0)
            gw.send_signal(signal.SIGKILL)
            gw.wait(10)
            redis.thaw()
            back = time.monotonic()
            gw = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            gw.stdout.readline()
            await until(lambda: _count(log, 30))
            took = time.monotonic() - back
        got = played(await log.read(), "1-1")
        lost = len([m for m in game[:30] if m not in got])
        extra = len(got) - len(game[:30]) + lost
        return ["Redis frozen while 20 moves arrive, gateway killed (-9), both back",
                f"{len(got)} of 30 moves stored, in order: {got == game[:30]}", f"{lost} lost, {extra} invented",
                f"every move stored {took:.1f} s after the restart"]
    finally:
        gw.kill()
        redis.stop()
        broker.kill()
        await log.close()


async def _count(log, n: int) -> bool:
    return len(played(await log.read(), "1-1")) >= n


async def drill_flood(tmp: Path, game: list[str]) -> list[list[str]]:
    broker = Broker(tmp)
    broker.start()
    slug = f"flood-{uuid.uuid4().hex[:6]}"
    log = open_log(f"sqlite:///{tmp / 'flood.sqlite'}", slug)
    await log.append("round_started", round_data(3))
    gw = Gateway(log, f"mqtt://127.0.0.1:{broker.port}", slug)
    task = asyncio.create_task(gw.run())
    await asyncio.wait_for(gw.ready.wait(), 10)
    rows = []
    try:
        async with aiomqtt.Client("127.0.0.1", broker.port, identifier=f"dev-{slug}") as good, \
                aiomqtt.Client("127.0.0.1", broker.port, identifier=f"bad-{slug}") as bad:
            for label, flooding, first in (("no flood", False, 0), ("one board flooding", True, 20)):
                stop, sent = asyncio.Event(), [0]

                async def flood():
                    topic = f"venue/{slug}/boards/3/move"
                    while not stop.is_set():
                        for payload in ('{"seq": 1, "move": "e2e4"}', "not json"):
                            await bad.publish(topic, payload, qos=0)
                            sent[0] += 1
                        if sent[0] % 100 == 0:
                            await asyncio.sleep(0)

                flooder = asyncio.create_task(flood()) if flooding else None
                before = len(await log.read())
                started, latencies = time.monotonic(), []
                for i, uci in enumerate(game[first:first + 20]):
                    for b in ("1", "2"):
                        t = time.time()
                        await good.publish(f"venue/{slug}/boards/{b}/move",
                                           json.dumps({"seq": first + i + 1, "move": uci}), qos=1)
                        await until(lambda b=b, n=first + i + 1: _has(log, f"1-{b}", n), 10)
                        latencies.append((time.time() - t) * 1000)
                    await asyncio.sleep(0.05)
                stop.set()
                if flooder:
                    await flooder
                await asyncio.sleep(1.5)
                took = time.monotonic() - started
                entries = (await log.read())[before:]
                flood_entries = [e for e in entries if e.data.get("board") == "3"]
                rate = sent[0] / took if flooding else 0
                rows.append([f"{label}: boards 1-2 play 20 moves each", f"{sent[0]} flood messages ({rate:,.0f}/s)",
                             f"{len(flood_entries)} flood entries (counted {sum(int(e.data.get('count', 1)) for e in flood_entries)}, "
                             f"dropped {gw.counts['dropped']})",
                             f"other boards' move stored p50 {statistics.median(latencies):.0f} ms, "
                             f"max {max(latencies):.0f} ms"])
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        broker.kill()
        await log.close()
    return rows


async def _has(log, game: str, n: int) -> bool:
    return len(played(await log.read(), game)) >= n


async def drill_broker_restart(tmp: Path, game: list[str]) -> list[str]:
    broker = Broker(tmp)
    broker.start()
    slug = f"brk-{uuid.uuid4().hex[:6]}"
    log = open_log(f"sqlite:///{tmp / 'brk.sqlite'}", slug)
    await log.append("round_started", round_data(1))
    gw = Gateway(log, f"mqtt://127.0.0.1:{broker.port}", slug)
    task = asyncio.create_task(gw.run())
    await asyncio.wait_for(gw.ready.wait(), 10)
    try:
        broker.kill()
        t0 = time.monotonic()
        noticed = await until(lambda: _not(gw.connected.is_set()), 30)
        broker.start()
        t1 = time.monotonic()
        await asyncio.wait_for(gw.connected.wait(), 30)
        again = time.monotonic() - t1
        async with aiomqtt.Client("127.0.0.1", broker.port, identifier=f"dev-{slug}") as c:
            t2 = time.monotonic()
            await c.publish(f"venue/{slug}/boards/1/move", json.dumps({"seq": 1, "move": game[0]}), qos=1)
            await until(lambda: _count(log, 1), 10)
            stored = time.monotonic() - t2
        return ["Mosquitto killed (-9) and restarted on its port", f"lost link noticed after {noticed:.2f} s",
                "none", f"subscribed again {again:.2f} s after the broker was back; next move stored in "
                        f"{stored * 1000:.0f} ms"]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        broker.kill()
        await log.close()
        del t0


async def _not(value: bool) -> bool:
    return not value


async def main() -> None:
    game = moves()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        rows.append(await drill_store_down_and_kill(Path(d), game))
    with tempfile.TemporaryDirectory() as d:
        rows += await drill_flood(Path(d), game)
    with tempfile.TemporaryDirectory() as d:
        rows.append(await drill_broker_restart(Path(d), game))
    print("| fault | observed | data lost | recovery / latency |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    asyncio.run(main())
