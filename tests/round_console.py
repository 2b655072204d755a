"""The round's life cycle on the arbiters' console in Debian's chromium, for the browser tests of the
round console (tests/browser/test_round_console.py, test_round_console_norway.py): a hall for a
tournament file with the console signed in as the chief arbiter (``console_hall``), the round tools
once they hold what a test waits for and the page shows them (``until``), the open alerts
(``open_alerts``) and a console form submitted (``submit``).

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from round_console import console_hall``.
"""

from __future__ import annotations

import asyncio
import contextlib

from browser_helpers import ARGS, CHROMIUM

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from dashboard.feed import wall_ms
from gateway import Gateway, embedded_broker
from services.arbiter_office.tournament_log import tournament_registered_data
from services.eventlog import open_log
from venue.serve import serving


LOGIN, PASSWORD = "chief", "C.04.3-dutch"
ENV = {"VENUE_ARBITERS": f"{LOGIN}:{PASSWORD}", "VENUE_SECRET": "test-secret-round-console"}


async def tools(page) -> dict:
    return await page.evaluate("() => fetch('/api/arbiter/round-tools').then(r => r.json())")


async def until(page, check, what: str, timeout_s: float = 30.0) -> dict:
    """The round tools once ``check(tools)`` holds (the dashboard folds each action's entry as it
    follows the log)."""
    import asyncio

    for _ in range(int(timeout_s / 0.1)):
        t = await tools(page)
        if check(t) and await console_shows(page, t):
            return t
        await asyncio.sleep(0.1)
    raise AssertionError(f"not within {timeout_s} s: {what}: {t}")


async def open_alerts(page) -> list[dict]:
    """The console's open alerts once none is left, or as they stand after 10 s (the desk follows the
    log: the last slip may be on its way)."""
    for _ in range(100):
        desk = await page.evaluate("() => fetch('/api/arbiter/alerts').then(r => r.json())")
        if not desk["alerts"]:
            break
        await asyncio.sleep(0.1)
    return desk["alerts"]


async def console_shows(page, t: dict) -> bool:
    """The console page shows the draft the round tools hold (its buttons name the version shown:
    a click before the page caught up is refused as stale, rightly)."""
    d = t.get("draft")
    if not d or d.get("started"):
        return True
    status = await page.inner_text("#rc-status")
    head = f"Round {d['round']}, version {d['version']}:"
    return head in status and (f"{head} published" in status) == bool(d["is_published"])


async def submit(page, form: str, selects: dict | None = None, fills: dict | None = None) -> str:
    """Fill a form of the console and submit it; returns its error text ("" when accepted)."""
    for name, value in (selects or {}).items():
        await page.select_option(f"{form} [name={name}]", str(value))
    for name, value in (fills or {}).items():
        await page.fill(f"{form} [name={name}]", str(value))
    await page.click(f"{form} button[type=submit]")
    await page.wait_for_function(f"() => !document.querySelector('{form} button[type=submit]').disabled")
    return (await page.text_content(f"{form} .error")) or ""


@contextlib.asynccontextmanager
async def console_hall(t, slug: str, clock=wall_ms):
    """A hall for tournament ``t`` registered under ``slug``: a memory log, the gateway on an embedded
    broker, the dashboard, and Chromium's page of the console logged in as the chief arbiter; yields
    ``(page, gateway, mqtt URL)``. Nothing is restarted while the block runs."""
    from playwright.async_api import async_playwright

    log = open_log("memory://", slug)
    await log.append("tournament_registered", {**tournament_registered_data(t), "slug": slug})
    async with embedded_broker() as mqtt:
        gateway = Gateway(log, mqtt, slug)
        gw = asyncio.create_task(gateway.run())
        try:
            await asyncio.wait_for(gateway.ready.wait(), 30)
            async with serving(create_app(log, accounts=Accounts.load(None, ENV), clock=clock)) as url, \
                    async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                try:
                    page = await browser.new_page(viewport={"width": 1440, "height": 1400})
                    await page.goto(url + "/arbiter")
                    await page.fill("#login-name", LOGIN)
                    await page.fill("#login-password", PASSWORD)
                    await page.click("#login button[type=submit]")
                    await page.wait_for_selector("#round-cycle:not([hidden])")
                    yield page, gateway, mqtt
                finally:
                    await browser.close()
        finally:
            gw.cancel()
            await asyncio.gather(gw, return_exceptions=True)
            await log.close()
