"""One time-control period of one side (FIDE Laws 6.1, 6.2; Glossary "increment", "delay").

A ``Period`` is "``moves`` moves (or the rest of the game) with ``time_ms`` added, and an increment
or a delay per move". All durations are integer milliseconds; move numbers count the side's own
moves from 1 (its n-th clock press is its move n).
"""

from __future__ import annotations

from dataclasses import dataclass

DELAY_KINDS = (None, "simple", "bronstein")


@dataclass(frozen=True)
class Period:
    """A time-control period.

    - ``moves``: moves in this period (int >= 1), or None for the rest of the game (sudden death).
    - ``time_ms``: time given for the period (>= 0). The first period's time is the starting time;
      a later period's time is added when the player completes the last move of the period before
      (e.g. +30 min on White's 40th press in "90 min for 40 moves, then 30 min").
    - ``increment_ms``: Fischer increment (>= 0) added on each press that completes a move of this
      period whose number is at least ``increment_from_move`` (an absolute move number of the game,
      >= 1: "10 s per move from move 41" is ``increment_from_move=41``).
    - ``delay_ms``, ``delay_kind``: a delay mode instead of an increment (field case F09):
      ``"simple"`` (US delay: the main time starts counting down only after ``delay_ms`` of the
      move) or ``"bronstein"`` (the main time counts down at once and up to ``delay_ms`` of the time
      used is given back on the press). Neither can raise the time above what it was at the move's
      start. ``delay_ms > 0`` exactly when ``delay_kind`` is given.

    Raises ValueError when a value is out of range, not an int, or an increment and a delay are
    combined (a clock runs one mode per period).
    """

    moves: int | None
    time_ms: int
    increment_ms: int = 0
    increment_from_move: int = 1
    delay_ms: int = 0
    delay_kind: str | None = None

    def __post_init__(self) -> None:
        for name in ("time_ms", "increment_ms", "increment_from_move", "delay_ms"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"Period.{name} must be an int, got {value!r}")
            if value < 0:
                raise ValueError(f"Period.{name} must not be negative, got {value}")
        if self.moves is not None and (
            not isinstance(self.moves, int) or isinstance(self.moves, bool) or self.moves < 1
        ):
            raise ValueError(f"Period.moves must be an int >= 1 or None, got {self.moves!r}")
        if self.increment_from_move < 1:
            raise ValueError("Period.increment_from_move counts moves from 1")
        if self.delay_kind not in DELAY_KINDS:
            raise ValueError(f"Period.delay_kind must be one of {DELAY_KINDS}, got {self.delay_kind!r}")
        if (self.delay_ms > 0) != (self.delay_kind is not None):
            raise ValueError("Period.delay_ms > 0 exactly when Period.delay_kind is given")
        if self.delay_ms and self.increment_ms:
            raise ValueError("a period has an increment or a delay, not both")

    def increment_on(self, move_number: int) -> int:
        """The increment (ms) due on the press completing ``move_number`` when it falls in this
        period: ``increment_ms`` from ``increment_from_move`` on, else 0."""
        return self.increment_ms if move_number >= self.increment_from_move else 0
