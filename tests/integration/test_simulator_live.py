"""The simulated boards and clocks on a real broker: what a listener on the topics sees.

Source game: FIDE Candidates 2024 round 1, Caruana - Nakamura (../shared/data/chess), first moves
with their [%clk] figures. Protocol: DESIGN.md "Device protocol", docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import json
import uuid

import aiomqtt
import pytest

from devices.cli import main as cli_main
from devices.simulate import simulate
from gateway import embedded_broker
from services.protocol.mqtt_url import parse_mqtt_url

pytestmark = pytest.mark.live

GAME = """[Event "Candidates"]
[Round "1"]
[White "Caruana, Fabiano"]
[Black "Nakamura, Hikaru"]
[Result "1/2-1/2"]

1. e4 {[%clk 1:59:56]}  c5 {[%clk 1:59:50]}  2. Nf3 {[%clk 1:59:51]}
d6 {[%clk 1:59:46]} 1/2-1/2
"""


async def listen(url: str, t: str, ready: asyncio.Event, out: list, stop: asyncio.Event) -> None:
    target = parse_mqtt_url(url)
    async with aiomqtt.Client(target.host, target.port, identifier=f"listener-{t}") as client:
        await client.subscribe(f"venue/{t}/boards/#", qos=1)
        ready.set()
        async for message in client.messages:
            out.append((str(message.topic).rsplit("/", 1)[-1], message.payload.decode(), message.retain))
            if stop.is_set():
                return


async def record(url: str, t: str, play) -> list:
    ready, stop, out = asyncio.Event(), asyncio.Event(), []
    task = asyncio.create_task(listen(url, t, ready, out, stop))
    await asyncio.wait_for(ready.wait(), 10)
    await play()
    await asyncio.sleep(0.5)
    stop.set()
    task.cancel()
    return out


@pytest.mark.parametrize("broker", ["embedded", "mosquitto"])
async def test_what_the_devices_publish(broker):
    """No gateway listens: nothing answers the stations, which therefore wait for no answer at the
    end (``confirm_wait_s=0``; docs/protocol.md "End-to-end acknowledgement")."""
    t = f"it-sim-{uuid.uuid4().hex[:8]}"
    if broker == "embedded":
        async with embedded_broker() as url:
            seen = await record(url, t, lambda: simulate(url, t, GAME, speed=1e6, confirm_wait_s=0))
    else:
        url = "mqtt://127.0.0.1:1883"
        seen = await record(url, t, lambda: simulate(url, t, GAME, speed=1e6, confirm_wait_s=0))
    moves = [json.loads(p) for kind, p, _ in seen if kind == "move"]
    assert [m["move"] for m in moves] == ["e2e4", "c7c5", "g1f3", "d7d6"]
    assert [m["seq"] for m in moves] == [1, 2, 3, 4]
    clock = [json.loads(p) for kind, p, _ in seen if kind == "clock"]
    assert [c["event"] for c in clock] == ["start", "press", "press", "press", "press", "pause"]
    assert [c["seq"] for c in clock] == [1, 2, 3, 4, 5, 6]
    # the press figures are exactly the [%clk] values, in ms
    assert (clock[-2]["white_ms"], clock[-2]["black_ms"]) == (7_191_000, 7_186_000)
    assert clock[1] == {"seq": 2, "game": 1, "event": "press", "white_ms": 7_196_000, "black_ms": 7_200_000,
                        "running": "black"}  # game: the game's number on the board (docs/protocol.md)
    (result,) = [json.loads(p) for kind, p, _ in seen if kind == "result"]
    assert result == {"seq": 5, "game": 1, "result": "1/2-1/2", "reason": "agreement", "device": "board"}
    statuses = [p for kind, p, _ in seen if kind == "status"]
    assert statuses[0] == "online" and statuses[-1] == "offline"


async def test_cli_runs_a_pgn_file(tmp_path):
    path = tmp_path / "round.pgn"
    path.write_text(GAME)
    t = f"it-cli-{uuid.uuid4().hex[:8]}"
    async with embedded_broker() as url:
        seen = await record(url, t, lambda: asyncio.to_thread(
            cli_main, ["--mqtt", url, "--tournament", t, "--pgn", str(path), "--speed", "1000000",
                       "--confirm-wait", "0"]))  # no gateway answers here
    assert [json.loads(p)["move"] for kind, p, _ in seen if kind == "move"] == [
        "e2e4", "c7c5", "g1f3", "d7d6"]


def test_cli_bad_file_exits_2(tmp_path):
    assert cli_main(["--mqtt", "mqtt://127.0.0.1:1", "--tournament", "x",
                     "--pgn", str(tmp_path / "missing.pgn")]) == 2
