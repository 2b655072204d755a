"""The round's recorded start on the printed pairings and in the TRF's dates (fresh-user report
2026-12-07, finding 2).

docs/tournament-file.md: "A round that starts at another time (a rehearsal, a delayed round) is
started with ... that start is recorded in the round's `round_started` ... the default time counts
from it". So the sheet at the hall's door gives that start, not the file's schedule. TRF16
(C.04 Annex 2, tournament section): "042 Date of start", "052 Date of end", "132 Dates of the round
format: YY/MM/DD": the days the rounds were played, the schedule's for a round not played yet.

The event: the 2023 U.S. Championship (events/us-championship-2023.toml): round 1 scheduled at
"2023-10-05T13:00:00-05:00", each next round a day later, round 11 "2023-10-16T13:00:00-05:00".
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import re
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from dashboard.app import create_app
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_export import tournament_trf
from services.arbiter_office.tournament_log import tournament_registered_data
from services.eventlog.base import Entry
from services.eventlog.memory import MemoryLog
from services.regulations.tournament_file import load_tournament
from services.tournament.trf import parse_trf
from services.views.standings import TournamentView

EVENT = Path(__file__).resolve().parents[2] / "events" / "us-championship-2023.toml"
DAY_MS = 86_400_000
DELAYED_MS = 1_696_533_300_000  # 2023-10-05T19:15:00Z: round 1 delayed to 14:15 in UTC-5
EVENING_MS = 1_696_561_200_000  # 2023-10-06T03:00:00Z: round 2 started at 22:00 on 10-05 in UTC-5


def _tournament():
    t = load_tournament(EVENT.read_text(), EVENT.name)
    return dataclasses.replace(t, slug="round-start-print")


def _entries(t, starts: dict[int, int]) -> list[tuple[str, dict]]:
    out = [("tournament_registered", tournament_registered_data(t))]
    for rnd, start in starts.items():
        out.append(("round_started", round_from_tournament(t, rnd, start_ms=start)))
        if rnd < max(starts):  # earlier rounds over: the next is paired from them
            out += [("game_ended", {"game": g["id"], "board": g["board"], "result": "1/2-1/2"})
                    for g in out[-1][1]["games"]]
    return out


def _view(entries: list[tuple[str, dict]]) -> TournamentView:
    view = TournamentView()
    for seq, (type_, data) in enumerate(entries, start=1):
        view.apply(Entry(seq, 1_696_000_000_000 + seq, type_, data))
    return view


def _heading(client: TestClient, path: str) -> str:
    page = client.get(path).text
    (h2,) = re.findall(r"<h2>(.*?)</h2>", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", h2)).split())


@pytest.fixture(scope="module")
def hall():
    t = _tournament()
    log = MemoryLog("round-start-print")
    asyncio.run(log.append_many([(ty, d, None) for ty, d in _entries(t, {1: DELAYED_MS, 2: EVENING_MS})]))
    with TestClient(create_app(log)) as client:
        deadline = time.monotonic() + 10
        while client.get("/api/standings").json().get("round") != 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        yield client


def test_a_delayed_round_prints_its_recorded_start(hall: TestClient) -> None:
    # scheduled "2023-10-05T13:00:00-05:00", started 19:15 UTC: 14:15 in the event's offset
    assert _heading(hall, "/print/pairings?round=1") == "Pairings · round 1 · 2023-10-05 14:15"


def test_a_round_started_the_evening_before_prints_that_evening(hall: TestClient) -> None:
    # scheduled "2023-10-06T13:00:00-05:00", started 03:00 UTC on 10-06: 22:00 on 10-05 in UTC-5
    assert _heading(hall, "/print/pairings?round=2") == "Pairings · round 2 · 2023-10-05 22:00"
    assert _heading(hall, "/print/pairings-by-name?round=2").endswith("2023-10-05 22:00")


def test_trf_dates_are_the_days_played_and_the_schedule_after() -> None:
    text = tournament_trf(_view(_entries(_tournament(), {1: DELAYED_MS, 2: EVENING_MS})))
    trf = parse_trf(text)
    # rounds 1 and 2 both played on 2023-10-05 (UTC-5); round 11 not played: scheduled on 10-16
    assert trf.header_value("042") == "2023/10/05" and trf.header_value("052") == "2023/10/16"
    dates = next(line for line in text.splitlines() if line.startswith("132"))
    # "92 - 99 Round 1 date", "102 - 109 Round 2 date", "112 - 119 Round 3 date" (columns from 1)
    assert [dates[91 + 10 * i:99 + 10 * i] for i in range(3)] == ["23/10/05", "23/10/05", "23/10/07"]


def test_trf_of_an_event_played_a_day_early_agrees_with_its_rounds() -> None:
    # every round started a day before the file's schedule: 042/052 the first and last day played
    t = _tournament()
    starts = {s.number: s.start_ms - DAY_MS for s in t.rounds}
    text = tournament_trf(_view(_entries(t, starts)))
    trf = parse_trf(text)
    assert trf.header_value("042") == "2023/10/04" and trf.header_value("052") == "2023/10/15"
    dates = next(line for line in text.splitlines() if line.startswith("132"))
    days = [dates[91 + 10 * i:99 + 10 * i] for i in range(11)]
    assert days[0] == "23/10/04" and days[-1] == "23/10/15"
    assert trf.header_value("042")[2:] == days[0] and trf.header_value("052")[2:] == days[-1]
