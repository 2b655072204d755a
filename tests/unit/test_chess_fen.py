"""The FEN the rules core writes for each ply (``services.rules.chess_position.fen_of_key``, made when a
played move's ``fen`` is first read) and the standard start a game takes on trust, against
python-chess's ``Board.fen()`` as the oracle, on the real games of ../shared/data/chess (SOURCES.md)."""

from __future__ import annotations

import random

import chess
import chess.pgn

from services.rules.chess_game import ChessGame

FILES = ("lichess_2017-05.pgn", "fide_world_cup_2025.pgn")
PER_FILE = 60


def real_games(shared) -> list[tuple[str, list[str]]]:
    """(start FEN, UCI moves) of the first ``PER_FILE`` games of each of ``FILES``."""
    out = []
    for name in FILES:
        with open(shared / "chess" / name, encoding="utf-8-sig") as handle:
            for _ in range(PER_FILE):
                game = chess.pgn.read_game(handle)
                assert game is not None
                out.append((game.board().fen(), [m.uci() for m in game.mainline_moves()]))
    return out


def test_every_plys_fen_is_python_chess_fen_whatever_order_the_fens_are_read_in(shared_data):
    rng = random.Random(15)
    checked = 0
    for start, moves in real_games(shared_data):
        game, board = ChessGame(start), chess.Board(start)
        played, expected = [], []
        for uci in moves:
            if game.outcome is not None:
                break  # the Laws ended it (the record may go on: 9.6)
            played.append(game.play(uci))
            board.push_uci(uci)
            expected.append(board.fen())
        order = list(range(len(played)))
        rng.shuffle(order)
        for i in order:
            assert played[i].fen == expected[i]
            checked += 1
    assert checked > 5000


def test_the_standard_start_taken_on_trust_is_the_start_read_from_its_fen(shared_data):
    trusted, read = ChessGame(), ChessGame(chess.STARTING_FEN)
    assert trusted.start_fen == read.start_fen == chess.Board().fen()
    assert (trusted.fen, trusted.turn, trusted.ply, trusted.outcome, trusted.claimable()) == \
        (read.fen, read.turn, read.ply, read.outcome, read.claimable())
    _, moves = real_games(shared_data)[0]
    for uci in moves:
        a, b = trusted.play(uci), read.play(uci)
        assert (a.san, a.fen, trusted.outcome, trusted.claimable()) == (b.san, b.fen, read.outcome, read.claimable())
        if trusted.outcome is not None:
            break
