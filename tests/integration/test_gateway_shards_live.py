"""A hall split across two gateway shards (``venue gateway --boards``) on one Redis log, one shard
restarted mid-round (issue 15 "A gateway with headroom").

Two ``venue gateway`` processes of this checkout (boards 1-2 and 3-4) run against the real Mosquitto
127.0.0.1:1883 and Redis 127.0.0.1:6379 (a fresh slug, its keys deleted after). Four boards publish
the moves of four real games at QoS 1, one MQTT connection each. Mid-round one shard is killed
(SIGKILL, right after a burst of moves: some are in flight) or stopped (SIGTERM, likewise) while
the boards go on playing, then started again with the same command line. Then:

- the log holds each ply of each game exactly once (``move_played``), in order, the moves of the
  real games; nothing the devices sent is lost (the broker kept the shard's session and its QoS 1
  messages: docs/protocol.md "Transport"; a message stored before the kill but not acknowledged
  comes again and is recorded as ``message_duplicate``);
- a gateway rebuilt from the log (what the restarted shard does) has the same games, the same
  devices' seqs and no fold error as the state before the restart plus what was played since;
- the next move of every board is played (no ``seq_gap``, no ``message_held``).

Then the same hall on the shipped Mosquitto configuration (login = client id, per-login ACL), each
shard with its own login from deploy/make-mosquitto-passwords.py ``--gateway-shards``: both shards
stay up, a move on each shard's board is appended once and answered (feedback per docs/protocol.md).

Games: the first four of ../shared/data/chess/fide_candidates_2024_open.pgn (round 1).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import threading
import uuid
from collections import Counter
from pathlib import Path

import aiomqtt
import chess.pgn
import pytest
from eventually import eventually_async
from hall_driver import round_started
from live_helpers import log_until
from mosquitto_site import shipped_broker

from gateway.hall import Hall
from services.eventlog import open_log
from services.eventlog.redis import tournament_keys
from services.eventlog.writers import writers_key

pytestmark = pytest.mark.live

VENUE = str(Path(sys.executable).with_name("venue"))
MQTT = "mqtt://127.0.0.1:1883"
REDIS = "redis://127.0.0.1:6379/0"
READY = "Ctrl-C to stop."
BOARDS = ("1", "2", "3", "4")
SHARDS = {"1-2": ("1", "2"), "3-4": ("3", "4")}


def real_games(shared_data: Path) -> dict[str, list[str]]:
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8-sig"))
    return {b: [m.uci() for m in chess.pgn.read_game(stream).mainline_moves()] for b in BOARDS}


class Shard:
    """One ``venue gateway --boards SPEC`` process; its output collected as it comes."""

    def __init__(self, slug: str, spec: str, mqtt: str = MQTT):
        self.argv = [VENUE, "gateway", "--mqtt", mqtt, "--store", REDIS, "--tournament", slug, "--boards", spec]
        self.proc: subprocess.Popen | None = None
        self.lines: list[str] = []

    async def start(self, timeout: float = 30.0) -> None:
        self.lines = []
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=lambda: [self.lines.append(x.rstrip()) for x in self.proc.stdout], daemon=True).start()

        def said() -> bool:
            if self.proc.poll() is not None:
                pytest.fail(f"the shard exited {self.proc.returncode}: {self.lines}")
            assert any(READY in x for x in self.lines), f"the shard is not ready: {self.lines}"
            return True

        await eventually_async(said, timeout, poll=0.05)

    async def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(sig)
        try:
            await eventually_async(lambda: self.proc.poll() is not None, 15)
        except AssertionError:
            self.proc.kill()
            raise AssertionError(f"the shard did not stop within 15 s: {self.lines}") from None


class Boards:
    """Four boards, each its own MQTT connection and seq, publishing the real games' moves."""

    def __init__(self, slug: str, games: dict[str, list[str]]):
        self.slug, self.games = slug, games
        self.played = dict.fromkeys(BOARDS, 0)
        self.clients: dict[str, aiomqtt.Client] = {}

    async def __aenter__(self):
        for b in BOARDS:
            client = aiomqtt.Client("127.0.0.1", 1883, identifier=f"{self.slug}-board-{b}", clean_session=True)
            await client.__aenter__()
            self.clients[b] = client
        return self

    async def __aexit__(self, *exc):
        for client in self.clients.values():
            await client.__aexit__(None, None, None)

    async def play(self, plies: int) -> None:
        """Each board plays its next ``plies`` moves, the boards in turn."""
        for _ in range(plies):
            for b in BOARDS:
                self.played[b] += 1
                n = self.played[b]
                await self.clients[b].publish(f"venue/{self.slug}/boards/{b}/move", qos=1,
                                              payload=json.dumps({"seq": n, "move": self.games[b][n - 1]}))


async def forget(slug: str, *specs: str) -> None:
    """Delete the tournament's Redis keys and the shards' kept MQTT sessions (clean_session)."""
    import redis.asyncio as aioredis

    conn = aioredis.from_url(REDIS)
    await conn.delete(*tournament_keys(slug))
    await conn.aclose()
    for spec in specs:
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"venue-gateway-{slug}-boards-{spec}",
                                  clean_session=True):
            pass


def moves_by_game(entries) -> dict[str, list[tuple[int, str]]]:
    out: dict[str, list] = {}
    for e in entries:
        if e.type == "move_played":
            out.setdefault(e.data["game"], []).append((e.data["ply"], e.data["move"]))
    return out


def everything_played(boards: Boards):
    def done(entries) -> bool:
        got = moves_by_game(entries)
        return all(len(got.get(f"1-{b}", [])) >= n for b, n in boards.played.items())
    return done


def rebuilt(entries) -> Hall:
    hall = Hall("shards")
    for e in entries:
        hall.fold(e.type, e.data, e.at, e.seq)
    return hall


def check(entries, boards: Boards) -> Hall:
    """Each ply once, in order, the real moves; no gap, no hold; a rebuild with no fold error."""
    got = moves_by_game(entries)
    for b in BOARDS:
        n = boards.played[b]
        assert got[f"1-{b}"] == [(i, boards.games[b][i - 1]) for i in range(1, n + 1)], f"board {b}"
    counts = Counter((e.data["game"], e.data["ply"]) for e in entries if e.type == "move_played")
    assert max(counts.values()) == 1
    assert not [e for e in entries if e.type in ("seq_gap", "message_held", "message_rejected")]
    hall = rebuilt(entries)
    assert hall.state.errors == []
    for b in BOARDS:
        assert hall.state.boards[b].devices["board"].last == boards.played[b]
    return hall


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
async def test_a_shard_restarted_mid_round_loses_and_repeats_nothing(shared_data, sig):
    slug = f"shards-{uuid.uuid4().hex[:8]}"
    log = open_log(REDIS, slug)
    shards = {spec: Shard(slug, spec) for spec in SHARDS}
    try:
        await log.append("round_started", round_started(*BOARDS))
        for shard in shards.values():
            await shard.start()
        async with Boards(slug, real_games(shared_data)) as boards:
            await boards.play(6)
            await log_until(log, everything_played(boards), 20)
            victim = shards["1-2"]
            await boards.play(2)  # in flight when the shard goes
            await victim.stop(sig)
            before = rebuilt(await log.read())
            await boards.play(4)  # the other shard goes on; the broker keeps these for the stopped one
            await log_until(log, lambda es: all(len(moves_by_game(es).get(f"1-{b}", [])) == boards.played[b]
                                                for b in SHARDS["3-4"]), 20)
            await victim.start()
            entries = await log_until(log, everything_played(boards), 20)
            after = check(entries, boards)
            for b in SHARDS["1-2"]:  # the state before, and the moves played since on top of it
                g_before, g_after = before.state.games[f"1-{b}"], after.state.games[f"1-{b}"]
                assert g_after.moves[:len(g_before.moves)] == g_before.moves
                assert g_after.moves == boards.games[b][:boards.played[b]]
            await boards.play(1)  # the next move, on every board
            entries = await log_until(log, everything_played(boards), 20)
            check(entries, boards)
    finally:
        for shard in shards.values():
            await shard.stop(signal.SIGTERM)
        await log.close()
        await forget(slug, "1-2", "3-4")


async def test_shards_with_their_own_logins_on_the_shipped_broker(shared_data, tmp_path):
    """Issue 15: on the shipped broker two shards sharing the tournament's one login took each
    other's session. With ``--gateway-shards`` each logs in as its own
    ``gateway-{t}-boards-{SPEC}`` (``--mqtt mqtt://LOGIN:PASSWORD@HOST:PORT``, deploy/README.md):
    both serve side by side, and a move on board 1 (shard 1-2) and on board 3 (shard 3-4), each
    sent with its board's own login, is appended once and accepted in its feedback."""
    slug = f"shard-logins-{uuid.uuid4().hex[:8]}"
    games = real_games(shared_data)
    log = open_log(REDIS, slug)
    maker_args = ["--tournament", f"{slug}:1-4"] + [a for spec in SHARDS for a in ("--gateway-shards", f"{slug}:{spec}")]
    with shipped_broker(tmp_path, *maker_args) as (port, users):
        shards = {spec: Shard(slug, spec, f"mqtt://gateway-{slug}-boards-{spec}:"
                              f"{users[f'gateway-{slug}-boards-{spec}']}@127.0.0.1:{port}") for spec in SHARDS}
        try:
            await log.append("round_started", round_started(*BOARDS))
            for shard in shards.values():
                await shard.start()
            devices = {b: aiomqtt.Client("127.0.0.1", port, username=f"board-{slug}-{b}",
                                         password=users[f"board-{slug}-{b}"], identifier=f"board-{slug}-{b}")
                       for b in ("1", "3")}
            async with devices["1"] as b1, devices["3"] as b3:
                for b, device in (("1", b1), ("3", b3)):
                    await device.subscribe(f"venue/{slug}/boards/{b}/feedback", qos=1)
                    await device.publish(f"venue/{slug}/boards/{b}/move", qos=1,
                                         payload=json.dumps({"seq": 1, "move": games[b][0]}))
                for b, device in (("1", b1), ("3", b3)):
                    async with asyncio.timeout(20):
                        feedback = json.loads((await anext(aiter(device.messages))).payload)
                    assert (feedback["ref"], feedback["device"], feedback["accepted"]) == (1, "board", True), b
            entries = await log_until(log, lambda es: all(moves_by_game(es).get(f"1-{b}") for b in ("1", "3")), 20)
            assert moves_by_game(entries) == {"1-1": [(1, games["1"][0])], "1-3": [(1, games["3"][0])]}
            for spec, shard in shards.items():  # a shard taken over is kicked off when the other connects
                assert shard.proc.poll() is None, f"shard {spec} exited: {shard.lines}"
                assert not [x for x in shard.lines if "MQTT link lost" in x or "taken over" in x], shard.lines
        finally:
            for shard in shards.values():
                await shard.stop(signal.SIGTERM)
            await log.close()
            import redis.asyncio as aioredis

            conn = aioredis.from_url(REDIS)
            await conn.delete(*tournament_keys(slug), writers_key(slug))
            await conn.aclose()


async def test_a_shard_for_boards_the_round_lacks_says_so():
    """A new user's run: ``--boards 9-10`` on a 4-board round started without a word. It still starts
    (the next round may have those boards) but warns, naming the round's boards."""
    slug = f"shards-{uuid.uuid4().hex[:8]}"
    log = open_log(REDIS, slug)
    shard = Shard(slug, "9-10")
    try:
        await log.append("round_started", round_started(*BOARDS))
        await shard.start()
        for _ in range(40):
            if any("warning" in x for x in shard.lines):
                break
            await asyncio.sleep(0.05)
        [warning] = [x for x in shard.lines if "warning" in x]
        assert "none of boards 9,10" in warning and "its boards: 1, 2, 3, 4" in warning
    finally:
        await shard.stop(signal.SIGTERM)
        await log.close()
        await forget(slug, "9-10")
