"""One e-board's LiveChess readings in, our device protocol's messages out (pure).

What the bridge publishes for a hall board (docs/protocol.md, docs/boards.md):

- ``position`` ``{"placement"}``: every placement LiveChess reports that differs from the last one
  sent (a repeated event sends nothing). Passing states (a piece in the hand, a piece lifted and put
  back) go out as they come: the gateway waits them out. Never a ``move``: the gateway infers moves,
  the orientation (F06) and the result signal (F07) from placements; the bridge invents nothing.
- ``clock`` ``{"event", "white_ms", "black_ms", "running"}`` when the clock's running side changes
  or a stopped clock's times are set (``clock_event``). LiveChess reports whole seconds.
- ``status`` ``online``/``offline``: LiveChess reading the board (``ACTIVE``, ``DELAYED``) or not
  (``INACTIVE``, ``NOTRESPONDING``, gone from its list, or LiveChess itself unreachable); online
  with the battery when LiveChess knows it (``{"status": "online", "battery": "87%"}``), sent again
  when it changes. While a board is not read, its stale placement and clock are not sent.

``Reading`` is what was last sent for a hall board; it is kept with the board's ``seq`` values
(``devices.livechess.store``), so a restarted bridge goes on without sending anything twice.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace

from devices.livechess.api import BoardEvent, EBoard, LiveClock

Out = tuple[str, object, "Reading"]  # (topic's last level, payload: a dict without seq or the status
# text, what has been sent once this message is: kept with its seq, so a restart resumes exactly)


@dataclass(frozen=True)
class Reading:
    """What the bridge last sent for one hall board: ``placement``; ``clock`` ``{"white_ms",
    "black_ms", "running"}`` or None; ``started`` (a ``start`` was sent: the next run after a stop
    is a ``resume``); ``online`` (the last status sent, None before any); ``battery`` (LiveChess's
    text, for the operator's log)."""

    placement: str | None = None
    clock: dict | None = None
    started: bool = False
    online: bool | None = None
    battery: str | None = None

    def to_json(self) -> dict:
        """For the state file."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict | None) -> "Reading":
        """From the state file (unknown keys ignored)."""
        data = data or {}
        return cls(**{k: data[k] for k in ("placement", "clock", "started", "online", "battery") if k in data})


def clock_event(before: dict | None, now: LiveClock, started: bool) -> str | None:
    """Our clock event for a new reading ``now`` after ``before`` (None: no reading sent yet), or
    None when there is nothing to send:

    - stopped -> running: ``start`` the first time (FIDE Laws 6.5: the clock started), else ``resume``;
    - running -> the other side running: ``press`` (the side whose time ran completed its move, 6.2.1);
    - running -> stopped: ``pause`` (the arbiter, or the clock itself at a flag fall: the gateway
      reads a side at 0 as the flag, 6.8);
    - stopped -> stopped with other times: ``set`` (times set on the device);
    - the same side running: nothing (the clock ticks; our protocol sends changes, not ticks).
    A first reading of a stopped clock is only remembered."""
    if before is None:
        return ("resume" if started else "start") if now.running is not None else None
    was = before.get("running")
    if now.running is None:
        if was is not None:
            return "pause"
        same = (before.get("white_ms"), before.get("black_ms")) == (now.white_ms, now.black_ms)
        return None if same else "set"
    if was is None:
        return "resume" if started else "start"
    return "press" if was != now.running else None


def _clock(last: Reading, now: LiveClock | None) -> tuple[Reading, list[Out]]:
    if now is None:
        return last, []
    figures = {"white_ms": now.white_ms, "black_ms": now.black_ms, "running": now.running}
    event = clock_event(last.clock, now, last.started)
    after = replace(last, clock=figures, started=last.started or event == "start")
    return after, [("clock", {"event": event, **figures}, after)] if event else []


def _placement(last: Reading, placement: str | None) -> tuple[Reading, list[Out]]:
    if placement is None or placement == last.placement:
        return last, []
    after = replace(last, placement=placement)
    return after, [("position", {"placement": placement}, after)]


def status(last: Reading, online: bool, battery: str | None = None) -> tuple[Reading, list[Out]]:
    """A status message when the board's availability changed (or none was sent yet), or, while
    online, its battery (LiveChess's text: "87%", "3.9V"): ``{"status": "online", "battery": ...}``
    (docs/protocol.md "Status"); plain ``online``/``offline`` otherwise."""
    battery = battery if online else last.battery
    if last.online == online and (not online or battery is None or battery == last.battery):
        return last, []
    after = replace(last, online=online, battery=battery)
    text = "offline" if not online else ("online" if battery is None else
                                         json.dumps({"status": "online", "battery": battery}))
    return after, [("status", text, after)]


def from_snapshot(last: Reading, eb: EBoard) -> tuple[Reading, list[Out]]:
    """An ``eboards`` entry: the status, then (when LiveChess reads the board) its placement and
    clock if they changed."""
    reading, out = status(last, eb.online, eb.battery)
    if not eb.online:
        return reading, out
    reading, more = _placement(reading, eb.board)
    out += more
    reading, more = _clock(reading, eb.clock)
    return reading, out + more


def from_event(last: Reading, ev: BoardEvent) -> tuple[Reading, list[Out]]:
    """A feed event: the placement, then the clock, when they changed. An event means LiveChess
    reads the board: a board marked offline is online again first."""
    reading, out = status(last, True)
    reading, more = _placement(reading, ev.board)
    out += more
    if ev.has_clock:
        reading, more = _clock(reading, ev.clock)
        out += more
    return reading, out
