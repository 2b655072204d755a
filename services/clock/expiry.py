"""Clocks that add the next period's time when the current period's time runs out (FIDE Laws 6.9).

FIDE Laws 6.2/6.9 give a period's time for a number of moves: in "90 minutes for 40 moves, then 30
minutes" the 30 minutes belong to moves 41 on, and 6.9 says "if a player does not complete the
prescribed number of moves in the allotted time, the game is lost by the player" (drawn if the
opponent cannot checkmate by any possible series of legal moves). A clock with a move counter adds
the 30 minutes on the press that completes move 40 (``GameClock``'s default,
``PERIOD_ON_MOVE``). Many clocks instead add the next period when the current period's time runs
out (``PERIOD_ON_EXPIRY``): they show the new period's time and keep running whether or not the
player has made the moves. On such a clock:

- a player who completed the period's moves before its time ran out loses nothing: the next
  period's time is added when the old one runs out, and the total is what the Laws give;
- a player who had not has lost on time (6.9) at the instant the period's time ran out, although
  the clock then shows the next period's time and runs on.

``expiries`` lists, for the move in progress, where each period runs out and whether the moves
were made in time; ``judge_period_added`` rules on one such event as a device reports it.

The device protocol event for it (the gateway's to wire; docs/protocol.md once it is): a clock
topic message with ``"event": "period_added"``, the side whose period ran out and the figures the
clock shows right after it added the next period, e.g. ``{"seq": 91, "event": "period_added",
"side": "white", "period": 2, "white_ms": 1800000, "black_ms": 412000, "running": "white"}``
(``period``: the number, from 1, of the period whose time is now running). It is distinct from
``set`` (an arbiter's setting, FIDE Laws 6.10.2): the clock did it by itself, and the rules must
judge it (``judge_period_added``), not accept it as an arbiter's decision.

Pure: no I/O, no clock reads; durations in ms.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.clock.control import TimeControl
from services.clock.period import Period

PERIOD_ON_MOVE = "on_move"  # a move counter: the next period on the press completing the last move
PERIOD_ON_EXPIRY = "on_expiry"  # the next period when the current period's time runs out
PERIOD_ADDED_MODES = (PERIOD_ON_MOVE, PERIOD_ON_EXPIRY)
PERIOD_ADDED_EVENT = "period_added"  # the device protocol's clock event (module notes)


def period_at(control: TimeControl, side: str, index: int) -> tuple[Period, int | None]:
    """The period of ``side`` with ``index`` (from 0; a last period with a move count repeats, as
    in ``TimeControl.period_of_move``) and the number of moves the side must have completed by its
    end (None for a period for the rest of the game). Raises ValueError for a negative index, a bad
    side or an untimed control."""
    if index < 0:
        raise ValueError(f"periods count from 0, got {index}")
    periods = control.periods(side)
    if not periods:
        raise ValueError(f"a {control.kind!r} time control has no periods")
    required = 0
    for i in range(index + 1):
        period = periods[min(i, len(periods) - 1)]
        if period.moves is None:
            return period, None
        required += period.moves
    return periods[min(index, len(periods) - 1)], required


@dataclass(frozen=True)
class Expiry:
    """One period's time running out on a ``PERIOD_ON_EXPIRY`` clock.

    ``side``; ``period``: index (from 0) of the period whose time ran out; ``spent_ms``: how much
    of the move's own running time had been charged when it ran out (0 = at the move's start);
    ``moves_made``: the side's completed moves then; ``moves_required``: the moves the period asked
    for (None: a period for the rest of the game, whose end is a plain flag fall, 6.8);
    ``in_time``: the moves were made, so the clock adds ``added_ms`` (the next period's time) and
    the game goes on; else the flag has fallen (``added_ms`` 0) and the side has lost on time
    (6.9), whatever the clock shows next."""

    side: str
    period: int
    spent_ms: int
    moves_made: int
    moves_required: int | None
    in_time: bool
    added_ms: int

    @property
    def law(self) -> str:
        """The article that decides: "FIDE Laws 6.2" (the next period is due), "FIDE Laws 6.9"
        (moves not made in the allotted time), "FIDE Laws 6.8" (the last period ran out)."""
        if self.moves_required is None:
            return "FIDE Laws 6.8"
        return "FIDE Laws 6.2" if self.in_time else "FIDE Laws 6.9"

    def to_json(self) -> dict:
        """``{"side", "period", "spent_ms", "moves_made", "moves_required", "in_time", "added_ms",
        "law"}``."""
        return {"side": self.side, "period": self.period, "spent_ms": self.spent_ms,
                "moves_made": self.moves_made, "moves_required": self.moves_required,
                "in_time": self.in_time, "added_ms": self.added_ms, "law": self.law}


def judge_period_added(control: TimeControl, side: str, period: int, moves_made: int) -> Expiry:
    """Rule on ``side``'s period ``period`` (from 0) running out with ``moves_made`` completed moves
    (module notes): in time when the moves the period asked for were made, then the next period's
    time is due; else the flag fell (FIDE Laws 6.9). ``spent_ms`` is 0 (unknown here). Raises
    ValueError for a bad side, period or move count."""
    if moves_made < 0:
        raise ValueError(f"moves_made must not be negative, got {moves_made}")
    _, required = period_at(control, side, period)
    if required is None:
        return Expiry(side, period, 0, moves_made, None, False, 0)
    in_time = moves_made >= required
    added = period_at(control, side, period + 1)[0].time_ms if in_time else 0
    return Expiry(side, period, 0, moves_made, required, in_time, added)


def expiries(control: TimeControl, side: str, base_ms: int, moves_made: int, periods_added: int
             ) -> list[Expiry]:
    """Every period that would run out during ``side``'s move in progress if it never pressed, in
    order: the first after ``base_ms`` of the move's running time (its time when the move began),
    each next one after the time the one before added; the last is the one that ends the clock
    (``in_time`` False). ``periods_added``: the periods the clock has added on expiry so far (the
    index of the current period). Raises ValueError for a bad side or negative figures."""
    if base_ms < 0 or moves_made < 0 or periods_added < 0:
        raise ValueError("base_ms, moves_made and periods_added must not be negative")
    out = []
    spent = base_ms
    index = periods_added
    while True:
        verdict = judge_period_added(control, side, index, moves_made)
        out.append(Expiry(side, index, spent, moves_made, verdict.moves_required, verdict.in_time,
                          verdict.added_ms))
        if not verdict.in_time:
            return out
        spent += verdict.added_ms
        index += 1
