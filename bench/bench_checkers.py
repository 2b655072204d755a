"""The checkers rules core on real games: the full Tinsley replay, moves per second against raw
pydraughts, and perft to depth 5.

1. Replay: every record of ../shared/data/checkers/tinsley.pdn (724 games) and german_open_2004.pdn
   through ``checkers_pdn.replay`` (``CheckersGame.play``, pydraughts behind it), with the checks
   of tests/unit/test_checkers_pdn.py on all of them (the unit test replays a sample): 721 Tinsley
   games replay with their moves and results; #541 is refused at ply 123 (32-28, square 32 empty);
   #623 and #693 end in time forfeits. Exits non-zero when a check fails.
2. Moves per second on the same plies (every ``--every``-th game; moves as replayed in 1):
   - (a) raw pydraughts, the limit: ``board.legal_moves()``, the move with the recorded route,
     ``board.push(move)``; no text parsing, no end-of-game check;
   - (b) ``CheckersGame.play(text)`` with the legal-move cache emptied before each game (a game
     from scratch: nothing gained from the other games);
   - (c) ``CheckersGame.play(text)`` with the shared cache, as deployed (games of a round share
     their balloted openings);
   - (d) (c) + ``claimable()`` + ``outcome`` after each ply: what the gateway does per move.
   Target (issue "American checkers", pydraughts behind the rules interface): (b) and (c) cost
   less than 2x (a). Each figure is the best of ``--repeat`` runs.
3. Perft from the start through ``CheckersGame`` (a game per node, set up from its parent's FEN),
   depths 1-5 against the published 7, 49, 302, 1469, 7361 (the unit test stops at depth 4).

Usage: ``.venv/bin/python bench/bench_checkers.py [--every 4] [--repeat 1] [--no-perft]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import draughts

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from services.rules.base import Outcome  # noqa: E402
from services.rules.checkers_board import clear_cache  # noqa: E402
from services.rules.checkers_game import CheckersGame  # noqa: E402
from services.rules.checkers_notation import parse_move_text  # noqa: E402
from services.rules.checkers_pdn import PdnReplayError, read_pdn, replay  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "checkers"
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361}
FORFEITS = {623: Outcome("1-0", "time_forfeit"), 693: Outcome("0-1", "time_forfeit")}


def _ends(move: str) -> tuple[int, int]:
    squares = parse_move_text(move)
    return squares[0], squares[-1]


def full_replay() -> tuple[list[tuple[list[str], list[str]]], list[str]]:
    """Replay every record; returns ([(recorded texts, canonical routes) per game], failed checks)."""
    failures: list[str] = []
    played: list[tuple[list[str], list[str]]] = []
    records = read_pdn((DATA / "tinsley.pdn").read_text())
    german = read_pdn((DATA / "german_open_2004.pdn").read_text())
    if len(records) != 724:
        failures.append(f"tinsley.pdn: {len(records)} records, SOURCES.md says 724")
    refused: dict[int, PdnReplayError] = {}
    start, plies = time.perf_counter(), 0
    for number, record in enumerate(records + german, start=1):
        try:
            game = replay(record)
        except PdnReplayError as exc:
            refused[number] = exc
            texts = record.moves[: exc.ply - 1]
            played.append((texts, CheckersGame.from_moves(texts).moves))
            plies += len(texts)
            continue
        plies += game.ply
        played.append((record.moves, game.moves))
        if [_ends(m) for m in game.moves] != [_ends(m) for m in record.moves]:
            failures.append(f"#{number}: moves differ from the record")
        if game.outcome is None or game.outcome.result != record.venue_result:
            failures.append(f"#{number}: outcome {game.outcome} for PDN result {record.result}")
        if number in FORFEITS and game.outcome != FORFEITS[number]:
            failures.append(f"#{number}: {game.outcome}, expected {FORFEITS[number]}")
    seconds = time.perf_counter() - start
    if list(refused) != [541]:
        failures.append(f"refused {sorted(refused)}, expected [541] only")
    elif (refused[541].ply, refused[541].move) != (123, "32-28") or "square 32 is empty" not in refused[541].reason:
        failures.append(f"#541 refused as {refused[541]}")
    print(f"replay: {len(records)} Tinsley records + {len(german)} German Open 2004, {plies} plies "
          f"in {seconds:.1f} s ({plies / seconds:.0f} plies/s, checks included); refused: "
          + ", ".join(f"#{n} at ply {e.ply} ({e.move})" for n, e in refused.items()))
    return played, failures


def run_raw(games) -> None:
    for _texts, routes in games:
        board = draughts.Board("english")
        for route in routes:
            steps = list(parse_move_text(route))
            board.push(next(m for m in board.legal_moves() if m.steps_move == steps))


def run_cold(games) -> None:
    for texts, _routes in games:
        clear_cache()
        game = CheckersGame()
        for text in texts:
            game.play(text)


def run_warm(games) -> None:
    for texts, _routes in games:
        game = CheckersGame()
        for text in texts:
            game.play(text)


def run_gateway(games) -> None:
    for texts, _routes in games:
        game = CheckersGame()
        for text in texts:
            game.play(text)
            game.claimable()
            game.outcome


def best_of(runner, games, repeat: int, before=None) -> float:
    best = float("inf")
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        runner(games)
        best = min(best, time.perf_counter() - start)
    return best


def perft(game: CheckersGame, depth: int) -> int:
    if depth == 1:
        return len(game.legal_moves())
    total = 0
    for move in game.legal_moves():
        child = CheckersGame(game.fen)
        child.play(move)
        total += perft(child, depth - 1)
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=4, help="time every N-th replayed game (default 4)")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs per row (default 1)")
    parser.add_argument("--no-perft", action="store_true", help="skip perft")
    args = parser.parse_args()

    played, failures = full_replay()
    sample = played[:: args.every]
    plies = sum(len(texts) for texts, _ in sample)
    rows = [
        ("(a) raw pydraughts: legal_moves() + push()", best_of(run_raw, sample, args.repeat)),
        ("(b) CheckersGame.play, cache emptied per game", best_of(run_cold, sample, args.repeat)),
        ("(c) CheckersGame.play, shared cache", best_of(run_warm, sample, args.repeat, clear_cache)),
        ("(d) (c) + claimable() + outcome per ply", best_of(run_gateway, sample, args.repeat, clear_cache)),
    ]
    limit = rows[0][1]
    print(f"\nmoves per second on {plies} plies of {len(sample)} games (every {args.every}th replayed game)")
    print(f"{'row':<48} {'seconds':>8} {'plies/s':>8} {'x (a)':>6}")
    for name, seconds in rows:
        print(f"{name:<48} {seconds:>8.2f} {plies / seconds:>8.0f} {seconds / limit:>6.2f}")
    for name, seconds in rows[1:3]:
        if seconds > 2 * limit:
            failures.append(f"{name}: {seconds / limit:.2f}x raw pydraughts, target < 2x")

    if not args.no_perft:
        print(f"\nperft from the start through CheckersGame\n{'depth':>5} {'nodes':>6} {'expected':>8} {'seconds':>8}")
        for depth, expected in PERFT.items():
            start = time.perf_counter()
            nodes = perft(CheckersGame(), depth)
            print(f"{depth:>5} {nodes:>6} {expected:>8} {time.perf_counter() - start:>8.2f}")
            if nodes != expected:
                failures.append(f"perft({depth}) = {nodes}, expected {expected}")

    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
