"""The drawn game's clock messages after its end, and the Armageddon game's clock on the same board
(gateway.hall.Hall through ``hall_driver.Driver``, time passed in).

Under Norway Chess 2023 a drawn classical game is followed at once by an Armageddon game on the same
board (``armageddon_scheduled``: the board's game is the Armageddon from then on), and the devices go
on with their own ``seq``. The clock still has messages of the drawn game to send (its last press, its
pause when the players stop it, its result) when the board's result has ended the game, and the
board and the clock number their messages apart, so those can reach the gateway after the board's
first Armageddon move, or, resent from a hole a ``seq_gap`` skipped, after the Armageddon's clock
was set or started. The clock moves on to the Armageddon by being set while stopped to the
Armageddon's times, then started (docs/protocol.md "An Armageddon game after a drawn game").

Sources: ../shared/regulations/norway-chess-2023.txt, through events/norway-chess-2023.toml: "If the
classical game is drawn, an Armageddon game will be played. It shall start within 20 minutes of the
conclusion of the classical game. The player with White pieces will continue with White in
Armageddon." "The time control for the Armageddon game: white has 10 minutes and black has 7 minutes
with an increment for both players of 1 second per move, starting from move 41." "Players are not
allowed to agree to a draw until at least 30 moves have been made by each player." "Each player will
have 120 minutes on the clock with an increment of 10 seconds after move 40." The drawn game: FIDE
Candidates 2024, round 1, Abasov - Nepomniachtchi (../shared/data/chess/fide_candidates_2024_open.pgn,
67 plies, drawn, ``[%clk]`` after every ply; Candidates 2024: 120 minutes for 40 moves, no increment
before move 41, as in Norway's classical control, so each ply's think time is its side's drop in
``[%clk]`` and the clock's figures are the real ones); the players agree the draw after it, having
made 34 and 33 moves. The Armageddon's first plies are the same game's, with its think times.
"""

from __future__ import annotations

import pytest
from armageddon_board import (ARMAGEDDON_MS, DRAWN, HOLD_MS, MIN, MOVE_BEFORE_PRESS_MS, NORWAY, PAUSE_AFTER_MS,
                              RESULT_AFTER_MS, SET_AFTER_MS, START_AFTER_MS, START_MS, Board, plies)


def test_the_events_armageddon_control_is_norways():
    # the tournament file says what the regulations say
    assert NORWAY.time_controls["armageddon"] == {"white": "10m", "black": "7m", "increment": "1s",
                                                  "increment_from_move": 41, "draw_goes_to": "black"}
    assert NORWAY.time_controls["classical"] == {"white": "120m", "black": "120m", "increment": "10s",
                                                 "increment_from_move": 41}
    assert NORWAY.regulations.armageddon_after_draw


def figures(entry: dict) -> dict:
    return {"white": entry["white_ms"], "black": entry["black_ms"]}


def test_the_pause_after_the_boards_result_is_the_drawn_games(drawn_game):
    # on a live link, in order: the board's result ends the game (the Armageddon is set up on the
    # board at once), then the clock's pause, its setting for the Armageddon and its start
    b = Board(drawn_game)
    paused = b.drawn()
    b.clock("pause", paused, None, after_ms=PAUSE_AFTER_MS)
    b.set_and_start()
    moves = b.armageddon()
    b.play(moves)

    b.drawn_ends_with(paused)
    assert b.kinds(b.arm) == ["clock_set", "clock_started"] + ["clock_pressed"] * len(moves)
    assert figures(b.clock_entries(b.arm)[0][1]) == ARMAGEDDON_MS
    g = b.state(b.arm)
    assert (g.clock.white_ms, g.clock.black_ms, g.clock.running) == (
        moves[-1]["white_ms"], moves[-1]["black_ms"], "white")
    assert g.clocks == [p[f"{p['side']}_ms"] for p in moves]  # each ply's %clk is the Armageddon's
    assert (b.state(DRAWN).clock.white_ms, b.state(DRAWN).clock.black_ms) == (paused["white"], paused["black"])
    b.no_false_alarm()


def test_the_pause_late_after_the_first_armageddon_move_is_the_drawn_games(drawn_game):
    # the pause is lost on the way; the arbiter sets the clock and the players start at once, and
    # the board's first Armageddon move reaches the gateway while the setting and the start wait for
    # the missing pause (the board and the clock number their messages apart)
    b = Board(drawn_game)
    paused = b.drawn()
    pause = b.next_seq()
    b.clock("set", ARMAGEDDON_MS, None, seq=pause + 1, after_ms=PAUSE_AFTER_MS + 1_000)  # held
    b.clock("start", ARMAGEDDON_MS, "white", seq=pause + 2, after_ms=1_000)  # held
    (first, *rest) = b.armageddon()
    # the hole is still open when the pause comes again: the start, the move, then the pause
    assert 1_000 + first["think"] - MOVE_BEFORE_PRESS_MS + MOVE_BEFORE_PRESS_MS // 2 < HOLD_MS
    b.play([first], press=False)
    assert b.d.hall.state.games[b.arm].ply == 1 and b.kinds(b.arm) == []
    b.clock("pause", paused, None, seq=pause, after_ms=MOVE_BEFORE_PRESS_MS // 2)  # resent: the held ones follow
    b.press(first, after_ms=MOVE_BEFORE_PRESS_MS // 2)
    b.play(rest)

    b.drawn_ends_with(paused)
    assert b.clock_entries(DRAWN)[-1][1]["seq"] == pause
    assert b.kinds(b.arm)[:2] == ["clock_set", "clock_started"]
    assert not b.d.of("seq_gap")
    b.no_false_alarm()


def test_the_pause_resent_after_the_armageddons_setting_is_the_drawn_games(drawn_game):
    # the pause is lost and its hole skipped (``seq_gap`` after the hold): the clock's setting for
    # the Armageddon is applied first, the pause comes when the clock sends it again
    b = Board(drawn_game)
    paused = b.drawn()
    pause = b.set_after_a_lost_pause()
    b.clock("pause", paused, None, seq=pause, after_ms=1_000)
    assert b.kinds(b.arm) == ["clock_set"]
    g = b.state(b.arm)
    assert (g.clock.white_ms, g.clock.black_ms, g.clock_event) == (*ARMAGEDDON_MS.values(), "clock_set")
    b.clock("start", ARMAGEDDON_MS, "white", after_ms=START_AFTER_MS)
    b.play(b.armageddon())

    b.drawn_ends_with(paused)
    b.no_false_alarm()


def test_the_pause_resent_after_the_armageddon_started_leaves_its_clock_running(drawn_game):
    # the same, the pause resent once the Armageddon's clock runs: the Armageddon's clock and its
    # model go on (no pause with the drawn game's figures in its record)
    b = Board(drawn_game)
    paused = b.drawn()
    pause = b.set_after_a_lost_pause()
    b.clock("start", ARMAGEDDON_MS, "white", after_ms=START_AFTER_MS)
    moves = b.armageddon()
    b.play(moves[:2])
    b.clock("pause", paused, None, seq=pause, after_ms=1_000)
    assert b.state(b.arm).clock.running == "white"
    b.play(moves[2:])

    assert b.kinds(b.arm) == ["clock_set", "clock_started"] + ["clock_pressed"] * len(moves)
    b.drawn_ends_with(paused)
    b.no_false_alarm()


def test_the_drawn_games_last_press_late_after_the_boards_result_is_the_drawn_games(drawn_game):
    # White's last press (ply 67) and the pause reach the gateway after the board's result: the
    # press completes the drawn game's move, it is no press without a move in the Armageddon (7.5.3)
    b = Board(drawn_game)
    paused = b.drawn(last_press=False)
    b.press(b.last, after_ms=1_000)
    b.clock("pause", paused, None, after_ms=PAUSE_AFTER_MS)
    b.set_and_start()
    b.play(b.armageddon())
    b.d.tick(60_000)  # past every grace period

    assert b.kinds(DRAWN)[-2:] == ["clock_pressed", "clock_paused"]
    assert b.state(DRAWN).clocks[-1] == b.last["white_ms"]  # ply 67's %clk, as recorded
    assert b.kinds(b.arm)[:2] == ["clock_set", "clock_started"]
    b.no_false_alarm()


def test_the_clocks_result_of_the_drawn_game_does_not_end_the_armageddon(drawn_game):
    # the clock reports the draw too (docs/protocol.md: "result" with "device": "clock"), after the
    # board: the drawn game's late result, not a drawn Armageddon won by Black
    b = Board(drawn_game)
    paused = b.drawn()
    b.clock("pause", paused, None, after_ms=PAUSE_AFTER_MS)
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement", "device": "clock"}, after_ms=1_000)
    (late,) = [e for e in b.d.of("result_reported") if e["device"] == "clock"]
    assert late["game"] == DRAWN
    assert b.d.feedback[-1][1]["accepted"] is True  # the same result as recorded
    b.set_and_start()
    b.play(b.armageddon())

    assert [e["game"] for e in b.d.of("game_ended")] == [DRAWN] and not b.d.of("armageddon_decided")
    assert b.state(b.arm).status == "playing"
    b.no_false_alarm()


def test_a_clock_set_without_a_message_runs_for_the_armageddon(drawn_game):
    # a clock set while no reading went out (a bridge not reading the board meanwhile: docs/boards.md)
    # sends its next reading running, with the Armageddon's times: the Armageddon's, not the drawn game's
    b = Board(drawn_game)
    paused = b.drawn()
    b.clock("pause", paused, None, after_ms=PAUSE_AFTER_MS)
    b.clock("resume", ARMAGEDDON_MS, "white", after_ms=SET_AFTER_MS + START_AFTER_MS)
    moves = b.armageddon()
    b.play(moves)

    assert b.kinds(b.arm) == ["clock_resumed"] + ["clock_pressed"] * len(moves)
    b.drawn_ends_with(paused)
    assert b.state(b.arm).clock.running == "white"
    b.rebuilt_same()


def test_a_gateway_rebuilt_before_the_late_pause_answers_it_the_same(drawn_game):
    # the state is the fold of the log (DESIGN.md "one fold"): a gateway restarted between the
    # Armageddon's setting and the resent pause records and answers what the live one does
    steps = []
    for restart in (False, True):
        b = Board(drawn_game)
        paused = b.drawn()
        pause = b.set_after_a_lost_pause()
        if restart:
            b.d.hall = b.d.rebuilt()
        steps.append(b.clock("pause", paused, None, seq=pause, after_ms=1_000))
        b.rebuilt_same()
    live, restarted = steps
    assert [(t, e["game"]) for t, e in live.entries] == [("clock_paused", DRAWN)]
    assert (restarted.entries, restarted.feedback) == (live.entries, live.feedback)


def figures_of(g) -> tuple:
    return g.clock.white_ms, g.clock.black_ms, g.clock.running


@pytest.mark.parametrize("then", ["start", "resume"])
def test_the_armageddons_setting_before_the_boards_result_is_the_armageddons(drawn_game, then):
    # the players stop the clock and the arbiter sets it for the Armageddon before the board's result
    # reaches the gateway (the arbiter signals the result after setting the clock, or the board's
    # result comes late): once the draw is known, the setting is the Armageddon's, the drawn game's
    # clock ends at the players' pause, and the Armageddon's clock goes on from the setting (its
    # start, or a resume from a clock that sends start only once)
    b = Board(drawn_game)
    paused = b.drawn_by_the_clock_alone()
    b.clock("set", ARMAGEDDON_MS, None, after_ms=SET_AFTER_MS)
    set_seq = b.d.seqs[("1", "clock")]
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"}, after_ms=1_000)
    (arm,) = b.d.of("armageddon_scheduled")
    b.arm = arm["id"]
    assert figures_of(b.state(DRAWN)) == (paused["white"], paused["black"], None)
    g = b.state(b.arm)
    assert (figures_of(g), g.clock_event) == ((*ARMAGEDDON_MS.values(), None), "clock_set")
    assert b.d.hall.state.boards["1"].began["clock"] == [[set_seq, b.arm]]  # the clock's boundary: the setting
    b.clock(then, ARMAGEDDON_MS, "white", after_ms=START_AFTER_MS)
    arm_moves = b.armageddon()
    b.play(arm_moves)
    b.d.tick(60_000)  # past every grace period

    assert figures_of(b.state(DRAWN)) == (paused["white"], paused["black"], None)
    assert b.kinds(b.arm) == ["clock_set", {"start": "clock_started", "resume": "clock_resumed"}[then]] + [
        "clock_pressed"] * len(arm_moves)
    assert figures_of(b.state(b.arm)) == (arm_moves[-1]["white_ms"], arm_moves[-1]["black_ms"], "white")
    assert b.state(b.arm).clocks == [p[f"{p['side']}_ms"] for p in arm_moves]
    b.no_false_alarm()


def test_the_armageddons_setting_and_start_before_the_boards_result_are_the_armageddons(drawn_game):
    # the same, the board's result later still: after the clock's start for the Armageddon
    b = Board(drawn_game)
    paused = b.drawn_by_the_clock_alone()
    b.clock("set", ARMAGEDDON_MS, None, after_ms=SET_AFTER_MS)
    b.clock("start", ARMAGEDDON_MS, "white", after_ms=START_AFTER_MS)
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"}, after_ms=1_000)
    (arm,) = b.d.of("armageddon_scheduled")
    b.arm = arm["id"]
    arm_moves = b.armageddon()
    b.play(arm_moves)
    b.d.tick(60_000)

    assert figures_of(b.state(DRAWN)) == (paused["white"], paused["black"], None)
    g = b.state(b.arm)
    assert (g.clock.white_ms, g.clock.black_ms, g.clock.running) == (
        arm_moves[-1]["white_ms"], arm_moves[-1]["black_ms"], "white")
    assert g.clocks == [p[f"{p['side']}_ms"] for p in arm_moves] and g.started_at is not None
    b.no_false_alarm()


def test_an_arbiters_setting_the_game_plays_on_from_stays_the_games(drawn_game):
    # a setting while stopped that the game goes on from (an arbiter's correction, FIDE Laws 6.10.2:
    # here two minutes given back to White) is the game's own: no Armageddon follows a game that is
    # not drawn yet, and a setting that does not show the Armageddon's starting times is no sign of it
    b = Board(drawn_game)
    moves = plies(b.game, {"white": START_MS, "black": START_MS})
    b.clock("start", {"white": START_MS, "black": START_MS}, "white", after_ms=0)
    b.play(moves[:-1])
    before = moves[-2]
    b.clock("pause", {"white": before["white_ms"], "black": before["black_ms"]}, None, after_ms=1_000)
    corrected = {"white": before["white_ms"] + 2 * MIN, "black": before["black_ms"]}
    b.clock("set", corrected, None, after_ms=60_000)
    g = b.state(DRAWN)
    assert (figures_of(g), g.clock_event) == ((*corrected.values(), None), "clock_set")
    b.clock("resume", corrected, "white", after_ms=5_000)
    b.d.move("1", moves[-1]["uci"], after_ms=10_000)
    b.clock("press", {"white": corrected["white"] - 10_500, "black": corrected["black"]}, "black", after_ms=500)
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"}, after_ms=RESULT_AFTER_MS)
    (arm,) = b.d.of("armageddon_scheduled")
    b.arm = arm["id"]

    assert b.state(DRAWN).clocks[-1] == corrected["white"] - 10_500  # ply 67's press, after the setting
    assert b.state(b.arm).clock is None and b.kinds(b.arm) == []
    assert not b.d.of("message_awaiting_game")
    b.rebuilt_same()


def test_the_armageddons_first_press_before_the_draw_is_recorded_is_the_armageddons(drawn_game):
    # the players agree the draw and nobody reports it at once (the arbiter will enter it); the
    # clock is set for the Armageddon (10 and 7 minutes: its starting times, docs/protocol.md "Two
    # games on one board") and started, and the Armageddon's first moves and presses are made: the
    # setting shows the next game's start while the classical game has no result, so the board's
    # later messages wait (message_awaiting_game) instead of going to the classical game; the
    # arbiter's result (set_result, docs/arbiter.md) leaves the Armageddon open, and they are its own
    from dashboard.arbiter.actions import build

    b = Board(drawn_game)
    paused = b.drawn_by_the_clock_alone()
    drawn_clocks = list(b.state(DRAWN).clocks)
    b.set_and_start()
    arm_moves = b.armageddon()
    b.play(arm_moves[:2])
    waiting = b.d.of("message_awaiting_game")
    assert {(w["device"], w["reason"], w["game"]) for w in waiting} == {("clock", "next_game", DRAWN),
                                                                       ("board", "next_game", DRAWN)}
    assert len(waiting) == 2 + 2 * 2 and b.state(DRAWN).ply == 67 and b.state(DRAWN).clocks == drawn_clocks
    games = {DRAWN: {"id": DRAWN, "board": "1", "status": "playing", "result": "*", "ply": 67}}
    for entry in build("set_result", {"game": DRAWN, "result": "1/2-1/2"}, "chief", games):
        b.d.external(*entry)
    (arm,) = b.d.of("armageddon_scheduled")
    b.arm = arm["id"]
    b.play(arm_moves[2:])

    assert figures_of(b.state(DRAWN)) == (paused["white"], paused["black"], None)
    assert b.state(DRAWN).clocks == drawn_clocks and b.state(DRAWN).result == "1/2-1/2"
    assert b.state(b.arm).moves == [p["uci"] for p in arm_moves]
    assert b.kinds(b.arm) == ["clock_set", "clock_started"] + ["clock_pressed"] * len(arm_moves)
    assert b.state(b.arm).clocks == [p[f"{p['side']}_ms"] for p in arm_moves]
    assert b.d.hall.state.boards["1"].awaiting == []
    b.no_false_alarm()


def test_the_players_pause_resent_after_the_armageddons_setting_before_the_result_is_the_drawn_games(drawn_game):
    # the players' pause is lost and its hole skipped (seq_gap) before the arbiter's setting for the
    # Armageddon is applied; it comes again, then the board's result: the pause is the drawn game's
    # last reading, the setting the Armageddon's
    b = Board(drawn_game)
    paused = b.drawn_by_the_clock_alone(pause=False)
    pause = b.next_seq()
    b.clock("set", ARMAGEDDON_MS, None, seq=pause + 1, after_ms=SET_AFTER_MS)
    b.d.tick(HOLD_MS + 1)
    assert b.d.of("seq_gap")
    b.clock("pause", paused, None, seq=pause, after_ms=1_000)
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"}, after_ms=1_000)
    (arm,) = b.d.of("armageddon_scheduled")
    b.arm = arm["id"]
    assert figures_of(b.state(DRAWN)) == (paused["white"], paused["black"], None)
    g = b.state(b.arm)
    assert (figures_of(g), g.clock_event) == ((*ARMAGEDDON_MS.values(), None), "clock_set")
    assert b.d.hall.state.boards["1"].began["clock"] == [[pause + 1, b.arm]]  # the clock's boundary: the setting
    b.set_and_start()
    b.play(b.armageddon())
    b.no_false_alarm()
