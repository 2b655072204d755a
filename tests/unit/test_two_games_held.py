"""A board that waits: messages held in the log until their game is decided (docs/protocol.md "Two
games on one board"), the arbiter's call (``board_game_called``), the device's ``game`` counter, the
hall grid's count, and a new round on a board whose devices go on with their seq (gateway.hall.Hall
through ``hall_driver.Driver``, time passed in).

The games and figures: FIDE Candidates 2024, round 1, Abasov - Nepomniachtchi
(../shared/data/chess/fide_candidates_2024_open.pgn), drawn in a position Black could claim as a
threefold repetition (its rooks' last moves Rd2 Re2 Rd4 Re4 repeat it: the rules core offers the
claim, FIDE Laws 9.2), played under events/norway-chess-2023.toml
(tests/unit/test_gateway_armageddon_clock.py has the sources); the Armageddon's plies are the same
game's opening with its think times.
"""

from __future__ import annotations

from armageddon_board import ARMAGEDDON_MS, DRAWN, NORWAY, START_MS, Board, plies
from hall_driver import Driver

from dashboard.arbiter.actions import build
from gateway.which_game import ARBITER, HELD, NEXT_GAME
from services.views.hall_grid import hall_rows
from services.views.spectator import SpectatorView


def arbiter(b: Board, action: str, body: dict) -> None:
    """What POST /api/arbiter/actions appends for the arbiter "chief" (docs/arbiter.md)."""
    state = b.d.hall.state
    for entry in build(action, body, "chief", SpectatorView(state).every_game(), state, now_ms=b.d.now):
        b.d.external(*entry)


def claimed(b: Board) -> list[dict]:
    """The classical game to its last move with every press, then the board's threefold claim
    (a draw by repetition reported: ``draw_claim_reported``, Norway's draw ban: the arbiter decides)."""
    moves = plies(b.game, {"white": START_MS, "black": START_MS})
    b.clock("start", {"white": START_MS, "black": START_MS}, "white", after_ms=0)
    b.play(moves)
    assert any(c["kind"] == "threefold" for c in b.state(DRAWN).claimable)
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "threefold repetition"}, after_ms=5_000)
    (claim,) = b.d.of("draw_claim_reported")
    assert (claim["game"], claim["kind"]) == (DRAWN, "threefold")
    return moves


def test_a_claim_holds_the_board_and_the_game_called_on_gets_its_messages(drawn_game):
    # FIDE Laws 9.2: the game does not go on while the arbiter checks the claim; the board's later
    # messages wait (a pause, a move), and a rejected claim leaves the classical game open: they
    # are its own, in order
    b = Board(drawn_game)
    moves = claimed(b)
    last = moves[-1]
    b.clock("pause", {"white": last["white_ms"], "black": last["black_ms"] - 5_000}, None, after_ms=1_000)
    b.d.move("1", "f8g8", after_ms=1_000)  # Black plays on: 34...Kg8
    waiting = b.d.of("message_awaiting_game")
    assert [(w["device"], w["reason"]) for w in waiting] == [("clock", ARBITER), ("board", ARBITER)]
    assert b.d.feedback[-1][1]["reason"] == HELD[ARBITER] and b.state(DRAWN).ply == len(moves)
    rows = {r["board"]: r for r in hall_rows(b.d.hall.state)}
    assert (rows["1"]["holding"], rows["1"]["holding_for"], "holding" in rows["1"]["problems"]) == (2, ARBITER, True)
    # The record shows the claim correct, so it cannot be rejected (9.5.2; issue 29: judged by the rules
    # core); the arbiter finds it not validly made (9.4: the claimant touched a piece first) and calls
    # the classical game on: the board's messages are its own
    arbiter(b, "call_game", {"game": DRAWN})
    assert b.state(DRAWN).moves[-1] == "f8g8" and b.state(DRAWN).clock_event == "clock_paused"
    assert b.d.hall.state.boards["1"].awaiting == [] and not b.d.of("armageddon_scheduled")
    assert hall_rows(b.d.hall.state)[0]["holding"] == 0
    b.rebuilt_same()


def test_an_upheld_claim_gives_the_boards_messages_to_the_armageddon(drawn_game):
    # the arbiter upholds the claim at the board and clicks later; meanwhile the clock is set for
    # the Armageddon and started and its first moves are made: they wait, then are the Armageddon's
    b = Board(drawn_game)
    moves = claimed(b)
    b.set_and_start()
    arm = b.armageddon(4)
    b.play(arm)
    assert b.state(DRAWN).ply == len(moves) and len(b.d.of("message_awaiting_game")) == 2 + 2 * len(arm)
    arbiter(b, "accept_claim", {"game": DRAWN, "kind": "threefold"})
    (scheduled,) = b.d.of("armageddon_scheduled")
    b.arm = scheduled["id"]
    assert b.state(DRAWN).result == "1/2-1/2" and b.state(DRAWN).ply == len(moves)
    assert b.state(b.arm).moves == [p["uci"] for p in arm]
    assert b.kinds(b.arm) == ["clock_set", "clock_started"] + ["clock_pressed"] * len(arm)
    assert [(x["device"], x["evidence"]) for x in b.d.of("device_game_began")] == [
        ("board", "next_only"), ("clock", "starting_times")]
    b.no_false_alarm()


def test_the_clock_set_for_the_armageddon_before_the_result_waits_for_the_result(drawn_game):
    # the clock set to the Armageddon's times before anyone recorded the draw holds the board; the
    # arbiter's result (set_result) leaves the Armageddon open: the setting is its first clock entry
    b = Board(drawn_game)
    b.drawn_by_the_clock_alone()
    b.clock("set", ARMAGEDDON_MS, None, after_ms=60_000)
    (held,) = b.d.of("message_awaiting_game")
    assert held["reason"] == NEXT_GAME
    arbiter(b, "set_result", {"game": DRAWN, "result": "1/2-1/2"})
    (scheduled,) = b.d.of("armageddon_scheduled")
    b.arm = scheduled["id"]
    assert b.kinds(b.arm) == ["clock_set"]  # the setting shows its start: no call needed
    b.d.move("1", "d2d4", after_ms=1_000)
    assert b.state(b.arm).moves == ["d2d4"]  # the drawn game owes no move: only the Armageddon takes it
    b.rebuilt_same()


def test_the_arbiters_call_with_nothing_held_begins_the_next_game_at_each_devices_next_message(drawn_game):
    b = Board(drawn_game)
    b.drawn()
    board_seq, clock_seq = b.d.seqs[("1", "board")], b.d.seqs[("1", "clock")]
    arbiter(b, "call_game", {"game": b.arm})
    assert sorted((x["device"], x["seq"], x["game"], x["evidence"]) for x in b.d.of("device_game_began")) == [
        ("board", board_seq + 1, b.arm, "arbiter"), ("clock", clock_seq + 1, b.arm, "arbiter")]
    assert b.d.of("board_game_called")[0]["board"] == "1" and b.d.hall.state.boards["1"].called is None
    b.clock("resume", {"white": ARMAGEDDON_MS["white"], "black": ARMAGEDDON_MS["black"]}, "white", after_ms=1_000)
    assert b.kinds(b.arm) == ["clock_resumed"]
    b.rebuilt_same()


def test_a_devices_counter_holds_the_next_games_messages_until_the_game_before_is_over(drawn_game):
    # a clock that says game 2 (docs/protocol.md "Fields": game) while the classical game has no
    # result: held, then the Armageddon's once the draw is recorded; a counter of game 1 is the
    # classical game's whatever it shows
    b = Board(drawn_game)
    paused = b.drawn_by_the_clock_alone()
    b.d.send("1", "clock", {"event": "set", "white_ms": 11 * 60_000, "black_ms": 7 * 60_000, "running": None,
                            "game": 2}, after_ms=60_000)  # a wrong setting, corrected below
    (held,) = b.d.of("message_awaiting_game")
    assert (held["reason"], held["body"]["game"]) == (NEXT_GAME, 2)
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement", "game": 1}, after_ms=1_000)
    (scheduled,) = b.d.of("armageddon_scheduled")
    b.arm = scheduled["id"]
    (began,) = b.d.of("device_game_began")
    assert (began["device"], began["game"], began["evidence"]) == ("clock", b.arm, "counter")
    assert b.kinds(b.arm) == ["clock_set"] and b.state(DRAWN).clock.white_ms == paused["white"]
    b.rebuilt_same()


def test_a_bad_game_counter_is_refused_and_loses_nothing():
    d = Driver("1")
    for bad in (0, 100, "2", True):
        d.send("1", "move", {"move": "e2e4", "game": bad})
    rejected = d.of("message_rejected")
    assert len(rejected) == 4 and all(r["reason"].startswith("bad field game") for r in rejected)
    d.send("1", "move", {"move": "e2e4", "game": 1}, seq=1)
    assert d.played() == ["e2e4"]


def test_a_new_round_is_a_boundary_for_devices_that_go_on_with_their_seq():
    # round 2 on board 1 (docs/protocol.md "Fields": a device may go on with its seq into a new
    # round): the board's seq 3 is its next, applied at once to round 2's game (no hole, no seq_gap)
    d = Driver("1")
    for uci in ("e2e4", "e7e5"):
        d.move("1", uci)
    d.external("round_started", ROUND_2)
    assert d.hall.state.boards["1"].carried == {"board": 2}
    d.move("1", "d2d4", seq=3)
    assert d.hall.state.games["2-1"].moves == ["d2d4"] and d.hall.state.games["1-1"].moves == ["e2e4", "e7e5"]
    assert not d.of("message_held") and not d.of("seq_gap")
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


ROUND_2 = {"round": "2", "event": "Test", "site": "", "date": "2024.04.05", "games": [
    {"id": "2-1", "board": "1", "round": "2", "white": "B", "black": "W", "variant": "chess",
     "time_control": "5400+30", "fen": None, "kind": "classical"}]}


def test_a_board_left_out_of_a_round_carries_its_seq_into_the_next_it_plays():
    # a play-off stage on board 2 only, the next stage on board 1 again (issue 30's live play-off):
    # board 1's devices go on from the seq they last sent two rounds before (docs/protocol.md
    # "Fields"); their next message is no hole
    d = Driver("1")
    for uci in ("e2e4", "e7e5"):
        d.move("1", uci)
    d.external("round_started", {**ROUND_2, "games": [{**ROUND_2["games"][0], "board": "2"}]})
    d.external("round_started", {**ROUND_2, "round": "3", "games": [{**ROUND_2["games"][0], "id": "3-1",
                                                                      "round": "3"}]})
    assert d.hall.state.boards["1"].carried == {"board": 2}
    d.move("1", "d2d4", seq=3)
    assert d.hall.state.games["3-1"].moves == ["d2d4"]
    assert not d.of("message_held") and not d.of("seq_gap")
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


def test_a_new_round_still_takes_devices_that_count_from_1_again():
    d = Driver("1")
    for uci in ("e2e4", "e7e5", "g1f3"):
        d.move("1", uci)
    d.external("round_started", ROUND_2)
    for seq, uci in enumerate(("d2d4", "d7d5"), start=1):
        d.move("1", uci, seq=seq)
    assert d.hall.state.games["2-1"].moves == ["d2d4", "d7d5"] and not d.of("message_duplicate")
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


def test_a_new_rounds_two_games_with_devices_counting_from_1_again():
    # Norway round 2 on board 1 after a round 1 whose devices sent four messages each: the devices
    # count from 1 again, and the round's Armageddon still begins at its own boundaries (the round
    # before's seqs are no boundary of this round)
    d = Driver("1", config=NORWAY, time_control=NORWAY.time_controls["classical"])
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6"):
        d.move("1", uci)
        d.clock("1", "press", 7_200_000, 7_200_000, "white")
    d.external("round_started", {**ROUND_2, "games": [{**ROUND_2["games"][0], "kind": "classical",
                                                       "time_control": NORWAY.time_controls["classical"]}]})
    d.move("1", "d2d4", seq=1)
    d.send("1", "clock", {"event": "start", "white_ms": 7_200_000, "black_ms": 7_200_000, "running": "white"}, seq=1)
    state = d.hall.state
    for entry in build("set_result", {"game": "2-1", "result": "1/2-1/2"}, "chief", SpectatorView(state).every_game(),
                       state, now_ms=d.now):
        d.external(*entry)
    (scheduled,) = d.of("armageddon_scheduled")
    d.send("1", "clock", {"event": "set", "white_ms": 10 * 60_000, "black_ms": 7 * 60_000, "running": None}, seq=2)
    d.move("1", "e2e4", seq=2)
    assert d.hall.state.games[scheduled["id"]].moves == ["e2e4"] and d.hall.state.games["2-1"].moves == ["d2d4"]
    assert sorted((b["device"], b["seq"]) for b in d.of("device_game_began")) == [("board", 2), ("clock", 2)]
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches
