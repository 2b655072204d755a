"""Norway Chess 2023's first three rounds through the arbiter's console (issue 27 "Acceptance"): the
Berger tables paired into drafts, published and started with the gateway and dashboard never
restarted; classical results by slip; each drawn classical game followed by its Armageddon game
(the running gateway schedules it from the regulations), whose result is entered by slip
("armageddon" on the same board) or with its alert's "Set result" (which set the classical game's
result before: issue 27); a round does not start while an Armageddon game has no result.

Sources: events/norway-chess-2023.toml (10 players, C.05 Annex 1); ../shared/regulations/
norway-chess-2023.txt: "If the classical game is drawn, an Armageddon game will be played ... The
player with White pieces will continue with White in Armageddon. If the Armageddon game is drawn,
black will win." and the points: "Win in the classical game: 3 points; Loss in the classical game:
0 points; Draw in the classical game & win Armageddon: 1½ points; Draw in the main game & loss
Armageddon: 1 point". The slips' results come from a seeded generator.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from pathlib import Path

import pytest
from round_console import console_hall, open_alerts, submit, until

from services.regulations.tournament_file import load_tournament

HERE = Path(__file__).resolve().parent
EVENTS = HERE.parents[1] / "events"
POINTS = {"win": 3.0, "loss": 0.0, "draw_arm_win": 1.5, "draw_arm_loss": 1.0}  # the regulation's "Points"


async def draft_published(page, rnd: int) -> dict:
    """Round ``rnd`` paired into a draft (Berger tables) and published; its draft."""
    await page.click("#rc-pair-button")
    d = (await until(page, lambda x: x["draft"] and x["draft"]["round"] == rnd, f"round {rnd} drafted"))["draft"]
    assert len(d["boards"]) == 5 and all(b["colour_rule"] == "C.05 Annex 1" for b in d["boards"])
    await page.click("#rc-publish-button")
    await until(page, lambda x: x["draft"] and x["draft"]["is_published"], f"round {rnd} published")
    return d


@pytest.mark.browser
async def test_norway_chess_three_rounds_with_armageddons_by_slip(tmp_path):
    slug = f"norway-{uuid.uuid4().hex[:8]}"
    t = load_tournament((EVENTS / "norway-chess-2023.toml").read_text(), "norway-chess-2023.toml")
    rng = random.Random(2023)
    expected: dict[int, float] = {p.start_no: 0.0 for p in t.players}
    by_alert: list[str] = []
    async with console_hall(t, slug) as (page, gateway, mqtt):
        d = await draft_published(page, 1)
        await page.click("#rc-start")
        await until(page, lambda x: x["latest_round"] == 1, "round 1 started")
        for rnd in (1, 2, 3):
            drawn = []
            for b in d["boards"]:
                result = rng.choice(["1-0", "0-1", "1/2-1/2", "1/2-1/2"])
                # a draw on a claim: "Players are not allowed to agree to a draw until at least 30 moves
                # have been made by each player", and a slip is judged as set_result is
                how = "claim" if result == "1/2-1/2" else "slip"
                assert await submit(page, "#rc-slip", {"how": how, "part": ""},
                                    {"round": rnd, "board": b["board"], "result": result}) == ""
                if result == "1/2-1/2":
                    drawn.append(b)
                else:
                    expected[b["white_no"] if result == "1-0" else b["black_no"]] += POINTS["win"]
            for b in drawn:  # the running gateway schedules the Armageddon game (the regulations)
                for _ in range(200):
                    if f"{rnd}-{b['board']}-A" in gateway.hall.state.games:
                        break
                    await asyncio.sleep(0.05)
                assert f"{rnd}-{b['board']}-A" in gateway.hall.state.games
            following = await draft_published(page, rnd + 1) if rnd < 3 else None
            if following is not None and drawn:  # not started while an Armageddon game has no result
                await page.click("#rc-start")
                await page.wait_for_function(
                    "() => /have no result/.test(document.querySelector('#rc-publish .error').textContent)")
                assert f"({rnd}-{drawn[0]['board']}-A)" in await page.text_content("#rc-publish .error")
            for i, b in enumerate(drawn):
                result = rng.choice(["1-0", "0-1", "1/2-1/2"])  # a drawn Armageddon: Black wins
                arm = f"{rnd}-{b['board']}-A"
                if rnd == 1 and i == 0:  # the first one from its alert's "Set result" (issue 27)
                    item = f"#alerts li[data-kind=armageddon_scheduled]:has-text('Board {b['board']}')"
                    await page.click(item)
                    await page.select_option("#result", result)
                    await page.click("#detail [data-act=set_result]")
                    for _ in range(200):
                        if gateway.hall.state.games[arm].ended:
                            break
                        await asyncio.sleep(0.05)
                    # on the Armageddon game, not the drawn classical game the board played first
                    assert gateway.hall.state.games[arm].result == result
                    assert gateway.hall.state.games[f"{rnd}-{b['board']}"].result == "1/2-1/2"
                    by_alert.append(arm)
                else:
                    assert await submit(page, "#rc-slip", {"how": "slip", "part": "armageddon"},
                                        {"round": rnd, "board": b["board"], "result": result}) == ""
                white_won = result == "1-0"
                expected[b["white_no"]] += POINTS["draw_arm_win" if white_won else "draw_arm_loss"]
                expected[b["black_no"]] += POINTS["draw_arm_loss" if white_won else "draw_arm_win"]
            if following is not None:
                await page.click("#rc-start")
                await until(page, lambda x: x["latest_round"] == rnd + 1, f"round {rnd + 1} started")
                d = following
        standings = await page.evaluate("() => fetch('/api/standings?provisional=1').then(r => r.json())")
        # issue 27 "Acceptance": no alert left open that needs nothing (every game has its result;
        # an "Armageddon game to be played" closes with the Armageddon's result)
        assert [(a["kind"], a["game"]) for a in await open_alerts(page)] == []
    assert standings["scoring"] == "norway-armageddon" and len(by_alert) == 1
    got = {r["start_no"]: r["points"] for r in standings["rows"]}
    assert got == expected
