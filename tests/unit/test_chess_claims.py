"""Draw claims (FIDE Laws 9.2 threefold repetition, 9.3 fifty-move rule): what claimable() offers
and what claim() rules. Expected values: ../shared/cases/field-cases.md F01 and F03, and the Laws."""

from __future__ import annotations

import pytest

from services.rules.base import Claim
from services.rules.chess_game import ChessGame

F01 = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"
F03_FEN = "k7/8/1K6/8/8/8/8/7R w - - 99 80"
F03E_FEN = "1R6/8/2QR4/k7/4R3/8/8/2K5 w - - 99 80"


def f01_game() -> ChessGame:
    return ChessGame.from_moves(F01.split())


def test_F01a_claim_without_a_move_at_ply_7_is_incorrect():
    """F01(a): after the 7 plies, the position has occurred only twice: incorrect (Laws 9.5); the
    verdict points to the claim with f6g8 that would be correct."""
    verdict = f01_game().claim("threefold")
    assert verdict.correct is False
    assert "9.2.1.2" in verdict.law and "9.5" in verdict.law
    assert verdict.evidence == {"plies": [3, 7]}
    assert "f6g8" in verdict.reason


def test_F01b_claim_with_the_intended_move_f6g8_is_correct():
    """F01(b): with the intended move f6g8 the start position would appear a third time: correct
    (Laws 9.2.1.1); it stood at plies 0 and 4. claimable() offers exactly that claim."""
    game = f01_game()
    verdict = game.claim("threefold", "f6g8")
    assert verdict.correct is True and verdict.law == "FIDE Laws 9.2.1.1"
    assert verdict.evidence == {"plies": [0, 4], "after_move_ply": 8}
    assert game.claim("threefold", "Ng8").correct is True  # the same move in SAN
    assert game.claimable() == [Claim("threefold", "f6g8")]
    assert game.claimable()[0].evidence == {"plies": [0, 4], "after_move_ply": 8}
    assert game.ply == 7  # judging a claim does not play the move


def test_F01_claim_with_an_intended_pawn_move_or_other_move_is_incorrect():
    """F01 / Laws 9.2.1.1: at ply 7 an intended pawn move (e7e5) or a move to a new position (b8c6)
    makes no third occurrence: incorrect (9.5); an illegal intended move too."""
    game = f01_game()
    assert game.claim("threefold", "e7e5").correct is False
    assert game.claim("threefold", "b8c6").correct is False
    illegal = game.claim("threefold", "e1e3")
    assert illegal.correct is False and "e1e3" in illegal.reason


def test_F01c_after_f6g8_white_claims_correctly_without_a_move():
    """F01(c): after f6g8 is played, White claims at ply 8: correct (Laws 9.2.1.2); the start
    position stood at plies 0, 4 and 8."""
    game = f01_game()
    game.play("f6g8")
    verdict = game.claim("threefold")
    assert verdict.correct is True and verdict.law == "FIDE Laws 9.2.1.2"
    assert verdict.evidence == {"plies": [0, 4, 8]}
    claims = game.claimable()
    assert Claim("threefold", None) in claims
    assert next(c for c in claims if c.by_move is None).evidence == {"plies": [0, 4, 8]}


def test_F01d_the_right_lapses_once_the_position_is_gone():
    """F01(d): White plays e2e4 instead of claiming: Black has no claim afterwards (9.2.1.2 needs
    the claimant to have the move in that position)."""
    game = f01_game()
    game.play("f6g8")
    game.play("e2e4")
    assert game.claimable() == []
    assert game.claim("threefold").correct is False


def test_9_2_2_positions_differ_when_castling_rights_were_lost():
    """FIDE Laws 9.2.2.2: a king that moved and came back has lost its castling rights, so the
    position after 1.e4 e5 (with rights, ply 2) is not the one after the kings' return (without):
    king shuffles reach the rights-less position only twice in 10 plies, while knight shuffles,
    which keep the rights, bring the ply-2 position back a third time at ply 10."""
    game = ChessGame.from_moves("e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8".split())
    assert game.claim("threefold").correct is False  # 2nd occurrence of the rights-less position
    game2 = ChessGame.from_moves("e2e4 e7e5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8".split())
    assert game2.claim("threefold").correct is True  # same shuffles with rights kept: 3rd


def test_9_2_2_1_en_passant_counts_only_when_the_capture_is_legal():
    """FIDE Laws 9.2.2.1: after 1.e4 the en passant square e3 does not count (no black pawn can
    take it), so the position after 1.e4 (ply 1) is the same as after the knight shuffles bring it
    back (plies 5 and 9): a correct claim at ply 9."""
    game = ChessGame.from_moves("e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1".split())
    # the position after 1.e4 (Black to move) stood at plies 1, 5 and 9
    verdict = game.claim("threefold")
    assert verdict.correct is True and verdict.evidence == {"plies": [1, 5, 9]}


def test_F03a_fifty_move_claim_with_an_intended_move_is_correct():
    """F03(a): FEN k7/8/1K6/8/8/8/8/7R w - - 99 80, White claims with h1h2: correct (Laws 9.3.1),
    evidence: the halfmove clock 99 and the last capture or pawn move before the start."""
    game = ChessGame(F03_FEN)
    verdict = game.claim("fifty_moves", "h1h2")
    assert verdict.correct is True and verdict.law == "FIDE Laws 9.3.1"
    assert verdict.evidence == {"last_irreversible_ply": -99, "halfmove_clock": 99}
    assert Claim("fifty_moves", "h1h2") in game.claimable()
    assert Claim("fifty_moves", None) not in game.claimable()


def test_F03b_fifty_move_claim_without_a_move_or_with_a_pawn_move_or_capture_is_incorrect():
    """F03(b): same FEN, a claim without a move is incorrect (Laws 9.5); so is one whose intended
    move is a pawn move (a2a3 in k7/8/1K6/8/8/8/P7/7R) or a capture (h1h2 in k7/8/1K6/8/8/8/7r/7R),
    as 9.3.1 requires 50 moves "without the movement of any pawn and without any capture"."""
    assert ChessGame(F03_FEN).claim("fifty_moves").correct is False
    pawn = ChessGame("k7/8/1K6/8/8/8/P7/7R w - - 99 80").claim("fifty_moves", "a2a3")
    assert pawn.correct is False and "9.5" in pawn.law
    capture = ChessGame("k7/8/1K6/8/8/8/7r/7R w - - 99 80").claim("fifty_moves", "h1h2")
    assert capture.correct is False
    assert Claim("fifty_moves", "h1h2") not in ChessGame("k7/8/1K6/8/8/8/7r/7R w - - 99 80").claimable()


def test_F03e_fifty_move_claim_by_a_mating_intended_move_is_correct():
    """F03(e): FEN 1R6/8/2QR4/k7/4R3/8/8/2K5 w - - 99 80, every non-pawn non-capture move mates or
    stalemates; the claim with b8b7 is correct under 9.3.1 (the move is not made). python-chess's
    can_claim_fifty_moves() says False here: its open bug #1188, not used as the oracle."""
    game = ChessGame(F03E_FEN)
    assert game.claim("fifty_moves", "b8b7").correct is True
    assert Claim("fifty_moves", "b8b7") in game.claimable()
    assert game.board.can_claim_fifty_moves() is False  # python-chess #1188, documented difference


def test_fifty_move_claim_without_a_move_at_100_plies():
    """FIDE Laws 9.3.2: after 100 plies without pawn move or capture the claim needs no move."""
    game = ChessGame(F03_FEN)
    game.play("h1h2")
    game.play("a8b8")  # 101 plies: Black has just moved, White to move
    verdict = game.claim("fifty_moves")
    assert verdict.correct is True and verdict.law == "FIDE Laws 9.3.2"
    assert verdict.evidence == {"last_irreversible_ply": -99, "halfmove_clock": 101}


def test_claims_after_the_end_are_incorrect_and_unknown_kinds_raise():
    """FIDE Laws 5.1.1: after checkmate there is no game left to claim a draw in."""
    game = ChessGame.from_moves("f2f3 e7e5 g2g4 d8h4".split())
    assert game.claim("threefold").correct is False and game.claimable() == []
    with pytest.raises(ValueError):
        ChessGame().claim("forty_moves")
