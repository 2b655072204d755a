"""Folding an arbiter's correction of a game's record (``game_corrected``; FIDE Laws 7.5.1, 7.4):
the record goes back to ply N and the moves the arbiter entered follow. Spectators get the whole
corrected record in one delta (``moves``, ``san``, ``clocks`` set), never a dead branch."""

from __future__ import annotations

from services.events import GameCorrected
from services.state.changes import Changes
from services.state.fold import HallState, folds
from services.state.plies import clock_for_ply

RECORD_FIELDS = ("moves", "san", "clocks", "spent", "fen", "ply", "turn", "last_move", "claimable")


@folds(GameCorrected)
def _corrected(state: HallState, ev: GameCorrected, at: int, ch: Changes) -> None:
    g = state.games[ev.game or ""]
    if not 0 <= ev.ply <= g.ply:
        raise ValueError(f"correction to ply {ev.ply}: game {g.id} has {g.ply} plies")
    if len(ev.san) != len(ev.moves) or len(ev.fens) != len(ev.moves):
        raise ValueError(f"correction of game {g.id}: {len(ev.moves)} moves, {len(ev.san)} SAN, "
                         f"{len(ev.fens)} positions")
    kept = ev.ply
    del g.moves[kept:], g.san[kept:], g.clocks[kept:], g.move_at[kept:]
    for i, move in enumerate(ev.moves):
        g.moves.append(move)
        g.san.append(ev.san[i] or move)
        g.clocks.append(clock_for_ply(g, g.ply))
        g.move_at.append(None)  # entered by the arbiter: when it was made on the board is not known
    g.fen = ev.fen or (ev.fens[-1] if ev.fens else g.fen)
    g.turn = ev.turn or g.turn
    g.last_move = g.moves[-1] if g.moves else None
    g.claimable, g.claims_ply = [], g.ply
    g.corrections += 1
    if g.evaluation is not None and g.evaluation.ply > kept:
        g.evaluation = None  # of a position the corrected record no longer reaches
    board = state.boards.get(g.board)
    if board is not None and board.game == g.id:
        board.held, board.pending, board.physical = False, None, None
    ch.game(g.id, *RECORD_FIELDS, "corrections", "evaluation")
