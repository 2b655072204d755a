"""Plies per second of what the gateway does per ply, on the real games of ../shared/data/chess.

Measures, in one run and on the same plies, one core:
- (a) baseline: python-chess ``parse_uci`` (which runs ``is_legal``) + ``push``.
- (a2) for information: python-chess ``san_and_push`` + ``fen()``: the least a log of SAN and FEN
  per ply costs with python-chess.
- venue, the rules core as the gateway calls it for one move message (``gateway/decide.py``
  ``Decider.play`` and ``after_move``): ``game.play(uci)``, the played move's ``fen`` and ``san``
  (``move_played`` and the feedback carry both), ``claimable()`` with each claim's ``to_json()``,
  ``turn``, ``outcome`` (and ``gateway.laws.end_evidence`` when a game ends). The headline.
- venue without the FEN: the same, the FEN left unread (how much of the ply the FEN is).
- ``Hall.handle``: the whole pure gateway step for a move message (``gateway/hall.py``: the JSON
  payload read and checked, the seq order, the decision above, each entry folded into the hall's
  state and encoded, the regulations' answers, the feedback) on a hall of ``--hall-games`` boards
  playing their games ply by ply in turn (a round in progress); no MQTT, no store. Then the same
  with each move followed by its clock's ``press`` message (a hall with DGT clocks: two messages a
  ply), per ply.
- (b) the naive way: (a) + python-chess's ``can_claim_threefold_repetition()`` and
  ``can_claim_fifty_moves()`` after each ply (``--naive-games``, it is slow).

Times are CPU time of this process (time.process_time: one core, steadier than wall time on a
shared machine); each figure is the best of ``--repeat`` runs (the naive row runs once). Moves after
an automatic end (a few real games go on one move past a dead position) are dropped beforehand so
every row plays the same plies. Targets printed: the rules core (issue "Rules core") >= 25,000
plies/s and within 3x of (a), now with the FEN the gateway reads; the gateway (issue 15) at most
0.3 ms of CPU per ply, of which ``Hall.handle`` is the pure part.

Usage: ``.venv/bin/python bench/bench_rules.py [--repeat 3] [--hall-games 200] [--naive-games N]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import chess
import chess.pgn

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from gateway.hall import Hall  # noqa: E402
from _checkout import add_lock_option, hold_machine_lock  # noqa: E402
from gateway.laws import end_evidence  # noqa: E402
from services.rules.chess_game import ChessGame  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "chess"
SLUG = "bench-rules"


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


def run_san_fen(games) -> None:
    """(a2): python-chess SAN and push, then the FEN, per ply."""
    for fen, moves in games:
        board = chess.Board(fen)
        for uci in moves:
            board.san_and_push(board.parse_uci(uci))
            board.fen()


def run_venue(games, fen: bool = True) -> None:
    """The rules core as ``Decider.play``/``after_move`` call it for one move message (``fen``
    False: the FEN left unread, to see its share)."""
    for start, moves in games:
        game = ChessGame(start)
        for uci in moves:
            played = game.play(uci)
            if fen:
                played.fen
            played.san
            [c.to_json() for c in game.claimable()]
            game.turn
            if game.outcome is not None:
                end_evidence(game, game.outcome)


def run_naive(games) -> None:
    """(b): (a) + python-chess can_claim_threefold_repetition() and can_claim_fifty_moves()."""
    for fen, moves in games:
        board = chess.Board(fen)
        for uci in moves:
            board.push(board.parse_uci(uci))
            board.can_claim_threefold_repetition()
            board.can_claim_fifty_moves()


def hall_messages(games, clock: bool) -> tuple[dict, list[tuple[str, bytes]]]:
    """The ``round_started`` data of a round with one game a board, and the boards' move messages
    ``(topic, payload)`` in the order a round in progress sends them (every board's ply 1, then
    every board's ply 2, ...); with ``clock``, each move followed by its clock's press (the mover
    spent 20 s and gained the 30 s increment: no flag falls)."""
    setups = [{"id": f"1-{b}", "board": str(b), "round": "1", "white": f"W{b}", "black": f"B{b}",
               "white_elo": None, "black_elo": None, "variant": "chess", "time_control": "5400+30",
               "fen": None if fen == chess.STARTING_FEN else fen, "kind": "classical"}
              for b, (fen, _) in enumerate(games, start=1)]
    started = {"round": "1", "event": "Bench", "site": "", "date": "2026.12.01", "games": setups}
    messages = []
    for ply in range(max(len(moves) for _, moves in games)):
        for b, (_, moves) in enumerate(games, start=1):
            if ply < len(moves):
                payload = json.dumps({"seq": ply + 1, "move": moves[ply]}).encode()
                messages.append((f"venue/{SLUG}/boards/{b}/move", payload))
                if clock:
                    white_ms = 5_400_000 + (ply + 2) // 2 * 10_000
                    black_ms = 5_400_000 + (ply + 1) // 2 * 10_000
                    press = {"seq": ply + 1, "event": "press", "white_ms": white_ms, "black_ms": black_ms,
                             "running": "black" if ply % 2 == 0 else "white"}
                    messages.append((f"venue/{SLUG}/boards/{b}/clock", json.dumps(press).encode()))
    return started, messages


def time_hall(games, repeat: int, clock: bool = False) -> tuple[float, int]:
    """Least CPU seconds of ``repeat`` runs of a fresh hall handling every message of
    ``hall_messages``, and the entries the last run appended (a check that the moves were played,
    not refused: one ``move_played`` a ply, one ``clock_pressed`` a press, a few more)."""
    started, messages = hall_messages(games, clock)
    best, entries = float("inf"), 0
    for _ in range(repeat):
        hall = Hall(SLUG)
        hall.fold("round_started", started)
        now, entries = 0, 0
        start = time.process_time()
        steps = []
        for topic, payload in messages:
            now += 10
            steps.append(hall.handle(topic, payload, now))
        best = min(best, time.process_time() - start)
        if hall.faults:
            raise SystemExit(f"the hall caught {hall.faults} faults: {hall.last_fault}")
        entries = sum(len(step.entries) for step in steps)
        played = sum(t == "move_played" for step in steps for t, _ in step.entries)
        if played != sum(len(moves) for _, moves in games):
            raise SystemExit(f"the hall played {played} of the plies: the row would not measure them all")
    return best, entries


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
    parser.add_argument("--hall-games", type=int, default=200,
                        help="boards (games) of the Hall.handle row (default 200; 0 = all)")
    parser.add_argument("--naive-games", type=int, default=0,
                        help="games for the slow naive row (default 0 = all)")
    add_lock_option(parser)
    args = parser.parse_args()
    hold_machine_lock(args.lock)

    games = load_games()
    plies = sum(len(moves) for _, moves in games)
    naive_games = games[: args.naive_games] if args.naive_games else games
    naive_plies = sum(len(moves) for _, moves in naive_games)
    hall_games = games[: args.hall_games] if args.hall_games else games
    hall_plies = sum(len(moves) for _, moves in hall_games)

    limit = best_time(run_limit, games, args.repeat)
    san_fen = best_time(run_san_fen, games, args.repeat)
    venue = best_time(run_venue, games, args.repeat)
    venue_no_fen = best_time(lambda g: run_venue(g, fen=False), games, args.repeat)
    hall, hall_entries = time_hall(hall_games, args.repeat)
    hall_clock, _ = time_hall(hall_games, args.repeat, clock=True)
    naive = best_time(run_naive, naive_games, 1)
    rate_a = plies / limit
    rows = [("(a) python-chess parse_uci+push (baseline)", plies, limit),
            ("(a2) python-chess san_and_push+fen()", plies, san_fen),
            ("venue rules core, gateway calls (with FEN)", plies, venue),
            ("venue rules core, FEN left unread", plies, venue_no_fen),
            (f"Hall.handle(move message), {len(hall_games)} boards", hall_plies, hall),
            ("Hall.handle(move + clock press messages)", hall_plies, hall_clock),
            ("(b) naive: (a) + can_claim_threefold/fifty", naive_plies, naive)]

    print(f"chess, {len(games)} games with moves, {plies} plies (Hall.handle row: {len(hall_games)} games, "
          f"{hall_plies} plies, {hall_entries} entries); python-chess {chess.__version__}; "
          f"CPU seconds, best of {args.repeat}")
    print(f"{'row':50} {'plies':>7} {'CPU s':>7} {'plies/s':>9} {'us/ply':>8} {'vs (a)':>7}")
    for name, count, seconds in rows:
        per_second = count / seconds
        print(f"{name:50} {count:7d} {seconds:7.2f} {per_second:9.0f} {1e6 / per_second:8.1f} "
              f"{per_second / rate_a:7.3f}")
    rate_venue = plies / venue
    slowdown = rate_a / rate_venue
    print(f"rules core with FEN: target >= 25,000 plies/s {'met' if rate_venue >= 25_000 else 'NOT met'} "
          f"({rate_venue:.0f}); target within 3x of (a) {'met' if slowdown <= 3 else 'NOT met'} "
          f"({slowdown:.2f}x slower)")
    for what, seconds in (("move", hall), ("move + press", hall_clock)):
        hall_ms = seconds / hall_plies * 1000
        print(f"Hall.handle, {what}: {hall_ms:.3f} ms CPU a ply (the gateway's target, MQTT and store "
              f"included: 0.3 ms): {'within' if hall_ms <= 0.3 else 'NOT within'} it")


if __name__ == "__main__":
    main()
