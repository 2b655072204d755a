"""Hypothesis properties of GameClock (FIDE Laws 6: time runs down only for the side to move)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from services.clock import FlagFallen, GameClock, Period, TimeControl

S = 1000

controls = st.one_of(
    st.builds(lambda base, inc: TimeControl.symmetric(Period(None, base, inc)),
              st.integers(0, 600 * S), st.integers(0, 30 * S)),
    st.builds(lambda base, inc, frm, add: TimeControl.symmetric(
        Period(3, base, inc, increment_from_move=frm), Period(None, add, inc)),
        st.integers(1, 600 * S), st.integers(0, 30 * S), st.integers(1, 6), st.integers(0, 600 * S)),
    st.builds(lambda base, d, kind: TimeControl.symmetric(
        Period(None, base, delay_ms=d, delay_kind=kind)),
        st.integers(0, 120 * S), st.integers(1, 10 * S), st.sampled_from(["simple", "bronstein"])),
)
gaps = st.lists(st.integers(0, 90 * S), min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(controls, gaps, st.sampled_from(["press", "move_start"]))
def test_remaining_is_start_minus_charged_plus_added(control, moves, credit):
    """After every accepted press: remaining = starting time - time charged + everything credited,
    per side, where the charge is the move's time less its delay (none for Fischer)."""
    clock = GameClock(control, credit=credit)
    clock.start(0)
    at = 0
    for used in moves:
        side = clock.running
        at += used
        try:
            result = clock.press(side, at)
        except FlagFallen as fell:
            assert fell.at_ms <= at and clock.flagged(at) == side
            assert clock.remaining(side, at) == 0
            return
        assert result.used_ms == used
        mine = [p for p in clock.presses if p.side == side]
        delay, kind = control.delay_of_move(side, 1)
        charged = sum(max(0, p.used_ms - delay) if kind else p.used_ms for p in mine)
        assert result.remaining_ms == (control.starting_ms(side) - charged
                                       + sum(p.added_ms for p in mine))


@settings(max_examples=200, deadline=None)
@given(controls, gaps, st.integers(0, 90 * S))
def test_time_never_increases_without_a_credit(control, moves, probe):
    """Between events the running side's time only falls and the waiting side's stands still;
    a press raises a time only by what it credits (delays never raise it: F09)."""
    clock = GameClock(control)
    clock.start(0)
    at = 0
    for used in moves:
        side = clock.running
        waiting = "black" if side == "white" else "white"
        before = clock.remaining(side, at)
        wait_before = clock.remaining(waiting, at)
        mid = at + min(probe, used)
        assert clock.remaining(side, mid) <= before
        assert clock.remaining(waiting, mid) == wait_before
        at += used
        try:
            result = clock.press(side, at)
        except FlagFallen:
            return
        assert result.remaining_ms <= before + result.added_ms
        assert result.remaining_ms >= 0


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 600 * S), st.integers(0, 30 * S), gaps)
def test_flag_instant_is_where_time_reaches_zero(base, inc, moves):
    """flag_fall_at() is exactly the instant the running side's time reaches 0 (FIDE Laws 6.8)."""
    clock = GameClock(TimeControl.symmetric(Period(None, base, inc)))
    clock.start(0)
    at = 0
    for used in moves:
        side = clock.running
        fall = clock.flag_fall_at()
        assert clock.remaining(side, fall) == 0 and clock.flagged(fall) == side
        if fall > at:
            assert clock.remaining(side, fall - 1) == 1 and clock.flagged(fall - 1) is None
        at += used
        if at >= fall:
            return
        clock.press(side, at)


@settings(max_examples=100, deadline=None)
@given(controls, gaps)
def test_replay_is_deterministic(control, moves):
    """Same events, same clock: every state can be rebuilt from the log (DESIGN.md)."""
    def run() -> list:
        clock = GameClock(control)
        clock.start(0)
        at, out = 0, []
        for used in moves:
            at += used
            try:
                out.append(clock.press(clock.running, at))
            except FlagFallen as fell:
                out.append(fell.at_ms)
                break
        return out
    assert run() == run()
