"""Folding what a hall board's devices did that is not a move: messages held for a missing seq,
gaps, holds after an illegal move (F05), orientation (F06), snapshots that play no move, the pieces
after the end (F07), a move kept for the next message to decide, online/offline.

Every entry made from an applied device message marks that device's ``seq`` as applied
(``HallState.apply_event``), so a restarted gateway neither asks for it again nor applies it twice;
a board message's entry also lowers its game's ``board_seq`` to that ``seq`` (``gateway.board_game``).
"""

from __future__ import annotations

from services.events import (BoardOriented, DeviceOffline, DeviceOnline, MessageHeld, MessageRejected, MoveKept,
                             MoveRejected, PlacementSeen, ResultHeld, SeqGap)
from services.state.changes import Changes
from services.state.fold_penalties import doubt_at_resume
from services.state.fold import HallState, folds
from services.state.model import Pending


@folds(MessageHeld)
def _held(state: HallState, ev: MessageHeld, at: int, ch: Changes) -> None:
    dev = state.boards[ev.board].device(ev.device)
    if ev.seq is not None and ev.seq > dev.last:
        dev.waiting[ev.seq] = {"kind": ev.kind, "body": ev.body, "sent_at": ev.sent_at, "read_at": at}
        if dev.waiting_since is None:
            dev.waiting_since = at


@folds(ResultHeld)
def _result_held(state: HallState, ev: ResultHeld, at: int, ch: Changes) -> None:
    held = state.boards[ev.board].device(ev.device).waiting.get(ev.seq)
    if held is not None:
        held["result_held"] = True  # told once: the gateway's timer keeps the hold without a new entry


@folds(SeqGap)
def _gap(state: HallState, ev: SeqGap, at: int, ch: Changes) -> None:
    dev = state.boards[ev.board].device(ev.device)
    dev.skip(ev.expected, ev.got)
    for seq in [s for s in dev.waiting if s <= dev.last]:
        del dev.waiting[seq]
    # a second hole further on waits its own full hold, from now
    dev.waiting_since = at if dev.waiting else None


@folds(MoveRejected)
def _rejected(state: HallState, ev: MoveRejected, at: int, ch: Changes) -> None:
    board = state.boards[ev.board]
    if ev.move is not None and ev.seq is not None and ev.device is not None:
        dev = board.device(ev.device)
        dev.refuse(ev.seq, ev.move)  # DeviceSeq.refused: the same seq with another move is the move meant
    if ev.held and not board.held:  # the first illegal move is the irregularity; later ones wait
        board.held, board.held_by, board.held_move, board.held_press = True, ev.side, ev.move, None


@folds(PlacementSeen)
def _placement(state: HallState, ev: PlacementSeen, at: int, ch: Changes) -> None:
    board = state.boards[ev.board]
    board.placement = ev.placement
    if ev.reading == "same":
        g = state.games.get(board.game)
        if g is not None and board.held and board.held_by is not None:
            doubt_at_resume(state, g, board.held_by)  # the illegal move was taken back (7.5.1)
        board.held = False  # F05: the official position is back on the board
        board.pending = None
    elif ev.reading == "pending" and ev.pending:
        board.pending = Pending(ev.pending, "position", ev.device, ev.seq, ev.pending_fen or "", ev.sent_at)
    elif ev.reading == "after_end":
        board.physical = ev.placement


@folds(MoveKept)
def _kept(state: HallState, ev: MoveKept, at: int, ch: Changes) -> None:
    state.boards[ev.board].pending = Pending(ev.move, "move", ev.device, ev.seq, ev.fen_after or "", ev.sent_at)


@folds(BoardOriented)
def _oriented(state: HallState, ev: BoardOriented, at: int, ch: Changes) -> None:
    board = state.boards[ev.board]
    board.oriented, board.rotated = True, ev.rotated


@folds(DeviceOnline, DeviceOffline)
def _status(state: HallState, ev, at: int, ch: Changes) -> None:
    board = state.boards.get(ev.board)
    if board is not None:
        board.status = ev.TYPE
        board.bad_status = None
        if isinstance(ev, DeviceOnline) and ev.battery is not None:
            board.battery = ev.battery


MAX_STRAY_STATUS = 1000  # more boards than any hall has: a flood of made-up board names stays bounded


@folds(MessageRejected)
def _bad_status(state: HallState, ev: MessageRejected, at: int, ch: Changes) -> None:
    if ev.board is not None and (ev.topic or "").endswith("/status"):
        board = state.boards.get(ev.board)
        if board is not None:
            board.bad_status = ev.raw
        elif ev.raw is not None:  # a board with no game this round (a spare one, one this round does not use)
            state.stray_status.pop(ev.board, None)
            state.stray_status[ev.board] = ev.raw
            while len(state.stray_status) > MAX_STRAY_STATUS:
                del state.stray_status[next(iter(state.stray_status))]
