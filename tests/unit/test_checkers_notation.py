"""Numeric move notation and PDN FEN for checkers (ACF/WCDF notation; PDN 3.0 FEN)."""

from __future__ import annotations

import pytest

from services.rules.checkers_board import Position
from services.rules.checkers_notation import (
    IllegalMove,
    NotationError,
    format_fen,
    parse_fen,
    parse_move_text,
    resolve_move,
)

START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


@pytest.mark.parametrize(
    "text, squares",
    [("11-15", (11, 15)), ("23x14", (23, 14)), ("6x15x24", (6, 15, 24)), ("23X14", (23, 14)), (" 9 - 13 ", (9, 13))],
)
def test_move_text_is_read_as_squares(text, squares):
    assert parse_move_text(text) == squares


@pytest.mark.parametrize("text", ["99-100", "abc", "11-", "", "-15", "11--15", "0-4", "11", "e3-f4", None, 1115])
def test_bad_move_text_is_a_notation_error_not_a_raw_key_error(text):
    """pydraughts 0.6.7 answers '99-100' and '11-' with a bare KeyError ('99100', '11') and 'abc'
    with int()'s ValueError (issue "American checkers"); here each gets a NotationError naming it."""
    with pytest.raises(NotationError) as err:
        parse_move_text(text)
    assert repr(text) in str(err.value) or str(text) in str(err.value)


def test_fen_is_canonical_whatever_the_square_order():
    """Positions are keyed by sets of squares: pydraughts writes "B1,10,11,12,2,..." (string order),
    the ballot file's fen_after too; both read to the same position and one canonical FEN."""
    shuffled = "B:W32,31,30,29,28,27,26,25,24,23,22,21:B1,10,11,12,2,3,4,5,6,7,8,9"
    assert parse_fen(shuffled) == Position.start() == parse_fen("B:B1-12:W21-32.")
    assert format_fen(parse_fen(shuffled)) == START_FEN


def test_fen_with_kings():
    pos = parse_fen("W:WK3,21:B5,K30")
    assert pos.turn == "white" and pos.white_kings == {3} and pos.white_men == {21}
    assert pos.black_kings == {30} and pos.black_men == {5}
    assert format_fen(pos) == "W:WK3,21:B5,K30"


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "X:W1:B2",
        "B:W21,21:B1",  # a square twice
        "B:W5:B5",  # both colours on one square
        "B:W33:B1",  # off the board
        "B:W21:B30",  # a Black man on its crowning row
        "B:W2:B10",  # a White man on its crowning row
        "B:W1-13:B20",  # 13 White pieces
        "B:Wa:B1",
        None,
    ],
)
def test_bad_fen_is_a_notation_error(fen):
    with pytest.raises(NotationError):
        parse_fen(fen)


def test_start_and_end_squares_name_a_single_route_jump():
    pos = parse_fen("B:W10,19:B6")
    assert resolve_move(pos, "6x24").text == "6x15x24"
    assert resolve_move(pos, "6x15x24").text == "6x15x24"


def test_two_routes_between_the_same_squares_need_the_full_route():
    """ACF/WCDF (record all jumps) and PDN 3.0 ("disambiguated capture sequences have to specify a
    complete sequence of intermediate squares"): 2x18 may be 2x9x18 (taking 6, 14) or 2x11x18
    (taking 7, 15)."""
    pos = parse_fen("B:W6,7,14,15:B2")
    with pytest.raises(IllegalMove) as err:
        resolve_move(pos, "2x18")
    assert err.value.routes == ("2x9x18", "2x11x18")
    assert "full route" in err.value.reason
    assert resolve_move(pos, "2x11x18").captured == (7, 15)


def test_a_circuit_run_either_way_is_one_move():
    """A king's circuit taking the same four pieces either way round leaves the same position; the
    lowest route is recorded."""
    pos = parse_fen("B:W14,15,22,23:BK10")
    assert resolve_move(pos, "10x10").text == "10x17x26x19x10"
    assert resolve_move(pos, "10x19x26x17x10").text == "10x19x26x17x10"


def test_the_separator_does_not_decide_the_move():
    """Old records mix the separators: tinsley.pdn game 1 (Ohio State Ty 1946) writes the step 10-14
    as '10x14' at ply 7, and every Tinsley game replays only if the separator is not decisive
    (see test_checkers_pdn). A step and a jump never share both end squares."""
    pos = parse_fen("B:W19,32:B1,15")
    assert resolve_move(pos, "15-24").text == "15x24"
    assert resolve_move(Position.start(), "11x15").text == "11-15"
