"""The embedded MQTT broker (amqtt), for a venue machine without Mosquitto and for tests.

DESIGN.md: an embedded broker runs on a port of its own, never 1883 (a venue machine or a test machine
may already run Mosquitto there). Anonymous access, QoS 0-2, retained messages and persistent sessions
(clean_session=0) are amqtt's; its sessions live in memory, so they do not survive a restart.

amqtt 0.12.1 (the newest release; its main branch still does it) sends a client that connects the
retained messages matching *any* client's subscription: its "publish retained messages to a
pre-existing session's subscriptions" loops over the broker's whole subscription table. A tool
subscribed to another topic then got every board's retained ``status``, which Mosquitto never sends
it (MQTT 3.1.1 3.3.1.3: retained messages go to subscribers "whose subscriptions match"). ``_Broker``
keeps that resend to the filters the session itself subscribed to
(tests/integration/test_embedded_broker_retained.py).

And amqtt takes back a session it still holds for a client id without the new CONNECT's
``clean_session`` flag: a client that connected once with ``clean_session=1`` (a simulated station
starting afresh, docs/protocol.md "End-to-end acknowledgement") and then with ``clean_session=0`` kept
a clean session, lost at its next link cut with the feedback queued for it (3.1.2.4: with 0 "the Server
MUST resume communications with the Client based on state from the current Session"; a session that
was clean ended with its connection). ``_Broker`` marks such a session kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator

from dataclasses import dataclass

from amqtt.broker import Broker
from amqtt.plugins.base import BaseAuthPlugin

log = logging.getLogger(__name__)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` now (the OS's choice; never 1883)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((host, 0))
            port = sock.getsockname()[1]
        if port != 1883:
            return port


class OpenSessionsAuthPlugin(BaseAuthPlugin):
    """Lets every client in and keeps its session (MQTT 3.1.1 3.1.2.4, F11).

    amqtt's AnonymousAuthPlugin marks every session anonymous, and amqtt keeps no messages for an
    anonymous session while it is offline: a gateway with clean_session=0 would lose the plies of an
    outage. The embedded broker is for demos and tests on one machine; deployments use Mosquitto with
    per-device credentials and ACLs (deploy/).
    """

    @dataclass
    class Config:
        """No options."""

    async def authenticate(self, *, session) -> bool:
        """Every client in, its session kept (not anonymous)."""
        session.is_anonymous = False
        return True


class _Broker(Broker):
    """amqtt's Broker, sending a session the retained messages of its own subscriptions only, and
    keeping the session of a ``clean_session=0`` connect that took back a clean one (module
    docstring)."""

    async def _handle_client_session(self, reader, writer, client_session, handler, server, listener_name) -> None:
        """amqtt's, with a taken-back session (``parent`` 1: amqtt reaches that branch only for a
        CONNECT with ``clean_session=0``) marked kept."""
        if client_session.parent == 1 and client_session.clean_session:
            client_session.clean_session = False
        await super()._handle_client_session(reader, writer, client_session, handler, server, listener_name)

    async def _publish_retained_messages_for_subscription(self, subscription: tuple[str, int], session) -> None:
        """Send ``session`` the retained messages matching ``subscription`` (``(filter, qos)``) when
        the session holds that subscription: always after its SUBSCRIBE (amqtt adds it first), and
        at a reconnection only for the session's own filters, not every client's."""
        holders = self._subscriptions.get(subscription[0], ())
        if any(held.client_id == session.client_id for held, _qos in holders):
            await super()._publish_retained_messages_for_subscription(subscription, session)


def broker_config(host: str, port: int) -> dict:
    """amqtt's configuration: one TCP listener on ``host:port``, open access, kept sessions."""
    return {
        "listeners": {"default": {"type": "tcp", "bind": f"{host}:{port}"}},
        "plugins": {f"{__name__}.OpenSessionsAuthPlugin": {}},
    }


@contextlib.asynccontextmanager
async def embedded_broker(host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[str]:
    """Run amqtt in this process; yields its URL ``"mqtt://HOST:PORT"``; shuts it down on exit.

    ``port=0`` takes a free port. Raises ValueError for port 1883 (kept for Mosquitto) and
    amqtt's BrokerError when the port cannot be bound.
    """
    if port == 1883:
        raise ValueError("port 1883 is kept for Mosquitto: the embedded broker needs its own port")
    port = port or free_port(host)
    broker = _Broker(broker_config(host, port))
    await broker.start()
    if missing_attributes(broker):  # this module reaches into amqtt to shut it down promptly
        log.warning("embedded broker: amqtt lacks %s: shutdown may hang", missing_attributes(broker))
    try:
        yield f"mqtt://{host}:{port}"
    finally:
        await _stop(broker)


AMQTT_ATTRIBUTES = ("_servers", "_sessions", "_subscriptions")  # dicts: ``_stop`` and ``_Broker`` read them
AMQTT_METHODS = ("_publish_retained_messages_for_subscription", "_handle_client_session")  # ``_Broker`` overrides them


def missing_attributes(broker: Broker) -> list[str]:
    """The amqtt internals ``_stop`` and ``_Broker`` read that ``broker`` lacks (tests/unit/test_adapters.py):
    the dicts of ``AMQTT_ATTRIBUTES``, amqtt's own methods of ``AMQTT_METHODS``."""
    return [name for name in AMQTT_ATTRIBUTES if not isinstance(getattr(broker, name, None), dict)] + [
        name for name in AMQTT_METHODS if not callable(getattr(Broker, name, None))]


async def _stop(broker: Broker) -> None:
    """Shut amqtt down cleanly: stop listening, cut every client's TCP link (amqtt's own shutdown
    waits for each client's reader to end, which can hang), then let amqtt close its sessions."""
    for server in list(getattr(broker, "_servers", {}).values()):
        instance = getattr(server, "instance", None)
        if instance is not None:
            instance.close()
    for _session, handler in list(getattr(broker, "_sessions", {}).values()):
        stream = getattr(getattr(handler, "writer", None), "_writer", None)
        transport = getattr(stream, "transport", None)
        if transport is not None:
            transport.abort()
    try:
        await asyncio.wait_for(broker.shutdown(), timeout=5)
    except Exception:  # amqtt can still fail half-way; the port and the links are closed already
        log.warning("embedded broker: shutdown did not finish", exc_info=True)
