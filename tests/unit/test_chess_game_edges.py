"""ChessGame at the edges of the Laws (issue 12): flag falls the opponent cannot win (FIDE Laws 6.9),
dead positions beyond insufficient material (5.2.2), a game judged before its first move, and the
second completed illegal move (7.5.5). Positions built from the Laws; CHA 2.6.1 (Ambrona's Chess
Unwinnability Analyzer, built from miguel-ambrona/D3-Chess and run as an oracle) agrees with every
unwinnable/winnable verdict used here.
"""

from __future__ import annotations

import pytest

from services.rules.base import MoveRefused
from services.rules.chess_game import ChessGame

ONLY_MOVE_TAKES_THE_QUEEN = "7k/6Q1/8/8/8/8/3r4/K7 b - - 0 1"
LOCKED = "4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K3 w - - 0 1"
ALMOST_LOCKED = "4k3/8/8/1p1p1p1p/1P1P1P2/7P/8/4K3 w - - 0 1"


def test_flag_fall_when_every_move_of_the_flagged_side_leaves_no_mate_is_a_draw():
    """FIDE Laws 6.9: "the game is drawn if the position is such that the opponent cannot
    checkmate the player's king by any possible series of legal moves". Black's flag falls with
    Black to move in check from the unguarded Qg7: Kxg7 is its only legal move and leaves White a
    bare king. ½-½, although White has a queen on the board (CHA: white unwinnable)."""
    game = ChessGame(ONLY_MOVE_TAKES_THE_QUEEN)
    assert game.outcome is None  # not dead: Black (K+R) can still mate
    verdict = game.can_checkmate("white")
    assert verdict.unwinnable and verdict.reason == "no_mate_reachable"
    assert game.flag_fall("black").to_json() == {"result": "1/2-1/2", "termination": "time_forfeit"}


def test_flag_fall_of_the_other_side_in_the_same_position_loses():
    """FIDE Laws 6.9: White's flag falls in the same position: Black (K+R, after Kxg7) can mate,
    so White loses (CHA: black winnable)."""
    assert ChessGame(ONLY_MOVE_TAKES_THE_QUEEN).flag_fall("white").result == "0-1"


def test_flag_fall_with_a_pawn_that_can_still_queen_loses():
    """FIDE Laws 6.9: as above but White has an a-pawn that can queen after Kxg7: White can mate
    by some series of legal moves, so Black's flag fall loses (CHA: white winnable)."""
    assert ChessGame("7k/6Q1/8/8/8/P7/3r4/K7 b - - 0 1").flag_fall("black").result == "1-0"


def test_flag_fall_in_a_locked_position_is_a_draw():
    """FIDE Laws 6.9 with 5.2.2: nothing can cross the chain, so neither side can mate; a game
    reaching it is already drawn (dead position), and a flag fall records that draw unchanged."""
    game = ChessGame(ALMOST_LOCKED)
    game.play("h3h4")
    assert game.outcome.to_json() == {"result": "1/2-1/2", "termination": "dead_position"}
    assert game.flag_fall("white").to_json() == {"result": "1/2-1/2", "termination": "dead_position"}


def test_a_move_that_locks_the_chain_ends_the_game():
    """FIDE Laws 5.2.2: "This immediately ends the game". Before h3-h4 the white king can walk
    round by h4 and take h5 (CHA: white winnable); after it, every pawn is rammed and frozen and
    neither king can cross (CHA: unwinnable for both): the game ends at once and the next move is
    refused."""
    game = ChessGame(ALMOST_LOCKED)
    assert game.outcome is None
    played = game.play("h3h4")
    assert played.ply == 1 and game.outcome.termination == "dead_position"
    with pytest.raises(MoveRefused, match="the game has ended"):
        game.play("e8d8")
    assert game.claimable() == []


def test_a_dead_start_position_is_the_outcome_before_the_first_move():
    """FIDE Laws 5.2.2, a game set up from a FEN: the locked position is dead, so the game is
    over at ply 0 (outcome set, moves refused); likewise a FEN where the side to move's only move
    takes the last man (the real position of the FIDE World Cup 2025 after 89...Kf3)."""
    game = ChessGame(LOCKED)
    assert game.ply == 0
    assert game.outcome.to_json() == {"result": "1/2-1/2", "termination": "dead_position"}
    with pytest.raises(MoveRefused, match="the game has ended"):
        game.play("e1d2")
    forced = ChessGame("8/8/8/8/8/5k2/7p/7K w - - 0 90")
    assert forced.outcome.to_json() == {"result": "1/2-1/2", "termination": "dead_position"}


def test_start_positions_over_by_the_laws_at_ply_0():
    """FIDE Laws 5.2.2 (K+B v K: insufficient material, Nakamura-Gukesh, Candidates 2024 r14),
    5.2.1 (stalemate: Black to move, no legal move, not in check), 9.6.2 (a halfmove clock of 150:
    75 moves by each player without a pawn move or capture): each is the outcome at ply 0."""
    assert ChessGame("8/8/8/3k4/8/3Kb3/8/8 w - - 0 71").outcome.termination == "insufficient_material"
    assert ChessGame("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").outcome.termination == "stalemate"
    assert ChessGame("4k3/8/8/8/8/8/8/R3K3 w - - 150 120").outcome.termination == "seventyfive_moves"


def test_fifty_move_claim_by_any_quiet_move_at_ply_0():
    """FIDE Laws 9.3.1: with a halfmove clock of 99 in the start FEN, the player to move may claim
    with any intended move that is neither a pawn move nor a capture, before any move is played;
    9.3.2 (the claim without a move) needs 100 and is not open. A pawn move as the intended move is
    an incorrect claim (9.5)."""
    game = ChessGame("4k3/8/8/8/8/8/4P3/R3K3 w Q - 99 80")
    assert game.ply == 0 and game.outcome is None
    claims = game.claimable()
    by_move = {c.by_move for c in claims if c.kind == "fifty_moves"}
    quiet = {m.uci() for m in game.board.legal_moves if not game.board.is_zeroing(m)}
    assert by_move == quiet and None not in by_move and "e1c1" in by_move
    assert claims[0].evidence == {"last_irreversible_ply": -99, "halfmove_clock": 99}
    assert game.claim("fifty_moves", "a1a7").correct
    verdict = game.claim("fifty_moves", "e2e4")
    assert not verdict.correct and verdict.law == "FIDE Laws 9.3.1, 9.5"
    assert not game.claim("fifty_moves").correct


def test_second_illegal_move_loses_unless_the_opponent_cannot_mate():
    """FIDE Laws 7.5.5: "for the second completed illegal move by the same player the arbiter
    shall declare the game lost by this player. However, the game is drawn if the position is such
    that the opponent cannot checkmate the player's king by any possible series of legal moves."
    Termination "arbiter"."""
    game = ChessGame()
    game.play("e2e4")
    assert game.illegal_move_loss("black").to_json() == {"result": "1-0", "termination": "arbiter"}
    drawn = ChessGame(ONLY_MOVE_TAKES_THE_QUEEN)
    assert drawn.illegal_move_loss("black").to_json() == {"result": "1/2-1/2", "termination": "arbiter"}
    with pytest.raises(ValueError):
        ChessGame().illegal_move_loss("red")
