"""gateway.mqtt_client: the gateway's MQTT 3.1.1 packets, byte for byte, and its PUBACK contract.

Expected bytes are the non-normative examples of MQTT Version 3.1.1 (OASIS Standard, 29 October 2014),
named by section and figure in each test. The last tests run a Gateway against a fake broker in this
process: a device message is acknowledged (PUBACK) only once the log's append of its entries has
returned (docs/protocol.md; gateway/service.py, step 4).
"""

from __future__ import annotations

import asyncio
import json

import pytest
from eventually import eventually_async

from gateway import mqtt_client as m
from gateway.service import Gateway
from services.eventlog import open_log


@pytest.mark.parametrize("n, expected", [  # 2.2.3, Table 2.4: the bounds of 1 to 4 bytes
    (0, b"\x00"), (127, b"\x7f"), (128, b"\x80\x01"), (16_383, b"\xff\x7f"), (16_384, b"\x80\x80\x01"),
    (2_097_151, b"\xff\xff\x7f"), (2_097_152, b"\x80\x80\x80\x01"), (268_435_455, b"\xff\xff\xff\x7f")])
def test_remaining_length_is_the_spec_table(n, expected):
    assert m.remaining_length(n) == expected
    if n < 20_000:  # and it decodes back
        (first, body), = m.split_packets(b"\x30" + expected + bytes(n))[0]
        assert first == 0x30 and len(body) == n


def test_remaining_length_over_four_bytes_is_refused():
    with pytest.raises(ValueError):
        m.remaining_length(268_435_456)  # 2.2.3: the maximum is 268,435,455
    with pytest.raises(m.MqttError):
        m.split_packets(b"\x30\xff\xff\xff\xff\x01")  # a fifth length byte


def test_a_utf8_string_is_its_length_then_its_bytes():
    # 1.5.3, Figure 1.1: "A" then U+2A6D4 -> 0x00 0x05 0x41 0xF0 0xAA 0x9B 0x94
    assert m.utf8("A\U0002A6D4") == bytes([0x00, 0x05, 0x41, 0xF0, 0xAA, 0x9B, 0x94])


def test_connect_variable_header_is_the_spec_example():
    # 3.1.2.10, Figure 3.6: protocol name "MQTT", level 4, flags user name + password + will QoS 1 +
    # will flag + clean session (0xCE), keep alive 10
    raw = m.connect_packet("id", clean_session=True, keepalive=10, username="u", password="p",
                           will=("t", b"m", 1, False))
    (first, body), = m.split_packets(raw)[0]
    assert first == 0x10  # 3.1.1, Figure 3.1
    assert body[:10] == bytes([0, 4, ord("M"), ord("Q"), ord("T"), ord("T"), 4, 0xCE, 0, 10])
    # 3.1.3: payload in the order client id, will topic, will message, user name, password
    assert body[10:] == b"\x00\x02id" + b"\x00\x01t" + b"\x00\x01m" + b"\x00\x01u" + b"\x00\x01p"


def test_the_gateway_connect_keeps_its_session():
    raw = m.connect_packet("venue-gateway-x", clean_session=False, keepalive=5, username="gw", password="pw")
    (_, body), = m.split_packets(raw)[0]
    assert body[7] == 0xC0  # 3.1.2.3: user name and password flags; clean session 0 (3.1.2.4)
    assert body[8:10] == b"\x00\x05"
    with pytest.raises(ValueError):
        m.connect_packet("x", clean_session=True, keepalive=5, password="pw")  # 3.1.2.9


def test_publish_variable_header_is_the_spec_example():
    # 3.3.2.3, Figure 3.11: topic "a/b", packet identifier 10
    raw = m.publish_packet("a/b", b"hi", qos=1, mid=10)
    assert raw == bytes([0x32, 9]) + bytes([0, 3, ord("a"), ord("/"), ord("b"), 0, 10]) + b"hi"
    assert m.parse_publish(0x32, raw[2:]) == ("a/b", b"hi", 10, 1)
    assert m.publish_packet("a/b", b"hi") == bytes([0x30, 7, 0, 3]) + b"a/bhi"  # 3.3.2.2: no identifier at QoS 0
    assert m.parse_publish(0x30, bytes([0, 3]) + b"a/bhi") == ("a/b", b"hi", 0, 0)
    assert m.publish_packet("a/b", b"", qos=1, mid=10, dup=True)[0] == 0x3A  # 3.3.1.1 DUP, QoS 1


def test_puback_pingreq_disconnect_are_the_spec_packets():
    assert m.puback_packet(10) == bytes([0x40, 0x02, 0, 10])  # 3.4.1 Figure 3.12, 3.4.2 Figure 3.13
    assert m.PINGREQ == bytes([0xC0, 0x00])  # 3.12.1, Figure 3.33
    assert m.DISCONNECT == bytes([0xE0, 0x00])  # 3.14.1, Figure 3.35


def test_subscribe_is_the_spec_example():
    # 3.8.1 Figure 3.20 (fixed header 1000 0010), 3.8.2 Figure 3.21 (identifier 10), 3.8.3.1 Figure 3.22
    # (payload "a/b" QoS 1, "c/d" QoS 2)
    raw = m.subscribe_packet(10, [("a/b", 1), ("c/d", 2)])
    payload = bytes([0, 3, ord("a"), ord("/"), ord("b"), 1, 0, 3, ord("c"), ord("/"), ord("d"), 2])
    assert raw == bytes([0x82, 14, 0, 10]) + payload


def test_packets_split_across_reads_come_out_whole_and_in_order():
    stream = m.publish_packet("a/b", b"1", 1, 1) + m.publish_packet("c", b"22", 0) + m.puback_packet(7)
    packets, rest = m.split_packets(stream[:-1])
    assert [p[0] for p in packets] == [0x32, 0x30] and rest == m.puback_packet(7)[:-1]
    got = []
    client = m.MqttClient("h", 1, "c", on_message=lambda *a: got.append(a))
    for i in range(len(stream)):  # a byte at a time
        client.data_received(stream[i:i + 1])
    assert got == [("a/b", b"1", 1, 1), ("c", b"22", 0, 0)]


def test_on_read_runs_once_per_read_after_its_messages():
    """MQTT 3.1.1 2.2: two PUBLISH packets and a PUBACK in one read are two messages; ``on_read``
    runs once after both (the gateway then handles the read's messages at once), not for a read that
    carried only a PUBACK, nor for a read that ended inside a packet."""
    calls = []
    client = m.MqttClient("h", 1, "c", on_message=lambda topic, *_: calls.append(topic))
    client.on_read = lambda: calls.append("read")
    first = m.publish_packet("a", b"1", 1, 1) + m.publish_packet("b", b"2", 1, 2) + m.puback_packet(9)
    client.data_received(first)
    client.data_received(m.puback_packet(10))
    last = m.publish_packet("c", b"3", 0)
    client.data_received(last[:3])
    assert calls == ["a", "b", "read"]
    client.data_received(last[3:])
    assert calls == ["a", "b", "read", "c", "read"]


# ----- against a broker in this process -----------------------------------------------------------
class FakeBroker:
    """Enough of an MQTT 3.1.1 server for one client: CONNACK (session present 0, return code ``rc``),
    SUBACK with ``suback`` codes (default: what was asked), PINGRESP unless ``pingresp`` is False, and
    it records every packet received."""

    def __init__(self, rc: int = 0, suback: list[int] | None = None, pingresp: bool = True):
        self.rc, self.suback, self.pingresp = rc, suback, pingresp
        self.received: list[tuple[int, bytes]] = []
        self.arrived = asyncio.Event()
        self.writer: asyncio.StreamWriter | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader, writer):
        self.writer = writer
        rest = b""
        while data := await reader.read(65536):
            packets, rest = m.split_packets(rest + data)
            for first, body in packets:
                self.received.append((first, body))
                self.arrived.set()
                if first >> 4 == 1:
                    writer.write(bytes([0x20, 2, 0, self.rc]))  # 3.2, Figure 3.8
                elif first >> 4 == 8:
                    asked = []
                    at = 2
                    while at < len(body):
                        size = (body[at] << 8) | body[at + 1]
                        asked.append(body[at + 2 + size])
                        at += 3 + size
                    writer.write(m.packet(0x90, body[:2] + bytes(self.suback or asked)))  # 3.9
                elif first >> 4 == 12 and self.pingresp:
                    writer.write(b"\xd0\x00")  # 3.13

    def kinds(self) -> list[int]:
        return [first >> 4 for first, _ in self.received]

    async def wait_for(self, kind: int, timeout: float = 5.0) -> tuple[int, bytes]:
        async with asyncio.timeout(timeout):
            while True:
                for first, body in self.received:
                    if first >> 4 == kind:
                        return first, body
                self.arrived.clear()
                await self.arrived.wait()


async def test_connect_subscribe_ack_publish_and_disconnect():
    broker = FakeBroker()
    port = await broker.start()
    async with m.MqttClient("127.0.0.1", port, "gw", clean_session=False, keepalive=5) as client:
        assert await client.subscribe([("a/+", 1)]) == [1]
        client.ack(10)
        client.publish("f/1", b"{}", 1)
        client.flush()
        await broker.wait_for(3)
        assert (0x40, b"\x00\x0a") in broker.received
        assert client.inflight == {2}  # identifier 1 was the SUBSCRIBE's
        broker.writer.write(m.puback_packet(2))
        await eventually_async(lambda: client.inflight == set(), 5)
    await broker.wait_for(14)
    assert broker.kinds() == [1, 8, 4, 3, 14]  # CONNECT, SUBSCRIBE, PUBACK, PUBLISH, DISCONNECT
    broker.server.close()


async def test_a_refused_connection_and_a_refused_subscription_raise():
    broker = FakeBroker(rc=5)
    port = await broker.start()
    with pytest.raises(m.MqttError) as refused:
        await m.MqttClient("127.0.0.1", port, "gw").connect()
    assert refused.value.rc == 5  # 3.2.2.3: not authorized
    broker.rc, broker.suback = 0, [0, 2, 0x80]  # 3.9.3, Figure 3.27: QoS 0, QoS 2, failure
    client = m.MqttClient("127.0.0.1", port, "gw")
    await client.connect()
    with pytest.raises(m.MqttError):
        await client.subscribe([("a", 0), ("b", 2), ("c", 1)])
    client.close()
    broker.server.close()


async def test_beyond_max_inflight_publishes_wait_in_order():
    broker = FakeBroker()
    port = await broker.start()
    async with m.MqttClient("127.0.0.1", port, "gw", max_inflight=2) as client:
        for n in range(4):
            client.publish("f", str(n).encode(), 1)
        assert len(client.inflight) == 2 and [p for _, p in client.queued] == [b"2", b"3"]
        client.data_received(m.puback_packet(1))
        assert len(client.inflight) == 2 and [p for _, p in client.queued] == [b"3"]
    broker.server.close()


async def test_a_lost_link_ends_wait_closed_with_mqtt_error():
    broker = FakeBroker()
    port = await broker.start()
    client = m.MqttClient("127.0.0.1", port, "gw")
    await client.connect()
    broker.writer.transport.abort()
    with pytest.raises(m.MqttError):
        await asyncio.wait_for(client.wait_closed(), 5)
    broker.server.close()


async def test_an_idle_link_pings_and_a_silent_broker_is_left():
    """3.1.2.10: a client sends a control packet at least every keep alive (PINGREQ when idle); a broker
    silent for 1.5 keep alives is taken for gone (the same rule the server applies to clients)."""
    broker = FakeBroker()
    port = await broker.start()
    client = m.MqttClient("127.0.0.1", port, "gw", keepalive=1)
    await client.connect()
    await asyncio.sleep(2.2)
    assert broker.kinds().count(12) >= 2  # PINGREQs, answered: the link is still up
    assert not client._closed.done()
    client.close()
    broker.pingresp = False
    client = m.MqttClient("127.0.0.1", port, "gw2", keepalive=1)
    await client.connect()
    with pytest.raises(m.MqttError):
        await asyncio.wait_for(client.wait_closed(), 4)
    broker.server.close()


T = "puback-test"


async def test_a_message_is_not_acknowledged_before_its_append_returns():
    """Gateway over the fake broker: a QoS 1 move's ``move_played`` goes to a log whose append waits
    for the test; no PUBACK leaves while it waits, the PUBACK (with the message's identifier) follows."""
    broker = FakeBroker()
    port = await broker.start()
    log = open_log("memory://", T)
    await log.append_many([("round_started", round_started("1"), 1)])
    release = asyncio.Event()
    asked, stored = [], []
    append_many = log.append_many

    async def slow_append(items, **kw):
        asked.extend(items)
        await release.wait()
        out = await append_many(items, **kw)
        stored.extend(items)
        return out

    log.append_many = slow_append
    gateway = Gateway(log, f"mqtt://127.0.0.1:{port}", T)
    run = asyncio.create_task(gateway.run())
    try:
        await asyncio.wait_for(gateway.ready.wait(), 5)
        payload = json.dumps({"seq": 1, "move": "e2e4"}).encode()
        broker.writer.write(m.publish_packet(f"venue/{T}/boards/1/move", payload, qos=1, mid=321))
        await eventually_async(lambda: any(type_ == "move_played" for type_, _, _ in asked), 5)
        await asyncio.sleep(0.1)  # time enough for a PUBACK to be written and read, were it sent
        assert 4 not in broker.kinds() and not stored
        release.set()
        first, body = await broker.wait_for(4)
        assert body == b"\x01\x41"  # identifier 321
        assert [type_ for type_, _, _ in stored] == ["move_played"]  # stored before the PUBACK left
    finally:
        release.set()
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)
        broker.server.close()


def round_started(*boards: str) -> dict:
    """A round's ``round_started`` data (as tests/unit/test_gateway_receive.py)."""
    games = [{"id": f"1-{b}", "board": b, "round": "1", "white": "W", "black": "B", "white_elo": None,
              "black_elo": None, "variant": "chess", "time_control": "5400+30", "fen": None,
              "kind": "classical"} for b in boards]
    return {"round": "1", "event": "Test", "site": "", "date": "2024.04.04", "games": games}


def test_a_publish_with_retain_set_goes_to_on_retained():
    """MQTT 3.1.1 3.3.1.3: the server sets RETAIN only on a retained message sent because of a new
    subscription; the gateway takes those apart (issue 28: a retained move was recorded again at every
    start). Without ``on_retained`` they go to ``on_message`` as before."""
    live, retained = [], []
    client = m.MqttClient("h", 1, "c", on_message=lambda *a: live.append(a))
    stream = m.publish_packet("a", b"1", 1, 1, retain=True) + m.publish_packet("b", b"2", 1, 2)
    client.data_received(stream)
    assert live == [("a", b"1", 1, 1), ("b", b"2", 2, 1)] and retained == []
    live.clear()
    client.on_retained = lambda *a: retained.append(a)
    client.data_received(stream)
    assert live == [("b", b"2", 2, 1)] and retained == [("a", b"1", 1, 1)]
