"""The shipped broker configuration keeps every device to its own board (DESIGN.md, "Device protocol").

A second Mosquitto runs deploy/mosquitto/mosquitto.conf on a free port in a temporary directory, with
users and ACL made by deploy/make-mosquitto-passwords.py; only the ``[site]`` directives (port,
paths, user) are rewritten. Expected behaviour, from DESIGN.md: "A device may only write under its own
board (broker ACL; each device has its own credentials)"; the topic table says who publishes what
(``move``/``position`` from the board, ``clock`` from the clock, ``feedback`` from the gateway).
Issue 11 adds: a board login sends its clock's messages too (devices/ puts board and clock on one
connection), no device login can take the gateway's session (client ids are logins), and a
device's packets are limited in size (``max_packet_size``). Issue 15 adds a hall split across gateway
shards (``venue gateway --boards``): each shard has its own login (``--gateway-shards``), so two
shards are two sessions, and each reads and answers only its own boards.

Ordering argument used below: Mosquitto is single-threaded and routes a QoS 1 PUBLISH to subscribers
before it sends the PUBACK, so once a later message from the same test has arrived, an earlier
forbidden one would have arrived first if the broker had let it through.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import replace
from importlib import resources

import aiomqtt
import pytest

from devices.records import scripts_from_text
from devices.simulate import board_logins, play_scripts
from mosquitto_site import CONF, shipped_broker

pytestmark = pytest.mark.live

T = "acl-test"
GATEWAY = "@gateway"  # key of the tournament's gateway login (gateway-{T}) in the fixture's users


@pytest.fixture
def broker(tmp_path):
    """(port, credentials) of a Mosquitto running the shipped config, stopped afterwards."""
    with shipped_broker(tmp_path, "--tournament", f"{T}:1-2") as (port, users):
        assert f"gateway-{T}" in users
        users[GATEWAY] = f"gateway-{T}"
        yield port, users


def client(port: int, users: dict, username: str | None, password: str | None = None,
           identifier: str | None = None, clean_session: bool | None = None):
    """An aiomqtt client logged in as ``username`` ("gateway": the tournament's gateway login)."""
    if username == "gateway":
        username = users[GATEWAY]
    if username is not None and password is None:
        password = users[username]
    return aiomqtt.Client("127.0.0.1", port, username=username, password=password,
                          identifier=identifier or f"{username}-{time.monotonic_ns()}", timeout=5,
                          clean_session=clean_session)


async def next_message(c: aiomqtt.Client, timeout: float = 5.0) -> aiomqtt.Message:
    async with asyncio.timeout(timeout):
        return await anext(aiter(c.messages))


def topic(board: int, kind: str) -> str:
    return f"venue/{T}/boards/{board}/{kind}"


PRESS = {"seq": 1, "event": "press", "white_ms": 5391000, "black_ms": 5400000,
         "running": "black"}  # the DESIGN.md example


async def test_a_board_cannot_publish_for_another_board(broker):
    """DESIGN.md: a device may only write under its own board; the gateway never sees the forgery."""
    port, users = broker
    async with client(port, users, "gateway") as gw, client(port, users, f"board-{T}-1") as b1:
        await gw.subscribe("venue/#", qos=1)
        await b1.publish(topic(2, "move"), json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
        await b1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "d2d4"}), qos=1)
        got = await next_message(gw)
        assert (str(got.topic), json.loads(got.payload)["move"]) == (topic(1, "move"), "d2d4")


async def test_a_clock_cannot_publish_moves(broker):
    """DESIGN.md topic table: ``move`` is the board's; a clock login publishes ``clock``."""
    port, users = broker
    async with client(port, users, "gateway") as gw, client(port, users, f"clock-{T}-1") as c1:
        await gw.subscribe("venue/#", qos=1)
        await c1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
        await c1.publish(topic(1, "clock"), json.dumps(PRESS), qos=1)
        got = await next_message(gw)
        assert (str(got.topic), json.loads(got.payload)) == (topic(1, "clock"), PRESS)


async def test_a_board_login_publishes_its_clock_messages(broker):
    """Issue 11: "devices/ puts board and clock on one connection" (devices/station.py, as a DGT
    clock is wired through its board): the board login's clock messages reach the gateway."""
    port, users = broker
    async with client(port, users, "gateway") as gw, client(port, users, f"board-{T}-1") as b1:
        await gw.subscribe("venue/#", qos=1)
        await b1.publish(topic(1, "clock"), json.dumps(PRESS), qos=1)
        got = await next_message(gw)
        assert (str(got.topic), json.loads(got.payload)) == (topic(1, "clock"), PRESS)


async def test_simulated_stations_play_through_the_shipped_broker_with_their_board_logins(broker, tmp_path):
    """devices/station.py on the shipped broker, each board with its own login from the
    generated credentials.json (devices.simulate.board_logins): every move and every clock press
    (one connection per board) reaches the gateway. The games: the first 4 plies of the first two
    games of the demo's real round (venue/data/candidates_2024_round5.pgn)."""
    port, users = broker
    pgn = resources.files("venue").joinpath("data", "candidates_2024_round5.pgn").read_text("utf-8")
    scripts = [replace(script, board=board, result="*", flag=None, plies=script.plies[:4])
               for script, board in zip(scripts_from_text(pgn), ("1", "2"))]
    logins = board_logins(json.loads((tmp_path / "credentials.json").read_text()), T)
    async with client(port, users, "gateway") as gw:
        await gw.subscribe("venue/#", qos=1)
        # the test's client listens in the gateway's place and answers nothing: no answer awaited
        await play_scripts(f"mqtt://127.0.0.1:{port}", T, scripts, speed=10_000, logins=logins, confirm_wait_s=0)
        kinds = []
        with contextlib.suppress(TimeoutError):
            while True:
                parts = str((await next_message(gw, timeout=1.0)).topic).split("/")
                kinds.append((parts[3], parts[4]))
    for board in ("1", "2"):
        assert kinds.count((board, "move")) == 4
        assert kinds.count((board, "clock")) >= 5  # start, then a press after each ply


async def test_a_board_cannot_publish_any_kind_under_another_board(broker):
    """DESIGN.md: a device may only write under its own board: no move, clock, result or status
    of board 2 from board 1's login."""
    port, users = broker
    async with client(port, users, "gateway") as gw, client(port, users, f"board-{T}-1") as b1:
        await gw.subscribe("venue/#", qos=1)
        await b1.publish(topic(2, "clock"), json.dumps(PRESS), qos=1)
        await b1.publish(topic(2, "result"), json.dumps({"seq": 2, "result": "1-0"}), qos=1)
        await b1.publish(topic(2, "status"), "offline", qos=1)
        await b1.publish(topic(2, "position"), json.dumps({"seq": 3, "placement": "8/8/8/8/8/8/8/8"}),
                         qos=1)
        await b1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "d2d4"}), qos=1)
        got = await next_message(gw)
        assert (str(got.topic), json.loads(got.payload)["move"]) == (topic(1, "move"), "d2d4")


@pytest.mark.parametrize("impostor_id", ["venue-gateway-" + T, "gateway"],
                         ids=["gateways-documented-client-id", "gateways-login-as-client-id"])
async def test_a_board_login_with_the_gateways_client_id_does_not_disconnect_the_gateway(broker, impostor_id):
    """Issue 11, "Any device can take the gateway's session": a board login connecting with the
    gateway's client id (gateway/service.py's ``venue-gateway-{slug}``, or the gateway's login,
    which the shipped broker makes its client id) must not kick the gateway off (MQTT 3.1.1
    3.1.4-2: a second connection with a client id takes over the first)."""
    port, users = broker
    identifier = impostor_id if impostor_id != "gateway" else users[GATEWAY]
    async with client(port, users, "gateway", identifier=f"venue-gateway-{T}",
                      clean_session=False) as gw:
        await gw.subscribe("venue/#", qos=1)
        async with client(port, users, f"board-{T}-1", identifier=identifier, clean_session=False) as b1:
            await b1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
            got = await next_message(gw)
            assert json.loads(got.payload)["move"] == "e2e4"
        async with client(port, users, f"board-{T}-2") as b2:  # the gateway is still there after
            await b2.publish(topic(2, "move"), json.dumps({"seq": 1, "move": "d2d4"}), qos=1)
            got = await next_message(gw)
            assert (str(got.topic), json.loads(got.payload)["move"]) == (topic(2, "move"), "d2d4")


async def test_a_message_over_the_size_limit_disconnects_only_its_sender(broker):
    """mosquitto.conf ``max_packet_size``: a device sending more than the limit is disconnected
    and nobody receives it; the gateway and the other boards carry on."""
    port, users = broker
    limit = packet_limit()
    async with client(port, users, "gateway") as gw, client(port, users, f"board-{T}-2") as b2:
        await gw.subscribe("venue/#", qos=1)
        with pytest.raises(aiomqtt.MqttError):
            async with client(port, users, f"board-{T}-1") as b1:
                await b1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "x" * limit}), qos=1)
                await b1.publish(topic(1, "move"), json.dumps({"seq": 2, "move": "e2e4"}), qos=1)
        await b2.publish(topic(2, "move"), json.dumps({"seq": 1, "move": "d2d4"}), qos=1)
        got = await next_message(gw)
        assert (str(got.topic), json.loads(got.payload)["move"]) == (topic(2, "move"), "d2d4")


def packet_limit() -> int:
    """The shipped ``max_packet_size`` (bytes)."""
    values = [line.split()[1] for line in CONF.read_text().splitlines() if line.startswith("max_packet_size")]
    assert len(values) == 1, "mosquitto.conf sets max_packet_size once"
    return int(values[0])


async def test_devices_read_only_their_own_feedback_and_cannot_forge_it(broker):
    """DESIGN.md: ``feedback`` goes from the gateway to one device; nobody else writes or reads it."""
    port, users = broker
    async with (client(port, users, "gateway") as gw, client(port, users, f"board-{T}-1") as b1,
                client(port, users, f"board-{T}-2") as b2):
        await b1.subscribe(topic(2, "feedback"), qos=1)  # someone else's
        await b1.subscribe(topic(1, "feedback"), qos=1)
        await b2.publish(topic(1, "feedback"), json.dumps({"ref": 1, "accepted": True}), qos=1)
        await gw.publish(topic(2, "feedback"), json.dumps({"ref": 1, "accepted": True}), qos=1)
        real = {"ref": 17, "accepted": False, "reason": "illegal move: e2e5"}  # the DESIGN.md example
        await gw.publish(topic(1, "feedback"), json.dumps(real), qos=1)
        got = await next_message(b1)
        assert (str(got.topic), json.loads(got.payload)) == (topic(1, "feedback"), real)


@pytest.mark.parametrize(
    "username, password",
    [(None, None), ("intruder", "x"), (f"board-{T}-1", "wrong password"), (f"board-{T}-9", "x")],
    ids=["anonymous", "unknown-user", "wrong-password", "board-not-in-the-list"],
)
async def test_unknown_or_wrong_credentials_cannot_connect(broker, username, password):
    """mosquitto.conf: allow_anonymous false and a password per device."""
    port, users = broker
    with pytest.raises(aiomqtt.MqttError):
        async with client(port, users, username, password or ""):
            pass


# ----- a hall split across gateway shards, each with its own login (issue 15) ----------------------
# make-mosquitto-passwords.py's docstring: with --gateway-shards T:1-2 and T:3-4 the logins are
# gateway-T-boards-1-2 and gateway-T-boards-3-4 (no gateway-T), each reading and answering its
# boards only; gateway/service.py subscribes a shard to venue/T/boards/{b}/{kind} of its boards.
SHARD_1, SHARD_2 = f"gateway-{T}-boards-1-2", f"gateway-{T}-boards-3-4"


@pytest.fixture
def sharded_broker(tmp_path):
    """(port, credentials) of the shipped broker for tournament T's boards 1-4 split in two shards."""
    with shipped_broker(tmp_path, "--tournament", f"{T}:1-4", "--gateway-shards", f"{T}:1-2",
                        "--gateway-shards", f"{T}:3-4") as (port, users):
        yield port, users


async def subscribe_to_boards(c: aiomqtt.Client, boards) -> None:
    """What gateway/payload.py ``topic_filters`` subscribes a shard to."""
    await c.subscribe([(topic(b, kind), 1) for b in boards
                       for kind in ("move", "position", "clock", "result", "status")])


async def test_sharded_tournament_has_shard_logins_and_no_whole_tournament_login(sharded_broker):
    """With shards declared, the tournament's gateway login is the shards' (docstring)."""
    port, users = sharded_broker
    assert {u for u in users if u.startswith("gateway-")} == {SHARD_1, SHARD_2}
    with pytest.raises(aiomqtt.MqttError):
        async with client(port, users, f"gateway-{T}", "x"):
            pass


async def test_two_shard_logins_stay_connected_side_by_side(sharded_broker):
    """Issue 15: two shards on one login took each other's session (login = client id). With a
    login each, both stay connected even when they send the same client id and keep their sessions
    (clean_session false, as gateway/service.py), and each gets its own boards' devices."""
    port, users = sharded_broker
    async with client(port, users, SHARD_1, identifier=f"venue-gateway-{T}", clean_session=False) as s1:
        await subscribe_to_boards(s1, (1, 2))
        async with client(port, users, SHARD_2, identifier=f"venue-gateway-{T}", clean_session=False) as s2:
            await subscribe_to_boards(s2, (3, 4))
            async with (client(port, users, f"board-{T}-1") as b1, client(port, users, f"board-{T}-3") as b3,
                        client(port, users, f"clock-{T}-4") as c4):
                await b1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
                await b3.publish(topic(3, "move"), json.dumps({"seq": 1, "move": "d2d4"}), qos=1)
                await c4.publish(topic(4, "clock"), json.dumps(PRESS), qos=1)
                got = await next_message(s1)
                assert (str(got.topic), json.loads(got.payload)["move"]) == (topic(1, "move"), "e2e4")
                got = [await next_message(s2), await next_message(s2)]
                assert sorted(str(m.topic) for m in got) == [topic(3, "move"), topic(4, "clock")]
                await b1.publish(topic(1, "move"), json.dumps({"seq": 2, "move": "e7e5"}), qos=1)
                got = await next_message(s1)  # the first shard is still there after the second came
                assert json.loads(got.payload)["move"] == "e7e5"


async def test_a_shard_cannot_read_another_shards_boards(sharded_broker):
    """Each shard's login reads its own boards only: shard 1 subscribing to board 3 (one topic, a
    wildcard and the whole tournament) gets nothing of it; shard 2 does (the device of shard 2
    still reaches shard 2's login)."""
    port, users = sharded_broker
    async with (client(port, users, SHARD_1) as s1, client(port, users, SHARD_2) as s2,
                client(port, users, f"board-{T}-1") as b1, client(port, users, f"board-{T}-3") as b3):
        for pattern in (topic(3, "move"), f"venue/{T}/boards/+/move", f"venue/{T}/#"):
            await s1.subscribe(pattern, qos=1)
        await subscribe_to_boards(s1, (1, 2))
        await subscribe_to_boards(s2, (3, 4))
        await b3.publish(topic(3, "move"), json.dumps({"seq": 1, "move": "d2d4"}), qos=1)
        got = await next_message(s2)
        assert (str(got.topic), json.loads(got.payload)["move"]) == (topic(3, "move"), "d2d4")
        await b1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
        got = await next_message(s1)  # board 3's move, published first, would have come first
        assert (str(got.topic), json.loads(got.payload)["move"]) == (topic(1, "move"), "e2e4")


async def test_a_shard_answers_only_its_own_boards(sharded_broker):
    """A shard writes its boards' feedback only: shard 1's feedback to board 3 never arrives,
    shard 2's does, and shard 1's to board 1 does (payloads: the DESIGN.md example)."""
    port, users = sharded_broker
    real = {"ref": 17, "accepted": False, "reason": "illegal move: e2e5"}
    async with (client(port, users, SHARD_1) as s1, client(port, users, SHARD_2) as s2,
                client(port, users, f"board-{T}-1") as b1, client(port, users, f"board-{T}-3") as b3):
        await b1.subscribe(topic(1, "feedback"), qos=1)
        await b3.subscribe(topic(3, "feedback"), qos=1)
        await s1.publish(topic(3, "feedback"), json.dumps({"ref": 1, "accepted": True}), qos=1)
        await s2.publish(topic(3, "feedback"), json.dumps(real), qos=1)
        got = await next_message(b3)
        assert (str(got.topic), json.loads(got.payload)) == (topic(3, "feedback"), real)
        await s1.publish(topic(1, "feedback"), json.dumps(real), qos=1)
        got = await next_message(b1)
        assert (str(got.topic), json.loads(got.payload)) == (topic(1, "feedback"), real)
