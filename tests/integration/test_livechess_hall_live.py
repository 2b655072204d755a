"""Two LiveChess-shaped sources and 20 boards through Mosquitto (127.0.0.1:1883) to the hall page.

A hall with two LiveChess computers, ten DGT boards on each (tests/livechess_fake.py), one bridge per
LiveChess instance (docs/boards.md), the real Mosquitto, the gateway and the dashboard in-process.
The 20 games are the first 20 of FIDE Candidates 2024 (open) in file order (rounds 1 to 5,
../shared/data/chess/fide_candidates_2024_open.pgn), replayed as e-board events with their %clk
figures and, for the decided ones, the arbiter's result signal (F07). At the end the spectators'
hall page data (``/api/games``, what ``/`` renders) holds each game's moves and result exactly as
the PGN, and the arbiters' hall grid shows all 20 boards online with their plies.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import uuid

import chess.pgn
import httpx
import pytest
from live_helpers import log_until, running
from livechess_fake import FakeLiveChess, game_events

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from devices.livechess.bridge import LiveChessBridge
from devices.script import scripts_from_pgn
from gateway import Gateway
from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn
from venue.serve import serving

pytestmark = pytest.mark.live
MOSQUITTO = "mqtt://127.0.0.1:1883"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
PACE = 20  # e-board changes a second on each board
ENV = {"VENUE_ARBITERS": "chief:Laws-of-Chess-6.7", "VENUE_SECRET": "test-secret-livechess-hall"}


def twenty_games(path) -> str:
    """The file's first 20 games as one round on boards 1-20 (tags only: moves and clocks as in the source)."""
    stream, games = io.StringIO(path.read_text(encoding="utf-8")), []
    while len(games) < 20 and (g := chess.pgn.read_game(stream)) is not None:
        g.headers["Round"], g.headers["Board"] = "1", str(len(games) + 1)
        games.append(str(g))
    return "\n\n".join(games) + "\n"


@contextlib.asynccontextmanager
async def bridged(*bridges):
    tasks = [asyncio.create_task(b.run()) for b in bridges]
    try:
        yield
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_two_livechess_sources_20_boards_through_mosquitto_to_the_hall_page(tmp_path, shared_data):
    text = twenty_games(shared_data / "chess" / "fide_candidates_2024_open.pgn")
    scripts = scripts_from_pgn(text)
    assert len(scripts) == 20
    t = f"lc-hall-{uuid.uuid4().hex[:8]}"
    log = open_log(f"sqlite:///{tmp_path / 'log.sqlite'}", t)
    setup = round_from_pgn(text)
    await log.append("round_started", setup)
    serial = {s.board: f"{'A' if int(s.board) <= 10 else 'B'}{int(s.board):04d}" for s in scripts}
    app = create_app(log, accounts=Accounts.load(None, ENV))
    async with FakeLiveChess() as lc_a, FakeLiveChess() as lc_b, serving(app) as url:
        source = {s.board: lc_a if int(s.board) <= 10 else lc_b for s in scripts}
        for s in scripts:
            source[s.board].add_board(serial[s.board], START)
        bridges = [LiveChessBridge(lc.url, MOSQUITTO, t, {serial[b]: b for b in serial if source[b] is lc},
                                   tmp_path / f"state-{name}.json", round="1", poll_s=0.5)
                   for name, lc in (("a", lc_a), ("b", lc_b))]
        async with running(Gateway(log, MOSQUITTO, t, client_id=f"gw-{t}")), bridged(*bridges):
            await log_until(log, lambda es: sum(e.type == "board_oriented" for e in es) == 20, 20)

            async def play(s):
                # 20 changes a second a board (400 messages a second in the hall): far beyond real
                # play (a move every few seconds), within what the gateway and the broker take in
                for change in game_events(s):
                    await source[s.board].change(serial[s.board], change)
                    await asyncio.sleep(1 / PACE)

            await asyncio.gather(*(play(s) for s in scripts))
            entries = await log_until(log, lambda es: sum(e.type == "game_ended" for e in es) >= 20, 120)
            async with httpx.AsyncClient(base_url=url) as http:
                async def games_shown():
                    for _ in range(100):
                        data = (await http.get("/api/games")).json()
                        if sum(g["status"] == "ended" for g in data["games"]) == 20:
                            return data
                        await asyncio.sleep(0.1)
                    raise AssertionError("the hall page's games did not all end")

                shown = {g["board"]: g for g in (await games_shown())["games"]}
                assert (await http.get("/")).status_code == 200
                token = (await http.post("/api/arbiter/login", json={"login": "chief", "password": "Laws-of-Chess-6.7"})).json()["token"]
                grid = (await http.get("/api/arbiter/alerts", headers={"Authorization": f"Bearer {token}"})).json()["hall"]
    for s in scripts:
        g = shown[s.board]
        assert g["moves"] == [p.uci for p in s.plies], s.board
        assert g["result"] == s.result, s.board
    rows = {r["board"]: r for r in grid}
    assert sorted(rows, key=int) == [str(b) for b in range(1, 21)]
    assert all(rows[s.board]["device"] == "online" and rows[s.board]["ply"] == len(s.plies) for s in scripts)
    assert {r["battery"] for r in grid} == {"87%"}  # LiveChess's battery text, through the status
    types = [e.type for e in entries]
    assert types.count("move_rejected") == 0 and types.count("seq_gap") == 0
    assert types.count("move_played") == sum(len(s.plies) for s in scripts)
    await log.close()
