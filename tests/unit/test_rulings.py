"""Every arbiter decision with a rule behind it judged by the rules core (issue 29, kind 5, and kind 7
for the move timers): ``services.regulations.rulings`` through the console's action handler
(``dashboard.arbiter.actions.build``, as POST /api/arbiter/actions calls it with the folded state).

Sources, quoted where used: FIDE Laws of Chess 2023 (E.01) 5.1.1, 5.1.2, 5.2.1, 6.7.1, 6.8, 6.9,
6.10.1, 7.5.5, 9.2, 9.3, 9.5; field cases F01, F03 (../shared/cases/field-cases.md); the 11-Man National
2017 rules X.A.i, X.B.a, X.B.c (../shared/regulations/checkers-11-man-national-2017.txt) as the presets
in events/ quote them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hall_driver import Driver, round_started

from dashboard.arbiter.actions import ActionError, Context, build, convert
from gateway.hall import Hall
from services.regulations.tournament_file import load_tournament
from services.views.spectator import SpectatorView

EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000
T0 = 1_700_000_000_000


def act(d, action: str, body: dict, now_ms: int | None = None):
    """The console's action judged on the hall's state, appended when allowed."""
    items = build(action, body, "chief", SpectatorView(d.hall.state).every_game(), d.hall.state,
                  now_ms=d.now if now_ms is None else now_ms)
    for t, data in items:
        d.external(t, data)
    return items


# ----- claims (FIDE Laws 9.2, 9.3, 9.5) -------------------------------------------------------------
# F03 (a)'s position with a black rook on h5: 99 plies without a pawn move or capture, White to move.
NINETY_NINE_WITH_A_CAPTURE = "k7/8/1K6/7r/8/8/8/7R w - - 99 80"


def test_a_fifty_move_claim_naming_a_capture_is_refused_then_rejected_with_the_penalty():
    """The issue's case. 9.3.1: the intended move must "result in the last 50 moves by each player
    having been made without the movement of any pawn and without any capture": Rxh5 is a capture.
    Accepting it is refused with the reason; rejecting it is recorded with the verdict and the
    gateway proposes 9.5.3's two minutes for Black. With a quiet move (Rh2) the same claim is
    correct: accepted, drawn."""
    d = Driver("1", fen=NINETY_NINE_WITH_A_CAPTURE, announce=True)
    with pytest.raises(ActionError, match=r"kind: the fifty_moves claim is incorrect: the intended move h1h5 is a pawn "
                                          r"move or a capture; reject it: two minutes for the opponent are proposed "
                                          r"\(9\.5\.3\) \(FIDE Laws 9\.3\.1, 9\.5\)"):
        act(d, "accept_claim", {"game": "1-1", "kind": "fifty_moves", "by_move": "h1h5"})
    [(t, decided)] = act(d, "reject_claim", {"game": "1-1", "kind": "fifty_moves", "by_move": "h1h5"})
    assert decided["ruling"]["law"] == "FIDE Laws 9.3.1, 9.5" and decided["accepted"] is False
    [p] = d.of("penalty_proposed")
    assert (p["side"], p["to"], p["add_ms"], p["law"]) == ("white", "black", 2 * MIN, "FIDE Laws 9.5.3")
    assert not d.of("game_ended")
    with pytest.raises(ActionError, match=r"the fifty_moves claim is correct: after h1h2, 100 plies"):
        act(d, "reject_claim", {"game": "1-1", "kind": "fifty_moves", "by_move": "h1h2"})
    out = act(d, "accept_claim", {"game": "1-1", "kind": "fifty_moves", "by_move": "h1h2"})
    assert out[0][1]["ruling"]["law"] == "FIDE Laws 9.3.1"
    assert [(e["result"], e["termination"]) for e in d.of("game_ended")] == [("1/2-1/2", "fifty_moves")]


def test_only_the_player_having_the_move_claims_and_the_claim_is_judged_where_it_was_made():
    """9.2, 9.3: "upon a correct claim by a player having the move". F01's shuttle: after 4...Ng8 the
    start position stands a third time with White to move; Black claiming it is incorrect. The claim
    made then (``ply`` 8) is still judged there after White has moved on (the game goes on until the
    arbiter decides: docs/arbiter.md)."""
    d = Driver("1")
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8") * 2:
        d.move("1", uci)
    with pytest.raises(ActionError, match="only the player having the move may claim, and after ply 8 it is white's"):
        act(d, "accept_claim", {"game": "1-1", "kind": "threefold", "side": "black"})
    d.move("1", "e2e4")
    with pytest.raises(ActionError, match="the threefold claim is incorrect"):
        act(d, "accept_claim", {"game": "1-1", "kind": "threefold"})
    out = act(d, "accept_claim", {"game": "1-1", "kind": "threefold", "ply": 8})
    assert out[0][1]["ruling"]["evidence"]["plies"] == [0, 4, 8]


def test_a_checkers_forty_move_claim_is_judged_too():
    """The ACF/WCDF 40-move rule: 80 plies without a man moved or a piece taken. Two kings each,
    shuttling: 40 plies are not enough; the referee's acceptance is refused."""
    d = Driver("1")
    d.hall = Hall("hall-test", hold_ms=2000)
    setup = round_started("1")
    setup["games"][0].update(variant="checkers", fen="B:WK32,K31:BK1,K2", time_control=None)
    d.entries, d.stamps = [], []
    d.external("round_started", setup)
    for _ in range(10):
        for move in ("1-5", "32-27", "5-1", "27-32"):
            d.move("1", move)
    with pytest.raises(ActionError, match="only 40 plies without a man move or a capture, not 80"):
        act(d, "accept_claim", {"game": "1-1", "kind": "forty_moves"})


# ----- penalties (7.5.5, 9.5.3, A.3) ----------------------------------------------------------------
def test_no_penalty_to_withdraw_is_refused():
    d = Driver("1")
    with pytest.raises(ActionError, match="no penalty proposed for white in game 1-1 is left to withdraw"):
        act(d, "withdraw_penalty", {"game": "1-1", "side": "white"})


# ----- results: flags (6.8, 6.9, 6.10.1), defaults (6.7.1), resignation (5.1.2), 5.1.1, 5.2.1 --------
def test_a_result_on_time_needs_the_flag_and_the_opponents_mating_chances():
    """6.10.1 "Every indication given by the chessclock is considered to be conclusive": with
    Black's clock showing 1:00 no flag of Black's has fallen. 6.9: with Black at 0 and White left a
    bare king (K v K+R) "the game is drawn if the position is such that the opponent cannot
    checkmate": 1-0 on time is refused, ½-½ accepted; White at 0 there is a loss (0-1)."""
    d = Driver("1", fen="4k3/8/8/8/8/8/8/r3K3 w - - 0 60")
    d.clock("1", "start", MIN, MIN, "white")
    d.clock("1", "press", 30_000, MIN, "black")
    act(d, "pause", {"game": "1-1"})
    with pytest.raises(ActionError, match=r"black's clock shows 0:01:00 left: no flag of black has fallen"):
        act(d, "set_result", {"game": "1-1", "result": "1-0", "termination": "time_forfeit"})
    d.clock("1", "pause", 30_000, 0, None)  # the clock stopped itself: the gateway ends it (6.9)
    [end] = d.of("game_ended")
    assert (end["result"], end["termination"]) == ("1/2-1/2", "time_forfeit")
    act(d, "set_result", {"game": "1-1", "result": "*"})  # reopened, as after a wrong ending
    with pytest.raises(ActionError, match="white cannot checkmate by any possible series of legal moves"):
        act(d, "set_result", {"game": "1-1", "result": "1-0", "termination": "time_forfeit"})
    out = act(d, "set_result", {"game": "1-1", "result": "1/2-1/2", "termination": "time_forfeit"})
    assert out[0][1]["ruling"]["evidence"]["verdict"]["verdict"] == "unwinnable"


def test_a_default_is_judged_against_the_default_time_and_the_evidence_of_presence():
    """6.7.1 with US 2023 rule 1's 30 minutes ("Players more than 30 (thirty) minutes late for a
    round shall forfeit that round"), counted from the round's start: before it runs out no one is
    defaulted; White, who moved, was present and is not; Black, absent, is once it has."""
    t = load_tournament((EVENTS / "us-championship-2023.toml").read_text(), "us-championship-2023.toml")
    d = Driver("1", config=t)
    d.hall.state.rounds["1"].start_ms = T0
    d.now = T0
    d.move("1", "e2e4")
    with pytest.raises(ActionError, match=r"the default time \(30 min\) runs until .*: black .* may still arrive"):
        act(d, "set_result", {"game": "1-1", "result": "1-0", "forfeit": True}, now_ms=T0 + 29 * MIN)
    with pytest.raises(ActionError, match=r"white \(W\) was at the board at .* within the default time"):
        act(d, "set_result", {"game": "1-1", "result": "0-0", "forfeit": True}, now_ms=T0 + 31 * MIN)
    out = act(d, "set_result", {"game": "1-1", "result": "1-0", "forfeit": True}, now_ms=T0 + 31 * MIN)
    assert out[0][1]["ruling"]["evidence"]["deadline_ms"] == T0 + 30 * MIN


def test_a_resignation_where_the_opponent_cannot_mate_is_a_draw_and_the_board_decides_mate_and_stalemate():
    """5.1.2: "The game is lost by the player who declares he/she resigns ..., unless the position
    is such that the opponent cannot checkmate the player's king by any possible series of legal
    moves." White resigning against a bare king: refused. 5.1.1/5.2.1: a checkmate or a stalemate
    the position does not show is refused."""
    d = Driver("1", fen="4k3/8/8/8/8/8/8/R3K3 b - - 0 60")
    with pytest.raises(ActionError, match="black cannot checkmate .*the resignation draws the game"):
        act(d, "set_result", {"game": "1-1", "result": "0-1", "termination": "resignation"})
    act(d, "set_result", {"game": "1-1", "result": "1-0", "termination": "resignation"})
    d = Driver("1", fen="4k3/8/8/8/8/8/8/R3K3 b - - 0 60")
    with pytest.raises(ActionError, match="not a checkmate of black"):
        act(d, "set_result", {"game": "1-1", "result": "1-0", "termination": "checkmate"})
    with pytest.raises(ActionError, match="not a stalemate"):
        act(d, "set_result", {"game": "1-1", "result": "1/2-1/2", "termination": "stalemate"})


# ----- move timers by division (11-Man National 2017 X.A.i, X.B.a, X.B.c) -----------------------------
def checkers(event: str | None, *, ply: int = 1) -> Driver:
    t = None
    if event is not None:
        t = load_tournament((EVENTS / event).read_text(), event)
        t = dataclasses.replace(t, rounds=(dataclasses.replace(t.rounds[0], start_ms=T0, end_ms=T0 + 4 * 60 * MIN),
                                           *t.rounds[1:]))
    d = Driver("1", config=t)
    d.hall = Hall("hall-test", hold_ms=2000, config=t)
    setup = round_started("1")
    setup["games"][0].update(variant="checkers", time_control=None if event is None else t.time_controls["classical"])
    d.entries, d.stamps = [], []
    d.now = T0
    d.external("round_started", setup)
    for move in ("11-15", "23-19")[:ply]:
        d.move("1", move)
    return d


def test_the_one_minute_rule_is_refused_in_the_master_division_and_without_a_file():
    """X.A.i: "the Master Division matches are not subject to the One-Minute Rule": the Master preset
    provides no timer (``move_timers = []``), and the refusal quotes it; without a tournament file
    no rule provides one and nothing would enforce it."""
    with pytest.raises(ActionError, match=r"provide no one-minute rule .*X\.A\.i: \"Because the Master Division"):
        act(checkers("checkers-11-man-national-2017.toml"), "start_move_timer", {"game": "1-1", "rule": "one_minute"})
    with pytest.raises(ActionError, match="no tournament file is registered"):
        act(checkers(None), "start_move_timer", {"game": "1-1", "rule": "five_minute"})


def test_the_major_and_minor_divisions_timers_for_a_game_in_progress_without_a_clock():
    """X.B.a: "Either the time clocks or the ordinary five-minute rule shall apply to timing moves";
    X.B.c: the one-minute rule follows the warning "30 minutes before the end of the round time". A
    game not started is X.B.e's, not a timer's; a game on a clock is not timed by the referee."""
    event = "checkers-11-man-national-2017-major-minor.toml"
    with pytest.raises(ActionError, match="1-1 has not started"):
        act(checkers(event, ply=0), "start_move_timer", {"game": "1-1", "rule": "five_minute"})
    d = checkers(event)
    [(t, started)] = act(d, "start_move_timer", {"game": "1-1", "rule": "five_minute"})
    assert started["side"] == "white" and started["ruling"]["law"].startswith("11-Man National 2017 X.B.a")
    with pytest.raises(ActionError, match="the one-minute rule follows the warning 30 minutes before the end"):
        act(d, "start_move_timer", {"game": "1-1", "rule": "one_minute"})
    act(d, "start_move_timer", {"game": "1-1", "rule": "one_minute"}, now_ms=T0 + 4 * 60 * MIN - 30 * MIN)
    d = checkers(event)
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    with pytest.raises(ActionError, match="1-1 is played on a clock"):
        act(d, "start_move_timer", {"game": "1-1", "rule": "five_minute"})


def test_a_penalty_the_gateway_did_not_see_takes_the_laws_amount_for_the_time_class():
    """7.5.4: "If a player uses two hands to make a single move ... and pressed the clock, it shall be
    considered and penalised as if an illegal move" (invisible to the boards: the arbiter sees it);
    7.5.5's two minutes in standard play; nothing else without a proposal."""
    d = Driver("1")
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "e2e4")
    d.clock("1", "press", 90 * MIN - 2000, 90 * MIN, "black")
    act(d, "pause", {"game": "1-1"})
    with pytest.raises(ActionError, match="no penalty is proposed for black in this game; the Laws' penalty in this "
                                          "standard game is 120000 ms"):
        act(d, "apply_penalty", {"game": "1-1", "side": "black", "add_ms": MIN})
    [(t, adjusted)] = act(d, "apply_penalty", {"game": "1-1", "side": "black", "add_ms": 2 * MIN})
    assert adjusted["black_ms"] == 92 * MIN and adjusted["ruling"]["law"] == "FIDE Laws 7.5.5"


# ----- the result slip judged as set_result is (docs/arbiter.md "Results") -------------------------------
# Scholar's mate, the new user's game: 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# (FIDE Laws 5.1.1: 1-0)
SCHOLARS_MATE = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]


def mated() -> Driver:
    """Board 1's game ended by the board's own checkmate, 1-0."""
    d = Driver("1")
    for uci in SCHOLARS_MATE:
        d.move("1", uci)
    [end] = d.of("game_ended")
    assert (end["result"], end["termination"]) == ("1-0", "checkmate")
    return d


def slip_notice(d, body: dict):
    """The answer's ``notice`` for a result slip, as POST /api/arbiter/actions gives it."""
    return convert({**body, "action": "enter_result"}).notice(
        Context("chief", SpectatorView(d.hall.state).every_game(), d.hall.state, d.now))


def test_a_slip_is_refused_where_set_result_is_checkmate_and_default():
    """FIDE Laws 5.1.1: Qxf7 mates Black; a checkmate of White (0-1) the position does not show is
    refused by set_result and by the slip alike, with the same words. 6.7.1 with US 2023 rule 1
    ("Players more than 30 (thirty) minutes late for a round shall forfeit that round"): two minutes
    after the start a forfeit is refused on both paths; after the 30 minutes the slip's forfeit
    carries the same ruling as set_result's."""
    d = mated()
    refusal = r"not a checkmate of white \(FIDE Laws 5\.1\.1\)"
    with pytest.raises(ActionError, match=refusal):
        act(d, "set_result", {"game": "1-1", "result": "0-1", "termination": "checkmate"})
    with pytest.raises(ActionError, match=refusal):
        act(d, "enter_result", {"round": 1, "board": 1, "result": "0-1", "how": "board", "termination": "checkmate"})
    assert d.hall.state.games["1-1"].result == "1-0" and not d.of("arbiter_decision")

    t = load_tournament((EVENTS / "us-championship-2023.toml").read_text(), "us-championship-2023.toml")
    d = Driver("1", config=t)
    d.hall.state.rounds["1"].start_ms = T0
    early = r"the default time \(30 min\) runs until .*: black \(B\) may still arrive"
    with pytest.raises(ActionError, match=early):
        act(d, "set_result", {"game": "1-1", "result": "1-0", "forfeit": True}, now_ms=T0 + 2 * MIN)
    with pytest.raises(ActionError, match=early):
        act(d, "enter_result", {"round": 1, "board": 1, "result": "+/-", "how": "forfeit"}, now_ms=T0 + 2 * MIN)
    assert not d.of("arbiter_decision")
    decision, ended = act(d, "enter_result", {"round": 1, "board": 1, "result": "+/-", "how": "forfeit"},
                          now_ms=T0 + 31 * MIN)
    assert decision[1]["ruling"]["evidence"]["deadline_ms"] == T0 + 30 * MIN
    assert (ended[1]["result"], ended[1]["forfeit"], ended[1]["termination"]) == ("1-0", True, "forfeit")


def test_a_slip_with_the_result_the_board_gave_confirms_it_and_changes_nothing():
    """The board ended the game by checkmate (5.1.1), round 2 has started; the players' slip says
    1-0 too (8.7), once as a slip and once as the arbiter's: each is one note, the termination stays
    the board's, no new game_ended, no notice. A different result stays a correction: recorded with
    what it replaces, and the notice says round 2's pairing stands."""
    d = mated()
    second = round_started("1")
    second["round"] = "2"
    second["games"][0].update(id="2-1", round="2")
    d.external("round_started", second)
    ended_before = len(d.of("game_ended"))
    for how in ("slip", "arbiter", "board"):
        body = {"round": 1, "board": 1, "result": "1-0", "how": how, "termination": "checkmate"}
        [(kind, note)] = act(d, "enter_result", body)
        assert kind == "note_added" and note["game"] == "1-1" and "confirmed" in note["text"]
        assert slip_notice(d, body) is None
    g = d.hall.state.games["1-1"]
    assert (g.result, g.termination) == ("1-0", "checkmate")
    assert len(d.of("game_ended")) == ended_before and not d.of("arbiter_decision")

    body = {"round": 1, "board": 1, "result": "0-1", "how": "arbiter"}
    assert slip_notice(d, body).startswith("round 2 has started: its pairing stands")
    decision, ended = act(d, "enter_result", body)
    assert (decision[1]["previous"], decision[1]["previous_termination"]) == ("1-0", "checkmate")
    assert (ended[1]["result"], ended[1]["termination"]) == ("0-1", "arbiter")


def test_a_draw_by_agreement_the_event_forbids_is_refused_on_every_path():
    """US 2013 rule 2: "Players must not agree to a draw before the game or mutually agree to a draw
    in less than 30 moves during a game." After 1. e4 e5 the device's agreed draw is refused
    (``draw_offer_refused``), and so are set_result's agreement and the slip's ½-½ (as a slip or the
    board's agreement), quoting the rule; a draw named otherwise (a claim upheld, 9.2) is the
    arbiter's. US 2023 rule 2: "Player may not mutually agree to a draw": refused at any move."""
    t = load_tournament((EVENTS / "us-championship-2013.toml").read_text(), "us-championship-2013.toml")
    d = Driver("1", config=t)
    d.move("1", "e2e4")
    d.move("1", "e7e5")
    d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"})
    [refused] = d.of("draw_offer_refused")
    rule = r"Rule 2: \"Players must not agree to a draw before the game or mutually agree to a draw in less than 30"
    assert refused["rule"].startswith("2013 U.S. Championship: Rule 2: \"Players must not agree to a draw")
    for name, body in (("set_result", {"game": "1-1", "result": "1/2-1/2", "termination": "agreement"}),
                       ("enter_result", {"round": 1, "board": 1, "result": "½-½", "how": "slip"}),
                       ("enter_result", {"round": 1, "board": 1, "result": "1/2-1/2", "how": "board",
                                         "termination": "agreement"})):
        with pytest.raises(ActionError, match=rule):
            act(d, name, body)
    assert not d.of("game_ended")
    _, ended = act(d, "enter_result", {"round": 1, "board": 1, "result": "½-½", "how": "claim"})
    assert (ended[1]["result"], ended[1]["termination"]) == ("1/2-1/2", "claim_upheld")

    t = load_tournament((EVENTS / "us-championship-2023.toml").read_text(), "us-championship-2023.toml")
    d = Driver("1", config=t)
    with pytest.raises(ActionError, match=r"Rule 2: \"Player may not mutually agree to a draw\.\""):
        act(d, "set_result", {"game": "1-1", "result": "1/2-1/2", "termination": "agreement"})
