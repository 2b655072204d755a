"""The arbiters' alert queue (services.views.alerts) folded from log entries."""

from alert_feed import FoldedAlerts

CLAIM = {"kind": "threefold", "by_move": None, "evidence": {"plies": [0, 4, 8]}}


def test_claim_alert_opens_and_is_closed_by_the_arbiters_decision():
    # FIDE Laws 9.2: the claim goes to the arbiter; the decision is recorded and closes the alert.
    q = FoldedAlerts()
    [a] = q.apply(10, 1000, "draw_claimable", {"game": "1-1", "board": "1", "ply": 8, "claims": [CLAIM]})
    assert a.status == "open" and a.severity == "action" and a.evidence["claims"][0]["evidence"]["plies"] == [0, 4, 8]
    changed = q.apply(11, 2000, "draw_claim_decided", {"game": "1-1", "kind": "threefold", "accepted": True,
                                                       "by": "chief", "alert": 10})
    assert [c.id for c in changed] == [10] and a.status == "resolved" and a.resolution["by"] == "chief"
    assert q.open_alerts() == []
    assert q.actions[0]["type"] == "draw_claim_decided"


def test_claim_lapses_when_the_position_is_gone():
    # F01 (d): "Black has no claim afterwards. The right lapses once the position is gone".
    q = FoldedAlerts()
    q.apply(10, 1, "draw_claimable", {"game": "1-1", "board": "1", "claims": [CLAIM]})
    changed = q.apply(11, 2, "draw_claimable", {"game": "1-1", "board": "1", "claims": []})
    assert changed[0].status == "lapsed" and q.open_alerts() == []


def test_automatic_endings_alert_but_arbiter_results_do_not():
    # FIDE Laws 9.6: fivefold and 75 moves end the game; the arbiter is still told.
    q = FoldedAlerts()
    [a] = q.apply(5, 1, "game_ended", {"game": "1-2", "result": "1/2-1/2", "termination": "fivefold_repetition",
                                       "by": "rules"})
    assert "9.6.1" in a.title
    assert q.apply(6, 2, "game_ended", {"game": "1-3", "result": "1-0", "termination": "resignation"}) == []


def test_result_decision_closes_action_alerts_and_devices_coming_back_close_offline():
    q = FoldedAlerts()  # board 4's game in play: its clock going offline is a warning
    q.apply(1, 0, "round_started", {"round": "1", "games": [{"id": "1-1", "board": "1"}, {"id": "1-4", "board": "4"}]})
    q.apply(2, 1, "move_rejected", {"game": "1-1", "board": "1", "reason": "illegal move: e1e3"})
    q.apply(3, 1, "device_offline", {"board": "4", "device": "clock"})
    assert [a.id for a in q.open_alerts()] == [2, 3]  # action before warning
    q.apply(4, 2, "arbiter_decision", {"game": "1-1", "result": "0-1", "termination": "arbiter", "by": "chief"})
    q.apply(5, 3, "device_online", {"board": "4", "device": "clock"})
    assert q.open_alerts() == []


def test_a_device_offline_after_its_boards_game_is_over_is_no_alert():
    """A new user's run: once the round was over every board raised "Device offline" (the boards
    put away, switched off). Offline during play is a warning; after the board's game ended it is
    not; a board's next game (a match's game 2) makes it count again."""
    q = FoldedAlerts()
    q.apply(1, 1, "round_started", {"round": "1", "games": [{"id": "1-1", "board": "1"}, {"id": "1-1b", "board": "1"},
                                                           {"id": "1-2", "board": "2"}]})
    q.apply(2, 5, "game_ended", {"game": "1-1", "board": "1", "result": "1-0", "termination": "resignation"})
    assert q.apply(3, 6, "device_offline", {"board": "1", "device": "board"}) == []
    [a] = q.apply(4, 7, "device_offline", {"board": "2", "device": "board"})  # 1-2 still in play
    assert a.kind == "device_offline" and a.board == "2"
    assert a.game == "1-2"  # the entry names no game: the alert names the board's (a new user's run)
    q.apply(5, 8, "device_game_began", {"game": "1-1b", "follows": "1-1", "board": "1", "device": "clock",
                                        "seq": 1, "evidence": "starting_times"})
    assert q.apply(6, 9, "device_offline", {"board": "1", "device": "clock"})


def test_moves_after_the_end_are_not_illegal_move_alerts():
    # After the end the pieces are put away or placed for the result signal (field case F07): the
    # gateway refuses them ("game over") but the arbiter is not alerted.
    q = FoldedAlerts()
    assert q.apply(1, 1, "move_rejected", {"game": "1-1", "board": "1", "reason": "game over"}) == []
    assert q.apply(2, 1, "move_rejected", {"game": "1-1", "board": "1", "reason": "illegal move: e1e3"})


def rejected(board, reason="not JSON: Expecting value", device="board", seq=None):
    return {"board": board, "topic": f"venue/t/boards/{board}/move", "device": device, "seq": seq,
            "reason": reason, "raw": "{not json"}


def test_repeated_malformed_messages_from_one_device_make_one_alert_with_a_count():
    """The review: ~30 bad messages made 52 separate "Malformed device message" alerts. Repeats from
    the same board and device fold into its one open alert, counted; the latest message is the evidence."""
    q = FoldedAlerts()
    [first] = q.apply(1, 100, "message_rejected", rejected("3"))
    for seq in range(2, 31):
        assert q.apply(seq, 100 + seq, "message_rejected", rejected("3", reason=f"bad field seq #{seq}")) == [first]
    q.apply(31, 200, "message_rejected", rejected("3", device="clock"))
    q.apply(32, 201, "message_rejected", rejected("4"))
    q.apply(33, 202, "message_rejected", rejected(None, reason="bad board label: 'xxx...'", device=None))
    q.apply(34, 203, "message_rejected", rejected(None, reason="unknown topic: venue/t/x", device=None))
    open_ = q.open_alerts()
    assert len(open_) == 4
    assert (first.count, first.id, first.at, first.last_at) == (30, 1, 100, 130)
    assert first.evidence["reason"] == "bad field seq #30"
    assert first.to_json()["count"] == 30 and first.to_json()["last_at"] == 130
    assert [a.count for a in open_ if a.board is None] == [2]


def test_a_handled_malformed_alert_is_not_reopened_by_the_next_message():
    q = FoldedAlerts()
    q.apply(1, 1, "message_rejected", rejected("3"))
    q.apply(2, 2, "alert_resolved", {"alert": 1, "by": "chief"})
    [again] = q.apply(3, 3, "message_rejected", rejected("3"))
    assert again.id == 3 and again.count == 1 and q.alerts[1].status == "resolved"


def test_other_alerts_are_not_grouped():
    q = FoldedAlerts()
    q.apply(1, 1, "move_rejected", {"game": "1-1", "board": "1", "reason": "illegal move: e1e3"})
    q.apply(2, 2, "move_rejected", {"game": "1-1", "board": "1", "reason": "illegal move: e1e4"})
    assert [a.count for a in q.open_alerts()] == [1, 1]


def test_a_clock_set_to_the_wrong_control_makes_one_alert_with_a_count(shared_data):
    """Issue 12: "A clock configured with the wrong control raises 80 separate clock_disagreement
    alerts in 40 moves." The event's control is US 2023 rule 4 (90 minutes for 40 moves, then 30,
    30 s a move from move one); the clock was set to 90 minutes without the increment, so after every
    press of the first 40 moves each side's clock is 30 s short of the model (which then takes the
    device's figures: one report per press). The moves: FIDE Candidates 2024, round 4, Caruana -
    Gukesh. The 80 entries stay in the log; the console shows one alert for the board's game."""
    import io

    import chess.pgn
    from hall_driver import Driver

    from services.regulations.tournament_file import load_tournament

    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8"))
    for _ in range(15):
        game = chess.pgn.read_game(stream)
    moves = [m.uci() for m in game.mainline_moves()][:80]
    config = load_tournament("""
[tournament]
name = "Wrong control"
slug = "wrong-control"
system = "round-robin"
rounds = 1
[time_controls]
classical = "40/5400+30:1800+30"
""")
    d = Driver("1", config=config, time_control="40/5400+30:1800+30")
    d.clock("1", "start", 5_400_000, 5_400_000, "white")
    for ply, uci in enumerate(moves):
        mover = "white" if ply % 2 == 0 else "black"
        d.move("1", uci, after_ms=1)
        d.clock("1", "press", 5_400_000, 5_400_000, "black" if mover == "white" else "white", after_ms=1)
    disagreements = d.of("clock_disagreement")
    assert len(disagreements) == 80 and {e["kind"] for e in disagreements} == {"time"}
    q = FoldedAlerts()
    for seq, (t, data) in enumerate(d.entries, start=1):
        q.apply(seq, d.stamps[seq - 1], t, data)
    [alert] = [a for a in q.open_alerts() if a.kind == "clock_disagreement"]
    assert alert.count == 80 and alert.evidence == disagreements[-1] and alert.game == "1-1"
    # the board's next game is another source: its own alert
    q.apply(len(d.entries) + 1, d.now, "clock_disagreement", {**disagreements[-1], "game": "2-1"})
    assert sorted(a.count for a in q.open_alerts() if a.kind == "clock_disagreement") == [1, 80]
