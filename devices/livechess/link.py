"""One hall board's MQTT connection for the bridge: the board's own login (the venue's Mosquitto
lets a board's login write only under its board: deploy/make-mosquitto-passwords.py), its board and
clock messages on one link, as a DGT clock wired through its board.

Everything is QoS 1, sent in order, one at a time, at most ``PACE_PER_S`` a second after a burst
(the gateway's rate limit is above that); a message without PUBACK is sent again with the
same ``seq`` once the link is back (docs/protocol.md). The session is kept (clean_session=0, a fixed
client id) so feedback sent while the link is down still arrives. The retained ``status`` is sent
again after each reconnect, with the last will ``offline``: if the bridge dies, every board it
serves shows offline.

A message is done when the gateway's feedback says it is stored (``ref`` its seq, ``device`` whose),
not when the broker acknowledges it (a broker that crashes loses what it held; issue 28): every
message without that feedback is kept (``unconfirmed``, also in the bridge's state file) and sent
again, with the same seq and in the order first sent, each time the link comes back, before anything
new; and while the link is up, when the gateway has confirmed nothing for ``RETRY_S`` (doubling to
``RETRY_MAX_S``) while messages wait (a broker that restarted without its sessions drops what is
published before the gateway subscribes again). A feedback with ``resend_from`` (the gateway found a
hole; it holds the messages after it, not yet stored) sends that device's messages again from that
seq on. A link starts afresh (its first connection cleans the session: a bridge started for a new
round, its seqs from 1 again, must not take the last round's queued answers for its own) and takes
only its round's feedback (``"round"``, learned from the first answer to one of its messages; the
messages an earlier run left unconfirmed are sent again, answered ``duplicate``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Callable

import aiomqtt

from devices.feedback import RETRY_S, Outbox, clean_start, publish_acked, resend_when_quiet
from devices.mqtt_adapter import no_delay

log = logging.getLogger(__name__)

PUBACK_TIMEOUT_S = 2.0
HISTORY = 2000  # messages kept per device for resending (a few games' worth)
MAX_UNCONFIRMED = 20000  # a gateway that answers nothing for that long is down: the oldest go
# The gateway drops a device's messages beyond 50 a second, after a burst of 400
# (gateway/service.py RATE_PER_S, RATE_BURST): the link paces itself below that, so a flood from
# LiveChess is delayed, never dropped.
PACE_PER_S, PACE_BURST = 40.0, 200.0


class BoardLink:
    """The MQTT link of hall board ``board`` of ``tournament``. ``send(kind, seq, body, device)``
    queues a message; ``set_status(text)`` queues the retained status; ``run()`` keeps the link up
    until cancelled. ``sent``: every (topic, payload) published, in order (for tests and logs);
    ``feedback``: every feedback payload received; ``unconfirmed``: ``{(device, seq): (topic,
    payload)}`` the messages the gateway has not confirmed, in the order first queued;
    ``on_confirm(device, seq)``: called when one is confirmed; ``resent``: ``(device, seq)`` of each
    sent again after a reconnect."""

    def __init__(self, host: str, port: int, tournament: str, board: str, *, username: str | None = None,
                 password: str | None = None, client_id: str | None = None,
                 on_confirm: Callable[[str, int], None] | None = None, retry_s: float = RETRY_S):
        self.host, self.port, self.tournament, self.board = host, port, tournament, board
        self.username, self.password = username, password
        self.client_id = client_id or f"venue-livechess-{tournament}-{board}"
        self.status: str | None = None
        self.sent: list[tuple[str, str]] = []
        self.feedback: list[dict] = []
        self.outbox = Outbox(limit=MAX_UNCONFIRMED, on_confirm=on_confirm, learn_round=True)
        self._fresh = False  # the session of an earlier run cleaned (once, at the first connect)
        self.unconfirmed = self.outbox.unconfirmed
        self.retry_s = retry_s
        self.resent: list[tuple[str, int]] = []
        self._queue: asyncio.Queue[tuple[str, str, bool, tuple[str, int] | None]] = asyncio.Queue()
        self._history: dict[str, dict[int, tuple[str, str]]] = {"board": {}, "clock": {}}
        self._up = asyncio.Event()
        self._client: aiomqtt.Client | None = None
        self._tasks: set[asyncio.Task] = set()

    def topic(self, kind: str) -> str:
        """``venue/{t}/boards/{b}/{kind}``."""
        return f"venue/{self.tournament}/boards/{self.board}/{kind}"

    def _message(self, kind: str, seq: int, body: dict) -> tuple[str, str]:
        return self.topic(kind), json.dumps({"seq": seq, **body}, separators=(",", ":"))

    def send(self, kind: str, seq: int, body: dict, device: str) -> None:
        """Queue ``{"seq": seq, **body}`` on ``kind``; kept under ``device`` for resending until
        the gateway confirms it."""
        message = self._message(kind, seq, body)
        history = self._history[device]
        history[seq] = message
        if len(history) > HISTORY:
            del history[min(history)]
        self.outbox.keep(device, seq, message)
        self._queue.put_nowait((*message, False, (device, seq)))

    def keep(self, device: str, seq: int, kind: str, body: dict) -> None:
        """A message sent before (by an earlier run: the state file) the gateway has not confirmed:
        sent again when the link comes up."""
        self.outbox.keep(device, seq, self._message(kind, seq, body))
        self.outbox.sent(device, seq)

    def confirm(self, device: str, seq: int) -> None:
        """The gateway's feedback says ``device``'s message ``seq`` is stored: forget it."""
        self.outbox.confirm(device, seq)

    def set_status(self, text: str) -> None:
        """Queue the retained status ``online``/``offline`` (sent again after each reconnect)."""
        self.status = text
        self._queue.put_nowait((self.topic("status"), text, True, None))

    async def idle(self) -> None:
        """Wait until every queued message has been published."""
        await self._queue.join()

    async def run(self) -> None:
        """Keep the link up and publish the queue in order, until cancelled."""
        sender = asyncio.create_task(self._send_all(), name=f"livechess-send-{self.board}")
        retry = asyncio.create_task(self._retry(), name=f"livechess-retry-{self.board}")
        try:
            await self._link()
        finally:
            sender.cancel()
            retry.cancel()
            for task in list(self._tasks):
                task.cancel()
            with contextlib.suppress(BaseException):
                await sender

    async def _send_all(self) -> None:
        loop = asyncio.get_running_loop()
        tokens, at = PACE_BURST, loop.time()
        while True:
            topic, payload, retain, key = await self._queue.get()
            try:
                now = loop.time()
                tokens = min(PACE_BURST, tokens + (now - at) * PACE_PER_S)
                at = now
                if tokens < 1:
                    await asyncio.sleep((1 - tokens) / PACE_PER_S)
                    tokens, at = 1.0, loop.time()
                tokens -= 1
                await self._publish(topic, payload, retain)
                if key is not None:
                    self.outbox.sent(*key)
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
        meanwhile), the feedback subscribed, every message sent before and not confirmed sent again
        (same seq, first-sent order), then the queue let through."""
        if not self._fresh:
            await clean_start(self.host, self.port, self.client_id, self.username, self.password)
            self._fresh = True
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
                reader = asyncio.create_task(self._read(client))  # confirmations arrive meanwhile
                try:
                    await self._send_unconfirmed(client)
                    self._up.set()
                    await reader
                finally:
                    reader.cancel()
        finally:
            self._up.clear()
            self._client = None

    async def _read(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            self.take(message.payload)

    def take(self, payload: bytes | str) -> None:
        """One feedback message: kept, a ``resend_from`` answered (``devices.feedback``), and a
        message it says is stored confirmed (a ``resend_from`` answer says the gateway holds the
        message, not that it stored it)."""
        self.outbox.take(payload, self.feedback, self._resend, self._tasks)

    async def _send_unconfirmed(self, client: aiomqtt.Client) -> None:
        """Every message published before and not confirmed, again, at the link's pace."""
        for n, key in enumerate(self.outbox.waiting()):
            message = self.unconfirmed.get(key)
            if message is None:  # confirmed meanwhile
                continue
            if n >= PACE_BURST:
                await asyncio.sleep(1 / PACE_PER_S)
            await client.publish(*message, qos=1, timeout=PUBACK_TIMEOUT_S)
            self.sent.append(message)
            self.resent.append(key)

    async def _retry(self) -> None:
        """The messages waiting for the gateway's feedback sent again while it is quiet
        (``devices.feedback.resend_when_quiet``)."""
        await resend_when_quiet(self.outbox, lambda: self._client, self._up, self._send_unconfirmed, self.retry_s)

    async def _resend(self, device: str, first: int) -> None:
        history = dict(self._history.get(device, {}))
        history.update({seq: m for (d, seq), m in self.unconfirmed.items() if d == device})
        for seq in sorted(s for s in history if s >= first):
            await self._publish(*history[seq])
