"""Field cases F08, F09 and the clock arithmetic of F10 (../shared/cases/field-cases.md).

Clock model of the cases: "after a press, a side's remaining time = time before - elapsed +
increment ... The increment is credited on the press, from move 1, and never after a flag has
fallen." Instants are ms from the clock's start.
"""

from __future__ import annotations

import pytest

from services.clock import FlagFallen, GameClock, Period, TimeControl

S = 1000


def test_f08_fischer_increment_on_the_press_and_never_after_the_flag():
    """F08: 5 min + 3 s, White's clock starts at t=0; remaining after each press from the table;
    White's flag falls at t=323.5; the press at 323.6 adds nothing and does not revive."""
    clock = GameClock(TimeControl.parse_pgn("300+3"))
    clock.start(0)
    table = [(4000, "white", 299000), (10500, "black", 296500), (20000, "white", 292500),
             (21000, "black", 298500), (313000, "white", 3500), (320000, "black", 294500)]
    for at, side, expected in table:
        result = clock.press(side, at)
        assert result.remaining_ms == expected
        assert result.increment_ms == 3 * S
    assert clock.flag_fall_at() == 323500
    assert clock.flag_fall_at(323499) is None and clock.flag_fall_at(323500) == 323500
    assert clock.flagged(323499) is None
    assert clock.flagged(323500) == "white"
    with pytest.raises(FlagFallen) as caught:
        clock.press("white", 323600)
    assert (caught.value.side, caught.value.at_ms) == ("white", 323500)
    assert clock.remaining("white", 323600) == 0
    assert clock.remaining("black", 323600) == 294500
    assert clock.moves_made("white") == 3 and len(clock.presses) == 6


def test_f08_second_player_gets_nothing_on_the_first_turn():
    """F08 (simple-chess-clock#1): Black's clock before Black's first press is untouched."""
    clock = GameClock(TimeControl.parse_pgn("300+3"))
    clock.start(0)
    clock.press("white", 4000)
    assert clock.remaining("black", 4000) == 300000


@pytest.mark.parametrize("kind", ["simple", "bronstein"])
def test_f09_delay_is_not_an_increment(kind):
    """F09: base 60 s, 5 s delay; presses (3.2 W), (10.7 B), (16.7 W) -> W 60.0, B 57.5, W 59.0;
    "Bronstein and simple delay give the same remaining times after each press"."""
    clock = GameClock(TimeControl.symmetric(Period(None, 60 * S, delay_ms=5 * S, delay_kind=kind)))
    clock.start(0)
    assert clock.press("white", 3200).remaining_ms == 60000
    assert clock.press("black", 10700).remaining_ms == 57500
    assert clock.press("white", 16700).remaining_ms == 59000
    assert all(p.added_ms == 0 for p in clock.presses)


def test_f09_fischer_with_the_same_presses_is_the_bug_value():
    """F09: "Fischer +5 with the same presses would give 61.8 / 57.5 / 60.8"."""
    clock = GameClock(TimeControl.parse_pgn("60+5"))
    clock.start(0)
    assert [clock.press(s, t).remaining_ms for s, t in
            (("white", 3200), ("black", 10700), ("white", 16700))] == [61800, 57500, 60800]


def test_f09_zero_base_with_delay_does_not_flag_at_once():
    """F09 zero-base variant: base 0 + 5 s delay; presses (4.9 W), (9.8 B), (15.0 W): W and B stay
    at 0.0 and White flags at t=14.8 (simple/US delay)."""
    clock = GameClock(TimeControl.symmetric(Period(None, 0, delay_ms=5 * S, delay_kind="simple")))
    clock.start(0)
    assert clock.flagged(0) is None
    assert clock.press("white", 4900).remaining_ms == 0
    assert clock.press("black", 9800).remaining_ms == 0
    assert clock.flag_fall_at() == 14800
    with pytest.raises(FlagFallen) as caught:
        clock.press("white", 15000)
    assert caught.value.at_ms == 14800
    assert clock.flagged(15000) == "white"


def test_f09_display_during_a_move_simple_and_bronstein():
    """F09: "They differ only in what the display shows during the move": after 3 s of a move
    with 60 s and a 5 s delay, the simple delay still shows 60 s, Bronstein shows 57 s."""
    for kind, shown in (("simple", 60000), ("bronstein", 57000)):
        clock = GameClock(TimeControl.symmetric(Period(None, 60 * S, delay_ms=5 * S,
                                                       delay_kind=kind)))
        clock.start(0)
        assert clock.remaining("white", 3000) == shown


def test_f10_b_absent_white_arrives_at_142959():
    """F10 (b): clocks started at 14:00:00, 90+30; White arrives at 14:29:59 and plays with
    5400 - 1799 = 3601 s."""
    start = (14 * 3600) * S
    clock = GameClock(TimeControl.parse_pgn("5400+30"))
    clock.start(start)
    assert clock.remaining("white", start + 1799 * S) == 3601 * S


def test_f10_c_black_clock_started_by_whites_press():
    """F10 (c): White plays 1.e4 and presses at 14:00:20; Black arrives at 14:25:00 with
    5400 - 1480 = 3920 s."""
    start = (14 * 3600) * S
    clock = GameClock(TimeControl.parse_pgn("5400+30"))
    clock.start(start)
    clock.press("white", start + 20 * S)
    assert clock.remaining("black", start + 1500 * S) == 3920 * S
