"""The library internals the project reaches, each in one adapter module (issue 10: "reach private
attributes of aiomqtt, paho, amqtt and uvicorn only in one adapter module each, with a test that
fails loudly when an attribute disappears"): devices/mqtt_adapter.py (aiomqtt, paho),
gateway/broker.py (amqtt), dashboard/direct_ws.py (uvicorn)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import aiomqtt

from devices import mqtt_adapter

REPO = Path(__file__).resolve().parents[2]


async def test_aiomqtt_and_paho_offer_what_the_mqtt_adapter_uses():
    client = aiomqtt.Client("127.0.0.1", 1)
    mqtt_adapter.check(client)  # raises RuntimeError naming what is missing
    assert hasattr(mqtt_adapter.paho(client), "_registered_write")  # write_now's one private read


async def test_amqtt_offers_what_the_embedded_broker_uses():
    from amqtt.broker import Broker

    from gateway.broker import broker_config, free_port, missing_attributes

    broker = Broker(broker_config("127.0.0.1", free_port()))
    await broker.start()
    try:
        assert missing_attributes(broker) == []
    finally:
        await broker.shutdown()


async def test_uvicorn_offers_what_the_direct_frames_use():
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from dashboard.direct_ws import DirectProtocol, missing_attributes

    async def app(scope, receive, send):  # pragma: no cover - never called
        pass

    config = Config(app, ws_per_message_deflate=False)
    config.load()
    protocol = DirectProtocol(config=config, server_state=ServerState(), app_state={})
    assert missing_attributes(protocol) == []


def test_no_library_internals_outside_the_adapters():
    """``._client`` (aiomqtt's paho client), ``._queue``, ``._servers``/``._sessions`` (amqtt) only in
    their adapter modules, in the product and in bench/."""
    files = subprocess.run(["git", "ls-files", "*.py"], cwd=REPO, capture_output=True, text=True).stdout.split()
    allowed = {"devices/mqtt_adapter.py", "gateway/broker.py", "dashboard/direct_ws.py"}
    pattern = re.compile(r"\b(?:client|broker|paho|inner|server|handler)\._(client|queue|servers|sessions|writer)\b")
    offenders = [f for f in files if not f.startswith("tests/") and f not in allowed
                 and pattern.search((REPO / f).read_text())]
    assert offenders == []
