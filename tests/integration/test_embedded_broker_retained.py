"""A retained message goes only to subscribers whose filter matches its topic, on the embedded broker
as on Mosquitto 127.0.0.1:1883 (MQTT 3.1.1 3.3.1.3: a retained message "can be delivered to future
subscribers whose subscriptions match its topic name"; 3.8.4: the Server sends the retained messages
matching the Topic Filter of a new Subscription).

The case (a new user's run of the demo): a tool subscribing to another topic on the demo's embedded
broker got the boards' retained ``status`` messages. amqtt 0.12.1 (the newest release) publishes, to
every client that connects, the retained messages matching any client's subscriptions (Broker's
"Publish retained messages to a pre-existing session's subscriptions" loops over the broker's whole
subscription table, not the session's); ``gateway.broker`` keeps that resend to the session's own.

Real clients (aiomqtt): a board publishes its retained status (docs/protocol.md ``status``), the
gateway's subscription to every board's status stands, then a tool connects and subscribes to
another topic; a second tool subscribes to the status topic itself and must get it, once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid

import aiomqtt
import pytest
from live_helpers import broker

from services.protocol.mqtt_url import parse_mqtt_url

pytestmark = pytest.mark.live

QUIET_S = 1.0  # how long a subscriber listens for what it must not get


def client(url: str, name: str) -> aiomqtt.Client:
    target = parse_mqtt_url(url)
    return aiomqtt.Client(target.host, target.port, identifier=f"{name}-{uuid.uuid4().hex[:6]}")


async def received(c: aiomqtt.Client, seconds: float) -> list[tuple[str, bytes, bool]]:
    """``(topic, payload, retain)`` of what ``c`` gets within ``seconds``."""
    out = []
    with contextlib.suppress(asyncio.TimeoutError):
        async with asyncio.timeout(seconds):
            async for m in c.messages:
                out.append((str(m.topic), bytes(m.payload), m.retain))
    return out


@pytest.mark.parametrize("kind", ["embedded", "mosquitto"])
async def test_a_retained_status_goes_only_to_filters_that_match_it(kind):
    t = f"it-ret-{uuid.uuid4().hex[:8]}"
    status = f"venue/{t}/boards/1/status"
    body = json.dumps({"status": "online", "device": "board", "battery": "87%"}).encode()
    async with broker(kind) as url, client(url, "gateway") as gateway:
        await gateway.subscribe(f"venue/{t}/boards/+/status", qos=1)
        async with client(url, "board") as board:
            await board.publish(status, body, qos=1, retain=True)
        assert await received(gateway, QUIET_S) == [(status, body, False)]  # live: retain 0 (3.3.1.9)
        try:
            async with client(url, "tool") as tool:
                await tool.subscribe(f"venue/{t}/tools/#", qos=1)
                assert await received(tool, QUIET_S) == []
            async with client(url, "watcher") as watcher:
                await watcher.subscribe(status, qos=1)
                assert await received(watcher, QUIET_S) == [(status, body, True)]
        finally:
            async with client(url, "board") as board:  # an empty retained message clears it (3.3.1.10)
                await board.publish(status, b"", qos=1, retain=True)
