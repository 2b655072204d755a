"""The one place the gateway reaches past aiomqtt's public surface into paho-mqtt, its engine.

aiomqtt (2.x) offers no manual acknowledgement, no non-waiting publish and no socket options;
paho-mqtt (2.x) has all three. Every such access is here, and tests/unit/test_mqtt_adapter.py fails
loudly when an upgrade removes an attribute this module needs (``check(client)``).
"""

from __future__ import annotations

import contextlib
import socket

import aiomqtt

PAHO_ATTRIBUTES = ("manual_ack_set", "ack", "publish", "socket", "loop_write")
AIOMQTT_ATTRIBUTES = ("_client", "_queue")


def paho(client: aiomqtt.Client):
    """The paho-mqtt client inside an aiomqtt client (aiomqtt keeps it as ``_client``)."""
    return client._client  # noqa: SLF001 - the adapter's one reach into aiomqtt


def check(client: aiomqtt.Client) -> None:
    """Raise RuntimeError naming what is missing when aiomqtt or paho no longer offer what this
    adapter uses (run at start-up and by the tests, so an upgrade fails at once, not mid-round)."""
    lost = [name for name in AIOMQTT_ATTRIBUTES if getattr(client, name, None) is None]
    if lost:
        raise RuntimeError(f"aiomqtt.Client lacks {', '.join(lost)}: gateway/mqtt_adapter.py needs updating")
    inner = client._client  # noqa: SLF001
    missing = [name for name in PAHO_ATTRIBUTES if not callable(getattr(inner, name, None))]
    if missing:
        raise RuntimeError(f"paho-mqtt Client lacks {', '.join(missing)}: gateway/mqtt_adapter.py needs updating")


def manual_ack(client: aiomqtt.Client) -> None:
    """Acknowledge QoS 1 messages only when told to (``ack``): a device message is acknowledged once
    its entry is stored, so the broker keeps (and redelivers) what the log does not have yet."""
    paho(client).manual_ack_set(True)


def ack(client: aiomqtt.Client, mid: int, qos: int) -> None:
    """Send the PUBACK of message ``mid`` (nothing for QoS 0). Never raises: on a dead link the
    broker redelivers the message on the next connection, and the gateway sees it as a duplicate."""
    if qos <= 0:
        return
    with contextlib.suppress(Exception):
        paho(client).ack(mid, qos)


def publish_nowait(client: aiomqtt.Client, topic: str, payload: str | bytes, qos: int) -> None:
    """Queue a publish on paho's own outgoing queue without awaiting it (paho resends QoS 1 until its
    PUBACK): the next batch of the gateway must not wait for the devices. Never raises."""
    with contextlib.suppress(Exception):
        paho(client).publish(topic, payload, qos=qos)


def no_delay(client: aiomqtt.Client) -> None:
    """Switch Nagle's algorithm off on the client's socket (paho leaves it on): small MQTT packets
    (feedback, PUBACKs) otherwise wait for the peer's delayed ACK, up to 40 ms each (measured:
    p50 publish-to-log 13 ms with it on, ~3 ms off; 1000 boards, 100 msg/s)."""
    sock = paho(client).socket()
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def write_corked(client: aiomqtt.Client) -> None:
    """Put paho's queued packets (a batch's PUBACKs and feedback) on the wire now, as few TCP
    segments (TCP_CORK around the writes, Linux): paho sends each packet with a send() of its
    own, and on loopback every segment wakes the broker. Never raises."""
    sock = paho(client).socket()
    cork = getattr(socket, "TCP_CORK", None)
    if sock is None or cork is None:
        return write_now(client)
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, cork, 1)
    try:
        write_now(client)
    finally:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, cork, 0)  # uncorking sends what is held


def take_queued(client: aiomqtt.Client) -> list:
    """The messages paho received that aiomqtt has not handed out yet (its queue), taken now: on a
    clean stop they are handled and acknowledged before the link closes."""
    queue = client._queue  # noqa: SLF001 - aiomqtt keeps no public way to drain it
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


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
