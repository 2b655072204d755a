"""The penalty proposed at a press in doubt (``services.state.fold_penalties``): it stands when the
press completed the illegal move; when the record can also read the press as the replacement
move's, it stays proposed, marked in doubt (``penalty_in_doubt``), until the arbiter decides (issue
29, kind 2: it used to be withdrawn by itself); a proposal the arbiter withdraws
(``withdraw_penalty``: ``penalty_withdrawn``) is no offence for FIDE Laws 7.5.5.

FIDE Laws 7.5.1: "An illegal move is completed once the player has pressed his/her clock." 7.5.5:
"for the first completed illegal move by a player, the arbiter shall give two minutes extra time to
his/her opponent; for the second completed illegal move by the same player the arbiter shall
declare the game lost by this player" (quoted in services/rules/penalties.py). The gateway sees
"illegal move, press, replacement" both when the press completed the illegal move (the player then
presses again for the replacement) and when the board's message of the replacement came late
(``devices.station``: ``--fault illegal --fault out_of_order``); it proposes at the press, and the
record settles it later where it can: the same side's next press first (completed); the opponent's
ply first fits both, so the arbiter decides. Games: FIDE Candidates 2024, round 5
(``candidates_r5.source_games``); field case F05 (b) for 7.5.2.
"""

from __future__ import annotations

import chess
import chess.pgn
import pytest
from alert_feed import FoldedAlerts
from candidates_r5 import START_MS, source_games
from field_case_f05 import f05
from hall_driver import Driver, act

from dashboard.arbiter.actions import ActionError
from devices.station import FAULT_PLY, _illegal_move
from services.views.alert import Alert
from services.views.alerts import WITHDRAWN_APPLIED_TITLE, WITHDRAWN_TITLES

REORDERED = "illegal, press, replacement"  # the replacement's board message behind its press
ORDINARY = "illegal, press, replacement, press"  # the press completed the illegal move (7.5.1)
TWO_MIN = 120_000  # 7.5.5, standard play (the Driver's 90 min + 30 s)


def play(game: chess.pgn.Game, faults: dict[int, str], upto: int | None = None,
         after: dict | None = None) -> tuple[Driver, dict]:
    """Replay ``game`` (its first ``upto`` plies) as the devices send it, with an illegal king move
    (``_illegal_move``) before the real move at each ply of ``faults``, arriving in that order;
    returns the driver and, per ply of ``faults``, the entries its first press gave. The presses
    read the source's %clk; in ``ORDINARY`` both presses of the ply do (the time between them is
    not in the source, and the second takes the first's place in the record). ``after``: ply ->
    ``f(d)``, called once that ply is played (an arbiter's action)."""
    d, at_press = Driver("1"), {}
    clocks = {"white": START_MS, "black": START_MS}
    d.clock("1", "start", START_MS, START_MS, "white")
    board = game.board()
    for number, node in enumerate(game.mainline(), start=1):
        if upto is not None and number > upto:
            break
        side = "white" if board.turn == chess.WHITE else "black"
        clocks[side] = int(node.clock() * 1000)
        running = "black" if side == "white" else "white"

        def press():
            return d.clock("1", "press", clocks["white"], clocks["black"], running)

        order = faults.get(number)
        if order is None:
            d.move("1", node.move.uci())
            press()
        else:
            d.move("1", _illegal_move(board))
            at_press[number] = press().entries
            d.move("1", node.move.uci(), after_ms=11)
            if order == ORDINARY:
                press()
        board.push(node.move)
        if after and number in after:
            after[number](d)
    return d, at_press


def queue_of(d: Driver) -> FoldedAlerts:
    """The arbiters' alert queue over the log so far."""
    queue = FoldedAlerts()
    for seq, ((t, data), at) in enumerate(zip(d.entries, d.stamps), start=1):
        queue.apply(seq, at, t, data)
    return queue


def offender(number: int) -> str:
    """The side that makes ply ``number`` (White the odd plies: the games start from the standard position)."""
    return "white" if number % 2 else "black"


def withdraw(d: Driver, side: str, presses: int | None = None):
    """The arbiter's ``withdraw_penalty`` (the console's action, judged on the hall's state)."""
    body = {"game": "1-1", "side": side, **({"presses": presses} if presses is not None else {})}
    return act(d, "withdraw_penalty", body)


@pytest.mark.parametrize("index", range(4))
def test_a_press_that_may_be_the_replacements_stays_proposed_until_the_arbiter_decides(index):
    """The replacement's board message behind its press: the record fits a press that completed the
    replacement as well as one that completed the illegal move (7.5.1). The proposal made at the
    press stays open and counted; at the opponent's next ply it is marked in doubt
    (``penalty_in_doubt``, a warning for the arbiter), once; the press is the replacement's in the
    per-ply clocks. The arbiter withdraws it: ``penalty_withdrawn`` (ground "arbiter"), no offence
    counted, the proposal closed as withdrawn. A restarted gateway holds the same state."""
    game = source_games()[index]
    d, _ = play(game, {FAULT_PLY: REORDERED})
    side = offender(FAULT_PLY)
    g = d.hall.state.games["1-1"]
    assert g.offences[side] == {"illegal_move": 1}
    assert g.clocks == [int(n.clock() * 1000) for n in game.mainline()]
    [proposed] = d.of("penalty_proposed")
    [doubt] = d.of("penalty_in_doubt")
    assert (doubt["side"], doubt["presses"], doubt["ply"]) == (side, proposed["presses"], FAULT_PLY + 1)
    assert d.of("penalty_withdrawn") == []
    queue = queue_of(d)
    [alert] = [a for a in queue.open_alerts() if a.kind == "penalty_proposed"]
    assert [a.severity for a in queue.open_alerts() if a.kind == "penalty_in_doubt"] == ["warning"]
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches
    withdraw(d, side)
    [withdrawn] = d.of("penalty_withdrawn")
    assert (withdrawn["side"], withdrawn["offence"], withdrawn["offence_no"], withdrawn["presses"], withdrawn["ground"],
            withdrawn["by"]) == (side, "illegal_move", proposed["offence_no"], proposed["presses"], "arbiter", "chief")
    assert d.hall.state.games["1-1"].offences == {"white": {}, "black": {}}
    queue = queue_of(d)
    assert queue.alerts[alert.id].status == "withdrawn"
    [notice] = [a for a in queue.alerts.values() if a.kind == "penalty_withdrawn"]
    assert (notice.severity, notice.title) == ("info", WITHDRAWN_TITLES["arbiter"])
    assert not [a for a in queue.open_alerts() if a.kind in ("penalty_proposed", "penalty_in_doubt")]
    with pytest.raises(ActionError, match="no penalty proposed for .* is left to withdraw"):
        withdraw(d, side)  # once
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


def test_a_penalty_in_doubt_is_superseded_with_its_proposal_when_the_game_ends():
    """Fresh-user report #6 (``venue simulate --fault illegal --fault out_of_order``): the game ends
    by the board's result while the proposal and its doubt are open. docs/arbiter.md: "when a game
    ends, its open alerts that the end makes moot (... a penalty proposal) close as **superseded**":
    the doubt is about that very proposal ("the arbiter decides: **Apply** it, or withdraw it"), so
    it closes with it. Game: Candidates 2024 round 5, board 2 (Firouzja - Nakamura), the PGN's 0-1
    (the PGN has no reason; "resignation" as in the report)."""
    game = source_games()[1]
    d, _ = play(game, {FAULT_PLY: REORDERED})
    queue = queue_of(d)
    assert sorted(a.kind for a in queue.open_alerts() if a.kind.startswith("penalty")) == ["penalty_in_doubt",
                                                                                         "penalty_proposed"]
    d.send("1", "result", {"result": game.headers["Result"], "reason": "resignation"})
    [ended] = d.of("game_ended")
    assert (ended["result"], ended["termination"]) == ("0-1", "resignation")
    queue = queue_of(d)
    fates = {a.kind: (a.status, a.resolution["note"]) for a in queue.alerts.values() if a.kind.startswith("penalty")}
    assert fates == {"penalty_proposed": ("superseded", "superseded: its game ended"),
                     "penalty_in_doubt": ("superseded", "superseded: its game ended")}


def test_f05b_a_promotion_pressed_without_its_piece_keeps_its_penalty_when_the_arbiter_puts_the_queen():
    """Issue 29, kind 2, field case F05 (b): FEN 8/4P1k1/8/8/8/8/6K1/8 w - - 0 60, the e-board reports
    e7e8 with no piece swapped in, White presses: "If the player has moved a pawn to the furthest
    distant rank, pressed the clock, but not replaced the pawn with a new piece, the move is
    illegal. The pawn shall be replaced by a queen" (7.5.2), two minutes to Black (7.5.5). The
    arbiter puts the queen down (the board reports e7e8q) and Black plays on: the proposal stays
    open (it was withdrawn by itself before), marked in doubt; the arbiter applies it."""
    d = Driver("1", fen="8/4P1k1/8/8/8/8/6K1/8 w - - 0 60")
    d.clock("1", "start", 90 * MIN, 90 * MIN, "white")
    d.move("1", "e7e8")
    d.clock("1", "press", 90 * MIN - 4000, 90 * MIN, "black")
    [proposed] = d.of("penalty_proposed")
    assert (proposed["side"], proposed["to"], proposed["add_ms"], proposed["move"]) == ("white", "black", TWO_MIN, "e7e8")
    act(d, "pause", {"game": "1-1"})
    d.move("1", "e7e8q")  # the arbiter's queen (7.5.2)
    act(d, "resume", {"game": "1-1"})
    d.move("1", "g7f6")
    d.clock("1", "press", 90 * MIN - 4000, 90 * MIN - 3000, "white")
    assert d.hall.state.games["1-1"].moves == ["e7e8q", "g7f6"]
    assert d.of("penalty_withdrawn") == [] and len(d.of("penalty_in_doubt")) == 1
    assert d.hall.state.games["1-1"].offences["white"] == {"illegal_move": 1}
    alert = next(a for a in queue_of(d).open_alerts() if a.kind == "penalty_proposed")
    act(d, "pause", {"game": "1-1"})
    [(t, adjusted)] = act(d, "apply_penalty", {"game": "1-1", "side": "black", "add_ms": TWO_MIN, "alert": alert.id})
    assert adjusted["black_ms"] == 90 * MIN - 3000 + TWO_MIN and adjusted["ruling"]["evidence"]["proposal"]["doubt"]
    assert [p.status for p in d.hall.state.games["1-1"].proposals] == ["applied"]


@pytest.mark.parametrize("index", range(4))
def test_a_press_that_completed_the_illegal_move_is_proposed_at_once_and_stands(index):
    """The ordinary order (7.5.1: the press completed the illegal move, the player then replaced it
    and pressed again): proposed at the press itself, two minutes to the opponent (7.5.5), counted,
    never withdrawn; every ply's clock is still the source's %clk."""
    game = source_games()[index]
    d, at_press = play(game, {FAULT_PLY: ORDINARY})
    side = offender(FAULT_PLY)
    [proposed] = [data for t, data in at_press[FAULT_PLY] if t == "penalty_proposed"]
    assert (proposed["side"], proposed["offence_no"], proposed["add_ms"], proposed["game_lost"]) == (
        side, 1, TWO_MIN, False)
    assert d.of("penalty_proposed") == [proposed] and d.of("penalty_withdrawn") == d.of("penalty_in_doubt") == []
    g = d.hall.state.games["1-1"]
    assert g.offences[side] == {"illegal_move": 1}
    assert g.clocks == [int(n.clock() * 1000) for n in game.mainline()]
    assert [a.status for a in queue_of(d).alerts.values() if a.kind == "penalty_proposed"] == ["open"]
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


@pytest.mark.parametrize("index", range(4))
def test_the_second_completed_illegal_move_loses_and_a_withdrawn_one_is_not_counted(index):
    """The same player: a reordered press at ply 6 (in doubt; the arbiter withdraws it), completed
    illegal moves at plies 8 and 10. The first completed one gives the opponent two minutes (offence
    1, 7.5.5), the second loses the game (offence 2); the opponent has all its men, so it can mate
    (the result is a win for the opponent, not a draw)."""
    game = source_games()[index]
    side = offender(FAULT_PLY)
    d, _ = play(game, {FAULT_PLY: REORDERED, FAULT_PLY + 2: ORDINARY, FAULT_PLY + 4: ORDINARY}, upto=FAULT_PLY + 5,
                after={FAULT_PLY + 1: lambda d: withdraw(d, side)})
    _, first, second = d.of("penalty_proposed")
    assert (first["offence_no"], first["add_ms"], first["game_lost"]) == (1, TWO_MIN, False)
    assert (second["offence_no"], second["game_lost"], second["result"]) == (2, True, "0-1" if side == "white" else "1-0")
    assert d.hall.state.games["1-1"].offences[side] == {"illegal_move": 2}
    assert len(d.of("penalty_withdrawn")) == 1
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches


MIN = 60_000


def applied_then_in_doubt() -> tuple[Driver, Alert]:
    """F05 (a) in standard play: the arbiter applies the two minutes proposed (the clocks paused,
    FIDE Laws 6.11), then the replacement's message comes late and Black's reply puts the press in
    doubt (7.5.1). Returns the driver and the proposal's alert."""
    d = Driver("1")
    f05(d, 90 * MIN, 90 * MIN)
    [p] = d.of("penalty_proposed")
    alert = next(a for a in queue_of(d).open_alerts() if a.kind == "penalty_proposed")
    act(d, "pause", {"game": "1-1"})
    act(d, "apply_penalty", {"game": "1-1", "side": p["to"], "add_ms": p["add_ms"], "alert": alert.id})
    d.move("1", "e1e2", after_ms=11)
    d.move("1", "b8c6")
    return d, alert


def test_a_proposal_already_applied_then_withdrawn_asks_the_arbiter_to_act():
    """F05 (a) in standard play with the replacement's message late: the arbiter applied the two
    minutes; Black's reply then puts the press in doubt (it may have been the replacement's, 7.5.1).
    The arbiter withdraws the proposal: the withdrawal is an action alert, since the time added has
    no illegal move behind it (set the clocks back)."""
    d, alert = applied_then_in_doubt()
    assert queue_of(d).alerts[alert.id].status == "resolved"
    [doubt] = d.of("penalty_in_doubt")
    assert (doubt["side"], doubt["move"], doubt["presses"]) == ("white", "e1e3", 2)
    assert d.hall.state.games["1-1"].offences["white"] == {"illegal_move": 1}  # until the arbiter decides
    withdraw(d, "white")
    assert d.hall.state.games["1-1"].offences == {"white": {}, "black": {}}
    [withdrawn] = d.of("penalty_withdrawn")
    assert (withdrawn["side"], withdrawn["move"], withdrawn["presses"]) == ("white", "e1e3", 2)
    queue = queue_of(d)
    [notice] = [a for a in queue.open_alerts() if a.kind == "penalty_withdrawn"]
    assert (notice.severity, notice.title) == ("action", WITHDRAWN_APPLIED_TITLE)
    assert queue.alerts[alert.id].status == "withdrawn"


def test_a_doubt_about_a_penalty_already_applied_stays_open_after_the_game_ends():
    """As above, the two minutes applied, then the doubt; the game then ends (the arbiter's slip,
    0-1). Withdrawing an applied proposal asks to set the clocks or the result back (the test above),
    and docs/arbiter.md keeps "a withdrawn penalty that had been applied" open past the round (it
    "may still change a result or the record"): the doubt that may lead to it is not moot at the end."""
    d, _ = applied_then_in_doubt()
    act(d, "set_result", {"game": "1-1", "result": "0-1"})
    assert d.hall.state.games["1-1"].ended
    assert [a.kind for a in queue_of(d).open_alerts() if a.kind.startswith("penalty")] == ["penalty_in_doubt"]


def test_a_gateway_restarted_before_the_doubt_was_said_says_it():
    """A log that settled the press in doubt without the ``penalty_in_doubt`` (a gateway stopped
    between the two appends): the restarted gateway says it on its first tick (the state says it is
    owed), once; the proposal stays counted."""
    d, _ = play(source_games()[0], {FAULT_PLY: REORDERED}, upto=FAULT_PLY + 1)
    at = d.types().index("penalty_in_doubt")
    del d.entries[at], d.stamps[at]
    fresh = d.rebuilt()
    assert fresh.state.games["1-1"].offences[offender(FAULT_PLY)] == {"illegal_move": 1}
    step = fresh.tick(d.now + 200)
    assert [t for t, _ in step.entries] == ["penalty_in_doubt"]
    assert fresh.state.games["1-1"].offences[offender(FAULT_PLY)] == {"illegal_move": 1}
    assert fresh.tick(d.now + 400).entries == []


@pytest.mark.parametrize("index", range(4))
def test_a_loss_declared_on_a_proposal_then_withdrawn_asks_the_arbiter_to_act(index):
    """A completed illegal move at ply 6 (offence 1), then at ply 8 one whose press may be the
    replacement's: the proposal made at that press says the game is lost (7.5.5, the second); the
    arbiter declares it; the opponent's press then puts the press in doubt; the arbiter withdraws
    the proposal (7.5.1): the withdrawal asks the arbiter to set the result back."""
    d, _ = play(source_games()[index], {FAULT_PLY: ORDINARY, FAULT_PLY + 2: REORDERED}, upto=FAULT_PLY + 2)
    _, lost = d.of("penalty_proposed")
    assert lost["game_lost"] and lost["offence_no"] == 2
    alert = next(a for a in queue_of(d).open_alerts() if a.kind == "penalty_proposed" and a.evidence["game_lost"])
    act(d, "set_result", {"game": "1-1", "result": lost["result"], "alert": alert.id})
    g = d.hall.state.games["1-1"]
    d.clock("1", "press", g.clock.white_ms, g.clock.black_ms, lost["side"])  # the opponent's
    assert d.of("penalty_withdrawn") == []
    withdraw(d, lost["side"], lost["presses"])
    [withdrawn] = d.of("penalty_withdrawn")
    assert (withdrawn["offence_no"], withdrawn["presses"]) == (2, lost["presses"])
    assert d.hall.state.games["1-1"].offences[lost["side"]] == {"illegal_move": 1}
    queue = queue_of(d)
    [notice] = [a for a in queue.open_alerts() if a.kind == "penalty_withdrawn"]
    assert (notice.severity, notice.title) == ("action", WITHDRAWN_APPLIED_TITLE)
    assert (again := d.rebuilt()).state.snapshot() == d.hall.state.snapshot() and again.watches == d.hall.watches
