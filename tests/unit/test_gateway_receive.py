"""gateway.service.Gateway._receive: one message's fault never escapes the receive path.

docs/protocol.md: "Bad input of any kind never stops the gateway or other boards"; the feedback table's
`internal error: ...` — "a fault of the gateway; recorded, the board plays on".
"""

from __future__ import annotations

import json

import pytest

from gateway.service import Gateway
from services.eventlog import open_log

T = "receive-test"


def round_started(*boards: str) -> dict:
    games = [{"id": f"1-{b}", "board": b, "round": "1", "white": "W", "black": "B", "white_elo": None,
              "black_elo": None, "variant": "chess", "time_control": "5400+30", "fen": None,
              "kind": "classical"} for b in boards]
    return {"round": "1", "event": "Test", "site": "", "date": "2024.04.04", "games": games}


@pytest.fixture
def gateway():
    gw = Gateway(open_log("memory://", T), "mqtt://127.0.0.1:1", T)
    gw.hall.fold("round_started", round_started("1", "2"))
    return gw


def move(board: str, seq: int, uci: str) -> tuple[str, bytes]:
    return f"venue/{T}/boards/{board}/move", json.dumps({"seq": seq, "move": uci}).encode()


def test_an_exception_while_handling_is_recorded_and_the_next_message_handled(gateway, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("injected")

    monkeypatch.setattr(gateway.hall, "handle", boom)
    gateway._receive(*move("1", 1, "e2e4"))  # must not raise
    rejected = [d for t, d, _ in gateway._pending if t == "message_rejected"]
    assert len(rejected) == 1 and rejected[0]["reason"].startswith("internal error: RuntimeError")
    assert rejected[0]["board"] == "1" and '"e2e4"' in rejected[0]["raw"]
    assert gateway._feedback == [("1", {"ref": None, "accepted": False,
                                        "reason": "internal error: RuntimeError",
                                        "fen": gateway.hall.state.board_game("1").fen,
                                        "round": gateway.hall.state.board_game("1").round})]  # docs/protocol.md "Feedback"
    assert gateway.counts["internal_errors"] == 1
    monkeypatch.undo()
    gateway._receive(*move("2", 1, "d2d4"))
    assert [d["move"] for t, d, _ in gateway._pending if t == "move_played"] == ["d2d4"]


def test_a_failing_regulation_loses_no_entry_and_no_answer(gateway, monkeypatch):
    """The move was applied: its entries are all stored and it is answered; the fault is counted."""
    import services.regulations.referee as referee

    monkeypatch.setattr(referee, "answers", lambda *a: 1 / 0)
    gateway._receive(*move("1", 1, "e2e4"))
    assert [t for t, _, _ in gateway._pending] == ["move_played"]
    assert [f["accepted"] for _, f in gateway._feedback] == [True]
    assert gateway.counts["internal_errors"] == 1


def test_raw_payload_of_an_internal_error_is_bounded(gateway, monkeypatch):
    monkeypatch.setattr(gateway.hall, "handle", lambda *a: 1 / 0)
    gateway._receive(f"venue/{T}/boards/{'x' * 5000}/move", b"y" * 16000)
    (type_, data, _at), = gateway._pending
    assert type_ == "message_rejected" and data["board"] is None
    assert len(data["raw"]) <= 2048 and len(data["topic"]) <= 203
    assert gateway._feedback == []


def test_deeply_nested_payload_through_receive(gateway):
    gateway._receive("venue/%s/boards/99/move" % T, b"[" * 1000 + b"]" * 1000)
    # a message that changes nothing waits up to a second to be counted with its repeats (coalesce.py)
    (type_, data, _at), = gateway._repeats.due(0, everything=True)
    assert type_ == "message_rejected" and data["reason"].startswith("not JSON")


def test_repeats_of_a_stateless_entry_are_written_once_a_second_with_their_count(gateway):
    """Issue 11 "One board can starve the hall": duplicates and garbage from one device are counted,
    not written one entry each (gateway/coalesce.py); a move is never held back."""
    for _ in range(50):
        gateway._receive(f"venue/{T}/boards/1/move", b"not json")
        gateway._receive(*move("1", 1, "e2e4"))
    assert [t for t, _, _ in gateway._pending] == ["move_played"]  # written at once
    assert gateway._repeats.due(0) == []  # held for HOLD_MS after the first
    held = {t: d for t, d, _ in gateway._repeats.due(10**15)}
    assert held["message_rejected"]["count"] == 50 and held["message_duplicate"]["count"] == 49
