"""A match's clock message that reaches the gateway after the board's first move of the next game
(gateway.hall.Hall, time passed in): the board and its clock number their messages apart
(docs/protocol.md "Fields"), so the gateway orders each device's messages alone and a clock message
late for the first game can meet the board already playing the second. It is attributed by the
clock's own order: the clock moves on to game 2 by its ``start`` (its boundary, ``device_game_began``:
docs/protocol.md "Two games on one board"); what it sends before is the game that ended, whenever
it arrives.

The order is the one a CI run of tests/integration/test_checkers_match_live.py recorded on the
embedded broker after the gateway restart: the clock's pause at the end of game 1 (its seq 55) came
after its start of game 2 (seq 56, held for the missing 55) and after the board's 9-13 (game 2's
first move), and was logged as game 2's ``clock_paused`` with game 1's figures.

Sources: ../shared/regulations/checkers-11-man-national-2017.txt X.A.b ("The clocks shall be paused
between games, but the clock times shall not be reset prior to the second game"); London 1992 games
25 and 26 (records 4 and 5 of venue/data/tinsley_chinook_1992.pdn), played with the figures the
simulated clock shows for them (``devices.checkers_script.match_scripts``: game 2 starts with each
player's time at the end of game 1).
"""

from __future__ import annotations

from match_gateway import GAME_25, GAME_26, T, LateClock

from devices.checkers_script import match_scripts
from gateway.hall import Hall

ONE, TWO = match_scripts(GAME_25, GAME_26, "1")


def reading(event: str, clocks: dict, running: str | None) -> dict:
    return {"event": event, "white_ms": clocks["white"], "black_ms": clocks["black"], "running": running}


def play_game_one(gw: LateClock) -> dict:
    """Game 1 as the simulated station plays it, up to its result; returns the clock's figures."""
    clocks = {"white": ONE.white_ms, "black": ONE.black_ms}
    gw.clock("start", clocks["white"], clocks["black"], ONE.first_side)
    for ply in ONE.plies:
        gw.send("move", {"move": ply.uci})
        clocks[ply.side] = ply.clock_ms
        gw.clock("press", clocks["white"], clocks["black"], "black" if ply.side == "white" else "white")
    gw.send("result", {"result": ONE.result, "reason": ONE.reason})
    return clocks


def test_the_pause_of_game_one_after_the_first_move_of_game_two_is_game_ones():
    gw = LateClock()
    clocks = play_game_one(gw)
    pause = gw.seq["clock"] + 1
    gw.seq["clock"] += 1  # the pause is late: the clock's next message comes first
    gw.clock("start", TWO.white_ms, TWO.black_ms, TWO.first_side)  # held for the missing pause
    assert [t for t, _ in gw.clock_entries("1-1.2")] == []
    gw.send("move", {"move": TWO.plies[0].uci})  # the board begins game 2 (its balloted first move)
    (begun,) = gw.entries("device_game_began")
    assert (begun["game"], begun["follows"], begun["device"]) == ("1-1.2", "1-1.1", "board")
    gw.send_seq("clock", pause, reading("pause", clocks, None))  # the pause at last, then the start

    kind, last = gw.clock_entries("1-1.1")[-1]
    assert (kind, last["seq"], last["running"]) == ("clock_paused", pause, None)
    assert (last["white_ms"], last["black_ms"]) == (clocks["white"], clocks["black"])
    (first, *_) = gw.clock_entries("1-1.2")
    assert (first[0], first[1]["seq"], first[1]["running"]) == ("clock_started", pause + 1, TWO.first_side)
    # X.A.b: game 2's White is game 1's Black, with the time that showed at the end of game 1
    assert (first[1]["white_ms"], first[1]["black_ms"]) == (clocks["black"], clocks["white"])
    state = gw.hall.state
    assert state.games["1-1.1"].clock.running is None
    assert state.games["1-1.2"].clock.running == TWO.first_side
    assert state.boards["1"].game == "1-1.2" and state.boards["1"].devices["clock"].last == pause + 1
    assert not gw.entries("seq_gap")
    again = Hall(T)  # the state is the fold of the log (DESIGN.md "one fold")
    for (type_, data), at in zip(gw.log, gw.stamps):
        again.fold(type_, data, at)
    assert again.state.snapshot() == state.snapshot()


def test_the_clock_started_after_the_balloted_moves_is_game_twos():
    # X.A.d: the balloted moves may be made before the clock starts: the board begins game 2, and the
    # clock's start and what follows it are game 2's
    gw = LateClock()
    play_game_one(gw)
    gw.send("move", {"move": TWO.plies[0].uci})  # X.A.d: the balloted moves before the clock starts
    clocks = {"white": TWO.white_ms, "black": TWO.black_ms}
    gw.clock("start", clocks["white"], clocks["black"], TWO.first_side)
    clocks[TWO.plies[0].side] = TWO.plies[0].clock_ms
    gw.clock("press", clocks["white"], clocks["black"], "white")
    gw.clock("pause", clocks["white"], clocks["black"], None)
    assert [t for t, _ in gw.clock_entries("1-1.2")] == ["clock_started", "clock_pressed", "clock_paused"]
    assert gw.clock_entries("1-1.1")[-1][0] == "clock_pressed"  # game 1's last press, before its end


def test_a_clock_running_for_a_side_after_the_first_move_of_game_two_is_game_twos():
    # a clock that starts game 2 with a press (its start lost or never sent): it runs for game 2's
    # players, so its readings are game 2's, as before the board's first move had begun it
    gw = LateClock()
    clocks = play_game_one(gw)
    gw.clock("pause", clocks["white"], clocks["black"], None)
    gw.send("move", {"move": TWO.plies[0].uci})
    clocks = {"white": TWO.white_ms, "black": TWO.black_ms}
    clocks[TWO.plies[0].side] = TWO.plies[0].clock_ms
    gw.clock("press", clocks["white"], clocks["black"], "white")
    assert [t for t, _ in gw.clock_entries("1-1.2")] == ["clock_pressed"]
    assert gw.clock_entries("1-1.1")[-1][0] == "clock_paused"


def test_the_clocks_late_result_of_game_one_does_not_end_game_two():
    # a result the clock reports for game 1 (docs/protocol.md: "result" with "device": "clock", on the
    # clock's seq) after the board began game 2: game 1's, answered as a late result of an ended game
    gw = LateClock()
    clocks = play_game_one(gw)
    gw.clock("pause", clocks["white"], clocks["black"], None)
    gw.send("move", {"move": TWO.plies[0].uci})
    gw.seq["clock"] += 1
    gw.send_seq("result", gw.seq["clock"], {"result": ONE.result, "reason": ONE.reason, "device": "clock"})
    (late,) = [d for d in gw.entries("result_reported") if d["device"] == "clock"]
    assert late["game"] == "1-1.1"
    assert [d["game"] for d in gw.entries("game_ended")] == ["1-1.1"]
    assert gw.hall.state.games["1-1.2"].status != "ended"


def test_a_gateway_rebuilt_from_the_log_attributes_the_late_pause_the_same():
    # a restart between the board's first move of game 2 and the clock's late pause changes nothing
    gw = LateClock()
    clocks = play_game_one(gw)
    pause = gw.seq["clock"] + 1
    gw.seq["clock"] += 1
    gw.clock("start", TWO.white_ms, TWO.black_ms, TWO.first_side)
    gw.send("move", {"move": TWO.plies[0].uci})
    again = Hall(T)
    for (type_, data), at in zip(gw.log, gw.stamps):
        again.fold(type_, data, at)
    gw.hall = again
    gw.send_seq("clock", pause, reading("pause", clocks, None))
    assert gw.clock_entries("1-1.1")[-1][0] == "clock_paused"
    assert gw.clock_entries("1-1.2")[0][0] == "clock_started"


def test_the_pause_of_game_one_resent_after_game_twos_clock_started_is_game_ones():
    # the pause lost and its hole skipped (``seq_gap`` once the hold ran out): game 2's start is
    # applied first, and the pause the clock sends again is still game 1's: the clock sent it before
    # game 2's first reading (docs/protocol.md "Two games on one board")
    gw = LateClock()
    clocks = play_game_one(gw)
    pause = gw.seq["clock"] + 1
    gw.seq["clock"] += 1
    gw.clock("start", TWO.white_ms, TWO.black_ms, TWO.first_side)  # held for the missing pause
    gw.now += gw.hall.hold_ms + 1
    gw.take(gw.hall.tick(gw.now).entries)
    assert gw.entries("seq_gap") and gw.hall.state.games["1-1.2"].clock_event == "clock_started"
    gw.send("move", {"move": TWO.plies[0].uci})
    gw.send_seq("clock", pause, reading("pause", clocks, None))

    kind, last = gw.clock_entries("1-1.1")[-1]
    assert (kind, last["seq"], last["white_ms"], last["black_ms"]) == ("clock_paused", pause, clocks["white"],
                                                                       clocks["black"])
    assert [t for t, _ in gw.clock_entries("1-1.2")] == ["clock_started"]
    assert gw.hall.state.games["1-1.2"].clock.running == TWO.first_side
    again = Hall(T)
    for (type_, data), at in zip(gw.log, gw.stamps):
        again.fold(type_, data, at)
    assert again.state.snapshot() == gw.hall.state.snapshot() and again.watches == gw.hall.watches
