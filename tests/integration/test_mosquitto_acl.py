"""The shipped broker configuration keeps every device to its own board (DESIGN.md, "Device protocol").

A second Mosquitto runs deploy/mosquitto/mosquitto.conf on a free port in a temporary directory, with
users and ACL made by deploy/make-mosquitto-passwords.py; only the ``[site]`` directives (port,
paths, user) are rewritten. Expected behaviour, from DESIGN.md: "A device may only write under its own
board (broker ACL; each device has its own credentials)"; the topic table says who publishes what
(``move``/``position`` from the board, ``clock`` from the clock, ``feedback`` from the gateway).

Ordering argument used below: Mosquitto is single-threaded and routes a QoS 1 PUBLISH to subscribers
before it sends the PUBACK, so once a later message from the same test has arrived, an earlier
forbidden one would have arrived first if the broker had let it through.
"""

from __future__ import annotations

import asyncio
import getpass
import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiomqtt
import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
CONF = REPO / "deploy" / "mosquitto" / "mosquitto.conf"
MAKER = REPO / "deploy" / "make-mosquitto-passwords.py"
T = "acl-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    assert Path(found).exists(), "mosquitto is not installed (apt-get install mosquitto)"
    return found


def site_config(port: int, tmp: Path) -> str:
    """The shipped config with only its [site] directives rewritten for a private test broker."""
    overrides = {
        "listener": f"listener {port} 127.0.0.1",
        "password_file": f"password_file {tmp / 'passwd'}",
        "acl_file": f"acl_file {tmp / 'acl'}",
        "persistence_location": f"persistence_location {tmp}/",
        "user": f"user {getpass.getuser()}",
    }
    seen, lines = set(), []
    for line in CONF.read_text().splitlines():
        key = line.split()[0] if line.strip() and not line.startswith("#") else None
        if key in overrides:
            assert key not in seen, f"{key} appears twice in {CONF}"
            seen.add(key)
            line = overrides[key]
        lines.append(line)
    assert seen == set(overrides), f"{CONF} lacks {set(overrides) - seen}"
    return "\n".join(lines) + "\n"


@pytest.fixture
def broker(tmp_path):
    """(port, credentials) of a Mosquitto running the shipped config, stopped afterwards."""
    subprocess.run([sys.executable, MAKER, "--out-dir", tmp_path, "--tournament", f"{T}:1-2"],
                   check=True, capture_output=True)
    port = free_port()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(site_config(port, tmp_path))
    log = (tmp_path / "mosquitto.log").open("w")
    proc = subprocess.Popen([mosquitto_binary(), "-c", conf], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            assert proc.poll() is None, (tmp_path / "mosquitto.log").read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the test broker did not start"
                time.sleep(0.05)
        creds = json.loads((tmp_path / "credentials.json").read_text())
        users = {d["username"]: d["password"] for d in creds["devices"]}
        users[creds["gateway"]["username"]] = creds["gateway"]["password"]
        yield port, users
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def client(port: int, users: dict, username: str | None, password: str | None = None):
    if username is not None and password is None:
        password = users[username]
    return aiomqtt.Client("127.0.0.1", port, username=username, password=password,
                          identifier=f"{username}-{time.monotonic_ns()}", timeout=5)


async def next_message(c: aiomqtt.Client, timeout: float = 5.0) -> aiomqtt.Message:
    async with asyncio.timeout(timeout):
        return await anext(aiter(c.messages))


def topic(board: int, kind: str) -> str:
    return f"venue/{T}/boards/{board}/{kind}"


async def test_a_board_cannot_publish_for_another_board(broker):
    """DESIGN.md: a device may only write under its own board; the gateway never sees the forgery."""
    port, users = broker
    async with client(port, users, "gateway") as gw, client(port, users, f"board-{T}-1") as b1:
        await gw.subscribe("venue/#", qos=1)
        await b1.publish(topic(2, "move"), json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
        await b1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "d2d4"}), qos=1)
        got = await next_message(gw)
        assert (str(got.topic), json.loads(got.payload)["move"]) == (topic(1, "move"), "d2d4")


async def test_a_clock_cannot_publish_moves_and_a_board_cannot_publish_clock_presses(broker):
    """DESIGN.md topic table: ``move`` is the board's, ``clock`` the clock's."""
    port, users = broker
    async with (client(port, users, "gateway") as gw, client(port, users, f"board-{T}-1") as b1,
                client(port, users, f"clock-{T}-1") as c1):
        await gw.subscribe("venue/#", qos=1)
        await c1.publish(topic(1, "move"), json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
        await b1.publish(topic(1, "clock"), json.dumps({"seq": 1, "event": "start"}), qos=1)
        press = {"seq": 1, "event": "press", "white_ms": 5391000, "black_ms": 5400000,
                 "running": "black"}  # the DESIGN.md example
        await c1.publish(topic(1, "clock"), json.dumps(press), qos=1)
        got = await next_message(gw)
        assert (str(got.topic), json.loads(got.payload)) == (topic(1, "clock"), press)


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
