"""Default time (FIDE Laws 6.7.1) on field case F10 of ../shared/cases/field-cases.md."""

from datetime import datetime, timezone

from services.regulations.lateness import default_verdict, is_late, not_at_board_at_start

START = int(datetime(2026, 1, 1, 14, 0, 0, tzinfo=timezone.utc).timestamp() * 1000)
MIN = 60_000


def at(h: int, m: int, s: int) -> int:
    return int(datetime(2026, 1, 1, h, m, s, tzinfo=timezone.utc).timestamp() * 1000)


def test_f10a_zero_default_time_white_five_seconds_late_loses():
    # F10 (a): "Default time 0. White arrives at 14:00:05" -> "White loses by default (0-1, unplayed)".
    v = default_verdict(START, 0, at(14, 0, 5), at(14, 0, 5), at(14, 0, 0))
    assert v is not None and v.side == "white" and v.result == "0-1"


def test_f10b_thirty_minutes_arriving_at_142959_is_in_time():
    # F10 (b): "Arriving at 14:29:59, White plays" (no forfeit).
    assert not is_late(at(14, 29, 59), START, 30 * MIN, at(14, 29, 59))
    assert default_verdict(START, 30 * MIN, at(14, 35, 0), at(14, 29, 59), START) is None


def test_f10b_thirty_minutes_arriving_at_143001_forfeits():
    # F10 (b): "Arriving at 14:30:01 is a forfeit, 0-1."
    v = default_verdict(START, 30 * MIN, at(14, 30, 1), None, START)
    assert v.side == "white" and v.result == "0-1"
    v2 = default_verdict(START, 30 * MIN, at(14, 40, 0), at(14, 30, 1), START)
    assert v2.side == "white"


def test_f10c_default_time_counts_from_scheduled_start_not_clock_start():
    # F10 (c): White moved at 14:00:20; Black arriving 14:25:00 plays; at 14:30:01 Black forfeits
    # "although his clock still shows time".
    white_present = at(14, 0, 20)
    assert default_verdict(START, 30 * MIN, at(14, 31, 0), white_present, at(14, 25, 0)) is None
    v = default_verdict(START, 30 * MIN, at(14, 30, 1), white_present, None)
    assert v.side == "black" and v.result == "1-0"


def test_f10d_both_absent_is_a_double_forfeit():
    # F10 (d): "Neither player is present at 14:30:01" -> "Both players lose: a 0-0 double forfeit".
    v = default_verdict(START, 30 * MIN, at(14, 30, 1), None, None)
    assert v.side == "both" and v.result == "0-0"


def test_nobody_is_in_default_before_the_deadline():
    # Laws 6.7.1: only arrival "after the default time" loses.
    assert default_verdict(START, 30 * MIN, at(14, 30, 0), None, None) is None


def test_not_at_board_at_start_us2023_rule_1():
    # US 2023 rule 1: "Players not at their board at the beginning of each round may receive a fine".
    assert not_at_board_at_start(START, at(14, 0, 1), at(14, 5, 0))
    assert not not_at_board_at_start(START, at(13, 59, 0), at(14, 5, 0))
    assert not_at_board_at_start(START, None, at(14, 0, 1))
