"""A gateway that knows when it is deaf (issue 28), on a private Mosquitto.

Issue 28's finding 1: "A connect with the gateway's client id and no password is refused; at the
gateway's next reconnect it gets CONNACK and SUBACK but the broker forwards it nothing, while still
acknowledging every board's publish. Moves are lost, no ``resend_from`` is asked, ``/api/health``
stays ok, restarting the gateway does not help" (Mosquitto 2.0.11). The cause, in Mosquitto's own
source: 2.0.11's ``context__remove_from_by_id`` removes from the table of client ids whichever
client holds the refused client's id, the gateway's session; the gateway's next connection gets a
new session while the old one, no longer findable, keeps the subscriptions (a subscription is found
by client id), so messages go to a session no connection reads. 2.0.13 (ChangeLog: "Fix client id
not showing in log on failed connections", commit be80a3f4) removes only a client that was added.

Two brokers, both the machine's Mosquitto binary:

- the shipped deploy/mosquitto config (logins, ACL, ``use_username_as_clientid``): the gateway's
  client id is its login, so a fresh session cannot take another id. On 2.0.11 the gateway detects
  the deafness, alerts, reconnects fresh, is still deaf and exits for its supervisor; the broker
  restarted, a gateway started again hears, closes the alert and stores the next moves. On 2.0.13
  or later the refused connect changes nothing.
- a plain config (logins, no ``use_username_as_clientid``: the client picks its id): the refused
  connect changes nothing (2.0.11 clears the id of a client its password check refuses), and a
  broker frozen under the gateway (silent, not deaf) keeps the gateway's session.

The moves: FIDE Candidates 2024 (open), round 1, Abasov - Nepomniachtchi
(../shared/data/chess/fide_candidates_2024_open.pgn, game 2), the first plies. The move a board sent while
the gateway was deaf is sent again with its seq once the gateway hears (docs/protocol.md: a device
keeps an unconfirmed message and sends it again).
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import io
import json
import re
import signal
import subprocess
import uuid

import chess.pgn
import httpx
import pytest
from eventually import eventually_async
from live_helpers import log_until
from mosquitto_site import MAKER, mosquitto_binary, shipped_site

from dashboard.app import create_app
from gateway import Gateway
from gateway.broker import free_port
from gateway.mqtt_client import MqttClient, MqttError
from gateway.service import BrokerDeaf
from services.eventlog.memory import MemoryLog
from services.events import GatewayDeaf, GatewayHearing
from venue.serve import serving

pytestmark = pytest.mark.live

EVERY_S, TIMEOUT_S = 0.2, 1.0  # the probe's interval and timeout, short for the test (defaults: 2 s, 6 s)


def moves(shared_data, plies: int = 3) -> list[str]:
    """The first UCI ``plies`` of Abasov - Nepomniachtchi (the file's game 2)."""
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text())
    chess.pgn.read_game(stream)
    game = chess.pgn.read_game(stream)
    return [m.uci() for m in game.mainline_moves()][:plies]


def round_data() -> dict:
    return {"round": "1", "event": "Deaf", "site": "", "date": "2024.04.04", "games": [
        {"id": "1-1", "board": "1", "round": "1", "white": "Abasov, Nijat", "black": "Nepomniachtchi, Ian",
         "variant": "chess", "time_control": None, "fen": None, "kind": "classical"}]}


def mosquitto_version() -> tuple[int, ...]:
    out = subprocess.run([mosquitto_binary(), "-h"], capture_output=True, text=True).stdout
    return tuple(int(x) for x in re.search(r"version (\d+)\.(\d+)\.(\d+)", out).groups())


FIXED = (2, 0, 13)  # the first Mosquitto whose refused connect leaves the other client's session alone


def played(entries) -> list[str]:
    return [e.data["move"] for e in entries if e.type == "move_played"]


async def refused_with_id(port: int, client_id: str) -> None:
    """An anonymous connect with ``client_id``: refused (the issue's first step)."""
    with pytest.raises(MqttError) as refused:
        async with MqttClient("127.0.0.1", port, client_id):
            pass
    assert refused.value.rc == 5  # not authorized (MQTT 3.1.1 3.2.2.3)


async def health(log: MemoryLog, seq: int) -> dict:
    """``/api/health`` of a dashboard over ``log`` once it has folded entry ``seq``."""
    async with serving(create_app(log)) as url, httpx.AsyncClient(base_url=url) as http:
        async def folded() -> dict:
            body = (await http.get("/api/health")).json()
            assert body["seq"] >= seq
            return body
        return await eventually_async(folded, 10)


class Board:
    """Board 1's device on its own login: each move with its seq, QoS 1."""

    def __init__(self, client: MqttClient, slug: str):
        self.client, self.topic = client, f"venue/{slug}/boards/1/move"

    def send(self, seq: int, uci: str) -> None:
        self.client.publish(self.topic, json.dumps({"seq": seq, "move": uci}).encode(), 1)


def start(log, url: str, slug: str, **kw) -> tuple[Gateway, asyncio.Task]:
    gw = Gateway(log, url, slug, probe_every_s=EVERY_S, probe_timeout_s=TIMEOUT_S, **kw)
    return gw, asyncio.create_task(gw.run())


async def stop(task: asyncio.Task) -> None:
    task.cancel()
    with contextlib.suppress(BaseException):
        await task


async def restarted_after_a_refused_connect(log, port: int, users: dict, slug: str, url: str, ply: list[str],
                                            refused_id: str, device_id: str = "b1"):
    """Board 1 (client id ``device_id``) plays ``ply[0]`` through a gateway, stored; a client without
    a login connecting with ``refused_id`` is refused; the gateway restarts (its next connection,
    the issue's step). Returns (the new gateway, its task, the board, its MQTT client)."""
    device = MqttClient("127.0.0.1", port, device_id, username=f"board-{slug}-1", password=users[f"board-{slug}-1"],
                        keepalive=60)

    async def up() -> bool:
        try:
            await device.connect()
            return True
        except MqttError as exc:
            raise AssertionError(f"the broker is not up yet: {exc}") from None
    await eventually_async(up, 10)
    board = Board(device, slug)
    gw, task = start(log, url, slug)
    await asyncio.wait_for(gw.ready.wait(), 10)
    board.send(1, ply[0])
    await log_until(log, lambda es: played(es) == ply[:1])
    await refused_with_id(port, refused_id)
    await stop(task)
    gw, task = start(log, url, slug)
    await asyncio.wait_for(gw.ready.wait(), 10)
    return gw, task, board, device


async def test_on_the_shipped_broker_a_deaf_gateway_alerts_exits_and_hears_after_the_broker_restarts(tmp_path, shared_data):
    slug = f"deaf-{uuid.uuid4().hex[:8]}"
    ply = moves(shared_data)
    log = MemoryLog(slug)
    await log.append("round_started", round_data())
    with shipped_site(tmp_path, "--tournament", f"{slug}:1-2") as site:
        login = f"gateway-{slug}"
        url = f"mqtt://{login}:{site.users[login]}@127.0.0.1:{site.port}"
        # the gateway's client id is its login
        gw, task, board, device = await restarted_after_a_refused_connect(log, site.port, site.users, slug, url, ply, login)
        board.send(2, ply[1])
        if mosquitto_version() >= FIXED:  # nothing happened to the gateway's session
            await log_until(log, lambda es: played(es) == ply[:2])
            assert not [e for e in await log.read() if e.type == GatewayDeaf.TYPE]
            await stop(task)
            return

        # 2.0.11: deaf; alerted; a fresh session (the same id: the login) is deaf too; it exits
        with pytest.raises(BrokerDeaf):
            await asyncio.wait_for(task, 30)
        entries = await log.read()
        deaf = [e.data for e in entries if e.type == GatewayDeaf.TYPE]
        assert [d["fresh"] for d in deaf] == [False, True] and {d["client_id"] for d in deaf} == {gw.client_id}
        assert played(entries) == ply[:1]  # the broker took ply 2 and forwarded it to nobody
        body = await health(log, entries[-1].seq)
        assert not body["ok"] and body["error"].startswith("gateway deaf") and body["deaf_gateways"] == [gw.client_id]

        site.restart()  # the operator, as the alert says
        device = MqttClient("127.0.0.1", site.port, "b1", username=f"board-{slug}-1",
                            password=site.users[f"board-{slug}-1"])
        await device.connect()
        board = Board(device, slug)
        gw, task = start(log, url, slug)  # the supervisor's restart
        try:
            await asyncio.wait_for(gw.ready.wait(), 10)
            await log_until(log, lambda es: any(e.type == GatewayHearing.TYPE for e in es))
            board.send(2, ply[1])  # unconfirmed: sent again with its seq
            board.send(3, ply[2])
            entries = await log_until(log, lambda es: played(es) == ply)
        finally:
            await stop(task)
        body = await health(log, entries[-1].seq)
        assert body["ok"] and body["deaf_gateways"] == []
        device.close()


async def test_client_id_prefixes_close_the_hole_on_the_shipped_broker(tmp_path, shared_data):
    """``clientid_prefixes venue-`` beside the shipped config: the refused connect with the gateway's
    login as id is refused by the prefix check, which 2.0.11 makes before the client has an id
    (src/handle_connect.c), so no other client's session is touched; the gateway (its own id
    ``venue-gateway-{t}``, the board ``venue-...``) hears on and the next move is stored."""
    slug = f"deaf-{uuid.uuid4().hex[:8]}"
    ply = moves(shared_data, 2)
    log = MemoryLog(slug)
    await log.append("round_started", round_data())
    with shipped_site(tmp_path, "--tournament", f"{slug}:1-2", extra="clientid_prefixes venue-\n") as site:
        login = f"gateway-{slug}"
        url = f"mqtt://{login}:{site.users[login]}@127.0.0.1:{site.port}"
        gw, task, board, device = await restarted_after_a_refused_connect(
            log, site.port, site.users, slug, url, ply, login, device_id=f"venue-board-{slug}-1")
        try:
            board.send(2, ply[1])
            await log_until(log, lambda es: played(es) == ply)
            # enough probes for a verdict: a deaf gateway says so once its oldest unanswered probe is
            # TIMEOUT_S old (TIMEOUT_S / EVERY_S probes later), and this one must not have
            enough = gw.probe.published + round(TIMEOUT_S / EVERY_S) + 2
            await eventually_async(lambda: gw.probe.published >= enough, 10)
            assert not gw.probe.deaf
        finally:
            await stop(task)
        assert not [e for e in await log.read() if e.type == GatewayDeaf.TYPE]
        device.close()


async def test_on_a_plain_broker_the_refused_connect_is_harmless_and_a_frozen_broker_is_not_deafness(tmp_path, shared_data):
    """A plain config: logins and ACL, no ``use_username_as_clientid`` (the gateway's client id is
    ``venue-gateway-{t}``, its choice). Mosquitto 2.0.11 clears a client's id when its password check
    refuses it, so the refused connect leaves the gateway's session alone (it is only the
    ``use_username_as_clientid`` refusal of a client without a login that keeps it: src/handle_connect.c).
    Then a broker frozen (SIGSTOP) 3 s with the link up: the probes go unanswered, but so do their
    PUBACKs: a silent broker is not a deaf one (the keep alive's to notice), so no alert and no fresh
    session, which would drop the move the broker took into the session during the freeze; that move
    and the next are stored once it runs."""
    slug = f"deaf-{uuid.uuid4().hex[:8]}"
    ply = moves(shared_data, 4)
    subprocess.run([MAKER, "--out-dir", tmp_path, "--tournament", f"{slug}:1-2"], check=True, capture_output=True)
    users = {u["username"]: u["password"] for group in json.loads((tmp_path / "credentials.json").read_text()).values()
             for u in group}
    port = free_port()
    conf = tmp_path / "plain.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {tmp_path / 'passwd'}\n"
                    f"acl_file {tmp_path / 'acl'}\npersistence false\nuser {getpass.getuser()}\n")
    broker = subprocess.Popen([mosquitto_binary(), "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        login = f"gateway-{slug}"
        url = f"mqtt://{login}:{users[login]}@127.0.0.1:{port}"
        log = MemoryLog(slug)
        await log.append("round_started", round_data())
        gw, task, board, device = await restarted_after_a_refused_connect(
            log, port, users, slug, url, ply, f"venue-gateway-{slug}")
        try:
            board.send(2, ply[1])
            await log_until(log, lambda es: played(es) == ply[:2])
            assert not [e for e in await log.read() if e.type == GatewayDeaf.TYPE]

            published = gw.probe.published
            broker.send_signal(signal.SIGSTOP)
            try:
                board.send(3, ply[2])
                # the freeze itself (what is under test): 3 s, past the probe's timeout (1 s) and under
                # the keep alive's 7.5 s, so the link stays up with nothing heard
                await asyncio.sleep(3)
            finally:
                broker.send_signal(signal.SIGCONT)
            assert gw.probe.published > published + TIMEOUT_S / EVERY_S  # probes went out unanswered
            board.send(4, ply[3])
            entries = await log_until(log, lambda es: played(es) == ply)  # ply 3 from the kept session
            assert not [e for e in entries if e.type == GatewayDeaf.TYPE] and not task.done()
        finally:
            await stop(task)
        body = await health(log, entries[-1].seq)
        assert body["ok"] and body["deaf_gateways"] == []
        device.close()
    finally:
        broker.send_signal(signal.SIGCONT)
        broker.terminate()
        broker.wait(10)
