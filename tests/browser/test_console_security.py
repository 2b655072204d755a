"""The arbiter's console in a real browser against issue 11's "Arbiter security" findings
(docs/arbiter.md "Security"), with Debian's chromium:

- ``test_a_page_on_another_port_cannot_act_or_listen``: the attack the issue reports ("a page on
  another port of the same host recorded a result as chief"). The arbiter logs in; a page served
  from another port of 127.0.0.1 (cookies do not tell ports apart, so chromium sends the arbiter's
  cookie along) posts a ``text/plain`` result and opens ``/ws/arbiter``. A recorder in front of the
  dashboard shows both requests arrived with the session cookie and the foreign ``Origin``; both
  are refused (403) and the log records nothing.
- ``test_the_console_runs_under_its_csp_and_logout_closes_every_tab``: the console, the hall and a
  game page raise no CSP violation (no inline script or style is needed); a board picture opened by
  itself still colours its pieces; logging out in one tab closes the console open in another, which
  then shows the login form; the sixth wrong password shows the wait the server asks for.

Game data: FIDE Candidates 2024 round 1 (../shared/data/chess/fide_candidates_2024_open.pgn), as
test_arbiter. The limit (five failures per login and address) is dashboard.arbiter.throttle's
documented default.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
from browser_helpers import ARGS, CHROMIUM, ENV, LOGIN, PASSWORD, candidates

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn
from venue.serve import serving

GAME_ID = "1-1"


class Recorder:
    """ASGI middleware noting, for each request, its path, Origin, whether it carried the session
    cookie, and the status answered (or the websocket's close)."""

    def __init__(self, app):
        self.app = app
        self.seen: list[dict] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        note = {"path": scope["path"], "type": scope["type"], "origin": headers.get("origin"),
                "session_cookie": "venue_arbiter=" in headers.get("cookie", ""), "answer": None}
        self.seen.append(note)

        async def noting(message):
            if message["type"] == "http.response.start":
                note["answer"] = message["status"]
            elif message["type"] in ("websocket.close", "websocket.accept"):
                note["answer"] = message["type"]
            await send(message)

        await self.app(scope, receive, noting)


def attacker_page(dashboard: str) -> Starlette:
    """The other port's page: a forged result, and a try at the arbiters' live feed."""
    ws_url = dashboard.replace("http://", "ws://") + "/ws/arbiter"
    page = f"""<!doctype html><title>elsewhere</title><script>
window.outcome = {{ post: null, ws: [] }};
fetch("{dashboard}/api/arbiter/actions", {{ method: "POST", mode: "no-cors", credentials: "include",
  headers: {{ "Content-Type": "text/plain" }},
  body: JSON.stringify({{ action: "set_result", game: "{GAME_ID}", result: "0-1" }}) }})
  .then(() => window.outcome.post = "sent", (e) => window.outcome.post = "error " + e);
const ws = new WebSocket("{ws_url}");
ws.onopen = () => window.outcome.ws.push("open");
ws.onmessage = (ev) => window.outcome.ws.push("message " + ev.data.slice(0, 40));
ws.onclose = (ev) => window.outcome.ws.push("close " + ev.code);
</script>"""

    async def home(request):
        return HTMLResponse(page)

    return Starlette(routes=[Route("/", home)])


async def log_in(page, url: str, password: str = PASSWORD) -> None:
    await page.goto(url + "/arbiter")
    await page.wait_for_selector("#login-name:focus")
    await page.fill("#login-name", LOGIN)
    await page.fill("#login-password", password)
    await page.click("#login button[type=submit]")


@pytest.fixture
async def dashboard(shared_data):
    log = open_log("memory://", f"sec-{uuid.uuid4().hex[:8]}")
    await log.append("round_started", round_from_pgn(candidates(shared_data), round="1"))
    recorder = Recorder(create_app(log, accounts=Accounts.load(None, ENV)))
    async with serving(recorder) as url:
        yield url, log, recorder
    await log.close()


@pytest.mark.browser
async def test_a_page_on_another_port_cannot_act_or_listen(dashboard):
    from playwright.async_api import async_playwright

    url, log, recorder = dashboard
    async with serving(attacker_page(url)) as elsewhere, async_playwright() as pw:
        assert elsewhere.split(":")[:2] == url.split(":")[:2] and elsewhere != url  # same host, other port
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = await browser.new_context()
            console = await context.new_page()
            await log_in(console, url)
            await console.wait_for_function("() => document.querySelector('#conn').textContent === 'live'")
            before = await log.last_seq()

            page = await context.new_page()
            await page.goto(elsewhere + "/")
            await page.wait_for_function("() => window.outcome.post !== null && window.outcome.ws.length > 0")
            await asyncio.sleep(0.5)  # anything the forged POST could have appended would be there
            assert await log.last_seq() == before
            outcome = await page.evaluate("window.outcome")
            assert outcome["ws"][0].startswith("close"), outcome
        finally:
            await browser.close()
    foreign = [s for s in recorder.seen if s["origin"] == elsewhere]
    [post] = [s for s in foreign if s["path"] == "/api/arbiter/actions"]
    [ws] = [s for s in foreign if s["path"] == "/ws/arbiter"]
    assert post["session_cookie"] and post["answer"] == 403  # the cookie went along: the origin refused it
    assert ws["session_cookie"] and ws["answer"] == "websocket.close"


@pytest.mark.browser
async def test_the_console_runs_under_its_csp_and_logout_closes_every_tab(dashboard):
    from playwright.async_api import async_playwright

    url, log, _ = dashboard
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = await browser.new_context()
            violations: list[str] = []

            def watch(page):
                page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)

            first = await context.new_page()
            watch(first)
            await log_in(first, url)
            await first.wait_for_function("() => document.querySelector('#conn').textContent === 'live'")
            second = await context.new_page()
            watch(second)
            await second.goto(url + "/arbiter")  # the same session, from the cookie
            await second.wait_for_function("() => document.querySelector('#conn').textContent === 'live'")
            for path in ("/", f"/game/{GAME_ID}", "/standings"):
                spectator = await context.new_page()
                watch(spectator)
                await spectator.goto(url + path)
                await spectator.wait_for_load_state("networkidle")
                await spectator.close()

            # A board picture opened by itself: python-chess's style attributes colour the pieces.
            picture = await context.new_page()
            await picture.goto(url + f"/board/{GAME_ID}.svg")
            fill = await picture.evaluate("getComputedStyle(document.querySelector('#white-pawn path')).fill")
            assert fill == "rgb(255, 255, 255)"
            await picture.close()
            assert violations == []

            # Logging out in the first tab closes the second tab's console (its session is revoked).
            await first.click("#logout")
            await first.wait_for_selector("#login:not([hidden])")
            await second.wait_for_selector("#login:not([hidden])", timeout=10_000)
            assert await second.is_hidden("#console")
            assert (await context.request.get(url + "/api/arbiter/me")).status == 401

            # Five wrong passwords, then the sixth try shows the server's wait.
            await first.fill("#login-name", LOGIN)
            for _ in range(5):
                await first.fill("#login-password", "not-the-password")
                await first.click("#login button[type=submit]")
                await first.wait_for_function("() => document.querySelector('#login-error').textContent !== ''")
                assert await first.text_content("#login-error") == "wrong login or password"
                await first.evaluate("document.querySelector('#login-error').textContent = ''")
            await first.fill("#login-password", PASSWORD)
            await first.click("#login button[type=submit]")
            await first.wait_for_function("() => document.querySelector('#login-error').textContent !== ''")
            assert "too many failed logins: try again in 15 min" == await first.text_content("#login-error")
            assert violations == []
        finally:
            await browser.close()
