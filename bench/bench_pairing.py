"""Pairing speed: one round of a 300-player Swiss by the Dutch system (FIDE C.04.3).

Builds a 300-player tournament with a seeded RNG: rounds 1-5 paired by our own Dutch engine, results
drawn at random (white wins 40 %, draws 30 %, black wins 27 %, forfeits 3 %). Then times the pairing
of round 6, beside two baselines measured in the same run:

- "score groups": building the players' pairing state (scores, colour preferences, floats) and
  sorting them into score groups, the work any pairing program does first;
- "Berger 300": the whole 299-round Berger schedule for 300 players (C.05 Annex 1).

Target: a Dutch round under 1 s. Usage: python bench/bench_pairing.py [--players N] [--rounds K]
[--repeat R] [--seed S]. Prints a table; no assertion.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from services.tournament.pairing.berger import berger_schedule
from services.tournament.pairing.dutch.history import BLACK, DRAW, LOSS, WHITE, WIN, Game, PlayerRecord, RoundInput
from services.tournament.pairing.dutch.result import pair_input
from services.tournament.pairing.dutch.state import build_players


def make_tournament(players: int, rounds: int, total: int, seed: int) -> RoundInput:
    """A tournament of ``players`` after ``rounds`` rounds, each paired by the Dutch engine."""
    rng = random.Random(seed)
    inp = RoundInput({s: PlayerRecord(s) for s in range(1, players + 1)}, 0, total, WHITE)
    for _ in range(rounds):
        pairing = pair_input(inp)
        for board in pairing:
            if board.black is None:
                inp.players[board.white].games.append(Game(None, 2, WIN, False, True))
                continue
            x = rng.random()
            w, b = board.white, board.black
            if x < 0.03:
                wg, bg = Game(b, WHITE, WIN, False, True), Game(w, BLACK, LOSS, False, True)
            else:
                ws = WIN if x < 0.43 else DRAW if x < 0.73 else LOSS
                wg = Game(b, WHITE, ws, True, True)
                bg = Game(w, BLACK, 2 - ws, True, True)
            inp.players[w].games.append(wg)
            inp.players[b].games.append(bg)
        inp.played_rounds += 1
    return inp


def _time(fn, repeat: int) -> tuple[float, float]:
    """Median (wall, CPU) seconds of ``repeat`` calls: CPU time is shown too because other work on a
    shared machine inflates the wall time."""
    walls, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    """Build the tournament, time the baselines and the Dutch round, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2013)
    args = ap.parse_args()
    t0 = time.perf_counter()
    inp = make_tournament(args.players, args.rounds, args.rounds + 4, args.seed)
    build = time.perf_counter() - t0

    def groups() -> None:
        """Baseline: pairing state of every player, bucketed by score."""
        players, _ = build_players(inp)
        buckets: dict[int, list] = {}
        for p in players:
            buckets.setdefault(p.score, []).append(p)

    base_groups = _time(groups, max(args.repeat, 5))
    base_berger = _time(lambda: berger_schedule(args.players), max(args.repeat, 5))
    dutch = _time(lambda: pair_input(inp), args.repeat)
    print(f"Dutch pairing, {args.players} players, round {args.rounds + 1} (seed {args.seed}; "
          f"rounds 1-{args.rounds} built in {build:.1f} s)")
    print(f"{'what':<34}{'wall (s)':>10}{'CPU (s)':>10}{'ratio (CPU)':>13}")
    rows = [
        ("baseline: score groups", base_groups),
        (f"baseline: Berger schedule {args.players}", base_berger),
        ("Dutch round (C.04.3)", dutch),
    ]
    for name, (wall, cpu) in rows:
        print(f"{name:<34}{wall:>10.4f}{cpu:>10.4f}{cpu / max(base_groups[1], 1e-9):>13.1f}")
    for what, value in (("wall", dutch[0]), ("CPU", dutch[1])):
        print(f"target: a Dutch round under 1 s ({what}): {'met' if value < 1.0 else 'NOT met'}")


if __name__ == "__main__":
    main()
