"""Pairing speed: a 300-player Swiss round by the Dutch system (FIDE C.04.3), command against command.

Times ``venue pair FILE.trf`` as a user runs it (a new process: start-up, reading and parsing the
TRF, pairing, printing) on round 11 and on round 1 of a 300-player tournament, and, when given a
bbpPairings binary (``--bbp PATH``; FIDE-endorsed, built from its public source outside the
project), ``bbpPairings --dutch FILE.trf -p OUT`` on the same files in the same run, with the ratio.
Both pairings are compared too (they must be equal).

The tournament: with ``--bbp``, bbpPairings' own random generator (``-g``: 300 players, 11 rounds,
30 % draws, forfeits, retirements and half-point byes; seeded), cut after 10 rounds and after 0;
without it, rounds paired by our engine with seeded random results (forfeits and half-point byes
included). Also printed: the start-up alone (``venue pair --berger 2``) and the in-process baseline
of building the players' pairing state (score groups). Wall and CPU times are the median of
``--repeat`` runs; CPU (user + system of the child) is the figure to compare on a shared machine.

Usage: python bench/bench_pairing.py [--bbp PATH] [--players 300] [--rounds 11] [--repeat 3]
[--seeds S1,S2,...] (one table per tournament; the time of a round depends on the tournament).
Prints the tables; no assertion.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from services.tournament.pairing.dutch import pair_trf, round_input_from_trf
from services.tournament.pairing.dutch.state import build_players
from services.tournament.trf import TrfGame, TrfPlayer, TrfTournament, dump_trf, parse_trf

_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}


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
                                   points=sum(_POINTS.get(g.result, 0.0) for g in p.games[:rounds]), games=games)
    return out


def our_tournament(players: int, rounds: int, seed: int) -> TrfTournament:
    """``players`` paired for ``rounds`` rounds by our engine; seeded results: white wins 40 %, draws
    30 %, black wins 26 %, forfeits 2 %, a half-point bye requested 2 % of the time."""
    rng = random.Random(seed)
    t = TrfTournament(total_rounds=rounds + 1, header=["012 Pairing benchmark", f"XXR {rounds + 1}", "XXC white1"])
    for s in range(1, players + 1):
        t.players[s] = TrfPlayer(start_no=s, name=f"Player {s}", rating=2700 - 3 * s, points=0.0)
    for rnd in range(1, rounds + 1):
        for p in t.players.values():
            if rng.random() < 0.02:
                p.games.append(TrfGame(rnd, None, None, "H"))
        for board in pair_trf(t):
            w, b = t.players[board.white], (t.players[board.black] if board.black else None)
            if b is None:
                w.games.append(TrfGame(rnd, None, None, "U"))
                continue
            x = rng.random()
            codes = ("+", "-") if x < 0.02 else ("1", "0") if x < 0.42 else ("=", "=") if x < 0.72 else ("0", "1")
            w.games.append(TrfGame(rnd, b.start_no, "w", codes[0]))
            b.games.append(TrfGame(rnd, w.start_no, "b", codes[1]))
    for p in t.players.values():
        p.points = sum(_POINTS.get(g.result, 0.0) for g in p.games)
    return t


def bbp_tournament(bbp: str, players: int, rounds: int, seed: int, tmp: str) -> TrfTournament:
    """bbpPairings' random tournament (its generator, ``-g``), parsed."""
    cfg = os.path.join(tmp, "gen.cfg")
    Path(cfg).write_text(f"PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage=30\nForfeitRate=40\n"
                         "RetiredRate=30\nHalfPointByeRate=30\n")
    out = os.path.join(tmp, "gen.trf")
    subprocess.run([bbp, "--dutch", "-g", cfg, "-o", out, "-s", str(seed)], check=True, capture_output=True)
    return parse_trf(Path(out).read_text().replace("\r", "\n"))


def timed(cmd: list[str], repeat: int) -> tuple[float, float, str]:
    """Median (wall, CPU of the child) seconds of ``repeat`` runs of ``cmd``, and its output."""
    walls, cpus, out = [], [], ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        out = proc.stdout
    return statistics.median(walls), statistics.median(cpus), out


def _pairs(text: str) -> set[str]:
    lines = text.split("\n")
    return set(lines[1:int(lines[0]) + 1])


def main() -> None:
    """Build the files, time both commands on each, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bbp", help="path to a bbpPairings binary (optional)")
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=11, help="the later round to pair (default 11)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seeds", default="2013,11,5", help="comma-separated seeds, one tournament each")
    args = ap.parse_args()
    for seed in (int(x) for x in args.seeds.split(",")):
        run(args, seed)


def run(args: argparse.Namespace, seed: int) -> None:
    """Build one tournament, time both commands on its rounds, print its table."""
    venue = [sys.executable, "-m", "venue", "pair"]
    with tempfile.TemporaryDirectory(prefix="bench-pairing") as tmp:
        t0 = time.perf_counter()
        if args.bbp:
            full = bbp_tournament(args.bbp, args.players, args.rounds, seed, tmp)
            source = "bbpPairings' generator"
        else:
            full = our_tournament(args.players, args.rounds - 1, seed)
            source = "our engine"
        build = time.perf_counter() - t0
        rows: list[tuple[str, float, float, float | None]] = []
        startup = timed(venue + ["--berger", "2"], args.repeat)
        rows.append(("start-up: venue pair --berger 2", startup[0], startup[1], None))
        agree = []
        for rnd in (args.rounds, 1):
            path = os.path.join(tmp, f"round{rnd}.trf")
            Path(path).write_text(dump_trf(cut(full, rnd - 1, args.rounds)))
            ours = timed(venue + [path], args.repeat)
            base = None
            if args.bbp:
                theirs = timed([args.bbp, "--dutch", path, "-p", os.path.join(tmp, "out.pairs")], args.repeat)
                base = theirs[1]
                rows.append((f"round {rnd}: bbpPairings", theirs[0], theirs[1], 1.0))
                agree.append(_pairs(ours[2]) == _pairs(Path(os.path.join(tmp, "out.pairs")).read_text()))
            rows.append((f"round {rnd}: venue pair", ours[0], ours[1], ours[1] / base if base else None))
        t = parse_trf(Path(os.path.join(tmp, f"round{args.rounds}.trf")).read_text())
        inp = round_input_from_trf(t)
        c0 = time.process_time()
        build_players(inp)
        rows.append(("in-process: players' state (baseline)", 0.0, time.process_time() - c0, None))
    print(f"Dutch pairing, {args.players} players (seed {seed}; tournament from {source} in {build:.1f} s; "
          f"median of {args.repeat})")
    print(f"{'what':<40}{'wall (s)':>10}{'CPU (s)':>10}{'CPU / bbpPairings':>19}")
    for name, wall, cpu, ratio in rows:
        print(f"{name:<40}{wall:>10.3f}{cpu:>10.3f}{'' if ratio is None else f'{ratio:.2f}':>19}")
    if agree:
        print("pairings equal to bbpPairings': " + ", ".join("yes" if a else "NO" for a in agree))


if __name__ == "__main__":
    main()
