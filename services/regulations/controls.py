"""Time-control specs of the tournament file turned into ``services.clock.TimeControl``.

A spec is PGN TimeControl text (``"40/5400+30:1800+30"``, ``"180+2"``; PGN standard 9.6.1) or, for
what PGN cannot write, a table:
``{ white = "10m", black = "7m", increment = "1s", increment_from_move = 41 }`` (Norway Armageddon),
``{ white = "90m", black = "90m", match_clock = true }`` (checkers match clocks, ACF/WCDF X.A.b),
``{ bidding = true, base = "45m" }`` (US 2013 Armageddon by bidding: fixed only once the bid is in,
``services.tournament.playoffs.armageddon_by_bid``). Extra keys ``draw_goes_to`` and ``alternative`` are
for the regulations, not the clock.
"""

from __future__ import annotations

from services.clock import Period, TimeControl
from services.events.tournament import Setup, TimeControlTable

from .fields import duration_ms

TABLE_KEYS = {"white", "black", "increment", "increment_from_move", "match_clock", "bidding", "base",
              "draw_goes_to", "alternative", "delay", "delay_kind"}


def control_from_spec(spec) -> TimeControl | None:
    """The control a spec describes; None for a bidding Armageddon (no control before the bid).
    Raises ValueError (with the reason) on a spec that cannot be read."""
    if isinstance(spec, str):
        return TimeControl.parse_pgn(spec)
    if isinstance(spec, TimeControlTable):
        spec = spec.table()
    if not isinstance(spec, dict):
        raise ValueError("a time control is PGN TimeControl text or a table")
    unknown = set(spec) - TABLE_KEYS
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(TABLE_KEYS))})")
    if spec.get("bidding"):
        duration_ms(spec.get("base", "45m"))
        return None
    if "white" not in spec or "black" not in spec:
        raise ValueError("a table control needs white and black (e.g. white = \"10m\", black = \"7m\")")
    inc = duration_ms(spec.get("increment", 0))
    frm = spec.get("increment_from_move", 1)
    if isinstance(frm, bool) or not isinstance(frm, int) or frm < 1:
        raise ValueError("increment_from_move must be a move number >= 1")
    delay = duration_ms(spec.get("delay", 0))
    kind = spec.get("delay_kind", "simple" if delay else None)

    def period(side: str) -> Period:
        return Period(None, duration_ms(spec[side]), inc, frm, delay, kind if delay else None)

    control = TimeControl(( period("white"),), (period("black"),), carries_over=bool(spec.get("match_clock")))
    return control


def control_of(setup: Setup, tournament) -> TimeControl | None:
    """The control a game is played under: its SETUP's ``time_control``, else the tournament file's
    control for the game's ``kind`` (else the event's kind); None when there is none or it cannot
    be read. ``tournament``: a ``Tournament`` or None."""
    kind = setup.kind or (tournament.kind if tournament is not None else None)
    spec = setup.time_control or (tournament.time_controls.get(kind) if tournament is not None else None)
    try:
        return control_from_spec(spec) if spec else None
    except ValueError:
        return None


def starting_time_problem(control: TimeControl | None) -> str | None:
    """Why ``control`` cannot start a game, or None: a timed control whose first period gives a side
    no time (``"0+0"``, ``"40/0+30:..."``, a table's ``white = "0s"``) would have that side's flag
    fall before its first move."""
    if control is None or not control.timed:
        return None
    empty = [side for side in ("white", "black") if control.starting_ms(side) <= 0]
    if not empty:
        return None
    who = "the first period" if len(empty) == 2 else f"{empty[0]}'s first period"
    return (f"{who} has no time: every game would be lost on time before its first move "
            "(give a starting time, e.g. \"5400+30\" or white = \"90m\")")
