"""DGT LiveChess's local websocket API, as far as the bridge uses it (pure: text in, records out).

LiveChess (DGT's hall software) serves JSON over a websocket, by default ``ws://127.0.0.1:1982/api/v1.0``.
A client sends *calls* and receives *responses*:

- ``{"id": N, "call": "eboards"}``: the e-boards LiveChess knows. Answer ``{"response": "call",
  "id": N, "param": [EBOARD, ...], "time": MS}``, each EBOARD ``{"serialnr", "source", "state",
  "battery", "comment", "board", "flipped", "clock"}``: ``state`` (declared ``string | null``) one of
  ``ACTIVE`` ("alive and well"), ``INACTIVE`` ("not active because of operator action"),
  ``NOTRESPONDING``, ``DELAYED`` ("present but board information is behind the real board state":
  wireless set-ups) or null ("not yet activated"); a state we do not know makes that board "not
  usable" (offline), never the list unreadable; ``battery`` text such as ``"87%"`` (Bluetooth) or
  ``"3.9V"`` (a Caissa module), or null; ``board`` "the board part of a FEN string with the pieces
  detected on the board"; ``flipped`` "true if the board is flipped" (LiveChess's orientation
  setting: its ``flip`` call sets it); ``clock`` null or ``{"white": S, "black": S, "run":
  true|false|null, "time": MS}`` (seconds shown; ``run`` true while White's time runs, false for
  Black's, null when stopped; ``time`` when LiveChess read it).
- ``{"id": N, "call": "subscribe", "param": {"feed": "eboardevent", "id": F, "param": {"serialnr":
  S}}}``: changes of one e-board. Answer ``{"response": "call", "id": N, ...}``, then *feed*
  messages carrying the feed id F (not the call id), the first at once with the board's state:
  ``{"response": "feed", "id": F, "param": {"serialnr", "flipped", "board"?, "clock"?, "start"?,
  "san"?, "match"?}, "time": MS}``, where ``board`` and ``clock`` are left out when unchanged.
  LiveChess's own reading of the game: ``start`` "FEN string with the position from where
  reconstruction of moves is done", ``san`` "array of SAN values with the detected moves" (the whole
  list from ``start``: a message may bring more than one new move, and LiveChess may replace its last
  reading while a piece is still in the air), ``match`` "boolean indicating if the current board
  exactly matches the reconstructed move(s)". The bridge uses it to recover the moves made while it
  did not hear LiveChess (``devices.livechess.recover``).
- An error: ``{"response": "error", "id": N, "param": {"message": TEXT}}``.

The shapes and the quoted field descriptions are those of the public clients of this API, which copy
DGT's own interface declarations (herohde/livechess-go ``pkg/livechess`` ``EBoardResponse``,
``EBoardEventResponse``; luno1977/dgt ``EBoardEventResponse.java``; lichess-org/lila ``ui/dgt``
``play.ts``, which plays ``san``'s new moves, more than one at a time when a message brings them).
``LiveChessError`` is raised for anything else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

DEFAULT_URL = "ws://127.0.0.1:1982/api/v1.0"
STATES = ("ACTIVE", "INACTIVE", "NOTRESPONDING", "DELAYED")  # the states DGT documents (and null)
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
    """One e-board of the ``eboards`` answer. ``state``: LiveChess's text (one of ``STATES``, or
    another a newer LiveChess may send) or None; ``battery``: LiveChess's text or None; ``board``:
    placement or None; ``clock``: LiveClock or None; ``problem``: why this entry could not be read
    (then the board is not usable: nothing of it is sent but ``offline``)."""

    serial: str
    state: str | None
    battery: str | None
    board: str | None
    flipped: bool
    clock: LiveClock | None
    problem: str | None = None

    @property
    def online(self) -> bool:
        """LiveChess reads the board now (``ACTIVE`` or ``DELAYED``, and the entry was read): an
        unknown state is "not usable", like ``NOTRESPONDING``."""
        return self.problem is None and self.state in ONLINE_STATES


@dataclass(frozen=True)
class BoardEvent:
    """One ``eboardevent`` feed message: ``board`` None when unchanged; ``clock`` the reading when
    ``has_clock`` (None then means the clock went away), else unchanged; LiveChess's reading of the
    game: ``start`` (FEN) or None, ``san`` (its SAN moves from ``start``) or None when the message
    has none, ``match`` (the board shows the position after them) or None; ``problem``: a part of
    the message that could not be read (that part is left out, the rest kept)."""

    serial: str
    flipped: bool
    board: str | None
    clock: LiveClock | None
    has_clock: bool
    start: str | None = None
    san: tuple[str, ...] | None = None
    match: bool | None = None
    problem: str | None = None


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
    """One entry of the ``eboards`` answer. A state we do not know is kept as text (the board is
    then not ``online``). Raises LiveChessError on a wrong shape (a state that is not text or null,
    a bad placement or clock, no serial number)."""
    if not isinstance(raw, dict):
        raise LiveChessError(f"eboard: an object expected, got {raw!r}")
    state = raw.get("state")
    if state is not None and not isinstance(state, str):
        raise LiveChessError(f"state: text or null expected, got {state!r}")
    battery = raw.get("battery")
    return EBoard(_serial(raw), state, None if battery is None else str(battery), _placement(raw),
                  bool(raw.get("flipped")), parse_clock(raw.get("clock")))


def parse_eboards(param, errors: list[str] | None = None) -> list[EBoard]:
    """The ``eboards`` answer's list. An entry that cannot be read is that board's problem only: with
    a serial number it comes back as an EBoard with ``problem`` set (not usable); without one it is
    left out. Either way its error is appended to ``errors`` when given. Raises LiveChessError when
    the answer is not a list."""
    if not isinstance(param, list):
        raise LiveChessError(f"eboards: a list expected, got {type(param).__name__}")
    out = []
    for raw in param:
        try:
            out.append(parse_eboard(raw))
        except LiveChessError as exc:
            try:
                serial = _serial(raw) if isinstance(raw, dict) else None
            except LiveChessError:
                serial = None
            if errors is not None:
                errors.append(f"e-board {serial or '?'}: {exc}")
            if serial is not None:
                out.append(EBoard(serial, None, None, None, False, None, problem=str(exc)))
    return out


def _reading(param: dict) -> tuple[str | None, tuple[str, ...] | None, bool | None, str | None]:
    """``(start, san, match, problem)`` of an event: its reading of the game, or a problem (the
    reading then left out)."""
    start, san, match = param.get("start"), param.get("san"), param.get("match")
    if san is None:
        return None, None, None, None
    if not isinstance(san, list) or not all(isinstance(m, str) for m in san):
        return None, None, None, f"san: a list of SAN texts expected, got {san!r}"[:200]
    if start is not None and not isinstance(start, str):
        return None, None, None, f"start: a FEN expected, got {start!r}"[:200]
    return start, tuple(m.strip() for m in san), match if isinstance(match, bool) else None, None


def parse_event(param) -> BoardEvent:
    """One ``eboardevent`` feed message's param. Raises LiveChessError on a wrong shape (a bad
    reading of the game is the event's ``problem`` instead: the placement and clock still count)."""
    if not isinstance(param, dict):
        raise LiveChessError(f"eboardevent: an object expected, got {param!r}")
    start, san, match, problem = _reading(param)
    return BoardEvent(_serial(param), bool(param.get("flipped")), _placement(param),
                      parse_clock(param.get("clock")), "clock" in param, start, san, match, problem)
