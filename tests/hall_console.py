"""A hall with the arbiters' console open in Debian's chromium, for the browser tests of the console
over a running gateway (tests/browser/test_hall_console.py, test_held_board_console.py): an
embedded broker, the gateway, the dashboard and a page signed in as the chief arbiter (``hall``),
the frames its console websocket received (``PUSHED``), and a device's MQTT connection
(``device``).

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from hall_console import hall, device``.
"""

from __future__ import annotations

import asyncio
import contextlib

import aiomqtt
from browser_helpers import ARGS, CHROMIUM, ENV, LOGIN, PASSWORD

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from gateway import Gateway, embedded_broker
from services.protocol.mqtt_url import parse_mqtt_url
from venue.serve import serving


@contextlib.asynccontextmanager
async def hall(log, slug: str, tournament=None, viewport=(1440, 900)):
    """Broker, gateway, dashboard and a logged-in console: yields (page, broker url, browser)."""
    from playwright.async_api import async_playwright

    app = create_app(log, accounts=Accounts.load(None, ENV))
    async with embedded_broker() as broker, serving(app) as url, async_playwright() as pw:
        gateway = Gateway(log, broker, slug, tournament=tournament, client_id=f"gw-{slug}")
        task = asyncio.create_task(gateway.run())
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            await asyncio.wait_for(gateway.ready.wait(), 10)
            page = await login(browser, url, viewport)
            yield page, broker, browser, url
        finally:
            await browser.close()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


PUSHED: dict = {}  # page -> the frames its console websocket(s) received, in order


async def login(browser, url: str, viewport):
    page = await browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    frames = PUSHED[page] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    await page.goto(url + "/arbiter")
    await page.wait_for_selector("#login-name:focus")
    await page.fill("#login-name", LOGIN)
    await page.fill("#login-password", PASSWORD)
    await page.click("#login button[type=submit]")
    await page.wait_for_function("() => document.querySelector('#conn').textContent === 'live'")
    return page


@contextlib.asynccontextmanager
async def device(broker: str, slug: str):
    target = parse_mqtt_url(broker)
    async with aiomqtt.Client(target.host, target.port, identifier=f"dev-{slug}") as client:
        yield client
