"""Clocks that add the next period when the current one runs out (``services.clock.expiry``), live:
the device's ``period_added`` event (docs/protocol.md), judged by the gateway (FIDE Laws 6.9), and no
false "move counter" alert for such clocks (``regulations.period_added = "on_expiry"``).

The moves: FIDE Candidates 2024, round 4, Caruana - Gukesh (../shared/data/chess/
fide_candidates_2024_open.pgn, 147 plies); the control: US Championship 2023 rule 4 (events/
us-championship-2023.toml: "90 minutes for the first 40 moves followed by 30 minutes ... 30 seconds
... from move one", ``40/5400+30:1800+30``). The clock's figures
are what such a clock shows when every move takes no time: the starting time plus 30 s a press, and
nothing added at move 40 (the expiry clock adds the 30 minutes only when the 90 run out).
FIDE Laws 6.9: "if a player does not complete the prescribed number of moves in the allotted time,
the game is lost by the player".
"""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest
from hall_driver import Driver

from services.regulations.tournament_file import load_tournament

CONTROL = "40/5400+30:1800+30"
BASE, INC, SECOND = 5_400_000, 30_000, 1_800_000


def test_the_control_is_the_us_2023_one():
    path = Path(__file__).resolve().parents[2] / "events" / "us-championship-2023.toml"
    assert load_tournament(path.read_text()).time_controls["classical"] == CONTROL


def event(period_added: str):
    return load_tournament(f"""
[tournament]
name = "Periods test"
slug = "periods-test"
system = "round-robin"
rounds = 1
[time_controls]
classical = "{CONTROL}"
[regulations]
period_added = "{period_added}"
""")


@pytest.fixture(scope="module")
def caruana_gukesh(shared_data) -> list[str]:
    text = (shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8")
    stream = io.StringIO(text)
    for _ in range(15):
        game = chess.pgn.read_game(stream)
    assert (game.headers["White"], game.headers["Black"], game.headers["Round"]) == ("Caruana, Fabiano", "Gukesh D", "4")
    return [m.uci() for m in game.mainline_moves()]


def play(d: Driver, moves: list[str], plies: int) -> None:
    """``plies`` of the game, each followed by its press; figures as the module notes say."""
    d.clock("1", "start", BASE, BASE, "white")
    presses = {"white": 0, "black": 0}
    for ply in range(plies):
        mover = "white" if ply % 2 == 0 else "black"
        d.move("1", moves[ply], after_ms=1)
        presses[mover] += 1
        d.clock("1", "press", BASE + INC * presses["white"], BASE + INC * presses["black"],
                "black" if mover == "white" else "white", after_ms=1)


def test_a_period_run_out_before_its_moves_were_made_loses_on_time(caruana_gukesh):
    """White's 90 minutes run out during its 36th move: the clock adds the 30 minutes and runs on,
    but White completed 35 of the 40 moves: the flag fell then (6.9), 0-1 (the opponent's verdict as
    evidence)."""
    d = Driver("1", config=event("on_expiry"), time_control=CONTROL)
    play(d, caruana_gukesh, 70)
    d.clock("1", "period_added", SECOND, BASE + 35 * INC, "white", side="white", period=2)
    [added] = d.of("clock_period_added")
    assert (added["side"], added["period"], added["white_ms"]) == ("white", 2, SECOND)
    [flag] = d.of("flag_fell")
    assert flag["side"] == "white" and flag["expiry"] == {
        "side": "white", "period": 0, "spent_ms": 0, "moves_made": 35, "moves_required": 40,
        "in_time": False, "added_ms": 0, "law": "FIDE Laws 6.9"}
    [end] = d.of("game_ended")
    assert (end["result"], end["termination"], end["ply"]) == ("0-1", "time_forfeit", 70)
    assert end["evidence"]["side"] == "black" and end["evidence"]["verdict"] != "unwinnable"


def test_a_period_added_after_the_moves_were_made_is_in_time(caruana_gukesh):
    """After 40 completed moves the 30 minutes are due (6.2 and the control): the game goes on."""
    d = Driver("1", config=event("on_expiry"), time_control=CONTROL)
    play(d, caruana_gukesh, 81)
    d.clock("1", "period_added", BASE + 40 * INC, SECOND, "black", side="black", period=2)
    assert d.of("flag_fell") == [] and d.of("game_ended") == []
    assert d.hall.state.games["1-1"].clock.black_ms == SECOND


@pytest.mark.parametrize("mode, counter", [("on_expiry", False), ("on_move", True)])
def test_no_move_counter_alert_for_a_clock_that_adds_periods_on_expiry(caruana_gukesh, mode, counter):
    """At White's 40th press an expiry clock shows no added time. With the event's clocks declared
    ``on_expiry`` the gateway's model agrees (no alert); modelled as a move-counter clock the same
    figures are 30 minutes short: a ``move_counter`` disagreement (the fault that alert is for)."""
    d = Driver("1", config=event(mode), time_control=CONTROL)
    play(d, caruana_gukesh, 82)
    counters = [e for e in d.of("clock_disagreement") if e["kind"] == "move_counter"]
    assert bool(counters) is counter
    assert [e for e in d.of("clock_disagreement") if e["kind"] == "time"] == []
