"""The Laws at their edges live over MQTT (issues 12 and 29): flag falls with their evidence, both
flags at 0:00, games set up from a position already over or with a claim open at ply 0, two same-side
reports before one press on move and sensor boards, claims reported in words with the incorrect
claim's penalty; and the decisions made through the console judged by the rules core (claims,
penalties, a promotion pressed without its piece, an illegal move that stood, defaults from evidence
of presence only, move timers by the checkers division).

The real Mosquitto on 127.0.0.1:1883 with both log backends (SQLite in a temporary directory, Redis
on 127.0.0.1:6379): a missing service fails these tests, they never skip. Positions as in the unit
tests (tests/unit/test_gateway_laws.py, test_gateway_compose.py), built from the FIDE Laws and checked
against Ambrona's Chess Unwinnability Analyzer by services/rules' tests.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

import chess
import pytest
from laws_hall import hall, of  # noqa: F401 - hall is a fixture (sqlite and redis)

from dashboard.arbiter.actions import ActionError
from gateway.compose import COMPOSED
from gateway.decide import CLAIM_PASSED, GAME_OVER
from gateway.which_game import ARBITER, HELD
from services.regulations.tournament_file import load_tournament

pytestmark = pytest.mark.live

EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000

ONLY_MOVE_TAKES_THE_QUEEN = "7k/6Q1/8/8/8/8/3r4/K7 b - - 0 50"  # Black's only move Kxg7 leaves a bare king
MATE_FOUND = "k7/8/1K6/8/8/8/8/7R b - - 0 60"  # White mates by Rh8 after ...Kb8
LOCKED = "4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K3 w - - 0 40"  # dead: no king can cross the chain (5.2.2)
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"  # 5.2.1
NINETY_NINE = "4k3/8/8/8/8/8/4P3/R3K3 w Q - 99 80"  # 9.3.1: a fifty-move claim with any quiet move
ROOK = "4k3/4p3/8/8/8/8/4P3/R3K3 w - - 0 30"  # the a1 rook may slide to d1
CASTLE = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 8"


def setup(board: str, fen: str | None) -> dict:
    return {"id": f"1-{board}", "board": board, "round": "1", "white": f"W{board}", "black": f"B{board}",
            "variant": "chess", "time_control": "5400+30", "fen": fen, "kind": "classical"}


def round_started(fens: dict[str, str | None]) -> dict:
    return {"round": "1", "event": "Laws live", "site": "", "date": "2026.01.01",
            "games": [setup(b, fen) for b, fen in fens.items()]}


def placement(fen: str, *ucis: str) -> str:
    board = chess.Board(fen)
    for uci in ucis:
        board.push_uci(uci)
    return board.board_fen()


async def test_flag_falls_carry_the_opponents_verdict(hall):
    """FIDE Laws 6.9: board 1, Black's flag falls where White's only prospect, the queen, is taken by
    force: drawn, proved by the search; board 2, Black's flag falls where White mates (Kb6, Rh1 v
    Ka8): 1-0 with the mating line. Both clocks stop themselves at 0 (``pause``, nothing running)."""
    await hall.log.append("round_started", round_started({"1": ONLY_MOVE_TAKES_THE_QUEEN, "2": MATE_FOUND}))
    async with hall.running():
        for board in ("1", "2"):
            await hall.clock(board, "start", MIN, MIN, "black")
            await hall.clock(board, "pause", MIN, 0, None)
        entries = await hall.entries(lambda es: len(of(es, "game_ended")) == 2)
    ended = {e["game"]: e for e in of(entries, "game_ended")}
    flags = {e["game"]: e for e in of(entries, "flag_fell")}
    assert (ended["1-1"]["result"], ended["1-1"]["termination"]) == ("1/2-1/2", "time_forfeit")
    assert flags["1-1"]["evidence"]["verdict"] == "unwinnable" == ended["1-1"]["evidence"]["verdict"]
    assert ended["1-2"]["result"] == "1-0" and flags["1-2"]["evidence"]["line"] == ["a8b8", "h1h8"]


async def test_start_positions_are_judged_when_the_gateway_starts(hall):
    """A round set up in the log before the gateway runs (a restart does the same): the dead start
    (5.2.2) and the stalemate (5.2.1) end at ply 0; the halfmove clock of 99 offers the fifty-move
    claim at ply 0 (9.3.1); a move on the dead board is answered "game over"."""
    await hall.log.append("round_started", round_started({"1": LOCKED, "2": STALEMATE, "3": NINETY_NINE}))
    async with hall.running():
        entries = await hall.entries(lambda es: len(of(es, "game_ended")) == 2 and of(es, "draw_claimable"))
        await hall.send("1", "move", move="e1d2")
        [answer] = await hall.answered("1", 1)
    ended = {e["game"]: (e["termination"], e["ply"], e["by"]) for e in of(entries, "game_ended")}
    assert ended == {"1-1": ("dead_position", 0, "rules"), "1-2": ("stalemate", 0, "rules")}
    [claims] = of(entries, "draw_claimable", "1-3")
    assert claims["ply"] == 0 and {c["kind"] for c in claims["claims"]} == {"fifty_moves"}
    assert (answer["accepted"], answer["reason"]) == (False, GAME_OVER)


async def test_two_same_side_reports_before_one_press(hall):
    """FIDE Laws 6.2.1 (the press completes the move): a rook slide read as a1-c1 then c1-d1, and
    castling with the rook moved first (h1-f1 then e1-g1), each on a move board (two ``move``
    messages) and on a sensor board (two placements), before the press: the move recorded is the
    one the board shows at the press, and Black's reply follows from the right position."""
    await hall.log.append("round_started", round_started({"1": ROOK, "2": CASTLE, "3": ROOK, "4": CASTLE}))
    async with hall.running():
        for board in "1234":
            await hall.clock(board, "start", 90 * MIN, 90 * MIN, "white")
        await hall.send("1", "move", move="a1c1")
        await hall.send("1", "move", move="c1d1")
        await hall.send("2", "move", move="h1f1")
        await hall.send("2", "move", move="e1g1")
        await hall.send("3", "position", placement=placement(ROOK, "a1c1"))
        await hall.send("3", "position", placement=placement(ROOK, "a1d1"))
        await hall.send("4", "position", placement=_rook_first(CASTLE))
        await hall.send("4", "position", placement=placement(CASTLE, "e1g1"))
        for board in "1234":
            await hall.clock(board, "press", 90 * MIN - 4000, 90 * MIN, "black")
        await hall.send("1", "move", move="e7e6")
        await hall.send("2", "move", move="e8c8")
        await hall.send("3", "position", placement=placement(ROOK, "a1d1", "e7e6"))
        await hall.send("4", "position", placement=placement(CASTLE, "e1g1", "e8c8"))
        entries = await hall.entries(lambda es: sum(e.type == "move_played" and e.data["ply"] == 2 for e in es) == 4)
        feedback = await hall.answered("1", 5)  # the start, a1c1, c1d1, the press, e7e6
    state = await hall.state()
    assert [state.games[f"1-{b}"].moves for b in "1234"] == [
        ["a1d1", "e7e6"], ["e1g1", "e8c8"], ["a1d1", "e7e6"], ["e1g1", "e8c8"]]
    assert [state.games[f"1-{b}"].clocks[0] for b in "1234"] == [90 * MIN - 4000] * 4
    composed = {e["game"]: e for e in of(entries, "move_composed")}
    assert sorted(composed) == ["1-1", "1-2", "1-3"]  # board 4: the rook move waited (``pending``)
    assert composed["1-2"]["san"] == "O-O" and composed["1-3"]["from"] == "position"
    assert not of(entries, "move_rejected")
    assert sorted((f["ref"], f["reason"]) for f in feedback if f["reason"] is not None) == [(2, COMPOSED)]
    assert all(f["accepted"] for f in feedback)


def _rook_first(fen: str) -> str:
    """The placement with White's h1 rook on f1 and the king still on e1 (castling, rook first)."""
    board = chess.Board(fen)
    board.set_piece_at(chess.F1, board.remove_piece_at(chess.H1))
    return board.board_fen()


async def test_claims_in_words_and_the_incorrect_claims_penalty(hall):
    """US 2023 (no draw by agreement: draws only by a claim to the arbiter): a board reports
    1/2-1/2 with the reason "Fifty move rule", then "3-fold" (issue 12's wordings): each is a claim
    passed to the arbiter (``draw_claim_reported``). While the first waits for the arbiter the board
    waits too (docs/protocol.md "Two games on one board": the second report is held,
    ``message_awaiting_game``); the arbiter finds the fifty-move claim incorrect: two minutes for
    the opponent are proposed (FIDE Laws 9.5.3), the game goes on, and the held report is the second
    claim."""
    t = load_tournament((EVENTS / "us-championship-2023.toml").read_text(), "us-championship-2023.toml")
    now = int(time.time() * 1000)  # the round starts now: no one is late (FIDE Laws 6.7.1)
    t = dataclasses.replace(t, slug=hall.slug, rounds=(dataclasses.replace(t.rounds[0], start_ms=now), *t.rounds[1:]))
    await hall.log.append("round_started", {**round_started({"1": None}), "start_ms": now})
    for side in ("white", "black"):
        await hall.log.append("player_arrived", {"game": "1-1", "board": "1", "side": side, "arrived_at": now,
                                                 "by": "chief"})
    async with hall.running(tournament=t):
        await hall.send("1", "move", move="e2e4")
        await hall.send("1", "result", result="1/2-1/2", reason="Fifty move rule")
        await hall.send("1", "result", result="1/2-1/2", reason="3-fold")
        await hall.entries(lambda es: of(es, "message_awaiting_game"))
        await hall.arbiter("reject_claim", {"game": "1-1", "kind": "fifty_moves"})
        entries = await hall.entries(lambda es: len(of(es, "draw_claim_reported")) == 2 and of(es, "penalty_proposed"))
        answers = await hall.answered("1", 4)
    assert [c["kind"] for c in of(entries, "draw_claim_reported")] == ["fifty_moves", "threefold"]
    assert [(a["ref"], a["accepted"], a["reason"]) for a in answers[1:]] == [
        (2, True, CLAIM_PASSED), (3, True, HELD[ARBITER]), (3, True, CLAIM_PASSED)]
    assert not of(entries, "game_ended")
    [penalty] = of(entries, "penalty_proposed")
    assert (penalty["side"], penalty["to"], penalty["add_ms"], penalty["law"]) == ("black", "white", 120_000,
                                                                                   "FIDE Laws 9.5.3")


# ----- issue 29: the Laws at their edges, second pass ------------------------------------------------
NINETY_NINE_WITH_A_CAPTURE = "k7/8/1K6/7r/8/8/8/7R w - - 99 80"  # F03 (a) with a black rook on h5
F05B = "8/4P1k1/8/8/8/8/6K1/8 w - - 0 60"  # field case F05 (b): a promotion pressed without its piece
EVENTS_DIR = EVENTS


def event_file(name: str, start_ms: int | None = None, end_ms: int | None = None):
    """A preset of events/, its round 1 rescheduled to start at ``start_ms`` and end at ``end_ms``."""
    t = load_tournament((EVENTS_DIR / name).read_text(), name)
    if start_ms is None:
        return t
    r1 = dataclasses.replace(t.rounds[0], start_ms=start_ms, end_ms=end_ms)
    return dataclasses.replace(t, rounds=(r1, *t.rounds[1:]))


def controlled(fens: dict[str, tuple[str | None, str, str]]) -> dict:
    """``round_started`` data: per board ``(fen, time_control, kind)``."""
    data = round_started({b: fen for b, (fen, _, _) in fens.items()})
    for g in data["games"]:
        _, control, kind = fens[g["board"]]
        g.update(time_control=control, kind=kind)
    return data


async def test_both_flags_at_zero_live(hall):
    """Issue 29, kind 1 (FIDE Laws 6.8, 6.10.1, 6.11; Guidelines III.2.1, III.2.2, III.3.1): US 2023's
    file with Guidelines III announced (a constructed event). Each clock stops at 0:00 / 0:00 with
    neither side at 0 the reading before. Board 1, G/90 without increment, all moves in one period:
    drawn (III.3.1.2); board 2, 40 moves in 90 min then 30 min, in the first period: the game
    continues (III.3.1.1); board 3, 90 + 30 s (an increment, III.2.2): the arbiter decides. Each is
    recorded (``both_flags_fell``) and none is left "playing" unsaid."""
    now = int(time.time() * 1000)  # the round starts now: no one is late (FIDE Laws 6.7.1)
    t = event_file("us-championship-2023.toml", now)
    t = dataclasses.replace(t, regulations=dataclasses.replace(t.regulations, guidelines_iii=True))
    await hall.register(t)
    await hall.log.append("round_started", {**controlled({"1": (None, "5400", "classical"),
                                                          "2": (None, "40/5400:1800", "classical"),
                                                          "3": (None, "5400+30", "classical")}), "start_ms": now})
    async with hall.running(tournament=t):
        for board in "123":
            await hall.clock(board, "start", 90 * MIN, 90 * MIN, "white")
            await hall.send(board, "move", move="e2e4")
            await hall.clock(board, "press", 400, 700, "black")
            await hall.clock(board, "pause", 0, 0, None)
        entries = await hall.entries(lambda es: len(of(es, "both_flags_fell")) == 3 and of(es, "game_ended"))
    rulings = {e["game"]: (e["ruling"], e["law"]) for e in of(entries, "both_flags_fell")}
    assert rulings["1-1"] == ("drawn", "FIDE Laws Guidelines III.3.1.2")
    assert rulings["1-2"] == ("continue", "FIDE Laws Guidelines III.3.1.1")
    assert rulings["1-3"][0] == "arbiter" and "III.2.2" in rulings["1-3"][1]
    [end] = of(entries, "game_ended")
    assert (end["game"], end["result"], end["termination"]) == ("1-1", "1/2-1/2", "time_forfeit")
    assert not of(entries, "flag_fell")


async def test_claims_and_penalties_judged_through_the_console_live(hall):
    """Issue 29, kind 5. 9.3.1: a fifty-move claim naming a capture (Rxh5) is incorrect: the
    console's accept is refused with the reason; its reject is recorded with the verdict and the
    gateway answers with 9.5.3's two minutes for Black; applied on the paused clock (judged: the
    proposal's amount). The claim with a quiet move (Rh2) is correct: accepted, drawn."""
    await hall.log.append("round_started", round_started({"1": NINETY_NINE_WITH_A_CAPTURE}))
    async with hall.running():
        await hall.clock("1", "start", 30 * MIN, 30 * MIN, "white")
        await hall.entries(lambda es: of(es, "clock_started"))
        with pytest.raises(ActionError, match=r"the fifty_moves claim is incorrect: the intended move h1h5 is a pawn "
                                              r"move or a capture"):
            await hall.arbiter("accept_claim", {"game": "1-1", "kind": "fifty_moves", "by_move": "h1h5"})
        await hall.arbiter("reject_claim", {"game": "1-1", "kind": "fifty_moves", "by_move": "h1h5"})
        entries = await hall.entries(lambda es: of(es, "penalty_proposed"))
        [penalty] = of(entries, "penalty_proposed")
        assert (penalty["side"], penalty["to"], penalty["add_ms"], penalty["law"]) == (
            "white", "black", 120_000, "FIDE Laws 9.5.3")
        await hall.arbiter("pause", {"game": "1-1"})
        with pytest.raises(ActionError, match="the penalty proposed gives black 120000 ms, not 60000"):
            await hall.arbiter("apply_penalty", {"game": "1-1", "side": "black", "add_ms": 60_000})
        await hall.arbiter("apply_penalty", {"game": "1-1", "side": "black", "add_ms": 120_000})
        await hall.arbiter("resume", {"game": "1-1"})
        await hall.arbiter("accept_claim", {"game": "1-1", "kind": "fifty_moves", "by_move": "h1h2"})
        entries = await hall.entries(lambda es: of(es, "game_ended"))
    [decided_wrong, decided] = of(entries, "draw_claim_decided")
    assert decided_wrong["ruling"]["law"] == "FIDE Laws 9.3.1, 9.5" and decided["ruling"]["law"] == "FIDE Laws 9.3.1"
    [adjusted] = of(entries, "clock_adjusted")
    assert adjusted["black_ms"] == 30 * MIN + 120_000 and adjusted["ruling"]["law"] == "FIDE Laws 9.5.3"
    [end] = of(entries, "game_ended")
    assert (end["result"], end["termination"]) == ("1/2-1/2", "fifty_moves")


async def test_a_promotion_pressed_without_its_piece_keeps_its_penalty_live(hall):
    """Issue 29, kind 2, field case F05 (b): e7e8 with no piece swapped in and White presses: 7.5.2,
    two minutes to Black (7.5.5). The arbiter pauses, puts the queen down (the board reports e7e8q)
    and restarts; Black plays on. The proposal stays open, marked in doubt (it used to be withdrawn
    by itself as "the press was the replacement move's"); the arbiter applies it."""
    await hall.log.append("round_started", round_started({"1": F05B}))
    async with hall.running():
        await hall.clock("1", "start", 90 * MIN, 90 * MIN, "white")
        await hall.send("1", "move", move="e7e8")
        await hall.clock("1", "press", 90 * MIN - 4000, 90 * MIN, "black")
        await hall.entries(lambda es: of(es, "penalty_proposed"))
        await hall.arbiter("pause", {"game": "1-1"})
        await hall.send("1", "move", move="e7e8q")
        await hall.entries(lambda es: of(es, "move_played"))
        await hall.arbiter("resume", {"game": "1-1"})
        await hall.send("1", "move", move="g7f6")
        await hall.clock("1", "press", 90 * MIN - 4000, 90 * MIN - 3000, "white")
        entries = await hall.entries(lambda es: of(es, "penalty_in_doubt"))
        await hall.arbiter("pause", {"game": "1-1"})
        await hall.arbiter("apply_penalty", {"game": "1-1", "side": "black", "add_ms": 120_000})
        entries = await hall.entries(lambda es: of(es, "clock_adjusted"))
    assert [m["move"] for m in of(entries, "move_played")] == ["e7e8q", "g7f6"]
    [proposed] = of(entries, "penalty_proposed")
    assert (proposed["side"], proposed["move"], proposed["law"]) == ("white", "e7e8", "FIDE Laws 7.5.1, 7.5.5")
    assert not of(entries, "penalty_withdrawn")
    [adjusted] = of(entries, "clock_adjusted")
    assert adjusted["ruling"]["evidence"]["proposal"]["doubt"] is True


async def test_the_penalty_of_an_illegal_move_that_stood_is_closed_live(hall):
    """Issue 29, kind 4. A.5.2 (blitz under B.3, the default): F05 (a) in 3 min + 2 s: White's e1e3
    is completed by the press (one minute proposed, A.3); Black replies b8c6 without a claim: the
    illegal move stands, and the penalty is no longer due: ``penalty_withdrawn`` ground "stood"."""
    await hall.log.append("round_started", controlled({"1": (None, "180+2", "blitz")}))
    async with hall.running():
        await hall.clock("1", "start", 3 * MIN, 3 * MIN, "white")
        for move, white_ms, black_ms, running in (("e2e4", 3 * MIN - 1000, 3 * MIN, "black"),
                                                  ("e7e5", 3 * MIN - 1000, 3 * MIN - 1000, "white"),
                                                  ("e1e3", 3 * MIN - 3000, 3 * MIN - 1000, "black")):
            await hall.send("1", "move", move=move)
            await hall.clock("1", "press", white_ms, black_ms, running)
        await hall.entries(lambda es: of(es, "penalty_proposed"))
        await hall.send("1", "move", move="b8c6")
        entries = await hall.entries(lambda es: of(es, "penalty_withdrawn"))
    [proposed] = of(entries, "penalty_proposed")
    [withdrawn] = of(entries, "penalty_withdrawn")
    assert (proposed["add_ms"], withdrawn["ground"], withdrawn["law"]) == (60_000, "stood", "FIDE Laws A.5.2")
    assert [m["move"] for m in of(entries, "move_played")][-2:] == ["e1e3", "b8c6"]


async def test_presence_only_from_evidence_live(hall):
    """Issue 29, kind 6. US 2023 rule 1 (the preset's 30-minute default time; FIDE Laws 6.7.1) with
    the round started 29 min 57 s ago: both clocks are started for White at the start (6.6). On
    board 1 White plays 1.e4 and presses; Black never comes: Black is defaulted (1-0). On board 2
    nobody comes: both are (0-0). Nothing records Black as present from White's clock start."""
    now = int(time.time() * 1000)
    start = now - 30 * MIN + 3000
    t = event_file("us-championship-2023.toml", start)
    await hall.register(t)
    await hall.log.append("round_started", {**round_started({"1": None, "2": None}), "start_ms": start})
    async with hall.running(tournament=t):
        for board in "12":
            await hall.clock(board, "start", 90 * MIN, 90 * MIN, "white")
        await hall.send("1", "move", move="e2e4")
        await hall.clock("1", "press", 90 * MIN - 2000, 90 * MIN, "black")
        entries = await hall.entries(lambda es: len(of(es, "default_forfeit")) == 2, timeout=20)
    assert not of(entries, "presence_noted")
    forfeits = {e["game"]: (e["side"], e["result"]) for e in of(entries, "default_forfeit")}
    assert forfeits == {"1-1": ("black", "1-0"), "1-2": ("both", "0-0")}


def checkers_round(board: str = "1") -> dict:
    data = round_started({board: None})
    data["games"][0].update(variant="checkers", time_control="-", kind="classical")
    return data


async def test_move_timers_by_division_through_the_console_live(hall):
    """Issue 29, kind 7. The Master division's file (X.A.i: "not subject to the One-Minute Rule"):
    the console's one-minute rule is refused, quoting it, and nothing is recorded. The Major and
    Minor divisions' file (X.B.a): the five-minute rule for White after Red's first move is judged,
    recorded with its ruling, and the gateway keeps it (its warning is what the unit tests time)."""
    master = event_file("checkers-11-man-national-2017.toml")
    await hall.register(master)
    await hall.log.append("round_started", checkers_round())
    async with hall.running(tournament=master):
        await hall.send("1", "move", move="11-15")
        await hall.entries(lambda es: of(es, "move_played"))
        with pytest.raises(ActionError, match=r"provide no one-minute rule .*X\.A\.i"):
            await hall.arbiter("start_move_timer", {"game": "1-1", "rule": "one_minute"})
    assert not of(await hall.log.read(), "move_timer_started")


async def test_move_timers_in_the_major_and_minor_divisions_live(hall):
    """X.B.a: "the ordinary five-minute rule shall apply to timing moves" in the Major and Minor
    divisions: the referee's five-minute rule for White after Red's first move is judged and recorded
    with its ruling, and the gateway's state holds it; before Red's first move it is refused (a game
    not started is X.B.e's)."""
    now = int(time.time() * 1000)  # a 4-hour round from now (X.B.e: no late start)
    minor = event_file("checkers-11-man-national-2017-major-minor.toml", now, now + 240 * MIN)
    await hall.register(minor)
    await hall.log.append("round_started", {**checkers_round(), "start_ms": now, "end_ms": now + 240 * MIN})
    async with hall.running(tournament=minor) as gateway:
        with pytest.raises(ActionError, match="1-1 has not started"):
            await hall.arbiter("start_move_timer", {"game": "1-1", "rule": "five_minute"})
        await hall.send("1", "move", move="11-15")
        await hall.entries(lambda es: of(es, "move_played"))
        await hall.arbiter("start_move_timer", {"game": "1-1", "rule": "five_minute"})
        entries = await hall.entries(lambda es: of(es, "move_timer_started"))
        await eventually_timer(gateway)
    [started] = of(entries, "move_timer_started")
    assert started["side"] == "white" and started["ruling"]["law"].startswith("11-Man National 2017 X.B.a")


async def eventually_timer(gateway, timeout: float = 10.0) -> None:
    """Until the gateway has folded the referee's timer for game 1-1 (it follows the log)."""
    async with asyncio.timeout(timeout):
        while gateway.hall.state.games["1-1"].timer is None:
            await asyncio.sleep(0.05)
