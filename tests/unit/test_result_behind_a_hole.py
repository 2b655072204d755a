"""A result never ends a game past a hole in its device's seqs (issue 28: "two games were ended by
their board's result message at ply 44 of 65 and 71 of 79 ... after the hole wait, because the
boards had stopped resending"; docs/protocol.md "End-to-end acknowledgement").

The game: FIDE Candidates 2024, round 5, board 1 (../shared/data/chess/fide_candidates_2024_open.pgn,
its first round-5 game), its moves and its result as the PGN gives them, sent by the board as
``move`` messages and a ``result`` (reason "agreement" for a draw, else "resignation": the PGN has no
reason; the gateway keeps what the board says). Two of its last moves are lost (seqs n-2 and n-1).
"""

from __future__ import annotations

from hall_driver import Driver

from services.arbiter_office.result_slip import result_entries

HOLD_MS = 100  # the gateway's hold for a missing seq (``Hall(hold_ms=...)``), short for the test
ASK_EVERY_MS = 1000  # docs/protocol.md: "it asks again every second while the hole stays open"


def _game(round5) -> tuple[list[str], str]:
    game = round5[0]
    return [m.uci() for m in game.mainline_moves()], game.headers["Result"]


def _lose_two_before_the_result(d: Driver, moves: list[str], result: str) -> int:
    """Moves 1..n-3 sent, n-2 and n-1 lost, n and the result sent: returns the result's seq."""
    for seq, uci in enumerate(moves[:-3], start=1):
        d.move("1", uci, seq=seq)
    n = len(moves)
    d.move("1", moves[-1], seq=n)  # seqs n-2, n-1 lost on the way (a broker killed -9)
    reason = "agreement" if result == "1/2-1/2" else "resignation"
    d.send("1", "result", {"result": result, "reason": reason}, seq=n + 1)
    return n + 1


def test_a_result_behind_a_hole_waits_for_the_missing_moves_and_the_arbiters_are_told(round5):
    moves, result = _game(round5)
    d = Driver("1", hold_ms=HOLD_MS)
    seq = _lose_two_before_the_result(d, moves, result)
    n = len(moves)
    d.tick(HOLD_MS * 3)
    d.tick(ASK_EVERY_MS + 1)
    assert d.types("game_ended", "seq_gap") == []  # never ended short, never skipped
    assert [(h["seq"], h["expected"]) for h in d.of("result_held")] == [(seq, n - 2)]  # told once
    asks = [f for _, f in d.feedback if f.get("resend_from") is not None]
    assert len(asks) >= 2 and {f["resend_from"] for f in asks} == {n - 2}  # asked again and again
    fresh = d.rebuilt()  # a restarted gateway holds it too, and tells nobody twice
    assert fresh.tick(d.now + HOLD_MS * 3).entries == []
    # the device sends again from seq n-2 (docs/protocol.md): the game ends complete
    d.move("1", moves[-3], seq=n - 2)
    d.move("1", moves[-2], seq=n - 1)
    assert d.played() == moves
    (ended,) = d.of("game_ended")
    assert (ended["result"], ended["ply"], ended["by"]) == (result, n, "device")


def test_the_arbiters_result_releases_a_held_result(round5):
    """The arbiter decides (the console's ``arbiter_decision`` and ``game_ended`` with the PGN's
    result, ``services.arbiter_office.result_slip.result_entries``): the held messages are
    applied after it as late messages (the result agrees: accepted), no ply invented."""
    moves, result = _game(round5)
    d = Driver("1", hold_ms=HOLD_MS)
    seq = _lose_two_before_the_result(d, moves, result)
    d.tick(HOLD_MS * 3)
    assert d.types("game_ended") == [] and len(d.of("result_held")) == 1
    for entry in result_entries(d.hall.state.games["1-1"], result, by="chief"):  # the console's entries
        d.external(*entry.encode())
    d.tick(HOLD_MS * 3)
    assert d.of("seq_gap") == [{"board": "1", "device": "board", "expected": len(moves) - 2, "got": len(moves)}]
    assert [e for e in d.of("game_ended") if e.get("by") != "arbiter"] == []
    answered = [f for _, f in d.feedback if f.get("ref") == seq and f.get("resend_from") is None]
    assert answered and answered[-1]["reason"] != "duplicate"
