"""A checkers match on one hall board, through the gateway's pure part (gateway.hall.Hall, which
decides, folds and lets the regulations answer, as gateway.service runs it), time passed in.

Sources: ../shared/regulations/checkers-11-man-national-2017.txt X.A.b ("A player whose time expires
forfeits the current game, as well as the next game if not started. The clocks shall be paused
between games, but the clock times shall not be reset prior to the second game. Whatever time shows
on the clocks at the conclusion of the first game is the time the player has to play the entire
second game."); London 1992 games 25 and 26 (venue/data/tinsley_chinook_1992.pdn, records 4 and 5:
the same ballot 9-13 23-18 11-15 with colours reversed; game 25 won by White, Tinsley, PDN "0-1" =
venue "1-0"; game 26 drawn).
"""

from __future__ import annotations

from match_gateway import BALLOT, GAME_25, GAME_26, T, Gateway

from gateway.hall import GAME_OVER, Hall
from services.rules.checkers_pdn import replay

MIN = 60_000


def test_game_two_follows_game_one_on_the_same_board_with_the_carried_clock():
    gw = Gateway()
    gw.clock("start", 90 * MIN, 90 * MIN, "black")
    moves_25 = replay(GAME_25).moves
    for move in moves_25:
        gw.send("move", {"move": move})
    gw.clock("press", 61 * MIN, 47 * MIN, "black")
    gw.send("result", {"result": GAME_25.venue_result, "reason": "recorded"})
    gw.clock("pause", 61 * MIN, 47 * MIN, None)  # after the end: still game 1's clock
    (ended,) = gw.entries("game_ended")
    assert (ended["game"], ended["result"]) == ("1-1.1", "1-0")
    (ready,) = gw.entries("match_game_ready")
    # X.A.b: each player keeps his own time, as it shows at the conclusion of game 1; game 1's Black
    # (Chinook: 47 min at the last press, then 1 s on the running clock until the result) is White
    # in game 2
    assert (ready["game"], ready["white"], ready["white_ms"], ready["black_ms"]) == (
        "1-1.2", "Chinook", 47 * MIN - 1_000, 61 * MIN)
    assert gw.entries("clock_paused")[-1]["game"] == "1-1.1"
    assert gw.hall.state.boards["1"].game == "1-1.1"  # paused between the games

    # the clock started for game 2 begins it for the clock; the board's first move of game 2, one
    # game 1 (over, owing no move) cannot take, begins it for the board; its moves are game 2's
    gw.clock("start", 47 * MIN - 1_000, 61 * MIN, "black")
    (begun,) = gw.entries("device_game_began")
    assert (begun["game"], begun["follows"], begun["device"], begun["evidence"]) == (
        "1-1.2", "1-1.1", "clock", "starting_times")  # X.A.b: the times carried from game 1
    assert gw.entries("clock_started")[-1]["game"] == "1-1.2"
    moves_26 = replay(GAME_26).moves
    for move in moves_26:
        gw.send("move", {"move": move})
    assert [(b["device"], b["game"], b["evidence"]) for b in gw.entries("device_game_began")] == [
        ("clock", "1-1.2", "starting_times"), ("board", "1-1.2", "next_only")]
    played = [d for d in gw.entries("move_played") if d["game"] == "1-1.2"]
    assert [d["move"] for d in played] == moves_26
    # the same ballot in both games (issue 6): their first three moves
    assert moves_25[:3] == moves_26[:3] == BALLOT["moves"]

    # a gateway rebuilt from the log carries on with game 2 where it was
    again = Hall(T)
    for (type_, data), at in zip(gw.log, gw.stamps):
        again.fold(type_, data, at)
    board = again.state.boards["1"]
    assert (board.game, again.state.games[board.game].moves) == ("1-1.2", moves_26)
    assert again.state.snapshot() == gw.hall.state.snapshot() and again.watches == gw.hall.watches


def test_a_flag_in_game_one_forfeits_game_two_which_is_never_begun():
    gw = Gateway()
    gw.clock("start", 90 * MIN, 90 * MIN, "black")
    for move in replay(GAME_25).moves[:6]:
        gw.send("move", {"move": move})
    gw.clock("pause", 80 * MIN, 0, None)  # Black's flag fell: the clock stopped itself at 0
    ends = gw.entries("game_ended")
    assert [(e["game"], e["result"], e["termination"]) for e in ends] == [
        ("1-1.1", "1-0", "time_forfeit"), ("1-1.2", "0-1", "forfeit")]
    (forfeit,) = gw.entries("match_forfeit")
    assert forfeit["games"] == ["1-1.1", "1-1.2"] and forfeit["player"] == GAME_25.tags["Black"]
    assert "as well as the next game if not started" in forfeit["rule"]
    # the devices carry on: nothing more is played on this board
    step = gw.send("move", {"move": "11-15"})
    assert gw.entries("device_game_began") == []
    assert step.feedback[-1][1]["reason"] == GAME_OVER
    assert gw.hall.state.boards["1"].game == "1-1.1" and gw.hall.state.boards["1"].began == {}


def test_the_arbiters_are_told_of_the_match_forfeit():
    # DESIGN.md: arbiters "must be told at once when ... a flag fell"; here the flag costs two games
    from alert_feed import FoldedAlerts

    gw = Gateway()
    gw.clock("start", 90 * MIN, 90 * MIN, "black")
    gw.send("move", {"move": "9-13"})
    gw.clock("pause", 90 * MIN, 0, None)  # the clock stops itself showing Black (Chinook) at 0
    queue = FoldedAlerts()
    for seq, (type_, data) in enumerate(gw.log, start=1):
        queue.apply(seq, seq, type_, data)
    kinds = {a.kind: a for a in queue.open_alerts()}
    assert kinds["match_forfeit"].severity == "action" and kinds["match_forfeit"].game == "1-1.2"
    assert "flag_fell" in kinds
