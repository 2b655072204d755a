"""gateway.payload: checking topics and payloads of the device protocol (DESIGN.md, docs/protocol.md)."""

from __future__ import annotations

import pytest

from gateway.payload import BadMessage, parse, topic_filters

T = "cand-2024"


def topic(kind: str, board: str = "3") -> str:
    return f"venue/{T}/boards/{board}/{kind}"


def test_move_ok():
    """DESIGN.md example: {"seq": 17, "move": "e2e4"}."""
    msg = parse(T, topic("move"), b'{"seq": 17, "move": "e2e4", "sent_at": "2024-04-04T14:00:00Z"}')
    assert (msg.board, msg.kind, msg.device, msg.seq) == ("3", "move", "board", 17)
    assert msg.sent_at == "2024-04-04T14:00:00Z"


def test_clock_ok():
    """DESIGN.md example clock press."""
    body = b'{"seq": 5, "event": "press", "white_ms": 5391000, "black_ms": 5400000, "running": "black"}'
    msg = parse(T, topic("clock"), body)
    assert msg.device == "clock" and msg.body["white_ms"] == 5391000


def test_result_device_field():
    msg = parse(T, topic("result"), b'{"seq": 40, "result": "1/2-1/2", "reason": "agreement", "device": "clock"}')
    assert msg.device == "clock"


def test_position_normalized():
    msg = parse(T, topic("position"), b'{"seq": 18, "placement": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"}')
    assert msg.body["placement"] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"


@pytest.mark.parametrize("payload", [b"online", b'"online"', b"offline"])
def test_status(payload):
    assert parse(T, topic("status"), payload).body["status"] in ("online", "offline")


@pytest.mark.parametrize(
    "kind, payload, reason",
    [
        ("move", b"{not json", "not JSON"),
        ("move", b"\xff\xfe", "not JSON"),
        ("move", b"[1, 2]", "not a JSON object"),
        ("move", b'{"move": "e2e4"}', "bad field seq"),
        ("move", b'{"seq": 0, "move": "e2e4"}', "bad field seq"),
        ("move", b'{"seq": true, "move": "e2e4"}', "bad field seq"),
        ("move", b'{"seq": 1}', "bad field move"),
        ("move", b'{"seq": 1, "move": 42}', "bad field move"),
        ("position", b'{"seq": 1, "placement": "xx"}', "bad field placement"),
        ("clock", b'{"seq": 1, "event": "tick", "white_ms": 1, "black_ms": 1}', "bad field event"),
        ("clock", b'{"seq": 1, "event": "press", "white_ms": -1, "black_ms": 1}', "bad field white_ms"),
        ("clock", b'{"seq": 1, "event": "press", "white_ms": 1.5, "black_ms": 1}', "bad field white_ms"),
        ("clock", b'{"seq": 1, "event": "press", "white_ms": 1, "black_ms": 1, "running": "x"}',
         "bad field running"),
        ("result", b'{"seq": 1, "result": "2-0"}', "bad field result"),
        ("result", b'{"seq": 1, "result": "1-0", "device": "phone"}', "bad field device"),
        ("status", b"maybe", "bad status"),
    ],
)
def test_bad_payloads(kind, payload, reason):
    with pytest.raises(BadMessage) as err:
        parse(T, topic(kind), payload)
    assert err.value.reason.startswith(reason)
    assert err.value.board == "3"


@pytest.mark.parametrize("bad_topic", ["venue/other/boards/3/move", "venue/cand-2024/boards/3/chat",
                                       "venue/cand-2024/3/move", "venue/cand-2024/boards//move"])
def test_unknown_topics(bad_topic):
    with pytest.raises(BadMessage, match="unknown topic"):
        parse(T, bad_topic, b'{"seq": 1, "move": "e2e4"}')


def test_topic_filters():
    assert f"venue/{T}/boards/+/move" in topic_filters(T)
    assert len(topic_filters(T)) == 5
