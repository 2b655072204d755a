"""The dashboard's routes for a checkers round: board pictures at any ply (drawn by pydraughts from
the game replayed by the rules core), the PDN downloads (TimeControl in PGN form, a PDN file name)
and clear 400s for a bad ``ply``.

Source: the German Open 2004 game Morgan-Pawlek (../shared/data/checkers/german_open_2004.pdn),
replayed by ``CheckersGame``, as game 1 of a Master division match of the 11-Man National 2017
preset, whose control is ``{ white = "90m", black = "90m", match_clock = true, alternative =
"4800+10" }`` (X.A.a: 90 minutes, or 80 minutes + 10 s).
"""

from __future__ import annotations

import asyncio

import pytest
from checkers_entries import items
from eventually import eventually
from starlette.testclient import TestClient

from dashboard.app import create_app
from dashboard.boards import checkers_svg
from services.eventlog.memory import MemoryLog
from services.rules.checkers_game import CheckersGame
from services.rules.checkers_pdn import read_pdn, replay


@pytest.fixture(scope="module")
def record(shared_data):
    (rec,) = read_pdn((shared_data / "checkers" / "german_open_2004.pdn").read_text())
    return rec


@pytest.fixture(scope="module")
def client(record):
    log = MemoryLog("checkers")
    asyncio.run(log.append_many(items(record)))
    last = asyncio.run(log.last_seq())
    with TestClient(create_app(log)) as c:
        eventually(lambda: c.get("/api/health").json()["seq"] >= last, 5)
        yield c


def test_board_at_an_earlier_ply_is_the_replayed_position(client, record):
    """``?ply=N`` draws the position after N plies (CheckersGame replaying the game's moves), the
    same picture pydraughts draws of that FEN; every ply from 0 to now can be drawn."""
    moves = replay(record).moves
    for ply in (0, 1, 15, len(moves) - 1, len(moves)):
        r = client.get(f"/board/1-1.1.svg?ply={ply}&size=560")
        assert r.status_code == 200, r.text
        assert r.headers["content-type"].startswith("image/svg+xml")
        assert r.text == checkers_svg(CheckersGame.from_moves(moves[:ply]).fen)
    assert client.get("/board/1-1.1.svg?ply=0").text == checkers_svg(CheckersGame().fen)
    assert client.get("/board/1-1.1.svg?ply=15").text != client.get("/board/1-1.1.svg").text
    assert client.get(f"/board/1-1.1.svg?ply={len(moves) + 1}").status_code == 400


@pytest.mark.parametrize("ply", ["abc", "1.5", ""])
def test_a_ply_that_is_not_a_number_is_a_clear_400(client, ply):
    r = client.get(f"/board/1-1.1.svg?ply={ply}")
    assert r.status_code == 400
    assert r.json() == {"error": f"ply must be a whole number of plies (0 = the start), got {ply!r}"}
    assert "invalid literal" not in r.text


def test_a_size_that_is_not_a_number_is_a_clear_400(client):
    r = client.get("/board/1-1.1.svg?size=big")
    assert r.status_code == 400 and r.json() == {"error": "size must be a whole number of pixels, got 'big'"}


def test_pdn_time_control_is_pgn_text_not_a_table(client):
    """PGN standard 9.6.1 (which PDN uses): game 1 of a match starts at 90 minutes sudden death,
    "5400"; game 2 starts on the time left from game 1 (X.A.b), which the tag cannot say: "?"
    (unknown), left out as the writer leaves out every "?"."""
    text = client.get("/api/games/1-1.1.pgn").text
    assert '[TimeControl "5400"]' in text and "match_clock" not in text and "{" not in text
    second = client.get("/api/games/1-1.2.pgn").text
    assert "TimeControl" not in second and "match_clock" not in second


def test_pdn_time_control_of_a_chosen_match_clock():
    """The referee's choice of X.A.a option 2 (``ClockChoice.control_spec``) is "4800+10"."""
    from services.arbiter_office.view_pgn import game_pgn
    from services.regulations.checkers_rounds import ClockChoice

    spec = ClockChoice(option="80+10", how="agreed").control_spec
    game = {"id": "1-1.1", "variant": "checkers", "moves": [], "time_control": spec,
            "match": {"id": "1-1", "game_no": 1, "games": 2}, "status": "waiting", "result": "*"}
    assert '[TimeControl "4800+10"]' in game_pgn(game, {})


def test_checkers_downloads_are_pdn_files(client):
    """The PDN of a checkers game or round is named ``.pdn`` with a draughts type, at the old
    ``.pgn`` URLs and at ``.pdn`` ones."""
    for url in ("/api/games/1-1.1.pgn", "/api/games/1-1.1.pdn"):
        r = client.get(url)
        assert r.status_code == 200 and '[GameType "21"]' in r.text
        assert r.headers["content-type"].startswith("application/x-draughts-pdn")
        assert r.headers["content-disposition"] == 'inline; filename="1-1.1.pdn"'
    for url in ("/api/round.pgn", "/api/round.pdn"):
        r = client.get(url)
        assert r.status_code == 200 and r.text.count('[GameType "21"]') == 2
        assert r.headers["content-type"].startswith("application/x-draughts-pdn")
        assert r.headers["content-disposition"] == 'inline; filename="round-1.pdn"'


def test_game_page_title_names_black_first(client, record):
    """Black (Red) moves first in checkers and is named first (docs/checkers.md, PDN)."""
    page = client.get("/game/1-1.1").text
    assert f"<title>{record.tags['Black']} - {record.tags['White']} - 11-Man National</title>" in page
