"""A seed event's play-off played live (issue 30 acceptance): Norway Chess 2023
(events/norway-chess-2023.toml) played to its last round with players 1 and 2 tied for first on 24
points (tests/playoff_event.py), then the play-off through the console's API (a logged-in arbiter's
POST /api/arbiter/actions on a running dashboard) and its games on board 1 over the real Mosquitto
(127.0.0.1:1883), recorded by a running gateway into one Redis log (127.0.0.1:6379).

The regulations (../shared/regulations/norway-chess-2023.txt, "Tie-breaks"): "If two players share
the first place, there will be a Play-Off to decide the winner. This Play-off consists of a
two-game blitz match with the time control of 3 min. + 2 sec. increment per move. If this match
ends in a tie, a further match will be played. If this match ends in a tie, there will be an
Armageddon game where white has 10 minutes and black, with draw odds, has 7 minutes"; "Prize
money will be shared among the players with the same score. This does not apply to the first
prize." (#1 NOK 750 000, #2 NOK 400 000, #3 NOK 250 000).

The games: the first blitz match's two games are played at the board, each the shortest mate (1.f3
e5 2.g4 Qh4#, FIDE Laws 5.1.1: the gateway ends it by checkmate), so each player wins with Black:
1-1. The second match is entered by slip, both drawn: still tied. The colours of the Armageddon are
drawn by lot (the regulations do not give them): 2 White. The Armageddon is drawn by agreement at
the board (allowed: the draw rule "does not apply to Blitz and Armageddon games"), so Black (1) wins.
"""

from __future__ import annotations

import time

import pytest
from live_helpers import entries_matching
from playoff_console import FOOLS_MATE, playoff_hall

pytestmark = pytest.mark.integration


async def test_norway_play_off_created_in_the_console_and_played_at_the_board(monkeypatch) -> None:
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    async with playoff_hall("norway-chess-2023.toml") as hall:
        log, console, board = hall.log, hall.console, hall.board()
        d = await console.standings(lambda d: d["finished"])
        assert [(r["start_no"], r["points"]) for r in d["rows"][:2]] == [(2, 24), (1, 24)]
        assert d["playoff"]["status"] == "next_stage" and d["playoff"]["next"]["name"] == "blitz match"
        held = {a["start_no"]: a for a in d["prizes"]["awards"]}
        assert held[1]["pending"] and held[2]["pending"] and held[10]["net"] == "250000"

        # a result for a stage that does not exist yet: refused, nothing recorded
        r = await console.act("enter_playoff_result", stage=2, game=1, result="1-0", how="slip")
        assert r.status_code == 400 and "does not exist" in r.json()["error"]

        # stage 1 a little ahead, so the players are checked in before it starts (FIDE Laws 6.7.1)
        start = int(time.time() * 1000) + 5000
        await console.ok("start_playoff_stage", stage=1, boards=["1"], start_ms=start)
        await entries_matching(log, lambda e: e.type == "playoff_stage_started")
        for side in ("white", "black"):
            await console.ok("check_in", game="P1-1", side=side)
        await board.play(FOOLS_MATE, 180_000, 180_000)  # 2 (White) mated: 1 wins game 1
        first = await entries_matching(log, lambda e: e.type == "game_ended" and e.data["game"] == "P1-1")
        assert (first[0].data["result"], first[0].data["termination"]) == ("0-1", "checkmate")
        await board.play(FOOLS_MATE, 180_000, 180_000)  # game 2 on the same board: 1 White, mated
        ended = await entries_matching(log, lambda e: e.type == "game_ended" and e.data["game"] == "P1-2")
        assert (ended[0].data["result"], ended[0].data["termination"]) == ("0-1", "checkmate")
        began = await entries_matching(log, lambda e: e.type == "device_game_began")
        assert {(e.data["device"], e.data["game"]) for e in began} == {("board", "P1-2"), ("clock", "P1-2")}

        d = await console.standings(lambda d: d["playoff"]["status"] == "next_stage")
        assert d["playoff"]["next"]["name"] == "second blitz match"
        await console.ok("start_playoff_stage", stage=2, boards=["1"])
        await entries_matching(log, lambda e: e.type == "playoff_stage_started" and e.data["stage"] == 2)
        for game in (1, 2):
            await console.ok("enter_playoff_result", stage=2, game=game, result="1/2-1/2", how="slip")
        d = await console.standings(lambda d: (d["playoff"]["next"] or {}).get("name") == "Armageddon")

        r = await console.act("draw_lots", purpose="playoff_colours", stage=3, numbers={"2": 1, "10": 2})
        assert r.status_code == 400 and "two players of the Armageddon game" in r.json()["error"]
        await console.ok("draw_lots", purpose="playoff_colours", stage=3, numbers={"2": 1, "1": 2})
        await console.standings(lambda d: True)
        await entries_matching(log, lambda e: e.type == "lots_drawn")
        board.new_round()
        await console.ok("start_playoff_stage", stage=3, boards=["1"])
        await entries_matching(log, lambda e: e.type == "playoff_stage_started" and e.data["stage"] == 3)
        await board.play(["e2e4", "e7e5"], 600_000, 420_000)
        await board.send("result", result="1/2-1/2", reason="agreement")
        await entries_matching(log, lambda e: e.type == "armageddon_decided" and e.data["game"] == "P3-1")

        d = await console.standings(lambda d: d["playoff"]["status"] == "decided")
        assert d["playoff"]["order"] == [1, 2]
        assert [(r["rank"], r["start_no"]) for r in d["rows"][:3]] == [(1, 1), (2, 2), (3, 10)]
        paid = {a["start_no"]: a for a in d["prizes"]["awards"]}
        assert (paid[1]["net"], paid[2]["net"], paid[10]["net"]) == ("750000", "400000", "250000")
        assert not paid[1]["pending"]
        cross = (await console.http.get("/api/crosstable")).json()
        assert [r["start_no"] for r in cross["rows"][:2]] == [2, 1]  # the main event's tie-breaks
        assert hall.gateway.counts.get("internal_errors", 0) == 0
