"""Completed illegal moves and incorrect claims, live (FIDE Laws 7.5, 9.5.3; ``gateway.irregular``,
``services.regulations.irregularities``): the gateway proposes the penalty in the alert's data
(``penalty_proposed``), the arbiter applies it (``apply_penalty`` -> ``clock_adjusted``), offences are
counted per player and game.

The Laws' text (2023) is quoted in services/rules/penalties.py: 7.5.1 "An illegal move is completed
once the player has pressed his/her clock"; 7.5.3 a press without a move is "penalised as if an
illegal move"; 7.5.5 two minutes to the opponent for the first completed illegal move, the second
loses (drawn if the opponent cannot checkmate by any possible series of legal moves); 9.5.3 an
incorrect claim gives the opponent two minutes; A.3 one minute in rapid (and in blitz under B.3).
Field case F05 (a): e2e4, e7e5, e1e3 (an illegal king jump), White presses (standard 90+30).
"""

from __future__ import annotations

import pytest
from alert_feed import FoldedAlerts
from field_case_f05 import f05
from hall_driver import Driver, act

from dashboard.arbiter.actions import ActionError
from services.regulations.tournament_file import load_tournament
from services.views.alerts import STOOD_TITLE
from services.views.spectator import SpectatorView

MIN = 60_000
GRACE = 5_000  # services.regulations.clock_watch.GRACE_MS


def event(kind: str, control: str, regulations: str = "") -> object:
    """A tournament file of one kind of game (docs/tournament-file.md)."""
    return load_tournament(f"""
[tournament]
name = "Laws test"
slug = "laws-test"
system = "round-robin"
kind = "{kind}"
rounds = 1
[time_controls]
{kind} = "{control}"
[regulations]
{regulations}
""")


def test_f05_the_press_completes_the_illegal_move_and_two_minutes_are_proposed():
    """F05 (a), standard play (90+30): the press after e1e3 completes the illegal move (7.5.1): the
    penalty proposed is two minutes for Black (7.5.5), counted as White's first; the arbiter pauses
    the clock and applies it (``clock_adjusted``: Black's time + 120,000 ms, the alert answered);
    White's replacement move 2.Ke2 and its press then belong to ply 3 (the press that completed the
    illegal move is no ply's), and no press-without-a-move is proposed for it later."""
    d = Driver("1")
    f05(d, 90 * MIN, 90 * MIN)
    [p] = d.of("penalty_proposed")
    assert (p["side"], p["offence"], p["how"], p["offence_no"], p["to"], p["add_ms"], p["game_lost"]) == (
        "white", "illegal_move", "illegal_move", 1, "black", 120_000, False)
    assert (p["law"], p["move"], p["time_class"], p["ply"]) == ("FIDE Laws 7.5.1, 7.5.5", "e1e3", "standard", 2)
    assert d.hall.state.games["1-1"].offences == {"white": {"illegal_move": 1}, "black": {}}
    queue = FoldedAlerts()
    for seq, (t, data) in enumerate(d.entries, start=1):
        queue.apply(seq, 0, t, data)
    alert = next(a for a in queue.open_alerts() if a.kind == "penalty_proposed")
    assert alert.severity == "action" and alert.evidence["add_ms"] == 120_000

    act(d, "pause", {"game": "1-1"})
    [(t, adjusted)] = act(d, "apply_penalty", {"game": "1-1", "side": p["to"], "add_ms": p["add_ms"],
                                               "law": p["law"], "reason": p["reason"], "alert": alert.id})
    assert t == "clock_adjusted"
    assert (adjusted["white_ms"], adjusted["black_ms"]) == (90 * MIN - 3000, 90 * MIN - 1000 + 120_000)
    assert adjusted["add_ms"] == 120_000 and adjusted["side"] == "black" and "7.5.5" in adjusted["reason"]
    for seq, (t, data) in enumerate(d.entries[-1:], start=len(d.entries)):
        queue.apply(seq, 0, t, data)
    assert queue.alerts[alert.id].status == "resolved"

    d.move("1", "e1e2")
    d.clock("1", "press", 90 * MIN - 5000, 90 * MIN + 119_000, "black")
    d.tick(GRACE + 1000)
    assert len(d.of("penalty_proposed")) == 1
    g = d.hall.state.games["1-1"]
    assert g.moves == ["e2e4", "e7e5", "e1e2"] and g.clocks == [90 * MIN - 1000, 90 * MIN - 1000, 90 * MIN - 5000]
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


def test_the_second_completed_illegal_move_loses():
    """7.5.5: "for the second completed illegal move by the same player the arbiter shall declare
    the game lost by this player": the proposal says so, with the result (Black can mate: 0-1) and
    the verdict it rests on."""
    d = Driver("1")
    f05(d, 90 * MIN, 90 * MIN)
    d.move("1", "e1e2")
    d.clock("1", "press", 90 * MIN - 5000, 90 * MIN - 1000, "black")
    d.move("1", "b8c6")
    d.clock("1", "press", 90 * MIN - 5000, 90 * MIN - 2000, "white")
    d.move("1", "e2e5")  # the king onto Black's pawn: illegal
    d.clock("1", "press", 90 * MIN - 6000, 90 * MIN - 2000, "black")
    first, second = d.of("penalty_proposed")
    assert (second["offence_no"], second["game_lost"], second["add_ms"], second["result"]) == (2, True, 0, "0-1")
    assert second["evidence"]["side"] == "black" and second["evidence"]["verdict"] != "unwinnable"
    assert d.hall.state.games["1-1"].status == "playing"  # the arbiter declares it (set_result)


def test_rapid_gives_one_minute():
    """A.3: "The penalties mentioned in Articles 7 and 9 of the Competitive Rules of Play shall be
    one minute instead of two minutes." 15 minutes + 10 s a move is rapid (A.1: 15 + 60 x 10 s =
    25 minutes)."""
    d = Driver("1", config=event("rapid", "900+10"), time_control="900+10", kind="rapid")
    f05(d, 15 * MIN, 15 * MIN)
    [p] = d.of("penalty_proposed")
    assert (p["add_ms"], p["time_class"], p["appendix"], p["law"]) == (60_000, "rapid", "A.5", "FIDE Laws 7.5.1, 7.5.5, A.3")


@pytest.mark.parametrize("appendix, minutes", [("B.3", 1), ("B.2", 2)])
def test_blitz_incorrect_claim_by_the_appendix_part(appendix, minutes):
    """9.5.3 in blitz (3 min + 2 s: B.1): one minute under B.3 (A.3), two under B.2 (the Competitive
    Rules in full); the event's regulations say which (B.4: ``regulations.appendix``). Every incorrect
    claim is penalised; none loses the game."""
    d = Driver("1", config=event("blitz", "180+2", f'appendix = {{ blitz = "{appendix}" }}'),
               time_control="180+2", kind="blitz")
    d.move("1", "e2e4")
    for _ in range(2):
        act(d, "reject_claim", {"game": "1-1", "kind": "threefold"})
    first, second = d.of("penalty_proposed")
    assert (first["side"], first["to"], first["offence"], first["how"]) == ("black", "white", "incorrect_claim", "claim")
    assert (first["add_ms"], second["add_ms"]) == (minutes * MIN, minutes * MIN)
    assert (second["offence_no"], second["game_lost"]) == (2, False)
    assert first["law"] == ("FIDE Laws 9.5.3, B.3, A.3" if appendix == "B.3" else "FIDE Laws 9.5.3, B.2")


def test_an_incorrect_claim_names_the_claimant():
    """9.5.3: the claimant's opponent gets the time; the console may name the claimant (``side``),
    else it is the player having the move, who alone may claim (9.2, 9.3)."""
    d = Driver("1")
    act(d, "reject_claim", {"game": "1-1", "kind": "fifty_moves", "side": "black"})
    [p] = d.of("penalty_proposed")
    assert (p["side"], p["to"], p["add_ms"], p["law"]) == ("black", "white", 120_000, "FIDE Laws 9.5.3")


def test_a_press_without_a_move_is_an_illegal_move_after_the_grace_period():
    """7.5.3: "If the player presses the clock without making a move, it shall be considered and
    penalised as if an illegal move." The board's and the clock's messages travel separately: a
    move that arrives after its press within the grace period is no offence; a press still without
    a move after it is."""
    d = Driver("1")
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.clock("1", "press", 90 * MIN - 1000, 90 * MIN, "black")  # before its move reaches the gateway
    d.move("1", "e2e4", after_ms=1000)
    d.tick(GRACE + 1000)
    assert d.of("penalty_proposed") == []
    d.move("1", "e7e5")
    d.clock("1", "press", 90 * MIN - 1000, 90 * MIN - 1000, "white")
    d.clock("1", "press", 90 * MIN - 2000, 90 * MIN - 1000, "black")  # White presses, no move
    d.tick(GRACE - 2000)
    assert d.of("penalty_proposed") == []
    d.tick(3000)
    [p] = d.of("penalty_proposed")
    assert (p["side"], p["how"], p["law"], p["add_ms"], p["presses"]) == (
        "white", "press_without_move", "FIDE Laws 7.5.3, 7.5.5", 120_000, 2)
    assert not [e for e in d.of("clock_disagreement") if e["kind"] == "press_without_move"]
    d.tick(60_000)
    assert len(d.of("penalty_proposed")) == 1  # proposed once


def test_apply_penalty_refuses_what_the_laws_do_not_give():
    """apply_penalty adds one or two minutes (7.5.5, 9.5.3, A.3) to a stopped clock only."""
    d = Driver("1")
    f05(d, 90 * MIN, 90 * MIN)
    with pytest.raises(ActionError, match="running"):
        act(d, "apply_penalty", {"game": "1-1", "side": "black", "add_ms": 120_000})
    act(d, "pause", {"game": "1-1"})
    with pytest.raises(ActionError, match="add_ms"):
        act(d, "apply_penalty", {"game": "1-1", "side": "black", "add_ms": 300_000})
    with pytest.raises(ActionError, match="side"):
        act(d, "apply_penalty", {"game": "1-1", "side": "red", "add_ms": 120_000})
    # the proposal gives Black two minutes (7.5.5, standard play): not one, and none to White
    with pytest.raises(ActionError, match="add_ms: the penalty proposed gives black 120000 ms, not 60000"):
        act(d, "apply_penalty", {"game": "1-1", "side": "black", "add_ms": 60_000})


def test_in_blitz_an_illegal_move_the_opponent_plays_on_from_stands():
    """A.5.2 (blitz under B.3, the default: B.4): "If the opponent does not claim and the arbiter does
    not intervene, the illegal move shall stand and the game shall continue. Once the opponent has
    made his/her next move, an illegal move cannot be corrected". F05 (a) in blitz (3 min + 2 s):
    White's e1e3 is completed by the press; Black replies b8c6, legal in the position Ke3 left: the
    record keeps 2.Ke3, flagged (``illegal``), with its press as its clock, and the game goes on from
    there. A rebuilt gateway holds the same state and answers the next move as the live one."""
    d = Driver("1", config=event("blitz", "180+2"), time_control="180+2", kind="blitz")
    f05(d, 3 * MIN, 3 * MIN)
    d.move("1", "b8c6")
    stood, reply = d.of("move_played")[-2:]
    assert (stood["ply"], stood["move"], stood["san"], stood["illegal"]) == (3, "e1e3", "Ke3", True)
    assert stood["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/4K3/PPPP1PPP/RNBQ1BNR b kq - 1 2"
    assert (reply["ply"], reply["move"], reply["san"]) == (4, "b8c6", "Nc6")
    g = d.hall.state.games["1-1"]
    assert g.moves == ["e2e4", "e7e5", "e1e3", "b8c6"] and g.stood == {3: stood["fen"]}
    assert g.clocks[2] == 3 * MIN - 3000  # the press that completed it: its ply's clock
    assert not d.hall.state.boards["1"].held
    fresh = d.rebuilt()
    assert fresh.state.snapshot() == d.hall.state.snapshot() and fresh.watches == d.hall.watches
    live = d.move("1", "e3d3")
    again = fresh.handle("venue/hall-test/boards/1/move", b'{"seq": 5, "move": "e3d3"}', d.now)
    assert again.entries == live.entries and live.entries[0][1]["san"] == "Kd3"


@pytest.mark.parametrize("control, kind, regulations", [
    ("180+2", "blitz", 'appendix = { blitz = "B.2" }'),  # B.2: the Competitive Rules in full
    ("5400+30", "classical", ""),  # standard play: 7.5.1 reinstates the position
])
def test_where_the_laws_reinstate_the_position_the_board_stays_held(control, kind, regulations):
    """7.5.1 (standard play; blitz under B.2): "the position immediately before the irregularity shall
    be reinstated": the reply is not played, the board stays held (F05) for the arbiter."""
    d = Driver("1", config=event(kind, control, regulations), time_control=control, kind=kind)
    f05(d, 3 * MIN, 3 * MIN)
    d.move("1", "b8c6")
    assert d.hall.state.games["1-1"].moves == ["e2e4", "e7e5"] and d.hall.state.boards["1"].held
    assert not [m for m in d.of("move_played") if m.get("illegal")]


def test_a_record_with_an_illegal_move_that_stood_is_shown_and_exported():
    """The spectators' GAME says which ply stood and the position it left (``stood``); the board
    picture at each ply is drawn from it, and the PGN (whose movetext must be legal moves) starts
    from that position with the record before it in a tag."""
    import io

    import chess.pgn

    from dashboard.boards import game_svg
    from services.arbiter_office.view_pgn import game_pgn

    d = Driver("1", config=event("blitz", "180+2"), time_control="180+2", kind="blitz")
    f05(d, 3 * MIN, 3 * MIN)
    d.move("1", "b8c6")
    game = SpectatorView(d.hall.state).game("1-1")
    assert game["stood"] == [{"ply": 3, "fen": "rnbqkbnr/pppp1ppp/8/4p3/4P3/4K3/PPPP1PPP/RNBQ1BNR b kq - 1 2"}]
    for ply in range(game["ply"] + 1):
        assert game_svg(game, ply).startswith("<svg")
    pgn = chess.pgn.read_game(io.StringIO(game_pgn(game)))
    assert pgn.headers["FEN"] == game["stood"][0]["fen"]
    assert pgn.headers["IllegalMoveStood"] == "e4 e5 Ke3(illegal) (FIDE Laws A.5.2)"
    assert [m.uci() for m in pgn.mainline_moves()] == ["b8c6"]
    queue = FoldedAlerts()
    for seq, (t, data) in enumerate(d.entries, start=1):
        queue.apply(seq, 0, t, data)
    assert STOOD_TITLE in [a.title for a in queue.open_alerts()]


def test_the_penalty_of_an_illegal_move_that_stood_is_closed_as_no_longer_due():
    """Issue 29, kind 4. A.5.2: "If the arbiter observes an action taken under Article 7.5.1 ... he/she
    shall act according to Article 7.5.5, provided the opponent has not made his/her next move ...
    If the opponent does not claim and the arbiter does not intervene, the illegal move shall stand".
    F05 (a) in blitz (B.3): the one minute (A.3) proposed at White's press is no longer due once
    Black replies: ``penalty_withdrawn`` (ground "stood", A.5.2), White's offence no longer counted
    (his next completed illegal move is a first, not a loss: 7.5.5), the arbiter's proposal alert
    closed, and apply_penalty refused for it."""
    d = Driver("1", config=event("blitz", "180+2"), time_control="180+2", kind="blitz")
    f05(d, 3 * MIN, 3 * MIN)
    [proposed] = d.of("penalty_proposed")
    assert (proposed["add_ms"], proposed["offence_no"]) == (MIN, 1)
    d.move("1", "b8c6")
    [withdrawn] = d.of("penalty_withdrawn")
    assert (withdrawn["ground"], withdrawn["law"], withdrawn["side"], withdrawn["presses"]) == (
        "stood", "FIDE Laws A.5.2", "white", proposed["presses"])
    g = d.hall.state.games["1-1"]
    assert g.offences["white"] == {} and [p.status for p in g.proposals] == ["withdrawn"]
    queue = FoldedAlerts()
    for seq, (t, data) in enumerate(d.entries, start=1):
        queue.apply(seq, 0, t, data)
    [alert] = [a for a in queue.alerts.values() if a.kind == "penalty_proposed"]
    assert alert.status == "withdrawn"
    assert not [a for a in queue.open_alerts() if a.kind == "penalty_proposed"]
    act(d, "pause", {"game": "1-1"})
    with pytest.raises(ActionError, match="no penalty is proposed for black"):
        act(d, "apply_penalty", {"game": "1-1", "side": "black", "add_ms": 2 * MIN})
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


def test_an_illegal_move_that_leaves_its_own_king_in_check_never_stands():
    """A.5.4: "If the arbiter observes both kings are in check, or a pawn stands on the rank furthest
    from its starting position, he/she shall wait until the next move is completed. Then, if an
    illegal position is still on the board, he/she shall declare the game drawn." The gateway never
    lets such a position stand: in blitz (B.3), after 1.e4 e5 2.d4 Bb4+, White's 3.Nf3?? leaves his
    king in check (3.9.2); the press completes it, Black replies, and the board stays held for the
    arbiter (A.5.2 lets stand only a position the game can go on from)."""
    d = Driver("1", config=event("blitz", "180+2"), time_control="180+2", kind="blitz")
    d.clock("1", "start", 3 * MIN, 3 * MIN, "white")
    for move, white_ms, black_ms, running in (("e2e4", 3 * MIN, 3 * MIN, "black"), ("e7e5", 3 * MIN, 3 * MIN, "white"),
                                              ("d2d4", 3 * MIN, 3 * MIN, "black"), ("f8b4", 3 * MIN, 3 * MIN, "white")):
        d.move("1", move)
        d.clock("1", "press", white_ms, black_ms, running)
    d.move("1", "g1f3")  # leaves White's king in the bishop's check: illegal (3.9.2)
    d.clock("1", "press", 3 * MIN - 1000, 3 * MIN, "black")
    [proposed] = d.of("penalty_proposed")
    d.move("1", "b8c6")
    g = d.hall.state.games["1-1"]
    assert g.moves == ["e2e4", "e7e5", "d2d4", "f8b4"] and d.hall.state.boards["1"].held
    assert not [m for m in d.of("move_played") if m.get("illegal")] and d.of("penalty_withdrawn") == []
    assert proposed["side"] == "white"
