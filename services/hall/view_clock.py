"""Clock readings in the spectators' view: PGN ``%clk`` per ply, and stopping a clock at the end.

A clock press by side X ends X's turn, so the remaining time it shows for X is X's clock after X's
latest ply (PGN ``[%clk]``, the mover's time after the move). Devices are separate (a board and a
clock), so a press may reach the log before or after the board's move:

- press after the move: attach X's time to X's latest ply that has no clock yet;
- press before the move (X's latest ply already has its clock, or X has not moved): hold the time
  and attach it when X's next move arrives.

All figures are milliseconds; nothing here reads a clock (time comes from the entries' ``at``).
"""

from __future__ import annotations


class ClockAttacher:
    """Per game: the press readings waiting for their move, one per side (the latest wins)."""

    def __init__(self) -> None:
        self._pending: dict[str, int] = {}

    def pressed(self, side: str, ms: int, moves: list, clocks: list, movers: list[str]
                ) -> tuple[int, int] | None:
        """A press by ``side`` showing ``ms`` left for it. Returns ``(ply, ms)`` to attach now
        (ply counts from 1), or None when held for ``side``'s next move."""
        for i in range(len(moves) - 1, -1, -1):
            if movers[i] == side:
                if clocks[i] is None:
                    self._pending.pop(side, None)
                    return (i + 1, ms)
                break
        self._pending[side] = ms
        return None

    def moved(self, side: str, ply: int) -> int | None:
        """``side`` made ``ply``: the held reading (ms) to attach to it, if a press came first."""
        return self._pending.pop(side, None)


def frozen_clock(clock: dict, at: int) -> dict:
    """The clock stopped at ``at`` (ms): the running side's time less what elapsed since the
    reading (never below 0), and ``running`` None, so browsers stop counting down."""
    out = dict(clock)
    side = clock.get("running")
    if side in ("white", "black"):
        key = f"{side}_ms"
        out[key] = max(0, int(clock[key]) - max(0, at - int(clock["at"])))
    out["running"] = None
    out["at"] = at
    return out
