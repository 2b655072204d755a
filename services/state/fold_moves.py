"""Folding moves and claims: ``move_played`` appends a ply (with its clock when the press already
came: presses are matched to plies by counting, ``services.state.plies``), ``move_composed``
replaces the last ply by the move two same-side reports make together (FIDE Laws 6.2.1: the press
completes the move), ``draw_claimable`` sets the claims open to the side to move (FIDE Laws 9.2,
9.3; a claim about a position no longer on the board lapsed, field case F01)."""

from __future__ import annotations

from services.events import DrawClaimable, GameStatus, MoveComposed, MovePlayed
from services.state.changes import Changes
from services.state.fold_penalties import doubt_at_resume, settle_doubt
from services.state.fold import HallState, folds
from services.state.plies import clock_for_ply


@folds(MovePlayed)
def _move(state: HallState, ev: MovePlayed, at: int, ch: Changes) -> None:
    g = state.games[ev.game or ""]
    if ev.ply != g.ply + 1:
        # Not the next ply: a record doubled by a store retry, or a gap; the state cannot place it.
        raise ValueError(f"ply {ev.ply} does not follow ply {g.ply} of game {g.id}")
    mover = g.mover(ev.ply)
    settle_doubt(g, mover, False, ch)  # the opponent's ply: a press in doubt was the replacement's
    if ev.resumed:
        doubt_at_resume(state, g, mover)
    fields = {"fen", "ply", "turn", "last_move", "claimable"}
    if ev.illegal:
        g.stood[ev.ply] = ev.fen  # A.5.2: the rules core goes on from the position it left
        fields.add("stood")
    g.moves.append(ev.move)
    g.san.append(ev.san or ev.move)
    g.fen, g.turn, g.last_move = ev.fen, ev.turn, ev.move
    g.claimable, g.claims_ply = list(ev.claimable), ev.ply
    if g.status == GameStatus.WAITING:
        g.status = GameStatus.PLAYING
        fields.add("status")
    clk = clock_for_ply(g, ev.ply)
    g.clocks.append(clk)
    g.move_at.append(at)
    if clk is not None:
        ch.clock_of(g.id, ev.ply)
    if g.arrived[mover] is None:
        g.arrived[mover] = at
    if g.started_at is None:
        g.started_at = at
    if g.timer is not None and g.timer.side == mover:
        g.timer.side = "black" if mover == "white" else "white"
        g.timer.turn_began = at
    board = state.boards.get(g.board)
    if board is not None and board.game == g.id:
        board.held = False
        board.pending = None
        board.physical = None
    ch.appended[g.id] = ev.ply
    ch.game(g.id, *fields)


@folds(MoveComposed)
def _composed(state: HallState, ev: MoveComposed, at: int, ch: Changes) -> None:
    """The last ply becomes the composed move; its clock, the mover's presence and the clock
    model's move count stay as they were (one move, not two)."""
    g = state.games[ev.game or ""]
    if ev.ply != g.ply or not g.moves or g.moves[-1] != ev.replaces:
        raise ValueError(f"move_composed for ply {ev.ply} ({ev.replaces}) does not match ply {g.ply} of game {g.id}")
    g.moves[-1], g.san[-1] = ev.move, ev.san or ev.move
    g.fen, g.turn, g.last_move = ev.fen, ev.turn, ev.move
    g.claimable, g.claims_ply = list(ev.claimable), ev.ply
    ch.game(g.id, "moves", "san", "fen", "turn", "last_move", "claimable")


@folds(DrawClaimable)
def _claimable(state: HallState, ev: DrawClaimable, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    if g.ended or (ev.ply is not None and ev.ply != g.ply):
        return  # about a position that is no longer on the board (FIDE Laws 9.2: it lapsed)
    g.claimable, g.claims_ply = list(ev.claims), g.ply
    ch.game(g.id, "claimable")
