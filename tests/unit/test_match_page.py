"""``/game/{match id}``: a checkers match's page (a new user's run of the checkers demo: ``/game/1-1``
drew a page with a broken board picture; the match's games are ``1-1.1`` and ``1-1.2``, docs/events.md).

A spectator following board 1's match wants the game its board plays now, so the match's id
redirects (302, never cached: the same link leads to game 2 once game 1 is over) to the match's
first game not over, else to its last (``SpectatorView.match_game``). The moves are the German Open
2004 game Morgan-Pawlek (../shared/data/checkers/german_open_2004.pdn) as game 1 of a Master division
match of the 11-Man National 2017 (X.A.b: "matches of two games", the second with colours
reversed), as in tests/unit/test_dashboard_checkers.py (tests/checkers_entries.py).
"""

from __future__ import annotations

import asyncio
import re

import pytest
from checkers_entries import items
from eventually import eventually
from starlette.testclient import TestClient

from dashboard.app import create_app
from services.eventlog.memory import MemoryLog
from services.rules.checkers_pdn import read_pdn


@pytest.fixture(scope="module")
def record(shared_data):
    (rec,) = read_pdn((shared_data / "checkers" / "german_open_2004.pdn").read_text())
    return rec


def ended(game: str, result: str, at: int) -> tuple[str, dict, int]:
    return "game_ended", {"game": game, "board": "1", "result": result, "termination": "recorded", "by": "device"}, at


def served(entries: list[tuple[str, dict, int]]):
    """A dashboard over ``entries``, once it has folded them."""
    log = MemoryLog("match-page")
    asyncio.run(log.append_many(entries))
    last = asyncio.run(log.last_seq())
    client = TestClient(create_app(log))
    client.__enter__()
    eventually(lambda: client.get("/api/health").json()["seq"] >= last, 5)
    return client


@pytest.mark.parametrize("over, current", [
    ((), "1-1.1"),                                        # game 1 in play
    (("1-1.1",), "1-1.2"),                                # game 1 over: game 2 next (X.A.b)
    (("1-1.1", "1-1.2"), "1-1.2"),                        # the match over: its last game
])
def test_a_match_id_leads_to_the_game_its_board_plays_now(record, over, current):
    entries = items(record)
    at = entries[-1][2]
    entries += [ended(g, record.tags["Result"], at + 1000 * n) for n, g in enumerate(over, start=1)]
    client = served(entries)
    try:
        r = client.get("/game/1-1", follow_redirects=False)
        assert r.status_code == 302 and r.headers["location"] == f"/game/{current}"
        assert r.headers["cache-control"] == "no-store"
        page = client.get("/game/1-1")
        assert page.status_code == 200 and page.url.path == f"/game/{current}"
        src = re.search(r'<img id="board-img" alt="board" src="([^"]+)"', page.text)
        assert src and src.group(1).startswith(f"/board/{current}.svg?"), page.text[:2000]
        picture = client.get(src.group(1).replace("&amp;", "&"))
        assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")
    finally:
        client.__exit__(None, None, None)


def test_an_id_of_no_game_or_match_is_a_404_without_a_board_picture(record):
    client = served(items(record))
    try:
        r = client.get("/game/1-9", follow_redirects=False)
        assert r.status_code == 404
        assert re.search(r'<section class="game-board" id="game-board" hidden>', r.text)
        assert '<img id="board-img" alt="board">' in r.text  # no src: nothing to break
    finally:
        client.__exit__(None, None, None)
