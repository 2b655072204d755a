"""A clock reading as the state keeps it (``GameState.clock``: ``{"white_ms", "black_ms", "running",
"at"}``), and stopping it. All figures are milliseconds; nothing here reads a clock."""

from __future__ import annotations


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
