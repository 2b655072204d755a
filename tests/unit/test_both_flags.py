"""Both flags at 0:00 (issue 29, kind 1): a clock stopped with both times at zero used to record
nothing (no flag, no alert, the game "playing"). Now the clock's readings say which flag fell first
where they can (``services.clock.flags``), and where they cannot the Laws and the Guidelines decide
(``services.regulations.both_flags``), recorded as ``both_flags_fell`` with the arbiter alerted.

FIDE Laws of Chess 2023 (E.01): 6.8 "A flag is considered to have fallen when the arbiter observes
the fact or when either player has made a valid claim to that effect"; 6.10.1 "Every indication given
by the chessclock is considered to be conclusive in the absence of any evident defect"; 6.11.1 "If the
game needs to be interrupted, the arbiter shall pause the chessclock." Guidelines III.2.1 ("shall only
be used at an event if their use has been announced beforehand"), III.2.2 ("only to standard chess
and rapid chess games without increment and not to blitz games"), III.3.1 "If both flags have fallen
and it is impossible to establish which flag fell first then: III.3.1.1 the game shall continue if
this occurs in any period of the game except the last period. III.3.1.2 the game is drawn if this
occurs in the period of a game in which all remaining moves must be completed."
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hall_driver import Driver

from services.clock import TimeControl
from services.clock.flags import BOTH, EARLIER, RUNNING, STOPPED, FlagFall, flag_fall
from services.regulations.both_flags import ARBITER, CONTINUE, DRAWN, both_flags
from services.regulations.tournament_file import load_tournament
from alert_feed import FoldedAlerts

EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000


def reading(event: str, white_ms: int, black_ms: int, running: str | None) -> dict:
    return {"event": event, "white_ms": white_ms, "black_ms": black_ms, "running": running}


def test_which_flag_fell_by_the_clocks_own_readings():
    # 6.8/6.9: the running side reaching 0, or the clock stopping itself with one side at 0
    assert flag_fall(reading("press", 0, 5000, "white"), reading("press", 300, 5000, "black")) == FlagFall("white", RUNNING)
    assert flag_fall(reading("pause", 5000, 0, None), reading("press", 5000, 40, "black")) == FlagFall("black", STOPPED)
    # 6.10.1: the clock showed Black at 0 while White's time still ran; then White's ran out too
    assert flag_fall(reading("pause", 0, 0, None), reading("press", 700, 0, "white")) == FlagFall("black", EARLIER)
    assert flag_fall(reading("press", 0, 0, "white"), reading("press", 700, 0, "white")) == FlagFall("black", EARLIER)
    # neither at 0 before, both at 0 now: which fell first cannot be established (III.3.1)
    both = flag_fall(reading("pause", 0, 0, None), reading("press", 700, 900, "white"))
    assert both == FlagFall(None, BOTH) and both.both
    assert flag_fall(reading("pause", 0, 0, None), None).both  # no reading before at all
    # said once: the next reading that still shows 0:00/0:00 is no news
    assert flag_fall(reading("pause", 0, 0, None), reading("pause", 0, 0, None)) is None
    # Candidates 2024 r1, Abasov - Nepomniachtchi 6...dxc4 {[%clk 0:00:00]}: a zero for the side that
    # pressed, in passing, is not a flag fall (the game went on to move 41)
    assert flag_fall(reading("press", 5_400_000, 0, "white"), reading("press", 5_400_000, 5_390_000, "black")) is None


def test_the_rulings_the_guidelines_give_and_where_they_give_none():
    sudden_death = TimeControl.parse_pgn("5400")  # G/90: all moves in one period
    two_periods = TimeControl.parse_pgn("40/5400:1800")  # 40 moves in 90 min, then 30 min for the rest
    moves = {"white": 30, "black": 30}
    assert both_flags(sudden_death, moves, True).ruling == DRAWN  # III.3.1.2
    assert both_flags(sudden_death, moves, True).law == "FIDE Laws Guidelines III.3.1.2"
    found = both_flags(two_periods, moves, True)  # III.3.1.1: in the first period the game continues
    assert (found.ruling, found.law) == (CONTINUE, "FIDE Laws Guidelines III.3.1.1")
    assert found.periods == {"white": {"period": 0, "last": False, "moves_made": 30},
                             "black": {"period": 0, "last": False, "moves_made": 30}}
    assert both_flags(two_periods, {"white": 45, "black": 45}, True).ruling == DRAWN  # both in the last period
    mixed = both_flags(two_periods, {"white": 40, "black": 39}, True)  # White in the last period, Black not
    assert mixed.ruling == ARBITER and "different periods" in mixed.law
    # III.2.1: not announced; III.2.2: an increment (US 2023 rule 4: 30 s from move one), blitz
    assert "III.2.1" in both_flags(sudden_death, moves, False).law
    assert "III.2.2" in both_flags(TimeControl.parse_pgn("40/5400+30:1800+30"), moves, True).law
    assert "not blitz" in both_flags(TimeControl.parse_pgn("300"), moves, True).law
    assert both_flags(None, moves, True).ruling == ARBITER
    assert both_flags(sudden_death, moves, True, "checkers").law == "11-Man National 2017 X.A.b, X.A.e"


def guidelines_event():
    """US Championship 2023's file (FIDE Laws apply) with the Guidelines III announced: a
    constructed event (none of the seed events announces them; all but checkers have increments)."""
    t = load_tournament((EVENTS / "us-championship-2023.toml").read_text(), "us-championship-2023.toml")
    return dataclasses.replace(t, regulations=dataclasses.replace(t.regulations, guidelines_iii=True))


def test_both_flags_without_the_guidelines_wait_for_the_arbiter():
    d = Driver("1")
    d.clock("1", "start", 5 * MIN, 5 * MIN, "white")
    d.clock("1", "press", 2 * MIN, 5 * MIN, "black")
    d.clock("1", "pause", 0, 0, None)  # a clock stopped at 0:00 / 0:00
    [both] = d.of("both_flags_fell")
    assert (both["ruling"], both["white_ms"], both["black_ms"]) == (ARBITER, 0, 0)
    assert "III.2.1" in both["law"]
    assert not d.of("flag_fell") and not d.of("game_ended")
    assert d.hall.state.games["1-1"].status == "playing"
    alerts = FoldedAlerts()
    for seq, (t, data) in enumerate(d.entries, start=1):
        alerts.apply(seq, 0, t, data)
    [alert] = [a for a in alerts.open_alerts() if a.kind == "both_flags_fell"]
    assert alert.severity == "action" and alert.game == "1-1"
    d.clock("1", "pause", 0, 0, None)  # the clock says it again: no news
    assert len(d.of("both_flags_fell")) == 1
    # a gateway rebuilt from the log has the same state and says nothing more
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


def test_both_flags_under_the_guidelines_draw_in_the_last_period_and_continue_before_it():
    d = Driver("1", config=guidelines_event(), time_control="5400")  # G/90, no increment
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.clock("1", "press", 10, 30, "black")
    d.clock("1", "pause", 0, 0, None)
    [both] = d.of("both_flags_fell")
    assert both["ruling"] == DRAWN and both["law"] == "FIDE Laws Guidelines III.3.1.2"
    [end] = d.of("game_ended")
    assert (end["result"], end["termination"], end["by"]) == ("1/2-1/2", "time_forfeit", "rules")

    d = Driver("1", config=guidelines_event(), time_control="40/5400:1800")
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "e2e4")
    d.clock("1", "press", 10, 30, "black")
    d.clock("1", "pause", 0, 0, None)
    [both] = d.of("both_flags_fell")
    assert both["ruling"] == CONTINUE and not d.of("game_ended")


def test_the_earlier_reading_decides_which_flag_fell_first():
    # 6.10.1: Black's clock stood at 0 while White's ran; the clock then stopped at 0:00 / 0:00
    d = Driver("1", fen="4k3/8/8/8/8/8/4P3/4K2R w K - 0 60")
    d.clock("1", "start", MIN, MIN, "white")
    d.clock("1", "press", MIN, 0, "white")
    d.clock("1", "pause", 0, 0, None)
    [flag] = d.of("flag_fell")
    assert flag["side"] == "black" and not d.of("both_flags_fell")
    assert d.of("game_ended")[0]["result"] == "1-0"  # 6.9: White can mate (K+R+P v K)
