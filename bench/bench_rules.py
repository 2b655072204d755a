"""Moves per second of the chess rules core on the real games of ../shared/data/chess.

Measures, in one run and on the same plies, one core:
- (a) python-chess with a legality check: ``parse_uci`` (which runs ``is_legal``) + ``push``; the limit.
- venue: what the gateway does per ply: ``ChessGame.play(uci)`` (validation, SAN, automatic ends,
  repetition table) + ``claimable()`` (threefold and fifty-move claims, with intended moves) +
  ``outcome``.
- venue + FEN: the same, reading the FEN of every ply as well (for information).
- (b) the naive way: (a) + python-chess's ``can_claim_threefold_repetition()`` and
  ``can_claim_fifty_moves()`` after each ply.

Targets (issue "Rules core"): venue >= 25,000 plies/s and within 3x of (a). Times are CPU time of
this process (time.process_time: one core, and steadier than wall time on a shared machine); each
figure is the best of ``--repeat`` runs (the slow naive row runs once). Moves after an automatic end (4 real games go
on one move past a dead position) are dropped beforehand so every row plays the same plies.

Usage: ``.venv/bin/python bench/bench_rules.py [--repeat 3] [--naive-games N]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess
import chess.pgn

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from services.rules.chess_game import ChessGame  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "chess"


def load_games() -> list[tuple[str, list[str]]]:
    """(start FEN, UCI moves up to the game's end under the Laws) for every game with moves."""
    games = []
    for path in sorted(DATA.rglob("*.pgn")):
        with open(path, encoding="utf-8-sig") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                moves = [move.uci() for move in game.mainline_moves()]
                if not moves:
                    continue
                fen = game.board().fen()
                venue = ChessGame(fen)
                kept = []
                for uci in moves:
                    if venue.outcome is not None:
                        break
                    venue.play(uci)
                    kept.append(uci)
                games.append((fen, kept))
    return games


def run_limit(games) -> None:
    """(a): python-chess parse_uci (runs is_legal) + push per ply."""
    for fen, moves in games:
        board = chess.Board(fen)
        for uci in moves:
            board.push(board.parse_uci(uci))


def run_venue(games) -> None:
    """The gateway's per-ply work: play(uci) + claimable() + outcome."""
    for fen, moves in games:
        game = ChessGame(fen)
        for uci in moves:
            game.play(uci)
            game.claimable()
            game.outcome


def run_venue_fen(games) -> None:
    """run_venue plus reading each ply's FEN."""
    for fen, moves in games:
        game = ChessGame(fen)
        for uci in moves:
            game.play(uci).fen
            game.claimable()
            game.outcome


def run_naive(games) -> None:
    """(b): (a) + python-chess can_claim_threefold_repetition() and can_claim_fifty_moves()."""
    for fen, moves in games:
        board = chess.Board(fen)
        for uci in moves:
            board.push(board.parse_uci(uci))
            board.can_claim_threefold_repetition()
            board.can_claim_fifty_moves()


def best_time(runner, games, repeat: int) -> float:
    """Least CPU seconds of ``repeat`` runs of ``runner(games)``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        runner(games)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    """Print the table and whether the targets are met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per row, best kept (default 3)")
    parser.add_argument("--naive-games", type=int, default=0,
                        help="games for the slow naive row (default 0 = all)")
    args = parser.parse_args()

    games = load_games()
    plies = sum(len(moves) for _, moves in games)
    naive_games = games[: args.naive_games] if args.naive_games else games
    naive_plies = sum(len(moves) for _, moves in naive_games)

    rows = []
    limit = best_time(run_limit, games, args.repeat)
    venue = best_time(run_venue, games, args.repeat)
    venue_fen = best_time(run_venue_fen, games, args.repeat)
    naive = best_time(run_naive, naive_games, 1)
    rate = {"a": plies / limit, "venue": plies / venue, "fen": plies / venue_fen, "b": naive_plies / naive}
    rows.append(("(a) python-chess parse_uci+push (limit)", plies, limit, rate["a"]))
    rows.append(("venue play+claimable+outcome", plies, venue, rate["venue"]))
    rows.append(("venue + FEN of every ply", plies, venue_fen, rate["fen"]))
    rows.append(("(b) naive: (a) + can_claim_threefold/fifty", naive_plies, naive, rate["b"]))

    print(f"chess rules core, {len(games)} games with moves, {plies} plies, python-chess {chess.__version__}")
    print(f"{'row':46} {'plies':>7} {'seconds':>8} {'plies/s':>9} {'vs (a)':>7} {'vs (b)':>7}")
    for name, count, seconds, per_second in rows:
        print(f"{name:46} {count:7d} {seconds:8.2f} {per_second:9.0f} "
              f"{per_second / rate['a']:7.2f} {per_second / rate['b']:7.1f}")
    slowdown = rate["a"] / rate["venue"]
    print(f"target >= 25,000 plies/s: {'met' if rate['venue'] >= 25_000 else 'NOT met'} "
          f"({rate['venue']:.0f}); target within 3x of (a): {'met' if slowdown <= 3 else 'NOT met'} "
          f"({slowdown:.2f}x slower)")


if __name__ == "__main__":
    main()
