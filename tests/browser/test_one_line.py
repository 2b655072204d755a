"""Text that must stay on one line, on a desk's screen (1400 x 900, a new user's run of the README):

- a checkers move in the game page's move list: "14-17" broke at its hyphen into "14-" over "17"
  beside its clock and time spent; the game is the checkers demo's first (London 1992, game 7,
  Tinsley-Chinook, venue/data/tinsley_chinook_1992_matches.pdn; ply 17 is 14-17) with the demo's
  own clocks (``devices.checkers_script``: 90 minutes each, seeded thinking times);
- the hall's tile header of a finished board: "BOARD 4" wrapped beside the long result badge of
  Vidit-Caruana, Candidates 2024 round 5 (../shared/data/chess/fide_candidates_2024_open.pgn),
  drawn by threefold repetition; the badge shows the whole outcome (under the number when it does not fit
  beside it), never cut.
"""

from __future__ import annotations

import pytest
from page_server import dashboard_page

from broadcast_helpers import candidates_round5
from devices.checkers_script import script_from_record
from replay_entries import game_entries, round_started
from services.eventlog.memory import MemoryLog
from services.rules.checkers_pdn import read_pdn, replay
from venue.demo_tournament import CHECKERS_MATCHES, shipped_text

pytestmark = pytest.mark.browser
DESK = {"width": 1400, "height": 900}
ONE_LINE = """(sel) => [...document.querySelectorAll(sel)].map((e) => {
  const r = e.getBoundingClientRect(), lh = parseFloat(getComputedStyle(e).lineHeight);
  return [e.textContent, r.height < 1.5 * lh, r.right];
})"""


def london_game_7() -> list[tuple[str, dict, int]]:
    """The checkers demo's board 1, game 1 as the gateway logs it: each ply at the demo's thinking
    time after the one before (ms of game time, the log's ``at``), with the clock's press."""
    record = read_pdn(shipped_text(CHECKERS_MATCHES))[0]
    script = script_from_record(record, "1")
    base = {"game": "1-1.1", "board": "1"}
    setup = {**base, "id": "1-1.1", "round": "1", "variant": "checkers", "fen": None,
             "white": record.tags["White"], "black": record.tags["Black"], "time_control": "5400",
             "match": {"id": "1-1", "game_no": 1, "games": 2}}
    del setup["game"]
    at = 1_000_000
    clk = {"white_ms": script.white_ms, "black_ms": script.black_ms}
    out = [("round_started", {"round": "1", "event": "Checkers demo", "site": "London", "date": record.tags.get("Date", "1992.??.??"),
                              "games": [setup]}, at - 1000),
           ("clock_started", {**base, "device": "clock", "seq": 1, **clk, "running": "black"}, at)]
    for p, ply in zip(replay(record).played, script.plies):
        at += ply.think_ms
        after = "white" if ply.side == "black" else "black"
        out.append(("move_played", {**base, "device": "board", "seq": p.ply, "ply": p.ply, "move": p.move,
                                    "san": p.san, "fen": p.fen, "claimable": [], "turn": after}, at))
        clk[f"{ply.side}_ms"] = ply.clock_ms
        out.append(("clock_pressed", {**base, "device": "clock", "seq": p.ply + 1, **clk, "running": after},
                    at + 200))
    return out


async def test_a_checkers_move_never_breaks_at_its_hyphen():
    log = MemoryLog("checkers-demo")
    await log.append_many(london_game_7())
    async with dashboard_page(log, DESK) as (url, page):
        await page.goto(url + "/game/1-1.1")
        await page.wait_for_selector("#moves .mv .took")
        sans = await page.eval_on_selector_all("#moves .mv .san", "els => els.map(e => e.textContent)")
        assert sans[16] == "14-17"  # London 1992 game 7: 9. 14-17
        broken = [text for text, one, _ in await page.evaluate(ONE_LINE, "#moves .mv .san") if not one]
        assert broken == []
        # at this width each move's clock and time spent sit beside it
        assert [text for text, one, _ in await page.evaluate(ONE_LINE, "#moves .mv") if not one] == []


async def test_a_finished_boards_tile_header_is_one_line(shared_data):
    games = candidates_round5(shared_data)
    entries = [round_started(games, "5", at=1000)]
    for board, game in enumerate(games, start=1):
        entries += game_entries(game, f"5-{board}", str(board), 10_000)
    log = MemoryLog("candidates-2024")
    await log.append_many(sorted(entries, key=lambda e: e[2]))
    async with dashboard_page(log, DESK) as (url, page):
        await page.goto(url + "/")
        await page.wait_for_selector("#g-5-4.is-ended")
        assert await page.text_content("#g-5-4 .status") == "\u00bd-\u00bd \u00b7 drawn by threefold repetition"
        assert await page.get_attribute("#g-5-4 .status", "title") == "Drawn by threefold repetition"
        heads = await page.evaluate(ONE_LINE, ".card-head .board-no")
        assert [(text, one) for text, one, _ in heads] == [(f"Board {n}", True) for n in range(1, 5)]
        badges = await page.evaluate(ONE_LINE, ".card-head .status")
        cards = await page.eval_on_selector_all(".card-head", "els => els.map(e => e.getBoundingClientRect().right)")
        assert all(one for _, one, _ in badges), badges
        assert all(right <= edge for (_, _, right), edge in zip(badges, cards)), (badges, cards)
        # and never cut: every result is read whole on the tile (a checkers flag fall, "Black won on time")
        cut = await page.eval_on_selector_all(".card-head .status",
                                              "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
        assert cut == []
