"""E-boards that never lose a move (issue 31): LiveChess's link cut while every board plays on, and
the broker losing what it held (issue 28), through the real gateway: every game equals its PGN.

The round: FIDE World Cup 2025, round 3 game 2 (classical), its first 12 games in file order on hall
boards 1-12 (../shared/data/chess/fide_world_cup_2025.pgn, Round "3.2"): Gukesh D - Svane 0-1,
Vokhidov - Erigaisi 1/2, Praggnanandhaa - Hovhannisyan 1-0, Donchenko - Giri 1-0, Stremavicius -
Pranav 1/2, Pranesh - Keymer 0-1, Wei Yi - Gledura 1/2, Martinez Alcantara - Abdusattorov 1-0,
Mamedyarov - Grandelius 0-1, Adams - Lodici 0-1, Vachier-Lagrave - Artemiev 1/2, Sargissian - Ghosh
1-0 (1066 plies). Each is replayed as e-board events (tests/livechess_fake.py: a hand's placements,
a piece lifted every tenth ply, the presses with the %clk figures, the arbiter's result signal, F07).

The outside check this answers (issue 31): a real 12-board round, the LiveChess link cut for 3 s
while every board played on (a few moves each): all 12 games stopped being recorded at the cut, 0 of
12 equal to the PGN. Here the link is cut twice: for a few moves on every board, and for minutes (the
bridge's back-off runs on an injected clock: three minutes of its retries take a few real seconds)
while every board plays 30 plies and four games end. The bridge recovers the moves from LiveChess's
own reading of the game (``devices.livechess.recover``).

Orientation: board 3 stands turned round and LiveChess knows it (``flipped``, reporting the game's
squares); board 4 stands turned round and LiveChess reports the sensors (F06: the gateway reads it
from the start); board 5 stands turned round, LiveChess reports the sensors until the operator flips
it in LiveChess in the middle of the game, then the game's squares.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import math
import uuid

import chess.pgn
import pytest
from live_helpers import log_until, running
from livechess_fake import FakeLiveChess, game_events, rotate
from mosquitto_site import plain_broker

from devices.livechess.bridge import LiveChessBridge
from devices.script import scripts_from_pgn
from gateway import Gateway, embedded_broker
from gateway.broker import free_port
from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn

pytestmark = pytest.mark.integration
START = chess.STARTING_BOARD_FEN
GAMES = ["Gukesh D - Svane, Frederik", "Vokhidov, Shamsiddin - Erigaisi Arjun",
         "Praggnanandhaa R - Hovhannisyan, Robert", "Donchenko, Alexander - Giri, Anish",
         "Stremavicius, Titas - Pranav, V", "Pranesh M - Keymer, Vincent", "Wei, Yi - Gledura, Benjamin",
         "Martinez Alcantara, Jose Eduardo - Abdusattorov, Nodirbek", "Mamedyarov, Shakhriyar - Grandelius, Nils",
         "Adams, Michael - Lodici, Lorenzo", "Vachier-Lagrave, Maxime - Artemiev, Vladislav",
         "Sargissian, Gabriel - Ghosh, Diptayan"]


@pytest.fixture(scope="module")
def world_cup_3_2(shared_data) -> str:
    """Round 3.2's first 12 games as one round on boards 1-12 (tags Round "3", Board N)."""
    stream = io.StringIO((shared_data / "chess" / "fide_world_cup_2025.pgn").read_text(encoding="utf-8"))
    games = []
    while len(games) < 12 and (g := chess.pgn.read_game(stream)) is not None:
        if g.headers["Round"] == "3.2" and g.headers["Black"] != "bye":
            g.headers["Round"], g.headers["Board"] = "3", str(len(games) + 1)
            games.append(g)
    assert [f"{g.headers['White']} - {g.headers['Black']}" for g in games] == GAMES
    return "\n\n".join(str(g) for g in games) + "\n"


class FastClock:
    """The bridge's back-off on an injected clock: a sleep of S seconds takes S / ``factor`` real
    seconds; ``slept`` the seconds of the bridge's own time it waited."""

    def __init__(self, factor: float = 100.0):
        self.factor, self.slept = factor, 0.0

    async def sleep(self, seconds: float) -> None:
        self.slept += seconds
        await asyncio.sleep(seconds / self.factor)


@contextlib.asynccontextmanager
async def bridged(bridge: LiveChessBridge):
    task = asyncio.create_task(bridge.run())
    try:
        await asyncio.wait_for(bridge.connected.wait(), 20)
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def ply_ends(events: list[dict]) -> list[int]:
    """For each ply k (1-based), the index just past its press in ``events`` (game_events: two clock
    events before the first ply, one press after each ply, a stop at the end)."""
    clocks = [i for i, e in enumerate(events) if "clock" in e]
    return [i + 1 for i in clocks[2:-1]]


def upto(events: list[dict], ply: int) -> int:
    """The index in ``events`` just past ply ``ply``'s press (past the end for ply beyond the game)."""
    ends = ply_ends(events)
    return ends[ply - 1] if ply <= len(ends) else len(events)


async def play(lc: FakeLiveChess, serials: dict, events: dict, lo: dict, hi: dict) -> None:
    """Every board's events from ``lo[board]`` to ``hi[board]``, the boards side by side."""

    async def one(board: str) -> None:
        for change in events[board][lo[board]:hi[board]]:
            await lc.change(serials[board], change)
            await asyncio.sleep(0)

    await asyncio.gather(*(one(b) for b in events))


def check_games(entries, setup: dict, scripts) -> list[str]:
    """Each game's moves and result against its PGN; the differences (empty: every game equal)."""
    wrong = []
    for game, s in zip(setup["games"], scripts):
        moves = [e.data["move"] for e in entries if e.type == "move_played" and e.data["game"] == game["id"]]
        ended = [e.data["result"] for e in entries if e.type == "game_ended" and e.data["game"] == game["id"]]
        if moves != [p.uci for p in s.plies] or ended != [s.result]:
            first = next((i for i, (a, b) in enumerate(zip(moves, [p.uci for p in s.plies])) if a != b), len(moves))
            wrong.append(f"board {s.board}: {len(moves)}/{len(s.plies)} plies (first difference at ply {first + 1}), "
                         f"result {ended} for {s.result}")
    return wrong


async def test_a_12_board_round_with_livechess_cut_for_moves_and_for_minutes_every_game_equals_its_pgn(
        tmp_path, world_cup_3_2):
    t = f"lcr-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", t)
    setup = round_from_pgn(world_cup_3_2)
    await log.append("round_started", setup)
    scripts = scripts_from_pgn(world_cup_3_2)
    serials = {s.board: f"31{int(s.board):02d}" for s in scripts}
    turned = {"3", "4", "5"}
    events = {s.board: game_events(s, rotated=s.board in turned) for s in scripts}
    clock = FastClock()
    done = {b: 0 for b in events}

    async def go_to(target: dict) -> None:
        await play(lc, serials, events, done, target)
        done.update(target)

    async with FakeLiveChess() as lc, embedded_broker() as url:
        bridge = LiveChessBridge(lc.url, url, t, {v: k for k, v in serials.items()}, tmp_path / "state.json",
                                 round="3", poll_s=0.2, sleep=clock.sleep)
        async with running(Gateway(log, url, t, client_id=f"gw-{t}")), bridged(bridge):
            for board, serial in serials.items():
                frame = "game" if board == "3" else "sensors"
                lc.add_board(serial, rotate(START) if board in turned else START, flipped=board == "3", frame=frame)
            await log_until(log, lambda es: sum(e.type == "board_oriented" for e in es) == 12, 20)
            await asyncio.wait_for(bridge.following.wait(), 20)

            # live to ply 12; cut; every board plays plies 13-16 (the link down); back
            await go_to({b: upto(e, 12) for b, e in events.items()})
            await asyncio.sleep(0.5)
            await lc.drop(refuse_s=math.inf)
            await go_to({b: upto(e, 16) for b, e in events.items()})
            lc.accept()
            await asyncio.wait_for(bridge.following.wait(), 20)

            # live to ply 40 (board 5 flipped in LiveChess at ply 30: its placements turn round)
            await go_to({b: upto(e, 30) for b, e in events.items()})
            await lc.flip(serials["5"], True)
            await go_to({b: upto(e, 40) for b, e in events.items()})
            await asyncio.sleep(0.5)

            # cut for minutes of the bridge's time: every board plays 30 plies meanwhile; the games
            # of 70 plies or fewer end in the cut, with their result signal
            await lc.drop(refuse_s=math.inf)
            slept = clock.slept
            await go_to({b: upto(e, 70) for b, e in events.items()})
            while clock.slept - slept < 180:  # three minutes of back-off (0.5 s doubling to 10 s)
                await asyncio.sleep(0.05)
            lc.accept()
            await asyncio.wait_for(bridge.following.wait(), 20)

            # live to the end
            await go_to({b: len(e) for b, e in events.items()})
            entries = await log_until(log, lambda es: len({e.data["game"] for e in es if e.type == "game_ended"}) >= 12,
                                      120)
    assert check_games(entries, setup, scripts) == []
    assert clock.slept - slept >= 180
    oriented = {e.data["board"]: e.data["rotated"] for e in entries if e.type == "board_oriented"}
    assert oriented == {str(b): str(b) in {"4", "5"} for b in range(1, 13)}  # board 3: LiveChess's squares
    types = [e.type for e in entries]
    assert types.count("move_rejected") == 0 and types.count("seq_gap") == 0
    assert {p for link in bridge.links.values() for p in [topic.rsplit("/", 1)[-1] for topic, _ in link.sent]} \
        <= {"position", "clock", "status"}  # never a move
    await log.close()


async def test_a_broker_that_crashes_with_the_gateway_away_loses_nothing(tmp_path, world_cup_3_2):
    """Issue 28 on the bridge: the gateway is stopped; meanwhile boards 7 and 11 play to their end
    (the result signal is their last message) and boards 10 and 12 play on; the broker (a private
    Mosquitto without persistence) is killed (-9) with all of it in its memory, and started again;
    the gateway comes back. The bridge sent again everything the gateway had not confirmed, with the
    same seqs: the four games equal their PGN (Wei Yi - Gledura 1/2, Adams - Lodici 0-1,
    Vachier-Lagrave - Artemiev 1/2, Sargissian - Ghosh 1-0)."""
    port = free_port()
    start_broker = plain_broker(tmp_path, port)
    t = f"lcb-{uuid.uuid4().hex[:8]}"
    url = f"mqtt://127.0.0.1:{port}"
    log = open_log(f"sqlite:///{tmp_path / 'log.sqlite'}", t)
    setup = round_from_pgn(world_cup_3_2)
    await log.append("round_started", setup)
    scripts = [s for s in scripts_from_pgn(world_cup_3_2) if s.board in {"7", "10", "11", "12"}]
    serials = {s.board: f"32{int(s.board):02d}" for s in scripts}
    events = {s.board: game_events(s) for s in scripts}
    done = {b: 0 for b in events}

    async def go_to(target: dict) -> None:
        await play(lc, serials, events, done, target)
        done.update(target)

    broker = start_broker()
    try:
        async with FakeLiveChess() as lc:
            bridge = LiveChessBridge(lc.url, url, t, {v: k for k, v in serials.items()}, tmp_path / "state.json",
                                     round="3", poll_s=0.2, retry_s=0.5)
            async with bridged(bridge):
                async with running(Gateway(log, url, t, client_id=f"gw-{t}")):
                    for serial in serials.values():
                        lc.add_board(serial, START)
                    await log_until(log, lambda es: sum(e.type == "board_oriented" for e in es) == 4, 20)
                    await go_to({b: upto(e, 10) for b, e in events.items()})
                    await log_until(log, lambda es: sum(e.type == "move_played" for e in es) == 40, 60)
                # the gateway away: two games end, two go on to ply 20, all of it in the broker only
                await go_to({"7": len(events["7"]), "11": len(events["11"]), "10": upto(events["10"], 20),
                             "12": upto(events["12"], 20)})
                await bridge.idle()
                waiting = sum(len(link.unconfirmed) for link in bridge.links.values())
                broker.kill()
                broker.wait(5)
                broker = start_broker()
                async with running(Gateway(log, url, t, client_id=f"gw-{t}")):
                    await go_to({b: len(e) for b, e in events.items()})
                    entries = await log_until(
                        log, lambda es: len({e.data["game"] for e in es if e.type == "game_ended"}) >= 4, 120)
                    resent = {b: len(link.resent) for b, link in bridge.links.items()}
    finally:
        broker.kill()
        await log.close()
    assert waiting > 40 and all(resent.values())  # the broker's loss was real, and made good by resending
    games = {g["board"]: g for g in setup["games"]}
    assert check_games(entries, {"games": [games[s.board] for s in scripts]}, scripts) == []
    types = [e.type for e in entries]
    assert types.count("move_rejected") == 0 and types.count("seq_gap") == 0
