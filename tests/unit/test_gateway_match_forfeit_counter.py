"""A checkers match whose devices send the ``game`` counter, game 2 forfeited with game 1 after a flag
(gateway.hall.Hall, time passed in): what the devices send for game 2 is answered ``game over`` at
once, and what they sent for it before game 1's flag reached the gateway is answered so when it does,
never left held (fresh-user-2 finding 1: ``holding: 2, holding_for: next_game`` for a board whose
games were both over).

Sources: docs/protocol.md "Checkers matches": "After a flag fall in game 1 the second game is
forfeited (`match_forfeit`) and never begins: the board's messages are then answered `game over`";
its "Two games on one board": "A device that knows when it begins a new game ... should send it"
(the counter), and "the next game's start shown before the previous game's result is final (...
or a device's counter moved on, while nobody has recorded the result yet): the board's later
messages wait for that result"; its Feedback table: `game over` for a move after the end, and
`game over: a clock's E does not act on an ended game (only the arbiter's actions do)` for a clock's
`start`. ../shared/regulations/checkers-11-man-national-2017.txt X.A.b: "A player whose time expires
forfeits the current game, as well as the next game if not started". London 1992 game 25
(``match_gateway.GAME_25``, ballot 9-13 23-18 11-15) for game 1's moves.
"""

from __future__ import annotations

from match_gateway import GAME_25, Gateway, LateClock

from gateway.hall import GAME_OVER, Hall
from gateway.which_game import HELD, NEXT_GAME
from services.rules.checkers_pdn import replay

MIN = 60_000
ONE, TWO = "1-1.1", "1-1.2"
CLOCK_START_OVER = "game over: a clock's start does not act on an ended game (only the arbiter's actions do)"


def _game_one_begun(gw: Gateway) -> None:
    """Game 1 started by the clock (Black, Red in checkers, first), its first three moves (the
    ballot) pressed."""
    gw.clock("start", 90 * MIN, 90 * MIN, "black")
    for move, running in zip(replay(GAME_25).moves[:3], ("white", "black", "white")):
        gw.send("move", {"move": move})
        gw.clock("press", 90 * MIN, 90 * MIN, running)


def _game_one_to_the_flag(gw: Gateway) -> None:
    """Game 1 begun (``_game_one_begun``), then the clock stopped at Black's 0: Black's flag."""
    _game_one_begun(gw)
    gw.clock("pause", 80 * MIN, 0, None)


def _counter_held(gw: Gateway) -> None:
    """The board's counter moves on (game 2's first ballot move) before game 1's result is final:
    it waits for that result (docs/protocol.md "Two games on one board")."""
    gw.send("move", {"move": replay(GAME_25).moves[0], "game": 2})
    held = _answer(gw, "board", gw.seq["board"])
    assert (held["accepted"], held["reason"]) == (True, HELD[NEXT_GAME])
    assert [m["reason"] for m in gw.hall.state.boards["1"].awaiting] == [NEXT_GAME]


def _answer(gw: Gateway, device: str, seq: int) -> dict:
    """The last feedback to ``device``'s message ``seq``."""
    return [f for f in gw.feedback if f["device"] == device and f["ref"] == seq][-1]


def test_a_counter_naming_the_forfeited_game_two_is_answered_game_over_at_once():
    gw = Gateway()
    _game_one_to_the_flag(gw)
    assert [(e["game"], e["termination"]) for e in gw.entries("game_ended")] == [
        (ONE, "time_forfeit"), (TWO, "forfeit")]
    # the devices go on to game 2 with their counter (fresh-user-2's steps)
    gw.send("clock", {"event": "start", "white_ms": 0, "black_ms": 80 * MIN, "running": "black", "game": 2})
    gw.send("move", {"move": replay(GAME_25).moves[0], "game": 2})
    clock, board = _answer(gw, "clock", gw.seq["clock"]), _answer(gw, "board", gw.seq["board"])
    assert (clock["accepted"], clock["reason"]) == (False, CLOCK_START_OVER)
    assert (board["accepted"], board["reason"]) == (False, GAME_OVER)
    assert gw.entries("message_awaiting_game") == [] and gw.hall.state.boards["1"].awaiting == []
    # nothing was played or started in game 2: it never begins (X.A.b)
    assert not [e for e in gw.entries("move_played") if e["game"] == TWO]
    assert not [e for e in gw.entries("clock_started") if e["game"] == TWO]
    (rejected,) = gw.entries("move_rejected")
    assert (rejected["game"], rejected.get("held", False)) == (TWO, False)
    # the counter's next message of game 2 is answered the same way, and a rebuilt gateway agrees
    gw.send("move", {"move": replay(GAME_25).moves[1], "game": 2})
    assert _answer(gw, "board", gw.seq["board"])["reason"] == GAME_OVER
    again = Hall(gw.hall.tournament)
    for (type_, data), at in zip(gw.log, gw.stamps):
        again.fold(type_, data, at)
    assert again.state.snapshot() == gw.hall.state.snapshot()


def test_messages_held_for_game_two_before_game_ones_flag_are_answered_game_over_by_it():
    gw = Gateway()
    _game_one_begun(gw)
    _counter_held(gw)  # before the clock's flag reaches the gateway
    gw.clock("pause", 80 * MIN, 0, None)  # Black's flag: game 1 lost on time, game 2 forfeited
    assert [(e["game"], e["termination"]) for e in gw.entries("game_ended")] == [
        (ONE, "time_forfeit"), (TWO, "forfeit")]
    released = _answer(gw, "board", gw.seq["board"])
    assert (released["accepted"], released["reason"]) == (False, GAME_OVER)
    assert gw.hall.state.boards["1"].awaiting == []
    assert not [e for e in gw.entries("move_played") if e["game"] == TWO]


def test_messages_held_for_game_two_are_answered_game_over_by_the_arbiters_time_forfeit():
    # the other way game 1 ends the match: the arbiter records the flag (docs/arbiter.md set_result,
    # termination time_forfeit; fresh-user-2 finding 3's slip): game 2 forfeited as after the
    # clock's flag (X.A.b), and what the board holds for it answered "game over"
    from dashboard.arbiter.actions import build

    gw = Gateway()
    gw.clock("start", 90 * MIN, 90 * MIN, "black")
    for move, (black_ms, running) in zip(replay(GAME_25).moves[:2], ((90 * MIN, "white"), (500, "black"))):
        gw.send("move", {"move": move})
        gw.clock("press", 90 * MIN, black_ms, running)  # Black (Red) left with 0.5 s, running
    _counter_held(gw)  # 1 s later: Black's flag is down
    games = {ONE: {"id": ONE, "board": "1", "status": "playing", "result": "*"}}
    for type_, data in build("set_result", {"game": ONE, "result": "1-0", "termination": "time_forfeit"},
                             "chief", games, gw.hall.state, gw.now):
        gw.now += 1_000
        gw.take([(type_, data)])
        step = gw.hall.external(type_, data, gw.now, None, gw.now)
        gw.take(step.entries)
        gw.feedback.extend(f for _, f in step.feedback)
    assert [(e["game"], e["termination"]) for e in gw.entries("game_ended")] == [
        (ONE, "time_forfeit"), (TWO, "forfeit")]
    released = _answer(gw, "board", gw.seq["board"])
    assert (released["accepted"], released["reason"]) == (False, GAME_OVER)
    assert gw.hall.state.boards["1"].awaiting == []


def test_messages_held_for_game_two_are_answered_game_over_by_the_clocks_time_forfeit_result():
    # game 1's end reported by the clock itself (docs/protocol.md `result`: reason "time_forfeit",
    # device "clock"): the same flag (X.A.b), the same release
    gw = LateClock()
    _game_one_begun(gw)
    _counter_held(gw)
    gw.seq["clock"] += 1
    gw.send_seq("result", gw.seq["clock"], {"result": "1-0", "reason": "time_forfeit", "device": "clock"})
    assert [(e["game"], e["termination"]) for e in gw.entries("game_ended")] == [
        (ONE, "time_forfeit"), (TWO, "forfeit")]
    released = _answer(gw, "board", gw.seq["board"])
    assert (released["accepted"], released["reason"]) == (False, GAME_OVER)
    assert gw.hall.state.boards["1"].awaiting == []
