"""The arbiter's console (docs/arbiter.md; issue: "A browser test logs in as an arbiter, receives an
alert and accepts a claim; a test shows a spectator cannot").

The game: FIDE Candidates 2024, round 1, board 2, Abasov - Nepomniachtchi
(../shared/data/chess/fide_candidates_2024_open.pgn, the file's second game): 67 plies ending in a
threefold repetition, drawn 1/2-1/2. Its moves go through the real gateway over an embedded broker,
as a hall board publishes them (docs/protocol.md), so the claim alert is the gateway's own
``draw_claimable`` entry. The expected claim (threefold, "now", and the plies where the position
stood) is computed from the game itself with python-chess (FIDE Laws 9.2.2).

``test_arbiter_accepts_a_threefold_claim`` (browser) logs in with the page's form, receives the alert
live, opens it, accepts the claim and checks the log: ``draw_claim_decided`` by "chief" and
``game_ended`` 1/2-1/2 threefold_repetition by "arbiter" (dashboard.arbiter.actions). It saves
tests/browser/arbiter-login.png, arbiter-alert.png (the open alert) and arbiter-resolved.png.

The ``test_spectator_*`` tests (no browser) show a spectator cannot: every arbiter route answers 401
and records nothing, /ws/arbiter closes with 1008, a wrong password is 401, and the spectators'
/api/games and /ws/live carry no alert and no action.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from pathlib import Path

import aiomqtt
import chess
import chess.pgn
import pytest
from browser_helpers import ARGS, CHROMIUM, ENV, LOGIN, PASSWORD, abasov_nepomniachtchi, candidates, wait_for
from eventually import eventually
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from dashboard.app import create_app
from dashboard.arbiter.auth import Accounts
from gateway import Gateway, embedded_broker
from services.protocol.mqtt_url import parse_mqtt_url
from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn
from replay_entries import game_entries
from venue.serve import serving

HERE = Path(__file__).resolve().parent
GAME_ID = "1-2"  # round 1, board 2 (round_from_pgn: "{round}-{board}", boards in file order)


def repetition_plies(game: chess.pgn.Game) -> list[int]:
    """The plies after which the final position stood (0 = the start): FIDE Laws 9.2.2's "same
    position" (same player to move, same castling and en passant rights)."""
    def key(b: chess.Board) -> str:  # placement, side to move, castling, en passant (if a capture is legal)
        return " ".join(b.fen().split()[:4])

    board = game.board()
    keys = [key(board)]
    for move in game.mainline_moves():
        board.push(move)
        keys.append(key(board))
    return [ply for ply, key in enumerate(keys) if key == keys[-1]]


def plies_of(claims: list[dict]) -> list[int]:
    return [p for c in claims if c["kind"] == "threefold" and c["by_move"] is None for p in c["evidence"]["plies"]]


def claim_now(e) -> bool:
    """A ``draw_claimable`` entry that lets the player to move claim a threefold repetition now."""
    return e.type == "draw_claimable" and e.data["game"] == GAME_ID and any(
        c["kind"] == "threefold" and c["by_move"] is None for c in e.data["claims"])


@pytest.mark.browser
async def test_arbiter_accepts_a_threefold_claim(shared_data):
    from playwright.async_api import async_playwright

    text = candidates(shared_data)
    game = abasov_nepomniachtchi(text)
    moves = [m.uci() for m in game.mainline_moves()]
    assert len(moves) == 67 and game.headers["Result"] == "1/2-1/2"
    slug = f"arb-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    await log.append("round_started", round_from_pgn(text, round="1"))
    app = create_app(log, accounts=Accounts.load(None, ENV))

    async with embedded_broker() as broker, serving(app) as url, async_playwright() as pw:
        gateway = Gateway(log, broker, slug, client_id=f"gw-{slug}")
        gw_task = asyncio.create_task(gateway.run())
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            await asyncio.wait_for(gateway.ready.wait(), 10)
            page = await browser.new_page(viewport={"width": 1440, "height": 900})
            await page.goto(url + "/arbiter")
            await page.wait_for_selector("#login-name:focus")
            await page.fill("#login-name", LOGIN)
            await page.fill("#login-password", PASSWORD)
            await page.screenshot(path=str(HERE / "arbiter-login.png"), full_page=True)
            await page.click("#login button[type=submit]")
            await page.wait_for_selector("#console:not([hidden])")
            await page.wait_for_function("() => document.querySelector('#conn').textContent === 'live'")
            assert await page.is_hidden("#login")
            assert LOGIN in await page.text_content("#who")
            assert await page.is_visible("#no-alerts")

            # Board 2's device publishes the 67 moves; the gateway writes the claim entries.
            target = parse_mqtt_url(broker)
            async with aiomqtt.Client(target.host, target.port, identifier=f"board-{slug}") as client:
                for seq, uci in enumerate(moves, start=1):
                    await client.publish(f"venue/{slug}/boards/2/move", json.dumps({"seq": seq, "move": uci}), qos=1)
                await wait_for(log, lambda e: e.type == "move_played" and e.data["ply"] == 67)
            [claim] = (await wait_for(log, claim_now))[-1:]
            assert claim.data["ply"] == 67
            assert plies_of(claim.data["claims"]) == repetition_plies(game)
            assert len(plies_of(claim.data["claims"])) >= 3

            # The alert arrives live; one click opens the board and the evidence.
            alert = f'.alert[data-id="{claim.seq}"]'
            await page.wait_for_selector(f"{alert} >> text=A draw can be claimed", timeout=10_000)
            assert await page.text_content(f"{alert} .title") == "A draw can be claimed"
            assert "Board 2" in await page.text_content(f"{alert} .meta")
            await page.click(alert)
            await page.wait_for_selector("#detail-board")
            await page.wait_for_function("() => document.querySelector('#detail-board').naturalWidth > 0")
            assert "ply=67" in await page.get_attribute("#detail-board", "src")
            # the fine box names the event's currency; a hall served without a tournament file has none
            # (docs/arbiter.md record_fine; a new user's EUR event read "Fine (USD)")
            assert await page.get_attribute("#fine", "placeholder") == "Fine (no currency: no tournament file registered)"
            # The claim "now" with the plies of its own evidence (the intended-move claim lists its own).
            now = '#detail .ev-claim[data-kind="threefold"][data-by-move=""]'
            assert "claimable now" in await page.text_content(now)
            shown = await page.eval_on_selector_all(f"{now} [data-ply]", "els => els.map(e => +e.dataset.ply)")
            assert shown == repetition_plies(game)
            # Labelled with the game's own moves: ply 55 is White's 28th move (28. Re4 in the PGN).
            sans = [n.san() for n in game.mainline()]
            await page.wait_for_function(f"() => document.querySelector('{now} [data-ply=\"{shown[0]}\"]')"
                                         f".textContent.endsWith({json.dumps(sans[shown[0] - 1])})")
            await page.click(f'{now} [data-ply="{shown[0]}"]')
            await page.wait_for_function(
                f"() => document.querySelector('#detail-board').src.endsWith('ply={shown[0]}')")
            await page.wait_for_function("() => document.querySelector('#detail-board').naturalWidth > 0")
            await page.wait_for_function("() => document.querySelector('#detail .status').textContent.includes('Abasov')")
            await page.screenshot(path=str(HERE / "arbiter-alert.png"), full_page=True)
            # On a small phone (320 CSS px wide: the narrowest width phones report) the status pill keeps its word
            # on one line: a new user saw "OPE/N" beside a long title.
            await page.set_viewport_size({"width": 320, "height": 700})
            lines = await page.eval_on_selector_all(
                "#detail .detail-head .pill", "els => els.map(e => { const r = document.createRange();"
                " r.selectNodeContents(e); return [e.textContent, r.getClientRects().length]; })")
            assert lines == [["open", 1]]
            await page.set_viewport_size({"width": 1440, "height": 900})

            # Accept the claim: the log records who decided and the game ends (FIDE Laws 9.2).
            await page.click("#detail button[data-act=accept_claim]")
            [decided] = await wait_for(log, lambda e: e.type == "draw_claim_decided")
            assert (decided.data["game"], decided.data["kind"], decided.data["accepted"], decided.data["by"],
                    decided.data["alert"]) == (GAME_ID, "threefold", True, LOGIN, claim.seq)
            [ended] = await wait_for(log, lambda e: e.type == "game_ended" and e.data["game"] == GAME_ID)
            assert (ended.data["result"], ended.data["termination"], ended.data["by"]) == (
                "1/2-1/2", "threefold_repetition", "arbiter")

            # The alert shows as resolved, by the arbiter who decided.
            await page.wait_for_selector(f"{alert}", state="detached")
            await page.wait_for_function("() => document.querySelector('#detail .status').textContent.includes('resolved')")
            assert LOGIN in await page.text_content("#detail .status")
            assert await page.text_content("#open-count") == "0"
            await page.check("#show-closed")
            await page.wait_for_selector(f"{alert}.closed")
            assert "resolved" in await page.text_content(f"{alert} .meta")
            assert "Draw claim accepted" in await page.text_content('#actions li[data-type="draw_claim_decided"]')
            await page.screenshot(path=str(HERE / "arbiter-resolved.png"), full_page=True)
        finally:
            await browser.close()
            gw_task.cancel()
            await asyncio.gather(gw_task, return_exceptions=True)
            await log.close()


# --- a spectator cannot ----------------------------------------------------------------------------


@pytest.fixture
def hall(shared_data):
    """A dashboard over a log holding round 1 and Abasov - Nepomniachtchi up to its repetition, with
    the ``draw_claimable`` the gateway writes there (gateway.hall: the move's claims as a list)."""
    text = candidates(shared_data)
    game = abasov_nepomniachtchi(text)
    log = open_log("memory://", f"spec-{uuid.uuid4().hex[:8]}")
    entries = [("round_started", round_from_pgn(text, round="1"), 1_700_000_000_000)]
    entries += game_entries(game, GAME_ID, "2", 1_700_000_001_000, end=False)
    last = entries[-2][1]  # the 67th move_played, then its clock press
    assert last["ply"] == 67
    entries.append(("draw_claimable", {"game": GAME_ID, "board": "2", "ply": 67, "claims": last["claimable"]},
                    entries[-1][2]))
    asyncio.run(log.append_many(entries))
    app = create_app(log, accounts=Accounts.load(None, ENV))
    with TestClient(app) as client:
        yield client, log


def count(log) -> int:
    return len(asyncio.run(log.read()))


def test_spectator_cannot_read_or_act(hall):
    client, log = hall
    before = count(log)
    assert client.get("/api/arbiter/alerts").status_code == 401
    assert client.get("/api/arbiter/me").status_code == 401
    for body in ({"action": "accept_claim", "game": GAME_ID, "kind": "threefold"},
                 {"action": "set_result", "game": GAME_ID, "result": "1-0"},
                 {"action": "note", "text": "a spectator's note"}):
        r = client.post("/api/arbiter/actions", json=body)
        assert r.status_code == 401 and "error" in r.json()
    # A token signed with another secret is no session either.
    forged = Accounts.load(None, {**ENV, "VENUE_SECRET": "another-secret"}).issue(LOGIN)
    r = client.post("/api/arbiter/actions", json={"action": "note", "text": "forged"},
                    headers={"Authorization": f"Bearer {forged}"})
    assert r.status_code == 401
    assert count(log) == before


def test_spectator_websocket_is_closed(hall):
    client, _ = hall
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect("/ws/arbiter") as ws:
            ws.receive_text()
    assert closed.value.code == 1008


def test_spectator_wrong_password_is_refused(hall):
    client, log = hall
    before = count(log)
    for login, password in ((LOGIN, "not-the-password"), ("spectator", PASSWORD), (LOGIN, "")):
        r = client.post("/api/arbiter/login", json={"login": login, "password": password})
        assert r.status_code == 401 and "token" not in r.json()
        assert "venue_arbiter" not in r.cookies
    assert client.get("/api/arbiter/alerts").status_code == 401
    assert count(log) == before


def keys(obj) -> set[str]:
    """Every key of every object in a JSON value."""
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in keys(v)}
    return set()


def test_spectators_feed_carries_no_alert_or_action(hall):
    client, log = hall
    # An arbiter is at work: the claim alert is open, then accepted with a note.
    arbiter = TestClient(client.app)
    assert arbiter.post("/api/arbiter/login", json={"login": LOGIN, "password": PASSWORD}).status_code == 200
    snap = arbiter.get("/api/arbiter/alerts").json()
    [alert] = [a for a in snap["alerts"] if a["kind"] == "draw_claimable"]
    note = "claim verified on the scoresheet"
    # A cookie session sends the console page's CSRF token, as the console does (docs/arbiter.md).
    [csrf] = re.findall(r'<meta name="csrf-token" content="([^"]+)"', arbiter.get("/arbiter").text)
    r = arbiter.post("/api/arbiter/actions", json={"action": "accept_claim", "game": GAME_ID, "kind": "threefold",
                                                   "alert": alert["id"], "note": note},
                     headers={"X-CSRFToken": csrf})
    assert r.status_code == 200
    assert [e["type"] for e in r.json()["entries"]] == ["draw_claim_decided", "game_ended"]
    # the result reaches the spectators' view
    eventually(lambda: client.get(f"/api/games/{GAME_ID}").json().get("result") == "1/2-1/2", 5)

    texts = [client.get("/api/games").text, client.get(f"/api/games/{GAME_ID}").text]
    with client.websocket_connect("/ws/live") as ws:
        texts.append(ws.receive_text())
    for text in texts:
        data = json.loads(text)
        assert not keys(data) & {"alerts", "closed", "actions", "alert", "resolution"}
        assert "draw_claim_decided" not in text and note not in text and LOGIN not in text
        assert "A draw can be claimed" not in text
    assert "1/2-1/2" in texts[0]  # what spectators may see: the result itself


@pytest.mark.browser
async def test_the_login_page_asks_nothing_it_is_refused(shared_data):
    """A new user's finding: /arbiter put a 401 in the browser's console before every login (it
    asked /api/arbiter/me without a session). The page now knows it was served without one; a
    reload with the session opens the console without the form."""
    from playwright.async_api import async_playwright

    slug = f"arb-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    await log.append("round_started", round_from_pgn(candidates(shared_data), round="1"))
    app = create_app(log, accounts=Accounts.load(None, ENV))
    async with serving(app) as url, async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = await browser.new_page()
            refused: list[str] = []
            page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            await page.goto(url + "/arbiter")
            await page.wait_for_selector("#login-name:focus")
            assert refused == []
            await page.fill("#login-name", LOGIN)
            await page.fill("#login-password", PASSWORD)
            await page.click("#login button[type=submit]")
            await page.wait_for_selector("#console:not([hidden])")
            await page.reload()
            await page.wait_for_selector("#console:not([hidden])")
            assert await page.is_hidden("#login") and LOGIN in await page.text_content("#who")
            assert refused == []
        finally:
            await browser.close()
    await log.close()
