"""The gateway process: MQTT in, event log out, feedback back to the devices.

``Gateway(log, mqtt_url, slug)``; ``await gateway.run()`` until cancelled. It

1. rebuilds its state from the log (``Hall.fold`` over every entry) so a restarted gateway carries
   on exactly where the log stands;
2. connects with a fixed client id and ``clean_session=False`` (the broker keeps QoS 1 messages
   while the gateway is away: MQTT 3.1.1 3.1.2.4), acknowledges messages manually, subscribes to
   ``venue/{t}/boards/+/{move,position,clock,result,status}`` at QoS 1 and sets ``ready``;
3. queues each message per device and handles the queues in turn as soon as a read's messages are
   queued (``MqttClient.on_read``: no task woken per read; beyond ``HANDLE_SLICE`` messages the rest
   waits for the work loop, so the reader and the flush get their turn; one flooding device cannot delay
   the others; over ``RATE_PER_S`` a device's messages are dropped and counted, its status messages
   too, of which the latest refused one is kept and applied once the rate allows: issue 28), folds what
   ``Hall.handle`` decides, and appends the entries with one ``append_many`` per loop tick;
   repeated rejections and duplicates from one device are folded into one entry with a count
   (``gateway.coalesce``);
4. **acknowledges a message only once its entries are stored** (the store is the acknowledgement:
   a gateway killed before the append loses nothing, the broker redelivers), then publishes the
   feedback (QoS 1);
5. reconnects with backoff (0.1 s doubling to 2 s) and subscribes again after any link failure
   (F11); the MQTT client is ``gateway.mqtt_client`` (MQTT 3.1.1 of its own: no task per message,
   a batch's PUBACKs and feedback written at once);
6. follows the log for the entries others append (the organiser's rounds, the arbiters' decisions)
   and folds them in with the regulations' answers; its own entries it knows by their seqs and the
   follower passes over them undecoded (``EventLog.follow(skip=...)``);
7. runs a timer (every 200 ms) for held messages, resend requests and what the regulations owe as
   time passes (default time, move timers);
8. probes the broker end to end (``gateway.probe``, issue 28: a gateway the broker delivered nothing
   to while acknowledging every board's publish): every ``probe_every_s`` it publishes a small QoS 1
   message on its own topic (``venue/{t}/gateway/{login}/probe``, which only its login may read and
   write) and expects it back through its subscription (at QoS 0). Unanswered for ``probe_timeout_s``
   while the broker still answers on the link (the probes' PUBACKs; a frozen or gone broker is the keep
   alive's to notice, and its session is kept): it records ``gateway_deaf`` (the arbiters' alert,
   ``/api/health`` not ok) and reconnects with a fresh session
   (clean start: what the broker queued in the old one, which never came, is dropped; the devices send
   again what the gateway has not confirmed); still deaf on that fresh link: it records it again and
   ``run`` raises ``BrokerDeaf`` (``venue gateway`` exits 2 for its supervisor). A probe back
   records ``gateway_hearing`` (the alert closes). Nothing arriving at all is the verdict's condition:
   a device's message coming through means the broker delivers, whatever the probes say.

A hall can be split across several gateway processes by board range (``boards="1-500"``, a
``services.arbiter_office.boardspec`` SPEC): each shard subscribes to its boards' topics only, with a client id
of its own (``venue-gateway-{t}-boards-{SPEC}``: another shard is no takeover, a second process for
the same range is), appends to the one log, folds all of it and decides only for its boards
(``gateway.hall``). Shards need the Redis log (appends from several processes, each a script run
atomically; the SQLite log is one process's: refused).

A store failure never drops entries: the batch is retried in order (with backoff) while messages keep
being handled; an entry the store refuses as malformed is replaced by a ``message_rejected`` naming
it, so no single entry blocks the others. On cancellation, messages already received are handled
and every entry is flushed before ``run`` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import msgspec
import logging
import time
from collections import deque

from gateway.mqtt_client import MqttClient, MqttError
from gateway.coalesce import Coalescer, Repeats, stateless
from gateway.hall import Hall, Step
from gateway.probe import DEAF, HEARING, DeafProbe, probe_topic
from services.protocol.mqtt_url import parse_mqtt_url
from gateway.payload import feedback_topic, topic_filters
from services.eventlog._rows import BatchIds
from services.eventlog.base import BadEntryError, EventLog, LogReplaced
from services.eventlog.sqlite import SqliteLog
from services.arbiter_office import boardspec
from services.events import GatewayDeaf, GatewayHearing, MessageRejected, RoundStarted

log = logging.getLogger(__name__)

FEEDBACK_QOS = 1
# paho let 20 QoS 1 messages wait for their PUBACK by default and queued the rest: with a move a second
# on each of 1,000 boards the feedback queue then grew without end and every move waited seconds behind
# it (bench/bench_latency.py). Mosquitto ships with 20 too; deploy/mosquitto raises it to 200.
FEEDBACK_INFLIGHT = 1000
FEEDBACK_TOPICS_KEPT = 10_000  # encoded feedback topics kept (a hall's boards, not a stranger's every label)
RATE_PER_S = 50.0  # a device's sustained messages per second (a real board or clock sends a few)
RATE_BURST = 400   # ... and its burst (a board resending its backlog after a reconnect)
HANDLE_SLICE = 64  # messages handled before the loop lets the MQTT reader and the flush run
# At most one append (one Redis script call) in flight and one per FLUSH_EVERY_S under load: each
# append costs its script call, its reply, the PUBACKs and feedback written after it and the broker's
# and the log followers' turns to take them, whatever its size. Measured at 1,000 blitz boards
# (bench/bench_gateway.py, docs/performance.md "Gateway: appends every 10 ms"): 4 ms cost ~0.2 ms
# more CPU a ply on this 2-core machine than 10 ms (p99 9 ms against 13); 20 ms saved little more and
# brought p99 to 23 ms, near the 25 ms target. An idle hall's move is appended at once.
FLUSH_EVERY_S = 0.010
# The gateway knows its own entries (their seqs come back from the append): it reads the log for the
# others' (the organiser's rounds, the arbiters' decisions, other shards' boards) at most this often.
# Each read under load also brings back the gateway's own appends since the last (XREAD BLOCK wakes
# on every one): 50 ms against 20 saved 8% of the store cycle's CPU (bench/bench_log_cycle.py
# --follow-pace 0.05 --baseline-follow-pace 0.02: 185.6 against 200.7 us an entry), and an arbiter's
# decision taking effect 30 ms later is not something a person sees.
FOLLOW_EVERY_S = 0.05
AFTER_THE_LOG_S = 2.0  # the longest a board's message waits for the log's newest entries (Gateway._after_the_log)


def now_ms() -> int:
    """The gateway's time: ms since the Unix epoch."""
    return int(time.time() * 1000)


class _Bucket:
    """A token bucket per device: ``RATE_PER_S`` tokens a second up to ``RATE_BURST``."""

    __slots__ = ("tokens", "at", "dropped")

    def __init__(self, at: float):
        self.tokens, self.at, self.dropped = float(RATE_BURST), at, 0

    def take(self, at: float, count: bool = True) -> bool:
        """Take a token at ``at`` (monotonic s): True when there was one; else False, and the
        message is counted as dropped unless ``count`` is False."""
        self.tokens = min(RATE_BURST, self.tokens + (at - self.at) * RATE_PER_S)
        self.at = at
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += count
        return False


class Gateway:
    """One tournament's gateway (see the module docstring).

    ``log``: the tournament's EventLog; ``mqtt_url``: ``mqtt://[user:pass@]host:port``; ``slug``: the
    tournament's slug (``{t}`` in the topics; also accepted as ``tournament="slug"``); ``tournament``:
    otherwise a tournament file's settings in force until the log registers one (``config``);
    ``username``/``password`` override the URL's; ``client_id``: fixed, so the broker keeps the
    session across reconnects and restarts (with the shipped Mosquitto configuration the broker
    uses the login as client id, deploy/README.md); ``hold_ms``: how long a message waits for a
    missing ``seq``; ``clock_rate``: a replay's speed (1 in a real hall); ``probe_every_s`` (None: no
    probe) and ``probe_timeout_s``: the end-to-end probe through the broker (module docstring, 8.).
    Attributes: ``ready`` (asyncio.Event: state rebuilt and subscribed), ``connected`` (the MQTT link
    is up now), ``hall`` (``gateway.hall.Hall``: the state), ``counts``, ``failure`` (the
    ``LogReplaced`` that stopped it: the store no longer holds the log it folded; ``run`` raises it),
    ``probe`` (``gateway.probe.DeafProbe`` or None: ``probe.deaf`` says whether the broker delivers to it).
    """

    def __init__(self, log: EventLog, mqtt_url: str, slug: str | None = None, *,
                 tournament=None, username: str | None = None, password: str | None = None,
                 client_id: str | None = None, hold_ms: int = 5000, keepalive: int = 5,
                 clock_rate: float = 1.0, boards=None, probe_every_s: float | None = 2.0,
                 probe_timeout_s: float = 6.0):
        if slug is None and isinstance(tournament, str):
            slug, tournament = tournament, None
        if not slug:
            raise ValueError("the tournament's slug is required")
        self.config = tournament
        self.boards = boardspec.parse(boards) if isinstance(boards, str) else boards
        if self.boards is not None and isinstance(log, SqliteLog):
            raise ValueError("a gateway for a range of boards (--boards) needs the Redis event log: the SQLite "
                             "log is written by one gateway process, which then takes every board")
        target = parse_mqtt_url(mqtt_url)
        self.log = log
        self.tournament = slug
        self.host, self.port = target.host, target.port
        self.username = username if username is not None else target.username
        self.password = password if password is not None else target.password
        # One session per tournament: two halls' gateways on one broker must not take over each
        # other's kept session (and its subscriptions and queued messages).
        # A shard's id names its boards: two shards are two sessions, two processes for one range one.
        self.client_id = client_id or (f"venue-gateway-{slug}" if self.boards is None
                                       else f"venue-gateway-{slug}-boards-{self.boards.spec}")
        self.keepalive = keepalive
        self.hall = Hall(slug, hold_ms=hold_ms, config=tournament if not isinstance(tournament, str) else None,
                         clock_rate=clock_rate, boards=self.boards)
        self.ready = asyncio.Event()
        self.connected = asyncio.Event()
        self.counts = {"messages": 0, "entries": 0, "reconnects": 0, "store_errors": 0,
                       "internal_errors": 0, "dropped": 0, "retained": 0}
        self._pending: list[tuple[str, dict, int]] = []
        self._coalesce = Coalescer()
        self._repeats = Repeats()
        self._acks: list[tuple[MqttClient, int, int]] = []
        self._feedback: list[tuple[str, dict]] = []
        self._inbox: dict[str, deque] = {}
        # Sources (a board's topics) whose messages wait until the log is folded up to its end
        # (``_after_the_log``), in arrival order, unacknowledged: a round another process started.
        self._paused: dict[str, deque] = {}
        self._rechecks: set[asyncio.Task] = set()
        self._buckets: dict[str, _Bucket] = {}
        self._dropping: set[str] = set()  # topics with drops not yet reported (not every bucket per turn)
        # A status topic's latest message refused by the rate limit, unacknowledged, kept until its
        # bucket has a token again (``_release_statuses``): a status says what holds now, so the
        # flood's last word must still be applied, and only the last matters.
        self._held_status: dict[str, tuple[MqttClient, str, bytes, int, int]] = {}
        self._monotonic = time.monotonic  # the rate limit's clock (a test's own)
        self._work = asyncio.Event()
        self._wake = asyncio.Event()
        self._stopping = False
        self._client: MqttClient | None = None
        self._last_seq = 0
        self._own: set[int] = set()
        self._appending = asyncio.Lock()
        self._feedback_topics: dict[str, bytes] = {}  # board -> its feedback topic, encoded once
        self._batch_ids = BatchIds()  # a random prefix once, then a counter: no system call per batch
        self._stop_all = asyncio.Event()
        self.failure: BaseException | None = None
        self.probe = (DeafProbe(int(probe_every_s * 1000), int(probe_timeout_s * 1000))
                      if probe_every_s else None)
        # the probe's topic is its login's (the ACL's), or the client id's on a broker without logins
        self._probe_topic = probe_topic(slug, self.username or self.client_id)
        self._fresh_next = False  # the next connection starts a fresh session (clean start)
        self._fresh_tried = False  # deaf on a fresh session already: the next verdict exits
        self._cut_by_probe = False

    # ----- running ------------------------------------------------------------------------------
    async def run(self) -> None:
        """Rebuild, connect, serve until cancelled; then flush everything received (see module)."""
        await self._rebuild()
        flusher = asyncio.create_task(self._flush_loop(), name="gateway-flush")
        worker = asyncio.create_task(self._work_loop(), name="gateway-work")
        ticker = asyncio.create_task(self._tick_loop(), name="gateway-tick")
        follower = asyncio.create_task(self._follow_loop(), name="gateway-follow")
        prober = asyncio.create_task(self._probe_loop(), name="gateway-probe")
        mqtt = asyncio.create_task(self._mqtt_loop(), name="gateway-mqtt")
        stop = asyncio.create_task(self._stop_all.wait(), name="gateway-stop")
        try:
            await asyncio.wait({mqtt, stop}, return_when=asyncio.FIRST_COMPLETED)
            if self.failure is not None:
                raise self.failure
        finally:
            for task in (mqtt, stop):
                task.cancel()
            await asyncio.gather(mqtt, stop, return_exceptions=True)
            for task in (ticker, follower, worker, prober, *self._rechecks):
                task.cancel()
            await asyncio.gather(*self._rechecks, return_exceptions=True)
            self._stopping = True  # what is left is decided on what is folded (``_handle_inbox``)
            self._handle_inbox(limit=None)
            self._pending.extend(self._repeats.due(now_ms(), everything=True))
            self._wake.set()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(flusher), timeout=10)
            flusher.cancel()
            self.connected.clear()

    async def _rebuild(self) -> None:
        entries = await self.log.read()
        for entry in entries:
            self.hall.fold(entry.type, entry.data, entry.at, entry.seq)
        self._last_seq = entries[-1].seq if entries else 0
        if self.probe is not None:
            deaf = None  # this gateway's last gateway_deaf with no gateway_hearing after it
            for entry in entries:
                if entry.type in (GatewayDeaf.TYPE, GatewayHearing.TYPE) and entry.data.get("client_id") == self.client_id:
                    deaf = entry.data.get("since") if entry.type == GatewayDeaf.TYPE else None
            if isinstance(deaf, int):
                self.probe.deaf_before(deaf)
        if self.hall.state.errors:
            log.warning("gateway %s: %d log entries could not be folded (first: %s)", self.tournament,
                        len(self.hall.state.errors), self.hall.state.errors[0])
        log.info("gateway %s: state rebuilt from %d entries", self.tournament, len(entries))
        _settle_heap()

    async def _mqtt_loop(self) -> None:
        backoff = 0.1
        stable = False  # held a link longer than TAKEOVER_S once: this gateway was here first
        takeovers: deque[float] = deque(maxlen=8)
        while True:
            connected_at = None
            fresh, self._fresh_next = self._fresh_next, False
            client = MqttClient(
                self.host, self.port, self.client_id, clean_session=fresh, username=self.username,
                password=self.password, keepalive=self.keepalive, max_inflight=FEEDBACK_INFLIGHT)
            # each message is queued as it is read (inside data_received: no task, no queue per message)
            client.on_message = functools.partial(self._enqueue, client)
            client.on_retained = functools.partial(self._retained, client)
            client.on_read = self._on_read
            # current before CONNACK: the session's kept messages can come in the same read as it
            self._client = client
            # before CONNACK: the session's queue can come in the same read; a message read within
            # instant.BACKLOG_MS of this may have waited in it (judged at when it was made)
            self.hall.link_since = now_ms()
            try:
                try:
                    async with client:
                        try:
                            for chunk in _chunks(topic_filters(self.tournament, self.boards), SUBSCRIBE_BYTES):
                                await client.subscribe([(topic, 1) for topic in chunk], timeout=10)
                            if self.probe is not None:
                                await client.subscribe([(self._probe_topic, 0)], timeout=10)
                                self.probe.new_link()
                            self.connected.set()
                            self.ready.set()
                            backoff = 0.1
                            connected_at = time.monotonic()
                            await client.wait_closed()
                            raise MqttError("the MQTT link was closed")
                        except asyncio.CancelledError:
                            await self._settle()
                            raise
                finally:
                    self.connected.clear()
                    self._client = None
            except MqttError as exc:
                self.counts["reconnects"] += 1
                now = time.monotonic()
                if self._cut_by_probe:  # our own cut, to start a fresh session: no takeover
                    self._cut_by_probe = False
                    connected_at = None
                if connected_at is not None and now - connected_at >= TAKEOVER_S:
                    stable = True
                elif connected_at is not None:
                    takeovers.append(now)
                    if _taken_over(takeovers, now, stable):
                        self.failure = SessionTakenOver(
                            f"the MQTT session of this gateway (client id {self.client_id}) was taken over "
                            f"{len(takeovers)} times within seconds of connecting: another gateway (or a device "
                            f"with its login) runs tournament {self.tournament!r} on this broker. Stop one: a "
                            "tournament has one gateway per broker (docs: README 'Running it at a venue')")
                        # raised from run(): its caller says it (``venue``: the one line the README
                        # promises, "stops ... with exit code 2 and one line naming it")
                        log.debug("gateway %s: %s", self.tournament, self.failure)
                        self._stop_all.set()
                        return
                # a newcomer that never held its link is being taken over, most likely: it says so
                # once, when it gives way (above), not at each loss on the way
                level = logging.DEBUG if connected_at is not None and not stable else logging.WARNING
                log.log(level, "gateway %s: MQTT link lost (%s); again in %.1f s", self.tournament, exc, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)

    async def _settle(self, timeout_s: float = 10.0) -> None:
        """A clean stop: handle what was received, store it and acknowledge it on this link before
        it closes (what is not acknowledged the broker redelivers to the next gateway)."""
        self._handle_inbox(limit=None)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while (self._pending or self._acks or self._appending.locked()) and loop.time() < deadline:
            self._wake.set()
            await asyncio.sleep(0.01)

    # ----- receiving: per-device queues handled in turn -----------------------------------------
    def _enqueue(self, client: MqttClient, topic: str, payload: bytes, mid: int, qos: int) -> None:
        """Queue one message of ``client`` (``MqttClient.on_message``): per board, after the rate limit."""
        source, _, kind = topic.rpartition("/")  # venue/{t}/boards/{b}: one board's devices
        if kind == "probe" and self.probe is not None and topic == self._probe_topic:
            self.probe.heard(payload, now_ms())  # QoS 0: nothing to acknowledge
            return
        now = self._monotonic()
        bucket = self._buckets.get(topic)
        if bucket is None:
            bucket = self._buckets[topic] = _Bucket(now)
        if not bucket.take(now):
            # Issue 28: status messages had no limit (50,000 online/offline flips in 10 s became
            # 50,000 entries). A refused status is kept as the topic's latest word instead; the one
            # it replaces is the message dropped (the first refused one drops nothing).
            if kind == "status":
                replaced = self._held_status.pop(topic, None)
                self._held_status[topic] = (client, topic, payload, mid, qos)
                if replaced is None:
                    bucket.dropped -= 1
                    return
                client, mid, qos = replaced[0], replaced[3], replaced[4]
            self.counts["dropped"] += 1
            self._dropping.add(topic)
            self._acks.append((client, mid, qos))  # dropped: nothing to redeliver
            return
        self._inbox.setdefault(source, deque()).append((client, topic, payload, mid, qos))

    def _retained(self, client: MqttClient, topic: str, payload: bytes, mid: int, qos: int) -> None:
        """A retained message the broker sends because the gateway subscribed (``MqttClient.on_retained``).
        A status is retained by the protocol (docs/protocol.md "Status"): it is handled as any other.
        A retained move, position, clock or result is a copy of a message from the past (the gateway
        had it as it was published, or it predates the gateway's session): it is acknowledged and
        counted, never recorded (issue 28: a retained move was recorded again at every gateway start
        and became the first move of the next round's game on that board)."""
        if topic.endswith("/status"):
            self._enqueue(client, topic, payload, mid, qos)
            return
        self.counts["retained"] += 1
        self._acks.append((client, mid, qos))
        self._wake.set()
        log.warning("gateway %s: a retained message on %s ignored (device messages must not be retained; "
                    "clear it with an empty retained message)", self.tournament, topic[:200])

    def _release_statuses(self) -> None:
        """Queue each held status whose topic's bucket has a token again (the timer's turn): a
        status flood ends with the device's latest status applied, at the rate limit's pace."""
        now = self._monotonic()
        for topic, held in list(self._held_status.items()):
            if self._buckets[topic].take(now, count=False):
                del self._held_status[topic]
                self._inbox.setdefault(topic.rpartition("/")[0], deque()).append(held)
                self._work.set()

    def _on_read(self) -> None:
        """A read's messages are queued (``MqttClient.on_read``): handle a slice of the queues now;
        what is left (a backlog, a flood) waits for the work loop, after the loop's other work."""
        if self.probe is not None:
            self.probe.delivered(now_ms())  # the broker delivers (probes may wait behind a backlog)
        if self._inbox and not self._work.is_set() and not self._handle_inbox(limit=HANDLE_SLICE):
            self._report_drops()
            return
        self._work.set()

    async def _work_loop(self) -> None:
        while True:
            await self._work.wait()
            self._work.clear()
            while self._handle_inbox(limit=HANDLE_SLICE):
                await asyncio.sleep(0)  # let the reader queue more and the flush store
            self._report_drops()

    def _handle_inbox(self, limit: int | None) -> bool:
        """Handle up to ``limit`` messages (None: all), one per source in turn; True when more wait."""
        handled = 0
        while self._inbox:
            for source in list(self._inbox):
                queue = self._inbox[source]
                item = queue.popleft()
                if not queue:
                    del self._inbox[source]
                handled += 1
                paused = self._paused.get(source)
                if paused is not None:  # behind a message waiting for the log: in its order
                    paused.append(item)
                    continue
                client, topic, payload, mid, qos = item
                if not self._receive(topic, payload, final=self._stopping):
                    self._paused[source] = deque([item])
                    task = asyncio.create_task(self._after_the_log(source), name="gateway-after-the-log")
                    self._rechecks.add(task)
                    task.add_done_callback(self._rechecks.discard)
                    continue
                self._acks.append((client, mid, qos))
            if limit is not None and handled >= limit:
                break
        self._wake.set()
        return bool(self._inbox)

    def _report_drops(self) -> None:
        if not self._dropping:
            return
        topics, self._dropping = self._dropping, set()
        for topic, bucket in self._buckets.items():  # (rare) in the buckets' order, as ever
            if topic in topics and bucket.dropped:
                board = topic.split("/")[3] if topic.count("/") >= 4 else None
                self._take(Step(events=[MessageRejected(
                    board=board, topic=topic[:200], device="clock" if topic.endswith("/clock") else "board",
                    seq=None, raw=None, count=bucket.dropped,
                    reason=f"rate limit: {bucket.dropped} messages dropped (over {RATE_PER_S:g}/s)")]), now_ms())
                bucket.dropped = 0

    def _receive(self, topic: str, payload, final: bool = True) -> bool:
        """Handle one MQTT message. Never raises: whatever goes wrong with one message is logged,
        recorded as ``message_rejected`` (``internal error: <type>``, raw payload cut to 2 KB),
        answered on the board's feedback when the board is known, and the next message is handled.
        False (``final=False`` only) when the hall left it undecided until the log's newest entries
        are folded (``Hall.handle``): nothing was taken for it."""
        self.counts["messages"] += 1
        at = now_ms()
        faults = self.hall.faults
        try:
            if isinstance(payload, (int, float)) or payload is None:
                payload = b"" if payload is None else str(payload).encode()
            step = self.hall.handle(topic, payload, at, final=final)
            if step.recheck:
                self.counts["messages"] -= 1  # counted when handled for good
                return False
            self._take(step, at)
            if self.hall.faults != faults:
                self.counts["internal_errors"] += self.hall.faults - faults
                log.error("gateway %s: a fault while handling a message on %s: %s", self.tournament, topic[:200],
                          self.hall.last_fault)
        except Exception as exc:  # noqa: BLE001 - one message must never stop the gateway
            self.counts["internal_errors"] += 1
            log.exception("gateway %s: handling a message on %s failed", self.tournament, topic[:200])
            self._take(self.hall.internal_error(topic, payload, exc), at)
        return True

    async def _after_the_log(self, source: str) -> None:
        """Handle ``source``'s paused messages once this gateway has folded the log as far as it
        stood when the first of them came (at most ``AFTER_THE_LOG_S`` s: a store that does not
        answer leaves them to be decided on what is folded). A round another process started (the
        console, ``venue round start``) is in the log before its boards can know of it, so the
        board's first messages of that round are judged in that round, never as the ended game's
        duplicates or as an unknown board's (DESIGN.md "Device protocol")."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + AFTER_THE_LOG_S
        try:
            target = await asyncio.wait_for(self.log.last_seq(), AFTER_THE_LOG_S)
            while self._last_seq < target and loop.time() < deadline:
                await asyncio.sleep(FOLLOW_EVERY_S / 2)
        except asyncio.CancelledError:
            pass  # stopping: decided on what is folded, stored by the last flush
        except Exception as exc:  # noqa: BLE001 - the store's trouble: decide on what is folded
            log.warning("gateway %s: the log's end unknown (%s: %s); deciding %s's messages on what is folded",
                        self.tournament, type(exc).__name__, str(exc)[:200], source[:200])
        finally:
            for client, topic, payload, mid, qos in self._paused.pop(source, ()):
                self._receive(topic, payload)
                self._acks.append((client, mid, qos))
            self._wake.set()

    def _take(self, step: Step, at: int) -> None:
        for event in step.events:
            type_, data = event.encode()  # the typed events leave for the log here
            if stateless(type_, data):
                self._repeats.add(type_, data, at)
            elif not self._coalesce.merge(self._pending, type_, data):
                self._pending.append((type_, data, at))
        if step.feedback:
            self._feedback.extend(self._with_round(step.feedback))
        if step.events or step.feedback:
            self._wake.set()

    def _with_round(self, feedback: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
        """Each answer given ``round``: the round of the game its board plays as it is decided
        (None when the board has none), so a device tells this game's answers from another's
        (docs/protocol.md "Feedback": round 2's station, on round 1's kept session, was handed round
        1's queued answers; issue 28)."""
        board_game = self.hall.state.board_game
        for board, payload in feedback:
            if "round" not in payload:
                g = board_game(board)
                payload["round"] = g.round if g is not None else None
        return feedback

    # ----- time, and entries others append ------------------------------------------------------
    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            at = now_ms()
            try:
                if self._held_status:
                    self._release_statuses()
                repeats = self._repeats.due(at)
                if repeats:
                    self._pending.extend(repeats)
                    self._wake.set()
                self._take(self.hall.tick(at), at)
            except Exception:  # noqa: BLE001 - the timer must keep running
                self.counts["internal_errors"] += 1
                log.exception("gateway %s: a timer step failed", self.tournament)

    async def _probe_loop(self) -> None:
        """Publish the probe when due and act on the verdicts (module docstring, 8.)."""
        probe = self.probe
        if probe is None:
            return
        loop = asyncio.get_running_loop()
        tick = min(probe.every_ms, probe.timeout_ms) / 4000
        last = loop.time()
        while True:
            await asyncio.sleep(tick)
            late = loop.time() - last - tick > max(0.5, tick)  # the loop was busy (or the process stopped)
            last = loop.time()
            client = self._client
            if client is None or not self.connected.is_set():
                continue
            if late:
                # what is read after a stall is stamped with the time it is read, not when it came: old
                # PUBACKs read at SIGCONT on a link the broker has closed would look like a broker that
                # answers and delivers nothing (and a fresh session drops what it queued): judge again
                # on the probes published from now on
                probe.new_link()
                continue
            now = now_ms()
            try:
                if probe.due(now):  # QoS 1: the broker's PUBACK says it reads this link
                    client.publish(self._probe_topic, probe.sent(now), 1)
                    client.flush()
                verdict = probe.verdict(now, int(client.heard_at * 1000))
                if verdict == DEAF:
                    self._deaf(client, now)
                elif verdict == HEARING:
                    self._fresh_tried = False
                    log.warning("gateway %s: the broker delivers again (%d ms without a probe back)",
                                self.tournament, probe.was_deaf_ms)
                    self._take(Step(events=[GatewayHearing(client_id=self.client_id, deaf_ms=probe.was_deaf_ms)]), now)
            except Exception:  # noqa: BLE001 - the probe must keep running
                self.counts["internal_errors"] += 1
                log.exception("gateway %s: a probe step failed", self.tournament)

    def _deaf(self, client: MqttClient, now: int) -> None:
        """The probe came back from nothing on this link: record it (the arbiters' alert) and start a
        fresh session, or, deaf on a fresh one already, stop (``GatewayDeaf``) for the supervisor."""
        probe = self.probe
        assert probe is not None
        since = probe.deaf_since if probe.deaf_since is not None else now  # a DEAF verdict sets it
        self._take(Step(events=[GatewayDeaf(client_id=self.client_id, since=since,
                                            unanswered=probe.unanswered, fresh=self._fresh_tried)]), now)
        if self._fresh_tried:
            self.failure = BrokerDeaf(
                f"the broker delivers nothing to this gateway (client id {self.client_id}): {probe.unanswered} "
                f"probes on {self._probe_topic} unanswered, on a fresh session too. Restart the broker "
                "(Mosquitto before 2.0.13 keeps a dead session holding the gateway's subscriptions after a "
                "refused connect with its client id: deploy/README.md); or, on a broker whose ACL was made before "
                "the probe (issue 28), run deploy/make-mosquitto-passwords.py again and reload it: the ACL must "
                "let this login read and write its probe topic")
            log.critical("gateway %s: %s", self.tournament, self.failure)
            self._stop_all.set()
            return
        log.critical("gateway %s: deaf: %d probes unanswered since %d ms; reconnecting with a fresh session",
                     self.tournament, probe.unanswered, probe.deaf_ms(now))
        self._fresh_tried = self._fresh_next = True
        self._cut_by_probe = True
        client.cut()

    def _known(self, seq: int) -> bool:
        """Whether entry ``seq`` is this gateway's own, stored and folded already (its append has
        returned): the follower passes over it undecoded. An entry of an append still in flight is
        not known yet: it is yielded, and ``_follow_loop`` waits for the append before judging."""
        if seq in self._own:
            self._own.discard(seq)
            self._last_seq = seq
            return True
        return False

    async def _follow_loop(self) -> None:
        """Fold in what others append (round_started, an arbiter's decision), with the answers."""
        backoff = 0.2
        while True:
            try:
                async for entry in self.log.follow(after=self._last_seq, pace_s=FOLLOW_EVERY_S, skip=self._known):
                    if self._appending.locked():  # our own append in flight: learn its seqs first
                        async with self._appending:
                            pass
                    self._last_seq = entry.seq
                    if entry.seq in self._own:
                        self._own.discard(entry.seq)
                        continue
                    at = now_ms()
                    self._take(self.hall.external(entry.type, entry.data, entry.at, entry.seq, at), at)
                    if entry.type == RoundStarted.TYPE:
                        _settle_heap()
                        log.info("gateway %s: round %s started (%d boards)", self.tournament,
                                 entry.data.get("round"), len(entry.data.get("games", [])))
            except asyncio.CancelledError:
                raise
            except LogReplaced as exc:
                self.failure = exc
                log.critical("gateway %s: %s: %s; stopping", self.tournament, type(exc).__name__, exc)
                self._stop_all.set()
                return
            except Exception:  # the store went away: follow again from the last entry seen
                log.exception("gateway %s: following the log failed", self.tournament)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)

    # ----- storing, then acknowledging ----------------------------------------------------------
    async def _flush_loop(self) -> None:
        backoff = 0.05
        loop = asyncio.get_running_loop()
        flushed = 0.0
        while True:
            if not self._pending and not self._feedback and not self._acks:
                if self._stopping:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            wait = flushed + FLUSH_EVERY_S - loop.time()
            if wait > 0 and not self._stopping:
                await asyncio.sleep(wait)  # gather what arrives meanwhile into this batch
            flushed = loop.time()
            batch, feedback, acks = self._pending, self._feedback, self._acks
            self._pending, self._feedback, self._acks = [], [], []
            self._coalesce.reset()
            batch_id = self._batch_ids.take(None)  # the same on every retry: a retry after a lost reply appends nothing
            while batch:
                try:
                    async with self._appending:
                        stored = await self.log.append_many(batch, batch_id=batch_id)
                        self._own.update(e.seq for e in stored)
                    self.counts["entries"] += len(batch)
                    batch = []
                    backoff = 0.05
                except asyncio.CancelledError:
                    self._pending[:0] = batch
                    self._acks[:0] = acks
                    raise
                except BadEntryError as exc:  # one entry the store cannot hold: replace it, keep the rest
                    log.error("gateway %s: the store refused an entry (%s)", self.tournament, exc)
                    batch = _storable(batch, exc.index)
                    batch_id = self._batch_ids.take(None)
                except LogReplaced as exc:
                    # the store holds another log than the one this gateway folded: never write over it
                    self.failure = exc
                    log.critical("gateway %s: %s: %s; stopping (nothing written)", self.tournament,
                                 type(exc).__name__, exc)
                    self._stop_all.set()
                    return
                except Exception as exc:
                    self.counts["store_errors"] += 1
                    if backoff == 0.05:  # the first failure in a row: the whole story once
                        log.exception("gateway %s: append failed; retrying", self.tournament)
                    else:
                        log.warning("gateway %s: append failed again (%s: %s); retrying in %.1f s",
                                    self.tournament, type(exc).__name__, str(exc)[:200], backoff)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, 2.0)
            current = self._client
            for client, mid, qos in acks:
                if client is current and qos:  # a message of a lost link: the broker redelivers it
                    client.ack(mid)
            self._publish_feedback(feedback)
            if current is not None:
                current.flush()  # the batch's PUBACKs and feedback in one write (one send())

    def _publish_feedback(self, feedback: list[tuple[str, dict]]) -> None:
        client = self._client
        if client is None or not feedback:
            return
        encode, topics = msgspec.json.encode, self._feedback_topics
        for board, payload in feedback:
            topic = topics.get(board)
            if topic is None:
                topic = feedback_topic(self.tournament, board).encode()
                if len(topics) < FEEDBACK_TOPICS_KEPT:  # unknown boards' labels come from any topic
                    topics[board] = topic
            client.publish(topic, encode(payload), FEEDBACK_QOS)


SUBSCRIBE_BYTES = 3000  # a SUBSCRIBE's filters (a shard's 5 per board): under the venue Mosquitto's 4 KB packets


def _chunks(topics: list[str], size: int) -> list[list[str]]:
    """``topics`` cut into runs of at most ``size`` bytes of SUBSCRIBE payload (2 + length + 1 each)."""
    out: list[list[str]] = [[]]
    used = 0
    for topic in topics:
        cost = len(topic.encode()) + 3
        if out[-1] and used + cost > size:
            out.append([])
            used = 0
        out[-1].append(topic)
        used += cost
    return [chunk for chunk in out if chunk]


def _settle_heap() -> None:
    """Collect once, then move every object alive into the collector's permanent generation
    (``gc.freeze``): the hall's state (a round's games, their rules cores) lives as long as the
    gateway, and a full collection walking it paused the gateway ~110 ms at 1,000 boards, the p99
    of every message in flight (bench/bench_gateway.py). Done when that state is built: after the
    rebuild and at each round's set-up."""
    gc.collect()
    gc.freeze()


TAKEOVER_S = 3.0  # a link lost this soon after it came up counts as the session taken over


class BrokerDeaf(RuntimeError):
    """The broker delivers nothing to this gateway, on a fresh session too (``gateway.probe``): the
    gateway stops so that its supervisor restarts it, and the arbiters have the alert."""


class SessionTakenOver(RuntimeError):
    """Another client keeps taking over this gateway's MQTT session (the same client id or login):
    a second gateway for the tournament on the same broker. The newer of the two stops."""


def _taken_over(takeovers, now: float, stable: bool) -> bool:
    """Whether the session takeovers seen (instants, monotonic s) mean another gateway runs: a
    gateway that never kept its link longer than ``TAKEOVER_S`` is the newcomer and gives way after
    2 within 10 s; one that did (it was here first) only after 6 within 20 s, so the newer of two
    gateways stops first."""
    count, window = (6, 20.0) if stable else (2, 10.0)
    return sum(1 for t in takeovers if now - t <= window) >= count


def _storable(batch: list[tuple[str, dict, int]], index: int) -> list[tuple[str, dict, int]]:
    """``batch`` with entry ``index`` (one the store refused: not valid UTF-8 JSON) replaced by a
    ``message_rejected`` that says so, its board kept, so the rest is stored."""
    type_, data, at = batch[index]
    board = data.get("board") if isinstance(data, dict) and isinstance(data.get("board"), str) else None
    try:
        if board is not None:
            board.encode("utf-8")  # a board label the store refuses (a lone surrogate) is dropped too
    except UnicodeEncodeError:
        board = None
    out = list(batch)
    out[index] = (MessageRejected.TYPE, {"board": board, "topic": None, "device": None, "seq": None, "raw": None,
                                       "reason": f"internal error: a {str(type_)[:40]!r} entry could not be stored"}, at)
    return out
