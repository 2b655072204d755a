"""The gateway process: MQTT in, event log out, feedback back to the devices.

``Gateway(log, mqtt_url, tournament)``; ``await gateway.run()`` until cancelled. It

1. rebuilds its state from the log (``Hall.fold`` over every entry) so a restarted gateway carries on;
2. connects with a fixed client id and ``clean_session=False`` (the broker queues QoS 1 messages while
   the gateway is away: MQTT 3.1.1 3.1.2.4), subscribes to ``venue/{t}/boards/+/{move,position,clock,
   result,status}`` at QoS 1 and sets ``ready``;
3. handles each message at once, in arrival order, in the event loop (``Hall.handle`` is pure and fast),
   queues its entries and appends them with one ``append_many`` per loop tick (no store round trip per
   message), then publishes the feedback (QoS 1) once the entries are stored;
4. reconnects with backoff (0.1 s doubling to 2 s) and subscribes again after any link failure: aiomqtt
   has no reconnect of its own (F11);
5. follows the log for the entries others append (``round_started`` and ``tournament_registered``
   from the organiser, the arbiters' decisions) and folds them in;
6. applies the event's regulations (``gateway.referee``): every entry is shown to them and what they
   answer (a draw offer refused, a default forfeit, a clock disagreement, an Armageddon game to
   follow) is appended and folded in; a timer lets them act on time passing (default time).

A store failure never drops entries: the batch is retried in order (with backoff) while messages keep
being handled. On cancellation, messages already received are handled and every entry is flushed
before ``run`` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time

import aiomqtt

from gateway.hall import Hall, Step
from gateway.referee import HALL_TYPES, Referee, is_external
from gateway.mqtt_url import parse_mqtt_url
from gateway.payload import feedback_topic, topic_filters
from services.eventlog.base import EventLog

log = logging.getLogger(__name__)

FEEDBACK_QOS = 1
# paho lets 20 QoS 1 messages wait for their PUBACK by default and queues the rest: with a move a second
# on each of 1,000 boards the feedback queue then grew without end and every move waited seconds behind
# it (bench/bench_latency.py). Mosquitto ships with 20 too; deploy/mosquitto raises it to 200.
FEEDBACK_INFLIGHT = 1000


def no_delay(client: aiomqtt.Client) -> None:
    """Switch Nagle's algorithm off on the client's socket (paho leaves it on): small MQTT packets
    (feedback, PUBACKs) otherwise wait for the peer's delayed ACK, up to 40 ms each (measured:
    p50 publish-to-log 13 ms with it on, ~3 ms off; 1000 boards, 100 msg/s)."""
    sock = client._client.socket()  # aiomqtt exposes no socket options
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def now_ms() -> int:
    """The gateway's time: ms since the Unix epoch."""
    return int(time.time() * 1000)


class Gateway:
    """One tournament's gateway (see the module docstring).

    ``log``: the tournament's EventLog; ``mqtt_url``: ``mqtt://[user:pass@]host:port``; ``slug``: the
    tournament's slug (``{t}`` in the topics; also accepted as ``tournament="slug"``); ``tournament``:
    otherwise the tournament file's settings object (kept as ``config``); ``username`` /
    ``password`` override the URL's; ``client_id``: fixed, so the broker keeps the session across
    reconnects and restarts; ``hold_ms``: how long a message waits for a missing ``seq`` (ordering);
    ``clock_rate``: a replay's speed, for the regulations' clock model (1 in a real hall).
    The event's regulations (``gateway.referee``) come from ``tournament`` or the log.
    Attributes: ``ready`` (asyncio.Event: state rebuilt and subscribed), ``connected`` (asyncio.Event:
    the MQTT link is up now), ``hall`` (the state), ``counts`` (messages, entries, reconnects).
    """

    def __init__(self, log: EventLog, mqtt_url: str, slug: str | None = None, *,
                 tournament=None, username: str | None = None, password: str | None = None,
                 client_id: str | None = None, hold_ms: int = 5000, keepalive: int = 10,
                 clock_rate: float = 1.0):
        if slug is None and isinstance(tournament, str):
            slug, tournament = tournament, None
        if not slug:
            raise ValueError("the tournament's slug is required")
        self.config = tournament  # the tournament file's settings (venue CLI), when there is one
        tournament = slug
        target = parse_mqtt_url(mqtt_url)
        self.log = log
        self.tournament = tournament
        self.host, self.port = target.host, target.port
        self.username = username if username is not None else target.username
        self.password = password if password is not None else target.password
        # One session per tournament: two halls' gateways on one broker must not take over each
        # other's kept session (and its subscriptions and queued messages).
        self.client_id = client_id or f"venue-gateway-{slug}"
        self.keepalive = keepalive
        self.referee = Referee(self.config if not isinstance(self.config, str) else None, clock_rate)
        self.hall = Hall(tournament, hold_ms=hold_ms, result_review=self.referee.review_result)
        self.ready = asyncio.Event()
        self.connected = asyncio.Event()
        self.counts = {"messages": 0, "entries": 0, "reconnects": 0, "store_errors": 0,
                       "internal_errors": 0}
        self._pending: list[tuple[str, dict, int]] = []
        self._feedback: list[tuple[str, dict]] = []
        self._wake = asyncio.Event()
        self._stopping = False
        self._client: aiomqtt.Client | None = None
        self._last_seq = 0

    # ----- running ------------------------------------------------------------------------------

    async def run(self) -> None:
        """Rebuild, connect, serve until cancelled; then flush everything received (see module)."""
        await self._rebuild()
        flusher = asyncio.create_task(self._flush_loop(), name="gateway-flush")
        ticker = asyncio.create_task(self._tick_loop(), name="gateway-tick")
        follower = asyncio.create_task(self._follow_loop(), name="gateway-follow")
        try:
            await self._mqtt_loop()
        finally:
            for task in (ticker, follower):
                task.cancel()
            self._stopping = True
            self._wake.set()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(flusher), timeout=10)
            flusher.cancel()
            self.connected.clear()

    async def _rebuild(self) -> None:
        entries = await self.log.read()
        for entry in entries:
            self.hall.fold(entry.type, entry.data)
            self.referee.observe(entry.type, entry.data, entry.at)  # answered before: in the log
        self._last_seq = entries[-1].seq if entries else 0
        log.info("gateway %s: state rebuilt from %d entries", self.tournament, len(entries))

    async def _mqtt_loop(self) -> None:
        backoff = 0.1
        while True:
            try:
                async with aiomqtt.Client(
                    self.host, self.port, identifier=self.client_id, clean_session=False,
                    username=self.username, password=self.password, keepalive=self.keepalive,
                    max_inflight_messages=FEEDBACK_INFLIGHT,
                ) as client:
                    client.pending_calls_threshold = 100_000  # feedback to 1000 boards in flight
                    no_delay(client)
                    self._client = client
                    try:
                        for topic in topic_filters(self.tournament):
                            await client.subscribe(topic, qos=1, timeout=10)
                        self.connected.set()
                        self.ready.set()
                        backoff = 0.1
                        async for message in client.messages:
                            self._receive(str(message.topic), message.payload)
                    finally:
                        self._drain_client_queue(client)
                        self.connected.clear()
                        self._client = None
            except aiomqtt.MqttError as exc:
                self.counts["reconnects"] += 1
                log.warning("gateway %s: MQTT link lost (%s); again in %.1f s", self.tournament, exc,
                            backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)

    def _drain_client_queue(self, client: aiomqtt.Client) -> None:
        """Handle the messages aiomqtt received (and acknowledged) but did not hand out yet."""
        queue = getattr(client, "_queue", None)
        while queue is not None and not queue.empty():
            message = queue.get_nowait()
            self._receive(str(message.topic), message.payload)

    def _receive(self, topic: str, payload) -> None:
        """Handle one MQTT message. Never raises: whatever goes wrong with one message is logged,
        recorded as ``message_rejected`` (``internal error: <type>``, raw payload cut to 2 KB),
        answered on the board's feedback when the board is known, and the next message is handled."""
        self.counts["messages"] += 1
        try:
            if isinstance(payload, (int, float)) or payload is None:
                payload = b"" if payload is None else str(payload).encode()
            self._take(self.hall.handle(topic, payload, now_ms()))
        except Exception as exc:  # noqa: BLE001 - one message must never stop the gateway
            self.counts["internal_errors"] += 1
            log.exception("gateway %s: handling a message on %s failed", self.tournament, topic[:200])
            step = self.hall.internal_error(topic, payload, exc)
            at = now_ms()
            self._pending.extend((type_, data, at) for type_, data in step.entries)
            self._feedback.extend(step.feedback)
            self._wake.set()

    def _take(self, step: Step, at: int | None = None) -> None:
        if not step.entries and not step.feedback:
            return
        at = at or now_ms()
        self._append_with_answers(step.entries, at)
        self._feedback.extend(step.feedback)
        self._wake.set()

    def _append_with_answers(self, entries: list[tuple[str, dict]], at: int, *, queue: bool = True) -> None:
        """Queue ``entries`` for the log (unless ``queue`` is False: they are in it already), show
        each to the regulations, and queue and fold in what they answer (a refusal, a default, an
        Armageddon game), answers to answers included."""
        todo = list(entries)
        own = len(todo)
        i = 0
        while i < len(todo):
            type_, data = todo[i]
            if queue or i >= own:
                self._pending.append((type_, data, at))
            try:
                answers = self.referee.observe(type_, data, at)
            except Exception:  # noqa: BLE001 - the entry stands; the regulations missed it
                self.counts["internal_errors"] += 1
                log.exception("gateway %s: the regulations failed on %s", self.tournament, type_)
                answers = []
            for answer in answers:
                if answer[0] in HALL_TYPES:
                    self.hall.fold(*answer)
                todo.append(answer)
            i += 1
        if len(todo) > own:
            self._wake.set()

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            now = now_ms()
            try:
                self._take(self.hall.tick(now))
                answers = self.referee.tick(now)
                for answer in answers:  # a game the regulations end (a default, X.B.e) takes no more moves
                    if answer[0] in HALL_TYPES:
                        self.hall.fold(*answer)
                self._take(Step(entries=answers), now)
            except Exception:  # noqa: BLE001 - the timer must keep running
                self.counts["internal_errors"] += 1
                log.exception("gateway %s: a timer step failed", self.tournament)

    async def _follow_loop(self) -> None:
        """Fold in what others append (round_started, an arbiter's game_ended)."""
        backoff = 0.2
        while True:
            try:
                async for entry in self.log.follow(after=self._last_seq):
                    self._last_seq = entry.seq
                    if is_external(entry.type, entry.data):
                        self.hall.fold(entry.type, entry.data)
                        self._append_with_answers([(entry.type, entry.data)], entry.at, queue=False)
                        if entry.type == "round_started":
                            log.info("gateway %s: round %s started (%d boards)", self.tournament,
                                     entry.data.get("round"), len(entry.data.get("games", [])))
            except asyncio.CancelledError:
                raise
            except Exception:  # the store went away: follow again from the last entry seen
                log.exception("gateway %s: following the log failed", self.tournament)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)

    async def _flush_loop(self) -> None:
        backoff = 0.05
        while True:
            if not self._pending and not self._feedback:
                if self._stopping:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            batch, feedback = self._pending, self._feedback
            self._pending, self._feedback = [], []
            while batch:
                try:
                    await self.log.append_many(batch)
                    self.counts["entries"] += len(batch)
                    batch = []
                    backoff = 0.05
                except asyncio.CancelledError:
                    self._pending[:0] = batch
                    raise
                except Exception:
                    self.counts["store_errors"] += 1
                    log.exception("gateway %s: append failed; retrying", self.tournament)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, 2.0)
            await self._publish_feedback(feedback)

    async def _publish_feedback(self, feedback: list[tuple[str, dict]]) -> None:
        """Queue the answers at QoS 1 on paho's own outgoing queue (paho resends them until their
        PUBACK) without awaiting each one: the next batch must not wait for the devices."""
        client = self._client
        if client is None or not feedback:
            return
        paho = client._client  # aiomqtt keeps no public non-waiting publish
        for board, payload in feedback:
            with contextlib.suppress(Exception):
                paho.publish(feedback_topic(self.tournament, board),
                             json.dumps(payload, separators=(",", ":")), qos=FEEDBACK_QOS)
