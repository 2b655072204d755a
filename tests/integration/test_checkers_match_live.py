"""Master division matches live: simulated boards and clocks -> MQTT -> gateway -> event log ->
dashboard API, on the embedded broker with SQLite and on Mosquitto 127.0.0.1:1883 with Redis
127.0.0.1:6379 (a missing service fails these tests: they never skip). The gateway is stopped and
started again in the middle of the matches.

Sources: ../shared/regulations/checkers-11-man-national-2017.txt X.A.b ("A player whose time expires
forfeits the current game, as well as the next game if not started. The clocks shall be paused
between games, but the clock times shall not be reset prior to the second game. Whatever time shows
on the clocks at the conclusion of the first game is the time the player has to play the entire
second game."); issue 6 ("both games of a match play the same ballot with colours reversed"); real
games of ../shared/data/checkers/tinsley.pdn:

* board 1: London 1992 games 25 and 26 (records 700, 701; venue/data/tinsley_chinook_1992_matches.pdn):
  ballot 9-13 23-18 11-15 (ACF 15), game 25 won by White (Tinsley, venue "1-0"), game 26 drawn;
* board 2: Petal 1987 games 15 and 16 (records 623, 624: ballot 9-14 22-17 6-9, colours reversed):
  game 15 ends "Red overstepped the time control on this move." (Lafferty, Black/Red, flags; PDN
  "0-1", venue "1-0"), so by X.A.b Lafferty also forfeits game 16, which is never played (in 1987
  it was; the 2017 regulation forfeits it): he is White in it, venue "0-1" with forfeit.
"""

from __future__ import annotations

import asyncio
from importlib import resources

import httpx
import pytest
from live_helpers import backends, log_until, running

from devices.checkers_script import match_scripts
from devices.simulate import play_scripts
from gateway import Gateway
from services.regulations.checkers_match import RULE_FLAG, match_setups
from services.rules.checkers_ballots import load_deck
from services.rules.checkers_pdn import read_pdn, replay
from venue.serve import dashboard_at


pytestmark = pytest.mark.live

SPEED = 1500.0  # a match of about five seconds: long enough to stop the gateway in the middle
TOLERANCE_MS = 2000  # docs/tournament-file.md: clock_tolerance defaults to 2 s
LONDON = read_pdn(resources.files("venue").joinpath("data", "tinsley_chinook_1992_matches.pdn").read_text())
GAME_25, GAME_26 = LONDON[8], LONDON[9]


def petal_1987(shared_data) -> tuple:
    records = read_pdn((shared_data / "checkers" / "tinsley.pdn").read_text())
    return records[622], records[623]  # records 623, 624 (1-based)


def ballot_of(record) -> dict:
    opening = tuple(replay(record).moves[:3])
    return next(b for b in load_deck() if b.moves == opening).to_json()


def round_data(petal) -> dict:
    games = []
    for board, (one, _) in (("1", (GAME_25, GAME_26)), ("2", petal)):
        pairing = {"id": f"1-{board}", "board": board, "round": "1", "white": one.tags["White"],
                   "black": one.tags["Black"], "white_elo": None, "black_elo": None, "variant": "checkers",
                   "time_control": {"white": "90m", "black": "90m", "match_clock": True}, "fen": None,
                   "kind": "classical"}
        games += match_setups(pairing, ballot_of(one))
    return {"round": "1", "event": "matches", "site": "", "date": "2017.07.10", "games": games}


async def wait_for(log, predicate, timeout: float = 60.0):
    return await log_until(log, predicate, timeout)


def data(entries, type_, **match) -> list[dict]:
    return [e.data for e in entries if e.type == type_ and all(e.data.get(k) == v for k, v in match.items())]


@pytest.mark.parametrize("kind", ["embedded", "mosquitto"])
async def test_two_matches_with_a_gateway_restart_in_the_middle(kind, tmp_path, shared_data):
    petal = petal_1987(shared_data)
    scripts = match_scripts(GAME_25, GAME_26, "1") + match_scripts(*petal, "2")
    async with backends(kind, tmp_path) as (t, url, log):
        await log.append("round_started", round_data(petal))
        play = asyncio.create_task(play_scripts(url, t, scripts, speed=SPEED))
        async with running(Gateway(log, url, t, client_id=f"gw-{t}")):
            # stopped after board 1's first game has ended, before its second is over
            await wait_for(log, lambda es: data(es, "match_game_ready", game="1-1.2"))
        stopped = await log.read()
        assert not play.done(), "the matches must still be going when the gateway stops"
        await asyncio.sleep(0.3)  # the boards play on; the broker keeps the gateway's messages
        async with running(Gateway(log, url, t, client_id=f"gw-{t}")):
            async with dashboard_at(log, "127.0.0.1", 0) as (base, _):
                await play
                entries = await wait_for(log, lambda es: len(data(es, "game_ended")) >= 4)
                await asyncio.sleep(0.5)  # the last clock messages
                async with httpx.AsyncClient(base_url=base, timeout=5) as http:
                    games = {g["id"]: g for g in (await http.get("/api/games")).json()["games"]}
        entries = await log.read()

    # the restart: stopped in the middle of board 1's match, and nothing lost or doubled
    assert not data(stopped, "game_ended", game="1-1.2")
    assert [d["move"] for d in data(entries, "move_played", game="1-1.1")] == replay(GAME_25).moves
    assert [d["move"] for d in data(entries, "move_played", game="1-1.2")] == replay(GAME_26).moves
    assert [e.type for e in entries].count("seq_gap") == 0

    # board 1, game 2: the same ballot, the colours reversed (London 1992 games 25 and 26)
    one, two = games["1-1.1"], games["1-1.2"]
    assert (two["white"], two["black"]) == (one["black"], one["white"]) == (GAME_26.tags["White"], GAME_26.tags["Black"])
    assert one["ballot"] == two["ballot"] and one["ballot"]["ballot"] == 15
    assert one["moves"][:3] == two["moves"][:3] == ["9-13", "23-18", "11-15"]
    assert (one["result"], two["result"]) == (GAME_25.venue_result, GAME_26.venue_result) == ("1-0", "1/2-1/2")
    began = data(entries, "device_game_began", board="1")  # each device moved on by its game counter
    assert sorted((b["device"], b["game"], b["follows"], b["evidence"]) for b in began) == [
        ("board", "1-1.2", "1-1.1", "counter"), ("clock", "1-1.2", "1-1.1", "counter")]
    assert not data(entries, "message_awaiting_game")

    # the clock: paused between the games, each player's time carried into game 2 (X.A.b)
    clock_1 = [e for e in entries if e.type.startswith("clock_") and e.data["game"] == "1-1.1"]
    clock_2 = [e for e in entries if e.type.startswith("clock_") and e.data["game"] == "1-1.2"]
    last = clock_1[-1].data
    assert last["running"] is None  # paused at the end of game 1
    first = clock_2[0]
    assert first.type == "clock_started"
    assert (first.data["white_ms"], first.data["black_ms"]) == (last["black_ms"], last["white_ms"])
    assert first.data["white_ms"] < 90 * 60_000 and first.data["black_ms"] < 90 * 60_000  # not reset
    (ready,) = data(entries, "match_game_ready", game="1-1.2")
    assert ready["running"] is None and "not be reset" in ready["rule"]
    for side in ("white", "black"):  # the gateway's own reading of the same clock
        assert 0 <= first.data[f"{side}_ms"] - ready[f"{side}_ms"] <= TOLERANCE_MS
    ended_1 = next(e for e in entries if e.type == "game_ended" and e.data["game"] == "1-1.1")
    assert ended_1.seq < first.seq
    assert not data(entries, "clock_disagreement")

    # board 2: a flag in game 1 forfeits game 1 and game 2, which is never begun (X.A.b)
    lafferty = petal[0].tags["Black"]
    (flag,) = data(entries, "flag_fell", game="1-2.1")
    assert flag["side"] == "black"
    ends = {d["game"]: d for d in data(entries, "game_ended", board="2")}
    assert (ends["1-2.1"]["result"], ends["1-2.1"]["termination"]) == (petal[0].venue_result, "time_forfeit") == ("1-0", "time_forfeit")
    assert ends["1-2.2"] == {"game": "1-2.2", "board": "2", "result": "0-1", "termination": "forfeit",
                             "forfeit": True, "ply": 0, "by": "regulations", "rule": RULE_FLAG}
    (forfeit,) = data(entries, "match_forfeit", board="2")
    assert forfeit["games"] == ["1-2.1", "1-2.2"] and forfeit["player"] == lafferty
    assert games["1-2.2"]["white"] == lafferty and games["1-2.2"]["status"] == "ended"
    assert not data(entries, "device_game_began", board="2") and not data(entries, "move_played", game="1-2.2")
    assert games["1-2.1"]["moves"] == replay(petal[0]).moves
