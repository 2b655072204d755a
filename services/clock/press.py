"""What one clock press did (FIDE Laws 6.2.1: a move is completed by pressing the clock)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PressResult:
    """One accepted press.

    - ``side``: "white" or "black", the side that completed its move;
    - ``move_number``: that side's move number (its n-th press, from 1);
    - ``at_ms``: the press instant;
    - ``used_ms``: the running time of the move (pauses excluded), the PGN ``%emt``;
    - ``increment_ms``, ``period_ms``: what the move was credited: the increment of the move's
      period (on the press; with ``credit="move_start"`` it was given when the move started) and,
      when the move completes a period, the next period's time (on the press);
    - ``remaining_ms``: the side's time after the press, credits included (the PGN ``%clk``).
    """

    side: str
    move_number: int
    at_ms: int
    used_ms: int
    increment_ms: int
    period_ms: int
    remaining_ms: int

    @property
    def added_ms(self) -> int:
        """Everything the press credited: ``increment_ms + period_ms``."""
        return self.increment_ms + self.period_ms

    def to_json(self) -> dict:
        """The fields as a JSON object (``added_ms`` included)."""
        return {"side": self.side, "move_number": self.move_number, "at_ms": self.at_ms,
                "used_ms": self.used_ms, "increment_ms": self.increment_ms,
                "period_ms": self.period_ms, "added_ms": self.added_ms,
                "remaining_ms": self.remaining_ms}
