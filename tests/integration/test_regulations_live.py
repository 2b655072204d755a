"""Each preset's regulations enforced live over MQTT (issue: the event's regulations).

Boards publish real moves (FIDE Candidates 2024, round 1, Abasov - Nepomniachtchi: 67 plies ending
in a threefold repetition, ../shared/data/chess) and results on the device protocol; the gateway runs
with the preset's tournament file; the log must then hold what the regulations demand. Arbiters'
decisions are appended as the console's API appends them (dashboard.arbiter.actions). The round's
scheduled start is moved to just before the test so the default time can be exercised; the arbiter
checks in the players of board 1 at the start (FIDE Laws 6.7.1 counts from the scheduled start).
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import time
import uuid
from pathlib import Path

import aiomqtt
import chess.pgn
import pytest
from live_helpers import wait_for

from dashboard.arbiter.actions import build
from gateway import Gateway, embedded_broker
from services.protocol.mqtt_url import parse_mqtt_url
from services.eventlog import open_log
from services.eventlog.redis import tournament_keys
from services.regulations.tournament_file import load_tournament
from services.state import HallState
from services.views.spectator import SpectatorView
from venue.tournament import register, start_round

pytestmark = pytest.mark.live
EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000


def game_moves(shared_data, index: int = 2) -> list[str]:
    """UCI moves of the index-th game (1-based) of the Candidates 2024 open file."""
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text())
    for _ in range(index):
        game = chess.pgn.read_game(stream)
    return [m.uci() for m in game.mainline_moves()]


def preset(name: str, start_ms: int, slug: str):
    t = load_tournament((EVENTS / name).read_text(), name)
    r1 = dataclasses.replace(t.rounds[0], start_ms=start_ms)
    return dataclasses.replace(t, slug=slug, rounds=(r1, *t.rounds[1:]))


class Board:
    """One hall board's device: publishes with its own seq."""

    def __init__(self, client, slug: str, board: str):
        self.client, self.slug, self.board, self.seq = client, slug, board, 0

    async def send(self, kind: str, **body):
        self.seq += 1
        await self.client.publish(f"venue/{self.slug}/boards/{self.board}/{kind}",
                                  json.dumps({"seq": self.seq, **body}), qos=1)

    async def moves(self, ucis):
        for uci in ucis:
            await self.send("move", move=uci)


async def arbiter(log, action: str, body: dict):
    """What POST /api/arbiter/actions appends for the arbiter "chief": the action judged on the state
    folded from the log (``dashboard.arbiter.routes.actions``)."""
    state = HallState()
    for e in await log.read():
        state.apply(e)
    items = build(action, body, "chief", SpectatorView(state).every_game(), state, now_ms=int(time.time() * 1000))
    return await log.append_many([(t, d, None) for t, d in items])


async def run_scenario(broker_url: str, store: str, preset_name: str, scenario, silent_minutes: int,
                       ballots: list[dict] | None = None):
    slug = f"reg-{uuid.uuid4().hex[:8]}"
    now = int(time.time() * 1000)
    start = now - silent_minutes * MIN
    t = preset(preset_name, start, slug)
    log = open_log(store, slug)
    await register(log, t)
    rs = await start_round(log, (await register(log, t)), 1, ballots=ballots)
    # The arbiter checks in both players of board 1 at the start (Laws 6.7.1: present in time).
    g1 = rs["games"][0]["id"]
    for side in ("white", "black"):
        await log.append("player_arrived", {"game": g1, "board": "1", "side": side, "arrived_at": start,
                                            "by": "chief"})
    gw = Gateway(log, broker_url, slug, tournament=t, client_id=f"gw-{slug}")
    task = asyncio.create_task(gw.run())
    try:
        await asyncio.wait_for(gw.ready.wait(), 10)
        target = parse_mqtt_url(broker_url)
        async with aiomqtt.Client(target.host, target.port, identifier=f"dev-{slug}") as client:
            await scenario(log, Board(client, slug, "1"), g1, rs)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        if store.startswith("redis"):
            import redis.asyncio as r

            conn = r.from_url(store)
            await conn.delete(*tournament_keys(slug))
            await conn.aclose()
        await log.close()


def of(entries, type_):
    return [e for e in entries if e.type == type_]


@pytest.fixture
async def broker():
    async with embedded_broker() as url:
        yield url


async def us2023(log, board, g1, rs, moves):
    # Rule 2: "Player may not mutually agree to a draw." A board reports 1/2-1/2 at move 25.
    await board.moves(moves[:50])
    await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == 50)
    await board.send("result", result="1/2-1/2", reason="agreement")
    [refused] = await wait_for(log, lambda e: e.type == "draw_offer_refused")
    assert refused.data["game"] == g1 and "not allowed" in refused.data["rule"]
    # The game goes on; the repetition raises a claim (FIDE Laws 9.2), never an automatic end.
    await board.moves(moves[50:])
    claim = await wait_for(log, lambda e: e.type == "draw_claimable" and any(
        c["kind"] == "threefold" and c["by_move"] is None for c in e.data["claims"]))
    [c] = [c for c in claim[-1].data["claims"] if c["kind"] == "threefold" and c["by_move"] is None]
    assert len(c["evidence"]["plies"]) >= 3  # the plies where the position stood (9.2.2)
    assert not [e for e in of(await log.read(), "game_ended") if e.data["game"] == g1]
    # The arbiter verifies and accepts the claim: the game ends 1/2-1/2.
    await arbiter(log, "accept_claim", {"game": g1, "kind": "threefold", "alert": claim[-1].seq})
    ended = [e for e in of(await log.read(), "game_ended") if e.data["game"] == g1]
    assert [(e.data["result"], e.data["termination"], e.data["by"]) for e in ended] == [
        ("1/2-1/2", "threefold_repetition", "arbiter")]
    # Rule 1: White silent 31 minutes after the start of board 2: a default loss, alerted.
    g2 = rs["games"][1]["id"]
    [d] = await wait_for(log, lambda e: e.type == "default_forfeit" and e.data["game"] == g2)
    assert d.data["side"] in ("white", "both")
    fines = await wait_for(log, lambda e: e.type == "player_not_at_board" and e.data["game"] == g2)
    assert fines[0].data["fine"] == 500


@pytest.mark.parametrize("name", ["us-championship-2023.toml", "us-womens-championship-2023.toml"])
async def test_us_2023_presets(broker, shared_data, name):
    moves = game_moves(shared_data)
    await run_scenario(broker, "memory://", name, lambda *a: us2023(*a, moves), silent_minutes=31)


async def test_us_2023_over_mosquitto_and_redis(shared_data):
    moves = game_moves(shared_data)
    await run_scenario("mqtt://127.0.0.1:1883", "redis://127.0.0.1:6379/0", "us-championship-2023.toml",
                       lambda *a: us2023(*a, moves), silent_minutes=31)


@pytest.mark.parametrize("name", ["us-championship-2013.toml", "us-womens-championship-2013.toml"])
async def test_us_2013_presets(broker, shared_data, name):
    moves = game_moves(shared_data)

    async def scenario(log, board, g1, rs):
        # Rule 2: no draw "in less than 30 moves": refused at move 20, agreed after move 33.
        await board.moves(moves[:40])
        await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == 40)
        await board.send("result", result="1/2-1/2", reason="agreement")
        await wait_for(log, lambda e: e.type == "draw_offer_refused")
        await board.moves(moves[40:])
        await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == 67)
        await board.send("result", result="1/2-1/2", reason="agreement")
        [end] = await wait_for(log, lambda e: e.type == "game_ended" and e.data["game"] == g1)
        assert (end.data["result"], end.data["termination"]) == ("1/2-1/2", "agreement")
        # Rule 1: "more than 30 (thirty) minutes late ... shall forfeit that round."
        await wait_for(log, lambda e: e.type == "default_forfeit" and e.data["game"] == rs["games"][1]["id"])

    await run_scenario(broker, "memory://", name, scenario, silent_minutes=31)


async def test_norway_classical_preset(broker, shared_data):
    moves = game_moves(shared_data)

    async def scenario(log, board, g1, rs):
        # "not allowed to agree to a draw until at least 30 moves have been made by each player"
        await board.moves(moves[:50])
        await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == 50)
        await board.send("result", result="1/2-1/2", reason="agreement")
        await wait_for(log, lambda e: e.type == "draw_offer_refused")
        await board.moves(moves[50:])
        await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == 67)
        await board.send("result", result="1/2-1/2", reason="agreement")
        # "If the classical game is drawn, an Armageddon game will be played ... same colours"
        [arm] = await wait_for(log, lambda e: e.type == "armageddon_scheduled")
        assert arm.data["follows"] == g1 and arm.data["white"] == rs["games"][0]["white"]
        # Draw agreements are allowed in Armageddon; "If the Armageddon game is drawn, black will win."
        await board.moves(moves[:6])
        await wait_for(log, lambda e: e.type == "move_played" and e.data["game"] == arm.data["id"]
                       and e.data["ply"] == 6)
        await board.send("result", result="1/2-1/2", reason="agreement")
        [won] = await wait_for(log, lambda e: e.type == "armageddon_decided")
        assert won.data["winner"] == "black" and won.data["game"] == arm.data["id"]
        # "Default time is 15 minutes."
        await wait_for(log, lambda e: e.type == "default_forfeit" and e.data["game"] == rs["games"][1]["id"])

    await run_scenario(broker, "memory://", "norway-chess-2023.toml", scenario, silent_minutes=16)


async def test_norway_blitz_preset(broker, shared_data):
    moves = game_moves(shared_data)

    async def scenario(log, board, g1, rs):
        # "This rule does not apply to Blitz and Armageddon games": a draw at move 5 stands.
        await board.moves(moves[:10])
        await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == 10)
        await board.send("result", result="1/2-1/2", reason="agreement")
        [end] = await wait_for(log, lambda e: e.type == "game_ended" and e.data["game"] == g1)
        assert end.data["result"] == "1/2-1/2"
        assert not of(await log.read(), "draw_offer_refused")
        # Blitz: "Default time is 3 minutes."
        await wait_for(log, lambda e: e.type == "default_forfeit" and e.data["game"] == rs["games"][1]["id"])

    await run_scenario(broker, "memory://", "norway-chess-2023-blitz.toml", scenario, silent_minutes=4)


async def test_checkers_preset(broker):
    # The German Open 2004 opening 11-15 22-17 15-19 is ACF ballot 119
    # (../shared/data/checkers/acf_3move_ballots.csv): board 1's match is given that ballot, as the
    # gateway refuses a move off the ballot (X.A.d, tests/unit/test_ballot_check.py).
    from services.rules.checkers_ballots import load_deck

    ballot = next(b for b in load_deck() if b.number == 119)
    assert ballot.moves == ("11-15", "22-17", "15-19")

    async def scenario(log, board, g1, rs):
        assert rs["games"][0]["ballot"]["moves"] == list(ballot.moves)
        # Black (Red) moves first; numeric notation; the German Open 2004 opening 11-15 22-17 15-19.
        await board.moves(["11-15", "22-17", "15-19"])
        await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == 3)
        await board.send("move", move="99-100")
        [bad] = await wait_for(log, lambda e: e.type == "move_rejected")
        assert "99-100" in bad.data["reason"]
        # Draws by agreement are not restricted in this event, and no default time applies to it.
        await board.send("result", result="1/2-1/2", reason="agreement")
        await wait_for(log, lambda e: e.type == "game_ended" and e.data["game"] == g1)
        await asyncio.sleep(0.5)
        assert not of(await log.read(), "default_forfeit")

    await run_scenario(broker, "memory://", "checkers-11-man-national-2017.toml", scenario, silent_minutes=31,
                       ballots=[ballot.to_json()] * 5)
