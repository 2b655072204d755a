"""The spectator pages themselves (dashboard/static/live.js in Debian's chromium) survive the loss
of their dashboard node behind the shipped nginx (issue 15: "a test kills one node mid-round and
its spectators reconnect to another and miss nothing").

The deployment of tests/node_deployment.py (the gateway and two dashboard nodes as the systemd
units start them, deploy/nginx/nginx.conf in front, the real Mosquitto and Redis). Two hall pages
and a game page are opened through nginx; four boards play the first plies of four real games
(FIDE Candidates 2024 (open), games 1-4, ../shared/data/chess/fide_candidates_2024_open.pgn).
Mid-round the node holding more of the pages' sockets (its ``/api/health`` counts them) is killed
with SIGKILL. Each page of that node opens a second socket, through the same address, with
``after=`` its last seq; in the end every page holds every ply of the games it shows, in order,
equal to the log, and says "live".
"""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import async_playwright
from browser_helpers import ARGS, CHROMIUM
from live_helpers import candidates_moves, log_until, played
from node_deployment import NodeDeployment

pytestmark = [pytest.mark.browser, pytest.mark.live]

BOARDS = ("1", "2", "3", "4")
PLIES = 30
KILL_AFTER = 12
# Every socket a page opens, in order (the page's own WebSocket, counted).
COUNT_SOCKETS = """
window.__sockets = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(url, protocols) { super(url, protocols); window.__sockets.push(String(url)); }
};
"""
MOVES = "() => Object.fromEntries([...Venue.state.games.values()].map((g) => [g.id, g.moves]))"


async def test_the_pages_of_a_killed_node_resume_on_the_other_and_miss_nothing(tmp_path, shared_data):
    games = {b: candidates_moves(shared_data, int(b))[:PLIES] for b in BOARDS}
    async with NodeDeployment(tmp_path, BOARDS) as d, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            paths = ["/", "/", "/game/1-2"]
            pages = []
            for path in paths:
                page = await browser.new_page()
                await page.add_init_script(COUNT_SOCKETS)
                await page.goto(f"http://{d.address}{path}")
                await page.wait_for_function("() => document.getElementById('conn').textContent === 'live'",
                                             timeout=15_000)
                pages.append(page)
            counts = [(await d.health(i))["spectators"] for i in (0, 1)]
            assert sum(counts) == len(pages), counts
            victim = 0 if counts[0] >= counts[1] else 1

            async with d.devices() as play:
                await play(games, range(KILL_AFTER))
                playing = asyncio.create_task(play(games, range(KILL_AFTER, PLIES)))
                await asyncio.sleep(0.1)
                d.dashboards[victim].kill()  # mid-round: the boards are still playing
                await playing
            entries = await log_until(d.log, lambda es: all(len(played(es, f"1-{b}")) >= PLIES for b in BOARDS), 20)
            expected = {f"1-{b}": played(entries, f"1-{b}") for b in BOARDS}
            assert all(expected[f"1-{b}"] == games[b] for b in BOARDS)  # the log: every ply once, in order

            for page, path in zip(pages, paths):
                shown = {gid: moves for gid, moves in expected.items() if path == "/" or path.endswith(gid)}
                await page.wait_for_function(
                    f"(want) => {{ const got = ({MOVES})(); return Object.keys(want).every("
                    "(id) => JSON.stringify(got[id]) === JSON.stringify(want[id])); }", arg=shown, timeout=20_000)
                got = await page.evaluate(MOVES)
                assert {gid: got[gid] for gid in shown} == shown, path
                assert await page.text_content("#conn") == "live"
            sockets = [await page.evaluate("() => window.__sockets") for page in pages]
        finally:
            await browser.close()
    resumed = [s for s in sockets if len(s) > 1]
    assert len(resumed) == counts[victim], sockets  # the killed node's pages, and only they
    for s in resumed:
        assert len(s) == 2 and "after=" not in s[0] and "after=" in s[1], s
