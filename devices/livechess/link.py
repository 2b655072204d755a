"""One hall board's MQTT connection for the bridge: the board's own login (the venue's Mosquitto
lets a board's login write only under its board: deploy/make-mosquitto-passwords.py), its board and
clock messages on one link, as a DGT clock wired through its board.

Everything is QoS 1, sent in order, one at a time, at most ``PACE_PER_S`` a second after a burst
(the gateway's rate limit is above that); a message without PUBACK is sent again with the
same ``seq`` once the link is back (docs/protocol.md). The session is kept (clean_session=0, a fixed
client id) so feedback sent while the link is down still arrives. The retained ``status`` is sent
again after each reconnect, with the last will ``offline``: if the bridge dies, every board it
serves shows offline. A feedback with ``resend_from`` (the gateway found a hole) sends that device's
messages again from that seq on, as far as this run still has them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import aiomqtt

from devices.feedback import publish_acked, take_feedback
from gateway.mqtt_adapter import no_delay

log = logging.getLogger(__name__)

PUBACK_TIMEOUT_S = 2.0
HISTORY = 2000  # messages kept per device for resending (a few games' worth)
# The gateway drops a device's messages beyond 50 a second, after a burst of 400
# (gateway/service.py RATE_PER_S, RATE_BURST): the link paces itself below that, so a flood from
# LiveChess is delayed, never dropped.
PACE_PER_S, PACE_BURST = 40.0, 200.0


class BoardLink:
    """The MQTT link of hall board ``board`` of ``tournament``. ``send(kind, seq, body, device)``
    queues a message; ``set_status(text)`` queues the retained status; ``run()`` keeps the link up
    until cancelled. ``sent``: every (topic, payload) published, in order (for tests and logs);
    ``feedback``: every feedback payload received."""

    def __init__(self, host: str, port: int, tournament: str, board: str, *, username: str | None = None,
                 password: str | None = None, client_id: str | None = None):
        self.host, self.port, self.tournament, self.board = host, port, tournament, board
        self.username, self.password = username, password
        self.client_id = client_id or f"venue-livechess-{tournament}-{board}"
        self.status: str | None = None
        self.sent: list[tuple[str, str]] = []
        self.feedback: list[dict] = []
        self._queue: asyncio.Queue[tuple[str, str, bool]] = asyncio.Queue()
        self._history: dict[str, dict[int, tuple[str, str]]] = {"board": {}, "clock": {}}
        self._up = asyncio.Event()
        self._client: aiomqtt.Client | None = None
        self._tasks: set[asyncio.Task] = set()

    def topic(self, kind: str) -> str:
        """``venue/{t}/boards/{b}/{kind}``."""
        return f"venue/{self.tournament}/boards/{self.board}/{kind}"

    def send(self, kind: str, seq: int, body: dict, device: str) -> None:
        """Queue ``{"seq": seq, **body}`` on ``kind``; kept for resending under ``device``."""
        message = self.topic(kind), json.dumps({"seq": seq, **body}, separators=(",", ":"))
        history = self._history[device]
        history[seq] = message
        if len(history) > HISTORY:
            del history[min(history)]
        self._queue.put_nowait((*message, False))

    def set_status(self, text: str) -> None:
        """Queue the retained status ``online``/``offline`` (sent again after each reconnect)."""
        self.status = text
        self._queue.put_nowait((self.topic("status"), text, True))

    async def idle(self) -> None:
        """Wait until every queued message has been published."""
        await self._queue.join()

    async def run(self) -> None:
        """Keep the link up and publish the queue in order, until cancelled."""
        sender = asyncio.create_task(self._send_all(), name=f"livechess-send-{self.board}")
        try:
            await self._link()
        finally:
            sender.cancel()
            for task in list(self._tasks):
                task.cancel()
            with contextlib.suppress(BaseException):
                await sender

    async def _send_all(self) -> None:
        loop = asyncio.get_running_loop()
        tokens, at = PACE_BURST, loop.time()
        while True:
            topic, payload, retain = await self._queue.get()
            try:
                now = loop.time()
                tokens = min(PACE_BURST, tokens + (now - at) * PACE_PER_S)
                at = now
                if tokens < 1:
                    await asyncio.sleep((1 - tokens) / PACE_PER_S)
                    tokens, at = 1.0, loop.time()
                tokens -= 1
                await self._publish(topic, payload, retain)
            finally:
                self._queue.task_done()

    async def _publish(self, topic: str, payload: str, retain: bool = False) -> None:
        await publish_acked(self._up, lambda: self._client, topic, payload, retain=retain, timeout=PUBACK_TIMEOUT_S)
        self.sent.append((topic, payload))

    async def _link(self) -> None:
        backoff = 0.05
        while True:
            try:
                await self._connected()
                backoff = 0.05
            except aiomqtt.MqttError as exc:
                log.info("board %s: MQTT link down (%s); again in %.2f s", self.board, exc, backoff)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)

    async def _connected(self) -> None:
        """One connection, until it drops: the status again (the will may have said offline
        meanwhile), the feedback subscribed, the queue let through."""
        will = aiomqtt.Will(self.topic("status"), "offline", qos=1, retain=True)
        client = aiomqtt.Client(self.host, self.port, identifier=self.client_id, will=will, clean_session=False,
                                username=self.username, password=self.password, keepalive=10)
        try:
            async with client:
                no_delay(client)
                if self.status is not None:
                    await client.publish(self.topic("status"), self.status, qos=1, retain=True, timeout=5)
                await client.subscribe(self.topic("feedback"), qos=1, timeout=5)
                self._client = client
                self._up.set()
                async for message in client.messages:
                    take_feedback(message.payload, self.feedback, self._resend, self._tasks)
        finally:
            self._up.clear()
            self._client = None

    async def _resend(self, device: str, first: int) -> None:
        history = self._history.get(device, {})
        for seq in sorted(s for s in history if s >= first):
            await self._publish(*history[seq])
