"""The prize list on the printed standings (fresh-user report 2026-12-07, finding 13: "The printed
standings (`/print/standings`) carry no prize list. Prizes are only on `/standings` and in
`/api/standings`"): the same awards as /api/standings, when the event has prizes.

Norway Chess 2023 (events/norway-chess-2023.toml, ../shared/regulations/norway-chess-2023.txt:
"#1 NOK 750 000 #2 NOK 400 000 #3 NOK 250 000 ... #9 NOK 130 000 #10 NOK 120 000"; "Prize money will
be shared among the players with the same score. This does not apply to the first prize.") played
by tests/playoff_event.py's ``winner`` rule: 1 and 2 tie for first (24 points) and wait for the
play-off; 10 is third alone (21); 4 and 3 share the 9th and 10th places on 3 points each (4 beats
only 3, 3 beats only 2): (130 000 + 120 000) / 2 = 125 000 each. The 2023 U.S. Championship's file
(events/us-championship-2023.toml) gives no prize amounts: no list.
"""

from __future__ import annotations

import asyncio
import html
import re
import time

from playoff_event import main_event, tournament, winner
from starlette.testclient import TestClient

from dashboard.app import create_app
from services.eventlog.memory import MemoryLog


def _printed(name: str) -> tuple[str, dict]:
    """``/print/standings``'s text (a line per table row) and ``/api/standings`` of ``name`` played."""
    t = tournament(name, "printed-prizes")
    log = MemoryLog("printed-prizes")
    asyncio.run(log.append_many([(ty, d, None) for ty, d in main_event(t, winner)]))
    with TestClient(create_app(log)) as client:
        deadline = time.monotonic() + 10
        while client.get("/api/standings").json().get("round") != t.rounds_total and time.monotonic() < deadline:
            time.sleep(0.05)
        page, api = client.get("/print/standings").text, client.get("/api/standings").json()
    rows = re.sub(r"</tr>|</h\d>|</p>", "\n", page)
    text = "\n".join(" ".join(html.unescape(re.sub(r"<[^>]+>", " ", line)).split()) for line in rows.splitlines())
    return text, api


def test_the_printed_standings_carry_the_prize_list() -> None:
    text, api = _printed("norway-chess-2023.toml")
    lines = [line for line in text.splitlines() if line]
    prizes = lines[lines.index("Prize money") + 2:]  # after the heading and the table's head
    assert "3 Player 10 250,000 NOK 250,000" in prizes  # "#3 NOK 250 000"
    assert "9–10 Player 04 125,000 NOK 125,000" in prizes and "9–10 Player 03 125,000 NOK 125,000" in prizes
    # the play-off decides places 1 and 2: held, with the reason /standings gives
    held = [re.match(r"1–2 Player (\d\d) — held (.*)", line) for line in prizes[:2]]
    assert [m.group(1) for m in held if m] == ["02", "01"]
    assert [m.group(2) for m in held if m] == [a["note"] for a in api["prizes"]["awards"][:2]]
    # the same awards as /api/standings, in its order: "#1" to "#10", ten players
    assert [line.split(" Player ")[1][:2] for line in prizes[:10]] == [
        a["name"].removeprefix("Player ") for a in api["prizes"]["awards"]]


def test_no_prize_list_without_prizes() -> None:
    text, api = _printed("us-championship-2023.toml")
    assert api["prizes"] is None and "Prize money" not in text
