"""Thinking times and clock figures for games whose record has no clock (checkers PDN), or whose
real clock figures belong to another time control (a chess game replayed under an event's control).

Pure. Thinking times are seeded-random and realistic: the first ``BOOK_PLIES`` plies (the opening,
in checkers the three balloted moves and their replies) 2-12 s each, then a log-normal time around
``MEDIAN_THINK_MS`` (45 s), between 5 s and 10 min. The same seed and moves give the same times.

Clock figures come from ``services.clock.GameClock`` fed with the presses at the simulated instants,
so they are what a clock running the control shows (increments and later periods included; PGN
``[%clk]`` convention: the mover's time after its press). A side whose thinking would bring its clock
below ``RESERVE`` of its starting time is made to think faster (all its times scaled down by 0.8
until it fits): a replay never flags by accident; a flag fall is the record's (``Script.flag``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from services.clock import ClockError, GameClock, Period, TimeControl
from services.rules.base import other

DEFAULT_CONTROL = {"white": "90m", "black": "90m"}  # 11-Man National 2017, X.A.a option 1
BOOK_PLIES = 6
MEDIAN_THINK_MS = 45_000
MIN_THINK_MS, MAX_THINK_MS = 5_000, 600_000
RESERVE = 0.10
_SHRINK = 0.8


def control_of(spec) -> TimeControl:
    """The ``TimeControl`` of a spec: PGN TimeControl text (``"5400+30"``), a tournament-file table
    (``{"white": "90m", "black": "90m", "match_clock": true}``: docs/tournament-file.md), a
    ``TimeControl``, or None for the default: 90 minutes each, sudden death (11-Man National 2017,
    X.A.a option 1). Raises ValueError for a spec that cannot be read or an untimed control."""
    from services.regulations.controls import control_from_spec

    control: TimeControl | None
    if isinstance(spec, TimeControl):
        control = spec
    else:
        control = control_from_spec(DEFAULT_CONTROL if spec in (None, "", "?") else spec)
    if control is None or not control.timed:
        raise ValueError(f"a simulated clock needs a timed control, not {spec!r}")
    return control


def sudden_death(minutes: int) -> TimeControl:
    """``minutes`` each for the whole game, no increment."""
    return TimeControl.symmetric(Period(None, minutes * 60_000))


def thinking_times(moves: Sequence[str], seed: object = 0) -> list[int]:
    """Seeded-random thinking times (ms, whole seconds) for each ply of ``moves`` (module notes).
    ``seed``: any value whose ``str`` picks the stream; the moves are part of the seed, so two
    games of one round do not think alike."""
    rng = random.Random(f"{seed}|{' '.join(moves)}")
    out = []
    for ply in range(len(moves)):
        if ply < BOOK_PLIES:
            ms = rng.uniform(2_000, 12_000)
        else:
            ms = math.exp(rng.gauss(math.log(MEDIAN_THINK_MS), 0.8))
            ms = min(MAX_THINK_MS, max(MIN_THINK_MS, ms))
        out.append(int(round(ms / 1000)) * 1000)
    return out


def clock_figures(thinks: Sequence[int], first_side: str, control: TimeControl,
                  start: dict[str, int] | None = None) -> tuple[list[int], list[int], dict[str, int]]:
    """Run a ``GameClock`` of ``control`` started for ``first_side`` at 0 and pressed after each
    ply's thinking time (sides alternate). Returns ``(thinks, clocks, start)``: the thinking times
    used (a side's shrunk where it would fall below the reserve), the mover's clock after each
    press (ms) and the starting figures ``{"white", "black"}``: the control's, or ``start`` (ms)
    when given (a match clock's second game: the times carried over, X.A.b). Raises ValueError
    for a bad side or an untimed control."""
    factor = {"white": 1.0, "black": 1.0}
    start = dict(start) if start else {s: control.starting_ms(s) for s in ("white", "black")}
    for _ in range(60):
        used, clocks, short = _run(thinks, first_side, control, factor, start)
        if not short:
            return used, clocks, start
        for side in short:
            factor[side] *= _SHRINK
    return used, clocks, start  # thinking shrunk to almost nothing: whatever the clock shows


def _run(thinks, first_side, control, factor, start):
    clock = GameClock(control, white_ms=start["white"], black_ms=start["black"])
    clock.start(0, first_side)
    at, side = 0, first_side
    used: list[int] = []
    clocks: list[int] = []
    short: set = set()
    for think in thinks:
        ms = int(think * factor[side]) // 1000 * 1000
        at += ms
        try:
            press = clock.press(side, at)
        except ClockError:
            short.add(side)
            return used, clocks, short
        if press.remaining_ms < RESERVE * start[side]:
            short.add(side)
        used.append(ms)
        clocks.append(press.remaining_ms)
        side = other(side)
    return used, clocks, short
