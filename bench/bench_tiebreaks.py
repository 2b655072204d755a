"""Benchmark: every tie-break of a 300-player, 11-round Swiss (generated with a seeded RNG).

Prints one line per tie-break list with its time and its ratio to the baseline measured in the same run
(computing only the points, PTS). Target: all tie-breaks together under 1 s.

    .venv/bin/python bench/bench_tiebreaks.py [--players 300] [--rounds 11] [--seed 2026] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import time

from services.tournament.model import Entry, Field, Player
from services.tournament.tiebreaks import compute_tiebreaks

ALL = ["PTS", "DE", "WIN", "WON", "BPG", "BWG", "BH", "BH/C1", "BH/M1", "SB", "KS", "ARO", "LOT"]


def generate(players: int, rounds: int, seed: int) -> Field:
    """A Swiss-like event: each round pairs by score (greedy, no repeats), a PAB for an odd player,
    ~2 % forfeits, ~1 % half-point byes, results drawn with ratings in mind."""
    rng = random.Random(seed)
    ratings = {s: 2700 - 3 * s + rng.randint(-40, 40) for s in range(1, players + 1)}
    entries: dict[int, list[Entry]] = {s: [] for s in ratings}
    points = {s: 0.0 for s in ratings}
    met: dict[int, set[int]] = {s: set() for s in ratings}
    for r in range(1, rounds + 1):
        order = sorted(ratings, key=lambda s: (-points[s], s))
        byes = [s for s in order if rng.random() < 0.01]
        for s in byes:
            entries[s].append(Entry(r, None, None, "H", 0.5, 0.5))
        pool = [s for s in order if s not in byes]
        if len(pool) % 2:
            s = pool.pop()
            entries[s].append(Entry(r, None, None, "U", 1.0, 1.0))
        while pool:
            a = pool.pop(0)
            b = next((x for x in pool if x not in met[a]), pool[0])
            pool.remove(b)
            met[a].add(b)
            met[b].add(a)
            w, bl = (a, b) if rng.random() < 0.5 else (b, a)
            if rng.random() < 0.02:
                cw, cb = ("+", "-") if rng.random() < 0.5 else ("-", "+")
                col_w = col_b = None
            else:
                p = 1 / (1 + 10 ** ((ratings[bl] - ratings[w]) / 400))
                x = rng.random()
                cw, cb = ("1", "0") if x < p - 0.15 else (("0", "1") if x > p + 0.15 else ("=", "="))
                col_w, col_b = "w", "b"
            for s, o, c, col in ((w, bl, cw, col_w), (bl, w, cb, col_b)):
                pts = {"1": 1.0, "+": 1.0, "=": 0.5}.get(c, 0.0)
                entries[s].append(Entry(r, o, col, c, pts, pts))
        for s in ratings:
            points[s] = sum(e.points for e in entries[s])
    return Field({s: Player(s, f"P{s}", ratings[s], entries[s]) for s in ratings}, rounds)


def measure(field: Field, specs: list[str], repeat: int) -> float:
    """Best of ``repeat`` wall times (s) of computing ``specs``."""
    lots = {s: s for s in field.players}
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        compute_tiebreaks(field, specs, round_robin=False, lots=lots)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    field = generate(args.players, args.rounds, args.seed)
    base = measure(field, ["PTS"], args.repeat)
    rows = [("PTS (baseline)", base)]
    for tb in ALL[1:]:
        rows.append((f"PTS,{tb}", measure(field, ["PTS", tb], args.repeat)))
    rows.append(("all: " + ",".join(ALL), measure(field, ALL, args.repeat)))
    print(f"{args.players} players, {args.rounds} rounds, seed {args.seed}, best of {args.repeat}")
    print(f"{'tie-breaks':<60} {'ms':>9} {'x baseline':>11}")
    for name, t in rows:
        print(f"{name:<60} {t * 1000:9.2f} {t / base:11.1f}")
    total = rows[-1][1]
    print(f"target: all tie-breaks under 1000 ms: {'met' if total < 1.0 else 'NOT met'} ({total * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
