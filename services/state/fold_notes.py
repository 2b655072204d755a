"""Folding what the regulations and the arbiters noted about a game that is not a move, a clock or
a result: who is at the board (FIDE Laws 6.7.1), alerts already given (a fine, impending time
trouble, clock mismatches), the late-start draw, the referee's move timer (checkers 2017 X.B)."""

from __future__ import annotations

from services.events import (ClockDisagreement, LateStartDraw, MatchForfeit, MoveTimerForfeit, MoveTimerStarted, MoveTimerWarning,
                             PlayerArrived, PlayerNotAtBoard, PresenceNoted, TimeTroubleImpending)
from services.state.changes import Changes
from services.state.fold import HallState, folds
from services.state.model import Timer

COUNTED = ("press_without_move", "move_without_press")


@folds(PlayerArrived, PresenceNoted)
def _arrived(state: HallState, ev, at: int, ch: Changes) -> None:
    g = state.games[ev.game or ""]
    when = ev.arrived_at if ev.arrived_at is not None else at
    seen = g.arrived[ev.side]
    if seen is None or when < seen:
        g.arrived[ev.side] = when
        ch.game(g.id, "presence")


@folds(PlayerNotAtBoard)
def _not_at_board(state: HallState, ev: PlayerNotAtBoard, at: int, ch: Changes) -> None:
    state.games[ev.game].fine_alerted.add(ev.side)


@folds(TimeTroubleImpending)
def _time_trouble(state: HallState, ev: TimeTroubleImpending, at: int, ch: Changes) -> None:
    state.games[ev.game].time_trouble.add(ev.side)


@folds(LateStartDraw)
def _late_start(state: HallState, ev: LateStartDraw, at: int, ch: Changes) -> None:
    state.games[ev.game].late_start_ruled = True


@folds(ClockDisagreement)
def _disagreement(state: HallState, ev: ClockDisagreement, at: int, ch: Changes) -> None:
    if ev.kind in COUNTED and ev.side is not None:
        count = ev.presses if ev.kind == "press_without_move" else ev.moves
        state.games[ev.game].reported.add((ev.kind, ev.side, count))


@folds(MoveTimerStarted)
def _timer(state: HallState, ev: MoveTimerStarted, at: int, ch: Changes) -> None:
    g = state.games[ev.game or ""]
    if not g.ended and ev.side is not None:
        g.timer = Timer(ev.rule, ev.side, at)


@folds(MoveTimerWarning)
def _timer_warning(state: HallState, ev: MoveTimerWarning, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    if g.timer is not None:
        g.timer.warned = ev.turn_began


@folds(MoveTimerForfeit)
def _timer_forfeit(state: HallState, ev: MoveTimerForfeit, at: int, ch: Changes) -> None:
    state.games[ev.game].timer = None


@folds(MatchForfeit)
def _match_forfeit(state: HallState, ev: MatchForfeit, at: int, ch: Changes) -> None:
    state.games[ev.game].prepared = True
