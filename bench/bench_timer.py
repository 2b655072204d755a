"""The gateway's 200 ms timer (``Hall.tick``) under a tournament file, in-process, beside main's.

Issue 15 "A gateway with headroom" (0.3 ms of CPU a ply). A hall of N boards (one chess game each)
runs under a tournament file (default ``events/us-championship-2023.toml``, its round 1 starting at
the bench's time zero): every board plays ``--plies`` random legal moves (seeded), each followed by
its clock's press, the boards in turn (every board's ply 1, then ply 2, ...), at ``--plies-per-s``
of the hall's time (444: 1,000 blitz boards, ``bench_gateway.py``'s load), with a tick every 200 ms
of it, as ``gateway.service`` ticks; then the
hall stands still (every player at the board, no clock running out: nothing is due) for ``--idle``
ticks. Moves are made from before the start (every player is at the board by then: no fines, no
default due), so what is measured is the timer's own looking, not what it appends.

Per code tree (this one, and ``--baseline-code``, default the repository's main checkout, the first
of ``git worktree list`` (bench/_checkout.py), run the same way in a
subprocess of this script, same load, same run): **play**: the CPU (``time.process_time``) of the
ticks during play, per tick and per ply (the tick's share of the gateway's budget a ply); **idle**:
a tick after play, median and mean of ``--idle`` ticks. The entries the ticks appended are counted
for both: the same count says both timers said the same.

Usage: ``bench/bench_timer.py [--boards 1000] [--plies 6] [--plies-per-s 444] [--idle 300] [--event FILE]
[--baseline-code DIR | --no-baseline] [--lock PATH]``. Light (~20 s at 1,000 boards); it holds the
machine lock anyway while it runs (``--lock``, default the repository's ``.git/bench.lock``).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _checkout import add_lock_option, hold_machine_lock, main_checkout

REPO = Path(__file__).resolve().parent.parent
SLUG = "bench-timer"
T0 = 1_700_000_000_000  # round 1's start (ms)
TICK_MS = 200  # gateway.service's tick


def moves_of(board: int, plies: int) -> list[str]:
    """``plies`` random legal moves from the start (seeded by the board's number)."""
    import chess

    rng, position, out = random.Random(board), chess.Board(), []
    for _ in range(plies):
        legal = sorted(m.uci() for m in position.legal_moves)
        if not legal:
            break
        out.append(rng.choice(legal))
        position.push_uci(out[-1])
    return out


def worker(boards: int, plies: int, idle: int, event: str, pace: float) -> dict:
    """Run the load on the hall of the code tree first on ``sys.path``; the figures as a dict."""
    from gateway.hall import Hall
    from services.regulations.tournament_file import load_tournament

    t = load_tournament(Path(event).read_text(), event)
    t = dataclasses.replace(t, slug=SLUG, rounds=(dataclasses.replace(t.rounds[0], start_ms=T0, end_ms=None),
                                                  *t.rounds[1:]))
    control = t.time_controls[t.kind]
    setups = [{"id": f"1-{b}", "board": str(b), "round": "1", "white": f"W{b}", "black": f"B{b}",
               "variant": "chess", "time_control": control, "fen": None, "kind": t.kind}
              for b in range(1, boards + 1)]
    games = {b: moves_of(b, plies) for b in range(1, boards + 1)}
    messages = []
    for ply in range(plies):
        for b in range(1, boards + 1):
            if ply < len(games[b]):
                messages.append((f"venue/{SLUG}/boards/{b}/move", {"seq": ply + 1, "move": games[b][ply]}))
                messages.append((f"venue/{SLUG}/boards/{b}/clock", {
                    "seq": ply + 1, "event": "press", "white_ms": 5_400_000, "black_ms": 5_400_000,
                    "running": "black" if ply % 2 == 0 else "white"}))
    messages = [(topic, json.dumps(body).encode()) for topic, body in messages]
    hall = Hall(SLUG, config=t)
    step = 1000 / (2 * pace)  # ms between two messages: a move and its press a ply
    now = T0 - int(len(messages) * step / 2)  # half the moves before the start: everyone at the board by then
    hall.external("round_started", {"round": "1", "event": "Bench", "site": "", "date": "2026.12.01",
                                    "start_ms": T0, "games": setups}, now, None, now)
    hall.tick(now)  # the first tick looks at every game (a round set up)
    gc.collect()
    play_cpu, play_ticks, entries, next_tick, t = 0.0, 0, 0, now + TICK_MS, float(now)
    for topic, payload in messages:
        t += step
        now = int(t)
        hall.handle(topic, payload, now)
        if now >= next_tick:
            start = time.process_time()
            entries += len(hall.tick(now).entries)
            play_cpu += time.process_time() - start
            play_ticks += 1
            next_tick += TICK_MS
    for _ in range(30):  # the last plies' presses settle (a press's grace): not measured
        now += TICK_MS
        entries += len(hall.tick(now).entries)
    idle_ms = []
    for _ in range(idle):
        now += TICK_MS
        start = time.process_time()
        entries += len(hall.tick(now).entries)
        idle_ms.append((time.process_time() - start) * 1000)
    if hall.faults:
        raise SystemExit(f"the hall caught {hall.faults} faults: {hall.last_fault}")
    played = sum(g.ply for g in hall.state.games.values())
    return {"plies": played, "play_tick_ms": play_cpu * 1000 / max(1, play_ticks),
            "play_ms_per_ply": play_cpu * 1000 / max(1, played), "idle_median_ms": statistics.median(idle_ms),
            "idle_mean_ms": statistics.fmean(idle_ms), "entries": entries}


def run(code: Path, args) -> dict:
    """The worker in a subprocess with ``code`` first on its path."""
    cmd = [sys.executable, __file__, "--worker", "--boards", str(args.boards), "--plies", str(args.plies),
           "--idle", str(args.idle), "--plies-per-s", str(args.plies_per_s), "--event", str(Path(args.event).resolve())]
    out = subprocess.run(cmd, cwd=code, env={"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin"}, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--boards", type=int, default=1000)
    p.add_argument("--plies", type=int, default=6)
    p.add_argument("--idle", type=int, default=300)
    p.add_argument("--plies-per-s", type=float, default=444.0, help="the pace, in plies a second of the hall's time")
    p.add_argument("--event", default=str(REPO / "events" / "us-championship-2023.toml"))
    p.add_argument("--baseline-code", default=str(main_checkout()),
                   help="the repository of the baseline hall (default: the main checkout, %(default)s)")
    p.add_argument("--no-baseline", action="store_true")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    add_lock_option(p)
    args = p.parse_args()
    if args.worker:  # a subprocess of the run below, which holds the lock
        print(json.dumps(worker(args.boards, args.plies, args.idle, args.event, args.plies_per_s)))
        return
    hold_machine_lock(args.lock)
    rows = [("this", run(REPO, args))]
    if not args.no_baseline:
        rows.append(("main", run(Path(args.baseline_code), args)))
    print(f"{args.boards} boards, {args.plies} plies each at {args.plies_per_s:g} plies/s, under "
          f"{Path(args.event).name}; CPU ms "
          f"(time.process_time) of Hall.tick; main = {args.baseline_code}, same load, same run")
    print("| code | plies | play: ms/tick | play: ms of tick/ply | idle: ms/tick p50 | idle: mean | entries |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, r in rows:
        print(f"| {name} | {r['plies']} | {r['play_tick_ms']:.3f} | {r['play_ms_per_ply']:.4f} | "
              f"{r['idle_median_ms']:.3f} | {r['idle_mean_ms']:.3f} | {r['entries']} |")


if __name__ == "__main__":
    main()
