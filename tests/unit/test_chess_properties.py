"""Property tests (hypothesis): random legal games give, after every ply, the same claim states and
automatic ends as python-chess computes from scratch (FIDE Laws 9.2, 9.3, 9.6, 5).

The oracle per ply: ``Board.is_repetition(3)`` (threefold without a move), for each legal move
"push it, then ``is_repetition(3)``" (threefold with that intended move, 9.2.1.1),
``Board.can_claim_fifty_moves()`` (except python-chess #1188, see test_chess_equivalence.py) and
``Board.outcome()``. Games are biased to repeat: a drawn flag makes the mover take back its own
previous reversible move when legal, so threefold and fivefold repetitions happen often.
"""

from __future__ import annotations

import chess
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from chess_oracle import _RESULT, _WORDS, is_bug_1188

from services.rules.chess_game import ChessGame

# Start positions: the standard start, the field cases' positions (F02B, F03(a) and (e) with the
# clock moved back, F04a, F05b) where few men make repetitions and the 50-move clock matter, a
# castling position (3.8.2) and one with a legal en passant capture (9.2.2.1).
STARTS = [
    chess.STARTING_FEN,
    "8/5k2/8/8/8/8/5K2/4R3 w - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 90 80",
    "1R6/8/2QR4/k7/4R3/8/8/2K5 w - - 95 80",
    "8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1",
    "8/4P1k1/8/8/8/8/6K1/8 w - - 0 60",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    # a legal en passant capture at the start (d4xe3), for 9.2.2.1
    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
]


def expected_threefold_moves(board: chess.Board) -> set[str]:
    found = set()
    for move in list(board.legal_moves):
        board.push(move)
        if board.is_repetition(3):
            found.add(move.uci())
        board.pop()
    return found


def dead_by_lookahead(board: chess.Board, depth: int = 3) -> bool:
    """An independent oracle for FIDE Laws 5.2.2 in the small positions these games reach: dead when
    neither side has mating material (python-chess), or, with no mate on the board, when every legal
    move leads to a dead position within ``depth`` plies (e.g. the only legal move captures the
    opponent's last piece). Never says dead where a mate can follow within ``depth``."""
    if board.is_insufficient_material():
        return True
    if board.is_checkmate() or depth == 0:
        return False
    moves = list(board.legal_moves)
    if not moves:
        return False  # stalemate is its own ending
    for move in moves:
        board.push(move)
        try:
            if not dead_by_lookahead(board, depth - 1):
                return False
        finally:
            board.pop()
    return True


def check_ply(game: ChessGame, board: chess.Board) -> None:
    found = board.outcome()
    expected = None if found is None else (_RESULT[found.winner], _WORDS[found.termination])
    got = game.outcome
    if expected is None and got is not None and got.termination == "dead_position":
        # FIDE Laws 5.2.2 beyond python-chess's insufficient material: checked by the oracle above
        assert got.result == "1/2-1/2" and dead_by_lookahead(board), board.fen()
        event("ended: dead_position (5.2.2)")
        return
    assert (None if got is None else (got.result, got.termination)) == expected, board.fen()
    if got is not None:
        event(f"ended: {got.termination}")
        assert game.claimable() == []
        return
    claims = game.claimable()
    threefold_now = any(c.kind == "threefold" and c.by_move is None for c in claims)
    assert threefold_now == board.is_repetition(3), board.fen()
    by_move = {c.by_move for c in claims if c.kind == "threefold" and c.by_move}
    assert by_move == expected_threefold_moves(board), board.fen()
    assert any(c.kind == "threefold" for c in claims) == board.can_claim_threefold_repetition()
    fifty_any = any(c.kind == "fifty_moves" for c in claims)
    if fifty_any != board.can_claim_fifty_moves():
        assert fifty_any and is_bug_1188(board), board.fen()
    for claim in claims:  # every claim offered is judged correct
        assert game.claim(claim.kind, claim.by_move).correct, (claim, board.fen())
    assert game.claim("threefold").correct == threefold_now
    if by_move or threefold_now:
        event("threefold claimable")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.sampled_from(STARTS),
       choices=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from([False, True, True])), min_size=30, max_size=120))
def test_random_games_match_python_chess_after_every_ply(start, choices):
    """Random legal games from the field cases' positions: same claims and ends as python-chess."""
    game = ChessGame(start)
    board = chess.Board(start)
    check_ply(game, board)
    for pick, take_back in choices:
        if game.outcome is not None:
            break
        legal = sorted(board.legal_moves, key=chess.Move.uci)
        move = legal[pick % len(legal)]
        if take_back and len(board.move_stack) >= 2:
            previous = board.move_stack[-2]
            back = chess.Move(previous.to_square, previous.from_square)
            if back in board.legal_moves:
                move = back
        played = game.play(move.uci())
        board.push(move)
        assert played.fen == board.fen()
        check_ply(game, board)
