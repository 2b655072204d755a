"""The referee's timekeeping in checkers (11-Man National 2017): the move timers of X.B.a (the
five-minute rule) and X.B.c (the one-minute rule), and impending time trouble on a match clock
(X.A.d). Pure proposals over the hall's state (``services.state``)."""

from __future__ import annotations

from services.events import EndedBy, Event, GameEnded, GameResult, MoveTimerForfeit, Termination, MoveTimerWarning, TimeTroubleImpending
from services.regulations.clock_watch import ClockWatch
from services.regulations.move_timer import FIVE_MINUTE, ONE_MINUTE, MoveTimer, TimerRule, next_instant
from services.regulations.quotes import rule_for

TIME_TROUBLE_MS = 5 * 60_000  # X.A.d: "5 minutes or less prior to a time control"
TIME_TROUBLE_RULE = ("11-Man National 2017 X.A.d: \"The Referee may also call attention to impending time "
                     "trouble (5 minutes or less prior to a time control), and spectators are never to do so.\"")


def timer_answers(state, g, now_ms: int) -> list[Event]:
    """The move timer the referee started (``GameState.timer``): its warning once per turn, and at
    the limit ``move_timer_forfeit`` + ``game_ended`` (the side on move loses)."""
    if g.timer is None:
        return []
    timer = MoveTimer(_rule(g.timer))
    timer.start(g.timer.side, g.timer.turn_began)
    st = timer.state(now_ms)
    assert st is not None  # started just above
    base = {"game": g.id, "board": g.board, "side": st.side, "rule": timer.rule.rule, "timer": timer.rule.name}
    if st.phase == "forfeit":
        # our result codes put White's score first, in checkers too (docs/checkers.md)
        result = GameResult.BLACK_WINS if st.side == "white" else GameResult.WHITE_WINS
        return [MoveTimerForfeit(**base, forfeit_at=st.forfeit_at),
                GameEnded(game=g.id, board=g.board, result=result, termination=Termination.TIME_FORFEIT, ply=g.ply,
                          by=EndedBy.REGULATIONS, rule=timer.rule.rule)]
    if st.phase == "warned" and g.timer.warned != g.timer.turn_began:
        return [MoveTimerWarning(**base, left_ms=st.left_ms, turn_began=g.timer.turn_began)]
    return []


def _rule(timer) -> TimerRule:
    return ONE_MINUTE if timer.rule == "one_minute" else FIVE_MINUTE


def timer_next(g) -> int | None:
    """The earliest instant (ms) at which ``timer_answers`` can answer for game ``g`` by time alone
    (``move_timer.next_instant``); None without a timer."""
    if g.timer is None:
        return None
    return next_instant(_rule(g.timer), g.timer.turn_began, g.timer.warned == g.timer.turn_began)


def _trouble_watched(g, w: ClockWatch | None) -> bool:
    """Whether X.A.d's time trouble is watched for ``g``: a checkers game in play on a match clock
    (the control's ``carries_over``, X.A.a) whose clock model ``w`` has started."""
    return not (g.ended or g.first_side != "black" or w is None or w.control is None or not w.control.carries_over
                or w.model is None or not w.model.started)


def time_trouble_next(g, now_ms: int, w: ClockWatch | None) -> int | None:
    """The earliest instant (ms; ``now_ms`` when it is due already) at which ``time_trouble`` can
    alert for game ``g`` (clock model ``w``) by time alone: a side not yet alerted whose running clock reaches 5:00
    (``ClockWatch.when_left``: exact without a delay, earlier with one; the clock rate counted); None
    when only an entry can (no side left to alert, or their clocks stopped)."""
    if w is None or not _trouble_watched(g, w):
        return None
    instants = [w.when_left(side, TIME_TROUBLE_MS, now_ms) for side in ("black", "white")
                if side not in g.time_trouble]
    return min((at for at in instants if at is not None), default=None)


def time_trouble(state, g, now_ms: int, w: ClockWatch | None) -> list[Event]:
    """X.A.d for a checkers game on a match clock (the control's ``carries_over``, X.A.a) whose
    clock model ``w`` runs and whose game is in play: one ``time_trouble_impending`` per side per game when
    that side's time in the model (what its clock shows) is 5:00 or less."""
    if w is None or not _trouble_watched(g, w):
        return []
    out: list[Event] = []
    for side in ("black", "white"):
        if side in g.time_trouble:
            continue
        left = w.remaining(side, now_ms)
        if left is None or left > TIME_TROUBLE_MS:
            continue
        out.append(TimeTroubleImpending(game=g.id, board=g.board, side=side, player=g.player(side), left_ms=left,
                                        threshold_ms=TIME_TROUBLE_MS,
                                        rule=rule_for(state, "time_trouble", TIME_TROUBLE_RULE)))
    return out
