"""``venue broadcast lichess``: the push client (venue/broadcast.py) against a local endpoint that
implements lichess's push API as documented (tests/lichess_double.py), through berserk and real
HTTP: whole-round snapshots coalesced to one push a second, retries with back-off, the per-game
errors lichess answers, a restart that reads the log, the broadcast delay at its edges, a
correction carried by the next push, at most 100 games a push. Every pushed body is read back with
python-chess (the double answers an error for any game it cannot read). Time is passed to
``Pusher.step`` (no sleeps).

The event: tests/broadcast_helpers.py (the Keres Memorial sample's players, a rapid round robin);
the boards play Candidates 2024 round 5 games (Praggnanandhaa-Nepomniachtchi on board 1,
Firouzja-Caruana on board 2).
"""

from __future__ import annotations

import pytest

from broadcast_helpers import T0, candidates_round5, keres_players, registration_entries, tournament_text
from eventually import eventually_async
from lichess_double import LichessDouble, read_games
from replay_entries import game_entries
from services.eventlog.base import Entry
from services.views.relay import checked_pgn
from services.views.relay_rounds import LichessRound
from venue.broadcast import Pusher, lichess_push

TOKEN, ROUND_ID = "lip_test_token", "aBcD1234"


def entries(shared_data, delay_s=None, plies=6) -> list[Entry]:
    games = candidates_round5(shared_data)
    items = registration_entries(tournament_text(keres_players(shared_data), delay_s=delay_s), T0 - 60_000)
    for board, g in ((1, games[0]), (2, games[1])):
        moves = [e for e in game_entries(g, f"1-{board}", str(board), T0, end=False)][: 1 + 2 * plies]
        items += [(t, d, min(at, T0)) for t, d, at in moves]
    return [Entry(i, at, t, d) for i, (t, d, at) in enumerate(items, start=1)]


def pusher(double: LichessDouble, log: list[Entry], lines: list[str]) -> Pusher:
    p = Pusher(lichess_push(TOKEN, double.url), [LichessRound(ROUND_ID)], out=lines.append)
    for e in log:
        p.hall.take(e)
    return p


def test_pushes_are_whole_rounds_coalesced_to_one_a_second(shared_data):
    log, lines = entries(shared_data), []
    with LichessDouble(TOKEN, ROUND_ID) as lichess:
        p = pusher(lichess, log[:-4], lines)
        assert p.step(T0) is True
        first = read_games(lichess.bodies[-1])
        assert [g.headers["GameId"] for g in first] == ["1-1", "1-2"]  # the whole round, board order
        for e in log[-4:]:  # two more plies on board 2
            p.hall.take(e)
        assert p.step(T0 + 500) is False  # within a second of the last push: coalesced
        assert p.step(T0 + 1000) is True
        second = read_games(lichess.bodies[-1])
        assert len(list(second[1].mainline_moves())) == len(list(first[1].mainline_moves())) + 2
        assert p.step(T0 + 5000) is False  # nothing changed: no push
        assert lichess.requests == 2 and p.pushes == 2
        assert lines[-1] == "pushed round 1: 2 games"


def test_a_failed_push_is_tried_again_with_back_off(shared_data):
    log, lines = entries(shared_data), []
    with LichessDouble(TOKEN, ROUND_ID) as lichess:
        lichess.fail = [503, 429]
        p = pusher(lichess, log, lines)
        assert p.step(T0) is False and "HTTP 503" in lines[-1] and "again in 1 s" in lines[-1]
        assert p.step(T0 + 999) is False and lichess.requests == 1  # waiting out the back-off
        assert p.step(T0 + 1000) is False and "HTTP 429" in lines[-1] and "again in 2 s" in lines[-1]
        assert p.step(T0 + 2999) is False and lichess.requests == 2
        assert p.step(T0 + 3000) is True and lichess.requests == 3 and p.targets[ROUND_ID].failures == 0
        assert read_games(lichess.bodies[-1])[0].headers["White"] == "Ehlvest, Jaan"


def test_a_bad_token_is_said_and_not_hammered(shared_data):
    log, lines = entries(shared_data), []
    with LichessDouble("another token", ROUND_ID) as lichess:
        p = pusher(lichess, log, lines)
        assert p.step(T0) is False and "HTTP 401" in lines[-1] and "again in 60 s" in lines[-1]
        assert p.step(T0 + 59_999) is False and lichess.requests == 1


def test_per_game_errors_are_reported(shared_data):
    log, lines = entries(shared_data), []
    with LichessDouble(TOKEN, ROUND_ID) as lichess:
        lichess.refuse = {"Vovk, Ilja"}  # board 2: Shirov - Vovk (Berger round 1: 2-3)
        p = pusher(lichess, log, lines)
        assert p.step(T0) is True
        assert p.errors == ["Shirov, Alexei - Vovk, Ilja: Cannot add a chapter to this study"]
        assert "lichess refused 1" in lines[-1]


def test_a_restarted_pusher_reads_the_log_and_pushes_the_same_round(shared_data):
    log, lines = entries(shared_data), []
    with LichessDouble(TOKEN, ROUND_ID) as lichess:
        assert pusher(lichess, log, lines).step(T0)
        again = pusher(lichess, log, lines)  # a new process: the same log from its start
        assert again.step(T0 + 10) is True
        assert lichess.bodies[0] == lichess.bodies[1]  # the same games, the same GameIds: nothing doubled


def test_the_delay_holds_for_pushes_at_its_edges(shared_data):
    """A result appended at t=0 with delay 900 s: not in the push at 899 s, in the one at 901 s."""
    log, lines = entries(shared_data, delay_s=900), []
    log.append(Entry(len(log) + 1, T0, "game_ended", {"game": "1-1", "board": "1", "result": "0-1",
                                                      "termination": "resignation", "ply": 6, "by": "device"}))
    with LichessDouble(TOKEN, ROUND_ID) as lichess:
        p = pusher(lichess, log, lines)
        assert p.step(T0 + 899_000) is True
        assert read_games(lichess.bodies[-1])[0].headers["Result"] == "*"
        assert p.step(T0 + 901_000) is True
        assert read_games(lichess.bodies[-1])[0].headers["Result"] == "0-1"


def test_a_correction_reaches_the_next_push(shared_data):
    log, lines = entries(shared_data), []
    # Praggnanandhaa-Nepomniachtchi's board recorded 1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6: the arbiter
    # takes it back to ply 4 and enters 3. Nc3 Nc6 (tests/unit/test_correction.py)
    fix = {"game": "1-1", "board": "1", "by": "chief", "ply": 4, "moves": ["b1c3", "b8c6"],
           "san": ["Nc3", "Nc6"], "fens": ["", ""], "removed": ["f3e5", "d7d6"],
           "fen": "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4", "turn": "white"}
    with LichessDouble(TOKEN, ROUND_ID) as lichess:
        p = pusher(lichess, log, lines)
        assert p.step(T0)
        p.hall.take(Entry(len(log) + 1, T0 + 100, "game_corrected", fix))
        assert p.step(T0 + 1000)
        game = read_games(lichess.bodies[-1])[0]
        assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "g8f6", "b1c3", "b8c6"]


def test_a_game_python_chess_cannot_read_back_is_never_sent(shared_data):
    log = entries(shared_data)
    p = Pusher(lambda rid, text: {}, [LichessRound(ROUND_ID)])
    for e in log:
        p.hall.take(e)
    p.hall.release(T0)
    from services.views.spectator import SpectatorView

    game = SpectatorView(p.hall.public, public=True).games("1")[0]
    with pytest.raises(ValueError, match="illegal move: a1a8"):  # never sent: refused before the push
        checked_pgn({**game, "moves": game["moves"] + ["a1a8"]}, None)


def test_the_command_needs_a_token(monkeypatch, capsys):
    from venue.cli import main

    monkeypatch.delenv("LICHESS_TOKEN", raising=False)
    code = main(["broadcast", "lichess", "--round-id", ROUND_ID, "--store", "memory://", "--tournament", "keres-rapid"])
    assert code == 2 and "LICHESS_TOKEN" in capsys.readouterr().err
    assert main(["broadcast", "lichess"]) == 2  # --round-id, --store, --tournament are required


async def test_the_command_follows_the_log_and_pushes(shared_data, monkeypatch):
    """``Pusher.run`` as the command runs it: follow the log, push through berserk (in a thread)."""
    import asyncio

    from services.eventlog.memory import MemoryLog

    log = MemoryLog("keres-rapid")
    await log.append_many([(e.type, e.data, e.at) for e in entries(shared_data)])
    with LichessDouble(TOKEN, ROUND_ID) as lichess:
        p = Pusher(lichess_push(TOKEN, lichess.url), [LichessRound(ROUND_ID)], out=lambda line: None)
        task = asyncio.create_task(p.run(log, lambda: T0, tick_s=0.05))
        await eventually_async(lambda: lichess.bodies, 10, poll=0.05)
        task.cancel()
        assert [g.headers["GameId"] for g in read_games(lichess.bodies[0])] == ["1-1", "1-2"]
