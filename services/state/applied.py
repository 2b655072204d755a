"""A device message applied to its game: which one an entry records as applied (``used_seq``) and
what that ends on its board (it no longer waits for its game, ``drop_awaiting``; the arbiter's call of
the board's game is answered once nothing waits, ``called_done``).

Read by the fold itself (``HallState.apply_event`` marks the seq used on every entry that records one),
by the handlers of ``fold_games`` and by the alerts (``services.views.alert_since``: a skipped message
applied late). Its own module below the fold (issue 26: the fold modules and ``hall`` imported each
other through these).
"""

from __future__ import annotations

from services.events import Device, Event
from services.events.device import (ClockPaused, ClockPeriodAdded, ClockPressed, ClockReading, ClockResumed,
                                     ClockSet, ClockStarted, FromDevice, MessageHeld, MessageRejected, MovePlayed,
                                     MoveRejected)
from services.state.model import BoardState


def used_seq(event: Event) -> tuple[str, Device, int] | None:
    """``(board, device, seq)`` when ``event`` records a device message as applied (its ``seq`` used
    up), else None."""
    if isinstance(event, MessageRejected):
        if event.applied and event.seq is not None and event.board is not None and event.device is not None:
            return event.board, event.device, event.seq
        return None
    if isinstance(event, FromDevice) and event.seq is not None and not isinstance(event, MessageHeld):
        return event.board, event.device, event.seq
    return None


# the clock message's ``event`` (docs/protocol.md "Fields") each clock entry records
CLOCK_WORDS: dict[type, str] = {ClockStarted: "start", ClockPressed: "press", ClockPaused: "pause",
                                ClockResumed: "resume", ClockSet: "set", ClockPeriodAdded: "period_added"}


def content_of(event: Event) -> list | None:
    """What the device message an entry applies said, as ``DeviceSeq.contents`` keeps it: a move
    played or refused (``move_rejected``: the text as read, ``gateway.decide.Decider.move_text``)
    from the ``move`` topic ``["move", text]``; a clock reading ``["clock", event,
    white_ms, black_ms, running, side, period]`` (the figures as sent, ms; ``side``/``period`` only
    for ``period_added``, else None). None for every other entry (a placement, a composed move, a
    result: nothing kept to compare a reused seq with)."""
    if isinstance(event, MovePlayed) and event.source == "move" and event.seq is not None:
        return ["move", event.move]
    if isinstance(event, MoveRejected) and event.move is not None and event.seq is not None:
        return ["move", event.move]
    if isinstance(event, ClockReading) and type(event) in CLOCK_WORDS and event.seq is not None:
        return ["clock", CLOCK_WORDS[type(event)], event.white_ms, event.black_ms, event.running,
                getattr(event, "side", None), getattr(event, "period", None)]
    return None


def called_done(board: BoardState) -> None:
    """The arbiter's call (``board_game_called``) is answered once nothing waits and every device
    the board has plays the called game."""
    if board.called is not None and not board.awaiting and all(
            board.games.index(board.current(d)) >= board.games.index(board.called) for d in board.devices):
        board.called = None


def drop_awaiting(board: BoardState, device, seq: int) -> None:
    """Message ``seq`` of ``device`` was applied to its game: it no longer waits."""
    if board.awaiting:
        board.awaiting = [m for m in board.awaiting if (m["device"], m["seq"]) != (device, seq)]
        called_done(board)
