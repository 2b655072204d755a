"""Clocks that add the next period when the current period's time runs out (issue 12, "Multi-period
clocks"; FIDE Laws 6.2, 6.8, 6.9). The control is the US Championship 2023's (catalogue
``us-2023/classical``: "90 minutes for the first 40 moves followed by 30 minutes for the rest of
the game with an addition of 30 seconds (increment) per move starting from move one")."""

from __future__ import annotations

import pytest
import regulation_controls as catalogue

from services.clock import (
    PERIOD_ON_EXPIRY, GameClock, TimeControl, carry_over, judge_period_added,
)
from services.clock.expiry import expiries, period_at

S = 1000
MIN = 60 * S
CLASSICAL = catalogue.control("us-2023/classical")


def play(clock: GameClock, white_ms: int, black_ms: int, moves: int, start: int = 0) -> int:
    """``moves`` moves by each side, White taking ``white_ms`` and Black ``black_ms`` per move;
    returns the instant after the last press."""
    at = start
    for _ in range(moves):
        at += white_ms
        clock.press("white", at)
        at += black_ms
        clock.press("black", at)
    return at


def test_a_period_running_out_before_its_moves_is_a_flag_fall_although_the_clock_goes_on():
    """FIDE Laws 6.9: "if a player does not complete the prescribed number of moves in the allotted
    time, the game is lost by the player". White makes 39 moves at 138 s each (5400 - 39 x 138 +
    39 x 30 = 1188 s left) and runs out during move 40: the flag falls then, on a clock that adds
    the 30 minutes on expiry as on one that adds them at move 40."""
    for mode in ("on_move", PERIOD_ON_EXPIRY):
        clock = GameClock(CLASSICAL, period_added=mode)
        clock.start(0)
        at = play(clock, 138 * S, 10 * S, 39)
        assert clock.remaining("white", at) == 1188 * S
        assert clock.flag_fall_at() == at + 1188 * S
        assert clock.flagged(at + 1188 * S) == "white"
    expiry = clock.expiry_flag(at + 1188 * S)
    assert expiry.to_json() == {"side": "white", "period": 0, "spent_ms": 1188 * S, "moves_made": 39,
                                "moves_required": 40, "in_time": False, "added_ms": 0,
                                "law": "FIDE Laws 6.9"}


def test_moves_made_in_time_add_the_next_period_when_the_time_runs_out():
    """FIDE Laws 6.2: the 30 minutes are due after move 40. A clock that adds them only when the
    90 minutes run out shows the 1188 s left after move 40 (no +30 min on the 40th press: what such
    a device shows, so the model and it agree), and no flag falls when they run out during move
    41: the 30 minutes are added. Once past that instant both clocks show the same time: the Laws
    give the same total."""
    counter = GameClock(CLASSICAL)
    expiry_clock = GameClock(CLASSICAL, period_added=PERIOD_ON_EXPIRY)
    for clock in (counter, expiry_clock):
        clock.start(0)
        play(clock, 135 * S, 10 * S, 40)
    at = 40 * 145 * S
    # 5400 - 40 x 135 + 40 x 30 = 1200 s; the counter adds 1800 s on the 40th press.
    assert counter.remaining("white", at) == 3000 * S
    assert expiry_clock.remaining("white", at) == 1200 * S
    assert expiry_clock.periods_added("white") == 0
    # White's move 41 takes 1500 s: the 90 minutes run out after 1200 s, the 30 are added.
    assert expiry_clock.flagged(at + 1500 * S) is None
    assert expiry_clock.remaining("white", at + 1500 * S) == counter.remaining("white", at + 1500 * S) == 1500 * S
    counter.press("white", at + 1500 * S)
    result = expiry_clock.press("white", at + 1500 * S)
    assert result.period_ms == 1800 * S and expiry_clock.periods_added("white") == 1
    assert expiry_clock.remaining("white", at + 1500 * S) == counter.remaining("white", at + 1500 * S) == 1530 * S
    # The second period is for the rest of the game: its end is a plain flag fall (6.8).
    assert expiry_clock.flag_fall_at() == counter.flag_fall_at()


def test_the_rest_of_game_period_running_out_is_a_plain_flag_fall():
    """FIDE Laws 6.8: with the last period used up the flag falls; ``expiry_flag`` names 6.8."""
    clock = GameClock(CLASSICAL, period_added=PERIOD_ON_EXPIRY)
    clock.start(0)
    at = play(clock, 135 * S, 10 * S, 40)
    fall = clock.flag_fall_at()
    assert fall == at + 1200 * S + 1800 * S
    assert clock.expiry_flag(fall).law == "FIDE Laws 6.8"
    assert clock.expiry_flag(fall - 1) is None


def test_judging_a_period_added_event():
    """The device event ``period_added``: the period's moves made (40 of 40) -> in time, the next
    period's 30 minutes are due (6.2); 39 of 40 -> the flag fell (6.9); the rest-of-game period has
    no next one (6.8)."""
    assert judge_period_added(CLASSICAL, "white", 0, 40).to_json() == {
        "side": "white", "period": 0, "spent_ms": 0, "moves_made": 40, "moves_required": 40,
        "in_time": True, "added_ms": 1800 * S, "law": "FIDE Laws 6.2"}
    late = judge_period_added(CLASSICAL, "black", 0, 39)
    assert (late.in_time, late.added_ms, late.law) == (False, 0, "FIDE Laws 6.9")
    assert judge_period_added(CLASSICAL, "white", 1, 70).law == "FIDE Laws 6.8"
    with pytest.raises(ValueError):
        judge_period_added(CLASSICAL, "white", -1, 40)
    with pytest.raises(ValueError):
        judge_period_added(CLASSICAL, "white", 0, -1)


def test_a_repeating_last_period_asks_for_its_moves_each_time():
    """docs/clocks.md: a last period with a move count repeats ("40/7200:20/3600": 3600 s after
    moves 40, 60, 80, ...); on expiry the third period asks for 80 moves in all."""
    control = TimeControl.parse_pgn("40/7200:20/3600")
    assert period_at(control, "white", 2)[1] == 80
    chain = expiries(control, "white", 100 * S, 65, 1)
    assert [(e.period, e.moves_required, e.in_time) for e in chain] == [(1, 60, True), (2, 80, False)]
    assert [e.spent_ms for e in chain] == [100 * S, 3700 * S]


def test_mode_is_checked_and_carried_over():
    """A bad mode is refused; a match clock keeps the convention of the clock before it."""
    with pytest.raises(ValueError):
        GameClock(CLASSICAL, period_added="sometimes")
    clock = GameClock(CLASSICAL, period_added=PERIOD_ON_EXPIRY)
    clock.start(0)
    clock.press("white", 10 * S)
    assert carry_over(clock, 20 * S).period_added == PERIOD_ON_EXPIRY
