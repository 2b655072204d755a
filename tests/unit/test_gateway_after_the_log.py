"""A board's message the log's newest entries may place waits for them (gateway/hall.py ``handle``
with ``final=False``, gateway/service.py ``_after_the_log``).

A round started by another process (the console, ``venue round start``) is in the log before its
boards can know of it; the gateway folds it a moment later (it follows the log every 0.05 s). A
board's first messages in that moment were judged in the round before: round 1's board as an
unknown board (every message refused), round 2's as the ended game's duplicates (a device starting
its ``seq`` at 1 again: docs/protocol.md "Fields", ``seq``: "when a new round is started on the
board it may start again at 1, or go on from its last ``seq``"). Now such a message is left
undecided, and decided once the log is folded: in the new round.

The moves: 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# (the scholar's mate: FIDE Laws 5.1.1, checkmate ends
the game), then round 2's 1.d4.
"""

from __future__ import annotations

import json

from hall_driver import T, Driver, round_started

MATE = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]


def _round_2() -> dict:
    data = round_started("1")
    data["round"] = "2"
    data["games"][0].update(id="2-1", round="2")
    return data


def _raw(seq: int, uci: str) -> bytes:
    return json.dumps({"seq": seq, "move": uci}).encode()


def test_a_message_on_a_board_no_round_has_waits_for_the_log() -> None:
    d = Driver("1")
    topic = f"venue/{T}/boards/7/move"
    step = d.hall.handle(topic, _raw(1, "e2e4"), 10, final=False)
    assert step.recheck and step.entries == [] and step.feedback == []
    final = d.hall.handle(topic, _raw(1, "e2e4"), 20)  # the log folded: still no board 7
    assert [t for t, _ in final.entries] == ["message_rejected"]
    assert final.entries[0][1]["reason"] == "unknown board: 7"


def test_a_message_on_a_board_whose_game_is_over_waits_then_opens_the_next_round() -> None:
    d = Driver("1")
    for uci in MATE:
        d.move("1", uci)
    assert d.of("game_ended")[0]["termination"] == "checkmate"
    topic = f"venue/{T}/boards/1/move"
    # round 2's device starts again at 1: under round 1's state that is seq 1 again
    early = d.hall.handle(topic, _raw(1, "d2d4"), 1_000, final=False)
    assert early.recheck and early.entries == [] and early.feedback == []
    d.external("round_started", _round_2())  # the follower folds the round another process wrote
    later = d.hall.handle(topic, _raw(1, "d2d4"), 1_050, final=False)
    assert not later.recheck
    played = [data for t, data in later.entries if t == "move_played"]
    assert [(p["game"], p["move"]) for p in played] == [("2-1", "d2d4")]


def test_with_final_the_old_answer_stands() -> None:
    """A caller that cannot wait (a unit's replay, the gateway stopping) gets today's answer: the
    ended game's duplicate."""
    d = Driver("1")
    for uci in MATE:
        d.move("1", uci)
    step = d.hall.handle(f"venue/{T}/boards/1/move", _raw(1, "d2d4"), 1_000)
    assert not step.recheck
    assert [t for t, _ in step.entries] == ["message_duplicate"]


def test_an_open_game_decides_at_once() -> None:
    d = Driver("1")
    step = d.hall.handle(f"venue/{T}/boards/1/move", _raw(1, "e2e4"), 10, final=False)
    assert not step.recheck
    assert [data["move"] for t, data in step.entries if t == "move_played"] == ["e2e4"]
