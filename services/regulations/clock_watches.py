"""The regulations' clock model of every game (``clock_watch.ClockWatch``), kept beside the fold by
whoever decides (the gateway, ``gateway.hall.Hall``; tests' ``referee_harness``), not in it: the
fold (``services.state``) only folds entries, and the watches follow what it folded.

``ClockWatches.follow(state, event, at, changes)`` shows a watch the entry just folded into
``state`` at ``at`` (ms), with the ``changes`` the fold returned, and returns the watch's findings
(``(game id, finding)``, ``ClockWatch.on_clock``) for ``referee.answers``:

- a game set up (``round_started``, ``playoff_stage_started``, ``armageddon_scheduled``): its watch
  from its SETUP and the tournament file in force (``watch_for``); a tournament registered, or a
  checkers match's clock chosen (a table, X.A.a): the watches of the games not started yet are made
  again under the new rules;
- presses the fold took back (``Changes.voided``: a press that completed no ply, FIDE Laws 7.5.1,
  7.5.3), then the entry's own input: a ply folded (``move_played``, ``Changes.appended``), a clock
  device's event on a game not over, an arbiter's adjustment (``clock_adjusted``), a match's second
  game's carried times (``match_game_ready``, X.A.b).

The watches depend only on the entries and their ``at``, as the fold does: a gateway rebuilt from
the log has the same watches as the live one (tests/unit/test_fold_property.py compares them).
Pure: no I/O, every instant passed in.
"""

from __future__ import annotations

from services.events import (ArmageddonScheduled, ClockAdjusted, ClockPaused, ClockPeriodAdded, ClockPressed,
                             ClockResumed, ClockSet, ClockStarted, Event, MatchClockChosen, MatchGameReady, MovePlayed,
                             RoundStarted, TournamentRegistered)
from services.events.device import ClockReading
from services.events.tournament import TimeControlTable
from services.events.vocabulary import GameStatus
from services.regulations.clock_watch import ClockWatch, watch_for
from services.state import Changes, GameState, HallState

_EVENT: dict[type, str] = {ClockStarted: "start", ClockPressed: "press", ClockPaused: "pause", ClockResumed: "resume",
          ClockSet: "set", ClockPeriodAdded: "period_added"}

Finding = tuple[str, dict]  # (game id, a ClockWatch finding: ``kind`` and its evidence)


class ClockWatches:
    """Game id -> its :class:`ClockWatch` (``games``); see the module docstring. Two are equal when
    they hold equal watches for the same games."""

    def __init__(self) -> None:
        self.games: dict[str, ClockWatch] = {}

    def get(self, game_id: str) -> ClockWatch | None:
        """The watch of game ``game_id``, or None (no such game)."""
        return self.games.get(game_id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClockWatches) and self.games == other.games

    __hash__ = None  # type: ignore[assignment]

    def _new(self, state: HallState, g: GameState) -> None:
        self.games[g.id] = watch_for(g.setup, g.first_side, state.config, state.clock_rate)

    def follow(self, state: HallState, event: Event, at: int, changes: Changes) -> list[Finding]:
        """Show the watches ``event``, just folded into ``state`` at ``at`` (ms) with ``changes``;
        the findings of the clock's figures against the model, in order."""
        if isinstance(event, RoundStarted):  # a play-off stage's too
            self._set_up(state, [s.id for s in event.games])
            return []
        if isinstance(event, ArmageddonScheduled):
            self._set_up(state, [event.id])
            return []
        if isinstance(event, TournamentRegistered):
            for g in state.games.values():  # the clock models of games not started take the new rules
                if g.started_at is None:
                    self._new(state, g)
            return []
        if isinstance(event, MatchClockChosen):
            self._match_clock(state, event)
            return []
        for gid, side in changes.voided:  # before the entry's own input, as the fold took them back
            voided = self.games.get(gid)
            if voided is not None:
                voided.void_press(side, at)
        game = state.games.get(getattr(event, "game", None) or "")
        w = self.games.get(game.id) if game is not None else None
        if game is None or w is None:
            return []
        if isinstance(event, MovePlayed):
            if changes.appended.get(game.id) == event.ply:  # folded: not a ply out of place
                w.on_move(game.mover(event.ply), at)
        elif isinstance(event, ClockReading):
            if not game.ended:
                return [(game.id, f) for f in w.on_clock(_EVENT[type(event)], event.white_ms, event.black_ms,
                                                         event.running, at, event.made_at, event.earliest_at)]
        elif isinstance(event, ClockAdjusted):
            w.adjust(event.white_ms, event.black_ms, at)
        elif isinstance(event, MatchGameReady):
            if game.status == GameStatus.WAITING and event.white_ms is not None and event.black_ms is not None:
                w.carry(event.white_ms, event.black_ms)
        return []

    def _set_up(self, state: HallState, ids: list[str]) -> None:
        """Games set up (a round set up again replaces its games: the watches of games gone go)."""
        for gid in ids:
            g = state.games.get(gid)
            if g is not None:
                self._new(state, g)
        for gid in [gid for gid in self.games if gid not in state.games]:
            del self.games[gid]

    def _match_clock(self, state: HallState, event: MatchClockChosen) -> None:
        """X.A.a: the games of the match not started take the chosen control (a table)."""
        if not isinstance(event.time_control, TimeControlTable):
            return
        for gid in event.games or (event.game,):
            g = state.games.get(gid or "")
            if g is not None and g.started_at is None and not g.ended:
                self._new(state, g)

    def apply(self, state: HallState, event: Event, at: int, seq: int | None = None) -> tuple[Changes, list[Finding]]:
        """Fold ``event`` into ``state`` (``HallState.apply_event``) and follow it: its changes and
        the watches' findings."""
        changes = state.apply_event(event, at, seq)
        return changes, self.follow(state, event, at, changes)

    def fold(self, state: HallState, type: str, data: dict, at: int = 0, seq: int | None = None) -> list[Finding]:
        """Fold one log entry ``(type, data)`` (``HallState.fold``: an entry that cannot be read is
        counted in ``state.errors``) and follow it; the watches' findings."""
        from services.events import BadEvent, decode

        try:
            event = decode(type, data)
        except BadEvent:
            state.fold(type, data, at, seq)
            return []
        return self.apply(state, event, at, seq)[1]
