"""Serving a dashboard for the browser tests: ``serve(app)`` runs it under uvicorn on a free port of
127.0.0.1 (``async with serve(create_app(log)) as url``), and the chromium Playwright drives
(Debian's /usr/bin/chromium); ``dashboard_page(log, viewport)`` both, with one page open;
``arbiter_console(browser, url, login, password)`` a page signed in to the arbiter's console."""

from __future__ import annotations

import asyncio
import contextlib
import socket

import uvicorn
from browser_helpers import ARGS, CHROMIUM
from eventually import eventually_async
from playwright.async_api import async_playwright

from dashboard.app import create_app



@contextlib.asynccontextmanager
async def serve(app):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    try:
        await eventually_async(lambda: server.started, 30)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


@contextlib.asynccontextmanager
async def dashboard_page(log, viewport: dict):
    """``(url, page)``: the dashboard of ``log`` served (``serve``), and a page of ``viewport``
    (``{"width", "height"}`` in px) open in chromium; the browser is closed on exit."""
    async with serve(create_app(log)) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield url, await browser.new_page(viewport=viewport)
        finally:
            await browser.close()


async def arbiter_console(browser, url: str, login: str, password: str, viewport: tuple[int, int] = (1440, 900)):
    """A page of ``browser`` (``(width, height)`` px) signed in to ``url``'s arbiter's console with
    the login form as an arbiter types it, the console shown."""
    page = await browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    await page.goto(url + "/arbiter")
    await page.wait_for_selector("#login-name:focus")
    await page.fill("#login-name", login)
    await page.fill("#login-password", password)
    await page.click("#login button[type=submit]")
    await page.wait_for_selector("#console:not([hidden])")
    return page
