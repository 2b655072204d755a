"""Two reports by the same side before one press: the move is what the board shows at the press.

A board reads what its sensors see. A rook or queen slid along a file is sometimes seen standing on a
square it passed, then on its destination; a player who castles by moving the rook first shows a
rook move, then the king's. A move board then sends two ``move`` messages (``a1c1``, ``c1e1``), a
sensor board two placements, before the clock press. The first is a legal move and is recorded; the
second, by the same side, is not legal in the official position (the opponent is to move).

FIDE Laws 6.2.1: the player "shall pause his/her own clock and start his/her opponent's clock ...
This 'completes' the move". So while the mover has not pressed, its move is not complete, and what
the board shows at the press is the move: when the position before the recorded move, with the
second report applied on top of the first, is the position after exactly one legal move, that move
replaces the recorded one (``move_composed``): ``a1c1`` + ``c1e1`` = ``a1e1``; ``h1f1`` + ``e1g1``
= ``e1g1`` (castling); ``e2e3`` + ``e3e4`` = ``e2e4``. Otherwise the second report is what it was
before: an illegal move (move boards, F05) or a passing state (sensor boards).

Once the mover has pressed (the press is matched to the ply: ``services.state.plies``), the move is
complete and a further report by the same side is a second move out of turn: refused as illegal.
A move that ended the game (checkmate, stalemate, a dead position) is completed by that (6.2.1.1):
the second report is answered "game over".

Without a clock (no reading from a clock device in the game) nothing completes the move but the
opponent's reply, and the board cannot tell a piece released on a square (4.7: that square is then
the move) from a sensor reading in passing. The product composes all the same, until the opponent's
reply: the record then shows the position the players see on the board, which is what the next
move is played from; a release on the passed square, if the opponent says so, is for the arbiter
(the ``move_composed`` entry keeps both reports).

Pure (python-chess); the gateway (``gateway.decide``) decides when to ask.
"""

from __future__ import annotations

import chess

from services.protocol import placement as pl
from gateway.payload import ids
from services.events import MoveComposed
from services.events.vocabulary import Variant
from services.state.plies import clock_for_ply

COMPOSED = "composed with the previous report by the same side: the move is what the board shows at the press"


def open_move(g) -> bool:
    """Whether the last ply of chess game ``g`` may still change (module notes): a ply was played,
    the game goes on, and no press has completed it."""
    return g.variant == Variant.CHESS and g.ply > 0 and not g.ended and clock_for_ply(g, g.ply) is None


def physical(fen: str, uci: str, mover: chess.Color) -> str | None:
    """The placement after moving the man on ``uci``'s from-square to its to-square in ``fen``'s
    position, when that man is ``mover``'s; else None (no legality check: the second report)."""
    board = chess.BaseBoard(fen.split(" ")[0])
    try:
        move = chess.Move.from_uci(uci)
    except ValueError:
        return None
    piece = board.piece_at(move.from_square)
    if piece is None or piece.color != mover:
        return None
    board.remove_piece_at(move.from_square)
    board.set_piece_at(move.to_square, chess.Piece(move.promotion, mover) if move.promotion else piece)
    return board.board_fen()


def composed(before: chess.Board, recorded: str, placement: str) -> str | None:
    """The one legal move (UCI) from ``before`` (the position before the recorded move) that gives
    ``placement``, when it is not the recorded move itself; else None."""
    guess = pl.infer_move(before, placement)
    if guess.kind != pl.MOVE or guess.move == recorded:
        return None
    return guess.move


def report(decider, turn, board, g, msg, move: str | None, placement: str | None) -> bool:
    """A report (a move board's ``move`` UCI, or a sensor board's ``placement``) that is no legal
    move in the official position, tried as the second report by the side that made the last ply,
    before its press (module notes): when the two make one legal move from the position before that
    ply, it is recorded (``move_composed``) and answered; else False (the report is what it was:
    illegal, or passing). ``decider``: the ``gateway.decide.Decider``."""
    if g.variant != Variant.CHESS or board.pending is not None or not open_move(g) or g.ply in g.stood:
        return False
    mover = chess.WHITE if g.mover(g.ply) == "white" else chess.BLACK
    if placement is None:
        assert move is not None  # a report is a move or a placement
        placement = physical(g.fen, move, mover)
        if placement is None:
            return False
    before = decider.hall.rules.game(g).board
    if not before.move_stack:
        return False
    before.pop()
    replaced = g.moves[-1]
    uci = composed(before, replaced, placement)
    if uci is None:
        return False
    game, played = decider.hall.rules.replace_last(g, uci)
    claims = [c.to_json() for c in game.claimable()]
    previous = list(g.claimable)
    turn.emit(MoveComposed(game=g.id, ply=played.ply, move=played.move, san=played.san, fen=played.fen,
                           turn=game.turn, replaces=replaced, parts=[replaced, move], claimable=claims,
                           source=msg.kind, **ids(msg)))
    decider.after_move(turn, g, game, played.ply, claims, previous)
    turn.answer(msg, True, COMPOSED, fen=played.fen)
    return True
