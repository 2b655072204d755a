"""One bad message never stops the gateway, over real MQTT (docs/protocol.md: "Bad input of any
kind never stops the gateway or other boards"; `not JSON: ...`, `internal error: ...`).

The review's repro: the payload `[` * 1000 + `]` * 1000 (~2 KB) on `venue/<slug>/boards/99/move`
killed the gateway with RecursionError. Brokers: the embedded amqtt (random port) and the real
Mosquitto on 127.0.0.1:1883 (a missing service fails these tests: they never skip).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid

import aiomqtt
import pytest
from live_helpers import broker, log_until, running

from gateway import Gateway
from services.eventlog import open_log

pytestmark = pytest.mark.live


def round_started(*boards: str) -> dict:
    games = [{"id": f"1-{b}", "board": b, "round": "1", "white": "W", "black": "B", "white_elo": None,
              "black_elo": None, "variant": "chess", "time_control": "5400+30", "fen": None,
              "kind": "classical"} for b in boards]
    return {"round": "1", "event": "Test", "site": "", "date": "2024.04.04", "games": games}


async def wait_for(log, predicate, timeout: float = 10.0) -> list:
    return await log_until(log, predicate, timeout)


def host_port(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("mqtt://").rsplit(":", 1)
    return host, int(port)


@pytest.mark.parametrize("which", ["embedded", "mosquitto"])
async def test_nested_payload_and_an_internal_fault_do_not_stop_the_gateway(tmp_path, monkeypatch, which):
    t = f"it-bad-{uuid.uuid4().hex[:8]}"
    log = open_log(f"sqlite:///{tmp_path / 'log.sqlite'}", t)
    await log.append("round_started", round_started("1", "2"))
    nested = b"[" * 1000 + b"]" * 1000
    async with broker(which) as url:
        gateway = Gateway(log, url, t, client_id=f"gw-{t}")
        async with running(gateway) as task:
            host, port = host_port(url)
            async with aiomqtt.Client(host, port, identifier=f"dev-{t}") as device:
                await device.subscribe(f"venue/{t}/boards/+/feedback", qos=1)
                await device.publish(f"venue/{t}/boards/99/move", nested, qos=1)
                await device.publish(f"venue/{t}/boards/1/move", b'{"seq": 1, "move": "e2e4"}', qos=1)
                # a message that changes nothing is written with its repeats within a second (coalesce.py)
                entries = await wait_for(log, lambda es: any(e.type == "move_played" for e in es)
                                         and any(e.type == "message_rejected" for e in es))
                assert not task.done()
                rejected = [e.data for e in entries if e.type == "message_rejected"]
                assert len(rejected) == 1 and rejected[0]["reason"].startswith("not JSON")
                assert rejected[0]["board"] == "99" and rejected[0]["raw"] == nested.decode()[:2048]

                # a fault of the gateway itself while handling one message (injected)
                real = gateway.hall.handle

                def broken(topic, payload, now, **how):
                    if "/boards/2/" in topic:
                        raise RuntimeError("injected fault")
                    return real(topic, payload, now, **how)

                monkeypatch.setattr(gateway.hall, "handle", broken)
                await device.publish(f"venue/{t}/boards/2/move", b'{"seq": 1, "move": "d2d4"}', qos=1)
                await device.publish(f"venue/{t}/boards/1/move", b'{"seq": 2, "move": "e7e5"}', qos=1)
                entries = await wait_for(log, lambda es: sum(e.type == "move_played" for e in es) == 2)
                assert not task.done()
                faults = [e.data for e in entries if e.type == "message_rejected"][1:]
                assert len(faults) == 1 and faults[0]["reason"].startswith("internal error: RuntimeError")
                assert faults[0]["board"] == "2" and '"d2d4"' in faults[0]["raw"]

                feedback = {}
                with contextlib.suppress(asyncio.TimeoutError):
                    async with asyncio.timeout(5):
                        async for message in device.messages:
                            board = str(message.topic).split("/")[3]
                            feedback.setdefault(board, []).append(json.loads(message.payload))
                            if len(feedback.get("1", [])) == 2 and "2" in feedback and "99" in feedback:
                                break
                assert feedback["99"][0]["reason"].startswith("not JSON")
                assert feedback["2"][0]["reason"] == "internal error: RuntimeError"
                assert [f["accepted"] for f in feedback["1"]] == [True, True]
    await log.close()
