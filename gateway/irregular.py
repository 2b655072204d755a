"""Completed illegal moves as the gateway sees them (FIDE Laws 7.5): it proposes the penalty
(``penalty_proposed``, ``services.regulations.irregularities``); the arbiter applies it.

- 7.5.1: "An illegal move is completed once the player has pressed his/her clock." A move board's
  illegal move holds the board (F05, ``move_rejected`` ``held``, with the side whose man it moved);
  a press by that side while the board is held, with that side to move, completes it: the penalty
  is proposed at once (``pressed``). The replacement's board message can come after its press (two
  devices): when the record then also fits a press that was the replacement's, the proposal is
  marked in doubt (``penalty_in_doubt``, ``services.state.fold_penalties``) and stays open: the
  arbiter decides (apply it or withdraw it).
- 7.5.3: "If the player presses the clock without making a move, it shall be considered and
  penalised as if an illegal move." The board's and the clock's messages travel separately, so a
  press is taken as made without a move only once the clock model (``ClockWatch``) has shown the
  side with more presses than moves for the grace period (``presses_due``, on every tick).
- 7.5.5: the second completed illegal move by the same player loses, unless the opponent cannot
  checkmate by any possible series of legal moves: the proposal then carries the result and the
  opponent's verdict (``gateway.laws.illegal_move_loss``, the gateway's bounded search).

- A.5.2 (rapid under A.5, blitz under B.3): a completed illegal move the opponent plays on from
  stands (``stands``): recorded as a ply, flagged, and the game goes on from the position it left;
  the penalty proposed at its press is no longer due and is withdrawn (``penalty_withdrawn``,
  ground "stood").
  In standard play, and under A.4 and B.2, the board stays held (F05: 7.5.1 reinstates the
  position before the irregularity).

A press that completed no ply is taken out of the per-ply clock record by the fold, so the side's
next press belongs to its next move (``services.state.fold_penalties``). Chess only: the checkers
rules (11-Man National 2017) have their own procedure.
"""

from __future__ import annotations

import chess

from gateway import laws
from gateway.games import new_game
from gateway.payload import UCI, ids
from services.events import MovePlayed, Side
from services.events.vocabulary import Variant
from services.regulations import irregularities as ir
from services.state.fold_penalties import proposal_of


def pressed(decider, turn, board, g, presser: Side) -> None:
    """``presser`` pressed the clock of game ``g`` (folded already): a completed illegal move when
    the board is held by ``presser``'s illegal move and ``presser`` is to move (7.5.1)."""
    if (g.variant != Variant.CHESS or g.ended or board.game != g.id or not board.held
            or board.held_by != presser or g.turn != presser):
        return
    propose(decider, turn, g, presser, ir.ILLEGAL, move=board.held_move, presses=len(g.presses[presser]))


def presses_due(decider, turn, g) -> None:
    """Presses without a move that lasted past the grace period (7.5.3; 7.5.1 when the side's
    illegal move holds the board), each proposed once."""
    watch = decider.hall.watches.get(g.id)
    if g.variant != Variant.CHESS or g.ended or watch is None:
        return
    if g.setup.fen:
        try:
            decider.hall.rules.game(g)
        except ValueError:
            return  # a start position that cannot be played (7.2.1): no move can be made, none is missing
    for finding in watch.tick(turn.now, g.reported):
        if finding.get("kind") != "press_without_move":
            continue
        side = finding["side"]
        board = decider.state.boards.get(g.board)
        held = board is not None and board.game == g.id and board.held and board.held_by == side
        propose(decider, turn, g, side, ir.ILLEGAL if held else ir.PRESS_WITHOUT_MOVE,
                move=board.held_move if held else None, presses=finding["presses"])


def propose(decider, turn, g, side: Side, how: str, *, move: str | None = None, presses: int | None = None) -> None:
    """Emit the ``penalty_proposed`` for ``side``'s irregularity ``how``, with the result the Laws
    give when it loses the game (7.5.5)."""
    result = evidence = None
    if ir.loses(decider.state, g, side, how):
        outcome, evidence = laws.illegal_move_loss(decider.hall.rules.game(g), side)
        result = outcome.result
    turn.emit(ir.propose(decider.state, g, side, how, result=result, evidence=evidence, move=move, presses=presses))


def stands(decider, turn, board, g, msg, move: str, source: str) -> bool:
    """FIDE Laws A.5.2 (rapid under A.5, blitz under B.3): "If the opponent does not claim and
    the arbiter does not intervene, the illegal move shall stand and the game shall continue.
    Once the opponent has made his/her next move, an illegal move cannot be corrected". The board
    is held by the side to move's completed illegal move (pressed; any, without a clock) and the
    opponent's move ``move`` is legal in the position the illegal move left: the illegal move is
    recorded as a ply, flagged (``move_played`` ``illegal``, ``fen`` that position), the rules
    core goes on from there (``gateway.games.Continued``) and ``move`` is played. False when the
    event's Laws keep the hold (standard play, A.4, B.2), when the illegal move cannot stand in
    a position (it left its own king in check) or ``move`` is not legal after it."""
    side, illegal = board.held_by, board.held_move or ""
    completed = board.held_press is not None or g.clock is None
    if (g.variant != Variant.CHESS or side is None or side != g.turn or not UCI.match(illegal) or not completed
            or not ir.stands(decider.state, g)):
        return False
    position = decider.hall.rules.board(g).copy(stack=False)
    try:
        step, reply = chess.Move.from_uci(illegal), chess.Move.from_uci(move)
    except ValueError:  # "a1a1": no move at all
        return False
    if position.color_at(step.from_square) != (side == "white"):
        return False  # python-chess's push needs the mover's man on the from-square
    try:
        san = position.san(step)
    except (ValueError, AssertionError, AttributeError):
        san = illegal
    position.push(step)  # F05's bare push, on purpose: this move stood
    if not position.is_valid() or not position.is_legal(reply):
        return False
    left = new_game({"variant": g.setup.variant, "fen": position.fen()})
    claims = [c.to_json() for c in left.claimable()]
    previous = list(g.claimable)
    proposal = proposal_of(g, side, ir.OFFENCE_OF[ir.ILLEGAL], board.held_press) \
        if board.held_press is not None else None
    turn.emit(MovePlayed(game=g.id, ply=g.ply + 1, move=illegal, san=san, fen=position.fen(), turn=left.turn,
                         claimable=claims, source=source, illegal=True, **ids(msg)))
    g = decider.state.games[board.game]
    if proposal is not None and proposal.status == "open":  # no longer due: the opponent moved on (A.5.2)
        turn.emit(ir.withdraw(decider.state, g, proposal, "stood", law=ir.STOOD_LAW, reason=ir.STOOD_REASON))
    decider.after_move(turn, g, decider.hall.rules.game(g), g.ply, claims, previous)
    if decider.state.games[board.game].ended:
        decider.after_end(turn, board, g, msg, move=move)
    else:
        decider.play(turn, board, g, msg, move, source)
    return True
