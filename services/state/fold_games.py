"""Folding which game a hall board's devices play (DESIGN.md "The arbiter's office and the game a
message belongs to"): a board's messages are split into games at recorded boundaries
(``device_game_began``: from a ``seq`` on, a device's messages are a game's), and a message whose
game cannot be decided yet waits in the log (``message_awaiting_game``) until it can; the arbiter
can say which game the board plays (``board_game_called``). ``BoardState.game_of`` looks a
message's game up. What a game waits for from the arbiter (``GameState.awaiting``: a claim, a
penalty that loses the game) is kept here too: while it waits, its board holds its messages.
The decisions are the gateway's (``gateway.which_game``); this fold only keeps what they recorded."""

from __future__ import annotations

from services.events import (BoardGameCalled, DeviceGameBegan, DrawClaimReported, MatchGameStarted,
                             MessageAwaitingGame)
from services.state.applied import called_done
from services.state.changes import Changes
from services.state.fold import HallState, folds
from services.state.model import BoardState, GameState

CLAIM = "claim"
PENALTY = "penalty"


def begin(board: BoardState, device, seq: int, game: str) -> None:
    """Record that ``device``'s messages from ``seq`` on are ``game``'s (kept in ``seq`` order; a
    boundary at the same ``seq`` replaces the older one); the board device's game moves on with it,
    its F05 hold, kept move and pieces after the end being the game before's."""
    began = [b for b in board.began.get(device) or () if b[0] != seq]
    began.append([seq, game])
    began.sort(key=lambda b: b[0])
    board.began[device] = began
    if device == "board" and board.current("board") != board.game:
        board.game = board.current("board")
        board.held, board.pending, board.physical = False, None, None
    called_done(board)


def awaits(g: GameState, what: str, on: bool) -> None:
    """``g`` waits (``on``) or no longer waits for the arbiter's decision ``what``."""
    if on:
        g.awaiting.add(what)
    else:
        g.awaiting.discard(what)


@folds(DeviceGameBegan)
def _began(state: HallState, ev: DeviceGameBegan, at: int, ch: Changes) -> None:
    board = state.boards[ev.board]
    if ev.game not in board.games:
        raise ValueError(f"device_game_began: game {ev.game} is not played on board {ev.board}")
    begin(board, ev.device, ev.seq, ev.game)
    ch.game(ev.game, "status")


@folds(MatchGameStarted)
def _match_game_started(state: HallState, ev: MatchGameStarted, at: int, ch: Changes) -> None:
    """An older gateway's boundary: the message ``seq`` of ``device`` began the board's next game."""
    if ev.game is None or ev.seq is None:  # the gateway always names them; else counted in state.errors
        raise ValueError("match_game_started names no game or seq")
    begin(state.boards[ev.board], ev.device, ev.seq, ev.game)


@folds(MessageAwaitingGame)
def _awaiting(state: HallState, ev: MessageAwaitingGame, at: int, ch: Changes) -> None:
    board = state.boards[ev.board]
    board.awaiting.append({"device": ev.device, "seq": ev.seq, "kind": ev.kind, "body": ev.body,
                           "reason": ev.reason, "read_at": ev.read_at if ev.read_at is not None else at,
                           "late": ev.late})


@folds(BoardGameCalled)
def _called(state: HallState, ev: BoardGameCalled, at: int, ch: Changes) -> None:
    board = state.boards[ev.board or ""]
    if ev.game not in board.games:
        raise ValueError(f"board_game_called: game {ev.game} is not played on board {ev.board}")
    board.called = ev.game
    called_done(board)


@folds(DrawClaimReported)
def _claim_reported(state: HallState, ev: DrawClaimReported, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    if not g.ended:
        awaits(g, CLAIM, True)
