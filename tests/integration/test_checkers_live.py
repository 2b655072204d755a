"""American checkers in the hall, live: simulated boards and clocks -> MQTT -> gateway -> event log ->
dashboard API, on the embedded broker with SQLite and on Mosquitto 127.0.0.1:1883 with Redis
127.0.0.1:6379 (a missing service fails these tests: they never skip).

Source games: venue/data/tinsley_chinook_1992.pdn (six games of Tinsley v Chinook, London 1992:
records 684, 689, 698, 700, 701 and 714 of ../shared/data/checkers/tinsley.pdn, unchanged). Every
game's moves (as the rules core replays the record: full routes) and result (PDN's Black-first
score converted to the venue's White-first code: docs/checkers.md) must come out of /api/games.
The illegal move is field case F05 as docs/protocol.md applies it to checkers; the ambiguous short
capture is docs/checkers.md's (PDN 3.0: "disambiguated capture sequences have to specify a
complete sequence of intermediate squares"): with White men on 6, 7, 14, 15 and a Black man on 2,
2x18 may be 2x9x18 or 2x11x18.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from importlib import resources

import aiomqtt
import httpx
import pytest
from live_helpers import backends, running, slug

from devices.checkers_script import scripts_from_pdn
from devices.simulate import play_scripts
from gateway import Gateway, embedded_broker
from services.protocol.mqtt_url import parse_mqtt_url
from services.arbiter_office.setup import round_from_pgn
from services.rules.checkers_pdn import read_pdn, replay
from venue.serve import dashboard_at

pytestmark = pytest.mark.live

FAST = 1e6  # a 90-minute game in a fraction of a second of thinking time
SOURCE = resources.files("venue").joinpath("data", "tinsley_chinook_1992.pdn").read_text("utf-8")
FAULTY_BOARD = "6"
FAULTS = frozenset({"illegal", "duplicate", "out_of_order", "malformed", "disconnect"})


async def api_games_when_over(base: str, count: int, timeout: float = 120.0) -> list[dict]:
    seen = None
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            games = (await http.get("/api/games")).json()["games"]
            seen = [(g["id"], g["ply"], g["status"]) for g in games]
            if len(games) == count and all(g["status"] == "ended" for g in games):
                return games
            await asyncio.sleep(0.25)
    raise AssertionError(f"the round did not finish: {seen}")


@pytest.mark.parametrize("kind", ["embedded", "mosquitto"])
async def test_a_round_of_real_games_reaches_the_dashboard_intact(kind, tmp_path):
    records = read_pdn(SOURCE)
    setup = round_from_pgn(SOURCE, variant="checkers")
    scripts = scripts_from_pdn(SOURCE)
    clean = [s for s in scripts if s.board != FAULTY_BOARD]
    faulty = [s for s in scripts if s.board == FAULTY_BOARD]
    async with backends(kind, tmp_path) as (t, url, log):
        await log.append("round_started", setup)
        async with running(Gateway(log, url, t, client_id=f"gw-{t}")):
            async with dashboard_at(log, "127.0.0.1", 0) as (base, _):
                _, stations = await asyncio.gather(
                    play_scripts(url, t, clean, speed=FAST),
                    play_scripts(url, t, faulty, speed=FAST, faults=FAULTS, outage_s=0.5))
                games = await api_games_when_over(base, len(records))
        entries = await log.read()

    for game, record in zip(games, records):
        source = replay(record)
        assert game["variant"] == "checkers" and game["first_side"] == "black"
        assert (game["black"], game["white"]) == (record.tags["Black"], record.tags["White"])
        assert game["moves"] == source.moves
        assert game["result"] == record.venue_result == source.outcome.result
        assert game["termination"] == "recorded"
        assert all(ms is not None and ms > 0 for ms in game["clocks"])
    # London 1992 game 8 (board 1): Chinook, Black, won: PDN "1-0", the venue's "0-1"
    assert (games[0]["result"], records[0].result) == ("0-1", "1-0")
    assert "3x10x19" in games[0]["moves"]

    # F05 on board 6: the illegal move refused on feedback and recorded; the game went on intact
    (station,) = stations
    refused = [f for f in station.feedback if f.get("accepted") is False
               and str(f.get("reason", "")).startswith("illegal move")]
    assert len(refused) == 1
    rejected = [e.data for e in entries if e.type == "move_rejected" and e.data["board"] == FAULTY_BOARD]
    assert len(rejected) == 1 and rejected[0]["held"] is True
    assert rejected[0]["reason"] == refused[0]["reason"]
    kinds = {e.type for e in entries if e.data.get("board") == FAULTY_BOARD}
    assert {"message_duplicate", "message_rejected", "device_offline", "device_online"} <= kinds


async def send_move(url: str, t: str, board: str, seq: int, move: str) -> dict:
    """Publish one move on board ``board`` as a device would; the gateway's answer to it."""
    target = parse_mqtt_url(url)
    async with aiomqtt.Client(target.host, target.port, identifier=f"probe-{t}-{seq}") as client:
        await client.subscribe(f"venue/{t}/boards/{board}/feedback", qos=1)
        await client.publish(f"venue/{t}/boards/{board}/move",
                             json.dumps({"seq": seq, "move": move}), qos=1)
        async with asyncio.timeout(10):
            async for message in client.messages:
                answer = json.loads(message.payload)
                if answer.get("ref") == seq:
                    return answer
    raise AssertionError("no feedback")


@pytest.mark.parametrize("kind", ["embedded", "mosquitto"])
async def test_an_ambiguous_short_capture_asks_for_the_full_route(kind, tmp_path):
    fen = "B:W6,7,14,15:B2"
    setup = {"round": "1", "event": "checkers notation", "site": "", "date": "????.??.??",
             "games": [{"id": "1-1", "board": "1", "round": "1", "white": "W", "black": "B",
                        "white_elo": None, "black_elo": None, "variant": "checkers",
                        "time_control": None, "fen": fen, "kind": "classical"}]}
    async with backends(kind, tmp_path) as (t, url, log):
        await log.append("round_started", setup)
        async with running(Gateway(log, url, t, client_id=f"gw-{t}")):
            short = await send_move(url, t, "1", 1, "2x18")
            full = await send_move(url, t, "1", 2, "2x11x18")
            await asyncio.sleep(0.3)
        entries = await log.read()
    assert short["accepted"] is False
    assert "full route" in short["reason"]
    assert "2x9x18" in short["reason"] and "2x11x18" in short["reason"]
    assert full["accepted"] is True and full["reason"] is None
    (rejected,) = [e.data for e in entries if e.type == "move_rejected"]
    assert rejected["move"] == "2x18" and rejected["reason"] == short["reason"]
    (played,) = [e.data for e in entries if e.type == "move_played"]
    assert played["move"] == "2x11x18" and played["resumed"] is True


async def test_venue_simulate_plays_a_pdn_file(tmp_path):
    """``venue simulate --pgn FILE.pdn``: the variant is told from the file; London 1992 game 8
    (the first shipped record) goes out as numeric moves with full routes, the clock starts for
    Black (X.A.d) with 90 minutes each (X.A.a), and the result is the venue's code (PDN "1-0",
    Chinook as Black won: "0-1")."""
    from venue.cli import main as venue_main

    path = tmp_path / "game8.pdn"
    path.write_text(SOURCE.split("\n\n")[0] + "\n")
    t = slug("cli")
    seen: list[tuple[str, dict | str]] = []
    async with embedded_broker() as url:
        target = parse_mqtt_url(url)
        async with aiomqtt.Client(target.host, target.port, identifier=f"listen-{t}") as client:
            await client.subscribe(f"venue/{t}/boards/#", qos=1)
            code = await asyncio.to_thread(venue_main, ["simulate", "--mqtt", url, "--tournament", t,
                                                        "--pgn", str(path), "--speed", "100000",
                                                        "--confirm-wait", "0"])  # no gateway answers here
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.0):
                    async for message in client.messages:
                        text = message.payload.decode()
                        kind = str(message.topic).rsplit("/", 1)[-1]
                        seen.append((kind, text if kind == "status" else json.loads(text)))
    assert code == 0
    moves = [body["move"] for kind, body in seen if kind == "move"]
    assert moves == replay(read_pdn(SOURCE)[0]).moves and "3x10x19" in moves
    clock = [body for kind, body in seen if kind == "clock"]
    assert clock[0] == {"seq": 1, "game": 1, "event": "start", "white_ms": 5_400_000, "black_ms": 5_400_000,
                        "running": "black"}  # game: the game's number on the board (docs/protocol.md)
    (result,) = [body for kind, body in seen if kind == "result"]
    assert (result["result"], result["reason"]) == ("0-1", "recorded")
