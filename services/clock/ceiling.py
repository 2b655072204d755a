"""The most time a clock can show a side: the bound on a device's clock figures (issue 28: "a
``start`` with 2^53-1 ms then a press with 0 ended a game 1-0 on time at ply 0").

A side's clock starts with its first period's time and gains only what the control adds on its
presses: the increment of each move (FIDE Laws 6.2, Fischer) and, on the press completing a period,
the next period's time (6.1). A delay never raises the time above what it was at the move's start
(US delay, Bronstein: ``services.clock.period``), and a sandclock holds its whole sand at most. So
after ``moves`` moves of a side its clock cannot show more than

    starting time + what its presses 1 .. moves + ``MOVES_AHEAD`` add + ``MARGIN_MS``

where the stated margins are ours:

- ``MOVES_AHEAD`` (60): the clock's and the board's messages travel separately, and the clock may
  be ahead of the moves the log holds (a board's messages held for a missing seq, a board with no
  sensor): 60 presses is more than a hole the gateway does not ask to be filled;
- ``MARGIN_MS`` (30 min): time an arbiter adds on the clock itself, which then reports it (two
  minutes to the opponent for an illegal move, 7.5.5, or an incorrect claim, 9.5.3, several times
  over), and a clock set generously by hand.

Without a timed control (none known, untimed, unknown) or for a match clock that carries time over
from game to game (``carries_over``, whose time comes from the games before), the bound is
``NO_CONTROL_MS``, a day: no over-the-board control gives a side that much (the longest classical
controls, 40 moves in 2 h then 20 in 1 h then 30 min with 30 s a move, are under 5 h a side).

Pure; times in ms.
"""

from __future__ import annotations

from functools import lru_cache

from services.clock.control import TimeControl

MOVES_AHEAD = 60
MARGIN_MS = 30 * 60_000
NO_CONTROL_MS = 24 * 3_600_000


@lru_cache(maxsize=4096)
def most_ms(control: TimeControl | None, side: str, moves: int) -> int:
    """The most ``side``'s clock can show (ms) after ``side`` made ``moves`` moves (>= 0) under
    ``control`` (None: not known), with the margins of the module docstring. Raises ValueError for a
    bad side."""
    if control is None or not control.timed or control.carries_over:
        return NO_CONTROL_MS
    if control.kind == "sandclock":
        return control.white[0].time_ms + MARGIN_MS
    total = control.starting_ms(side)
    for move in range(1, max(0, moves) + MOVES_AHEAD + 1):
        increment, period = control.added_on_press(side, move)
        total += increment + period
    return total + MARGIN_MS
