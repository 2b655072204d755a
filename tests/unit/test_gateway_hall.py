"""gateway.hall: what each device message does (docs/protocol.md), and the replay from the log.

Sources: DESIGN.md (device protocol), docs/events.md (entry types), ../shared/cases/field-cases.md
(F05 illegal move held, F06 board turned 180°, F07 result signal), FIDE Laws 6.9 (flag fall).
"""

from __future__ import annotations

import chess
import pytest
from hall_driver import T, Driver, round_started

from gateway.hall import GAME_OVER, HELD, Hall

START = chess.STARTING_FEN


def test_moves_are_played_and_answered():
    d = Driver("1")
    step = d.move("1", "e2e4")
    assert d.played() == ["e2e4"]
    (t, data), = step.entries
    assert t == "move_played" and data["san"] == "e4" and data["ply"] == 1 and data["turn"] == "black"
    assert data["from"] == "move" and data["seq"] == 1 and data["device"] == "board"
    assert step.feedback == [("1", {"ref": 1, "device": "board", "accepted": True, "reason": None, "fen": data["fen"]})]


def test_f05_illegal_move_holds_the_board_until_a_legal_move():
    """F05 (a): e2e4, e7e5, e1e3 (illegal), then b8c6 held; the official position stays."""
    d = Driver("1")
    for uci in ("e2e4", "e7e5"):
        d.move("1", uci)
    step = d.move("1", "e1e3")
    official = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    (t, data), = step.entries
    assert t == "move_rejected" and data["fen"] == official and data["held"] is True
    assert step.feedback[0][1]["accepted"] is False and "e1e3" in step.feedback[0][1]["reason"]
    step = d.move("1", "b8c6")
    (t, data), = step.entries
    assert t == "move_rejected" and data["reason"] == HELD and data["fen"] == official
    assert d.played() == ["e2e4", "e7e5"]
    # the replacement move 2.Ke2 (F05: made with the touched piece) resumes play
    d.move("1", "e1e2")
    assert d.played() == ["e2e4", "e7e5", "e1e2"]
    d.move("1", "b8c6")
    assert d.played()[-1] == "b8c6"


def test_an_unreadable_text_on_a_held_board_is_refused_as_unparsable_and_the_hold_stays():
    """docs/protocol.md: "A move the gateway cannot even read (not UCI) is refused without holding"
    and its table: ``unparsable move: ...``. A new user's device sent ``zz`` to a board held after
    an illegal move and was answered "held: illegal move pending arbiter decision", as if it were a
    move. F05's hold stays for the next readable move."""
    d = Driver("1")
    for uci in ("e2e4", "e7e5"):
        d.move("1", uci)
    d.move("1", "e1e3")  # illegal: the board is held (F05)
    step = d.move("1", "zz")
    (t, data), = step.entries
    assert t == "move_rejected" and data["reason"].startswith("unparsable move") and not data.get("held")
    answer = step.feedback[0][1]
    assert answer["accepted"] is False and answer["reason"].startswith("unparsable move")
    assert d.hall.state.boards["1"].held
    step = d.move("1", "b8c6")  # a readable move while held: still held (F05)
    assert step.entries[0][1]["reason"] == HELD


def test_f05_official_placement_lifts_the_hold():
    d = Driver("1")
    d.move("1", "e2e4")
    d.move("1", "e2e4")  # illegal now: there is no pawn on e2 -> held
    assert d.hall.state.boards["1"].held
    d.place("1", chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").board_fen())
    assert not d.hall.state.boards["1"].held


def test_f05b_promotion_without_piece_is_illegal():
    """F05 (b): e7e8 with no piece swapped in is illegal (is_legal(e7e8) is False)."""
    d = Driver("1", fen="8/4P1k1/8/8/8/8/6K1/8 w - - 0 60")
    d.move("1", "e7e8")
    assert d.types("move_rejected") == ["move_rejected"]
    assert d.played() == []


def test_bad_input_never_stops_other_boards():
    d = Driver("1", "2")
    d.send("1", "move", None, raw=b"{not json")
    d.send("9", "move", {"move": "e2e4"})
    d.move("2", "e2e4")
    rejected = [data for t, data in d.entries if t == "message_rejected"]
    assert [r["reason"].split(":")[0] for r in rejected] == ["not JSON", "unknown board"]
    assert rejected[0]["raw"] == "{not json" and rejected[0]["board"] == "1"
    assert d.played("2") == ["e2e4"]
    assert [b for b, f in d.feedback if f["accepted"] is False] == ["1", "9"]


def test_duplicate_and_out_of_order_change_nothing():
    d = Driver("1")
    d.move("1", "e2e4", seq=1)
    d.move("1", "e2e4", seq=1)
    step = d.move("1", "g1f3", seq=3)
    assert d.played() == ["e2e4"]
    # the board is asked to send again from the missing seq (F11: a broker that lost its state)
    assert step.feedback[0][1]["resend_from"] == 2 and step.feedback[0][1]["device"] == "board"
    d.move("1", "e7e5", seq=2)
    assert d.played() == ["e2e4", "e7e5", "g1f3"]
    assert d.types("message_duplicate") == ["message_duplicate"]
    assert d.types("seq_gap") == []


def test_the_move_meant_under_a_refused_moves_seq_is_played_not_ignored_as_a_duplicate():
    """A stray publish took board 4's next seq with an illegal move (e1e5, refused and held: F05),
    then the board's own message with that seq (g1f3) came: it was answered "duplicate" and lost,
    and the record went wrong from there (a new user's run, 2026-12-01). A duplicate is the same
    message again (DESIGN.md device protocol: QoS 1 redelivery, a device retry); the same seq with
    another move, after a refusal that changed nothing, is the move meant."""
    d = Driver("1")
    d.move("1", "e2e4", seq=1)
    d.move("1", "e7e5", seq=2)
    step = d.move("1", "e1e5", seq=3)  # the stray, illegal: refused, the board held (F05)
    assert step.entries[0][0] == "move_rejected" and d.hall.state.boards["1"].held
    step = d.move("1", "e1e5", seq=3)  # that message again: a duplicate, as ever
    assert step.entries[0][0] == "message_duplicate"
    step = d.move("1", "g1f3", seq=3)  # the board's own message with that seq: the move meant
    assert step.entries[0][0] == "move_played" and step.feedback[-1][1]["accepted"] is True
    assert d.played() == ["e2e4", "e7e5", "g1f3"]
    step = d.move("1", "g1f3", seq=3)  # and its redelivery is a duplicate: played once
    assert [t for t, _ in step.entries] == ["message_duplicate"]
    d.move("1", "b8c6", seq=4)
    assert d.played() == ["e2e4", "e7e5", "g1f3", "b8c6"]
    fresh = Hall(T)  # the state folded from the log answers the same
    for (t, data), at in zip(d.entries, d.stamps):
        fresh.fold(t, data, at)
    assert fresh.state.snapshot() == d.hall.state.snapshot() and fresh.watches == d.hall.watches
    step = fresh.handle(f"venue/{T}/boards/1/move", b'{"seq": 3, "move": "d2d4"}', d.now + 10)
    # seq 3 was used by a move played: another move under it is refused, never played
    # (docs/protocol.md "After a restart")
    assert [t for t, _ in step.entries] == ["message_rejected"] and step.feedback[-1][1]["accepted"] is False


def test_another_move_under_a_played_moves_seq_is_refused_not_played():
    """Only a refusal leaves the seq open: a seq whose move was played is used up (DESIGN.md);
    another move under it is not that message again but a reused seq (docs/protocol.md "After a
    restart"): refused and recorded, nothing played."""
    d = Driver("1")
    d.move("1", "e2e4", seq=1)
    step = d.move("1", "d2d4", seq=1)
    assert [t for t, _ in step.entries] == ["message_rejected"] and d.played() == ["e2e4"]


def test_a_rejected_message_with_a_seq_is_answered_with_its_device():
    """docs/protocol.md: feedback carries ``device`` (whose seq ``ref`` is) whenever ``ref`` is a seq
    (a new user's run: a bad clock message was answered without it)."""
    d = Driver("1")
    step = d.send("1", "clock", {"event": "press", "white_ms": "soon", "black_ms": 1, "running": "black"}, seq=1)
    (board, answer), = step.feedback
    assert answer["ref"] == 1 and answer["device"] == "clock" and answer["accepted"] is False


def test_clearing_a_retained_status_is_no_message():
    """A zero-length retained PUBLISH is how MQTT clears a retained message (MQTT 3.1.1 3.3.1.3):
    no entry, no alert (a new user's ``mosquitto_pub -r -n`` raised "bad status")."""
    d = Driver("1")
    step = d.hall.handle(f"venue/{T}/boards/1/status", b"", 10)
    assert step.entries == [] and step.feedback == []


def test_a_retained_malformed_status_is_recorded_once_not_at_every_start():
    """A retained status comes again at every subscription (MQTT 3.1.1 3.3.1.3): a new user's
    malformed retained status opened a new alert at every gateway restart, even once resolved. The
    same malformed text again is recorded once, also by a gateway rebuilt from the log; a good
    status in between makes the next bad one news again."""
    d = Driver("1")
    topic = f"venue/{T}/boards/1/status"

    def status(hall, raw: bytes, at: int) -> list[str]:
        step = hall.handle(topic, raw, at)
        if hall is d.hall:
            d._record(step)  # noqa: SLF001 - the driver's log, for the rebuild below
        return [t for t, _ in step.entries]

    assert status(d.hall, b"onlin", 10) == ["message_rejected"]
    assert status(d.hall, b"onlin", 20) == []
    fresh = Hall(T)  # a restarted gateway, rebuilt from the log, gets the retained status again
    for (t, data), at in zip(d.entries, d.stamps):
        fresh.fold(t, data, at)
    assert status(fresh, b"onlin", 30) == []
    assert status(fresh, b"online", 40) == ["device_online"]
    assert status(fresh, b"onlin", 50) == ["message_rejected"]


def test_a_retained_status_already_recorded_is_no_news_after_a_new_round_and_a_restart():
    """Fresh-user report #13: every restart of ``venue serve`` after a round had started appended a
    ``device_offline`` per board from the retained statuses. docs/protocol.md "Status": "The gateway
    records ``device_online`` / ``device_offline`` when the status changes (the retained message it
    receives again after each reconnect or restart is not recorded twice ...)". A real change is
    still recorded."""
    d = Driver("1")
    topic = f"venue/{T}/boards/1/status"
    d.send("1", "status", None, raw=b"offline")  # the board's last will (retained)
    nxt = round_started("1")
    nxt["round"] = "2"
    nxt["games"] = [{**g, "id": "2-1", "round": "2"} for g in nxt["games"]]
    d.external("round_started", nxt)
    fresh = d.rebuilt()  # the gateway restarted: the broker sends the retained status again
    assert fresh.handle(topic, b"offline", d.now + 10).entries == []
    changed = fresh.handle(topic, b"online", d.now + 20).entries
    assert [t for t, _ in changed] == ["device_online"]
    assert [t for t, _ in fresh.handle(topic, b"offline", d.now + 30).entries] == ["device_offline"]


def test_a_retained_status_of_a_board_with_no_game_is_recorded_once_not_at_every_start():
    """A board this round does not use (a spare one powered on, or one a smaller round leaves out)
    has its status refused ("unknown board"): docs/protocol.md "Status" says the retained status the
    gateway receives again after each reconnect or restart is not recorded twice, and a new user's
    run found such a board's refusal logged at every restart. Recorded once, also by a gateway
    rebuilt from the log; a changed status is news again."""
    d = Driver("1")
    topic = f"venue/{T}/boards/9/status"

    def status(hall, raw: bytes, at: int) -> list[tuple[str, str]]:
        step = hall.handle(topic, raw, at)
        if hall is d.hall:
            d._record(step)  # noqa: SLF001 - the driver's log, for the rebuild below
        return [(t, data["reason"]) for t, data in step.entries]

    assert status(d.hall, b"online", 10) == [("message_rejected", "unknown board: 9")]
    assert status(d.hall, b"online", 20) == []
    fresh = d.rebuilt()  # a restarted gateway gets the retained status again
    assert fresh.handle(topic, b"online", d.now + 10).entries == []
    assert [t for t, _ in fresh.handle(topic, b"offline", d.now + 20).entries] == ["message_rejected"]


def test_gap_is_recorded_after_the_hold():
    d = Driver("1", hold_ms=100)
    d.move("1", "e2e4", seq=1)
    d.move("1", "e7e5", seq=3)  # seq 2 lost
    step = d.hall.tick(d.now + 200)
    assert step.entries[0] == ("seq_gap", {"board": "1", "device": "board", "expected": 2, "got": 3})
    assert step.entries[1][0] == "move_played"


def test_checkmate_ends_the_game_by_rules_and_later_moves_are_game_over():
    """Fool's mate: 1.f3 e5 2.g4 Qh4# (FIDE Laws 5.1.1)."""
    d = Driver("1")
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        d.move("1", uci)
    ended = [data for t, data in d.entries if t == "game_ended"]
    assert ended == [{"game": "1-1", "board": "1", "result": "0-1", "termination": "checkmate",
                      "ply": 4, "by": "rules"}]
    step = d.move("1", "a2a3")
    assert step.feedback[0][1]["reason"] == GAME_OVER


def test_result_message_reports_and_ends():
    d = Driver("1")
    d.move("1", "e2e4")
    d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"})
    assert d.types("result_reported", "game_ended") == ["result_reported", "game_ended"]
    assert d.entries[-1][1]["by"] == "device" and d.entries[-1][1]["result"] == "1/2-1/2"


def test_flag_fall_from_clock_figures():
    """FIDE Laws 6.9: White's running clock at 0 with Black able to mate -> 0-1 (Game.flag_fall)."""
    d = Driver("1")
    d.move("1", "e2e4")
    d.move("1", "e7e5")
    d.send("1", "clock", {"event": "resume", "white_ms": 0, "black_ms": 5000, "running": "white"})
    assert d.types("clock_resumed", "flag_fell", "game_ended") == ["clock_resumed", "flag_fell", "game_ended"]
    assert d.entries[-1][1]["result"] == "0-1" and d.entries[-1][1]["by"] == "rules"


def test_flag_fall_when_the_clock_stops_itself():
    d = Driver("1")
    d.move("1", "e2e4")
    d.send("1", "clock", {"event": "pause", "white_ms": 4000, "black_ms": 0, "running": None})
    assert [e["result"] for t, e in d.entries if t == "game_ended"] == ["1-0"]


def test_press_showing_zero_is_no_flag_fall():
    """Candidates 2024 R1 Abasov - Nepomniachtchi: 6...dxc4 {[%clk 0:00:00]}, the game went on."""
    d = Driver("1")
    d.move("1", "d2d4")
    d.send("1", "clock", {"event": "press", "white_ms": 7196000, "black_ms": 7200000, "running": "black"})
    d.move("1", "g8f6")
    d.send("1", "clock", {"event": "press", "white_ms": 7196000, "black_ms": 0, "running": "white"})
    d.move("1", "c2c4")
    d.send("1", "clock", {"event": "press", "white_ms": 7189000, "black_ms": 0, "running": "black"})
    assert d.types("flag_fell", "game_ended") == []


def test_clock_figures_recorded_exactly():
    d = Driver("1")
    d.send("1", "clock", {"event": "press", "white_ms": 5391000, "black_ms": 5400000, "running": "black"})
    (t, data), = [e for e in d.entries if e[0] == "clock_pressed"]
    assert data == {"game": "1-1", "board": "1", "device": "clock", "seq": 1, "white_ms": 5391000,
                    "black_ms": 5400000, "running": "black"}


def test_f06_rotated_board_moves():
    """F06: first snapshot RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr; physical d7d5 -> e2e4,
    b8c6 -> g1f3 on the move topic."""
    d = Driver("1")
    d.place("1", "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr")
    d.move("1", "d7d5")   # physical -> e2e4
    d.move("1", "d2d4")   # physical -> e7e5
    d.move("1", "b8c6")   # physical -> g1f3
    assert d.played() == ["e2e4", "e7e5", "g1f3"]
    assert d.types("board_oriented") == ["board_oriented"]


def test_f06_rotated_placements():
    d = Driver("1")
    d.place("1", "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr")
    board = chess.Board()
    board.push_uci("e2e4")
    physical = board.transform(chess.flip_vertical).transform(chess.flip_horizontal).board_fen()
    d.place("1", physical)
    assert d.played() == ["e2e4"]


def test_f07_result_signal_after_the_end_is_no_move():
    """F07: final FEN 8/1R6/4k3/P7/8/5K2/r7/8 w - - 0 55, Black resigned, clock stopped; the board
    sends f3e4 (legal) then e6d5: result 1-0, no 55.Ke4, no illegal-move rejection."""
    d = Driver("1", fen="8/1R6/4k3/P7/8/5K2/r7/8 w - - 0 55")
    d.send("1", "result", {"result": "1-0", "reason": "resignation"})
    d.send("1", "clock", {"event": "pause", "white_ms": 60000, "black_ms": 60000, "running": None})
    d.move("1", "f3e4")
    d.move("1", "e6d5")
    assert d.played() == []
    assert d.types("move_rejected") == []
    reports = [data for t, data in d.entries if t == "result_reported"]
    assert reports[-1]["result"] == "1-0" and reports[-1]["reason"] == "result signal"


def test_f07_signal_reports_the_result_when_none_was_known():
    """F07: clock stopped, no result yet: the kings on e4 + d5 report 1-0; Ke4 is never played."""
    d = Driver("1", fen="8/1R6/4k3/P7/8/5K2/r7/8 w - - 0 55")
    d.send("1", "clock", {"event": "pause", "white_ms": 60000, "black_ms": 60000, "running": None})
    d.move("1", "f3e4")
    d.move("1", "e6d5")
    assert d.played() == []
    assert d.types("move_rejected") == []
    ended = [data for t, data in d.entries if t == "game_ended"]
    assert ended[0]["result"] == "1-0" and ended[0]["by"] == "device"


def test_f07_signal_on_a_placement_board():
    d = Driver("1", fen="8/1R6/4k3/P7/8/5K2/r7/8 w - - 0 55")
    d.send("1", "clock", {"event": "pause", "white_ms": 60000, "black_ms": 60000, "running": None})
    d.place("1", "8/1R6/4k3/P7/4K3/8/r7/8")
    d.place("1", "8/1R6/8/P2k4/4K3/8/r7/8")
    assert d.played() == []
    assert [data["result"] for t, data in d.entries if t == "game_ended"] == ["1-0"]


def test_king_move_to_the_centre_with_the_clock_running_is_a_move():
    d = Driver("1", fen="8/1R6/4k3/P7/8/5K2/r7/8 w - - 0 55")
    d.send("1", "clock", {"event": "start", "white_ms": 60000, "black_ms": 60000, "running": "white"})
    d.move("1", "f3e4")
    assert d.played() == ["f3e4"]


def test_placement_board_passing_states_and_castling_rook_first():
    """Laws 3.8.2 castling, with the rook moved first and the king lifted in between."""
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    d = Driver("1", fen=fen)
    d.place("1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3KR2")   # rook first: may be Rf1
    d.place("1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4R2")    # king in the hand
    d.place("1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1")   # castled
    assert d.played() == ["e1g1"]
    assert d.types("move_rejected") == []


def test_rook_move_that_looked_like_castling_is_played_on_the_clock_press():
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    d = Driver("1", fen=fen)
    d.place("1", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3KR2")
    assert d.played() == []
    d.send("1", "clock", {"event": "press", "white_ms": 60000, "black_ms": 60000, "running": "black"})
    assert d.played() == ["h1f1"]
    assert d.types()[-2:] == ["move_played", "clock_pressed"]


def test_lift_and_put_back_plays_nothing_and_records_each_snapshot():
    """A piece lifted and put back plays no move. Each snapshot is recorded as ``placement_seen``
    (issue "One record, one fold": the device's last seq and what stands on the board are in the
    log, so a restarted gateway neither asks for it again nor applies it twice)."""
    d = Driver("1")
    d.place("1", chess.STARTING_BOARD_FEN)
    d.place("1", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR")
    d.place("1", chess.STARTING_BOARD_FEN)
    assert d.types() == ["round_started", "board_oriented", "placement_seen", "placement_seen", "placement_seen"]
    assert [data["reading"] for t, data in d.entries if t == "placement_seen"] == ["same", "passing", "same"]
    assert d.played() == []


def test_replay_rebuilds_the_same_state():
    """DESIGN.md: state is a fold over the log; a new gateway carries on, nothing applied twice."""
    d = Driver("1", "2")
    for uci in ("e2e4", "e7e5", "g1f3"):
        d.move("1", uci)
    d.move("2", "d2d4")
    d.move("2", "d2d4")  # illegal now -> held
    d.send("1", "clock", {"event": "press", "white_ms": 100, "black_ms": 200, "running": "black"})
    fresh = Hall(T)
    for (t, data), at in zip(d.entries, d.stamps):
        fresh.fold(t, data, at)
    assert fresh.state.board_game("1").fen == d.hall.state.board_game("1").fen
    assert fresh.state.boards["2"].held
    assert fresh.state.board_game("1").clock == d.hall.state.board_game("1").clock
    assert fresh.state.snapshot() == d.hall.state.snapshot() and fresh.watches == d.hall.watches  # every field: seqs, holds, clocks, presses
    step = fresh.handle(f"venue/{T}/boards/1/move", b'{"seq": 3, "move": "g1f3"}', 0)
    assert step.entries[0][0] == "message_duplicate"
    step = fresh.handle(f"venue/{T}/boards/1/move", b'{"seq": 4, "move": "b8c6"}', 0)
    assert step.entries[0][0] == "move_played"


def test_internal_errors_do_not_escape(monkeypatch):
    d = Driver("1")
    class Broken:
        def play(self, move):
            return 1 / 0

    monkeypatch.setattr(d.hall.rules, "game", lambda g: Broken())
    d.move("1", "e2e4")
    assert d.types()[-1] == "message_rejected"
    d.send("1", "clock", {"event": "start", "white_ms": 1, "black_ms": 1, "running": "white"})
    assert d.types()[-1] == "clock_started"


@pytest.mark.parametrize("payload", [b"", b"null", b'{"seq": 1, "move": "zz"}', b'{"seq": "x"}'])
def test_junk_is_answered(payload):
    d = Driver("1")
    step = d.send("1", "move", None, raw=payload)
    assert step.feedback and step.feedback[0][1]["accepted"] is False


# ----- review of a fresh clone: one message never stops the hall (docs/protocol.md: "Bad input of
# any kind never stops the gateway or other boards"; `internal error: ...`: recorded, board plays on)


def test_deeply_nested_payload_is_rejected_and_other_boards_play():
    """The review's repro: `[` * 1000 + `]` * 1000 on board 1 raised RecursionError out of handle."""
    d = Driver("1", "2")
    d.send("1", "move", None, raw=b"[" * 1000 + b"]" * 1000)
    d.move("2", "e2e4")
    rejected = [data for t, data in d.entries if t == "message_rejected"]
    assert len(rejected) == 1 and rejected[0]["reason"].startswith("not JSON")
    assert rejected[0]["board"] == "1" and len(rejected[0]["raw"]) <= 2048
    assert [(b, f["reason"].split(":")[0]) for b, f in d.feedback if not f["accepted"]] == [("1", "not JSON")]
    assert d.played("2") == ["e2e4"]


@pytest.mark.parametrize("where", ["parse", "offer"])
def test_an_exception_anywhere_in_handle_is_recorded_not_raised(monkeypatch, where):
    """A fault of the gateway before the message reaches its board (parsing, ordering) is recorded
    as `message_rejected` `internal error: <type>` with the raw payload, answered on the board's
    feedback, and the next message is handled."""
    import gateway.hall as hall_module

    d = Driver("1")

    def boom(*args, **kwargs):
        raise KeyError("boom")

    if where == "parse":
        monkeypatch.setattr(hall_module, "parse", boom)
    else:
        monkeypatch.setattr(hall_module, "DeviceSeq", boom)
    step = d.move("1", "e2e4")
    assert [t for t, _ in step.entries] == ["message_rejected"]
    data = step.entries[0][1]
    assert data["reason"].startswith("internal error: KeyError")
    assert data["board"] == "1" and '"e2e4"' in data["raw"]
    assert step.feedback == [("1", {"ref": None, "accepted": False, "reason": "internal error: KeyError",
                                    "fen": START})]
    monkeypatch.undo()
    d.move("1", "e2e4", seq=1)
    assert d.played() == ["e2e4"]


def test_board_label_outside_the_rule_recorded_without_feedback():
    """A 300-character board label: no feedback topic exists for it; recorded with the topic cut."""
    d = Driver("1")
    step = d.hall.handle(f"venue/{T}/boards/{'x' * 300}/move", b'{"seq": 1, "move": "e2e4"}', 0)
    assert step.feedback == []
    (type_, data), = step.entries
    assert type_ == "message_rejected" and data["board"] is None
    assert data["reason"].startswith("bad board label")
    assert len(data["topic"]) <= 203 and len(data["reason"]) < 120


def test_status_battery_is_recorded_when_it_changes():
    # docs/protocol.md "Status": {"status": "online", "battery": "87%"} (a DGT e-board through LiveChess)
    d = Driver("1")
    for raw in (b'{"status": "online", "battery": "87%"}', b'{"status": "online", "battery": "87%"}', b"online",
                b'{"status": "online", "battery": "86%"}', b"offline"):
        d.send("1", "status", None, raw=raw)
    statuses = [(t, data.get("battery")) for t, data in d.entries if t.startswith("device_")]
    assert statuses == [("device_online", "87%"), ("device_online", "86%"), ("device_offline", None)]
    assert d.hall.state.boards["1"].battery == "86%"


def test_the_timer_notices_a_hold_after_quiet_ticks_and_after_a_rebuild():
    """The timer looks only at boards holding a message and games something can be due for
    (``Hall.tick``): a hold still expires after ticks that found nothing, and a gateway rebuilt
    from the log (a restart) expires the hold it inherits the same way."""
    d = Driver("1", "2", hold_ms=100)
    d.move("1", "e2e4", seq=1)
    d.move("2", "e2e4", seq=1)
    d.move("1", "e7e5", seq=3)  # seq 2 lost
    fresh = d.rebuilt()
    assert d.tick(50).entries == []  # within the hold
    assert d.types("seq_gap") == []
    step = d.tick(100)
    assert step.entries[0] == ("seq_gap", {"board": "1", "device": "board", "expected": 2, "got": 3})
    assert fresh.tick(d.now).entries[0] == step.entries[0]
    assert d.tick(1000).entries == []  # expired once
