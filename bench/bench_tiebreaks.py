"""Benchmark: every tie-break of a possible 300-player, 11-round Swiss, in process and as a command.

The tournament (``bench/_swiss.py``): every round paired by our Dutch engine (FIDE C.04.3) with
seeded random results, forfeits and half-point byes, so its colour histories are ones a Swiss can
have; with ``--bbp PATH`` bbpPairings' checker (``--dutch FILE -c``) checks it first.

Prints, each beside its baseline measured in the same run:
- in process (``compute_tiebreaks`` on the Field read from the TRF; CPU, best of ``--repeat``): each
  tie-break after PTS, and all of them, against PTS alone;
- as a user runs it (a new process each time, median of ``--runs`` after a warm-up):
  ``venue tiebreaks FILE.trf --system swiss --tiebreaks ALL`` against the same command with PTS
  alone (start-up, reading and parsing the TRF included in both), and the interpreter's own
  start-up (``python -c pass``) for scale.

Targets: all tie-breaks under 1 s in process, and the command, start-up and parsing included,
under 1 s.

    .venv/bin/python bench/bench_tiebreaks.py [--players 300] [--rounds 11] [--seed 2026]
        [--repeat 5] [--runs 10] [--bbp PATH]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _commands import timed
from _checkout import add_lock_option, hold_machine_lock
from _swiss import dutch_swiss

from services.tournament.model import Field, field_from_trf
from services.tournament.tiebreaks import compute_tiebreaks
from services.tournament.trf import dump_trf, parse_trf

ALL = ["PTS", "DE", "WIN", "WON", "BPG", "BWG", "BH", "BH/C1", "BH/M1", "SB", "KS", "ARO", "LOT"]


def measure(field: Field, specs: list[str], repeat: int) -> float:
    """Least CPU seconds of ``repeat`` computations of ``specs``."""
    lots = {s: s for s in field.players}
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        compute_tiebreaks(field, specs, round_robin=False, lots=lots)
        best = min(best, time.process_time() - t0)
    return best


def bbp_check(bbp: str, path: str) -> str:
    """bbpPairings' checker on ``path``: "accepted" or what it said."""
    proc = subprocess.run([bbp, "--dutch", path, "-c"], capture_output=True, text=True)
    said = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip() and ": Round #" not in line]
    return "accepted" if proc.returncode == 0 and not said else f"exit {proc.returncode}: {' / '.join(said)[:300]}"


def main() -> None:
    """Build the tournament, time everything, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=5, help="in-process runs per row, best kept")
    ap.add_argument("--runs", type=int, default=10, help="command runs per row, median kept")
    ap.add_argument("--bbp", help="a bbpPairings binary: check the tournament with its checker first")
    add_lock_option(ap)
    args = ap.parse_args()
    hold_machine_lock(args.lock)
    t0 = time.perf_counter()
    text = dump_trf(dutch_swiss(args.players, args.rounds, args.seed))
    built = time.perf_counter() - t0
    with tempfile.TemporaryDirectory(prefix="bench-tiebreaks") as tmp:
        path = os.path.join(tmp, "swiss.trf")
        Path(path).write_text(text)
        checked = bbp_check(args.bbp, path) if args.bbp else "not run (no --bbp)"
        field = field_from_trf(parse_trf(text))
        base = measure(field, ["PTS"], args.repeat)
        rows = [("PTS (baseline)", base)]
        for tb in ALL[1:]:
            rows.append((f"PTS,{tb}", measure(field, ["PTS", tb], args.repeat)))
        rows.append(("all: " + ",".join(ALL), measure(field, ALL, args.repeat)))
        venue = [sys.executable, "-m", "venue", "tiebreaks", path, "--system", "swiss", "--tiebreaks"]
        python = timed([sys.executable, "-c", "pass"], args.runs)
        pts = timed(venue + ["PTS"], args.runs)
        every = timed(venue + [",".join(ALL)], args.runs)
    print(f"{args.players} players, {args.rounds} rounds, seed {args.seed}: paired by our Dutch engine in "
          f"{built:.1f} s; bbpPairings' checker: {checked}")
    print(f"in process, CPU, best of {args.repeat}")
    print(f"{'tie-breaks':<60} {'ms':>9} {'x baseline':>11}")
    for name, t in rows:
        print(f"{name:<60} {t * 1000:9.2f} {t / base:11.1f}")
    print(f"as a command (a new process: start-up, TRF parsing, tie-breaks, printing), median of {args.runs}")
    print(f"{'command':<60} {'wall ms':>9} {'CPU ms':>9} {'CPU x baseline':>15}")
    for name, timing in (("python -c pass (the interpreter alone)", python),
                         ("venue tiebreaks FILE --tiebreaks PTS (baseline)", pts),
                         (f"venue tiebreaks FILE --tiebreaks ALL ({len(ALL)}, as above)", every)):
        print(f"{name:<60} {timing.wall * 1000:9.1f} {timing.cpu * 1000:9.1f} {timing.cpu / pts.cpu:15.2f}")
    total = rows[-1][1]
    print(f"target: all tie-breaks under 1000 ms in process: {'met' if total < 1.0 else 'NOT met'} "
          f"({total * 1000:.1f} ms); the command under 1000 ms wall: {'met' if every.wall < 1.0 else 'NOT met'} "
          f"({every.wall * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
