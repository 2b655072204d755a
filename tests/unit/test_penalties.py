"""Fixed penalties (FIDE Laws of Chess 2023: 7.5.5, 9.5.3, Appendices A.1, A.3, A.5.2, B.1-B.3),
quoted in services/rules/penalties.py; every expected value below is read from those articles."""

from __future__ import annotations

import pytest

from services.rules.penalties import (
    BLITZ, ILLEGAL_MOVE, INCORRECT_CLAIM, RAPID, STANDARD, illegal_move_stands, penalty, time_class,
)


def test_first_illegal_move_standard_gives_two_minutes():
    """7.5.5: "for the first completed illegal move by a player, the arbiter shall give two minutes
    extra time to his/her opponent"."""
    first = penalty(ILLEGAL_MOVE, 1)
    assert (first.add_ms, first.game_lost, first.law) == (120_000, False, "FIDE Laws 7.5.5")


def test_second_illegal_move_loses_in_every_class():
    """7.5.5: "for the second completed illegal move by the same player the arbiter shall declare
    the game lost by this player" (A.5.2 applies 7.5.5 in rapid and blitz too)."""
    for game_class, appendix in ((STANDARD, None), (RAPID, "A.4"), (RAPID, "A.5"), (BLITZ, "B.2"), (BLITZ, "B.3")):
        second = penalty(ILLEGAL_MOVE, 2, game_class, appendix)
        assert second.game_lost and second.add_ms == 0 and second.law.startswith("FIDE Laws 7.5.5")
    assert penalty(ILLEGAL_MOVE, 2, RAPID, "A.5").law == "FIDE Laws 7.5.5, A.5.2"


def test_rapid_and_blitz_under_b3_give_one_minute():
    """A.3: "The penalties mentioned in Articles 7 and 9 of the Competitive Rules of Play shall be
    one minute instead of two minutes"; B.3: blitz "Otherwise ... governed by the Rapid chess Laws
    as in Article A.2, A.3 and A.5"."""
    assert penalty(ILLEGAL_MOVE, 1, RAPID).add_ms == 60_000
    assert penalty(ILLEGAL_MOVE, 1, RAPID, "A.4").add_ms == 60_000
    assert penalty(ILLEGAL_MOVE, 1, BLITZ, "B.3").add_ms == 60_000
    assert penalty(INCORRECT_CLAIM, 1, RAPID).add_ms == 60_000
    assert penalty(INCORRECT_CLAIM, 1, BLITZ, "B.3").law == "FIDE Laws 9.5.3, B.3, A.3"


def test_blitz_under_b2_keeps_the_competitive_rules_two_minutes():
    """B.2: "The Competitive Rules of Play shall apply if: B.2.1 one arbiter supervises one game
    and ..." (7.5.5 and 9.5.3 as written: two minutes); B.4: the regulations say which part, so a
    blitz penalty without it is refused."""
    assert penalty(ILLEGAL_MOVE, 1, BLITZ, "B.2").add_ms == 120_000
    assert penalty(INCORRECT_CLAIM, 1, BLITZ, "B.2").add_ms == 120_000
    with pytest.raises(ValueError, match="B.4"):
        penalty(ILLEGAL_MOVE, 1, BLITZ)


def test_incorrect_claim_adds_two_minutes_every_time_and_never_loses():
    """9.5.3: "If the claim is found to be incorrect, the arbiter shall add two minutes to the
    opponent's remaining thinking time. Then the game shall continue." """
    for number in (1, 2, 3):
        wrong = penalty(INCORRECT_CLAIM, number)
        assert (wrong.add_ms, wrong.game_lost, wrong.law) == (120_000, False, "FIDE Laws 9.5.3")


def test_bad_input():
    """Unknown kind, class or appendix part, and offence numbers below 1, are refused."""
    for args in (("touch_move", 1), (ILLEGAL_MOVE, 0), (ILLEGAL_MOVE, True), (ILLEGAL_MOVE, 1, "bullet"),
                 (ILLEGAL_MOVE, 1, STANDARD, "A.4"), (ILLEGAL_MOVE, 1, RAPID, "B.2")):
        with pytest.raises(ValueError):
            penalty(*args)


@pytest.mark.parametrize("time_ms, increment_ms, periods, expected", [
    (600_000, 0, 1, BLITZ),  # B.1: 10 minutes or less
    (180_000, 2_000, 1, BLITZ),  # 3 + 60 x 2 s = 5 minutes
    (300_000, 5_000, 1, BLITZ),  # 5 min + 60 x 5 s = exactly 10 minutes: "10 minutes or less"
    (300_000, 6_000, 1, RAPID),  # 5 min + 60 x 6 s = 11 minutes: more than 10
    (900_000, 10_000, 1, RAPID),  # A.1: 15 + 10 = 25 minutes
    (3_000_000, 10_000, 1, STANDARD),  # 50 + 10 = 60 minutes: not less than 60
    (5_400_000, 30_000, 2, STANDARD),  # 40 moves in 90 min, then 30 min (+30 s): standard
])
def test_time_class(time_ms, increment_ms, periods, expected):
    """A.1 (rapid: more than 10 and less than 60 minutes, time + 60 x increment) and B.1 (blitz:
    10 minutes or less)."""
    assert time_class(time_ms, increment_ms, periods) == expected


def test_illegal_move_stands_after_the_opponents_move_only_under_a5_and_b3():
    """A.5.2: "If the opponent does not claim and the arbiter does not intervene, the illegal move
    shall stand ... Once the opponent has made his/her next move, an illegal move cannot be
    corrected"; under the Competitive Rules (standard play, A.4, B.2) 7.5.1 reinstates the position
    whenever the illegal move is found during the game."""
    assert illegal_move_stands(RAPID, "A.5", opponent_moved=True)
    assert illegal_move_stands(BLITZ, "B.3", opponent_moved=True)
    assert not illegal_move_stands(RAPID, "A.5", opponent_moved=False)
    assert not illegal_move_stands(RAPID, "A.4", opponent_moved=True)
    assert not illegal_move_stands(BLITZ, "B.2", opponent_moved=True)
    assert not illegal_move_stands(STANDARD, None, opponent_moved=True)
    with pytest.raises(ValueError):
        illegal_move_stands(RAPID, None, opponent_moved=True)
