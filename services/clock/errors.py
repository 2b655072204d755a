"""Errors raised by the clock package. All are ``ValueError`` subclasses: bad input, state unchanged.

- ``ClockError``: an event the clock cannot apply (instant earlier than the last event, start twice,
  resume while running, a negative time, ...). The clock is unchanged.
- ``NotRunning(ClockError)``: a press or pause by a side whose clock is not running (the opponent's
  clock runs, the clock is paused, or it was never started). Ignored: the clock is unchanged.
- ``FlagFallen(ClockError)``: an event after a flag fell (FIDE Laws 6.8). Carries ``side`` (the
  side whose flag fell) and ``at_ms`` (the instant it fell). The clock is unchanged: a late press adds
  no increment and does not revive the clock (field case F08).
- ``TimeControlSyntaxError``: text that is not PGN TimeControl notation (PGN standard 9.6.1).
- ``NotExpressibleInPgn``: a control that PGN TimeControl notation cannot write (different per side,
  an increment from a move other than 1, a delay, fractions of a second, a match clock).
"""

from __future__ import annotations


class ClockError(ValueError):
    """A clock event that cannot be applied; the clock is unchanged."""


class NotRunning(ClockError):
    """A press or pause by a side whose clock is not running; the clock is unchanged."""


class FlagFallen(ClockError):
    """An event after ``side``'s flag fell at ``at_ms`` (FIDE Laws 6.8); the clock is unchanged."""

    def __init__(self, side: str, at_ms: int, message: str):
        super().__init__(message)
        self.side = side
        self.at_ms = at_ms


class TimeControlSyntaxError(ValueError):
    """Text that is not PGN TimeControl notation (PGN standard 9.6.1). ``text``: the input."""

    def __init__(self, text: str, reason: str):
        super().__init__(f"not a PGN TimeControl value: {text!r}: {reason}")
        self.text = text
        self.reason = reason


class NotExpressibleInPgn(ValueError):
    """A time control PGN TimeControl notation cannot express. ``reason``: a sentence saying why."""

    def __init__(self, reason: str):
        super().__init__(f"not expressible in PGN TimeControl notation: {reason}")
        self.reason = reason
