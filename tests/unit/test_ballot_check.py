"""The balloted opening on the board: a checkers game with a ballot opens with the ballot's three
moves, and a board's move that deviates from them is refused by the gateway.

Sources: ../shared/regulations/checkers-11-man-national-2017.txt X.A.d ("As the game starts, Red's
clock is started, Red's first balloted move is made, Red's clock is stopped, and White's is
automatically started, etc. Alternatively, the three balloted moves may be played prior to
starting white's clock for white's second move"); issue 6 ("Three-move ballot: the ACF deck of 156
openings ..., drawn and recorded; both games of a match play the same ballot with colours
reversed"); the ACF deck ../shared/data/checkers/acf_3move_ballots.csv (no. 15: 9-13 23-18 11-15,
no. 4: 9-13 22-17 13x22); London 1992 game 25 (venue/data/tinsley_chinook_1992.pdn), played on
ballot 15 (tests/unit/test_gateway_match.py).
"""

from __future__ import annotations

import csv

from alert_feed import FoldedAlerts
from match_gateway import GAME_25, T, Gateway

from gateway.hall import HELD
from services.events.match_setup import ballot_of
from services.regulations.checkers_match import ballot_deviation
from services.rules.checkers_pdn import replay


def shared_deck(shared_data) -> dict[int, dict]:
    """ACF number -> ``Ballot.to_json()`` shape, read from the shared CSV itself."""
    with open(shared_data / "checkers" / "acf_3move_ballots.csv", newline="") as f:
        return {int(r["acf_no"]): {"ballot": int(r["acf_no"]), "moves": [r["black_1"], r["white_1"], r["black_2"]],
                                   "name": r["traditional_name"] or None, "in_deck": r["in_156_deck"] == "true"}
                for r in csv.DictReader(f)}


def test_every_ballot_of_the_deck_passes_its_own_moves(shared_data):
    deck = shared_deck(shared_data)
    assert sum(b["in_deck"] for b in deck.values()) == 156  # issue 6: "the ACF deck of 156 openings"
    for ballot in deck.values():
        moves = ballot["moves"]
        for ply in range(3):
            assert ballot_deviation(ballot_of(ballot), moves[:ply], moves[ply]) is None, (ballot, ply)
        # after the three balloted moves the players are free
        assert ballot_deviation(ballot_of(ballot), moves, "anything") is None


def test_a_legal_move_off_the_ballot_is_named_with_the_expected_move(shared_data):
    b15 = shared_deck(shared_data)[15]
    assert b15["moves"] == ["9-13", "23-18", "11-15"]
    off = ballot_deviation(ballot_of(b15), [], "11-15")  # legal from the start, but ballot 15 opens 9-13
    assert (off["ply"], off["expected"]) == (1, "9-13")
    assert off["reason"] == ("not the balloted move: ballot 15 (9-13 23-18 11-15) requires 9-13 as "
                             "Red's first move (ply 1), not 11-15")
    off = ballot_deviation(ballot_of(b15), ["9-13"], "22-18")
    assert (off["ply"], off["expected"]) == (2, "23-18") and "White's first move" in off["reason"]
    # an illegal move is the rules core's to refuse, with its own reason
    assert ballot_deviation(ballot_of(b15), [], "22-18") is None
    # no ballot, no check
    assert ballot_deviation(None, [], "11-15") is None


def test_a_balloted_jump_is_recognised_in_any_notation(shared_data):
    b4 = shared_deck(shared_data)[4]
    assert b4["moves"] == ["9-13", "22-17", "13x22"]
    # docs/checkers.md: the separator does not decide the move: 13-22 names the jump 13x22
    assert ballot_deviation(ballot_of(b4), ["9-13", "22-17"], "13-22") is None
    assert ballot_deviation(ballot_of(b4), ["9-13"], "21-17")["expected"] == "22-17"


def test_the_gateway_refuses_a_move_off_the_ballot_and_holds_the_board(shared_data):
    gw = Gateway()  # London 1992 games 25/26 as a match on ballot 15 (test_gateway_match)
    assert gw.hall.state.board_game("1").setup.ballot.moves == shared_deck(shared_data)[15]["moves"]
    gw.clock("start", 90 * 60_000, 90 * 60_000, "black")
    step = gw.send("move", {"move": "11-15"})
    (fb,) = [f for _, f in step.feedback]
    assert fb["accepted"] is False
    assert fb["reason"] == ("not the balloted move: ballot 15 (9-13 23-18 11-15) requires 9-13 as "
                            "Red's first move (ply 1), not 11-15")
    (rejected,) = gw.entries("move_rejected")
    assert (rejected["move"], rejected["expected"], rejected["ballot_ply"], rejected["held"]) == (
        "11-15", "9-13", 1, True)
    assert rejected["ballot"]["ballot"] == 15 and "Red's first balloted move is made" in rejected["rule"]
    assert gw.entries("move_played") == []
    # the referee is told: the alert names the deviation
    queue = FoldedAlerts()
    (alert,) = queue.apply(9, 0, "move_rejected", rejected)
    assert (alert.severity, alert.title) == ("action", "Move off the ballot")
    # F05: held until the balloted move is played; another legal move does not lift the hold
    gw.send("move", {"move": "10-14"})
    assert gw.entries("move_rejected")[-1]["expected"] == "9-13" and gw.hall.state.boards["1"].held
    # the game goes on with the ballot: then the whole of game 25, unchecked after ply 3
    moves = replay(GAME_25).moves
    for move in moves:
        gw.send("move", {"move": move})
    played = [d["move"] for d in gw.entries("move_played")]
    assert played == moves and len(gw.entries("move_rejected")) == 2
    assert gw.entries("move_played")[0].get("resumed") is True
    assert gw.feedback[-1]["accepted"] is True


def test_white_off_the_ballot_at_ply_two_and_a_rebuilt_gateway_keeps_the_hold():
    from gateway.hall import Hall

    gw = Gateway()
    gw.send("move", {"move": "9-13"})
    gw.send("move", {"move": "22-18"})  # ballot 15's White reply is 23-18
    last = gw.entries("move_rejected")[-1]
    assert (last["expected"], last["ballot_ply"]) == ("23-18", 2)
    again = Hall(T)
    for type_, data in gw.log:
        again.fold(type_, data)
    assert again.state.boards["1"].held and again.state.board_game("1").moves == ["9-13"]
    step = gw.send("move", {"move": "21-17"})  # still not the ballot's move, still held
    assert step.feedback[-1][1]["reason"].startswith("not the balloted move")
    assert HELD not in step.feedback[-1][1]["reason"]


def test_a_game_set_up_from_the_balloted_position_is_not_checked(shared_data):
    # a SETUP with the ballot's FEN (the three moves not played on the board): nothing to check
    from gateway.hall import Hall

    with open(shared_data / "checkers" / "acf_3move_ballots.csv", newline="") as f:
        fen = next(r["fen_after"] for r in csv.DictReader(f) if r["acf_no"] == "15")
    hall = Hall("t")
    setup = {"id": "1-1", "board": "1", "variant": "checkers", "white": "W", "black": "B", "fen": fen,
             "ballot": shared_deck(shared_data)[15]}
    hall.fold("round_started", {"round": "1", "games": [setup]})
    step = hall.handle("venue/t/boards/1/move", '{"seq": 1, "move": "18x11"}', 1_000)  # the capture due
    assert step.feedback[-1][1]["accepted"] is True
