"""The console's result slip offers the games a board of the event can have (a new user's checkers
event offered "its Armageddon game"): the board's game always; its Armageddon game where the
regulations follow a drawn game with one (Norway Chess 2023: "If the classical game is drawn, an
Armageddon game will be played."); match games 1 and 2 where the rounds are two-game checkers matches
(11-Man National 2017 X.A.b: "The clocks shall be paused between games, but the clock times shall
not be reset prior to the second game."); every choice in a hall with no registered tournament, which may hold any.
The files: the shipped events/*.toml.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from dashboard_helpers import accounts, caught_up
from starlette.testclient import TestClient

from dashboard.app import create_app
from services.arbiter_office.tournament_log import tournament_registered_data
from services.eventlog.memory import MemoryLog
from services.regulations.tournament_file import load_tournament

EVENTS = Path(__file__).resolve().parents[2] / "events"
SLIP_PART = re.compile(r'<select name="part"[^>]*>(.*?)</select>', re.S)


def _choices(page: str) -> list[str]:
    [options] = SLIP_PART.findall(page)
    return re.findall(r'<option value="([^"]*)">', options)


@pytest.mark.parametrize("name,choices", [
    ("us-championship-2023.toml", [""]),
    ("norway-chess-2023.toml", ["", "armageddon"]),
    ("checkers-11-man-national-2017.toml", ["", "1", "2"]),
])
def test_the_slip_offers_the_games_the_events_boards_have(name, choices, monkeypatch) -> None:
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    t = load_tournament((EVENTS / name).read_text(), name)
    log = MemoryLog(f"slip-{name[:8]}")
    asyncio.run(log.append("tournament_registered", tournament_registered_data(t)))
    with TestClient(create_app(log, accounts=accounts())) as client:
        caught_up(client, 1)
        assert _choices(client.get("/arbiter").text) == choices


def test_a_hall_without_a_tournament_offers_every_choice(monkeypatch) -> None:
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    with TestClient(create_app(MemoryLog("slip-none"), accounts=accounts())) as client:
        assert _choices(client.get("/arbiter").text) == ["", "armageddon", "1", "2"]
