"""The currency of a fine: the fines' own (``[regulations.fines] currency``), else the prizes'
(``[regulations.prizes] currency``), as docs/tournament-file.md and docs/arbiter.md (``record_fine``)
say; never one written in the code (DESIGN.md "Rules cited from the event's file": "no event's name
or currency is written in the code").

A new user's event with ``[regulations.prizes] currency = "EUR"`` and no ``[regulations.fines]`` had
its console's fine box labelled "Fine (USD)" (notes/fresh-user.md #8). The files: the shipped
events/us-championship-2013.toml (prizes in USD, no fines) with its currency written "EUR", and
events/us-championship-2023.toml (rule 1: "a fine of $500", ``currency = "USD"``).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from dashboard_helpers import accounts, caught_up, csrf_of, log_in
from starlette.testclient import TestClient

from dashboard.app import create_app
from services.arbiter_office.tournament_log import tournament_from_data, tournament_registered_data
from services.eventlog.memory import MemoryLog
from services.regulations.tournament_file import load_tournament

EVENTS = Path(__file__).resolve().parents[2] / "events"


def _file(name: str, *changes: tuple[str, str]) -> str:
    text = (EVENTS / name).read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    return text


EUR_PRIZES = ("us-championship-2013.toml", ('currency = "USD"', 'currency = "EUR"'))
FINE_WITHOUT_CURRENCY = ("us-championship-2023.toml", ('not_at_board_at_start = 500\ncurrency = "USD"',
                                                       'not_at_board_at_start = 500'),
                         ('withhold_after_forfeit = true\ncurrency = "USD"', 'withhold_after_forfeit = true\ncurrency = "EUR"'))


@pytest.mark.parametrize("name,changes,currency", [
    ("us-championship-2023.toml", (), "USD"),  # rule 1's "$500": the fines' own currency
    (EUR_PRIZES[0], EUR_PRIZES[1:], "EUR"),  # no [regulations.fines]: the prizes'
    (FINE_WITHOUT_CURRENCY[0], FINE_WITHOUT_CURRENCY[1:], "EUR"),  # a fine without one: the prizes'
])
def test_the_fine_currency_is_the_fines_else_the_prizes(name, changes, currency) -> None:
    t = load_tournament(_file(name, *changes), name)
    assert t.regulations.fine_currency() == currency
    # the log's registration carries it: what the dashboard and a restarted gateway read
    assert tournament_from_data(tournament_registered_data(t)).regulations.fine_currency() == currency


def _hall(text: str, name: str):
    t = load_tournament(text, name)
    log = MemoryLog("fine-currency")
    asyncio.run(log.append("tournament_registered", tournament_registered_data(t)))
    return log


def test_the_console_labels_and_records_a_fine_in_the_events_currency(monkeypatch) -> None:
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    log = _hall(_file(*EUR_PRIZES), EUR_PRIZES[0])
    with TestClient(create_app(log, accounts=accounts())) as client:
        caught_up(client, 1)
        page = client.get("/arbiter").text
        assert re.findall(r'data-fine-currency="([^"]*)"', page) == ["EUR"]
        headers = csrf_of(client)
        log_in(client)
        r = client.post("/api/arbiter/actions", json={"action": "record_fine", "player": 1, "amount": 50},
                        headers=headers)
        assert r.status_code == 200, r.text
        [fine] = r.json()["entries"]
        assert (fine["type"], fine["data"]["amount"], fine["data"]["currency"]) == ("fine_recorded", 50, "EUR")


def test_a_hall_without_a_tournament_assumes_no_currency(monkeypatch) -> None:
    # served by slug alone, nothing registered: no currency is assumed (no "USD" in the code)
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    with TestClient(create_app(MemoryLog("fine-none"), accounts=accounts())) as client:
        assert re.findall(r'data-fine-currency="([^"]*)"', client.get("/arbiter").text) == [""]
        headers = csrf_of(client)
        log_in(client)
        r = client.post("/api/arbiter/actions", json={"action": "record_fine", "player": "Someone", "amount": 50},
                        headers=headers)
        assert r.status_code == 200, r.text
        assert "currency" not in r.json()["entries"][0]["data"]
