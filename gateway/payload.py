"""Checking one device message: its topic and payload (docs/protocol.md, DESIGN.md "Device protocol").

Pure. ``parse`` turns ``(topic, payload bytes)`` into a ``Message`` or raises ``BadMessage`` naming
what is wrong; the gateway answers a ``BadMessage`` on the board's ``feedback`` topic and records it
as ``message_rejected`` (docs/events.md). Nothing here knows which boards exist or what is legal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from gateway.placement import normalize

KINDS = ("move", "position", "clock", "result", "status")
CLOCK_EVENTS = ("start", "press", "pause", "resume", "set")
RESULTS = ("1-0", "0-1", "1/2-1/2")
DEVICES = ("board", "clock")
MAX_PAYLOAD = 16 * 1024
RAW_CUT = 2048


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
    (for ``status``: ``{"status": "online" | "offline"}``); ``raw``: the payload as text (cut to 2 KB).
    """

    board: str
    kind: str
    device: str
    seq: int | None
    body: dict = field(default_factory=dict)
    raw: str = ""

    @property
    def sent_at(self) -> str | None:
        """The device's own time (RFC 3339) when it sent one."""
        value = self.body.get("sent_at")
        return value if isinstance(value, str) else None


def topic_filters(tournament: str) -> list[str]:
    """The topic filters the gateway subscribes to for ``tournament``."""
    return [f"venue/{tournament}/boards/+/{kind}" for kind in KINDS]


def feedback_topic(tournament: str, board: str) -> str:
    """``venue/{t}/boards/{b}/feedback``: where the gateway answers a board's devices."""
    return f"venue/{tournament}/boards/{board}/feedback"


def split_topic(tournament: str, topic: str) -> tuple[str, str]:
    """``(board, kind)`` of a device topic. Raises BadMessage for any other topic."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != "venue" or parts[1] != tournament or parts[2] != "boards":
        raise BadMessage(f"unknown topic: {topic}")
    board, kind = parts[3], parts[4]
    if not board or kind not in KINDS:
        raise BadMessage(f"unknown topic: {topic}", board=board or None)
    return board, kind


def raw_text(payload: bytes | str) -> str:
    """The payload as text for the record, cut to 2 KB; undecodable bytes are replaced."""
    if isinstance(payload, (bytes, bytearray)):
        payload = bytes(payload[: RAW_CUT * 4]).decode("utf-8", errors="replace")
    return payload[:RAW_CUT]


def parse(tournament: str, topic: str, payload: bytes | str) -> Message:
    """Check one message; returns a ``Message`` or raises ``BadMessage`` (reasons in docs/protocol.md)."""
    board, kind = split_topic(tournament, topic)
    raw = raw_text(payload)
    default_device = "clock" if kind == "clock" else "board"
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"payload too large: over {MAX_PAYLOAD} bytes", board=board, kind=kind,
                         device=default_device)
    if kind == "status":
        return _status(board, payload, raw)
    try:
        text = payload.decode("utf-8") if isinstance(payload, (bytes, bytearray)) else payload
        body = json.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadMessage(f"not JSON: {exc}", board=board, kind=kind, device=default_device) from None
    if not isinstance(body, dict):
        raise BadMessage("not a JSON object", board=board, kind=kind, device=default_device)
    device = default_device
    if kind == "result":
        device = body.get("device", "board")
        if device not in DEVICES:
            raise BadMessage(f"bad field device: {device!r} (expected 'board' or 'clock')",
                             board=board, kind=kind, device=None)
    seq = body.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise BadMessage("bad field seq: an integer >= 1 is required", board=board, kind=kind,
                         device=device)
    msg = Message(board, kind, device, seq, body, raw)
    _CHECKS[kind](msg)
    if "sent_at" in body and not isinstance(body["sent_at"], str):
        _bad(msg, "bad field sent_at: an RFC 3339 string is required")
    return msg


def _bad(msg: Message, reason: str) -> None:
    raise BadMessage(reason, board=msg.board, kind=msg.kind, device=msg.device, seq=msg.seq)


def _status(board: str, payload: bytes | str, raw: str) -> Message:
    text = raw.strip()
    if text.startswith('"'):
        try:
            text = json.loads(text)
        except ValueError:
            pass
    if text not in ("online", "offline"):
        raise BadMessage("bad status: expected online or offline", board=board, kind="status",
                         device="board")
    return Message(board, "status", "board", None, {"status": text}, raw)


def _check_move(msg: Message) -> None:
    move = msg.body.get("move")
    if not isinstance(move, str) or not move.strip() or len(move) > 64:
        _bad(msg, "bad field move: a non-empty string is required")


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
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            _bad(msg, f"bad field {side}: an integer >= 0 (milliseconds) is required")
    if body.get("running") not in ("white", "black", None):
        _bad(msg, "bad field running: expected 'white', 'black' or null")


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
