"""Checkers results: venue result codes (White's score first, services.rules.results) and PDN's
(Black's score first). That PDN's first figure is Black's is shown on the Tinsley games in
test_checkers_pdn.py (test_pdn_gives_blacks_score_first)."""

from __future__ import annotations

import pytest

from services.rules.checkers_results import check_outcome, from_pdn, to_pdn


@pytest.mark.parametrize(
    "venue, pdn",
    [("1-0", "0-1"), ("0-1", "1-0"), ("1/2-1/2", "1/2-1/2"), ("+:-", "0-1"), ("-:+", "1-0"), ("0-0", "*")],
)
def test_to_pdn(venue, pdn):
    """Special scores follow results.Score.pgn (PGN cannot write 0-0 either: "*")."""
    assert to_pdn(venue) == pdn


@pytest.mark.parametrize(
    "pdn, venue",
    [("1-0", "0-1"), ("0-1", "1-0"), ("1/2-1/2", "1/2-1/2"), ("2-0", "0-1"), ("0-2", "1-0"), ("1-1", "1/2-1/2")],
)
def test_from_pdn(pdn, venue):
    assert from_pdn(pdn) == venue


def test_bad_codes_are_errors():
    with pytest.raises(ValueError):
        from_pdn("1-2")
    with pytest.raises(ValueError):
        to_pdn("2-0")


def test_time_forfeit_is_always_a_loss_in_checkers():
    """11-Man National 2017 X.A.b: the player whose time expires forfeits (no FIDE 6.9 draw)."""
    assert check_outcome("1-0", "time_forfeit").winner == "white"
    with pytest.raises(ValueError):
        check_outcome("1/2-1/2", "time_forfeit")
