"""A round's opening through the gateway's pure step (``gateway.hall.Hall.handle``), checked against
python-chess as the oracle: what the log and the feedback say of each ply is what python-chess says
of that ply. The load is the gateway bench's (``bench/bench_rules.py``): real games of
../shared/data/chess, one a board, every board's ply 1, then every board's ply 2, ..., each move
followed by its clock's press (docs/protocol.md: ``move`` and ``clock`` topics).

Sources: the games (SOURCES.md); docs/events.md (``move_played``, ``clock_pressed``); docs/protocol.md
(feedback: ``ref``, ``device``, ``accepted``, ``reason``, ``fen``); FIDE Laws 6.2.1 (a press completes
the move: the mover's time is the ply's clock).
"""

from __future__ import annotations

import json

import chess
import chess.pgn

from gateway.hall import Hall

SLUG = "hall-step"
GAMES = 20
PLIES = 24
START_MS = 5_400_000


def opening_games(shared) -> list[list[str]]:
    """The first ``PLIES`` UCI moves of the first ``GAMES`` games from the standard start that last
    that long."""
    out = []
    for path in sorted((shared / "chess").glob("*.pgn")):
        with open(path, encoding="utf-8-sig") as handle:
            while len(out) < GAMES and (game := chess.pgn.read_game(handle)) is not None:
                if "FEN" in game.headers:
                    continue
                moves = [m.uci() for m in game.mainline_moves()][:PLIES]
                if len(moves) == PLIES:
                    out.append(moves)
    assert len(out) == GAMES
    return out


def round_started(n: int) -> dict:
    games = [{"id": f"1-{b}", "board": str(b), "round": "1", "white": f"W{b}", "black": f"B{b}",
              "variant": "chess", "time_control": "5400+30", "fen": None, "kind": "classical"}
             for b in range(1, n + 1)]
    return {"round": "1", "event": "Step", "site": "", "date": "2026.12.01", "games": games}


def clocks(ply: int) -> tuple[int, int]:
    """The clock after ``ply`` (from 0): the mover spent 20 s and got the 30 s increment."""
    return START_MS + (ply + 2) // 2 * 10_000, START_MS + (ply + 1) // 2 * 10_000


def test_every_move_and_press_of_a_rounds_opening_is_recorded_and_answered_as_python_chess_plays_it(shared_data):
    games = opening_games(shared_data)
    hall = Hall(SLUG)
    hall.fold("round_started", round_started(len(games)))
    boards = [chess.Board() for _ in games]
    sans: list[list[str]] = [[] for _ in games]
    now = 0
    for ply in range(PLIES):
        for b, moves in enumerate(games, start=1):
            board = boards[b - 1]
            move = chess.Move.from_uci(moves[ply])
            san = board.san(move)
            sans[b - 1].append(san)
            board.push(move)
            now += 10
            step = hall.handle(f"venue/{SLUG}/boards/{b}/move", json.dumps({"seq": ply + 1, "move": moves[ply]}), now)
            assert step.entries == [("move_played", {
                "game": f"1-{b}", "ply": ply + 1, "move": moves[ply], "san": san, "fen": board.fen(),
                "turn": "white" if board.turn else "black", "claimable": [], "from": "move",
                "board": str(b), "device": "board", "seq": ply + 1})]
            assert step.feedback == [(str(b), {"ref": ply + 1, "device": "board", "accepted": True,
                                               "reason": None, "fen": board.fen()})]
            white_ms, black_ms = clocks(ply)
            running = "black" if ply % 2 == 0 else "white"
            press = {"seq": ply + 1, "event": "press", "white_ms": white_ms, "black_ms": black_ms, "running": running}
            now += 10
            step = hall.handle(f"venue/{SLUG}/boards/{b}/clock", json.dumps(press), now)
            assert [t for t, _ in step.entries] == ["clock_pressed"]
            assert step.entries[0][1]["white_ms"] == white_ms and step.entries[0][1]["black_ms"] == black_ms
            assert step.feedback == [(str(b), {"ref": ply + 1, "device": "clock", "accepted": True,
                                               "reason": None, "fen": board.fen()})]
    assert hall.faults == 0
    for b, moves in enumerate(games, start=1):
        g = hall.state.games[f"1-{b}"]
        assert (g.moves, g.san, g.fen, g.ply) == (moves, sans[b - 1], boards[b - 1].fen(), PLIES)
        mover_ms = [clocks(p)[p % 2] for p in range(PLIES)]  # the mover's time after its ply (6.2.1)
        assert g.clocks == mover_ms
