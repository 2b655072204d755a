"""The arbiter's round tools in the console (docs/arbiter.md "Round tools"; issue 16: "arbiter
actions for withdrawal and requested bye tested live through the console").

The tournament: the shared Swiss fixture dutch-001001 (52 players, 6 of 8 rounds played) written as
log entries (tests/trf_log.py). In the browser the arbiter logs in and, with the Round tools forms,
records the actions of tests/data/pairing/actions/all-actions-001001: 4 and 11 withdraw, 10 asks a
half-point bye, 1 and 2 must not meet, "Late Player" (1800) enters; a request the pairing cannot
take (a bye for round 6, already paired) is refused in the form; a bye asked and cancelled leaves
no trace in the pairing. Then round 7 is paired from the log (venue.tournament.pair_and_log, what
``venue serve --round 7`` runs): bbpPairings' pairing of the fixture (all-actions-001001.pairs),
with 4 and 11 left out as ``Z`` and 10 as ``H`` in its ``round_started``, and the console's panel
moves on to round 8. Saves tests/browser/round-tools.png.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM
from trf_log import pairs_of, read_pairs, trf_entries

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from services.eventlog import open_log
from services.tournament.trf import parse_trf
from services.views.standings import TournamentView
from venue.serve import serving
from venue.tournament import pair_and_log

HERE = Path(__file__).resolve().parent
FIXTURE = HERE.parent / "data" / "pairing" / "actions" / "all-actions-001001"
LOGIN, PASSWORD = "chief", "C.04.2-byes"
ENV = {"VENUE_ARBITERS": f"{LOGIN}:{PASSWORD}", "VENUE_SECRET": "test-secret-round-tools"}


async def submit(page, form: str, selects: dict[str, str] = {}, fills: dict[str, str] = {}) -> None:
    """Fill one Round tools form and submit it; waits until the form is enabled again."""
    for name, value in selects.items():
        await page.select_option(f"{form} [name={name}]", value)
    for name, value in fills.items():
        await page.fill(f"{form} [name={name}]", value)
    await page.click(f"{form} button[type=submit]")
    await page.wait_for_function(f"() => !document.querySelector('{form} button[type=submit]').disabled")


async def absent_next(page) -> dict[int, str]:
    return dict(await page.eval_on_selector_all(
        "#rt-absent li", "els => els.map(e => [+e.dataset.startNo, e.querySelector('.rt-code').textContent])"))


@pytest.mark.browser
async def test_arbiter_withdraws_and_grants_a_bye_and_round_7_leaves_them_out(shared_data):
    from playwright.async_api import async_playwright

    [base] = (shared_data / "pairing" / "dutch").glob("dutch-001001-*.trf")
    log = open_log("memory://", f"rt-{uuid.uuid4().hex[:8]}")
    await log.append_many([(t, d, None) for t, d in trf_entries(parse_trf(base.read_text()))])
    app = create_app(log, accounts=Accounts.load(None, ENV))
    async with serving(app) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1440, "height": 1100})
            await page.goto(url + "/arbiter")
            await page.fill("#login-name", LOGIN)
            await page.fill("#login-password", PASSWORD)
            await page.click("#login button[type=submit]")
            await page.wait_for_selector("#round-tools:not([hidden])")
            assert "round 7 of 8" in await page.text_content("#rt-next")
            assert "Round 7 pairs every player" in await page.text_content("#rt-summary")

            await submit(page, "#rt-withdraw", {"player": "4"})
            await submit(page, "#rt-withdraw", {"player": "11"}, {"from_round": "7"})
            await submit(page, "#rt-bye", {"player": "10", "code": "H"})
            await submit(page, "#rt-bye", {"player": "20", "code": "F"})
            await page.wait_for_selector('#rt-byes [data-cancel="20"]')
            await page.click('#rt-byes [data-cancel="20"]')  # asked, then cancelled: paired again
            await page.wait_for_selector('#rt-byes [data-cancel="20"]', state="detached")
            await submit(page, "#rt-forbid", {"a": "1", "b": "2"})
            await submit(page, "#rt-enter", {"missed": "Z"}, {"name": "Late Player", "rating": "1800"})
            await page.wait_for_function("() => document.querySelector('#rt-summary').textContent.includes('Late Player')")
            assert await absent_next(page) == {4: "Z", 10: "H", 11: "Z"}
            summary = await page.text_content("#rt-summary")
            assert "Must not meet: Test0001 Player0001 / Test0002 Player0002" in summary
            assert "Withdrawn: Test0004 Player0004 (from round 7), Test0011 Player0011 (from round 7)" in summary
            # withdrawn players are no longer offered in the forms
            assert not await page.query_selector('#rt-bye [name=player] option[value="4"]')

            # refused, with the reason in the form, and nothing recorded
            before = await log.last_seq()
            await submit(page, "#rt-bye", {"player": "5"}, {"round": "6"})
            assert "round 6 is paired already" in await page.text_content("#rt-bye .error")
            assert await log.last_seq() == before
            await page.screenshot(path=str(HERE / "round-tools.png"), full_page=True)

            recorded = [(e.type, e.data.get("start_no"), e.data.get("code"), e.data["by"])
                        for e in await log.read(0) if e.data.get("by") == LOGIN]
            assert recorded == [("player_withdrew", 4, None, LOGIN), ("player_withdrew", 11, None, LOGIN),
                                ("bye_requested", 10, "H", LOGIN), ("bye_requested", 20, "F", LOGIN),
                                ("bye_request_cancelled", 20, None, LOGIN), ("pairing_forbidden", None, None, LOGIN),
                                ("player_entered", 53, None, LOGIN)]

            # round 7 paired from the log, as venue serve --round 7 does
            view = TournamentView()
            for entry in await log.read(0):
                view.apply(entry)
            data = await pair_and_log(log, view, 7)
            assert pairs_of(data) == read_pairs(FIXTURE.with_suffix(".pairs").read_text())
            assert {b["start_no"]: b["code"] for b in data["byes"] if isinstance(b, dict)} == {4: "Z", 10: "H", 11: "Z"}
            await page.reload()
            await page.wait_for_function("() => document.querySelector('#rt-next').textContent.includes('round 8')")
        finally:
            await browser.close()
            await log.close()
