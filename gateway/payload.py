"""Checking one device message: its topic and payload (docs/protocol.md, DESIGN.md "Device protocol").

Pure. ``parse`` turns ``(topic, payload bytes)`` into a ``Message`` or raises ``BadMessage`` naming
what is wrong; the gateway answers a ``BadMessage`` on the board's ``feedback`` topic and records it
as ``message_rejected`` (docs/events.md). Nothing here knows which boards exist or what is legal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import NoReturn

from services.protocol.placement import normalize
from services.events import Device

KINDS = ("move", "position", "clock", "result", "status")
CLOCK_EVENTS = ("start", "press", "pause", "resume", "set", "period_added")
UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")  # a chess move as boards send it
MAX_PERIOD = 99  # a control has a handful of periods; a larger number is a broken device
MAX_GAME = 99  # a board plays a few games a round (a match's two, an Armageddon game, play-off stages)
RESULTS = ("1-0", "0-1", "1/2-1/2")
DEVICES = ("board", "clock")
MAX_PAYLOAD = 16 * 1024
RAW_CUT = 2048
TOPIC_CUT = 200  # a topic as recorded in ``message_rejected`` (MQTT allows 64 KB)
MAX_DEPTH = 32  # JSON nesting: a real message has 1 level; 1,000 levels once raised RecursionError
MAX_SEQ = 2**53 - 1  # JavaScript's largest exact integer: ``seq`` comes back as ``ref``
# Board labels, as in dashboard/boardspec.py: 1 to 32 letters, digits, "." and "_".
BOARD_LABEL = re.compile(r"[A-Za-z0-9._]{1,32}")
# RFC 3339 section 5.6 date-time ("T" or, as its note allows, a space; leap second 60 allowed).
RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})")


class BadMessage(ValueError):
    """A message that cannot be read. ``reason``: the sentence sent back in ``feedback``;
    ``board``, ``kind``, ``device``, ``seq``: what could be read (None when unknown)."""

    def __init__(self, reason: str, *, board=None, kind=None, device=None, seq=None):
        super().__init__(reason)
        self.reason = reason
        self.board = board
        self.kind = kind
        self.device = device
        self.seq = seq


@dataclass
class Message:
    """A checked device message.

    ``board``: hall board number (str); ``kind``: the topic's last level (one of ``KINDS``);
    ``device``: ``"board"`` (move, position, status), ``"clock"`` (clock) or the result's ``device``
    field; ``seq``: the device's message number (None for ``status``); ``body``: the JSON object
    (for ``status``: ``{"status": "online" | "offline"}``); ``raw``: the payload as text (cut to 2 KB);
    ``read_at`` (ms): when the gateway read it, where that is before it is applied (held for a
    missing seq), else None; ``late``: it was sent before messages the gateway read earlier (it
    fills a missing seq: resent after a loss), so it may have waited since the device's previous one.
    """

    board: str
    kind: str
    device: Device
    seq: int | None
    body: dict = field(default_factory=dict)
    raw: str = ""
    read_at: int | None = None
    late: bool = False

    @property
    def sent_at(self) -> str | None:
        """The device's own time (RFC 3339) when it sent one."""
        value = self.body.get("sent_at")
        return value if isinstance(value, str) else None


def topic_filters(tournament: str, boards=None) -> list[str]:
    """The topic filters the gateway subscribes to for ``tournament``: every board's, or those of
    ``boards`` (a shard's ``BoardSet``; a board's five kinds, not ``+``, which takes the feedback)."""
    if boards is None:
        return [f"venue/{tournament}/boards/+/{kind}" for kind in KINDS]
    return [f"venue/{tournament}/boards/{board}/{kind}" for board in boards for kind in KINDS]


def feedback_topic(tournament: str, board: str) -> str:
    """``venue/{t}/boards/{b}/feedback``: where the gateway answers a board's devices."""
    return f"venue/{tournament}/boards/{board}/feedback"


# A device topic already read -> its ``(board, kind)``: a hall has a few thousand topics, and every
# message would split and check its topic again. Only good topics are kept; bounded as a guard.
_TOPICS: dict[tuple[str, str], tuple[str, str]] = {}
_TOPICS_KEPT = 50_000


def split_topic(tournament: str, topic: str) -> tuple[str, str]:
    """``(board, kind)`` of a device topic. Raises BadMessage for any other topic."""
    hit = _TOPICS.get((tournament, topic))
    if hit is not None:
        return hit
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != "venue" or parts[1] != tournament or parts[2] != "boards":
        raise BadMessage(f"unknown topic: {cut_topic(topic)}")
    board, kind = parts[3], parts[4]
    if not board:
        raise BadMessage(f"unknown topic: {cut_topic(topic)}")
    if not BOARD_LABEL.fullmatch(board):
        # no feedback topic to answer on: the label itself is what is wrong (board=None)
        raise BadMessage(f"bad board label: {board[:40]!r}{'...' if len(board) > 40 else ''} "
                         f"(1-32 letters, digits, '.', '_')")
    if kind not in KINDS:
        raise BadMessage(f"unknown topic: {cut_topic(topic)}", board=board)
    if len(_TOPICS) >= _TOPICS_KEPT:
        _TOPICS.clear()
    _TOPICS[(tournament, topic)] = hit = (board, kind)
    return hit


def cut_topic(topic: str) -> str:
    """The topic as recorded and reported: cut to ``TOPIC_CUT`` characters."""
    return topic if len(topic) <= TOPIC_CUT else topic[:TOPIC_CUT] + "..."


def nesting_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """How deep ``[`` / ``{`` nest in ``text`` (JSON strings skipped), counting no further than one
    past ``limit``. Cheap for real messages: only text with more than ``limit`` brackets is scanned."""
    if text.count("[") + text.count("{") <= limit:
        return 0 if "[" not in text and "{" not in text else 1
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def is_rfc3339(value: object) -> bool:
    """Whether ``value`` is an RFC 3339 date-time string (section 5.6), e.g. ``2024-04-04T14:00:00Z``."""
    if not isinstance(value, str) or len(value) > 40:
        return False
    m = RFC3339.fullmatch(value)
    if m is None:
        return False
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    offset = m.group(8)
    if offset not in ("Z", "z") and (int(offset[1:3]) > 23 or int(offset[4:6]) > 59):
        return False
    try:  # a leap second (60) is valid RFC 3339; datetime knows none, so check it as :59
        datetime(year, month, day, hour, minute, min(second, 59))
    except ValueError:
        return False
    return second <= 60


def raw_text(payload: bytes | str) -> str:
    """The payload as text for the record, cut to 2 KB; undecodable bytes are replaced."""
    if isinstance(payload, (bytes, bytearray)):
        payload = bytes(payload[: RAW_CUT * 4]).decode("utf-8", errors="replace")
    return payload[:RAW_CUT]


def parse(tournament: str, topic: str, payload: bytes | str) -> Message:
    """Check one message; returns a ``Message`` or raises ``BadMessage`` (reasons in docs/protocol.md)."""
    board, kind = split_topic(tournament, topic)
    raw = raw_text(payload)
    default_device: Device = "clock" if kind == "clock" else "board"
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"payload too large: over {MAX_PAYLOAD} bytes", board=board, kind=kind,
                         device=default_device)
    if kind == "status":
        return _status(board, payload, raw)
    try:
        text = payload.decode("utf-8") if isinstance(payload, (bytes, bytearray)) else payload
        if nesting_depth(text) > MAX_DEPTH:
            raise BadMessage(f"not JSON: nested deeper than {MAX_DEPTH} levels", board=board,
                             kind=kind, device=default_device)
        body = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        if isinstance(exc, BadMessage):
            raise
        reason = f"not JSON: {exc}"[:200]
        raise BadMessage(reason, board=board, kind=kind, device=default_device) from None
    if not isinstance(body, dict):
        raise BadMessage("not a JSON object", board=board, kind=kind, device=default_device)
    _check_text(text, body, board, kind, default_device)
    device = default_device
    if kind == "result":
        device = body.get("device", "board")
        if device not in DEVICES:
            raise BadMessage(f"bad field device: {device!r} (expected 'board' or 'clock')",
                             board=board, kind=kind, device=None)
    seq = body.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= MAX_SEQ:
        raise BadMessage(f"bad field seq: an integer from 1 to {MAX_SEQ} (2^53-1) is required",
                         board=board, kind=kind, device=device)
    msg = Message(board, kind, device, seq, body, raw)
    _CHECKS[kind](msg)
    if "sent_at" in body and not is_rfc3339(body["sent_at"]):
        _bad(msg, "bad field sent_at: an RFC 3339 date-time is required (e.g. 2024-04-04T14:00:00Z)")
    game = body.get("game")
    if game is not None and (isinstance(game, bool) or not isinstance(game, int) or not 1 <= game <= MAX_GAME):
        _bad(msg, f"bad field game: the game's number on the board this round, an integer from 1 to {MAX_GAME}")
    return msg


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
NOT_TEXT = "not UTF-8 text: a \\u escape names half of a surrogate pair (e.g. \\ud800)"


def _check_text(text: str, body: object, board: str, kind: str, device: Device) -> None:
    """Raise BadMessage when any string of the decoded payload ``body`` (any field, any key, at any
    depth, of any topic) is not valid Unicode text. Issue 28: a status's ``battery`` of ``"\\ud800"``
    passed validation and failed at the store; every topic goes through this one check."""
    if _SURROGATE.search(text) and not _is_text(body):
        raise BadMessage(NOT_TEXT, board=board, kind=kind, device=device)


def _is_text(body: object) -> bool:
    """Whether every string in ``body`` is valid Unicode text (JSON's ``\\ud800`` escapes decode to
    lone surrogates, which UTF-8 cannot encode: such text must never reach the log or a page)."""
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _bad(msg: Message, reason: str) -> NoReturn:
    raise BadMessage(reason, board=msg.board, kind=msg.kind, device=msg.device, seq=msg.seq)


def _status(board: str, payload: bytes | str, raw: str) -> Message:
    """``online``/``offline`` as plain text or a JSON string, or a JSON object ``{"status":
    "online"|"offline", "battery": TEXT}`` (a board that knows its battery, e.g. a DGT e-board
    through LiveChess: "87%", "3.9V"; at most 16 characters)."""
    text, battery = raw.strip(), None
    if text.startswith(('"', "{")):
        try:
            decoded = json.loads(text)
        except ValueError:
            pass
        else:
            _check_text(text, decoded, board, "status", "board")
            text = decoded
    if isinstance(text, dict):
        battery = text.get("battery")
        if battery is not None and (isinstance(battery, bool) or not isinstance(battery, (str, int, float))
                                    or len(str(battery)) > 16):
            raise BadMessage("bad status: battery must be a short text such as \"87%\"", board=board,
                             kind="status", device="board")
        battery = None if battery is None else str(battery)
        text = text.get("status")
    if text not in ("online", "offline"):
        raise BadMessage("bad status: expected online or offline", board=board, kind="status",
                         device="board")
    body = {"status": text} if battery is None else {"status": text, "battery": battery}
    return Message(board, "status", "board", None, body, raw)


def _check_move(msg: Message) -> None:
    move = msg.body.get("move")
    if not isinstance(move, str) or not move.strip():
        _bad(msg, "bad field move: a non-empty string is required")
    if len(move) > 64:
        _bad(msg, f"bad field move: {len(move)} characters; a move is at most 64 (UCI, or checkers notation)")


def _check_position(msg: Message) -> None:
    placement = msg.body.get("placement")
    if not isinstance(placement, str):
        _bad(msg, "bad field placement: a FEN piece placement is required")
    try:
        msg.body["placement"] = normalize(placement)
    except ValueError:
        _bad(msg, f"bad field placement: not a FEN piece placement: {placement[:100]!r}")


def _check_clock(msg: Message) -> None:
    body = msg.body
    if body.get("event") not in CLOCK_EVENTS:
        _bad(msg, f"bad field event: expected one of {', '.join(CLOCK_EVENTS)}")
    for side in ("white_ms", "black_ms"):
        value = body.get(side)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEQ:
            _bad(msg, f"bad field {side}: an integer >= 0 (milliseconds) is required")
    if body.get("running") not in ("white", "black", None):
        _bad(msg, "bad field running: expected 'white', 'black' or null")
    if body["event"] == "period_added":
        if body.get("side") not in ("white", "black"):
            _bad(msg, "bad field side: expected 'white' or 'black' (the side whose period ran out)")
        period = body.get("period")
        if isinstance(period, bool) or not isinstance(period, int) or not 2 <= period <= MAX_PERIOD:
            _bad(msg, f"bad field period: an integer from 2 to {MAX_PERIOD} is required (the period now running)")


def _check_result(msg: Message) -> None:
    if msg.body.get("result") not in RESULTS:
        _bad(msg, f"bad field result: expected one of {', '.join(RESULTS)}")
    reason = msg.body.get("reason")
    if reason is not None and (not isinstance(reason, str) or len(reason) > 200):
        _bad(msg, "bad field reason: a short string is required")


_CHECKS = {
    "move": _check_move,
    "position": _check_position,
    "clock": _check_clock,
    "result": _check_result,
}


def ids(msg: Message) -> dict:
    """The device fields of an entry made from ``msg``."""
    out = {"board": msg.board, "device": msg.device, "seq": msg.seq}
    if msg.sent_at:
        out["sent_at"] = msg.sent_at
    return out
