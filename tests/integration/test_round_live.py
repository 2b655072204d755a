"""The next round paired, published and started on a running hall (issue 27 item 1; docs/pairing.md
"The round's life cycle"): a gateway on Mosquitto and a dashboard, both following one Redis log, are
never restarted. Round 1 of the 2013 U.S. Championship (events/us-championship-2013.toml: 24 players,
FIDE Dutch Swiss) is played (board 1 over MQTT, the other results entered by the arbiter); round 2 is
then paired, published and started with ``venue round`` (another process's entries, as the console's
would be). The spectators' websocket moves to round 2 by itself, and the gateway accepts round 2's
boards' moves.

Moves: real games of ../shared/data/chess/fide_candidates_2024_open.pgn (round 1, board 1: the first
game of the file; round 2, board 1: the second), replayed by the simulated boards and clocks.
"""

from __future__ import annotations

import asyncio
import io
import uuid
from pathlib import Path

import chess.pgn
import pytest
from live_helpers import MOSQUITTO, entries_matching, running
from live_spectator import Spectator

from devices.script import scripts_from_pgn
from devices.simulate import simulate
from gateway import Gateway
from services.eventlog import open_log
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.tournament_file import load_tournament
from venue.round import main as venue_round
from venue.serve import dashboard_at

pytestmark = pytest.mark.integration

REDIS = "redis://127.0.0.1:6379/0"
EVENTS = Path(__file__).resolve().parents[2] / "events"
FAST = 1e6


def _game_on_board_1(path: Path, index: int, rnd: int) -> str:
    """The ``index``-th game of ``path`` (1-based) as board 1 of round ``rnd``: tags only changed."""
    stream = io.StringIO(path.read_text(encoding="utf-8"))
    for _ in range(index):
        game = chess.pgn.read_game(stream)
    game.headers["Round"], game.headers["Board"] = str(rnd), "1"
    return str(game) + "\n"


async def _round(*argv: str) -> int:
    """``venue round ARGV`` as its own command (a thread: it runs its own event loop)."""
    return await asyncio.to_thread(venue_round, list(argv))


async def _eventually(check, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "not within the time"
        await asyncio.sleep(0.05)


async def test_round_2_paired_published_and_started_on_the_running_hall(shared_data: Path, monkeypatch) -> None:
    # The gateway follows what others append once a second here (0.05 s in a hall), so that the
    # boards' first messages of each round surely come before it has folded that round's start
    # (`venue round start` is another process's entry): they must wait for the log, never be judged
    # in the round before (its ended game's duplicates, round 2's seqs starting at 1 again) or as
    # an unknown board's (round 1).
    monkeypatch.setattr("gateway.service.FOLLOW_EVERY_S", 1.0)
    slug = f"it-round-{uuid.uuid4().hex[:8]}"
    where = ("--store", REDIS, "--tournament", slug)
    t = load_tournament((EVENTS / "us-championship-2013.toml").read_text(), "us-championship-2013.toml")
    log = open_log(REDIS, slug)
    await log.append("tournament_registered", tournament_registered_data(t))
    games = shared_data / "chess" / "fide_candidates_2024_open.pgn"
    first, second = _game_on_board_1(games, 1, 1), _game_on_board_1(games, 2, 2)
    gateway = Gateway(log, MOSQUITTO, slug, client_id=f"gw-{slug}")
    async with running(gateway), dashboard_at(log, "127.0.0.1", 0) as (url, _):
        spectator = Spectator(url.removeprefix("http://"))
        spectator.start()
        try:
            assert await _round("pair", "1", *where) == 0
            assert await _round("publish", "1", *where) == 0
            assert await _round("start", "1", *where) == 0
            await _eventually(lambda: spectator.round and spectator.round["round"] == "1")
            assert len(spectator.games) == 12
            # board 1 played over MQTT; the arbiter enters the other results (a draw each: C.04.3 needs
            # every result of round 1 before round 2 is paired)
            await simulate(MOSQUITTO, slug, first, speed=FAST)
            script = scripts_from_pgn(first)[0]
            for board in range(2, 13):
                await log.append("game_ended", {"game": f"1-{board}", "board": str(board), "result": "1/2-1/2",
                                                "termination": "arbiter", "by": "arbiter"})
            await entries_matching(log, lambda e: e.type == "game_ended" and e.data["game"] == "1-1")
            moves_1 = [e.data["move"] for e in await log.read() if e.type == "move_played"]
            assert moves_1 == [p.uci for p in script.plies]

            assert await _round("pair", "2", *where) == 0
            assert await _round("publish", "2", *where) == 0
            assert spectator.round["round"] == "1"  # a published pairing is not the round in play yet
            assert await _round("start", "2", *where) == 0
            await _eventually(lambda: spectator.round["round"] == "2")
            assert len(spectator.games) == 12 and all(gid.startswith("2-") for gid in spectator.games)

            await simulate(MOSQUITTO, slug, second, speed=FAST)
            # the board's own result: a threefold repetition, which the arbiter decides (FIDE Laws 9.2)
            await entries_matching(log, lambda e: e.type == "result_reported" and e.data["game"] == "2-1")
            moves_2 = [e.data["move"] for e in await log.read() if e.type == "move_played" and e.data["game"] == "2-1"]
            assert moves_2 == [p.uci for p in scripts_from_pgn(second)[0].plies]
            await _eventually(lambda: len(spectator.games["2-1"]["moves"]) == len(moves_2))
            assert gateway.hall.state.current == "2" and gateway.counts.get("internal_errors", 0) == 0
            types = [e.type for e in await log.read()]
            assert types.count("round_started") == 2 and "message_rejected" not in types
        finally:
            await spectator.close()
    await log.close()


async def test_the_redis_store_lists_its_tournaments() -> None:
    """What ``venue serve``/``dashboard``/``export`` name when the slug is misspelt (issue 27 item 6)."""
    from services.eventlog.stores import tournaments

    slug = f"it-list-{uuid.uuid4().hex[:8]}"
    log = open_log(REDIS, slug)
    await log.append("note_added", {"text": "x"})
    try:
        assert slug in await tournaments(REDIS)
    finally:
        import redis.asyncio as aioredis

        from services.eventlog.redis import tournament_keys

        client = aioredis.Redis.from_url(REDIS)
        await client.delete(*tournament_keys(slug))
        await client.aclose()
        await log.close()
