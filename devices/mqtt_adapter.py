"""The one place the project's aiomqtt clients (the simulated devices and stations, the benches'
boards) reach past aiomqtt's public surface into paho-mqtt, its engine.

aiomqtt (2.x) offers no socket options, no way to fail a link and no immediate write; paho-mqtt (2.x)
has them. Every such access is here, and tests/unit/test_adapters.py fails loudly when an upgrade
removes an attribute this module needs (``check(client)``). The gateway itself speaks MQTT with
``gateway.mqtt_client`` (no aiomqtt, no paho).
"""

from __future__ import annotations

import contextlib
import socket

import aiomqtt

PAHO_ATTRIBUTES = ("publish", "socket", "loop_write")
AIOMQTT_ATTRIBUTES = ("_client",)


def paho(client: aiomqtt.Client):
    """The paho-mqtt client inside an aiomqtt client (aiomqtt keeps it as ``_client``)."""
    return client._client  # noqa: SLF001 - the adapter's one reach into aiomqtt


def check(client: aiomqtt.Client) -> None:
    """Raise RuntimeError naming what is missing when aiomqtt or paho no longer offer what this
    adapter uses (run at start-up and by the tests, so an upgrade fails at once, not mid-round)."""
    lost = [name for name in AIOMQTT_ATTRIBUTES if getattr(client, name, None) is None]
    if lost:
        raise RuntimeError(f"aiomqtt.Client lacks {', '.join(lost)}: devices/mqtt_adapter.py needs updating")
    inner = client._client  # noqa: SLF001
    missing = [name for name in PAHO_ATTRIBUTES if not callable(getattr(inner, name, None))]
    if missing:
        raise RuntimeError(f"paho-mqtt Client lacks {', '.join(missing)}: devices/mqtt_adapter.py needs updating")


def no_delay(client: aiomqtt.Client) -> None:
    """Switch Nagle's algorithm off on the client's socket (paho leaves it on): small MQTT packets
    (moves, PUBACKs) otherwise wait for the peer's delayed ACK, up to 40 ms each (measured:
    p50 publish-to-log 13 ms with it on, ~3 ms off; 1000 boards, 100 msg/s)."""
    sock = paho(client).socket()
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def cut_link(client: aiomqtt.Client) -> None:
    """Fail the client's TCP link without a DISCONNECT (a simulated device losing its network: the
    broker then publishes its will). Never raises."""
    sock = paho(client).socket()
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def write_now(client: aiomqtt.Client) -> None:
    """Put paho's queued packets on the wire now rather than on the event loop's next turn (a
    benchmark's device sends at once). aiomqtt registers paho's writer with ``call_soon_threadsafe``
    and removes it when done, so a writer paho is about to add is removed after it. Never raises."""
    import asyncio

    inner = paho(client)
    with contextlib.suppress(Exception):
        inner.loop_write()
        if not inner._registered_write and inner.socket() is not None:  # noqa: SLF001
            loop = asyncio.get_running_loop()
            loop.call_soon(loop.remove_writer, inner.socket().fileno())
