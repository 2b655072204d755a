"""Positions per second of the dead-position / unwinnability test (FIDE Laws 5.2.2, 6.9), typical and
worst case, beside python-chess's ``is_insufficient_material()`` on the same positions in the same
run (the material test alone, which the venue used before and which misses blockades and forced
lines).

Rows:
- per move, real games: every position after a ply of the real games of ../shared/data/chess, as
  ``ChessGame`` meets them: ``DeadPositionWatch.after_move`` (the blockade re-analysed after pawn
  moves and captures, the forced-line walk where the side to move has few moves).
- one position, no search: ``dead_position(board, 0)`` (material and blockade) on the same
  positions, each on its own.
- flag fall, real timeouts: ``can_checkmate(board, winner)`` with the flag-fall budget on the final
  positions of lichess games lost on time (the list shipped with Ambrona's CHA,
  tests/lichess-30K-games.txt, read from the fetched repository; sampled).
- flag fall, CHA test vectors: the same on CHA's hard, hand-made positions (tests/test-vector.txt,
  both sides), with how many of the unwinnable sides are proved and how many verdicts contradict
  CHA's labels (must be 0).

Times are CPU time of this process for the totals (time.process_time) and wall time per position
for the worst case and the 99th percentile. Usage:
``.venv/bin/python bench/bench_dead_position.py [--timeouts 2000] [--vectors 600] [--nodes N]
[--cha-repo DIR]``; DIR: a clone of github.com/miguel-ambrona/D3-Chess (bare or not), by default
``../D3-Chess`` beside this checkout (as ../shared is); without it the CHA rows are skipped.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from services.rules.chess_unwinnable import (  # noqa: E402
    FLAG_FALL_NODES, UNWINNABLE, DeadPositionWatch, can_checkmate, dead_position,
)

DATA = REPO.parent / "shared" / "data" / "chess"
CHA_REPO = REPO.parent / "D3-Chess"


def real_game_plies() -> list[tuple[chess.Board, bool]]:
    """(board after the ply, whether the ply moved a pawn or took a man) for every ply of every
    real game, each game stopped at its end under the Laws as python-chess sees it."""
    out = []
    for path in sorted(DATA.rglob("*.pgn")):
        with open(path, encoding="utf-8-sig") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                board = game.board()
                for move in game.mainline_moves():
                    if board.is_game_over():
                        break
                    zeroing = board.is_zeroing(move)
                    board.push(move)
                    out.append((board.copy(stack=False), zeroing))
    return out


def cha_file(repo: Path, name: str) -> list[str]:
    """The lines of ``tests/<name>`` at HEAD of the CHA repository ``repo`` (a clone, bare or not)."""
    try:
        text = subprocess.run(["git", "-C", str(repo), "show", f"HEAD:tests/{name}"],
                              check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def board_of(fen: str) -> chess.Board:
    fields = fen.split()[:4]
    return chess.Board(" ".join(fields + ["-", "-", "0", "1"][len(fields) - 2:]))


def measure(items, call) -> tuple[float, list[float]]:
    """(total CPU seconds, per-item wall seconds) of ``call(item)`` over ``items``."""
    each = []
    cpu = time.process_time()
    for item in items:
        start = time.perf_counter()
        call(item)
        each.append(time.perf_counter() - start)
    return time.process_time() - cpu, each


def row(name: str, count: int, ours: tuple[float, list[float]], base: tuple[float, list[float]]) -> str:
    seconds, each = ours
    each = sorted(each)
    rate = count / seconds if seconds else float("inf")
    base_rate = count / base[0] if base[0] else float("inf")
    p99 = each[int(len(each) * 0.99)] * 1e3 if each else 0.0
    worst = each[-1] * 1e3 if each else 0.0
    return (f"{name:<40} {count:>7} {rate:>12,.0f} {base_rate:>12,.0f} {base_rate / rate:>7.1f}x "
            f"{p99:>9.3f} {worst:>9.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeouts", type=int, default=2000, help="lichess timeouts sampled (0: all)")
    parser.add_argument("--vectors", type=int, default=600, help="CHA test vectors sampled (0: all)")
    parser.add_argument("--nodes", type=int, default=FLAG_FALL_NODES, help="search budget per side")
    parser.add_argument("--cha-repo", type=Path, default=CHA_REPO)
    args = parser.parse_args()
    rng = random.Random(12)

    plies = real_game_plies()
    boards = [board for board, _ in plies]
    print(f"dead-position test, python-chess {chess.__version__}, search budget {args.nodes} nodes")
    print(f"{'row':<40} {'positions':>7} {'ours pos/s':>12} {'base pos/s':>12} {'slower':>8} "
          f"{'p99 ms':>9} {'worst ms':>9}")
    baseline = measure(boards, lambda board: board.is_insufficient_material())

    def per_move(item):
        board, zeroing = item
        watch.after_move(board, zeroing)

    watch = DeadPositionWatch(chess.Board())
    print(row("per move, real games (watch)", len(plies), measure(plies, per_move), baseline))
    print(row("one position, no search", len(boards), measure(boards, lambda b: dead_position(b, 0)), baseline))

    timeouts = cha_file(args.cha_repo, "lichess-30K-games.txt")
    if timeouts:
        if args.timeouts:
            timeouts = rng.sample(timeouts, min(args.timeouts, len(timeouts)))
        cases = [(board_of(line), None) for line in timeouts]
        cases = [(board, "white" if board.turn == chess.BLACK else "black") for board, _ in cases]
        found = {}

        def flag_fall(case):
            board, winner = case
            found[id(case)] = can_checkmate(board, winner, args.nodes).verdict

        ours = measure(cases, flag_fall)
        base = measure(cases, lambda case: case[0].has_insufficient_material(chess.WHITE if case[1] == "white" else chess.BLACK))
        print(row("flag fall, lichess timeouts", len(cases), ours, base))
        drawn = sum(1 for verdict in found.values() if verdict == UNWINNABLE)
        print(f"  flag falls drawn (opponent cannot mate): {drawn} of {len(cases)}; "
              f"by material alone: {sum(1 for b, w in cases if b.has_insufficient_material(chess.WHITE if w == 'white' else chess.BLACK))}")
    else:
        print(f"  (no CHA repository at {args.cha_repo}: timeout and vector rows skipped)")

    vectors = cha_file(args.cha_repo, "test-vector.txt")
    if vectors:
        if args.vectors:
            vectors = rng.sample(vectors, min(args.vectors, len(vectors)))
        cases = []
        for line in vectors:
            label, fen = line[:2], line[3:]
            board = board_of(fen)
            cases.append((board, "white", label[0] == "W"))
            cases.append((board, "black", label[1] == "B"))
        verdicts = []

        def vector(case):
            board, side, _ = case
            verdicts.append(can_checkmate(board, side, args.nodes).verdict)

        ours = measure(cases, vector)
        base = measure(cases, lambda case: case[0].has_insufficient_material(chess.WHITE if case[1] == "white" else chess.BLACK))
        print(row("flag fall, CHA test vectors (per side)", len(cases), ours, base))
        cannot = [verdict for (_, _, can), verdict in zip(cases, verdicts) if not can]
        contradictions = sum(1 for (_, _, can), verdict in zip(cases, verdicts) if can and verdict == UNWINNABLE)
        material = sum(1 for board, side, can in cases
                       if not can and board.has_insufficient_material(chess.WHITE if side == "white" else chess.BLACK))
        print(f"  sides that cannot mate (CHA): {len(cannot)}; proved: {cannot.count(UNWINNABLE)}; "
              f"by material alone: {material}; contradictions with CHA: {contradictions}")


if __name__ == "__main__":
    main()
