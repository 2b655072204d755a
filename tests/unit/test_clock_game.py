"""GameClock events and queries: errors, pauses, arbiter settings, credits, sandclock."""

from __future__ import annotations

import copy

import pytest

from services.clock import (
    ClockError,
    FlagFallen,
    GameClock,
    NotRunning,
    Period,
    TimeControl,
)

S = 1000
G5_3 = TimeControl.parse_pgn("300+3")  # F08's control


def started(control=G5_3, **kw) -> GameClock:
    clock = GameClock(control, **kw)
    clock.start(0)
    return clock


def test_press_by_the_side_not_running_is_refused_and_ignored():
    """Move n of a side is its n-th press; a press by the side whose clock is not running is
    refused with NotRunning and changes nothing (a doubled press, a press by the waiting side)."""
    clock = started()
    clock.press("white", 4000)
    before = clock.to_json(5000)
    with pytest.raises(NotRunning):
        clock.press("white", 5000)
    assert clock.to_json(5000) == before and clock.moves_made("white") == 1


def test_press_before_start_and_while_paused():
    clock = GameClock(G5_3)
    with pytest.raises(NotRunning):
        clock.press("white", 0)
    clock.start(0)
    clock.pause(1000)
    with pytest.raises(NotRunning):
        clock.press("white", 2000)
    assert clock.running is None and clock.to_move == "white"


def test_pause_resume_time_stands_still():
    """FIDE Laws 6.11.1 / ACF X.A.f: a paused clock does not run."""
    clock = started()
    clock.pause(10 * S)
    assert clock.remaining("white", 60 * S) == 290 * S
    assert clock.flag_fall_at() is None
    clock.resume(60 * S)
    result = clock.press("white", 65 * S)
    assert result.used_ms == 15 * S and result.remaining_ms == 300 * S - 15 * S + 3 * S


def test_pause_and_resume_errors():
    clock = GameClock(G5_3)
    with pytest.raises(NotRunning):
        clock.pause(0)
    with pytest.raises(ClockError):
        clock.resume(0)
    clock.start(0)
    with pytest.raises(ClockError):
        clock.resume(1)
    with pytest.raises(ClockError):
        clock.start(2)


def test_instants_must_not_go_back():
    clock = started()
    clock.press("white", 5000)
    with pytest.raises(ClockError):
        clock.press("black", 4999)
    with pytest.raises(ClockError):
        clock.remaining("white", 4000)
    with pytest.raises(TypeError):
        clock.press("black", 6000.0)


def test_bad_side_and_bad_control():
    with pytest.raises(ValueError):
        started().press("red", 1)
    with pytest.raises(ValueError):
        GameClock(TimeControl.parse_pgn("-"))
    with pytest.raises(ValueError):
        GameClock(TimeControl.parse_pgn("?"))
    with pytest.raises(ValueError):
        GameClock(G5_3, white_ms=-1)
    with pytest.raises(ValueError):
        GameClock(G5_3, credit="sometimes")


def test_pause_after_the_flag_is_refused():
    clock = started()
    with pytest.raises(FlagFallen):
        clock.pause(300 * S)
    assert clock.flagged(300 * S) == "white"


def test_arbiter_set_revives_a_flagged_clock_paused():
    """FIDE Laws 6.10.2/6.11: the arbiter's setting is authoritative; a flagged clock is left
    paused until resumed."""
    clock = started()
    clock.set(120 * S, 300 * S, 301 * S)
    assert clock.running is None and clock.flagged(301 * S) is None
    assert clock.remaining("white", 400 * S) == 120 * S
    clock.resume(400 * S)
    assert clock.flag_fall_at() == 520 * S


def test_arbiter_set_while_running_and_move_counters():
    """The +2 min of FIDE Laws 7.5.5 given to Black while White's clock runs; counters set."""
    clock = started()
    clock.press("white", 10 * S)
    clock.press("black", 20 * S)
    clock.set(clock.remaining("white", 25 * S), clock.remaining("black", 25 * S) + 120 * S,
              25 * S, white_moves=1, black_moves=1)
    assert clock.running == "white"
    assert clock.remaining("black", 25 * S) == 300 * S - 10 * S + 3 * S + 120 * S
    assert clock.remaining("white", 30 * S) == 293 * S - 10 * S
    with pytest.raises(ValueError):
        clock.set(-1, 0, 30 * S)


def test_period_time_added_exactly_on_the_last_press_of_the_period():
    """"40/5400+30:1800+30": +30 min on White's 40th press, not the 39th or the 41st."""
    clock = started(TimeControl.parse_pgn("40/5400+30:1800+30"))
    at = 0
    for move in range(1, 42):
        for side in ("white", "black"):
            at += S
            result = clock.press(side, at)
            assert result.move_number == move
            assert result.period_ms == (1800 * S if move == 40 else 0)


def test_last_counted_period_repeats():
    """A last period with a move count repeats ("40/7200:20/3600": +3600 s after moves 40, 60,
    80, ...), the reading stated in docs/clocks.md."""
    tc = TimeControl.parse_pgn("40/7200:20/3600")
    added = [m for m in range(1, 101) if tc.added_on_press("white", m)[1]]
    assert added == [40, 60, 80, 100]


def test_move_start_credit_same_after_press_later_flag():
    """F08 clock model: crediting at the start of the move leaves post-press values the same but
    "the flag moments shift by one increment"."""
    press = started()
    start = started(credit="move_start")
    assert start.remaining("white", 0) == 303 * S  # the move's increment is shown at its start
    presses = [(4000, "white"), (10500, "black"), (20000, "white"), (21000, "black"),
               (313000, "white"), (320000, "black")]
    for at, side in presses:
        assert press.press(side, at).remaining_ms == start.press(side, at).remaining_ms
    assert press.flag_fall_at() == 323500
    assert start.flag_fall_at() == 326500
    assert start.press("white", 323600).remaining_ms == 2900  # no flag yet under this convention


def test_sandclock_time_moves_to_the_opponent():
    """PGN "*60": equal sand in each chamber (30 s each); time one side uses goes to the other."""
    clock = started(TimeControl.parse_pgn("*60"))
    assert clock.remaining("black", 10 * S) == 40 * S
    result = clock.press("white", 10 * S)
    assert result.remaining_ms == 20 * S and result.added_ms == 0
    assert clock.remaining("black", 10 * S) == 40 * S
    assert clock.flag_fall_at() == 50 * S
    assert clock.remaining("white", 50 * S) == 60 * S


def test_checkers_black_starts():
    """ACF/WCDF X.A.d: "As the game starts, Red's clock is started" (Black in the venue's terms)."""
    clock = GameClock(TimeControl.parse_pgn("5400"))
    clock.start(0, "black")
    assert clock.running == "black"
    with pytest.raises(NotRunning):
        clock.press("white", 1000)
    assert clock.press("black", 1000).move_number == 1


def test_copy_is_independent():
    clock = started()
    twin = clock.copy()
    deep = copy.deepcopy(clock)
    clock.press("white", 1000)
    assert twin.moves_made("white") == 0 and deep.running == "white"
    assert twin.press("white", 2000).remaining_ms == 301 * S


def test_used_time_per_move_and_json():
    clock = started()
    clock.press("white", 4000)
    clock.press("black", 10500)
    assert [p.used_ms for p in clock.presses] == [4000, 6500]
    assert clock.move_used_ms(12000) == 1500
    assert clock.presses[0].to_json()["added_ms"] == 3000
    assert clock.to_json(12000) == {"white_ms": 297500, "black_ms": 296500, "running": "white",
                                    "to_move": "white", "flagged": None, "flag_fall_at": 309500,
                                    "moves": {"white": 1, "black": 1}}


def test_zero_base_without_delay_flags_at_once():
    """A side that starts with 0 and no delay has no time: its flag falls at the start."""
    clock = started(TimeControl.parse_pgn("0+3"))
    assert clock.flagged(0) == "white"


def test_bronstein_flags_when_its_display_reaches_zero():
    """Bronstein runs the main time at once, so with 2 s left and a 5 s delay the flag falls after
    2 s; a simple delay would hold it until 7 s."""
    for kind, fall in (("bronstein", 2000), ("simple", 7000)):
        clock = GameClock(TimeControl.symmetric(Period(None, 60 * S, delay_ms=5 * S,
                                                       delay_kind=kind)), white_ms=2000)
        clock.start(0)
        assert clock.flag_fall_at() == fall


def test_delay_spent_once_per_move_across_a_pause():
    clock = started(TimeControl.symmetric(Period(None, 60 * S, delay_ms=5 * S,
                                                 delay_kind="simple")))
    clock.pause(3 * S)
    clock.resume(100 * S)
    assert clock.press("white", 104 * S).remaining_ms == 58 * S  # 7 s run, 5 s of it delay


@pytest.mark.parametrize("kwargs", [
    {"moves": 0, "time_ms": 1}, {"moves": None, "time_ms": -1},
    {"moves": None, "time_ms": 1, "increment_from_move": 0},
    {"moves": None, "time_ms": 1, "delay_ms": 5, "delay_kind": None},
    {"moves": None, "time_ms": 1, "delay_kind": "fischer", "delay_ms": 5},
    {"moves": None, "time_ms": 1, "increment_ms": 1, "delay_ms": 5, "delay_kind": "simple"},
    {"moves": None, "time_ms": 1.5},
])
def test_bad_periods(kwargs):
    with pytest.raises(ValueError):
        Period(**kwargs)


def test_bad_controls():
    with pytest.raises(ValueError):
        TimeControl.symmetric(Period(None, 1), Period(40, 1))  # rest-of-game not last
    with pytest.raises(ValueError):
        TimeControl((), (Period(None, 1),))
    with pytest.raises(ValueError):
        TimeControl((Period(None, 1),), (Period(None, 1),), kind="untimed")


def test_a_clock_reading_reads_as_the_clock_and_pgn_show_it():
    """PGN spec 8.1.1 ``[%clk h:mm:ss]`` (as DGT writes it): floored to the whole second; the
    alerts' details use the same form as the console's clock times."""
    from services.clock.reading import clock_text
    assert clock_text(5_398_200) == "1:29:58"
    assert clock_text(59_999) == "0:00:59"
    assert clock_text(0) == "0:00:00"
    assert clock_text(-400) == "0:00:00"
