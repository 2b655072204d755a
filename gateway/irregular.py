"""Completed illegal moves as the gateway sees them (FIDE Laws 7.5): it proposes the penalty
(``penalty_proposed``, ``services.regulations.irregularities``); the arbiter applies it.

- 7.5.1: "An illegal move is completed once the player has pressed his/her clock." A move board's
  illegal move holds the board (F05, ``move_rejected`` ``held``, with the side whose man it moved);
  a press by that side while the board is held, with that side to move, completes it: the penalty
  is proposed at once (``pressed``).
- 7.5.3: "If the player presses the clock without making a move, it shall be considered and
  penalised as if an illegal move." The board's and the clock's messages travel separately, so a
  press is taken as made without a move only once the clock model (``ClockWatch``) has shown the
  side with more presses than moves for the grace period (``presses_due``, on every tick).
- 7.5.5: the second completed illegal move by the same player loses, unless the opponent cannot
  checkmate by any possible series of legal moves: the proposal then carries the result and the
  opponent's verdict (``gateway.laws.illegal_move_loss``, the gateway's bounded search).

The press that completed no move is taken out of the per-ply clock record by the fold, so the
side's next press belongs to its next move (``services.state.fold_penalties``). Chess only: the
checkers rules (11-Man National 2017) have their own procedure.
"""

from __future__ import annotations

from gateway import laws
from services.regulations import irregularities as ir


def pressed(decider, turn, board, g, presser: str) -> None:
    """``presser`` pressed the clock of game ``g`` (folded already): a completed illegal move when
    the board is held by ``presser``'s illegal move and ``presser`` is to move (7.5.1)."""
    if (g.variant != "chess" or g.ended or board.game != g.id or not board.held
            or board.held_by != presser or g.turn != presser):
        return
    propose(decider, turn, g, presser, ir.ILLEGAL, move=board.held_move, presses=len(g.presses[presser]))


def presses_due(decider, turn, g) -> None:
    """Presses without a move that lasted past the grace period (7.5.3; 7.5.1 when the side's
    illegal move holds the board), each proposed once."""
    if g.variant != "chess" or g.ended or g.watch is None:
        return
    for finding in g.watch.tick(turn.now, g.reported):
        if finding.get("kind") != "press_without_move":
            continue
        side = finding["side"]
        board = decider.state.boards.get(g.board)
        held = board is not None and board.game == g.id and board.held and board.held_by == side
        propose(decider, turn, g, side, ir.ILLEGAL if held else ir.PRESS_WITHOUT_MOVE,
                move=board.held_move if held else None, presses=finding["presses"])


def propose(decider, turn, g, side: str, how: str, *, move: str | None = None, presses: int | None = None) -> None:
    """Emit the ``penalty_proposed`` for ``side``'s irregularity ``how``, with the result the Laws
    give when it loses the game (7.5.5)."""
    result = evidence = None
    if ir.loses(decider.state, g, side, how):
        outcome, evidence = laws.illegal_move_loss(decider.hall.rules.game(g), side)
        result = outcome.result
    turn.emit(ir.propose(decider.state, g, side, how, result=result, evidence=evidence, move=move, presses=presses))
