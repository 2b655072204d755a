"""Clock figures bounded by the game's time control, and an ended game's clock left alone (issue 28
item 7: "Absurd clock figures are taken at face value: a ``start`` with 2^53-1 ms then a press with 0
ended a game 1-0 on time at ply 0; later ``set``, ``resume``, ``period_added`` on the ended game were
still logged").

The bound is ``services.clock.ceiling.most_ms``: the starting time, what FIDE Laws 6.1/6.2 add on the
side's presses (increments, the next period's time) for its moves so far and ``MOVES_AHEAD`` more,
plus ``MARGIN_MS``. The controls: 90 min + 30 s a move (the hall driver's, FIDE's standard rate for
its events), the Candidates 2024's 120 min for 40 moves then 30 min with 30 s from move 41 (its
regulations), Norway Chess 2023's Armageddon 10 min against 7 min with 1 s from move 41, a 10-minute
sandclock (PGN standard 9.6.1 ``*600``).
"""

from __future__ import annotations

from hall_driver import Driver

from services.clock.ceiling import MARGIN_MS, MOVES_AHEAD, NO_CONTROL_MS, most_ms
from services.clock.control import TimeControl
from services.clock.period import Period

MAX_SEQ = 2**53 - 1  # the report's figure: JavaScript's largest exact integer, the payload's old bound
STANDARD = TimeControl.symmetric(Period(None, 5_400_000, increment_ms=30_000))  # 90 min + 30 s
CANDIDATES = TimeControl.symmetric(Period(40, 7_200_000), Period(None, 1_800_000, increment_ms=30_000,
                                                                 increment_from_move=41))


def test_the_bound_adds_what_the_presses_can_add_and_the_margin():
    # 90 + 30: 90 min, 30 s on each of the side's presses so far and the 60 ahead, 30 min margin.
    assert most_ms(STANDARD, "white", 0) == 5_400_000 + MOVES_AHEAD * 30_000 + MARGIN_MS
    assert most_ms(STANDARD, "black", 20) == 5_400_000 + (20 + MOVES_AHEAD) * 30_000 + MARGIN_MS
    # Candidates: 120 min; from move 0, the 60 presses ahead reach move 40 (+30 min) and 41-60 (+30 s each).
    assert most_ms(CANDIDATES, "white", 0) == 7_200_000 + 1_800_000 + 20 * 30_000 + MARGIN_MS
    # Armageddon: each side its own starting time.
    armageddon = TimeControl.per_side(Period(None, 600_000, increment_ms=1_000, increment_from_move=41),
                                      Period(None, 420_000, increment_ms=1_000, increment_from_move=41))
    assert most_ms(armageddon, "white", 0) - most_ms(armageddon, "black", 0) == 180_000
    assert most_ms(TimeControl.sandclock(600_000), "white", 30) == 600_000 + MARGIN_MS  # all the sand
    for control in (None, TimeControl.untimed(), TimeControl.unknown(),
                    TimeControl.symmetric(Period(None, 600_000), carries_over=True)):
        assert most_ms(control, "white", 0) == NO_CONTROL_MS


def test_the_reports_start_and_press_are_refused_and_end_nothing():
    d = Driver("1")  # 90 min + 30 s
    step = d.clock("1", "start", MAX_SEQ, MAX_SEQ, "white")
    (t, data), = step.entries
    assert t == "message_rejected" and data["applied"] is True and data["seq"] == 1
    assert data["reason"].startswith("bad clock figure: white_ms 9007199254740991 is more than the game's time control")
    assert step.feedback[0][1]["accepted"] is False and step.feedback[0][1]["reason"] == data["reason"]
    step = d.clock("1", "press", MAX_SEQ, 0, "black")  # "then a press with 0"
    assert [t for t, _ in step.entries] == ["message_rejected"]
    assert d.types("clock_started", "clock_pressed", "flag_fell", "game_ended") == []
    d.move("1", "e2e4")  # the game goes on
    assert d.played() == ["e2e4"] and not d.hall.state.games["1-1"].ended


def test_a_figure_at_the_bound_is_taken_and_one_over_it_refused():
    d = Driver("1")
    most = most_ms(STANDARD, "white", 0)
    assert most == 9_000_000  # 2 h 30 min: a real start (5,400,000) is far below it
    d.clock("1", "set", most + 1, 5_400_000, None)
    d.clock("1", "set", 5_400_000, most, None)
    assert d.types("message_rejected", "clock_set") == ["message_rejected", "clock_set"]
    assert "black_ms" not in d.of("message_rejected")[0]["reason"]


def test_an_ended_games_clock_takes_no_start_set_resume_or_period_added_from_the_device():
    d = Driver("1")
    d.clock("1", "start", 5_400_000, 5_400_000, "white")
    d.move("1", "e2e4")
    d.clock("1", "press", 5_395_000, 5_400_000, "black")
    d.send("1", "result", {"result": "0-1", "reason": "resignation"})
    assert d.hall.state.games["1-1"].ended
    for event, extra in (("set", {}), ("resume", {}), ("start", {}),
                         ("period_added", {"side": "white", "period": 2})):
        step = d.clock("1", event, 5_395_000, 5_400_000, "white" if event != "set" else None, **extra)
        (t, data), = step.entries
        assert t == "message_rejected" and data["applied"] is True
        assert data["reason"] == f"game over: a clock's {event} does not act on an ended game (only the arbiter's actions do)"
        assert step.feedback[0][1]["accepted"] is False
    # The clock stopped at the end is still recorded (a pause), as a last press would be.
    d.clock("1", "pause", 5_395_000, 5_390_000, None)
    assert d.types("clock_set", "clock_resumed", "clock_period_added", "clock_paused") == ["clock_paused"]
    assert d.types("clock_started") == ["clock_started"]  # the one before the end
