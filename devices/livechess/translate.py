"""One e-board's LiveChess readings in, our device protocol's messages out (pure).

What the bridge publishes for a hall board (docs/protocol.md, docs/boards.md):

- ``position`` ``{"placement"}``: every placement LiveChess reports that differs from the last one
  sent (a repeated event sends nothing). Passing states (a piece in the hand, a piece lifted and put
  back) go out as they come: the gateway waits them out. Never a ``move``: the gateway infers moves,
  the orientation (F06) and the result signal (F07) from placements.
- the positions of moves the bridge did not hear (its link to LiveChess cut while the players went
  on): LiveChess's own reading of the game (``start``, ``san``, ``match``) gives them, each checked
  with python-chess, and they go out as placements before the event's own (``devices.livechess.recover``).
- placements in one orientation for the whole game: the one of the game's first placement (the
  gateway reads a board set up turned round from it, F06). LiveChess's ``flipped`` (its setting for a
  board standing the other way round) is read: when it changes during a game and LiveChess's
  placements turn round with it, they are turned back (``_frame``); the positions recovered from
  LiveChess's reading (game terms) are sent turned as the board's are.
- ``clock`` ``{"event", "white_ms", "black_ms", "running"}`` when the clock's running side changes
  or a stopped clock's times are set (``clock_event``). LiveChess reports whole seconds.
- ``game`` on every ``position`` and ``clock`` (docs/protocol.md "Fields"): the game's number on the
  board this round. The board's goes up when its pieces are set to the start position again after a
  game (``new_game``); the clock's follows it at the clock's next setting or start, which is then a
  ``start``: the gateway then never has to tell an Armageddon game or a match's second game from the
  game before by evidence.
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
from devices.livechess.recover import Covered, recover, squares_apart
from services.protocol import placement as pl
from services.protocol.placement import START_PLACEMENT, is_rotated_start

Out = tuple[str, object, "Reading"]  # (topic's last level, payload: a dict without seq or the status
# text, what has been sent once this message is: kept with its seq, so a restart resumes exactly)


@dataclass(frozen=True)
class Reading:
    """What the bridge last sent for one hall board: ``placement``; ``clock`` ``{"white_ms",
    "black_ms", "running"}`` or None; ``started`` (a ``start`` was sent: the next run after a stop
    is a ``resume``); ``online`` (the last status sent, None before any); ``battery`` (LiveChess's
    text, for the operator's log); ``flipped`` (LiveChess's setting, last seen); ``turned``
    (LiveChess's placements are turned 180 degrees against the ones sent: a flip in LiveChess during
    the game); ``sent_turned`` (the placements sent are the game's turned 180 degrees: a board set up
    the other way round, F06), None while unknown; ``covered`` (LiveChess's reading of the game as
    far as its positions went out: ``devices.livechess.recover``), None before any; ``game``/``clock_game``: the board's and the
    clock's game number (``new_game``); ``left_start``: the pieces have left the start position since
    the board's game began."""

    placement: str | None = None
    clock: dict | None = None
    started: bool = False
    online: bool | None = None
    battery: str | None = None
    flipped: bool | None = None
    turned: bool = False
    sent_turned: bool | None = None
    covered: Covered | None = None
    game: int = 1
    clock_game: int = 1
    left_start: bool = False

    def to_json(self) -> dict:
        """For the state file."""
        data = asdict(self)
        data["covered"] = None if self.covered is None else {"start": self.covered.start, "san": list(self.covered.san),
                                                             "fen": self.covered.fen}
        return data

    @classmethod
    def from_json(cls, data: dict | None) -> "Reading":
        """From the state file (unknown keys ignored)."""
        data = dict(data or {})
        cov = data.get("covered")
        data["covered"] = Covered(cov["start"], tuple(cov["san"]), cov.get("fen")) if isinstance(cov, dict) else None
        keys = ("placement", "clock", "started", "online", "battery", "flipped", "turned", "sent_turned", "covered",
                "game", "clock_game", "left_start")
        return cls(**{k: data[k] for k in keys if k in data})


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
    moved_on = last.clock_game < last.game  # the board began a game the clock has not yet
    event = clock_event(last.clock, now, last.started and not moved_on)
    if moved_on and event in ("set", "start"):  # the clock set or started for the board's new game
        after = replace(last, clock=figures, started=event == "start", clock_game=last.game)
    else:
        after = replace(last, clock=figures, started=last.started or event == "start")
    return after, [("clock", {"event": event, **figures, "game": after.clock_game}, after)] if event else []


START = START_PLACEMENT
LEFT_START = 4  # squares off the start: a move of each side (passing states change one or two)


def new_game(last: Reading, placement: str) -> Reading:
    """``last`` after the board read ``placement``: the board's game number goes up when its pieces
    stand on the start position (either way round: a board turned 180 degrees, F06) after they left
    it in the game before (``LEFT_START`` squares or more)."""
    start = placement == START or is_rotated_start(placement)
    if start and last.left_start:
        return replace(last, game=last.game + 1, left_start=False)
    if not start and not last.left_start and _off_start(placement) >= LEFT_START:
        return replace(last, left_start=True)
    return last


def _off_start(placement: str) -> int:
    """How many squares of ``placement`` differ from the start position's."""
    def squares(p: str) -> str:
        return "".join("." * int(c) if c.isdigit() else c for c in p.replace("/", ""))
    return sum(a != b for a, b in zip(squares(placement), squares(START)))


def _placement(last: Reading, placement: str | None) -> tuple[Reading, list[Out]]:
    if placement is None or placement == last.placement:
        return last, []
    after = replace(new_game(last, placement), placement=placement)
    return after, [("position", {"placement": placement, "game": after.game}, after)]


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


def _turn(placement: str | None, turned: bool | None) -> str | None:
    return pl.rotate_placement(placement) if placement is not None and turned else placement


def _frame(last: Reading, flipped: bool, board: str | None) -> Reading:
    """LiveChess's orientation against the placements sent, for a reading with ``flipped`` and
    ``board``:

    - a start position (the standard start, or turned round: F06) begins a game: what LiveChess
      reports goes out as it is, and the game is turned round or not as it shows;
    - ``flipped`` changed during a game: LiveChess may report the board turned round from now on (the
      operator told it the board stands the other way round). Of ``board`` as it is and turned, the
      one nearer the last placement sent is the board (a move changes a few squares, turning the
      board round nearly all): the placements keep the game's orientation."""
    if board is not None and board in (pl.START_PLACEMENT, pl.ROTATED_START):
        return replace(last, flipped=flipped, turned=False, sent_turned=board == pl.ROTATED_START)
    turned = last.turned
    if last.flipped is not None and flipped != last.flipped and board is not None and last.placement is not None:
        keep, other = _turn(board, turned), _turn(board, not turned)
        if squares_apart(other, last.placement) < squares_apart(keep, last.placement):  # type: ignore[arg-type]
            turned = not turned
    return replace(last, flipped=flipped, turned=turned)


def _recovered(last: Reading, ev: BoardEvent, fresh: bool) -> tuple[Reading, list[Out]]:
    """The positions of the moves LiveChess read that the gateway has not been given
    (``devices.livechess.recover``), as ``position`` messages in the orientation the board's own
    placements go out in."""
    if ev.san is None:
        return last, []
    rec = recover(last.covered, fresh, ev.start, ev.san, ev.board, ev.match)
    sent_turned = last.sent_turned
    if rec.turned is not None:  # the board shows LiveChess's position: how it is turned is known
        sent_turned = rec.turned != last.turned
    elif sent_turned is None:  # no evidence yet: LiveChess's flip setting says how the board stands
        sent_turned = ev.flipped != last.turned
    reading, out = replace(last, sent_turned=sent_turned), list[Out]()
    for position, covered in rec.steps:
        placement = _turn(position, sent_turned)
        reading = replace(reading, covered=covered)
        if placement is not None and placement != reading.placement:
            reading = replace(new_game(reading, placement), placement=placement)
            out.append(("position", {"placement": placement, "game": reading.game}, reading))
    return replace(reading, covered=rec.covered), out


def from_snapshot(last: Reading, eb: EBoard) -> tuple[Reading, list[Out]]:
    """An ``eboards`` entry: the status, then (when LiveChess reads the board) its placement and
    clock if they changed."""
    reading, out = status(last, eb.online, eb.battery)
    if not eb.online:
        return reading, out
    reading = _frame(reading, eb.flipped, eb.board)
    reading, more = _placement(reading, _turn(eb.board, reading.turned))
    out += more
    reading, more = _clock(reading, eb.clock)
    return reading, out + more


def from_event(last: Reading, ev: BoardEvent, fresh: bool = False) -> tuple[Reading, list[Out]]:
    """A feed event: the positions of moves not yet sent that LiveChess read (``_recovered``), the
    placement, then the clock, when they changed. An event means LiveChess reads the board: a board
    marked offline is online again first. ``fresh``: the board has sent no placement this round."""
    reading, out = status(last, True)
    reading = _frame(reading, ev.flipped, ev.board)
    reading, more = _recovered(reading, ev, fresh)
    out += more
    reading, more = _placement(reading, _turn(ev.board, reading.turned))
    out += more
    if ev.has_clock:
        reading, more = _clock(reading, ev.clock)
        out += more
    return reading, out
