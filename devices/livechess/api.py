"""DGT LiveChess's local websocket API, as far as the bridge uses it (pure: text in, records out).

LiveChess (DGT's hall software) serves JSON over a websocket, by default ``ws://127.0.0.1:1982/api/v1.0``.
A client sends *calls* and receives *responses*:

- ``{"id": N, "call": "eboards"}``: the e-boards LiveChess knows. Answer ``{"response": "call",
  "id": N, "param": [EBOARD, ...], "time": MS}``, each EBOARD ``{"serialnr", "source", "state",
  "battery", "comment", "board", "flipped", "clock"}``: ``state`` one of ``ACTIVE``, ``INACTIVE``
  (switched off by the operator), ``NOTRESPONDING``, ``DELAYED`` (behind the real board: wireless
  set-ups) or null (not activated); ``battery`` text such as ``"87%"`` or ``"3.9V"``, or null;
  ``board`` the piece-placement field of a FEN as the sensors read it; ``flipped`` LiveChess's
  orientation setting; ``clock`` null or ``{"white": S, "black": S, "run": true|false|null,
  "time": MS}`` (seconds shown; ``run`` true while White's time runs, false for Black's, null when
  stopped; ``time`` when LiveChess read it).
- ``{"id": N, "call": "subscribe", "param": {"feed": "eboardevent", "id": F, "param": {"serialnr":
  S}}}``: changes of one e-board. Answer ``{"response": "call", "id": N, ...}``, then *feed*
  messages carrying the feed id F (not the call id): ``{"response": "feed", "id": F, "param":
  {"serialnr", "flipped", "board"?, "clock"?, "san"?, "start"?, "match"?}, "time": MS}``, where
  ``board`` and ``clock`` are left out when unchanged. (``san`` is LiveChess's own reading of the
  moves; the bridge ignores it: the gateway reads moves from placements.)
- An error: ``{"response": "error", "id": N, "param": {"message": TEXT}}``.

The shapes are those of the public clients of this API (lichess-org/lila ``ui/dgt``,
herohde/livechess-go, luno1977/dgt). ``LiveChessError`` is raised for anything else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

DEFAULT_URL = "ws://127.0.0.1:1982/api/v1.0"
STATES = ("ACTIVE", "INACTIVE", "NOTRESPONDING", "DELAYED")
ONLINE_STATES = ("ACTIVE", "DELAYED")  # DELAYED: present, its information late (wireless set-ups)
FEED = "eboardevent"


class LiveChessError(ValueError):
    """A LiveChess message the bridge cannot read (not JSON, or not of the documented shape)."""


@dataclass(frozen=True)
class LiveClock:
    """A clock reading: ``white_ms``/``black_ms`` the times shown (LiveChess gives whole seconds:
    here in ms), ``running`` "white", "black" or None (stopped), ``read_at`` (ms, LiveChess's time
    of reading) or None."""

    white_ms: int
    black_ms: int
    running: str | None
    read_at: int | None = None

    def same_as(self, other: "LiveClock | None") -> bool:
        """The same figures and running side (the time of reading aside)."""
        return other is not None and (self.white_ms, self.black_ms, self.running) == (
            other.white_ms, other.black_ms, other.running)


@dataclass(frozen=True)
class EBoard:
    """One e-board of the ``eboards`` answer. ``state``: one of ``STATES`` or None; ``battery``:
    LiveChess's text or None; ``board``: placement or None; ``clock``: LiveClock or None."""

    serial: str
    state: str | None
    battery: str | None
    board: str | None
    flipped: bool
    clock: LiveClock | None

    @property
    def online(self) -> bool:
        """LiveChess reads the board now (``ACTIVE`` or ``DELAYED``)."""
        return self.state in ONLINE_STATES


@dataclass(frozen=True)
class BoardEvent:
    """One ``eboardevent`` feed message: ``board`` None when unchanged; ``clock`` the reading when
    ``has_clock`` (None then means the clock went away), else unchanged."""

    serial: str
    flipped: bool
    board: str | None
    clock: LiveClock | None
    has_clock: bool


@dataclass(frozen=True)
class Response:
    """One message from LiveChess: ``kind`` "call", "feed" or "error"; ``id`` the call's id (the
    feed id for "feed"); ``param`` as sent; ``time`` (ms) or None."""

    kind: str
    id: int
    param: object
    time: int | None


def eboards_call(call_id: int) -> str:
    """The ``eboards`` call, as text."""
    return json.dumps({"id": call_id, "call": "eboards"})


def subscribe_call(call_id: int, feed_id: int, serial: str) -> str:
    """The call subscribing feed ``feed_id`` to the e-board ``serial``'s events, as text."""
    return json.dumps({"id": call_id, "call": "subscribe",
                       "param": {"feed": FEED, "id": feed_id, "param": {"serialnr": serial}}})


def read_response(text: str | bytes) -> Response:
    """A message from LiveChess. Raises LiveChessError when it is not a response object."""
    try:
        msg = json.loads(text)
    except ValueError as exc:
        raise LiveChessError(f"not JSON: {exc}") from None
    if not isinstance(msg, dict) or msg.get("response") not in ("call", "feed", "error"):
        raise LiveChessError("not a LiveChess response: expected {\"response\": \"call\"|\"feed\"|\"error\", ...}")
    ident = msg.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int):
        raise LiveChessError(f"response without an integer id: {ident!r}")
    t = msg.get("time")
    return Response(msg["response"], ident, msg.get("param"), t if isinstance(t, int) else None)


def error_text(r: Response) -> str:
    """The message of an error response."""
    p = r.param if isinstance(r.param, dict) else {}
    return str(p.get("message") or r.param)


def _seconds(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise LiveChessError(f"clock.{name}: seconds >= 0 expected, got {value!r}")
    return int(round(value * 1000))


def parse_clock(raw) -> LiveClock | None:
    """A ``clock`` object (None for null). Raises LiveChessError on a wrong shape."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise LiveChessError(f"clock: an object expected, got {raw!r}")
    run = raw.get("run")
    if run not in (True, False, None):
        raise LiveChessError(f"clock.run: true, false or null expected, got {run!r}")
    t = raw.get("time")
    return LiveClock(_seconds(raw.get("white"), "white"), _seconds(raw.get("black"), "black"),
                     None if run is None else ("white" if run else "black"),
                     t if isinstance(t, int) and not isinstance(t, bool) else None)


def _serial(raw: dict) -> str:
    serial = raw.get("serialnr")
    if isinstance(serial, int) and not isinstance(serial, bool):
        serial = str(serial)
    if not isinstance(serial, str) or not serial:
        raise LiveChessError(f"serialnr: a non-empty string expected, got {serial!r}")
    return serial


def _placement(raw: dict) -> str | None:
    board = raw.get("board")
    if board is None:
        return None
    if not isinstance(board, str) or board.count("/") != 7:
        raise LiveChessError(f"board: a FEN piece placement expected, got {board!r}")
    return board.split(" ", 1)[0]


def parse_eboard(raw) -> EBoard:
    """One entry of the ``eboards`` answer. Raises LiveChessError on a wrong shape."""
    if not isinstance(raw, dict):
        raise LiveChessError(f"eboard: an object expected, got {raw!r}")
    state = raw.get("state")
    if state is not None and state not in STATES:
        raise LiveChessError(f"state: one of {', '.join(STATES)} or null expected, got {state!r}")
    battery = raw.get("battery")
    return EBoard(_serial(raw), state, None if battery is None else str(battery), _placement(raw),
                  bool(raw.get("flipped")), parse_clock(raw.get("clock")))


def parse_eboards(param) -> list[EBoard]:
    """The ``eboards`` answer's list. Raises LiveChessError when it is not a list of e-boards."""
    if not isinstance(param, list):
        raise LiveChessError(f"eboards: a list expected, got {type(param).__name__}")
    return [parse_eboard(x) for x in param]


def parse_event(param) -> BoardEvent:
    """One ``eboardevent`` feed message's param. Raises LiveChessError on a wrong shape."""
    if not isinstance(param, dict):
        raise LiveChessError(f"eboardevent: an object expected, got {param!r}")
    return BoardEvent(_serial(param), bool(param.get("flipped")), _placement(param),
                      parse_clock(param.get("clock")), "clock" in param)
