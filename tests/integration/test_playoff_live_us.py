"""The U.S. Championships' play-offs played live (issue 30 acceptance: "the play-off stages created and
played live over MQTT to a winner"): the main event folded into a Redis log (tests/playoff_event.py),
the play-off created through the console's API on a running dashboard, its games played on hall
boards over the real Mosquitto (127.0.0.1:1883) and recorded by a running gateway. Norway Chess 2023's
is tests/integration/test_playoff_live.py.

2013 U.S. Women's Championship (events/us-womens-championship-2013.toml; the 2013 "Playoff
Regulations" in ../shared/regulations/us-championship-2013.txt), three tied (``three_tied``): "If
there are three Players tied for first, the two Players with the lowest tie-breaks will contest an
Armageddon Game. The winner of this game will face the player with the highest tie-breaks" in "a
two-game rapid match (G/25+5)"; the Armageddon by bid: "Each Player shall bid an amount of time
(minutes and seconds, a number equal to or less than 45:00) ... If both Players bid exactly the same
amount of time, the Chief Arbiter will flip a coin". Both bid 40:00; the coin goes to the third, who
takes Black with draw odds and 40:00 (White has 45:00). White mates (Scholar's mate) and wins; then
wins both final games (a Fool's mate with Black, a Scholar's mate with White): first.

2023 U.S. Championship (events/us-championship-2023.toml; ../shared/regulations/us-championship-2023.txt
6.), two tied (``tied_top(2)``): "Two Players: The tie will be broken with a two-game rapid match
(G/10 +2 increment). If the contest is still undecided, the match will be decided by an Armageddon
Game." "White shall start with 5 minutes and black shall start with 4 minutes ... Black shall be
declared the winner if the game ends in a draw." Each rapid game is won by Black (Fool's mate): 1-1.
The Armageddon's colours are drawn by lot (the regulations do not give them); Black mates: first.
"""

from __future__ import annotations

import pytest
from live_helpers import entries_matching
from playoff_console import FOOLS_MATE, SCHOLARS_MATE, playoff_hall
from playoff_event import three_tied, tied_top

pytestmark = pytest.mark.integration

MIN = 60_000


async def ended(log, game: str) -> tuple[str, str]:
    """The result and termination of ``game``'s ``game_ended`` once the gateway recorded it."""
    [e] = await entries_matching(log, lambda e: e.type == "game_ended" and e.data["game"] == game)
    return e.data["result"], e.data["termination"]


async def stage_control(log, stage: int) -> dict | str:
    """The time control of play-off stage ``stage``'s (one) game, as its ``playoff_stage_started`` gives it."""
    [e] = await entries_matching(log, lambda e: e.type == "playoff_stage_started" and e.data["stage"] == stage)
    [g] = e.data["games"]
    return g["time_control"]


def stage_games(d: dict, stage: int) -> list[dict]:
    """Play-off stage ``stage``'s games as the standings JSON gives them (id, board, white, black)."""
    [st] = [s for s in d["playoff"]["played"] if s["stage"] == stage]
    return st["games"]


async def test_us_womens_2013_three_tied_armageddon_by_bid_then_the_final_at_the_board(monkeypatch) -> None:
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    async with playoff_hall("us-womens-championship-2013.toml", three_tied) as hall:
        log, console = hall.log, hall.console
        d = await console.standings(lambda d: d["finished"])
        top = d["playoff"]["players"]
        assert sorted(top) == [1, 2, 3]  # three_tied: 1, 2 and 3 have 8 wins of 9
        first, second, third = top
        # "the two Players with the lowest tie-breaks will contest an Armageddon Game"
        assert d["playoff"]["status"] == "next_stage" and d["playoff"]["next"]["pairs"] == [[second, third]]
        assert d["playoff"]["next"]["colours"] == "bid"
        r = await console.act("start_playoff_stage", stage=1, boards=["3"])
        assert r.status_code == 400 and "bid" in r.json()["error"]
        r = await console.act("armageddon_bid", stage=1, bids={str(second): 45 * MIN + 1000, str(third): 40 * MIN},
                              colour="black")
        assert r.status_code == 400 and "45:00" in r.json()["error"]
        await console.ok("armageddon_bid", stage=1, bids={str(second): 40 * MIN, str(third): 40 * MIN},
                         colour="black", coin_toss_winner=third)
        await entries_matching(log, lambda e: e.type == "armageddon_bid")
        await console.ok("start_playoff_stage", stage=1, boards=["3"])
        d = await console.standings(lambda d: d["playoff"]["status"] == "stage_in_play")
        [arm] = stage_games(d, 1)
        assert (arm["board"], arm["white"], arm["black"]) == ("3", second, third)
        # the bid's clocks: White the full 45:00, Black (the coin's winner) the 40:00 bid
        assert await stage_control(log, 1) == {"white": 45 * MIN, "black": 40 * MIN, "increment": 0,
                                               "increment_from_move": 1}
        await hall.board("3").play(SCHOLARS_MATE, 45 * MIN, 40 * MIN)
        assert await ended(log, arm["id"]) == ("1-0", "checkmate")

        d = await console.standings(lambda d: d["playoff"]["status"] == "next_stage")
        assert d["playoff"]["next"]["name"] == "final rapid match"
        assert d["playoff"]["next"]["pairs"] == [[first, second], [second, first]]
        await console.ok("start_playoff_stage", stage=2, boards=["1"])
        d = await console.standings(lambda d: len(d["playoff"]["played"]) == 2)
        g1, g2 = stage_games(d, 2)
        assert (g1["white"], g2["white"]) == (first, second)
        board = hall.board("1")
        await board.play(FOOLS_MATE, 25 * MIN, 25 * MIN)  # "G/25+5": Black (second) mates
        assert await ended(log, g1["id"]) == ("0-1", "checkmate")
        await board.play(SCHOLARS_MATE, 25 * MIN, 25 * MIN)  # second, White, mates again: 2-0
        assert await ended(log, g2["id"]) == ("1-0", "checkmate")

        d = await console.standings(lambda d: d["playoff"]["status"] == "decided")
        assert d["playoff"]["order"] == [second, first, third]
        assert [r["start_no"] for r in d["rows"][:3]] == [second, first, third]
        r = await console.act("start_playoff_stage", stage=3, boards=["1"])
        assert r.status_code == 400 and "decided" in r.json()["error"]
        assert hall.gateway.counts.get("internal_errors", 0) == 0


async def test_us_2023_two_tied_rapid_match_then_armageddon_at_the_board(monkeypatch) -> None:
    monkeypatch.delenv("VENUE_ALLOWED_ORIGINS", raising=False)
    async with playoff_hall("us-championship-2023.toml", tied_top(2)) as hall:
        log, console = hall.log, hall.console
        d = await console.standings(lambda d: d["finished"])
        assert sorted(d["playoff"]["players"]) == [1, 2]  # tied_top(2): 1 and 2 draw and beat the rest
        nxt = d["playoff"]["next"]
        assert (nxt["kind"], nxt["time_control"]["pgn"]) == ("match", "600+2")  # "G/10 +2 increment"
        await console.ok("start_playoff_stage", stage=1, boards=["1"])
        d = await console.standings(lambda d: d["playoff"]["status"] == "stage_in_play")
        g1, g2 = stage_games(d, 1)
        board = hall.board("1")
        await board.play(FOOLS_MATE, 10 * MIN, 10 * MIN)
        assert await ended(log, g1["id"]) == ("0-1", "checkmate")
        await board.play(FOOLS_MATE, 10 * MIN, 10 * MIN)
        assert await ended(log, g2["id"]) == ("0-1", "checkmate")  # 1-1: "still undecided"

        d = await console.standings(lambda d: d["playoff"]["status"] == "next_stage")
        nxt = d["playoff"]["next"]
        assert (nxt["kind"], nxt["colours"]) == ("armageddon", "lots")
        white, black = g1["black"], g1["white"]  # the lots' numbers: 1 has White (as in Norway's)
        await console.ok("draw_lots", purpose="playoff_colours", stage=2,
                         numbers={str(white): 1, str(black): 2})
        await entries_matching(log, lambda e: e.type == "lots_drawn")
        await console.ok("start_playoff_stage", stage=2, boards=["1"])
        d = await console.standings(lambda d: len(d["playoff"]["played"]) == 2)
        [arm] = stage_games(d, 2)
        assert (arm["white"], arm["black"]) == (white, black)
        # "White shall start with 5 minutes and black shall start with 4 minutes. A 2-second increment
        # shall be added starting with move 61."
        assert await stage_control(log, 2) == {"white": 5 * MIN, "black": 4 * MIN, "increment": 2000,
                                               "increment_from_move": 61}
        board.new_round()
        await board.play(FOOLS_MATE, 5 * MIN, 4 * MIN)
        assert await ended(log, arm["id"]) == ("0-1", "checkmate")

        d = await console.standings(lambda d: d["playoff"]["status"] == "decided")
        assert d["playoff"]["order"] == [black, white]
        assert [r["start_no"] for r in d["rows"][:2]] == [black, white]
        assert hall.gateway.counts.get("internal_errors", 0) == 0
