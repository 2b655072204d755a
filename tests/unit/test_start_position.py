"""Set-up validation of every start position (issue 29, kind 3): a round file whose FEN cannot be
played is refused when the round is set up, naming the file, the game and the board, instead of
every move on that board being answered "internal error ... BAD_CASTLING_RIGHTS" all game.

FIDE Laws 3.10.3 ("A position is illegal when it cannot have been reached by any series of legal
moves"), 3.8.2.1 (the right to castle is lost once the king or that rook has moved), 7.2.1 ("If during
a game it is found that the initial position of the pieces was incorrect, the game shall be cancelled
and a new game shall be played"); python-chess ``Board.status()``; the ACF/WCDF board for checkers."""

from __future__ import annotations

import chess
import pytest

from services.arbiter_office.setup import round_from_pgn
from services.rules.chess_game import ChessGame
from services.rules.start_position import StartPositionError, check_start

# The case: a round PGN's FEN with KQkq where White's h1 rook stands on g1 (3.8.2.1).
ROOK_OFF_ITS_SQUARE = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K1R1 w KQkq - 0 8"


def pgn(fen: str, board: str = "7") -> str:
    return f'[White "A"]\n[Black "B"]\n[Round "2"]\n[Board "{board}"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n*\n'


def test_castling_rights_whose_rook_is_not_on_its_square_are_refused_naming_the_right():
    with pytest.raises(StartPositionError) as refused:
        check_start(ROOK_OFF_ITS_SQUARE)
    assert refused.value.problems == ["castling right K: no white rook on h1"]
    assert "FIDE Laws 3.10.3, 7.2.1" in str(refused.value)
    # the king off its square takes both of its side's rights (3.8.2.1: "If the king has already moved")
    with pytest.raises(StartPositionError) as refused:
        check_start("r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1")
    assert refused.value.problems == ["castling right K: no white king on e1", "castling right Q: no white king on e1"]


@pytest.mark.parametrize("fen, words", [
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has no king"),  # 3.10.3
    ("4k3/8/8/8/8/8/8/4KK2 w - - 0 1", "more than one king"),
    ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn stands on the first or the last rank"),  # 3.7.3.3
    ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", ""),  # valid: no problem
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "side not to move is in check"),  # 3.9.2
    ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant square"),  # 3.7.3.1
])
def test_each_status_flag_is_named_in_words(fen, words):
    if not words:
        check_start(fen)
        return
    with pytest.raises(StartPositionError, match=words):
        check_start(fen)


def test_a_bad_round_file_is_refused_at_set_up_naming_game_and_board():
    text = pgn("8/4P1k1/8/8/8/8/6K1/8 w - - 0 60", "3") + "\n" + pgn(ROOK_OFF_ITS_SQUARE, "7")
    with pytest.raises(ValueError, match=r"game 2 \(board 7\): invalid FEN tag: .*castling right K: no white rook on h1"):
        round_from_pgn(text)
    # F05 (b) alone is a playable start (field-cases.md)
    assert round_from_pgn(pgn("8/4P1k1/8/8/8/8/6K1/8 w - - 0 60"))["games"][0]["fen"].startswith("8/4P1k1")


def test_the_cli_names_the_file(tmp_path):
    from venue.serve import CliError, round_setup

    path = tmp_path / "round2.pgn"
    path.write_text(pgn(ROOK_OFF_ITS_SQUARE))
    with pytest.raises(CliError, match=r"round2\.pgn: game 1 \(board 7\): invalid FEN tag"):
        round_setup(str(path))


def test_the_rules_core_says_the_same_in_words():
    with pytest.raises(StartPositionError, match="castling right K: no white rook on h1"):
        ChessGame(ROOK_OFF_ITS_SQUARE)
    assert chess.Board(ROOK_OFF_ITS_SQUARE).status() & chess.STATUS_BAD_CASTLING_RIGHTS


@pytest.mark.parametrize("fen, words", [
    ("B:W21,22:B1,1", "bad FEN"),                          # a square named twice
    ("B:W2:B9", "crowning row"),                           # a white man on 2: White crowns on 1-4
    ("B:W:B1,2", "white, who has just moved, has no piece"),  # Black to move; White moved off the board?
])
def test_checkers_start_positions(fen, words):
    with pytest.raises(StartPositionError, match=words):
        check_start(fen, "checkers")
    check_start("W:W:B1,2", "checkers")  # White to move with no piece: Black has just taken the last (lost)
    text = f'[White "A"]\n[Black "B"]\n[Round "1"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n*\n'
    with pytest.raises(ValueError, match=r"game 1 \(board 1\): invalid FEN tag"):
        round_from_pgn(text, variant="checkers")
