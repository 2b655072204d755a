"""What the browser tests share: Debian's chromium and its flags, the console's test account, the
games they replay, and waiting for log entries.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from browser_helpers import CHROMIUM, ARGS``.
"""

from __future__ import annotations

import io

import chess.pgn
from live_helpers import wait_for  # noqa: F401 - the browser tests import it from here

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
# the arbiters' console account of test_arbiter, test_referee, test_hall_console, test_match_clock,
# test_console_security (VENUE_ARBITERS, docs/arbiter.md)
LOGIN, PASSWORD = "chief", "Laws-of-Chess-9.2"
ENV = {"VENUE_ARBITERS": f"{LOGIN}:{PASSWORD}", "VENUE_SECRET": "test-secret-arbiter-console"}


def candidates(shared_data) -> str:
    """../shared/data/chess/fide_candidates_2024_open.pgn, as text."""
    return (shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text()


def abasov_nepomniachtchi(text: str) -> chess.pgn.Game:
    """The file's second game, Abasov - Nepomniachtchi (round 1)."""
    stream = io.StringIO(text)
    chess.pgn.read_game(stream)
    game = chess.pgn.read_game(stream)
    assert (game.headers["White"], game.headers["Black"]) == ("Abasov, Nijat", "Nepomniachtchi, Ian")
    return game


async def referee_page(browser, url: str):
    """A console page signed in as the test's arbiter, its Referee panel shown."""
    page = await browser.new_page(viewport={"width": 1440, "height": 1000})
    await page.goto(url + "/arbiter")
    await page.wait_for_selector("#login-name:focus")
    await page.fill("#login-name", LOGIN)
    await page.fill("#login-password", PASSWORD)
    await page.click("#login button[type=submit]")
    await page.wait_for_selector("#referee:not([hidden])")
    return page
