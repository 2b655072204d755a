"""The gateway's timer under a tournament file looks at a game only at its next instant
(``gateway.hall.Hall._next_instant``, ``services.regulations.referee.next_due``) and says exactly what
a look at every unfinished game on every tick says (the behaviour before: the oracle, ``EveryTick``).

Two halls, the timer's and the oracle's, are driven side by side under each tournament file of
``events/`` (chess and checkers) with the same device messages, arbiters' actions, restarts and ticks,
at arbitrary instants and at the instants where the oracle's answer changes (one ms before, at and
after: a default time, a fine at the start, a move timer's warning and forfeit, time trouble, a late
start, a press without a move, a held message); every step must give the same entries and feedback,
in the same order. Replays at 60x (``clock_rate``) too. The scripted cases then drive each rule to its
instant with values from the regulations (FIDE Laws 6.7.1, US 2023 rule 1, 11-Man National 2017
X.A.d, X.B.a, X.B.c, X.B.e) and check the rule did fire, at that instant and not a ms before.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from device_traffic import arbiter_action as chess_arbiter_action
from device_traffic import messages as chess_messages
from timer_pair import END, EVENTS, HOUR, MIN, T0, Pair, tournament, walk

from dashboard.arbiter.actions import ActionError, build
from gateway.games import replay
from services.regulations.checkers_rounds import LATEST_START_BEFORE_END_MS, late_start_due_at
from services.regulations.clock_rules import TIME_TROUBLE_MS
from services.regulations.clock_watch import ClockWatch
from services.regulations.lateness import default_due_at, fine_due_at
from services.regulations.move_timer import FIVE_MINUTE, ONE_MINUTE, next_instant
from services.views.spectator import SpectatorView

FILES = sorted(p.name for p in EVENTS.glob("*.toml"))


def checkers_message(data, pair: Pair):
    """One checkers device message (topic, payload): a legal or refused move, a clock event with
    times about the 5:00 of time trouble, a result, a status, a seq fault."""
    board = data.draw(st.sampled_from(["1", "2"]))
    g = pair.hall.state.board_game(board)
    kind = data.draw(st.sampled_from(["move"] * 4 + ["clock"] * 4 + ["result", "status", "seq"]))
    if kind == "move":
        legal = [] if g.ended else replay(g).legal_moves()
        move = data.draw(st.sampled_from(legal)) if legal and data.draw(st.integers(0, 5)) else "9-14"
        return pair.send(board, "move", {"move": move})
    if kind == "clock":
        times = st.sampled_from([90 * MIN, 47 * MIN, TIME_TROUBLE_MS + 1, TIME_TROUBLE_MS, 20_000, 0])
        return pair.send(board, "clock", {"event": data.draw(st.sampled_from(["start", "press", "press", "pause",
                                                                              "resume"])),
                                          "white_ms": data.draw(times), "black_ms": data.draw(times),
                                          "running": data.draw(st.sampled_from(["black", "white", None]))})
    if kind == "result":
        return pair.send(board, "result", {"result": data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2"])),
                                           "reason": data.draw(st.sampled_from(["agreement", "resignation"]))})
    if kind == "status":
        return pair.send(board, "status", data.draw(st.sampled_from([b"online", b"offline"])))
    last = pair.seqs[(board, "board")]
    seq = data.draw(st.sampled_from([max(1, last), last + 2, last + 1]))
    pair.seqs[(board, "board")] = max(last, seq)
    return pair.send(board, "move", {"move": "11-15"}, seq=seq)


def checkers_arbiter_action(data, pair: Pair) -> None:
    """An arbiter's action on a checkers game (a move timer, X.B.a/X.B.c; a check-in, a result, a
    game reopened, the clock set, paused or resumed), appended when it is valid."""
    view = SpectatorView(pair.hall.state)
    action = data.draw(st.sampled_from(["start_move_timer"] * 4 + ["adjust_clock"] * 2 + ["check_in", "set_result",
                                                                                       "reopen", "pause", "resume"]))
    body: dict = {"game": data.draw(st.sampled_from(sorted(pair.hall.state.games)))}
    if action == "start_move_timer":
        body.update(rule=data.draw(st.sampled_from(["five_minute", "one_minute"])))
    elif action == "check_in":
        body["side"] = data.draw(st.sampled_from(["white", "black"]))
    elif action in ("set_result", "reopen"):
        action, body["result"] = "set_result", "*" if action == "reopen" else \
            data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2"]))
    elif action == "adjust_clock":
        body.update(white_ms=data.draw(st.sampled_from([TIME_TROUBLE_MS + 1, 10 * MIN])),
                    black_ms=data.draw(st.sampled_from([TIME_TROUBLE_MS + 1, 10 * MIN])))
    try:  # judged on the state, as POST /api/arbiter/actions does
        items = build(action, body, "chief", view.every_game(), pair.hall.state, now_ms=pair.now)
    except ActionError:
        return
    for type_, entry in items:
        pair.external(type_, entry)


DELAYS = st.sampled_from([0, 1, 5, 200, 999, 1_000, 4_999, 5_000, 50_000, 60_000, 10 * MIN, 31 * MIN, 2 * HOUR]) \
    | st.integers(0, 20 * MIN)
STEPS = {"chess": ["message"] * 5 + ["tick"] * 2 + ["edge"] * 3 + ["arbiter", "restart"],
         "checkers": ["message"] * 5 + ["tick"] * 2 + ["edge"] * 4 + ["arbiter"] * 3 + ["restart"]}


@pytest.mark.parametrize("event", FILES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), rate=st.sampled_from([1.0, 1.0, 60.0]))
def test_the_timer_says_what_a_look_at_every_game_on_every_tick_says(event, data, rate):
    t = tournament(event)
    pair = Pair(t, rate)
    pair.tick()  # the gateway runs before the round starts: the first tick's look at every game is spent
    for _ in range(data.draw(st.integers(5, 40))):
        step = data.draw(st.sampled_from(STEPS[t.game]))
        if step == "edge":  # the instants the oracle's answer changes: a ms before (the games an entry
            # touched are looked at then, so the next look is the timer's), then at one or a ms after
            for _ in range(data.draw(st.integers(1, 3))):
                at = pair.next_change()
                if at is not None:
                    pair.tick(at - 1)
                    pair.tick(at + data.draw(st.sampled_from([0, 0, 1])))
            continue
        pair.now += data.draw(DELAYS)
        if step == "tick":
            pair.tick()
        elif step == "arbiter":
            (checkers_arbiter_action if t.game == "checkers" else chess_arbiter_action)(data, pair)
        elif step == "restart":
            pair.restart()
        else:
            for topic, payload in ([checkers_message(data, pair)] if t.game == "checkers"
                                   else chess_messages(data, pair)):
                pair.handle(topic, payload)
    pair.tick(pair.now + data.draw(st.sampled_from([0, 1, 5 * HOUR])))
    assert pair.hall.state.snapshot() == pair.oracle.state.snapshot() and pair.hall.watches == pair.oracle.watches


# ----- scripted: each rule driven to its instant ------------------------------------------------
@pytest.mark.parametrize("event", ["us-championship-2023.toml", "us-womens-championship-2023.toml"])
def test_fines_at_the_start_and_the_default_time(event):
    # US 2023 rule 1: a fine "for not being at the board at the beginning of each round", from one ms
    # past the start; FIDE Laws 6.7.1 with the file's 30-minute default time: "arrives ... after the
    # default time shall lose" (F10 (b): 14:29:59 in time, 14:30:01 late), so one ms past it.
    pair = Pair(tournament(event))
    pair.tick(T0 - 10_000)
    assert walk(pair, T0) == ["", "", " ".join(["player_not_at_board"] * 6)]  # both sides of three games
    pair.handle(*pair.send("1", "move", {"move": "e2e4"}))  # White on board 1 is there (late: fined already)
    pair.handle(*pair.send("1", "clock", {"event": "press", "white_ms": 90 * MIN, "black_ms": 90 * MIN,
                                          "running": "black"}))
    pair.external("player_arrived", {"game": "1-2", "board": "2", "side": "black", "arrived_at": pair.now})
    said = walk(pair, T0 + 30 * MIN)
    assert said[:2] == ["", ""]
    assert said[2].split() == ["default_forfeit", "game_ended"] * 3  # board 1 Black, board 2 White, board 3 both
    assert pair.tick(T0 + 5 * HOUR) == []


def test_a_default_overruled_arms_it_again_for_the_player_still_absent():
    # FIDE Laws 6.7.1 "unless the arbiter decides otherwise": the game reopened; the player now at the
    # board is excused, the other is defaulted again (at once: the default time has passed)
    pair = Pair(tournament("us-championship-2023.toml"))
    pair.now = T0 + 31 * MIN
    pair.tick()
    assert pair.hall.state.games["1-1"].ended
    pair.external("player_arrived", {"game": "1-1", "board": "1", "side": "white", "arrived_at": pair.now})
    for type_, entry in build("set_result", {"game": "1-1", "result": "*"}, "chief",
                              SpectatorView(pair.hall.state).every_game()):
        pair.external(type_, entry)
    pair.tick(pair.now + 200)
    defaults = [d for ty, d, _ in pair.log if ty == "default_forfeit" and d["game"] == "1-1"]
    assert [d["side"] for d in defaults] == ["both", "black"]
    assert pair.hall.state.games["1-1"].result == "1-0"


@pytest.mark.parametrize("rate", [1.0, 60.0])
def test_checkers_time_trouble_at_five_minutes_on_a_running_match_clock(rate):
    # X.A.d: "impending time trouble (5 minutes or less prior to a time control)": Red's clock
    # started with 6:00 on the preset's match clock reaches 5:00 one minute later (of game time:
    # a second of the gateway's at 60x)
    pair = Pair(tournament("checkers-11-man-national-2017.toml"), rate)
    pair.now = T0
    pair.handle(*pair.send("1", "clock", {"event": "start", "white_ms": 90 * MIN, "black_ms": 90 * MIN,
                                          "running": "black"}))
    pair.now += 10
    for type_, entry in build("adjust_clock", {"game": "1-1.1", "white_ms": 90 * MIN, "black_ms": 6 * MIN},
                              "chief", SpectatorView(pair.hall.state).every_game()):
        pair.external(type_, entry)
    set_at = pair.now
    pair.tick()
    # the model counts game time as int(gateway ms x rate): 5:00 is left at the first instant whose
    # game time is a minute past the setting's
    at = next(n for n in range(set_at, set_at + MIN + 2) if int(n * rate) - int(set_at * rate) >= MIN)
    assert walk(pair, at) == ["", "time_trouble_impending", ""]


def test_checkers_move_timers_and_the_late_start():
    # The Major and Minor divisions' preset (X.B: no clocks; the timers its regulations provide).
    # X.B.a: the five-minute rule calls "time" at 5 minutes and forfeits past 6; X.B.e: no game
    # started later than 30 minutes before the round's scheduled end (END), drawn one ms past it;
    # X.B.c: the one-minute rule, after the warning 30 minutes before the end, warns 10 s before the
    # minute and forfeits past it. The timers time games in progress: boards 1 and 2 have begun.
    pair = Pair(tournament("checkers-11-man-national-2017-major-minor.toml"))
    pair.now = T0
    for board in ("1", "2"):
        pair.handle(*pair.send(board, "move", {"move": "11-15"}))  # Black (Red) moves first

    def timer(game: str, rule: str) -> None:
        for type_, entry in build("start_move_timer", {"game": game, "rule": rule}, "chief",
                                  SpectatorView(pair.hall.state).every_game(), pair.hall.state, now_ms=pair.now):
            pair.external(type_, entry)

    timer("1-1", "five_minute")
    began = pair.now
    assert walk(pair, began + 5 * MIN) == ["", "move_timer_warning", ""]
    assert walk(pair, began + 6 * MIN + 1) == ["", "move_timer_forfeit game_ended", ""]
    with pytest.raises(ActionError, match="the one-minute rule follows the warning 30 minutes before the end"):
        timer("1-2", "one_minute")
    said = walk(pair, END - LATEST_START_BEFORE_END_MS + 1)
    assert said[0] == said[2] == ""
    assert said[1].split() == ["late_start_draw", "game_ended"]  # board 3's game, never started
    pair.now += 10_000
    timer("1-2", "one_minute")
    began = pair.now
    assert walk(pair, began + 50_000) == ["", "move_timer_warning", ""]
    assert walk(pair, began + MIN + 1) == ["", "move_timer_forfeit game_ended", ""]


def test_a_press_without_a_move_under_a_file():
    # FIDE Laws 7.5.3: a press without a move, once the clock model's grace (5 s) has run out
    pair = Pair(tournament("norway-chess-2023.toml"))
    pair.now = T0
    pair.handle(*pair.send("1", "clock", {"event": "start", "white_ms": 120 * MIN, "black_ms": 120 * MIN,
                                          "running": "white"}))
    pair.handle(*pair.send("1", "clock", {"event": "press", "white_ms": 120 * MIN, "black_ms": 120 * MIN,
                                          "running": "black"}))
    pressed = pair.now
    assert walk(pair, pressed + 5_000)[:2] == ["", "penalty_proposed"]


# ----- the rules' own instants (pure) -----------------------------------------------------------
def test_the_rules_instants():
    # FIDE Laws 6.7.1, F10 (b): start 14:00:00, default 30 min: 14:30:00 in time, a ms later late
    assert default_due_at(0, 30 * MIN, None, 5) == 30 * MIN + 1
    assert default_due_at(0, 30 * MIN, 3, 5) is None  # both arrived: settled
    assert fine_due_at(0, None) == 1 and fine_due_at(0, 0) is None  # US 2023 rule 1
    assert late_start_due_at(4 * HOUR, None) == 3 * HOUR + 30 * MIN + 1 and late_start_due_at(4 * HOUR, 5) is None
    assert next_instant(ONE_MINUTE, 1_000, warned=False) == 51_000  # X.B.c: 10 s before the minute
    assert next_instant(ONE_MINUTE, 1_000, warned=True) == 61_001
    assert next_instant(FIVE_MINUTE, 0, warned=False) == 5 * MIN and next_instant(FIVE_MINUTE, 0, True) == 6 * MIN + 1
    for rate in (1.0, 60.0, 2.5):
        w = ClockWatch(None, rate=rate)
        for game_ms in (0, 59, 60, 61, 10**14 + 7):
            n = w.instant_of(game_ms)
            assert int(n * rate) >= game_ms > int((n - 1) * rate)


def test_when_a_running_clock_reaches_a_time():
    # X.A.d's 5:00 on a clock with 6:00 left: exact without a delay (a minute on); with a simple
    # (US) delay of 5 s (F09: the main time starts counting down after the delay) the clock gets
    # there 5 s later: the instant given is the earlier one (asked again then, it says the truth)
    from services.clock import TimeControl
    from services.clock.period import Period

    plain = ClockWatch(TimeControl.symmetric(Period(None, 6 * MIN)))
    plain.on_clock("start", None, None, "white", 1_000)
    assert plain.when_left("white", 5 * MIN, 1_000) == 1_000 + MIN
    assert plain.when_left("black", 5 * MIN, 1_000) is None  # not running: only an event moves it
    assert plain.when_left("white", 5 * MIN, 1_000 + MIN) == 1_000 + MIN  # there already
    delayed = ClockWatch(TimeControl.symmetric(Period(None, 6 * MIN, delay_ms=5_000, delay_kind="simple")))
    delayed.on_clock("start", None, None, "white", 1_000)
    first = delayed.when_left("white", 5 * MIN, 1_000)
    assert first == 1_000 + MIN and delayed.remaining("white", first) == 5 * MIN + 5_000
    assert delayed.when_left("white", 5 * MIN, first) == 1_000 + MIN + 5_000
    assert delayed.remaining("white", 1_000 + MIN + 5_000) == 5 * MIN
    fast = ClockWatch(TimeControl.symmetric(Period(None, 6 * MIN)), rate=60.0)  # a replay at 60x
    fast.on_clock("start", None, None, "white", 1_000)
    assert fast.when_left("white", 5 * MIN, 1_000) == 2_000  # a second of the gateway's: a minute of game
    assert fast.remaining("white", 1_999) > 5 * MIN >= fast.remaining("white", 2_000)
