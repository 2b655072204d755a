"""The viewer pages of issue 13 in a real browser (Debian's chromium, Playwright), on a phone's
screen (390 x 844) and a desk's:

- every round: the round selector, an earlier round's games, ``/game/1-1`` still there once round 2
  started, a countdown to the next round from the tournament file's schedule;
- Armageddon shown as Armageddon: its label, its own control (Norway Chess 2023's: White 10 min,
  Black 7 min, 1 s from move 41), a drawn Armageddon shown as a win for Black ("If the Armageddon
  game is drawn, black will win"), never "drawn by agreement"; the hall header counts boards;
- time spent per move beside the clock; titles and federations;
- no horizontal scroll at 390 px (``document.documentElement.scrollWidth``) on the hall, game,
  standings and crosstable pages;
- a checkers board's square numbers and its flip.

The event: tests/broadcast_helpers.py (the Keres Memorial sample's players with their titles;
federations and team are this test's own values), rounds 1 and 2 begun, round 3 two hours ahead;
the moves are Candidates 2024 round 5 games' (replay_entries). Saves phone-*.png beside this file.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from broadcast_helpers import candidates_round5, keres_players, tournament_text
from checkers_entries import entries as checkers_entries
from page_server import dashboard_page
from replay_entries import game_entries

from services.eventlog.memory import MemoryLog
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament

pytestmark = pytest.mark.browser
HERE = Path(__file__).resolve().parent
PHONE = {"width": 390, "height": 844}
FEDS = {1: "EST", 2: "ESP", 3: "UKR", 4: "RUS"}
NORWAY_ARMAGEDDON = {"white": "10m", "black": "7m", "increment": "1s", "increment_from_move": 41}


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="seconds")


def event_entries(shared_data, now: int) -> list[tuple[str, dict, int]]:
    day, hour = 86_400_000, 3_600_000
    starts = [now - day, now - hour, now + 2 * hour]
    t = load_tournament(tournament_text(keres_players(shared_data), feds=FEDS, teams={1: "Estonia"},
                                        starts=[iso(s) for s in starts]))
    games = candidates_round5(shared_data)
    r1 = round_from_tournament(t, 1, start_ms=starts[0])
    out = [("tournament_registered", tournament_registered_data(t), starts[0] - hour),
           ("round_started", r1, starts[0])]
    out += game_entries(games[0], "1-1", "1", starts[0] + 60_000, end=False)[: 1 + 2 * 6]
    at = starts[0] + 2 * hour
    out.append(("game_ended", {"game": "1-1", "board": "1", "result": "1/2-1/2", "termination": "agreement",
                               "ply": 6, "by": "device"}, at))
    c = r1["games"][0]
    arm = {**c, "id": "1-1-A", "kind": "armageddon", "follows": "1-1", "time_control": NORWAY_ARMAGEDDON,
           "rule": "Norway Chess 2023: If the classical game is drawn, an Armageddon game will be played"}
    out.append(("armageddon_scheduled", arm, at + 1000))
    out += game_entries(games[1], "1-1-A", "1", at + 60_000, initial_ms=600_000, end=False)[: 1 + 2 * 4]
    out.append(("game_ended", {"game": "1-1-A", "board": "1", "result": "1/2-1/2", "termination": "agreement",
                               "ply": 4, "by": "device"}, at + hour))
    out.append(("armageddon_decided", {"game": "1-1-A", "board": "1", "winner": "black", "result": "0-1"},
                at + hour))
    out += game_entries(games[2], "1-2", "2", starts[0] + 60_000, end=False)[: 1 + 2 * 6]
    out.append(("game_ended", {"game": "1-2", "board": "2", "result": "1-0", "termination": "resignation",
                               "ply": 6, "by": "device"}, at + hour + 1000))
    out.append(("round_started", round_from_tournament(t, 2, start_ms=starts[1]), starts[1]))
    out += game_entries(games[3], "2-1", "1", starts[1] + 60_000, end=False)[: 1 + 2 * 5]
    return sorted(out, key=lambda e: e[2])


def phone(log):
    """``(url, page)``: the dashboard of ``log`` served, and a phone-sized page in chromium."""
    return dashboard_page(log, PHONE)


async def no_sideways_scroll(page) -> None:
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


async def test_rounds_armageddon_spent_titles_and_phone_layout(shared_data):
    now = int(time.time() * 1000)
    log = MemoryLog("keres-rapid")
    await log.append_many(event_entries(shared_data, now))
    async with phone(log) as (url, page):
        await page.goto(url + "/")
        await page.wait_for_selector("#g-2-1 .player .pname")
        await page.wait_for_function("() => !document.getElementById('countdown').hidden")
        assert (await page.text_content("#countdown")).startswith("Round 3 starts in 1:5")
        assert [await a.text_content() for a in await page.query_selector_all("#rounds a")] == ["1", "2 (live)"]
        white = await page.text_content("#g-2-1 .player.white .name")
        # Berger tables, 4 players, round 2: 4-3 on board 1 (FIDE C.05 Annex 1); Smirnov is an IM
        # (the sample's BlackTitle), RUS this test's file
        assert white.split() == ["IM", "Smirnov,", "Artem", "RUS"]
        await no_sideways_scroll(page)
        await page.screenshot(path=str(HERE / "phone-hall.png"), full_page=True)

        # round 1 as recorded: three games on two boards; the Armageddon game scored for Black
        await page.goto(url + "/?round=1")
        await page.wait_for_selector("#g-1-1-A .status:not(:empty)")
        assert await page.text_content("#summary") == "2 boards \u00b7 0 playing \u00b7 2 finished"
        assert await page.text_content("#g-1-1-A .kind") == "Armageddon"
        status = await page.text_content("#g-1-1-A .status")
        assert status == "0-1 \u00b7 Black won (Armageddon)" and "drawn" not in status
        assert await page.text_content("#g-1-1-A .player.black .score") == "1"
        assert await page.text_content("#g-1-1 .status") == "\u00bd-\u00bd \u00b7 drawn by agreement"
        await no_sideways_scroll(page)

        # the Armageddon game's page: its control, the regulations' score, time spent per move
        await page.goto(url + "/game/1-1-A")
        await page.wait_for_selector("#moves .mv")
        kind = await page.text_content("#kind-name")
        assert kind == "Armageddon \u00b7 White 10m, Black 7m +1s from move 41"
        box = await page.text_content("#result-box")
        assert "a win for Black" in box and "by agreement" in box and "Drawn" not in box
        took = await page.eval_on_selector_all("#moves .mv .took", "els => els.map(e => e.textContent)")
        assert len(took) == 4 and all(took)  # its four plies, each with the time it took
        assert (await page.text_content("#p-bottom .spent")) != ""  # beside White's clock
        await no_sideways_scroll(page)
        await page.screenshot(path=str(HERE / "phone-game.png"), full_page=True)

        # round 1's game is still there after round 2 began (no 404), with its picture
        r = await page.goto(url + "/game/1-1")
        assert r.status == 200
        await page.wait_for_selector("#moves .mv")
        assert await page.eval_on_selector_all("#moves .mv", "els => els.length") == 6
        await page.wait_for_function("() => document.querySelector('#board-img').naturalWidth > 0")
        await no_sideways_scroll(page)

        for path in ("/standings", "/crosstable"):
            await page.goto(url + path)
            await page.wait_for_selector("tbody tr")
            await no_sideways_scroll(page)
            await page.screenshot(path=str(HERE / f"phone{path.replace('/', '-')}.png"), full_page=True)


async def test_a_checkers_board_numbers_its_squares_and_flips(shared_data):
    """American checkers' numeric notation names the squares 1-32 (docs/checkers.md): the game page
    numbers them where pydraughts draws each square, and the Flip button turns board and numbers
    half round (pydraughts draws White's men, 21-32, at the top; flipped, at the bottom). The game:
    Morgan-Pawlek, German Open 2004 (../shared/data/checkers/german_open_2004.pdn)."""
    from services.rules.checkers_pdn import read_pdn

    (record,) = read_pdn((shared_data / "checkers" / "german_open_2004.pdn").read_text())
    log = MemoryLog("checkers")
    await log.append_many(checkers_entries(record))
    async with phone(log) as (url, page):
        await page.goto(url + "/game/1-1.1")
        await page.wait_for_selector("#sq-numbers span")
        assert await page.eval_on_selector_all("#sq-numbers span", "els => els.length") == 32

        async def where(n: int) -> tuple[float, float]:
            box = await page.eval_on_selector(".board.big", "e => e.getBoundingClientRect().toJSON()")
            el = await page.query_selector(f"#sq-numbers span:nth-child({n})")
            r = await el.bounding_box()
            return ((r["x"] + r["width"] / 2 - box["x"]) / box["width"],
                    (r["y"] + r["height"] / 2 - box["y"]) / box["height"])

        one, thirty_two = await where(1), await where(32)
        assert one[1] > 0.75 and thirty_two[1] < 0.25  # square 1 near Black's side, at the bottom
        assert await page.text_content("#p-top .pname") == record.tags["White"]
        await page.click("#flip")
        await page.wait_for_function("() => document.querySelector('#board-img').dataset.url.includes('flip=1')")
        flipped_one = await where(1)
        assert flipped_one[1] < 0.25 and abs(flipped_one[0] - (1 - one[0])) < 0.05
        assert await page.text_content("#p-top .pname") == record.tags["Black"]
        svg = await page.evaluate("(u) => fetch(u).then(r => r.text())", await page.get_attribute("#board-img", "src"))
        assert 'rotate(180' in svg and ">a<" not in svg  # pydraughts' picture turned, no chess letters
        await no_sideways_scroll(page)
        await page.screenshot(path=str(HERE / "phone-checkers.png"))
