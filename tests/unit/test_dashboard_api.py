"""The dashboard's HTTP API and pages over a MemoryLog holding real games' entries.

Source of expected values: round 5 of the FIDE Candidates 2024 (open),
../shared/data/chess/fide_candidates_2024_open.pgn (moves, [%clk], results, tags); the PGN standard
(8.1.1 Seven Tag Roster, TimeControl, Termination); docs/events.md for the entries.
"""

from __future__ import annotations

import asyncio
import io

import chess
import chess.pgn
import pytest
from dashboard_helpers import caught_up, client_for

from services.eventlog.memory import MemoryLog
from replay_entries import game_entries, round_started

T0 = 1_712_678_400_000
SEVEN = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def filled_log(round5, upto: int | None = None) -> MemoryLog:
    """Boards 1-4 played out, board 3 (Gukesh-Abasov) only to ``upto`` entries when given."""
    log = MemoryLog("candidates-2024")
    items = [round_started(round5, "5", T0)]
    for i, g in enumerate(round5, start=1):
        entries = game_entries(g, f"5-{i}", str(i), T0 + 1000)
        items += entries[:upto] if (i == 3 and upto) else entries
    asyncio.run(log.append_many(items))
    return log


@pytest.fixture(scope="module")
def client(round5):
    log = filled_log(round5, upto=41)  # board 3 still playing: clock_started + 20 plies
    with client_for(log) as c:
        caught_up(c, asyncio.run(log.last_seq()))
        yield c


def test_health(client):
    body = client.get("/api/health").json()
    assert body["ok"] is True and body["tournament"] == "candidates-2024"
    assert body["caught_up"] is True and body["error"] is None


def test_games_lists_the_round(client, round5):
    body = client.get("/api/games").json()
    assert body["round"] == {"round": "5", "event": "Candidates", "site": "?", "date": "2024.04.09"}
    games = body["games"]
    assert [g["id"] for g in games] == ["5-1", "5-2", "5-3", "5-4"]
    keys = {"id", "board", "round", "white", "black", "fen", "ply", "moves", "san", "clock", "clocks",
            "status", "result", "termination", "claimable", "last_move", "variant", "time_control"}
    for g in games:
        assert keys <= set(g)
    assert [g["result"] for g in games] == ["1/2-1/2", "0-1", "*", "1/2-1/2"]
    live = games[2]
    assert live["status"] == "playing" and live["ply"] == 20
    assert live["moves"] == [n.move.uci() for n in list(round5[2].mainline())[:20]]
    assert live["last_move"] == live["moves"][-1]
    assert set(live["clock"]) == {"white_ms", "black_ms", "running", "at"}
    assert live["clock"]["running"] == "white"


def test_one_game_and_404(client):
    g = client.get("/api/games/5-2").json()
    assert g["white"] == "Firouzja, Alireza" and g["result"] == "0-1" and g["status"] == "ended"
    r = client.get("/api/games/9-9")
    assert r.status_code == 404 and "9-9" in r.json()["error"]
    assert client.get("/api/games/9-9.pgn").status_code == 404


@pytest.mark.parametrize("board", [1, 2, 4])
def test_game_pgn_equals_the_source(client, round5, board):
    r = client.get(f"/api/games/5-{board}.pgn")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-chess-pgn")
    got = chess.pgn.read_game(io.StringIO(r.text))
    src = round5[board - 1]
    assert list(got.headers)[:7] == SEVEN
    for tag in ("Event", "Date", "White", "Black", "Result", "WhiteElo", "BlackElo"):
        assert got.headers[tag] == src.headers[tag]
    # Round "R.B" (round 5, this board), as lichess's relay reads it (docs/broadcast.md)
    assert got.headers["Round"] == f"5.{board}" and got.headers["Termination"] == "normal"
    assert "TimeControl" in got.headers
    assert [n.move for n in got.mainline()] == [n.move for n in src.mainline()]
    assert [n.clock() for n in got.mainline()] == [n.clock() for n in src.mainline()]


def test_round_pgn_has_every_game(client, round5):
    text = client.get("/api/round.pgn").text
    f = io.StringIO(text)
    got = [chess.pgn.read_game(f) for _ in range(4)]
    assert [g.headers["White"] for g in got] == [g.headers["White"] for g in round5]
    unfinished = got[2]
    assert unfinished.headers["Result"] == "*" and unfinished.headers["Termination"] == "unterminated"
    assert len(list(unfinished.mainline())) == 20


def test_board_svg_is_drawn_by_python_chess(client, round5):
    r = client.get("/board/5-2.svg?ply=0")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    start = r.text
    assert start.startswith("<svg") and "lastmove" not in start
    r = client.get("/board/5-2.svg?ply=1")
    assert "lastmove" in r.text  # chess.svg marks the squares of the last move
    assert client.get("/board/5-2.svg?ply=999").status_code == 400
    assert client.get("/board/nope.svg").status_code == 404


def test_pages(client):
    hall = client.get("/")
    assert hall.status_code == 200 and "Candidates" in hall.text and "/static/hall.js" in hall.text
    page = client.get("/game/5-3")
    assert page.status_code == 200 and "Gukesh D - Abasov, Nijat" in page.text
    assert client.get("/game/x-1").status_code == 404
    for asset in ("style.css", "live.js", "hall.js", "game.js"):
        assert client.get(f"/static/{asset}").status_code == 200
