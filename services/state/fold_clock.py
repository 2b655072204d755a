"""Folding clock readings: the clock device's events, the arbiter's adjustments and pauses, a
checkers match's carried and chosen clocks. Each press is kept per side and matched to its ply by
counting (``services.state.plies``). The regulations' clock model is not the fold's: it follows
the same entries at the same instants beside it (``services.regulations.clock_watches``).

A clock entry's instant is its ``made_at`` when it has one (the event was made before the gateway
applied it: ``services.clock.instant``), else its ``at``: the shown clock's ``at`` (its figures were
true then), the start and a player's arrival take it (and the clock model, whose window
``earliest_at`` opens: ``ClockWatch.on_clock``). What counts entries (a press in doubt, the grace
periods) keeps ``at``, the order the gateway applied them in. Which game a clock message is for is
the gateway's (``gateway.which_game``): each entry names its game."""

from __future__ import annotations

import msgspec

from services.events import (ClockAdjusted, GameStatus, ClockPaused, ClockPeriodAdded, ClockPressed, ClockResumed, ClockSet,
                             ClockStarted, GamePaused, GameResumed, MatchClockChosen, MatchGameReady)
from services.events.device import ClockReading
from services.events.tournament import TimeControlTable
from services.events.vocabulary import Variant
from services.state.clock_reading import ClockShown, frozen_clock
from services.state.match_clock import MatchClockChoice
from services.state.changes import Changes
from services.state.fold_games import PENALTY, awaits
from services.state.fold import HallState, folds
from services.state.model import GameState
from services.state.fold_penalties import penalty_applied, settle_doubt
from services.state.plies import ply_of_press

_EVENT = {ClockStarted: "start", ClockPressed: "press", ClockPaused: "pause", ClockResumed: "resume",
          ClockSet: "set", ClockPeriodAdded: "period_added"}
BALLOT_PLIES = 3  # X.A.d: "the three balloted moves may be played prior to starting white's clock"


@folds(ClockStarted, ClockPressed, ClockPaused, ClockResumed, ClockSet, ClockPeriodAdded)
def _reading(state: HallState, ev: ClockReading, at: int, ch: Changes) -> None:
    g = state.games[ev.game or ""]
    event = _EVENT[type(ev)]
    running = ev.running
    made = ev.made_at if ev.made_at is not None else at
    g.clock = ClockShown(white_ms=ev.white_ms, black_ms=ev.black_ms, running=None if g.ended else running, at=made)
    g.clock_earliest = ev.earliest_at
    g.clock_event = ev.TYPE
    fields = {"clock"}
    if g.status == GameStatus.WAITING and running is not None:
        g.status = GameStatus.PLAYING
        fields.add("status")
    if event == "start":
        if g.started_at is None:
            g.started_at = made
        if g.timed_from is None:
            g.timed_from = _untimed(state, g)
    if event == "press" and running is not None:
        presser = "black" if running == "white" else "white"
        if g.arrived[presser] is None:
            g.arrived[presser] = made
        ms = ev.white_ms if presser == "white" else ev.black_ms
        settle_doubt(g, presser, True, ch)  # a press in doubt: the illegal move's, or the replacement's
        g.presses[presser].append(ms)
        ply = ply_of_press(g, presser, len(g.presses[presser]))
        if 1 <= ply <= g.ply:
            g.clocks[ply - 1] = ms
            ch.clock_of(g.id, ply)
    ch.game(g.id, *fields)


def _untimed(state: HallState, g: GameState) -> int:
    """Plies made before the clock started that no press belongs to: the balloted moves of a
    checkers game when the event plays them before starting the clock (X.A.d), else 0."""
    t = state.config
    if (g.variant == Variant.CHECKERS and t is not None and t.regulations.ballot_moves_before_clock
            and not g.setup.fen):
        return min(g.ply, BALLOT_PLIES)
    return 0


@folds(ClockAdjusted)
def _adjusted(state: HallState, ev: ClockAdjusted, at: int, ch: Changes) -> None:
    g = state.games[ev.game or ""]
    running = g.clock.running if g.clock else None
    g.clock = ClockShown(white_ms=ev.white_ms, black_ms=ev.black_ms, running=running, at=at)
    g.clock_earliest = None
    if ev.penalty is not None:
        penalty_applied(g, ev.side, ev.add_ms)
        awaits(g, PENALTY, False)  # the arbiter applied a penalty in time: the game goes on (7.5.5)
    ch.game(g.id, "clock")


@folds(GamePaused, GameResumed)
def _paused(state: HallState, ev, at: int, ch: Changes) -> None:
    """The arbiter stopped (FIDE Laws 6.11) or restarted the clocks: the shown clock stops at the
    pause and runs again from the resumption."""
    g = state.games[ev.game or ""]
    if g.clock is None or g.ended:
        return
    if isinstance(ev, GamePaused):
        if g.clock.running is None:
            return
        g.paused = g.clock.running
        g.clock = frozen_clock(g.clock, at)
    else:
        if g.paused is None:
            return
        g.clock = msgspec.structs.replace(g.clock, running=g.paused, at=at)
        g.paused = None
    g.clock_earliest = None  # the arbiter's instant is known
    ch.game(g.id, "clock")


@folds(MatchGameReady)
def _match_ready(state: HallState, ev: MatchGameReady, at: int, ch: Changes) -> None:
    """A match's second game waits, its clock paused at the times carried from the first (11-Man
    National 2017 X.A.b: "The clocks shall be paused between games")."""
    g = state.games[ev.game]
    g.prepared = True
    if g.status != GameStatus.WAITING or ev.white_ms is None or ev.black_ms is None:
        return
    g.clock = ClockShown(white_ms=ev.white_ms, black_ms=ev.black_ms, at=at)
    ch.game(g.id, "clock")


@folds(MatchClockChosen)
def _match_clock(state: HallState, ev: MatchClockChosen, at: int, ch: Changes) -> None:
    """The referee's record of a match's clock (X.A.a): both games take its control; game 1, not
    started, shows the option's time paused; the clock models of games not started take it."""
    base_ms = {"90": 90 * 60_000, "80+10": 80 * 60_000}[ev.option]
    choice = MatchClockChoice(option=ev.option, how=ev.how, coin=ev.coin, by=ev.by, at=at)
    for gid in ev.games or (ev.game,):
        g = state.games.get(gid or "")
        if g is None:
            continue
        g.time_control = ev.time_control
        g.match_clock = choice  # frozen: the games of the match share the one record
        fields = {"time_control", "match_clock"}
        if g.status == GameStatus.WAITING and g.setup.match is not None and g.setup.match.game_no == 1:
            g.clock = ClockShown(white_ms=base_ms, black_ms=base_ms, at=at)
            fields.add("clock")
        if g.started_at is None and not g.ended and isinstance(ev.time_control, TimeControlTable):
            g.setup = msgspec.structs.replace(g.setup, time_control=ev.time_control)
        ch.game(g.id, *fields)
