"""The Laws at their edges live over MQTT (issue 12): flag falls with their evidence, games set up
from a position already over or with a claim open at ply 0, two same-side reports before one press
on move and sensor boards, and claims reported in words with the incorrect claim's penalty.

The real Mosquitto on 127.0.0.1:1883 with both log backends (SQLite in a temporary directory, Redis
on 127.0.0.1:6379): a missing service fails these tests, they never skip. Positions as in the unit
tests (tests/unit/test_gateway_laws.py, test_gateway_compose.py), built from the FIDE Laws and checked
against Ambrona's Chess Unwinnability Analyzer by services/rules' tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
import uuid
from pathlib import Path

import aiomqtt
import chess
import pytest
from eventlog_helpers import delete_redis_log
from live_helpers import log_until, running

from dashboard.arbiter.actions import build
from gateway import Gateway
from gateway.compose import COMPOSED
from gateway.decide import CLAIM_PASSED, GAME_OVER
from services.eventlog import open_log
from services.regulations.tournament_file import load_tournament
from services.views.spectator import SpectatorView
from services.state import HallState

pytestmark = pytest.mark.live

MOSQUITTO = ("127.0.0.1", 1883)
REDIS = "redis://127.0.0.1:6379/0"
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


class Hall:
    """A tournament's log, its gateway over Mosquitto, and a device connection for every board."""

    def __init__(self, store: str, tmp_path: Path):
        self.slug = f"laws-{uuid.uuid4().hex[:8]}"
        self.store = f"sqlite:///{tmp_path / 'log.sqlite'}" if store == "sqlite" else REDIS
        self.log = open_log(self.store, self.slug)
        self.seqs: dict[tuple[str, str], int] = {}
        self.feedback: dict[str, list[dict]] = {}
        self.client = None

    async def send(self, board: str, kind: str, **body) -> None:
        device = "clock" if kind == "clock" else "board"
        self.seqs[(board, device)] = seq = self.seqs.get((board, device), 0) + 1
        await self.client.publish(f"venue/{self.slug}/boards/{board}/{kind}", json.dumps({"seq": seq, **body}), qos=1)

    async def clock(self, board: str, event: str, white_ms: int, black_ms: int, running: str | None, **extra):
        await self.send(board, "clock", event=event, white_ms=white_ms, black_ms=black_ms, running=running, **extra)

    async def entries(self, pred, timeout: float = 10.0) -> list:
        return await log_until(self.log, pred, timeout)

    async def state(self) -> HallState:
        state = HallState()
        for e in await self.log.read():
            state.apply(e)
        return state

    async def arbiter(self, action: str, body: dict) -> None:
        """What POST /api/arbiter/actions appends for the arbiter "chief"."""
        games = SpectatorView(await self.state()).every_game()
        await self.log.append_many([(t, d, None) for t, d in build(action, body, "chief", games)])

    async def answered(self, board: str, count: int, timeout: float = 10.0) -> list[dict]:
        """The first ``count`` feedback messages on ``board``'s feedback topic."""
        async with asyncio.timeout(timeout):
            async for message in self.client.messages:
                name = str(message.topic).split("/")[3]
                self.feedback.setdefault(name, []).append(json.loads(message.payload))
                if len(self.feedback.get(board, [])) >= count:
                    break
        return self.feedback[board][:count]

    @contextlib.asynccontextmanager
    async def running(self, tournament=None):
        gateway = Gateway(self.log, f"mqtt://{MOSQUITTO[0]}:{MOSQUITTO[1]}", self.slug, tournament=tournament,
                          client_id=f"gw-{self.slug}")
        async with running(gateway):
            async with aiomqtt.Client(*MOSQUITTO, identifier=f"dev-{self.slug}") as client:
                self.client = client
                await client.subscribe(f"venue/{self.slug}/boards/+/feedback", qos=1)
                yield gateway

    async def close(self) -> None:
        await self.log.close()
        if self.store.startswith("redis"):
            await delete_redis_log(self.store, self.slug)


@pytest.fixture(params=["sqlite", "redis"])
async def hall(request, tmp_path):
    h = Hall(request.param, tmp_path)
    try:
        yield h
    finally:
        await h.close()


def of(entries, type_: str, game: str | None = None) -> list[dict]:
    return [e.data for e in entries if e.type == type_ and (game is None or e.data.get("game") == game)]


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
    passed to the arbiter (``draw_claim_reported``, the game goes on). The arbiter finds the
    threefold claim incorrect: two minutes for the opponent are proposed (FIDE Laws 9.5.3)."""
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
        entries = await hall.entries(lambda es: len(of(es, "draw_claim_reported")) == 2)
        answers = await hall.answered("1", 3)
        await hall.arbiter("reject_claim", {"game": "1-1", "kind": "threefold"})
        entries = await hall.entries(lambda es: of(es, "penalty_proposed"))
    assert [c["kind"] for c in of(entries, "draw_claim_reported")] == ["fifty_moves", "threefold"]
    assert [(a["accepted"], a["reason"]) for a in answers[1:]] == [(True, CLAIM_PASSED)] * 2
    assert not of(entries, "game_ended")
    [penalty] = of(entries, "penalty_proposed")
    assert (penalty["side"], penalty["to"], penalty["add_ms"], penalty["law"]) == ("black", "white", 120_000,
                                                                                   "FIDE Laws 9.5.3")
