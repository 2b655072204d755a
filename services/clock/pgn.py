"""PGN TimeControl notation (PGN standard 9.6.1): the notation of ``TimeControl.parse_pgn`` and ``.to_pgn``.

Field kinds, joined by ``:`` one per period: ``?`` (unknown), ``-`` (none), ``40/9000`` (moves/
seconds), ``300`` (sudden death, seconds), ``4500+60`` (seconds + increment seconds), ``*180``
(sandclock). The widely used combination ``40/5400+30`` (moves/seconds + increment) is read and
written too. An increment in PGN counts from move 1 of its period's moves: the notation has no way
to say "from move 41", to give White and Black different times, a delay, or fractions of a second;
``format_time_control`` raises ``NotExpressibleInPgn`` for those.

The notation is read into a kind and its periods (``read_time_control``) and written from anything
that has a time control's fields (``Notated``), so ``services.clock.control`` builds its
``TimeControl`` from here without this module importing it back.
"""

from __future__ import annotations

import re
from typing import Protocol

from services.clock.errors import NotExpressibleInPgn, TimeControlSyntaxError
from services.clock.period import Period

_FIELD = re.compile(r"(?:(\d+)/)?(\d+)(?:\+(\d+))?")
_SANDCLOCK = re.compile(r"\*(\d+)")


class Notated(Protocol):
    """What the notation writes of a time control (``services.clock.control.TimeControl``'s fields)."""

    @property
    def white(self) -> tuple[Period, ...]: ...
    @property
    def black(self) -> tuple[Period, ...]: ...
    @property
    def kind(self) -> str: ...
    @property
    def carries_over(self) -> bool: ...


def read_time_control(text: str) -> tuple[str, tuple[Period, ...]]:
    """``(kind, periods)`` of a PGN TimeControl tag value, e.g. ``"40/5400+30:1800+30"``: the kind
    (``"unknown"`` for ``?``, ``"untimed"`` for ``-``, ``"sandclock"`` for ``*600``, else
    ``"periods"``) and the periods both sides play (none for ``?`` and ``-``; a sandclock's one
    rest-of-game period holds all its sand).

    Seconds become milliseconds. Raises ``TimeControlSyntaxError`` for anything else (e.g. the DGT
    LiveChess value ``"15 min/game + 10 sec/move"``), for a move count of 0, and for a
    moves/seconds field after a sudden-death field.
    """
    if not isinstance(text, str):
        raise TimeControlSyntaxError(repr(text), "not a string")
    value = text.strip()
    if value == "?":
        return "unknown", ()
    if value == "-":
        return "untimed", ()
    m = _SANDCLOCK.fullmatch(value)
    if m:
        seconds = int(m.group(1))
        if seconds == 0:
            raise TimeControlSyntaxError(text, "a sandclock needs a positive number of seconds")
        return "sandclock", (Period(None, seconds * 1000),)
    if not value:
        raise TimeControlSyntaxError(text, "empty")
    periods = []
    fields = value.split(":")
    for i, field in enumerate(fields):
        m = _FIELD.fullmatch(field)
        if not m:
            raise TimeControlSyntaxError(text, f"field {field!r} is not moves/seconds, seconds, "
                                               "seconds+increment or moves/seconds+increment")
        moves = int(m.group(1)) if m.group(1) is not None else None
        if moves == 0:
            raise TimeControlSyntaxError(text, f"field {field!r} has 0 moves")
        if moves is None and i < len(fields) - 1:
            raise TimeControlSyntaxError(text, f"sudden-death field {field!r} is not the last")
        periods.append(Period(moves, int(m.group(2)) * 1000, int(m.group(3) or 0) * 1000))
    return "periods", tuple(periods)


def format_time_control(control: Notated) -> str:
    """PGN TimeControl value of ``control``: ``"?"``, ``"-"``, ``"*600"`` or fields such as
    ``"40/5400+30:1800+30"`` (an increment of 0 is not written).

    Raises ``NotExpressibleInPgn`` when White and Black differ, an increment starts after move 1,
    a period has a delay, a time is not whole seconds, or the control is a match clock.
    """
    if control.kind == "unknown":
        return "?"
    if control.kind == "untimed":
        return "-"
    if control.carries_over:
        raise NotExpressibleInPgn("a match clock carries time over from game to game")
    if control.kind == "sandclock":
        return f"*{_seconds(control.white[0].time_ms, 'the sandclock time')}"
    if control.white != control.black:
        raise NotExpressibleInPgn("White and Black have different time controls")
    fields = []
    for p in control.white:
        if p.delay_kind is not None:
            raise NotExpressibleInPgn(f"a {p.delay_kind} delay is not an increment")
        if p.increment_ms and p.increment_from_move != 1:
            raise NotExpressibleInPgn(f"the increment starts from move {p.increment_from_move}")
        field = str(_seconds(p.time_ms, "a period's time"))
        if p.moves is not None:
            field = f"{p.moves}/{field}"
        if p.increment_ms:
            field += f"+{_seconds(p.increment_ms, 'an increment')}"
        fields.append(field)
    return ":".join(fields)


def _seconds(ms: int, what: str) -> int:
    if ms % 1000:
        raise NotExpressibleInPgn(f"{what} of {ms} ms is not a whole number of seconds")
    return ms // 1000
