"""The arbiters' hall (issue 14): the hall grid, the round's one "not at the board" alert, the claim
card with SAN evidence, and the phone layout. Everything runs for real: devices publish on an
embedded broker, the gateway writes the log, the dashboard serves the console to Debian's chromium.

- ``test_grid_shows_an_offline_board_within_2_s_and_checks_in_from_the_grid``: FIDE Candidates 2024
  round 1 (four boards, ../shared/data/chess/fide_candidates_2024_open.pgn). Each board's device says
  ``online``; board 3's then says ``offline`` (docs/protocol.md "Status"): its tile shows it within
  2 s. White of board 2 is checked in from the grid: ``player_arrived`` by the arbiter (FIDE Laws
  6.7.1 counts presence from it), and the tile no longer lists White as not arrived.
- ``test_one_start_alert_for_the_round_closes_as_players_arrive``: the US Championship 2023 preset
  (events/us-championship-2023.toml, 12 players, 6 boards), its round started a moment ago: rule 1
  ("Players not at their board at the beginning of each round may receive a fine of $500") gives
  12 ``player_not_at_board`` entries: one alert lists them; it shrinks as players are checked in or
  move, and closes itself when the last one arrives.
- ``test_claim_card_with_san_evidence_and_the_laws_time_after_a_rejection``: Abasov - Nepomniachtchi
  (the file's second game, 67 plies to a threefold repetition): the claim card names the intended
  move in SAN (python-chess, the oracle, reads the gateway's UCI in the position at ply 67) and shows
  the repeated positions as small boards; rejecting the claim proposes two minutes for the opponent
  (FIDE Laws 9.5.3: "the arbiter shall add two minutes to the opponent's remaining thinking time"),
  applied as ``clock_adjusted`` on confirmation, the clocks typed as h:mm:ss. On a phone (390 x 844)
  the selected alert's detail comes before the queue.
- ``test_a_proposal_at_a_press_that_may_be_the_replacements_waits_for_the_arbiter``: F05 (a) with the
  replacement's board message behind its press (FIDE Laws 7.5.1: the press may have completed the
  replacement, not the illegal move): the proposal shown at the press keeps its Apply once Black's
  reply puts it in doubt (``penalty_in_doubt``, an alert of its own); the arbiter withdraws it
  (``withdraw_penalty``), and the proposal is then shown withdrawn with the reason (issue 29).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
import uuid
from pathlib import Path

import chess
import pytest
from browser_helpers import LOGIN, abasov_nepomniachtchi, candidates
from hall_console import PUSHED, device, hall, login
from live_helpers import entries_matching, log_until

from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn
from services.regulations.tournament_file import load_tournament
from venue.tournament import register, start_round

pytestmark = pytest.mark.browser
HERE = Path(__file__).resolve().parent
EVENTS = Path(__file__).resolve().parents[2] / "events"

# An action posted from the signed-in page as its own script posts them (the session cookie and the
# page's CSRF token): the HTTP status of POST /api/arbiter/actions.
POST = """async (body) => (await fetch('/api/arbiter/actions', {method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json',
              'X-CSRFToken': document.querySelector('meta[name="csrf-token"]').content},
    body: JSON.stringify(body)})).status"""


def round_one(text: str) -> str:
    """The four games of round 1 of the Candidates 2024 (open) file."""
    import io

    import chess.pgn

    stream, games = io.StringIO(text), []
    while (g := chess.pgn.read_game(stream)) is not None:
        if g.headers.get("Round") == "1":
            games.append(str(g))
    return "\n\n".join(games) + "\n"


async def test_grid_shows_an_offline_board_within_2_s_and_checks_in_from_the_grid(shared_data):
    slug = f"hall-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    setup = round_from_pgn(round_one(candidates(shared_data)))
    await log.append("round_started", setup)
    async with hall(log, slug) as (page, broker, _, _url), device(broker, slug) as dev:
        await page.wait_for_function("() => document.querySelectorAll('#grid .tile').length === 4")
        for b in ("1", "2", "3", "4"):
            await dev.publish(f"venue/{slug}/boards/{b}/status", "online", qos=1, retain=True)
        await page.wait_for_function("() => document.querySelectorAll('#grid .dev.on').length === 4")
        # Board 3's device goes offline: the tile says so, pushed on the console's open websocket as
        # soon as the gateway records it (docs/arbiter.md), not found by a later re-read of the grid.
        seen = len(PUSHED[page])
        await dev.publish(f"venue/{slug}/boards/3/status", "offline", qos=1, retain=True)
        await page.wait_for_selector('#grid .tile[data-board="3"].offline .dev.off')
        pushed = [json.loads(f) for f in PUSHED[page][seen:]]
        assert {"board": "3", "device": "offline"} in [
            {"board": m["row"]["board"], "device": m["row"]["device"]} for m in pushed if m.get("type") == "board"]
        assert "1 offline" in await page.text_content("#hall-summary")
        # Board 1's clock started with two h:mm:ss times (the protocol's start, docs/protocol.md; the
        # 90-minute control's 1:30:00): both clocks and "running" read whole on the 168 px tile (a
        # new user's console cut it to "runni").
        await dev.publish(f"venue/{slug}/boards/1/clock", json.dumps(
            {"seq": 1, "event": "start", "white_ms": 5_400_000, "black_ms": 5_400_000, "running": "white"}), qos=1)
        tile1 = '#grid .tile[data-board="1"]'
        await page.wait_for_selector(f"{tile1} .t-state >> text=running", timeout=5000)
        cut = await page.eval_on_selector_all(
            f"{tile1} .t-clock > span",
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1"
            " || e.getBoundingClientRect().right > e.closest('.tile').getBoundingClientRect().right)"
            ".map(e => e.textContent)")
        assert cut == []
        await page.screenshot(path=str(HERE / "hall-grid.png"), full_page=True)
        # The filter keeps the boards with open problems: the offline one (the round has no start
        # time, so nobody is late yet).
        await page.check("#only-problems")
        shown = await page.eval_on_selector_all("#grid .tile", "els => els.map(e => e.dataset.board)")
        assert shown == ["3"]
        await page.uncheck("#only-problems")
        # Check in White of board 2 from the grid.
        game2 = setup["games"][1]
        tile2 = '#grid .tile[data-board="2"]'
        assert "Abasov" in await page.text_content(f'{tile2} .t-absent[data-side="white"]')
        await page.click(f'{tile2} button.checkin[data-side="white"]')
        [arrived] = await entries_matching(log, lambda e: e.type == "player_arrived")
        assert (arrived.data["game"], arrived.data["side"], arrived.data["by"]) == (game2["id"], "white", LOGIN)
        await page.wait_for_selector(f'{tile2} .t-absent[data-side="white"]', state="detached", timeout=2000)
        assert await page.is_visible(f'{tile2} .t-absent[data-side="black"]')
        # One click to the board: its picture, clocks and actions in the detail panel.
        await page.click(f'{tile2} .t-players')
        await page.wait_for_selector("#detail h3 >> text=Board 2")
        assert "Abasov" in await page.text_content("#detail .status")
    await log.close()


def us2023(slug: str, start_ms: int):
    t = load_tournament((EVENTS / "us-championship-2023.toml").read_text(), "us-championship-2023.toml")
    return dataclasses.replace(t, slug=slug, rounds=(dataclasses.replace(t.rounds[0], start_ms=start_ms), *t.rounds[1:]))


async def test_one_start_alert_for_the_round_closes_as_players_arrive():
    slug = f"start-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    t = us2023(slug, int(time.time() * 1000) - 1000)
    rs = await start_round(log, await register(log, t), 1)
    games = rs["games"]
    assert len(games) == 6
    async with hall(log, slug, tournament=t) as (page, broker, _, _url):
        alert = '.alert[data-kind="not_at_board"]'
        await page.wait_for_selector(f"{alert} >> text=12 not at the board", timeout=10_000)
        entries = await entries_matching(log, lambda e: e.type == "player_not_at_board")
        assert len(entries) == 12
        assert await page.eval_on_selector_all(".alert", "els => els.length") == 1  # not twelve
        assert "boards 1, 2, 3, 4, 5, 6" in await page.text_content(f"{alert} .words")
        await page.click(alert)
        await page.wait_for_function("() => document.querySelectorAll('#detail .presence').length === 12")
        first = games[0]
        line = await page.text_content(f'#detail .presence[data-board="{first["board"]}"][data-side="white"]')
        assert f"White, {first['white']}: not at the board since" in line  # "White, Player 03, not at the board"
        assert "fine 500 USD" in line  # US 2023 rule 1
        await page.screenshot(path=str(HERE / "hall-start-alert.png"), full_page=True)
        # Board 1's White moves (a move shows the player at the board); the rest are checked in.
        async with device(broker, slug) as dev:
            await dev.publish(f"venue/{slug}/boards/{first['board']}/move", json.dumps({"seq": 1, "move": "e2e4"}), qos=1)
        await page.wait_for_selector(f"{alert} >> text=11 not at the board", timeout=5000)
        for i, (g, side) in enumerate([(g, s) for g in games for s in ("white", "black")][1:]):
            item = f'#detail .presence[data-board="{g["board"]}"][data-side="{side}"] button.checkin'
            await page.click(item)
            if i < 10:
                await page.wait_for_selector(f"{alert} >> text={10 - i} not at the board", timeout=5000)
        # The last one in: the alert closes itself.
        await page.wait_for_selector(alert, state="detached", timeout=5000)
        assert await page.text_content("#open-count") == "0"
        arrived = await entries_matching(log, lambda e: e.type == "player_arrived")
        assert len(arrived) == 11
    await log.close()


async def test_every_absent_player_checked_in_with_one_click():
    """A new user's finding: twelve players seated at a round's start took twelve clicks. One
    click (and the browser's confirmation) checks in every player still shown absent: one
    ``player_arrived`` each, and the round's alert closes (US 2023 rule 1's default time, FIDE Laws
    6.7.1: only a player the arbiter sees at the board is checked in, hence the question)."""
    slug = f"start-all-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    t = us2023(slug, int(time.time() * 1000) - 1000)
    rs = await start_round(log, await register(log, t), 1)
    assert len(rs["games"]) == 6
    async with hall(log, slug, tournament=t) as (page, _broker, _, _url):
        alert = '.alert[data-kind="not_at_board"]'
        await page.wait_for_selector(f"{alert} >> text=12 not at the board", timeout=10_000)
        await page.click(alert)
        questions: list[str] = []

        async def answer(dialog) -> None:
            questions.append(dialog.message)
            await dialog.accept()

        page.on("dialog", answer)
        await page.click("#detail button.checkin-all >> text=Check in all 12 still absent")
        await page.wait_for_selector(alert, state="detached", timeout=10_000)
        assert questions == ["Check in the 12 players still shown absent? Only if you see each at the board "
                             "(FIDE Laws 6.7.1)."]
        arrived = await entries_matching(log, lambda e: e.type == "player_arrived")
        assert sorted((e.data["game"], e.data["side"]) for e in arrived) == sorted(
            (g["id"], side) for g in rs["games"] for side in ("white", "black"))
        assert all(e.data["by"] == LOGIN for e in arrived)
    await log.close()


async def test_a_default_overruled_from_the_alert_checks_the_player_in_and_the_game_goes_on():
    # FIDE Laws 6.7.1: "Any player who arrives at the chessboard after the default time shall lose the
    # game unless the arbiter decides otherwise"; US 2023 rule 1: "Players more than 30 (thirty) minutes
    # late ... shall forfeit". The round started 31 minutes ago and nobody was seen: every game 0-0 by
    # default. The arbiter sees both players of board 1 at the board and lets the game go on, one line
    # each; before, the button only reopened the game and the regulations defaulted it again at once
    # (a new user's run: "Let the game go on" had no effect).
    slug = f"overrule-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    t = us2023(slug, int(time.time() * 1000) - 31 * 60_000)
    first = (await start_round(log, await register(log, t), 1))["games"][0]
    game = first["id"]
    async with hall(log, slug, tournament=t) as (page, broker, _, _url):
        await entries_matching(log, lambda e: e.type == "game_ended" and e.data["game"] == game)
        await page.click('.alert[data-kind="not_at_board"]')
        for side in ("white", "black"):
            if side == "black":  # Black's button once Black is defaulted again (before, it was the first default's)
                await log_until(log, lambda es: sum(e.type == "game_ended" and e.data["game"] == game
                                                    for e in es) == 2)
            button = f'#detail .presence[data-board="{first["board"]}"][data-side="{side}"] button.overrule'
            # found and clicked in one step, as it is then (the alert's detail is drawn again as each
            # entry arrives: CI saw it redrawn between Playwright's wait for it and its click)
            await page.wait_for_function("sel => { const b = document.querySelector(sel); if (!b) return false; "
                                         "b.click(); return true; }", arg=button)
            await entries_matching(log, lambda e, s=side: e.type == "player_arrived" and e.data["side"] == s)
        decided = await log_until(log, lambda es: sum(e.type == "arbiter_decision" for e in es) >= 2)
        assert [e.data["result"] for e in decided if e.type == "arbiter_decision"] == ["*", "*"]
        # White in, the game reopened: Black, still not seen, defaulted again (1-0); then Black in: it goes on
        ends = [e.data["result"] for e in await log.read() if e.type == "game_ended" and e.data["game"] == game]
        assert ends == ["0-0", "1-0"]
        await asyncio.sleep(1.5)  # waiting for something not to happen: a third default (the timer answers at once)
        assert [e.data["result"] for e in await log.read() if e.type == "game_ended" and e.data["game"] == game] == ends
        games = await page.evaluate(f"() => fetch('/api/games/{game}').then(r => r.json())")
        assert games["result"] == "*"
    await log.close()


async def test_claim_card_with_san_evidence_and_the_laws_time_after_a_rejection(shared_data):
    text = candidates(shared_data)
    game = abasov_nepomniachtchi(text)
    moves = [m.uci() for m in game.mainline_moves()]
    slug = f"claim-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    await log.append("round_started", round_from_pgn(text, round="1"))
    async with hall(log, slug) as (page, broker, browser, url), device(broker, slug) as dev:
        topic = f"venue/{slug}/boards/2"
        for seq, uci in enumerate(moves, start=1):
            await dev.publish(f"{topic}/move", json.dumps({"seq": seq, "move": uci}), qos=1)
        # the clock as it stands (set on the device): White 1:00:00, Black 0:50:00, stopped
        await dev.publish(f"{topic}/clock", json.dumps({"seq": 1, "event": "set", "white_ms": 3_600_000,
                                                         "black_ms": 3_000_000, "running": None}), qos=1)
        claims = await entries_matching(log, lambda e: e.type == "draw_claimable" and e.data["ply"] == 67)
        claim = claims[-1]
        intended = [c for c in claim.data["claims"] if c["by_move"]]
        assert intended, claim.data
        board = game.board()
        for m in moves:
            board.push_uci(m)
        san = board.san(chess.Move.from_uci(intended[0]["by_move"]))  # python-chess as the oracle
        await page.wait_for_selector(f'.alert[data-id="{claim.seq}"]', timeout=10_000)
        assert "Black, Ian Nepomniachtchi, may claim a draw" in await page.text_content(f'.alert[data-id="{claim.seq}"] .words')
        await page.click(f'.alert[data-id="{claim.seq}"]')
        card = f'#detail .ev-claim[data-by-move="{intended[0]["by_move"]}"]'
        await page.wait_for_selector(f"{card} .san")
        assert (await page.text_content(f"{card} .san")).endswith(san)
        assert (await page.text_content(f"{card} .san")).startswith("34\u2026")  # Black's 34th move
        minis = await page.eval_on_selector_all(f"{card} button.mini", "els => els.map(e => +e.dataset.ply)")
        assert minis == intended[0]["evidence"]["plies"]
        now = '#detail .ev-claim[data-by-move=""]'
        await page.wait_for_function(f"() => [...document.querySelectorAll('{now} button.mini img')].every(i => i.naturalWidth > 0)")
        assert await page.is_visible(f"{now} button[data-act=reject_claim]")  # the card carries the decision
        await page.wait_for_function("() => document.querySelector('#wclock') && document.querySelector('#wclock').value === '1:00:00'")
        await page.screenshot(path=str(HERE / "hall-claim-card.png"), full_page=True)

        # A phone: the detail of the selected alert comes before the queue.
        phone = await login(browser, url, (390, 844))
        await phone.wait_for_selector(f'.alert[data-id="{claim.seq}"]')
        await phone.click(f'.alert[data-id="{claim.seq}"]')
        await phone.wait_for_selector("#detail .ev-claim")
        top = await phone.evaluate("() => [document.querySelector('#detail').getBoundingClientRect().top, "
                                   "document.querySelector('.queue').getBoundingClientRect().top, window.innerHeight]")
        assert top[0] < top[1] and 0 <= top[0] < top[2], top
        await phone.screenshot(path=str(HERE / "hall-phone.png"))
        await phone.close()

        # Reject the claim the record shows correct: refused, the reason shown, nothing recorded
        # (FIDE Laws 9.5.2: "If the claim is found to be correct, the game is immediately drawn"; issue 29).
        before = len(await log.read())
        await page.click(f"{now} button[data-act=reject_claim]")
        await page.wait_for_selector(".toast >> text=the threefold claim is correct")
        assert len(await log.read()) == before
        # An incorrect claim rejected (Black's fifty-move claim at ply 67, 9.3.2: not 100 plies without a
        # pawn move or capture): the Laws' two minutes for White (9.5.3) proposed, applied on confirmation.
        assert await page.evaluate(POST, {"action": "reject_claim", "game": "1-2", "kind": "fifty_moves"}) == 200
        [penalty] = await entries_matching(log, lambda e: e.type == "penalty_proposed")
        await page.click(f'.alert[data-id="{penalty.seq}"]')
        await page.wait_for_selector("#detail .proposal >> text=9.5.3")
        assert await page.input_value("#penalty-add") == "2:00"
        assert await page.text_content("#penalty-then") == "1:02:00"
        await page.click("#detail .proposal button[data-propose=time]")
        [adjusted] = await entries_matching(log, lambda e: e.type == "clock_adjusted")
        assert (adjusted.data["white_ms"], adjusted.data["black_ms"], adjusted.data["by"]) == (3_720_000, 3_000_000, LOGIN)
        # Clocks typed as h:mm:ss, once the console shows the clock the penalty set (as a user types
        # into what they see: typed before, the live update would write 1:02:00 over it).
        await page.wait_for_function("() => document.querySelector('#wclock').value === '1:02:00'")
        await page.fill("#wclock", "1:05:30")
        await page.fill("#bclock", "0:49:59")
        await page.click("#detail button[data-act=adjust_clock]")
        adjusted = await entries_matching(log, lambda e: e.type == "clock_adjusted" and e.data["white_ms"] == 3_930_000)
        assert adjusted[-1].data["black_ms"] == 2_999_000
    await log.close()


async def test_a_confirmed_illegal_move_gets_the_laws_time_for_the_opponent():
    """Field case F05 (docs/protocol.md): after 1.e4 e5, White's king jumps e1-e3. The alert says who
    and what in words; "Illegal move confirmed" proposes FIDE Laws 7.5.5's two minutes for Black,
    applied as ``clock_adjusted`` on confirmation."""
    slug = f"illegal-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    await log.append("round_started", round_from_pgn('[Round "1"]\n[White "Player 03"]\n[Black "Player 04"]\n\n*\n'))
    async with hall(log, slug) as (page, broker, _, _url), device(broker, slug) as dev:
        topic = f"venue/{slug}/boards/1"
        await dev.publish(f"{topic}/clock", json.dumps({"seq": 1, "event": "start", "white_ms": 5_400_000,
                                                         "black_ms": 5_400_000, "running": "white"}), qos=1)
        for seq, uci in enumerate(("e2e4", "e7e5", "e1e3"), start=1):
            await dev.publish(f"{topic}/move", json.dumps({"seq": seq, "move": uci}), qos=1)
        await dev.publish(f"{topic}/clock", json.dumps({"seq": 2, "event": "pause", "white_ms": 5_300_000,
                                                         "black_ms": 5_350_000, "running": None}), qos=1)
        [rejected] = await entries_matching(log, lambda e: e.type == "move_rejected")
        alert = f'.alert[data-id="{rejected.seq}"]'
        await page.wait_for_selector(alert, timeout=10_000)
        assert "White, Player 03, illegal move Ke1-e3" in await page.text_content(f"{alert} .words")
        await page.wait_for_selector('#grid .tile[data-board="1"] .held')
        await entries_matching(log, lambda e: e.type == "clock_paused")
        await page.click(alert)
        await page.click("#detail button[data-act=propose_illegal]")
        await page.wait_for_selector("#detail .proposal >> text=7.5.5")
        await page.wait_for_function("() => document.querySelector('#penalty-then') && "
                                     "document.querySelector('#penalty-then').textContent === '1:31:10'")  # 1:29:10 + 2:00
        await page.click("#detail .proposal button[data-propose=time]")
        [adjusted] = await entries_matching(log, lambda e: e.type == "clock_adjusted")
        assert (adjusted.data["white_ms"], adjusted.data["black_ms"]) == (5_300_000, 5_470_000)
    await log.close()


async def test_a_proposal_at_a_press_that_may_be_the_replacements_waits_for_the_arbiter():
    """F05 (a) in standard play (docs/protocol.md): 1.e4 e5, White's king jumps e1-e3, the clock is
    pressed, then the replacement 2.Ke2 reaches the gateway (its message late), then Black's reply
    2...Nc6: the press may have been the replacement's (``services.state.fold_penalties``). The
    console's proposal (two minutes for Black, FIDE Laws 7.5.5) keeps its Apply, and the doubt is an
    alert of its own; the arbiter withdraws the proposal (POST withdraw_penalty, as the console's
    page does), and it is shown withdrawn with nothing to apply, the withdrawal an alert of its own."""
    from services.events import PenaltyInDoubt
    from services.views.alerts import ALERTING, WITHDRAWN_TITLES

    slug = f"withdrawn-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", slug)
    await log.append("round_started", round_from_pgn('[Round "1"]\n[White "Player 03"]\n[Black "Player 04"]\n\n*\n'))
    async with hall(log, slug) as (page, broker, _, _url), device(broker, slug) as dev:
        topic = f"venue/{slug}/boards/1"
        seqs = {"board": 0, "clock": 0}

        async def send(kind: str, body: dict, until=None) -> list:
            """Publish one device message and wait for the gateway's entries (``until``, else the
            entry made from it): each in its place, whatever the two devices' links do."""
            device = "clock" if kind == "clock" else "board"
            seqs[device] += 1
            seq = seqs[device]
            await dev.publish(f"{topic}/{kind}", json.dumps({"seq": seq, **body}), qos=1)
            return await entries_matching(log, until or (lambda e: (e.data.get("device"), e.data.get("seq")) == (device, seq)))

        def clock(event: str, white_ms: int, black_ms: int, running: str) -> dict:
            return {"event": event, "white_ms": white_ms, "black_ms": black_ms, "running": running}

        await send("clock", clock("start", 5_400_000, 5_400_000, "white"))
        await send("move", {"move": "e2e4"})
        await send("clock", clock("press", 5_399_000, 5_400_000, "black"))
        await send("move", {"move": "e7e5"})
        await send("clock", clock("press", 5_399_000, 5_399_000, "white"))
        await send("move", {"move": "e1e3"})
        [proposed] = await send("clock", clock("press", 5_397_000, 5_399_000, "black"),
                                lambda e: e.type == "penalty_proposed")
        alert = f'.alert[data-id="{proposed.seq}"]'
        await page.wait_for_selector(alert, timeout=10_000)
        await page.click(alert)
        await page.wait_for_selector("#detail .proposal button[data-propose=time]")
        await send("move", {"move": "e1e2"})
        [doubt] = await send("move", {"move": "b8c6"}, lambda e: e.type == "penalty_in_doubt")
        notice = f'.alert[data-id="{doubt.seq}"]'
        await page.wait_for_selector(notice)
        assert await page.text_content(f"{notice} .title") == ALERTING[PenaltyInDoubt.TYPE][1]
        assert await page.query_selector(alert) is not None  # still open: the arbiter decides
        assert await page.query_selector("#detail .proposal button[data-propose=time]") is not None
        assert await page.evaluate(POST, {"action": "withdraw_penalty", "game": "1-1", "side": "white"}) == 200
        [withdrawn] = await entries_matching(log, lambda e: e.type == "penalty_withdrawn")
        assert (withdrawn.data["ground"], withdrawn.data["by"]) == ("arbiter", LOGIN)
        await page.wait_for_selector("#detail .pill.st-withdrawn")
        assert await page.query_selector("#detail .proposal") is None  # nothing left to apply
        assert (await page.text_content("#detail .sentence")).startswith(
            "Withdrawn: the arbiter found no illegal move was completed")
        notice = f'.alert[data-id="{withdrawn.seq}"]'
        await page.wait_for_selector(notice)
        assert await page.text_content(f"{notice} .title") == WITHDRAWN_TITLES["arbiter"]
        assert await page.query_selector(alert) is None  # closed: the queue lists open alerts
    await log.close()
