"""The round's life cycle, results and registration through POST /api/arbiter/actions, as the console
posts them (a logged-in arbiter's cookie, the page's CSRF token, JSON): ``import_players``,
``pair_round``, ``swap_pairing``, ``publish_pairing``, ``start_round``, ``enter_result``
(docs/arbiter.md "Actions", docs/pairing.md "The round's life cycle").

The tournament: events/us-championship-2013.toml (24 players, FIDE Dutch Swiss, 9 rounds) with two
players imported from a CSV (26 players: 13 boards); the expected pairings are those the same log
pairs with ``services.arbiter_office.round_draft`` (itself checked against bbpPairings' fixtures:
tests/unit/test_round_draft.py); forfeits as TRF16 writes them (``+``/``-``).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from dashboard_helpers import LOGIN, accounts, csrf_of, log_in, tools_when

from dashboard.app import create_app
from services.eventlog.memory import MemoryLog
from services.events import PairingSwapped
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament

EVENTS = Path(__file__).resolve().parents[2] / "events"
CSV = "Name,Rating,Title,FIDE ID,Fed\nTop Player,2850,GM,1503014,NOR\nLow Player,1000,,,\n"


@pytest.fixture
def hall(monkeypatch):
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    t = load_tournament((EVENTS / "us-championship-2013.toml").read_text(), "us-championship-2013.toml")
    log = MemoryLog("console-rounds")
    asyncio.run(log.append("tournament_registered", tournament_registered_data(t)))
    with TestClient(create_app(log, accounts=accounts())) as client:
        headers = csrf_of(client)
        log_in(client)
        yield client, log, headers


def act(client: TestClient, headers: dict, **body):
    return client.post("/api/arbiter/actions", json=body, headers=headers)


def test_import_pair_swap_publish_start_and_a_forfeit_slip(hall) -> None:
    client, log, headers = hall
    r = act(client, headers, action="import_players", filename="late.csv", text="Name,Rating\nBad,2x00\n")
    assert r.status_code == 400 and r.json()["error"] == ("nothing registered: late.csv:2: rating: '2x00' is not a "
                                                          "rating (0-3500, or empty)")
    # the browser reads a Windows-1252 file's "ü" (0xFC) as U+FFFD (File.text()): refused at its line
    # and column, as docs/tournament-log.md "Registration" says ("with its name and line")
    r = act(client, headers, action="import_players", filename="late.csv", text="Name\nM\ufffdller, Hans\n")
    assert r.status_code == 400 and r.json()["error"].startswith(
        "nothing registered: late.csv:2:2: a character that was not UTF-8 text (read as U+FFFD): save the file as UTF-8")
    r = act(client, headers, action="import_players", filename="late.csv", text=CSV)
    assert r.status_code == 200 and r.json()["entries"][0]["type"] == "players_registered"
    tools = tools_when(client, lambda d: len(d["players"]) == 26)
    assert tools["players"][0]["name"] == "Top Player" and tools["roster"]

    r = act(client, headers, action="pair_round", round=1)
    assert r.status_code == 200, r.text
    draft = tools_when(client, lambda d: d["draft"] is not None)["draft"]
    assert (draft["version"], len(draft["boards"]), draft["boards"][0]["white"]) == (1, 13, "Top Player")
    assert draft["boards"][0]["colour_rule"] == "E.5"

    a, b = draft["boards"][0]["black_no"], draft["boards"][1]["black_no"]
    r = act(client, headers, action="swap_pairing", round=1, version=1, players=[a, b])
    assert r.status_code == 400 and r.json()["error"].startswith("reason: is missing")
    r = act(client, headers, action="swap_pairing", round=1, version=0, players=[a, b], reason="x")
    assert r.status_code == 409 and "not 0: it changed since you saw it" in r.json()["error"]
    r = act(client, headers, action="swap_pairing", round=1, version=1, players=[a, b], reason="seen at the venue")
    assert r.status_code == 200, r.text
    draft = tools_when(client, lambda d: d["draft"]["version"] == 2)["draft"]
    assert (draft["boards"][0]["black_no"], draft["boards"][1]["black_no"]) == (b, a)

    assert act(client, headers, action="publish_pairing", round=1, version=1).status_code == 409
    r = act(client, headers, action="start_round", round=1, version=2)
    assert r.status_code == 400 and "it was never published" in r.json()["error"]
    assert act(client, headers, action="publish_pairing", round=1, version=2).status_code == 200
    tools_when(client, lambda d: d["draft"]["is_published"])
    # docs/arbiter.md "Actions": "A bad body is refused with 400 {"error"} naming the field ... and
    # records nothing"; a new user's start_ms past the calendar's end was an HTTP 500
    seq = asyncio.run(log.last_seq())
    for field, bad in (("start_ms", 99999999999999999999), ("start_ms", -1)):
        r = act(client, headers, action="start_round", round=1, version=2, **{field: bad})
        assert r.status_code == 400 and r.json()["error"].startswith(f"{field}: when it starts, ms since the epoch")
        assert r.json()["error"].endswith(f"not {bad}")
    assert asyncio.run(log.last_seq()) == seq
    # a start long past: the default time (FIDE Laws 6.7.1) would have run out before anyone was seen
    # (a new user's "2020-01-01" lost a whole round by default)
    r = act(client, headers, action="start_round", round=1, version=2, start_ms=int(time.time() * 1000) - 3_600_000)
    assert r.status_code == 400 and "the start is 60 min in the past" in r.json()["error"]
    r = act(client, headers, action="start_round", round=1, version=2)
    assert r.status_code == 200, r.text
    [started] = r.json()["entries"]
    assert started["type"] == "round_started" and started["data"]["draft_version"] == 2
    assert len(started["data"]["games"]) == 13
    # who started it is recorded, and listed with the recorded actions (a new user found it in neither)
    assert started["data"]["by"] == LOGIN
    deadline = time.monotonic() + 10
    while not [a for a in client.get("/api/arbiter/alerts").json()["actions"] if a["type"] == "round_started"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    [action] = [a for a in client.get("/api/arbiter/alerts").json()["actions"] if a["type"] == "round_started"]
    assert (action["round"], action["games"], action["by"]) == ("1", 13, LOGIN)

    deadline = time.monotonic() + 10
    while client.get("/api/rounds").json()["current"] != "1":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    # rule 1: "Players more than 30 (thirty) minutes late for a round shall forfeit that round" (FIDE
    # Laws 6.7.1): the slip's forfeit is judged as set_result's (a new user's +/- went through at once)
    r = act(client, headers, action="enter_result", round=1, board=2, result="+/-", how="forfeit")
    assert r.status_code == 400 and "the default time (30 min) runs until" in r.json()["error"], r.text
    started_ms = started["data"]["start_ms"]
    client.app.state.feed.clock = lambda: started_ms + 31 * 60_000  # the hall's clock 31 minutes on
    r = act(client, headers, action="enter_result", round=1, board=2, result="+/-")
    assert r.status_code == 200, r.text
    decision, ended = r.json()["entries"]
    assert (decision["type"], ended["data"]["forfeit"], ended["data"]["termination"]) == \
        ("arbiter_decision", True, "forfeit")
    r = act(client, headers, action="enter_result", round=1, board=14, result="1-0")
    assert r.status_code == 400 and "round 1 has no game on board 14" in r.json()["error"]


def test_a_draft_changed_by_another_arbiter_first_is_refused_after_the_append(hall, monkeypatch) -> None:
    """Two arbiters publish and exchange on version 1 at the same instant; the other's exchange
    reaches the log first (the store's order): the publish is recorded as refused by the fold, and
    the answer is 409 naming it."""
    client, log, headers = hall
    assert act(client, headers, action="pair_round", round=1).status_code == 200
    draft = tools_when(client, lambda d: d["draft"] is not None)["draft"]
    real = log.append_many

    async def other_first(items, **kw):
        other = PairingSwapped(round=1, version=1, kind="exchange", reason="the other arbiter",
                               players=[draft["boards"][0]["white_no"], draft["boards"][1]["white_no"]], by="deputy")
        await real([(*other.encode(), None)])
        return await real(items, **kw)

    monkeypatch.setattr(log, "append_many", other_first)
    r = act(client, headers, action="publish_pairing", round=1, version=1)
    assert r.status_code == 409, r.text
    assert "changed to version 2 before your pairing_published (made on version 1)" in r.json()["error"]
    monkeypatch.setattr(log, "append_many", real)
    tools = tools_when(client, lambda d: d["draft"]["refused"])
    assert tools["draft"]["published"] is None and tools["draft"]["refused"][0]["by"] == "chief"


def round_two_drafted(client: TestClient, headers: dict) -> None:
    """Round 1 paired, published, started and played (every game won by White, by slip), round 2
    drafted (version 1)."""
    assert act(client, headers, action="pair_round").status_code == 200
    tools_when(client, lambda d: d["draft"] is not None)
    assert act(client, headers, action="publish_pairing", round=1, version=1).status_code == 200
    tools_when(client, lambda d: d["draft"]["is_published"])
    assert act(client, headers, action="start_round", round=1).status_code == 200
    tools_when(client, lambda d: d["latest_round"] == 1)
    for board in range(1, 13):  # rule 2: no draw by agreement in less than 30 moves, so White wins each
        assert act(client, headers, action="enter_result", round=1, board=board, result="1-0",
                   how="slip").status_code == 200
    r = None
    deadline = time.monotonic() + 10
    while r is None or r.status_code != 200:  # until the dashboard has folded the twelfth result
        assert time.monotonic() < deadline, r.text
        r = act(client, headers, action="pair_round", round=2)
    tools_when(client, lambda d: d["draft"] is not None)


def test_a_correction_after_the_round_says_the_next_draft_is_stale(hall) -> None:
    """Round 1 played (every game won by White, by slip), round 2 drafted; a result of round 1 corrected:
    the answer's notice says round 2 was drafted from the old result."""
    client, log, headers = hall
    round_two_drafted(client, headers)
    r = act(client, headers, action="enter_result", round=1, board=1, result="0-1", how="arbiter")
    assert r.status_code == 200
    assert r.json()["notice"] == ("round 2 is drafted (version 1) from the old result: pair it again (pair_round) "
                                  "so its pairing reads the new one")
    # A new user's finding: that draft could still be published and started, the bye and three pairings
    # of four other than the corrected scores give (FIDE C.04.3 pairs from the scores after the round).
    tools = tools_when(client, lambda d: d["draft"]["outdated"])
    assert tools["draft"]["outdated"] == ["1-1"]
    for action in ("publish_pairing", "start_round"):
        r = act(client, headers, action=action, round=2, version=1)
        assert r.status_code == 400, r.text
        assert r.json()["error"] == ("round 2's draft (version 1) was paired before the result of round 1 board 1 "
                                     "(1-1, now 0-1) changed: it reads the old result; pair it again (pair_round)")
    assert act(client, headers, action="pair_round", round=2).status_code == 200
    tools = tools_when(client, lambda d: d["draft"]["version"] == 2)
    assert tools["draft"]["outdated"] == []
    assert act(client, headers, action="publish_pairing", round=2, version=2).status_code == 200


def test_a_result_corrected_back_leaves_the_draft_current(hall) -> None:
    """Fresh-user report #10. docs/pairing.md: a draft is **outdated** "while a result of the round
    before differs from the one it was paired from" (FIDE C.04.3 pairs from the scores after the
    previous round: the same scores, the same pairing). Two results of round 1 corrected, one
    corrected back: the draft is outdated by the other alone; both back: it is published as drafted."""
    client, log, headers = hall
    round_two_drafted(client, headers)
    for board in (1, 2):
        assert act(client, headers, action="enter_result", round=1, board=board, result="0-1",
                   how="arbiter").status_code == 200
    tools_when(client, lambda d: d["draft"]["outdated"] == ["1-1", "1-2"])
    r = act(client, headers, action="enter_result", round=1, board=1, result="1-0", how="arbiter")
    assert r.status_code == 200
    assert r.json()["notice"] == "round 2 is drafted (version 1) from this very result: its pairing reads it again"
    tools_when(client, lambda d: d["draft"]["outdated"] == ["1-2"])
    r = act(client, headers, action="publish_pairing", round=2, version=1)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == ("round 2's draft (version 1) was paired before the result of round 1 board 2 "
                                 "(1-2, now 0-1) changed: it reads the old result; pair it again (pair_round)")
    assert act(client, headers, action="enter_result", round=1, board=2, result="1-0",
               how="arbiter").status_code == 200
    tools_when(client, lambda d: d["draft"]["outdated"] == [])
    assert act(client, headers, action="publish_pairing", round=2, version=1).status_code == 200
    assert tools_when(client, lambda d: d["draft"]["is_published"])["draft"]["version"] == 1


def test_a_round_tool_after_the_draft_says_it_is_stale(hall) -> None:
    """A withdrawal recorded after round 1 was drafted: the answer's notice says the draft was made
    before it (the pairing would still pair him)."""
    client, log, headers = hall
    assert act(client, headers, action="pair_round").status_code == 200
    tools_when(client, lambda d: d["draft"] is not None)
    r = act(client, headers, action="withdraw_player", player=3)
    assert r.status_code == 200
    assert r.json()["notice"] == ("round 1 is drafted (version 1) from before this: pair it again (pair_round) so "
                                  "its pairing reads it")
