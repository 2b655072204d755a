"""The DGT LiveChess bridge end to end: a LiveChess-shaped server (tests/livechess_fake.py) replays
real games as e-board events; the bridge publishes our protocol over MQTT; the real gateway writes
the log. The log must then hold each game's moves exactly (the gateway inferred them from the
placements: the bridge never sends a move), its final %clk figures and its result (the arbiter's
result signal, F07).

Games: FIDE Candidates 2024 (open), round 2: four decisive games (0-1, 0-1, 1-0, 1-0)
(../shared/data/chess/fide_candidates_2024_open.pgn). Faults: a board turned 180 degrees (F06), a
board that stops responding, pieces lifted and put back, every event sent twice, LiveChess's
connection cut (and refused for a while), the bridge itself restarted mid-game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid

import pytest
from live_helpers import entries_matching, log_until, running
from livechess_fake import FakeLiveChess, game_events, rotate

from devices.livechess.bridge import LiveChessBridge
from devices.script import scripts_from_pgn
from gateway import Gateway, embedded_broker
from services.eventlog import open_log
from services.arbiter_office.setup import round_from_pgn

pytestmark = pytest.mark.live
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


@pytest.fixture(scope="module")
def round_2(shared_data) -> str:
    import io

    import chess.pgn

    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(encoding="utf-8"))
    games = []
    while (g := chess.pgn.read_game(stream)) is not None:
        if g.headers.get("Round") == "2":
            games.append(str(g))
    assert len(games) == 4
    return "\n\n".join(games) + "\n"


@contextlib.asynccontextmanager
async def bridged(bridge: LiveChessBridge):
    task = asyncio.create_task(bridge.run())
    try:
        await asyncio.wait_for(bridge.connected.wait(), 10)
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def set_up(log, lc, serials: dict, rotated: set = frozenset()) -> None:
    """The boards set up before the round (the start position, turned round on ``rotated``
    boards), and the gateway told their orientation from the bridge's first snapshot (F06)."""
    for board, serial in serials.items():
        lc.add_board(serial, rotate(START) if board in rotated else START)
    await log_until(log, lambda es: sum(e.type == "board_oriented" for e in es) == len(serials), 10)


async def wait_ended(log, games: int, timeout: float = 60.0) -> list:
    return await log_until(log, lambda es: len({e.data["game"] for e in es if e.type == "game_ended"}) >= games,
                           timeout)


def check_game(entries, gid: str, script) -> None:
    """The source's moves once each, in order; its final clock figures; its result (F07 signal)."""
    played = [e.data for e in entries if e.type == "move_played" and e.data["game"] == gid]
    assert [p["move"] for p in played] == [p.uci for p in script.plies], gid
    assert all(p["from"] == "position" for p in played)
    presses = [e.data for e in entries if e.type == "clock_pressed" and e.data["game"] == gid]
    assert len(presses) == len(script.plies)
    assert (presses[-1]["white_ms"], presses[-1]["black_ms"]) == script.final_clocks(), gid
    [ended] = [e.data for e in entries if e.type == "game_ended" and e.data["game"] == gid]
    assert ended["result"] == script.result, (gid, ended)


def published_kinds(bridge) -> set[str]:
    return {topic.rsplit("/", 1)[-1] for link in bridge.links.values() for topic, _ in link.sent}


async def test_real_games_rotated_board_lifted_pieces_and_duplicates(tmp_path, round_2):
    """Four boards: board 3 turned 180 degrees (F06: its first snapshot tells the gateway), every
    event of board 4 sent twice; pieces lifted and put back every tenth ply on all."""
    t = f"lc-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", t)
    setup = round_from_pgn(round_2)
    await log.append("round_started", setup)
    scripts = scripts_from_pgn(round_2)
    serials = {s.board: f"70{s.board}" for s in scripts}
    async with FakeLiveChess() as lc, embedded_broker() as url:
        bridge = LiveChessBridge(lc.url, url, t, {v: k for k, v in serials.items()}, tmp_path / "state.json",
                                 round="2", poll_s=0.2)
        async with running(Gateway(log, url, t, client_id=f"gw-{t}")), bridged(bridge):
            await set_up(log, lc, serials, rotated={"3"})

            async def play(s):
                serial = serials[s.board]
                for change in game_events(s, rotated=s.board == "3"):
                    await lc.change(serial, change)
                    if s.board == "4":
                        await lc.repeat(serial)
                    await asyncio.sleep(0)

            await asyncio.gather(*(play(s) for s in scripts))
            entries = await wait_ended(log, 4)
    for game, s in zip(setup["games"], scripts):
        check_game(entries, game["id"], s)
    assert published_kinds(bridge) <= {"position", "clock", "status"}  # never a move
    oriented = {e.data["board"]: e.data["rotated"] for e in entries if e.type == "board_oriented"}
    assert oriented == {"1": False, "2": False, "3": True, "4": False}
    types = [e.type for e in entries]
    assert types.count("move_rejected") == 0 and types.count("seq_gap") == 0
    # board 4's repeats never left the bridge: a duplicate is only a message sent again because the
    # gateway had not confirmed it for a while (a loaded machine: devices/livechess/link.py RETRY_S)
    again = {(board, device, seq) for board, link in bridge.links.items() for device, seq in link.resent}
    assert {(e.data["board"], e.data["device"], e.data["seq"]) for e in entries
            if e.type == "message_duplicate"} <= again
    lifted = [e.data for e in entries if e.type == "placement_seen" and e.data["reading"] == "same"]
    assert {d["board"] for d in lifted} == {"1", "2", "3", "4"}  # a piece put back: nothing played
    await log.close()


async def test_a_board_that_stops_responding_goes_offline_and_comes_back(tmp_path):
    t = f"lc-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", t)
    await log.append("round_started", round_from_pgn('[Round "1"]\n[White "A"]\n[Black "B"]\n\n1. e4 *\n'))
    async with FakeLiveChess() as lc, embedded_broker() as url:
        lc.add_board("9001", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
        bridge = LiveChessBridge(lc.url, url, t, {"9001": "1"}, tmp_path / "s.json", poll_s=0.2)
        async with running(Gateway(log, url, t, client_id=f"gw-{t}")), bridged(bridge):
            await entries_matching(log, lambda e: e.type == "device_online")
            lc.set_state("9001", "NOTRESPONDING")
            await entries_matching(log, lambda e: e.type == "device_offline", timeout=5)
            lc.set_state("9001", "ACTIVE")
            entries = await log_until(log, lambda es: [e.type for e in es if e.type.startswith("device_")]
                                      == ["device_online", "device_offline", "device_online"], 5)
    assert all(e.data["board"] == "1" for e in entries if e.type.startswith("device_"))
    # LiveChess's battery text comes with the status (docs/protocol.md "Status")
    assert [e.data.get("battery") for e in entries if e.type == "device_online"] == ["87%", "87%"]
    await log.close()


async def test_livechess_cut_and_bridge_restarted_lose_nothing(tmp_path, round_2):
    """Mid-game, LiveChess's connection is cut and refused for a second (the boards show offline,
    the bridge connects again with back-off); later the bridge itself is stopped and started again
    on the same state file: it carries on with its seqs (no gap; a duplicate only of a message the
    gateway had not confirmed to the first bridge) and the games equal the source."""
    t = f"lc-{uuid.uuid4().hex[:8]}"
    log = open_log("memory://", t)
    setup = round_from_pgn(round_2)
    await log.append("round_started", setup)
    scripts = scripts_from_pgn(round_2)[:2]
    serials = {s.board: f"80{s.board}" for s in scripts}
    mapping = {v: k for k, v in serials.items()}
    events = {s.board: game_events(s) for s in scripts}
    cut, restart = (len(events["1"]) // 3, 2 * len(events["1"]) // 3)
    async with FakeLiveChess() as lc, embedded_broker() as url:
        async with running(Gateway(log, url, t, client_id=f"gw-{t}")):

            async def play(lo, hi):
                for s in scripts:
                    for change in events[s.board][lo:hi]:
                        await lc.change(serials[s.board], change)

            first = LiveChessBridge(lc.url, url, t, mapping, tmp_path / "state.json", round="2", poll_s=0.2)
            async with bridged(first):
                await set_up(log, lc, serials)
                await play(0, cut)
                await first.idle()
                await asyncio.sleep(0.3)
                await lc.drop(refuse_s=1.0)
                await entries_matching(log, lambda e: e.type == "device_offline", timeout=5)
                await asyncio.sleep(1.5)  # refused meanwhile; the bridge tries again with back-off
                await asyncio.wait_for(first.following.wait(), 15)
                await play(cut, restart)
                await asyncio.sleep(0.5)
                await first.idle()
            last_seq = first.store.last("1", "board")
            second = LiveChessBridge(lc.url, url, t, mapping, tmp_path / "state.json", round="2", poll_s=0.2)
            assert second.store.last("1", "board") == last_seq
            async with bridged(second):
                # moves made while no bridge runs reach it only as the last placement, which the
                # gateway cannot read when it is several moves on (docs/boards.md): the test waits
                await asyncio.wait_for(second.following.wait(), 10)
                await play(restart, None)
                entries = await wait_ended(log, 2)
    assert lc.connections >= 3
    for game, s in zip(setup["games"], scripts):
        check_game(entries, game["id"], s)
    types = [e.type for e in entries]
    assert types.count("seq_gap") == 0 and types.count("move_rejected") == 0
    # a message is done when the gateway's feedback says it is stored (issue 28): what the first
    # bridge had not seen confirmed when it stopped, the second sends again, and only that may come
    # twice (answered as a duplicate)
    again = {(board, device, seq) for board, link in second.links.items() for device, seq in link.resent}
    assert {(e.data["board"], e.data["device"], e.data["seq"]) for e in entries
            if e.type == "message_duplicate"} <= again
    assert types.count("device_offline") >= 2
    second_seqs = [json.loads(p)["seq"] for topic, p in second.links["1"].sent if topic.endswith("/position")]
    new = [seq for seq in second_seqs if ("board", seq) not in second.links["1"].resent]
    assert new and new[0] == last_seq + 1  # the state file kept the seq
    await log.close()
