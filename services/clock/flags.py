"""Which flag fell, by the clock's own readings (FIDE Laws 6.1.1 "'Flag-fall' means the expiration of
the allotted time for a player", 6.8, 6.10.1 "Every indication given by the chessclock is considered
to be conclusive in the absence of any evident defect").

``flag_fall(reading, before)`` compares a clock reading with the one before it:

- the side whose time runs shows 0 and had more before: its time ran out on this turn;
- the clock stopped itself (``pause`` with nothing running) with one side at 0: that side's;
- both sides at 0 where the reading before showed exactly one of them at 0: that one fell first
  (the clock showed it at 0 while the other's time still ran: 6.10.1);
- both sides at 0 where the reading before showed neither: which flag fell first cannot be
  established from the clock (the Guidelines' case, III.3.1: ``FlagFall.both``);
- a figure of 0 that comes with a press for the side not running and stays unchanged is not a flag
  fall: real clocks send such figures in passing (FIDE Candidates 2024, round 1, Abasov -
  Nepomniachtchi: 6...dxc4 {[%clk 0:00:00]}, and the game went on to move 41).

Readings are the device protocol's ``{"event", "white_ms", "black_ms", "running"}`` (ms). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.base import SIDES, Side

RUNNING = "running"  # the running side reached 0 on this turn
STOPPED = "stopped"  # the clock stopped itself with that side at 0
EARLIER = "earlier_reading"  # both at 0; the reading before already showed this side at 0
BOTH = "both"  # both at 0; which fell first cannot be established


@dataclass(frozen=True)
class FlagFall:
    """A flag fall the readings show: ``side`` (None when both fell and the order cannot be
    established), ``how`` (``RUNNING``, ``STOPPED``, ``EARLIER`` or ``BOTH``)."""

    side: Side | None
    how: str

    @property
    def both(self) -> bool:
        """Both flags fell and which fell first cannot be established (Guidelines III.3.1)."""
        return self.side is None


def _zero(reading: dict | None, side: str) -> bool:
    value = (reading or {}).get(f"{side}_ms")
    return isinstance(value, int) and value <= 0


def flag_fall(reading: dict, before: dict | None) -> FlagFall | None:
    """The flag fall ``reading`` shows after ``before`` (the clock's previous reading, or None), or
    None (see the module docstring). Said once: a reading that repeats what ``before`` showed is
    no news. Raises KeyError when ``reading`` lacks ``white_ms``/``black_ms``."""
    at_zero = [side for side in SIDES if reading[f"{side}_ms"] <= 0]
    if len(at_zero) == 2:
        earlier = [side for side in SIDES if _zero(before, side)]
        if len(earlier) == 2:
            return None  # said at the reading that first showed both at 0
        if len(earlier) == 1:
            return FlagFall(earlier[0], EARLIER)
        return FlagFall(None, BOTH)
    running = reading.get("running")
    if running in SIDES and reading[f"{running}_ms"] <= 0 and not _zero(before, running):
        return FlagFall(running, RUNNING)
    if reading.get("event") == "pause" and running is None and len(at_zero) == 1:
        return FlagFall(at_zero[0], STOPPED)
    return None
