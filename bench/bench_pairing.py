"""Pairing speed: a 300-player Swiss round by the Dutch system (FIDE C.04.3), command against command.

Times ``venue pair FILE.trf`` as a user runs it (a new process each run: the interpreter's start-up,
the imports, reading and parsing the TRF, pairing, printing) on round 11 and on round 1 of a
300-player tournament, and, when given a bbpPairings binary (``--bbp PATH``; FIDE-endorsed, built
from its public source outside the project), ``bbpPairings --dutch FILE.trf -p OUT`` on the same
files in the same run, with the ratios (the baseline). Both pairings are compared too (they must be
equal). Hyperfine-like: one warm-up run of each command, then ``--runs`` timed runs; the median
wall and CPU (user + system of the child) times are printed, and the least CPU time; CPU is the
figure to compare on a shared machine. The commands run as from an installed package: the warm-up
writes the project's ``.pyc`` files (``PYTHONDONTWRITEBYTECODE`` is dropped from their environment;
with it, every run would compile the project's modules again, ~0.03 s no user pays), and the table
says which.

The tournament: with ``--bbp``, bbpPairings' own random generator (``-g``: 300 players, 11 rounds,
30 % draws, forfeits, retirements and half-point byes; seeded), cut after 10 rounds and after 0;
without it, rounds paired by our engine with seeded random results (``bench/_swiss.py``). Also
printed for scale: the start-up alone (``venue pair --help``; ``python -c pass``) and the pairing in
process (parse + pair, no start-up; best of the runs).

Usage: python bench/bench_pairing.py [--bbp PATH] [--players 300] [--rounds 11] [--runs 5]
[--seeds S1,S2,...] (one table per tournament; the time of a round depends on the tournament).
Prints the tables and, with ``--bbp``, whether each round, start-up and parsing included, is at least
as fast as bbpPairings (CPU medians).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _checkout import add_lock_option, hold_machine_lock
from _commands import Timing, timed
from _swiss import POINTS, dutch_swiss

from services.tournament.pairing.dutch import pair_trf
from services.tournament.trf import TrfPlayer, TrfTournament, dump_trf, parse_trf


def cut(t: TrfTournament, rounds: int, total: int, initial: str = "white1") -> TrfTournament:
    """``t`` after its first ``rounds`` rounds (points recomputed), XXR ``total``, the first colour
    given (C.04.3 E.5 needs it for round 1); requested byes already drawn for the next round stay."""
    out = TrfTournament(total_rounds=total, header=["012 Pairing benchmark", f"XXR {total}", f"XXC {initial}"])
    for s, p in sorted(t.players.items()):
        games = p.games[:rounds]
        nxt = p.games[rounds] if len(p.games) > rounds else None
        if nxt is not None and nxt.opponent is None and nxt.result in "HZF":
            games = games + [nxt]
        out.players[s] = TrfPlayer(start_no=s, name=p.name or f"Player {s}", rating=p.rating,
                                   points=sum(POINTS.get(g.result, 0.0) for g in p.games[:rounds]), games=games)
    return out


def bbp_tournament(bbp: str, players: int, rounds: int, seed: int, tmp: str) -> TrfTournament:
    """bbpPairings' random tournament (its generator, ``-g``), parsed."""
    cfg = os.path.join(tmp, "gen.cfg")
    Path(cfg).write_text(f"PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage=30\nForfeitRate=40\n"
                         "RetiredRate=30\nHalfPointByeRate=30\n")
    out = os.path.join(tmp, "gen.trf")
    subprocess.run([bbp, "--dutch", "-g", cfg, "-o", out, "-s", str(seed)], check=True, capture_output=True)
    return parse_trf(Path(out).read_text().replace("\r", "\n"))


def in_process(path: str, runs: int) -> float:
    """Least CPU seconds of reading, parsing and pairing ``path`` in this process (no start-up)."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        pair_trf(parse_trf(Path(path).read_text(encoding="utf-8")))
        best = min(best, time.process_time() - t0)
    return best


def _pairs(text: str) -> set[str]:
    lines = text.split("\n")
    return set(lines[1:int(lines[0]) + 1])


def main() -> None:
    """Build the files, time both commands on each, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bbp", help="path to a bbpPairings binary (optional)")
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=11, help="the later round to pair (default 11)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each command (after one warm-up)")
    ap.add_argument("--seeds", default="2013,11,5", help="comma-separated seeds, one tournament each")
    add_lock_option(ap)
    args = ap.parse_args()
    hold_machine_lock(args.lock)
    for seed in (int(x) for x in args.seeds.split(",")):
        run(args, seed)


Row = tuple[str, Timing | None, float | None, float | None]  # name, timing, in-process CPU, CPU ratio


def run(args: argparse.Namespace, seed: int) -> None:
    """Build one tournament, time both commands on its rounds, print its table."""
    venue = [sys.executable, "-m", "venue", "pair"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="bench-pairing") as tmp:
        t0 = time.perf_counter()
        if args.bbp:
            full = bbp_tournament(args.bbp, args.players, args.rounds, seed, tmp)
            source = "bbpPairings' generator"
        else:
            full = dutch_swiss(args.players, args.rounds - 1, seed)
            source = "our engine"
        build = time.perf_counter() - t0
        rows: list[Row] = [("python -c pass (the interpreter alone)",
                            timed([sys.executable, "-c", "pass"], args.runs, env=env), None, None),
                           ("start-up: venue pair --help", timed(venue + ["--help"], args.runs, env=env), None, None)]
        verdicts = []
        for rnd in (args.rounds, 1):
            path = os.path.join(tmp, f"round{rnd}.trf")
            out = os.path.join(tmp, "out.pairs")
            Path(path).write_text(dump_trf(cut(full, rnd - 1, args.rounds)))
            ours = timed(venue + [path], args.runs, env=env)
            if args.bbp:
                theirs = timed([args.bbp, "--dutch", path, "-p", out], args.runs)
                rows.append((f"round {rnd}: bbpPairings (baseline)", theirs, None, 1.0))
                ratio = ours.cpu / theirs.cpu
                same = _pairs(ours.stdout) == _pairs(Path(out).read_text())
                verdicts.append(f"round {rnd}: venue pair / bbpPairings CPU {ratio:.2f} "
                                f"({'at least as fast' if ratio <= 1 else 'SLOWER'}), pairings "
                                f"{'equal' if same else 'DIFFERENT'}")
            else:
                ratio = None
            rows.append((f"round {rnd}: venue pair", ours, in_process(path, args.runs), ratio))
    print(f"Dutch pairing, {args.players} players (seed {seed}; tournament from {source} in {build:.1f} s); "
          f"commands: median of {args.runs} runs after a warm-up (which writes the .pyc files)")
    print(f"{'what':<40}{'wall s':>8}{'CPU s':>8}{'min CPU':>9}{'in-proc':>9}{'CPU / bbp':>11}")
    for name, timing, inproc, ratio in rows:
        print(f"{name:<40}{timing.wall:>8.3f}{timing.cpu:>8.3f}{timing.cpu_min:>9.3f}"
              f"{'' if inproc is None else f'{inproc:.3f}':>9}{'' if ratio is None else f'{ratio:.2f}':>11}")
    for line in verdicts:
        print(line)


if __name__ == "__main__":
    main()
