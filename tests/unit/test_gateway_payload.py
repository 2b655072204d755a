"""gateway.payload: checking topics and payloads of the device protocol (DESIGN.md, docs/protocol.md)."""

from __future__ import annotations

import json

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


def test_an_overlong_move_says_so():
    """A new user's finding: a 6,000-character move was told "a non-empty string is required"."""
    with pytest.raises(BadMessage) as err:
        parse(T, topic("move"), b'{"seq": 1, "move": "%s"}' % (b"e" * 6000))
    assert err.value.reason == "bad field move: 6000 characters; a move is at most 64 (UCI, or checkers notation)"


@pytest.mark.parametrize("bad_topic", ["venue/other/boards/3/move", "venue/cand-2024/boards/3/chat",
                                       "venue/cand-2024/3/move", "venue/cand-2024/boards//move"])
def test_unknown_topics(bad_topic):
    with pytest.raises(BadMessage, match="unknown topic"):
        parse(T, bad_topic, b'{"seq": 1, "move": "e2e4"}')


def test_topic_filters():
    assert f"venue/{T}/boards/+/move" in topic_filters(T)
    assert len(topic_filters(T)) == 5


# ----- review of a fresh clone: bad input of any kind is answered, never raised -----------------
# docs/protocol.md: "Bad input of any kind never stops the gateway or other boards"; the reasons are
# the table's: `not JSON: ...`, `bad field seq: ...`, `bad field sent_at: ...`.


@pytest.mark.parametrize("payload", [b"[" * 1000 + b"]" * 1000, b'{"a":' * 1000 + b"1" + b"}" * 1000,
                                     "[" * 8000 + "]" * 8000])
def test_deeply_nested_payload_is_not_json(payload):
    """The review's repro: `[` * 1000 + `]` * 1000 (~2 KB) raised RecursionError out of the parser."""
    with pytest.raises(BadMessage) as err:
        parse(T, topic("move"), payload)
    assert err.value.reason.startswith("not JSON"), err.value.reason
    assert err.value.board == "3" and err.value.kind == "move"


def test_nesting_inside_an_object_is_refused_too():
    """A valid move carrying a deep value is refused before anything stores or re-encodes it."""
    deep = b"[" * 200 + b"]" * 200
    with pytest.raises(BadMessage) as err:
        parse(T, topic("move"), b'{"seq": 1, "move": "e2e4", "x": ' + deep + b"}")
    assert err.value.reason.startswith("not JSON")


def test_brackets_inside_strings_do_not_count_as_nesting():
    msg = parse(T, topic("result"), b'{"seq": 2, "result": "1-0", "reason": "' + b"[" * 150 + b'"}')
    assert msg.body["reason"] == "[" * 150


@pytest.mark.parametrize("sent_at", ["yesterday", "", "2024-04-04", "2024-04-04T14:00:00",
                                     "2024-13-04T14:00:00Z", "2024-04-04T25:00:00Z",
                                     "2024-04-04T14:00:00Z and more", "14:00:00Z"])
def test_sent_at_must_be_rfc3339(sent_at):
    """docs/protocol.md: `sent_at` (optional, any message): the device's time, RFC 3339;
    refused with `bad field sent_at` otherwise."""
    body = json.dumps({"seq": 7, "move": "e2e4", "sent_at": sent_at}).encode()
    with pytest.raises(BadMessage) as err:
        parse(T, topic("move"), body)
    assert err.value.reason.startswith("bad field sent_at"), err.value.reason
    assert err.value.seq == 7


@pytest.mark.parametrize("sent_at", ["2024-04-04T14:00:00Z", "2024-04-04t14:00:00z",
                                     "2024-04-04T14:00:00.123456+02:00", "1985-04-12T23:20:50.52Z",
                                     "1990-12-31T15:59:60-08:00", "2024-04-04 14:00:00-05:30"])
def test_rfc3339_sent_at_accepted(sent_at):
    """RFC 3339 section 5.8 examples (a leap second included; section 5.6 allows a space for T)."""
    body = json.dumps({"seq": 7, "event": "start", "white_ms": 1, "black_ms": 1, "running": "white",
                       "sent_at": sent_at}).encode()
    assert parse(T, topic("clock"), body).sent_at == sent_at


@pytest.mark.parametrize("seq", [2**53, 10**40, -(10**40)])
def test_seq_beyond_javascript_integers_refused(seq):
    """A seq is echoed as `ref`; JavaScript numbers are exact only up to 2^53-1."""
    with pytest.raises(BadMessage) as err:
        parse(T, topic("move"), json.dumps({"seq": seq, "move": "e2e4"}).encode())
    assert err.value.reason.startswith("bad field seq")


def test_largest_safe_seq_accepted():
    assert parse(T, topic("move"), json.dumps({"seq": 2**53 - 1, "move": "e2e4"}).encode()).seq == 2**53 - 1


@pytest.mark.parametrize("label", ["x" * 33, "x" * 300, "a-b", "3 ", "b\u00e9", "+", "#"])
def test_board_labels_outside_the_rule_refused_without_a_board(label):
    """Board labels are 1-32 letters, digits, `.`, `_` (dashboard/boardspec.py); any other label
    has no feedback topic to answer on, so no board is named in the refusal."""
    with pytest.raises(BadMessage) as err:
        parse(T, f"venue/{T}/boards/{label}/move", b'{"seq": 1, "move": "e2e4"}')
    assert err.value.reason.startswith("bad board label")
    assert err.value.board is None
    assert len(err.value.reason) < 120


@pytest.mark.parametrize("label", ["1", "12a", "x" * 32, "A.b_9"])
def test_board_labels_within_the_rule_accepted(label):
    assert parse(T, f"venue/{T}/boards/{label}/move", b'{"seq": 1, "move": "e2e4"}').board == label


def test_status_with_battery():
    # docs/protocol.md "Status": a board that knows its battery (a DGT e-board through LiveChess)
    msg = parse(T, topic("status"), b'{"status": "online", "battery": "87%"}')
    assert msg.body == {"status": "online", "battery": "87%"}
    for bad in (b'{"status": "online", "battery": true}', b'{"status": "online", "battery": "' + b"9" * 17 + b'"}',
                b'{"battery": "87%"}'):
        with pytest.raises(BadMessage):
            parse(T, topic("status"), bad)


# Issue 28 item 6: `status {"status":"online","battery":"\ud800"}` passed validation and failed at the
# store ("internal error"). A lone surrogate escape is refused wherever it stands, on every topic.
SURROGATE_CASES = [
    ("status", rb'{"status": "online", "battery": "\ud800"}'),  # the report's message
    ("status", rb'{"status": "online", "battery": "87%", "note": "\udfff"}'),
    ("status", rb'{"status": "online", "\ud800": 1}'),
    ("move", rb'{"seq": 1, "move": "\ud800"}'),
    ("move", rb'{"seq": 1, "move": "e2e4", "sent_at": "\udbff"}'),
    ("move", rb'{"seq": 1, "move": "e2e4", "extra": {"deep": ["\ud800"]}}'),
    ("position", rb'{"seq": 1, "placement": "\ud800"}'),
    ("position", rb'{"seq": 1, "placement": "8/8/8/8/8/8/8/8", "x": "\ud800"}'),
    ("clock", rb'{"seq": 1, "event": "\ud800", "white_ms": 1, "black_ms": 1}'),
    ("clock", rb'{"seq": 1, "event": "press", "white_ms": 1, "black_ms": 1, "running": "white", "\uDC00k": 0}'),
    ("result", rb'{"seq": 1, "result": "1-0", "reason": "\ud800"}'),
    ("result", rb'{"seq": 1, "result": "1-0", "device": "\ud800"}'),
]


@pytest.mark.parametrize("kind, payload", SURROGATE_CASES)
def test_a_lone_surrogate_is_refused_on_every_topic_in_every_field(kind, payload):
    with pytest.raises(BadMessage) as err:
        parse(T, topic(kind), payload)
    assert err.value.reason.startswith("not UTF-8 text"), err.value.reason
    assert (err.value.board, err.value.kind) == ("3", kind)


@pytest.mark.parametrize("kind, payload", [
    ("status", rb'{"status": "online", "battery": "\ud83d\ude00"}'),  # a whole pair is text (U+1F600)
    ("move", rb'{"seq": 1, "move": "e2e4", "note": "\ud83d\ude00"}'),
])
def test_a_whole_surrogate_pair_is_text(kind, payload):
    assert parse(T, topic(kind), payload).kind == kind
