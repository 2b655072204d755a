"""Two games on one board, live over MQTT (issue 25): the real Mosquitto on 127.0.0.1:1883 with both
log backends (SQLite in a temporary directory, Redis on 127.0.0.1:6379); a missing service fails
these tests, they never skip. Which game each message belongs to is decided by recorded boundaries
(``device_game_began``), the messages that cannot be placed yet wait in the log
(``message_awaiting_game``): docs/protocol.md "Two games on one board".

The games:

- the classical game: FIDE Candidates 2024, round 1, Abasov - Nepomniachtchi (the second game of
  ../shared/data/chess/fide_candidates_2024_open.pgn), 67 plies to a position Black can claim as a
  threefold repetition, ``[%clk]`` after every ply (the clock's figures), played under
  events/norway-chess-2023.toml: "If the classical game is drawn, an Armageddon game will be played
  ... The time control for the Armageddon game: white has 10 minutes and black has 7 minutes";
- the Armageddon: FIDE World Cup 2025, round 2.8 (blitz), Idani - Karthikeyan, 1-0, 55 plies, 1.e4
  (../shared/data/chess/fide_world_cup_2025.pgn), its clocks the game's ``[%clk]`` moved from its 5
  minutes to Norway's 10 and 7 (each side's time used is the game's); it ends with Black's
  resignation (the board's result, 1-0), as the game did (the record's last move is no mate);
- the checkers match: London 1992 games 25 and 26 (venue/data/tinsley_chinook_1992.pdn, ballot 15),
  the clock figures the simulated station's (``devices.checkers_script.match_scripts``), 11-Man
  National 2017 X.A.b.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import time
from pathlib import Path

import chess.pgn
import pytest
from laws_hall import Hall, hall, of
from match_gateway import BALLOT, GAME_25, GAME_26

from devices.checkers_script import match_scripts
from services.regulations.tournament_file import load_tournament
from services.state import HallState
from services.regulations.checkers_match import match_setups

__all__ = ["hall"]  # the fixture (sqlite and redis), for pytest

pytestmark = pytest.mark.integration

EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000
DRAWN, ARMAGEDDON = "1-1", "1-1-A"
CLOCK_SHIFT = {"white": 10 * MIN - 5 * MIN, "black": 7 * MIN - 5 * MIN}  # a 5-minute blitz to 10/7


def pgn_game(path: Path, number: int) -> chess.pgn.Game:
    """The ``number``-th game (from 1) of the PGN file ``path``."""
    stream = io.StringIO(path.read_text())
    for _ in range(number):
        game = chess.pgn.read_game(stream)
    assert game is not None
    return game


def plies(game: chess.pgn.Game, shift: dict | None = None) -> list[dict]:
    """Each ply: the move (UCI), its mover and both clocks after its press (the ``[%clk]`` figures,
    ms, moved by ``shift``)."""
    shift = shift or {"white": 0, "black": 0}
    out, clocks = [], None
    for node in game.mainline():
        side = "white" if node.parent.board().turn else "black"
        if clocks is None:
            first = round(node.clock() * 1000)
            clocks = {"white": first, "black": first}
        clocks[side] = round(node.clock() * 1000)
        out.append({"uci": node.move.uci(), "side": side,
                    **{f"{s}_ms": clocks[s] + shift[s] for s in ("white", "black")}})
    return out


@pytest.fixture(scope="module")
def games(shared_data) -> dict:
    classical = pgn_game(shared_data / "chess" / "fide_candidates_2024_open.pgn", 2)
    armageddon = pgn_game(shared_data / "chess" / "fide_world_cup_2025.pgn", 480)
    assert (classical.headers["White"], classical.headers["Result"]) == ("Abasov, Nijat", "1/2-1/2")
    assert (armageddon.headers["White"], armageddon.headers["Round"], armageddon.headers["Result"]) == (
        "Idani, Pouya", "2.8", "1-0")
    assert not armageddon.end().board().is_checkmate()
    assert classical.end().board().can_claim_threefold_repetition()
    return {"classical": plies(classical), "armageddon": plies(armageddon, CLOCK_SHIFT)}


def norway(slug: str, now: int):
    t = load_tournament((EVENTS / "norway-chess-2023.toml").read_text(), "norway-chess-2023.toml")
    return dataclasses.replace(t, slug=slug, rounds=(dataclasses.replace(t.rounds[0], start_ms=now), *t.rounds[1:]))


async def set_up(hall: Hall, t) -> None:
    """Round 1 under Norway: board 1's classical game, its players at the board (no default)."""
    now = t.rounds[0].start_ms
    await hall.log.append("round_started", {
        "round": "1", "event": "Norway Chess 2023", "site": "", "date": "2023.05.30", "start_ms": now,
        "games": [{"id": DRAWN, "board": "1", "round": "1", "white": "Abasov, Nijat",
                   "black": "Nepomniachtchi, Ian", "variant": "chess",
                   "time_control": t.time_controls["classical"], "fen": None, "kind": "classical"}]})
    for side in ("white", "black"):
        await hall.log.append("player_arrived", {"game": DRAWN, "board": "1", "side": side, "arrived_at": now,
                                                 "by": "chief"})


async def press(hall: Hall, p: dict) -> None:
    await hall.clock("1", "press", p["white_ms"], p["black_ms"], "black" if p["side"] == "white" else "white")


async def play(hall: Hall, moves: list[dict], *, last_move: bool = True) -> None:
    for i, p in enumerate(moves):
        if last_move or i < len(moves) - 1:
            await hall.send("1", "move", move=p["uci"])
        await press(hall, p)


async def classical(hall: Hall, moves: list[dict], *, last_move: bool = True) -> None:
    await hall.clock("1", "start", 120 * MIN, 120 * MIN, "white")
    await play(hall, moves, last_move=last_move)


async def armageddon_clock(hall: Hall, moves: list[dict]) -> None:
    """The players stop the clock, the arbiter sets it for the Armageddon (10 and 7 minutes) and it is
    started for White."""
    last = moves[-1]
    await hall.clock("1", "pause", last["white_ms"], last["black_ms"], None)
    await hall.clock("1", "set", 10 * MIN, 7 * MIN, None)
    await hall.clock("1", "start", 10 * MIN, 7 * MIN, "white")


async def clock_result(hall: Hall, result: str) -> None:
    """The clock reports the result (docs/protocol.md: "result" with "device": "clock", on the
    clock's seq)."""
    hall.seqs[("1", "clock")] = seq = hall.seqs.get(("1", "clock"), 0) + 1
    await hall.client.publish(f"venue/{hall.slug}/boards/1/result", json.dumps(
        {"seq": seq, "result": result, "reason": "agreement", "device": "clock"}), qos=1)


def clocks_of(moves: list[dict]) -> list[int]:
    """Each ply's %clk: the mover's time after its press."""
    return [p[f"{p['side']}_ms"] for p in moves]


async def rebuilt_same(hall: Hall, gateway) -> None:
    """A gateway started on the log holds the live state (DESIGN.md "one fold")."""
    state = await hall.state()
    assert state.snapshot()["games"] == gateway.hall.state.snapshot()["games"]


def the_armageddon_is_its_own(entries, state: HallState, arm: list[dict], drawn: list[dict], *,
                              drawn_plies: int | None = None) -> None:
    """The Armageddon has exactly its own moves and clocks; the drawn game keeps its record."""
    g, d = state.games[ARMAGEDDON], state.games[DRAWN]
    assert g.moves == [p["uci"] for p in arm] and g.clocks == clocks_of(arm)
    kept = drawn[:drawn_plies] if drawn_plies is not None else drawn
    assert d.moves == [p["uci"] for p in kept] and d.clocks == clocks_of(kept)
    clock_types = [e.type for e in entries if e.type.startswith("clock_") and e.data.get("device") == "clock" and e.data.get("game") == ARMAGEDDON]
    assert clock_types == ["clock_set", "clock_started"] + ["clock_pressed"] * len(arm)
    assert not [e for e in of(entries, "move_rejected") if e["game"] == ARMAGEDDON]
    assert not [e for e in of(entries, "penalty_proposed") if e["game"] == ARMAGEDDON]


async def test_a_claim_ruled_at_the_board_while_the_armageddon_is_played_waits_for_the_console(hall, games):
    """Norway Chess's worst case: Black claims the threefold repetition at the board (the board's
    result with the reason, ``draw_claim_reported``: FIDE Laws 9.2, the arbiter decides); the arbiter
    rules at the board and clicks in the console later; meanwhile the players stop the clock, set it
    for the Armageddon and play it to Black's resignation. Everything the board sends after the claim
    waits; the arbiter's click (accept_claim) ends the classical game drawn by the arbiter, and the
    Armageddon gets exactly its own moves, clocks and result."""
    drawn, arm = games["classical"], games["armageddon"]
    t = norway(hall.slug, int(time.time() * 1000))
    await set_up(hall, t)
    async with hall.running(tournament=t) as gateway:
        await classical(hall, drawn)
        await hall.send("1", "result", result="1/2-1/2", reason="threefold repetition")
        await hall.entries(lambda es: of(es, "draw_claim_reported"))
        await armageddon_clock(hall, drawn)
        await play(hall, arm)
        await hall.send("1", "result", result="1-0", reason="resignation")
        held = 3 + 2 * len(arm) + 1  # pause, set, start; each ply's move and press; the resignation
        entries = await hall.entries(lambda es: len(of(es, "message_awaiting_game")) == held, timeout=30)
        assert not of(entries, "armageddon_scheduled") and not of(entries, "game_ended")
        assert [e["ply"] for e in of(entries, "move_played")][-1] == len(drawn)
        await hall.arbiter("accept_claim", {"game": DRAWN, "kind": "threefold"})
        entries = await hall.entries(lambda es: len(of(es, "game_ended")) == 2, timeout=30)
        await rebuilt_same(hall, gateway)
    state = await hall.state()
    ended = {e["game"]: e for e in of(entries, "game_ended")}
    assert (ended[DRAWN]["result"], ended[DRAWN]["termination"], ended[DRAWN]["by"]) == (
        "1/2-1/2", "threefold_repetition", "arbiter")
    assert (ended[ARMAGEDDON]["result"], ended[ARMAGEDDON]["by"]) == ("1-0", "device")
    assert not of(entries, "armageddon_decided")  # not drawn: no draw odds to apply
    the_armageddon_is_its_own(entries, state, arm, drawn)
    assert [e.type for e in entries if e.type.startswith("clock_") and e.data.get("device") == "clock" and e.data.get("game") == DRAWN][-1] == "clock_paused"
    assert sorted((b["device"], b["game"]) for b in of(entries, "device_game_began")) == [
        ("board", ARMAGEDDON), ("clock", ARMAGEDDON)]
    assert state.boards["1"].awaiting == []


async def test_the_armageddons_first_press_before_the_draw_is_recorded_is_the_armageddons(hall, games):
    """A known hole: the players agree the draw and nobody reports it (the arbiter will enter it);
    the clock set for the Armageddon (its starting times) shows the next game's start while the
    classical game has no result, so its first presses and moves wait instead of going to the
    classical game; the arbiter's result (set_result) leaves the Armageddon open, and they are its
    own."""
    drawn, arm = games["classical"], games["armageddon"]
    t = norway(hall.slug, int(time.time() * 1000))
    await set_up(hall, t)
    async with hall.running(tournament=t) as gateway:
        await classical(hall, drawn)
        await armageddon_clock(hall, drawn)
        await play(hall, arm[:4])
        await hall.entries(lambda es: len(of(es, "message_awaiting_game")) == 2 + 2 * 4)
        await hall.arbiter("set_result", {"game": DRAWN, "result": "1/2-1/2"})
        await hall.entries(lambda es: of(es, "armageddon_scheduled"))
        await play(hall, arm[4:])
        await hall.send("1", "result", result="1-0", reason="resignation")
        entries = await hall.entries(lambda es: len(of(es, "game_ended")) == 2, timeout=30)
        await rebuilt_same(hall, gateway)
    state = await hall.state()
    assert state.games[DRAWN].result == "1/2-1/2" and state.games[ARMAGEDDON].result == "1-0"
    the_armageddon_is_its_own(entries, state, arm, drawn)


@pytest.mark.parametrize("late", [True, False], ids=["the_drawn_games_e2e4_late", "the_drawn_games_e2e4_lost"])
async def test_a_move_legal_in_both_games_goes_to_its_own(hall, games, late):
    """A known hole: the drawn game ended with 34.Re4 (``e2e4``), the squares of the Armageddon's
    1.e4. Its board message is held up; the clock's result ends the game (the press for 34.Re4 came:
    the game owes that move). Late: ``e2e4`` arrives before the Armageddon's own 1.e4, and waits
    until the board's next message says which game it was (1.e4 again: the drawn game's Re4, then
    the Armageddon's first move). Lost: it never comes, and the Armageddon's 1.e4 waits until 1...e5
    says it is the Armageddon's (Black's reply cannot open a game)."""
    drawn, arm = games["classical"], games["armageddon"]
    t = norway(hall.slug, int(time.time() * 1000))
    await set_up(hall, t)
    async with hall.running(tournament=t) as gateway:
        await classical(hall, drawn, last_move=False)
        await clock_result(hall, "1/2-1/2")
        await hall.entries(lambda es: of(es, "armageddon_scheduled"))
        if late:
            await hall.send("1", "move", move="e2e4")
        await armageddon_clock(hall, drawn)
        await play(hall, arm)
        await hall.send("1", "result", result="1-0", reason="resignation")
        entries = await hall.entries(lambda es: len(of(es, "game_ended")) == 2, timeout=30)
        await rebuilt_same(hall, gateway)
    state = await hall.state()
    assert arm[0]["uci"] == "e2e4" == drawn[-1]["uci"]
    the_armageddon_is_its_own(entries, state, arm, drawn, drawn_plies=len(drawn) - 1)
    rejected = of(entries, "move_rejected")
    assert [(e["game"], e["move"], e["reason"]) for e in rejected] == ([(DRAWN, "e2e4", "game over")] if late else [])
    assert state.boards["1"].awaiting == []


async def test_a_match_whose_first_game_has_no_result_holds_the_second_games_moves(hall):
    """A known hole: a board whose game 1 has not ended applied game 2's first move to game 1. London
    1992 game 25 is played to its end and nobody reports its result (the referee will); the clock is
    paused and started again for game 26 (X.A.b: "The clocks shall be paused between games") with
    the times each player had left, and game 26 is played: the clock's start shows the next game
    while game 25 has no result, so the board waits; the referee's result (set_result) for game 25
    gives game 26 all its moves."""
    one, two = match_scripts(GAME_25, GAME_26, "1")
    pairing = {"id": "1-1", "board": "1", "round": "1", "white": GAME_25.tags["White"],
               "black": GAME_25.tags["Black"], "variant": "checkers", "fen": None, "kind": "classical",
               "time_control": {"white": "90m", "black": "90m", "match_clock": True}}
    await hall.log.append("round_started", {"round": "1", "event": "match", "site": "", "date": "1992.08.17",
                                            "games": match_setups(pairing, BALLOT)})
    async with hall.running() as gateway:
        clocks = {"white": one.white_ms, "black": one.black_ms}
        await hall.clock("1", "start", clocks["white"], clocks["black"], one.first_side)
        for ply in one.plies:
            await hall.send("1", "move", move=ply.uci)
            clocks[ply.side] = ply.clock_ms
            await hall.clock("1", "press", clocks["white"], clocks["black"], "black" if ply.side == "white" else "white")
        await hall.clock("1", "pause", clocks["white"], clocks["black"], None)
        await hall.clock("1", "start", two.white_ms, two.black_ms, two.first_side)
        carried = {"white": two.white_ms, "black": two.black_ms}
        for ply in two.plies[:6]:
            await hall.send("1", "move", move=ply.uci)
            carried[ply.side] = ply.clock_ms
            await hall.clock("1", "press", carried["white"], carried["black"], "black" if ply.side == "white" else "white")
        await hall.entries(lambda es: len(of(es, "message_awaiting_game")) == 1 + 2 * 6)
        entries = await hall.entries(lambda es: True)
        assert len(of(entries, "move_played", "1-1.1")) == len(one.plies) and not of(entries, "move_played", "1-1.2")
        await hall.arbiter("set_result", {"game": "1-1.1", "result": GAME_25.venue_result})
        entries = await hall.entries(lambda es: len(of(es, "move_played", "1-1.2")) == 6, timeout=30)
        await asyncio.sleep(0.2)
        await rebuilt_same(hall, gateway)
    state = await hall.state()
    assert state.games["1-1.1"].moves == [p.uci for p in one.plies] and state.games["1-1.1"].result == "1-0"
    assert state.games["1-1.2"].moves == [p.uci for p in two.plies[:6]]
    assert [e.type for e in entries if e.type.startswith("clock_") and e.data.get("device") == "clock" and e.data.get("game") == "1-1.2"] == [
        "clock_started"] + ["clock_pressed"] * 6
    assert not of(entries, "move_rejected")
    assert sorted((b["device"], b["evidence"]) for b in of(entries, "device_game_began")) == [
        ("board", "next_only"), ("clock", "starting_times")]
    assert json.dumps(state.boards["1"].awaiting) == "[]"
