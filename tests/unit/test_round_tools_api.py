"""The arbiter's round tools through the dashboard (docs/arbiter.md "Round tools"): withdraw_player,
request_bye, cancel_bye, enter_player, forbid_pair, set_acceleration posted as the console posts
them (a logged-in arbiter's cookie, the page's CSRF token, JSON), the entries they record, what they
refuse, and the next round paired from the log with them (venue.tournament.pair_and_log, what
``venue serve --round N`` runs).

The tournament: the shared fixture dutch-001001 (52 players, 6 of 8 rounds played) written as log
entries (tests/trf_log.py). The actions are those of tests/data/pairing/actions/all-actions-001001:
4 and 11 withdraw, 10 asks a half-point bye, 1 and 2 must not meet, "Late Player" (1800) enters; the
expected round 7 is bbpPairings' pairing of that file (all-actions-001001.pairs), and the TRF the
dashboard exports afterwards shows the fixture's entries for those players.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from dashboard_helpers import accounts, csrf_of, log_in, recorded, tools_when
from trf_log import pairs_of, read_pairs, trf_entries

from dashboard.app import create_app
from services.eventlog.memory import MemoryLog
from services.tournament.trf import parse_trf
from services.views.standings import TournamentView
from venue.tournament import pair_and_log

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "pairing" / "actions" / "all-actions-001001"


@pytest.fixture
def swiss(shared_data, monkeypatch):
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    [base] = (shared_data / "pairing" / "dutch").glob("dutch-001001-*.trf")
    log = MemoryLog("swiss-001001")
    asyncio.run(log.append_many([(t, d, None) for t, d in trf_entries(parse_trf(base.read_text()))]))
    with TestClient(create_app(log, accounts=accounts())) as client:
        headers = csrf_of(client)
        log_in(client)
        yield client, log, headers


def act(client: TestClient, headers: dict, **body):
    return client.post("/api/arbiter/actions", json=body, headers=headers)


def test_round_tools_reach_the_next_pairing(swiss) -> None:
    client, log, headers = swiss
    tools = tools_when(client, lambda d: d["latest_round"] == 6)
    assert (tools["next_round"], tools["rounds_total"], tools["swiss"], len(tools["players"])) == (7, 8, True, 52)
    assert tools["absent_next"] == []

    recorded_types = []
    for body in ({"action": "withdraw_player", "player": 4}, {"action": "withdraw_player", "player": "11"},
                 {"action": "request_bye", "player": 10, "code": "H", "note": "asked by e-mail"},
                 {"action": "forbid_pair", "players": [2, 1]},
                 {"action": "enter_player", "name": "Late Player", "rating": 1800}):
        r = act(client, headers, **body)
        assert r.status_code == 200, r.text
        [entry] = r.json()["entries"]
        assert entry["data"]["by"] == "chief"
        recorded_types.append(entry["type"])
    assert recorded_types == ["player_withdrew", "player_withdrew", "bye_requested", "pairing_forbidden",
                              "player_entered"]
    tools = tools_when(client, lambda d: len(d["players"]) == 53)
    assert tools["absent_next"] == [{"start_no": 4, "name": "Test0004 Player0004", "code": "Z"},
                                    {"start_no": 10, "name": "Test0010 Player0010", "code": "H"},
                                    {"start_no": 11, "name": "Test0011 Player0011", "code": "Z"}]
    assert tools["late_entries"] == [{"start_no": 53, "name": "Late Player", "first_round": 7, "missed": "Z"}]
    assert tools["forbidden"] == [[1, 2]]

    view = TournamentView()
    for entry in asyncio.run(log.read(0)):
        view.apply(entry)
    data = asyncio.run(pair_and_log(log, view, 7))
    assert pairs_of(data) == read_pairs(FIXTURE.with_suffix(".pairs").read_text())
    assert [b for b in data["byes"] if isinstance(b, dict)] == [
        {"start_no": 4, "code": "Z"}, {"start_no": 10, "code": "H"}, {"start_no": 11, "code": "Z"}]

    fixture = parse_trf(FIXTURE.with_suffix(".trf").read_text())
    tools_when(client, lambda d: d["latest_round"] == 7)
    exported = parse_trf(client.get("/api/tournament.trf").text)
    for sno in (4, 10, 11):
        assert exported.players[sno].game(7).result == fixture.players[sno].game(7).result
    assert [g.result for g in exported.players[53].games[:6]] == [g.result for g in fixture.players[53].games]


def test_round_tools_refuse_what_the_pairing_cannot_take(swiss) -> None:
    client, log, headers = swiss
    tools_when(client, lambda d: d["latest_round"] == 6)
    assert act(client, headers, action="request_bye", player=20, code="F").status_code == 200
    tools_when(client, lambda d: d["absent_next"])
    refusals = {
        "paired already": {"action": "request_bye", "player": 5, "round": 6},
        "cancel it first": {"action": "request_bye", "player": 20, "code": "H"},
        "H (half point), F (full point) or Z": {"action": "request_bye", "player": 5, "code": "X"},
        "no player with start number 99": {"action": "withdraw_player", "player": 99},
        "past the last round": {"action": "request_bye", "player": 5, "round": 9},
        "a player of this tournament already": {"action": "enter_player", "name": "Test0001 Player0001"},
        "start_no: 3 is taken": {"action": "enter_player", "name": "Someone", "start_no": 3},
        "two or more different players": {"action": "forbid_pair", "players": [1, 1]},
        "before round 1 is paired": {"action": "set_acceleration", "method": "baku"},
        "no requested bye for round 7": {"action": "cancel_bye", "player": 5},
    }
    before = recorded(log)
    for words, body in refusals.items():
        r = act(client, headers, **body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    assert recorded(log) == before
    # the console's CSRF token and a login are required, as for every action (docs/arbiter.md "Security")
    assert client.post("/api/arbiter/actions", json={"action": "withdraw_player", "player": 5}).status_code == 403
    r = act(client, headers, action="cancel_bye", player=20)
    assert r.status_code == 200 and r.json()["entries"][0]["type"] == "bye_request_cancelled"
    assert tools_when(client, lambda d: not d["absent_next"])["absent_next"] == []
    client.post("/api/arbiter/logout", headers=headers)
    assert client.get("/api/arbiter/round-tools").status_code == 401
    assert act(client, headers, action="withdraw_player", player=5).status_code == 401


def test_a_round_robin_takes_withdrawals_only() -> None:
    """US Championship 2023 (events/us-championship-2023.toml, a round robin): rule 1 "Players who
    withdraw ... may not receive any prize money" needs the withdrawal on record; requested byes,
    late entries and forbidden pairs belong to a Swiss (FIDE C.04), not to Berger tables."""
    from dashboard.arbiter.actions import ActionError, build
    from services.arbiter_office.tournament_log import tournament_registered_data
    from services.regulations.tournament_file import load_tournament
    from services.state import HallState

    path = Path(__file__).resolve().parents[2] / "events" / "us-championship-2023.toml"
    state = HallState()
    state.fold("tournament_registered", tournament_registered_data(load_tournament(path.read_text(), str(path))))
    [(kind, data)] = build("withdraw_player", {"player": 3}, "chief", {}, state)
    assert (kind, data["start_no"], data["from_round"], data["by"]) == ("player_withdrew", 3, 1, "chief")
    for action, body in (("request_bye", {"player": 3}), ("enter_player", {"name": "X"}),
                         ("forbid_pair", {"players": [1, 2]})):
        with pytest.raises(ActionError, match="for a Swiss"):
            build(action, body, "chief", {}, state)
