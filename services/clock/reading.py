"""A clock reading in words, as a chess clock shows it and PGN's ``%clk`` writes it: ``h:mm:ss``.

Used where the arbiters read a time next to the clock's own display (alerts' details), so a detail
never says "5398.2 s" beside a console that shows "1:29:58"."""

from __future__ import annotations


def clock_text(ms: int) -> str:
    """``ms`` (milliseconds, >= 0; a negative reading is shown as 0) as ``h:mm:ss``, floored to
    the whole second as a clock's display and PGN's ``[%clk h:mm:ss]`` do (PGN spec 8.1.1 as DGT
    writes it). Example: ``clock_text(5_398_200) == "1:29:58"``."""
    s = max(0, int(ms)) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
