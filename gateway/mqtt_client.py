"""A small MQTT 3.1.1 client for the gateway's hot path: an ``asyncio.Protocol``, no thread, no task
per message.

Why our own: at 1,000 boards paho-mqtt and aiomqtt cost the gateway about a quarter of its CPU
(docs/performance.md, "The gateway alone"): paho reads a packet byte by byte in Python, makes a
Message, a ReasonCode and a Properties object per PUBACK and sends each packet with a send() of its
own; aiomqtt adds a task and an ``asyncio.wait`` per message. gmqtt (asyncio-native, kept, its
``optimistic_acknowledgement=False`` acknowledges after an async ``on_message`` returns) still makes a
task per QoS 1 message, parses MQTT 5 properties and writes each PUBACK alone; the gateway needs only
a few packet types and a PUBACK sent when *it* says (once the entries are stored), so it speaks them
itself: ``bench/bench_mqtt_client.py`` measures the three.

What it does, with the sections of MQTT Version 3.1.1 (OASIS Standard, 29 October 2014):

- CONNECT (3.1) with a fixed client id, ``clean_session`` (3.1.2.4: False keeps the session and its
  QoS 1 messages while the gateway is away), user name and password (3.1.3.4, 3.1.3.5), an optional
  will (3.1.2.5 to 3.1.2.7), keep alive (3.1.2.10); CONNACK (3.2) with its return codes (3.2.2.3);
- SUBSCRIBE (3.8) of topic filters at a QoS each, SUBACK (3.9, a failure is 0x80);
- PUBLISH in (3.3) at QoS 0 or 1, handed to ``on_message(topic, payload, mid, qos)`` from
  ``data_received``, then ``on_read()`` once for the whole read (the caller handles a read's messages
  at once, with no task woken per read); the PUBACK (3.4) of a QoS 1 message is sent only by ``ack(mid)`` (4.3.2: the
  receiver owns the message once it sends PUBACK, so the gateway sends it once the log has it); a
  PUBLISH with RETAIN set (3.3.1.3: the server sets it only on a retained message it sends because of
  a new subscription, never on one forwarded as it is published) goes to ``on_retained`` instead
  when that is set;
- PUBLISH out at QoS 0 or 1 with at most ``max_inflight`` QoS 1 messages awaiting their PUBACK, the
  rest queued in order (4.3.2, 4.6); a new link does not resend what an old one left unacknowledged
  (the feedback of a lost link is stale; paho under aiomqtt, one client per link, did the same);
- PINGREQ (3.12) when nothing was sent for half the keep alive, and the link is dropped when nothing
  was heard for 1.5 times it (3.1.2.10, 4.4: the server does the same to a silent client);
- DISCONNECT (3.14) on a clean close.

Everything written in one turn of the event loop goes out as one ``transport.write`` (``flush``, or
by itself on the loop's next turn): a batch's PUBACKs and feedback leave in one send(), with
TCP_NODELAY on (small packets never wait for the peer's delayed ACK). Reconnecting is the caller's
(``gateway.service``): a lost link ends ``wait_closed`` with ``MqttError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import time
from collections import deque
from collections.abc import Callable, Iterable

PROTOCOL_LEVEL = 4  # 3.1.2.2: the value of the Protocol Level for version 3.1.1
PINGREQ = b"\xc0\x00"  # 3.12.1
DISCONNECT = b"\xe0\x00"  # 3.14.1
CONNACK_CODES = {  # 3.2.2.3, Table 3.1
    1: "unacceptable protocol version", 2: "identifier rejected", 3: "server unavailable",
    4: "bad user name or password", 5: "not authorized"}
_H = struct.Struct("!H")


class MqttError(Exception):
    """The link failed, was refused (``rc``: the CONNACK return code, 3.2.2.3) or broke the protocol;
    a client that raised it is closed: make a new one to connect again."""

    def __init__(self, message: str, rc: int | None = None):
        super().__init__(message)
        self.rc = rc


# ----- encoding (pure) --------------------------------------------------------------------------
def remaining_length(n: int) -> bytes:
    """The Remaining Length field of a fixed header for ``n`` bytes (2.2.3: 7 bits a byte, low
    first, the top bit set while more follow; at most 268,435,455). Raises ValueError beyond it."""
    if not 0 <= n <= 268_435_455:
        raise ValueError(f"remaining length {n} out of range (2.2.3)")
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | 0x80 if n else byte)
        if not n:
            return bytes(out)


def utf8(text: str | bytes) -> bytes:
    """A UTF-8 encoded string field: its length in two bytes, then its bytes (1.5.3). Raises
    ValueError over 65,535 bytes."""
    raw = text.encode() if isinstance(text, str) else text
    if len(raw) > 0xFFFF:
        raise ValueError("an MQTT string is at most 65,535 bytes (1.5.3)")
    return _H.pack(len(raw)) + raw


def packet(first: int, body: bytes) -> bytes:
    """A whole control packet: the fixed header's first byte, the Remaining Length, the rest (2.2)."""
    return bytes((first,)) + remaining_length(len(body)) + body


def connect_packet(client_id: str, *, clean_session: bool, keepalive: int, username: str | None = None,
                   password: str | None = None, will: tuple[str, bytes, int, bool] | None = None) -> bytes:
    """CONNECT (3.1): ``keepalive`` in s (0 to 65,535); ``will``: (topic, payload, qos, retain).
    A password needs a user name (3.1.2.9)."""
    flags = 0x02 if clean_session else 0  # 3.1.2.4
    payload = utf8(client_id)  # 3.1.3.1
    if will is not None:
        topic, message, qos, retain = will
        flags |= 0x04 | (qos << 3) | (0x20 if retain else 0)  # 3.1.2.5 to 3.1.2.7
        payload += utf8(topic) + utf8(message)
    if username is not None:
        flags |= 0x80
        payload += utf8(username)
    if password is not None:
        if username is None:
            raise ValueError("an MQTT 3.1.1 password needs a user name (3.1.2.9)")
        flags |= 0x40
        payload += utf8(password)
    return packet(0x10, utf8("MQTT") + bytes((PROTOCOL_LEVEL, flags)) + _H.pack(keepalive) + payload)


def subscribe_packet(mid: int, filters: Iterable[tuple[str, int]]) -> bytes:
    """SUBSCRIBE (3.8): packet identifier ``mid``, then each (topic filter, requested QoS); the
    fixed header's flags are 0010 (3.8.1)."""
    body = _H.pack(mid) + b"".join(utf8(topic) + bytes((qos,)) for topic, qos in filters)
    return packet(0x82, body)


def publish_packet(topic: str | bytes, payload: bytes, qos: int = 0, mid: int = 0, *, dup: bool = False,
                   retain: bool = False) -> bytes:
    """PUBLISH (3.3): the topic name, the packet identifier when ``qos`` > 0 (3.3.2.2), the payload."""
    first = 0x30 | (0x08 if dup else 0) | (qos << 1) | (1 if retain else 0)
    head = utf8(topic) + (_H.pack(mid) if qos else b"")
    return packet(first, head + payload)


def puback_packet(mid: int) -> bytes:
    """PUBACK (3.4): fixed header 0x40, Remaining Length 2, the packet identifier."""
    return b"\x40\x02" + _H.pack(mid)


# ----- decoding (pure) --------------------------------------------------------------------------
def split_packets(data: bytes) -> tuple[list[tuple[int, bytes]], bytes]:
    """The whole control packets at the start of ``data`` as (first byte, body) and the bytes of an
    incomplete one left over (2.2). Raises MqttError on a Remaining Length over four bytes (2.2.3)."""
    out: list[tuple[int, bytes]] = []
    _, rest = _split(data, lambda first, body: out.append((first, body)))
    return out, rest


def _split(data: bytes, each: Callable[[int, bytes], object]) -> tuple[int, bytes]:
    size = len(data)
    at = 0
    while at + 2 <= size:
        length = data[at + 1]
        start = at + 2
        if length & 0x80:
            length &= 0x7F
            shift = 7
            while True:
                if start >= size:
                    return at, data[at:]
                byte = data[start]
                start += 1
                length |= (byte & 0x7F) << shift
                if not byte & 0x80:
                    break
                shift += 7
                if shift > 21:
                    raise MqttError("malformed Remaining Length (2.2.3)")
        end = start + length
        if end > size:
            break
        each(data[at], data[start:end])
        at = end
    return at, data[at:]


def parse_publish(first: int, body: bytes) -> tuple[str, bytes, int, int]:
    """An incoming PUBLISH's (topic, payload, packet identifier or 0, qos) (3.3). Raises
    UnicodeDecodeError on a topic that is not UTF-8 (1.5.3)."""
    size = (body[0] << 8) | body[1]
    qos = (first >> 1) & 3
    at = 2 + size
    if qos:
        return body[2:at].decode(), body[at + 2:], (body[at] << 8) | body[at + 1], qos
    return body[2:at].decode(), body[at:], 0, 0


# ----- the client -------------------------------------------------------------------------------
class MqttClient(asyncio.Protocol):
    """One MQTT 3.1.1 link (see the module docstring). ``on_message(topic: str, payload: bytes, mid:
    int, qos: int)`` runs inside ``data_received`` for every PUBLISH, in order; it must not raise and
    must not block. ``keepalive`` in s; ``max_inflight``: outgoing QoS 1 messages awaiting PUBACK.

    ``await connect(timeout)`` (MqttError when refused, unreachable or silent), ``await
    subscribe(filters)``, ``ack(mid)``, ``publish(topic, payload, qos)``, ``flush()``, ``await
    wait_closed()`` (MqttError when the link is lost), ``close()`` (DISCONNECT, then the socket), and
    ``cut()`` (drop the link without DISCONNECT). Attributes: ``session_present`` (3.2.2.2),
    ``inflight`` (identifiers of outgoing QoS 1 messages without PUBACK), ``queued`` (beyond them),
    ``heard_at`` (when the broker last sent anything, ``time.time()`` s: a PUBACK says it reads this
    link), ``on_read`` (None, or a callable run with no argument at the end of every read that carried a
    PUBLISH, after its ``on_message`` calls; it must not raise), ``on_retained`` (None, or a callable
    like ``on_message`` that takes the PUBLISHes with RETAIN set instead of ``on_message``).
    Used as ``async with`` it connects and closes.
    """

    def __init__(self, host: str, port: int, client_id: str, *, clean_session: bool = True,
                 username: str | None = None, password: str | None = None, keepalive: int = 60,
                 max_inflight: int = 20, on_message: Callable[[str, bytes, int, int], object] | None = None,
                 will: tuple[str, bytes, int, bool] | None = None):
        self.host, self.port, self.client_id = host, port, client_id
        self.clean_session, self.keepalive, self.max_inflight = clean_session, keepalive, max_inflight
        self.username, self.password, self.will = username, password, will
        self.on_message = on_message
        self.on_read: Callable[[], object] | None = None
        self.on_retained: Callable[[str, bytes, int, int], object] | None = None
        self._published = False  # this read carried a PUBLISH (``on_read``)
        self.session_present = False
        self.inflight: set[int] = set()
        self.queued: deque[tuple[bytes, bytes]] = deque()  # (encoded topic, payload) at QoS 1
        self._transport: asyncio.Transport | None = None
        self._out: list[bytes] = []
        self._flush_soon: asyncio.Handle | None = None
        self._rest = b""
        self._next_mid = 0
        self._waiting: dict[int, asyncio.Future] = {}  # SUBSCRIBE identifiers -> their SUBACK
        self._connack: asyncio.Future | None = None
        self._closed: asyncio.Future | None = None
        self._pinger: asyncio.TimerHandle | None = None
        self._sent = self._heard = False
        self._silent = 0
        self._closing = False
        self.heard_at = 0.0  # when the broker last sent anything (time.time(), s)

    # ----- connecting ---------------------------------------------------------------------------
    async def connect(self, timeout: float = 10.0) -> None:
        """Open the TCP link (TCP_NODELAY), send CONNECT and wait for CONNACK. Raises MqttError when
        the broker cannot be reached, refuses (``rc``) or says nothing within ``timeout`` s."""
        loop = asyncio.get_running_loop()
        self._closed = loop.create_future()
        self._connack = loop.create_future()
        try:
            await asyncio.wait_for(loop.create_connection(lambda: self, self.host, self.port), timeout)
        except (OSError, asyncio.TimeoutError) as exc:
            self._closed.cancel()
            raise MqttError(f"cannot reach the MQTT broker at {self.host}:{self.port}: {exc}") from exc
        self._write(connect_packet(self.client_id, clean_session=self.clean_session, keepalive=self.keepalive,
                                   username=self.username, password=self.password, will=self.will))
        self.flush()
        try:
            done, _ = await asyncio.wait({self._connack, self._closed}, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if self._connack not in done:
                if self._closed in done:
                    self._closed.result()  # raises the MqttError of the lost link
                raise MqttError(f"no CONNACK from {self.host}:{self.port} within {timeout} s")
            rc = self._connack.result()
            if rc:
                raise MqttError(f"connection refused: {CONNACK_CODES.get(rc, f'code {rc}')} (3.2.2.3)", rc)
        except BaseException:
            self.cut()
            raise
        if self.keepalive:
            self._pinger = loop.call_later(self.keepalive / 2, self._ping)

    async def subscribe(self, filters: list[tuple[str, int]], timeout: float = 10.0) -> list[int]:
        """Subscribe to (topic filter, qos) pairs and wait for the SUBACK; its return codes (3.9.3).
        Raises MqttError when any is a failure (0x80), the link is lost or no SUBACK comes in time."""
        mid = self._new_mid()
        future = self._waiting[mid] = asyncio.get_running_loop().create_future()
        self._write(subscribe_packet(mid, filters))
        self.flush()
        assert self._closed is not None, "connect first"
        try:
            done, _ = await asyncio.wait({future, self._closed}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._waiting.pop(mid, None)
        if future not in done:
            if self._closed in done:
                self._closed.result()
            raise MqttError(f"no SUBACK within {timeout} s")
        codes = future.result()
        if any(code & 0x80 for code in codes):
            raise MqttError(f"the broker refused a subscription (SUBACK {codes})")
        return codes

    async def wait_closed(self) -> None:
        """Until the link ends: returns after ``close()``, raises MqttError when it was lost."""
        assert self._closed is not None, "connect first"
        await asyncio.shield(self._closed)

    def close(self) -> None:
        """Send what is queued and DISCONNECT (3.14), then close the socket. Never raises."""
        if self._transport is not None and not self._closing:
            self._closing = True
            self._write(DISCONNECT)
            self.flush()
            self._transport.close()  # after the buffered bytes are sent

    def cut(self) -> None:
        """Drop the link at once, without DISCONNECT (the broker then publishes the will). Never raises."""
        self._closing = True
        if self._transport is not None:
            self._transport.abort()

    async def __aenter__(self) -> MqttClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc_info) -> None:
        self.close()
        if self._closed is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self._closed), 2.0)

    # ----- sending ------------------------------------------------------------------------------
    def ack(self, mid: int) -> None:
        """Queue the PUBACK of incoming QoS 1 message ``mid`` (3.4). Never raises: on a dead link the
        broker redelivers the message on the next connection (4.4)."""
        self._write(b"\x40\x02" + _H.pack(mid))

    def publish(self, topic: str | bytes, payload: bytes, qos: int = 0) -> None:
        """Queue a PUBLISH (QoS 0 or 1): beyond ``max_inflight`` QoS 1 messages awaiting PUBACK it
        waits in ``queued`` and goes out in order as PUBACKs come. Never raises on a dead link."""
        raw = topic.encode() if isinstance(topic, str) else topic
        if not qos:
            self._write(publish_packet(raw, payload))
        elif len(self.inflight) < self.max_inflight and not self.queued:
            self._write(publish_packet(raw, payload, 1, self._take_mid()))
        else:
            self.queued.append((raw, payload))

    def flush(self) -> None:
        """Write what is queued now, as one ``transport.write`` (one send() on an idle socket)."""
        if self._flush_soon is not None:
            self._flush_soon.cancel()
            self._flush_soon = None
        if not self._out:
            return
        out, self._out = self._out, []
        if self._transport is not None and not self._transport.is_closing():  # else lost with the link
            self._transport.write(out[0] if len(out) == 1 else b"".join(out))
            self._sent = True

    def _write(self, data: bytes) -> None:
        self._out.append(data)
        if self._flush_soon is None:
            with contextlib.suppress(RuntimeError):  # no loop: flush() sends it
                self._flush_soon = asyncio.get_running_loop().call_soon(self.flush)

    def _new_mid(self) -> int:
        mid = self._next_mid % 0xFFFF + 1  # 2.3.1: non-zero, 16 bits
        while mid in self.inflight or mid in self._waiting:
            mid = mid % 0xFFFF + 1
        self._next_mid = mid
        return mid

    def _take_mid(self) -> int:
        mid = self._new_mid()
        self.inflight.add(mid)
        return mid

    # ----- asyncio.Protocol ---------------------------------------------------------------------
    def connection_made(self, transport) -> None:
        self._transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        self._heard = True
        self.heard_at = time.time()
        if self._rest:
            data = self._rest + data
        try:
            _, self._rest = _split(data, self._packet)
        except MqttError as exc:
            self._fail(exc)
        if self._published:
            self._published = False
            if self.on_read is not None:
                self.on_read()

    def _packet(self, first: int, body: bytes) -> None:
        kind = first >> 4
        if kind == 3:  # PUBLISH
            try:
                topic, payload, mid, qos = parse_publish(first, body)
            except (UnicodeDecodeError, IndexError):
                mid = (body[-2] << 8) | body[-1] if (first >> 1) & 3 and len(body) >= 2 else 0
                if mid:  # unreadable: acknowledged so the broker does not redeliver it forever
                    self.ack(mid)
                return
            handler = self.on_retained if first & 1 and self.on_retained is not None else self.on_message
            if handler is not None:
                handler(topic, payload, mid, qos)
                self._published = True
        elif kind == 4:  # PUBACK of our QoS 1 message (3.4)
            self.inflight.discard((body[0] << 8) | body[1])
            queued = self.queued
            while queued and len(self.inflight) < self.max_inflight:
                raw, payload = queued.popleft()
                self._write(publish_packet(raw, payload, 1, self._take_mid()))
        elif kind == 2:  # CONNACK (3.2): session present, return code
            self.session_present = bool(body[0] & 1)
            if self._connack is not None and not self._connack.done():
                self._connack.set_result(body[1])
        elif kind == 9:  # SUBACK (3.9)
            future = self._waiting.get((body[0] << 8) | body[1])
            if future is not None and not future.done():
                future.set_result(list(body[2:]))
        # PINGRESP (13) needs nothing: every packet heard counts (_heard)

    def connection_lost(self, exc) -> None:
        self._transport = None
        if self._pinger is not None:
            self._pinger.cancel()
        if self._flush_soon is not None:
            self._flush_soon.cancel()
            self._flush_soon = None
        if self._closing and exc is None:
            if self._closed is not None and not self._closed.done():
                self._closed.set_result(None)
            return
        self._fail(MqttError(f"the MQTT link was lost: {exc or 'closed by the broker'}"))

    def _fail(self, exc: MqttError) -> None:
        if self._closed is not None and not self._closed.done():
            self._closed.set_exception(exc)
            self._closed.exception()  # retrieved: nobody waiting is no error
        if self._transport is not None:
            self._transport.abort()

    def _ping(self) -> None:
        """Every half keep alive: PINGREQ when nothing was sent meanwhile; drop a silent link."""
        if self._transport is None:
            return
        if self._heard:
            self._heard, self._silent = False, 0
        else:
            self._silent += 1
            if self._silent >= 3:  # 1.5 keep alives without a packet from the broker
                self._fail(MqttError("the MQTT broker did not answer within 1.5 keep alive periods"))
                return
        if not self._sent:
            self._write(PINGREQ)
            self.flush()
        self._sent = False
        self._pinger = asyncio.get_running_loop().call_later(self.keepalive / 2, self._ping)
