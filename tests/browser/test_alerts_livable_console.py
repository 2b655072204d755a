"""The arbiter's console with alerts an arbiter can live with (issue 27 item 5), in Chromium: a refused
draw says who, the rule and the moves ("White 30, Black 29 moves", Norway Chess 2023's rule), and two
boards' devices offline are marked handled with one click ("Mark all 2 handled": ``resolve_alerts``).
Games: the Candidates 2024 round 1 (../shared/data/chess/fide_candidates_2024_open.pgn)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn
from venue.serve import serving

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
LOGIN, PASSWORD = "chief", "Laws-of-Chess-9.2"
ENV = {"VENUE_ARBITERS": f"{LOGIN}:{PASSWORD}", "VENUE_SECRET": "test-secret-alerts-livable"}
# events/norway-chess-2023.toml's quote of the regulation
NORWAY_RULE = ('Norway Chess 2023: "Players are not allowed to agree to a draw until at least 30 moves have '
               'been made by each player. This rule does not apply to Blitz and Armageddon games." '
               '(no draw by agreement before 30 moves by each player (White has made 30, Black 29))')


async def test_a_refused_draw_says_the_rule_and_the_moves_and_offline_boards_are_handled_at_once(shared_data):
    from playwright.async_api import async_playwright

    text = (shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text()
    log = open_log("memory://", f"livable-{uuid.uuid4().hex[:8]}")
    start = round_from_pgn(text, round="1")
    await log.append("round_started", start)
    g1 = start["games"][0]
    await log.append("draw_offer_refused", {"game": g1["id"], "board": g1["board"], "result": "1/2-1/2",
                                            "reason": "agreement", "seq": 60, "rule": NORWAY_RULE,
                                            "moves": {"white": 30, "black": 29}, "kind": "classical"})
    for g in start["games"][1:3]:
        await log.append("device_offline", {"board": g["board"], "device": "clock"})
    app = create_app(log, accounts=Accounts.load(None, ENV))

    async with serving(app) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1440, "height": 900})
            await page.goto(url + "/arbiter")
            await page.wait_for_selector("#login-name:focus")
            await page.fill("#login-name", LOGIN)
            await page.fill("#login-password", PASSWORD)
            await page.click("#login button[type=submit]")
            await page.wait_for_selector("#console:not([hidden])")
            await page.wait_for_function("() => document.querySelectorAll('#alerts .alert').length >= 3")
            refused = page.locator("#alerts .alert[data-kind=draw_offer_refused]")
            words = await refused.text_content()
            # the players as said ("Caruana, Fabiano" is White, Fabiano Caruana)
            assert "White 30, Black 29 moves" in words and "White, Fabiano Caruana and Black, Hikaru Nakamura" in words, \
                (words, g1["white"], g1["black"])
            assert "at least 30 moves" in words, words
            await page.locator("#alerts .alert[data-kind=device_offline] >> nth=0").click()
            button = page.locator("#detail [data-act=resolve_alerts]")
            assert (await button.text_content()).strip() == "Mark all 2 handled"
            await page.screenshot(path=str(HERE / "alerts-livable-before.png"), full_page=True)
            await button.click()
            await page.wait_for_function("() => document.querySelector('#open-count').textContent.trim() === '1'")
            entries = [e for e in await log.read() if e.type == "alert_resolved"]
            assert sorted(e.data["alert"] for e in entries) == [3, 4] and {e.data["by"] for e in entries} == {LOGIN}
            await page.screenshot(path=str(HERE / "alerts-livable-after.png"), full_page=True)
        finally:
            await browser.close()
