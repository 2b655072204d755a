"""Timing moves without a clock: the five-minute rule and the one-minute ("Lowder") rule of the 2017
11-Man National, Major and Minor divisions (checkers-11-man-national-2017.txt, X.B).

X.B.a: "Either the time clocks or the ordinary five-minute rule shall apply to timing moves. ...
Any player at any time has the right to ask for the timekeeper to conduct the five-minute rule".
The ordinary five-minute rule (ACF standard rules): a player must move within five minutes; when
they are up, "time" is called and the move must be completed within one more minute, or the game is
lost. ``FIVE_MINUTE`` holds those figures; an event may set others.

X.B.c: "The Referee will warn the players 30 minutes before the end of the round time. The Referee,
at a later time of his/her choosing, will require each player to make a move within one minute of
each turn to move. The Referee will, at minimum, give a 10-second warning before the expiration of
the minute, and will declare the game forfeited if the player has not moved within the one-minute
period."

Pure: instants in ms are passed in. ``MoveTimer.state(now)`` says where the player on move stands.
"""

from __future__ import annotations

from dataclasses import dataclass

MINUTE = 60_000


@dataclass(frozen=True)
class TimerRule:
    """A per-move limit: ``warn_ms`` after the turn began a warning is given ("time" is called);
    ``limit_ms`` after it the game is forfeited. ``name`` for messages; ``rule`` the source."""

    name: str
    warn_ms: int
    limit_ms: int
    rule: str


FIVE_MINUTE = TimerRule("five-minute rule", 5 * MINUTE, 6 * MINUTE,
                        "11-Man National 2017 X.B.a: the ordinary five-minute rule")
ONE_MINUTE = TimerRule("one-minute rule", 50_000, MINUTE,
                       "11-Man National 2017 X.B.c: a move within one minute, a 10-second warning, "
                       "forfeit if not moved")


@dataclass(frozen=True)
class TimerState:
    """``phase``: "running", "warned" or "forfeit"; ``side`` on move; ``left_ms`` until the limit;
    ``warn_at``/``forfeit_at``: the instants (ms) of the warning and the forfeit."""

    phase: str
    side: str
    left_ms: int
    warn_at: int
    forfeit_at: int


class MoveTimer:
    """The timekeeper for one game under ``rule``, started by the referee (``start``) for the side
    on move; every completed move (``moved``) starts the opponent's turn."""

    def __init__(self, rule: TimerRule):
        self.rule = rule
        self.side: str | None = None
        self.turn_began: int | None = None

    def start(self, side: str, at_ms: int) -> None:
        """The referee invokes the rule (X.B.a on request, X.B.c "at a later time of his/her choosing")."""
        self.side, self.turn_began = side, at_ms

    def moved(self, side: str, at_ms: int) -> None:
        """``side`` completed a move at ``at_ms``; the opponent's minute(s) start. Raises ValueError
        when it was not that side's turn under the timer."""
        if self.side is None:
            return
        if side != self.side:
            raise ValueError(f"{side} moved but {self.side} is on move under the {self.rule.name}")
        self.side = "white" if side == "black" else "black"
        self.turn_began = at_ms

    def state(self, now_ms: int) -> TimerState | None:
        """Where the player on move stands at ``now_ms`` (None before the rule is invoked)."""
        began = self.turn_began
        if self.side is None or began is None:  # both set together by start()
            return None
        elapsed = now_ms - began
        warn_at, forfeit_at = began + self.rule.warn_ms, began + self.rule.limit_ms
        phase = "forfeit" if elapsed > self.rule.limit_ms else "warned" if elapsed >= self.rule.warn_ms else "running"
        return TimerState(phase, self.side, max(0, self.rule.limit_ms - elapsed), warn_at, forfeit_at)


def next_instant(rule: TimerRule, turn_began: int, warned: bool) -> int:
    """The earliest instant (ms) at which a timer under ``rule`` whose turn began at ``turn_began``
    says something not yet said: its warning (``turn_began + warn_ms``, X.B.a "time" called, X.B.c
    the 10-second warning) unless ``warned`` for this turn, else the forfeit, the first instant past
    the limit (``turn_began + limit_ms + 1``: ``MoveTimer.state`` forfeits once more than
    ``limit_ms`` have passed). A past instant is due at once; only a move (a new turn) or the end
    of the timer changes it."""
    return turn_began + rule.warn_ms if not warned else turn_began + rule.limit_ms + 1
