"""The engine evaluation's cost (issue 31 item 4: "A bench gives the evaluations per second and the
gateway's p99 with it on and off").

Two rows on the same hall load, in the same run, with this tree's gateway (bench/bench_gateway.py's
``run_row``: the product's ``gateway.Gateway`` in its own process over Mosquitto + Redis, one MQTT
client per board, FIDE World Cup 2025 games at their real pace):

- **off**: no ``venue analyse`` (the baseline: the product's default);
- **on**: ``venue analyse`` (its own process, as an organiser starts it) following the same log from
  the round's set-up, with Debian's Stockfish, ``--budget-ms`` a position and ``--max-boards`` boards
  (defaults here: 200 ms and every board, so the engine is never idle: the worst case for the
  gateway).

Per row: the gateway's CPU per ply and its p50/p99 (a ply's MQTT publish to its ``move_played``
readable in the log, ``bench_gateway``'s figure); for ``on`` also the evaluations written
(``position_evaluated``: one line of the analyser's output each) per second of the analyser's life,
and the CPU the analyser and its engine used (cores: CPU seconds per second, /proc). The ratio is
on / off. ``--repeat 2`` runs off, on, on, off (drift of the shared machine hits both alike) and
pools the p99s. ``--engine-row`` adds **engine**: the engine alone searching all the while at
``venue analyse``'s priority (SCHED_IDLE), with no analyser and no log traffic: how much of ``on``'s
cost is the engine's CPU.

Needs Mosquitto (started here on a free port with deploy tuning, as ``bench_gateway``), Redis on
127.0.0.1:6379 (keys of a unique slug, deleted after; the analyser is stopped before), and
/usr/games/stockfish. About a minute per row pair with the defaults (100 boards rapid, 5 s + 15 s).

Usage: ``bench/bench_analyse.py [--boards 100] [--pace rapid] [--duration 15] [--budget-ms 200]
[--max-boards 100] [--repeat 1] [--lock PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import bench_gateway as bg  # noqa: E402
import bench_latency as bl  # noqa: E402
from _checkout import add_lock_option, hold_machine_lock  # noqa: E402


@dataclass
class Analysis:
    """One ``venue analyse`` process of an ``on`` row: its output file, start, and figures."""

    out: Path
    proc: asyncio.subprocess.Process | None = None
    started: float = 0.0
    span_s: float = float("nan")
    evaluations: int = 0
    cpu_s: float = float("nan")
    errors: list[str] = field(default_factory=list)


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its live children (the engine), /proc."""
    total = sum(bg.cpu_split(pid))
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            total += sum(bg.cpu_split(int(child)))
    return total


async def start_analysis(a: Analysis, slug: str, args) -> None:
    cmd = [sys.executable, "-m", "venue", "analyse", "--store", bl.REDIS_URL, "--tournament", slug,
           "--budget-ms", str(args.budget_ms), "--max-boards", str(args.max_boards)]
    a.proc = await asyncio.create_subprocess_exec(*cmd, cwd=str(REPO), stdout=a.out.open("w"),
                                                  stderr=asyncio.subprocess.PIPE)
    a.started = time.perf_counter()


async def stop_analysis(a: Analysis) -> None:
    if a.proc is None or a.proc.returncode is not None and a.cpu_s == a.cpu_s:
        return
    a.cpu_s = tree_cpu(a.proc.pid)
    a.span_s = time.perf_counter() - a.started
    with contextlib.suppress(ProcessLookupError):
        a.proc.send_signal(2)  # SIGINT: venue analyse stops its engine and exits 0
    try:
        _, err = await asyncio.wait_for(a.proc.communicate(), 10)
    except asyncio.TimeoutError:
        a.proc.kill()
        _, err = await a.proc.communicate()
    if a.proc.returncode not in (0, -2):
        a.errors.append(f"venue analyse exited {a.proc.returncode}: {(err or b'').decode()[-300:]}")
    a.evaluations = sum(1 for line in a.out.read_text().splitlines() if " ply " in line)


@dataclass
class Result:
    mode: str
    row: bg.Row
    analysis: Analysis | None = None


async def run_one(mode: str, args, games, mqtt, tmp: Path, k: int) -> Result:
    """One row: the hall load with the analyser ``on`` (started once the round is in the log, stopped
    before the log is deleted) or ``off``."""
    row = bg.Row("this", args.boards[0], args.paces[0], 1, run=k)
    analysis = Analysis(tmp / f"analyse-{mode}-{k}.out") if mode == "on" else None
    set_up, clean = bg.log_set_up, bl.cleanup_redis
    bare: list[asyncio.subprocess.Process] = []

    async def set_up_then_analyse(slug, setup, t):
        n = await set_up(slug, setup, t)
        if analysis is not None:
            await start_analysis(analysis, slug, args)
        if mode == "engine":  # the engine alone, searching all along at venue analyse's priority: no log
            from venue.analyse import DEBIAN_STOCKFISH, default_engine, idle_priority

            proc = await asyncio.create_subprocess_exec(default_engine() or DEBIAN_STOCKFISH,
                                                        stdin=asyncio.subprocess.PIPE,
                                                        stdout=asyncio.subprocess.DEVNULL, preexec_fn=idle_priority)
            assert proc.stdin is not None
            proc.stdin.write(b"uci\nsetoption name Threads value 1\nposition startpos\ngo infinite\n")
            await proc.stdin.drain()
            bare.append(proc)
        return n

    async def stop_then_clean(slug):
        if analysis is not None:
            await stop_analysis(analysis)
        for proc in bare:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        bare.clear()
        await clean(slug)

    bg.log_set_up, bl.cleanup_redis = set_up_then_analyse, stop_then_clean
    try:
        await bg.run_row(row, REPO, args, games, mqtt, tmp)
    finally:
        bg.log_set_up, bl.cleanup_redis = set_up, clean
        if analysis is not None:
            await stop_analysis(analysis)
    return Result(mode, row, analysis)


def _f(x: float, spec: str) -> str:
    return "-" if x != x else format(x, spec)


def table(results: list[Result]) -> str:
    pct = bl.pct
    head = f"{'analysis':<10}{'CPU/ply ms':>11}{'p50 ms':>8}{'p99 ms':>8}{'p99 ratio':>10}{'lost':>6}{'evals':>7}{'evals/s':>9}{'analyser cores':>16}"
    lines = [head, "-" * len(head)]
    off = [x for r in results if r.mode == "off" and not r.row.error for x in r.row.appended]
    base = pct(off, .99)
    for mode in ("off", "engine", "on"):
        rs = [r for r in results if r.mode == mode]
        if not rs:
            continue
        ok = [r for r in rs if not r.row.error]
        if not ok:
            lines.append(f"{mode:<10}FAILED: {rs[0].row.error if rs else 'not run'}")
            continue
        app = [x for r in ok for x in r.row.appended]
        cpu = bg._median([r.row.cpu_ms for r in ok])
        an = [r.analysis for r in ok if r.analysis is not None]
        evals = sum(a.evaluations for a in an)
        span = sum(a.span_s for a in an)
        cores = sum(a.cpu_s for a in an) / span if an and span else float("nan")
        p99 = pct(app, .99)
        lines.append(f"{mode:<10}{_f(cpu, '.3f'):>11}{_f(pct(app, .5), '.1f'):>8}{_f(p99, '.1f'):>8}"
                     f"{_f(p99 / base, '.2f') + 'x':>10}{sum(r.row.lost for r in ok):>6}"
                     f"{(str(evals) if an else '-'):>7}{(_f(evals / span, '.1f') if an else '-'):>9}"
                     f"{_f(cores, '.2f'):>16}")
    return "\n".join(lines)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=int, default=100, help="hall boards (default 100)")
    p.add_argument("--pace", default="rapid", choices=("rapid", "blitz"), help="the games' pace (default rapid)")
    p.add_argument("--duration", type=float, default=15.0, help="seconds counted after the warm-up (default 15)")
    p.add_argument("--warmup-s", type=float, default=5.0, help="seconds played first (default 5)")
    p.add_argument("--budget-ms", type=int, default=200, help="venue analyse --budget-ms (default 200)")
    p.add_argument("--max-boards", type=int, default=100, help="venue analyse --max-boards (default 100)")
    p.add_argument("--repeat", type=int, default=1, help="1: off, on; 2: off, on, on, off (default 1)")
    p.add_argument("--engine-row", action="store_true", help="also a row with the engine alone searching at "
                   "venue analyse's priority (no analyser, no log traffic): where the cost of 'on' comes from")
    add_lock_option(p)
    a = p.parse_args(argv)
    # what bench_gateway.run_row reads
    a.boards, a.paces = [a.boards], [a.pace]
    a.tournament, a.tournament_file, a.floor, a.profile = None, None, False, None
    return a


async def main(argv=None) -> int:
    args = parse_args(argv)
    hold_machine_lock(args.lock)
    if shutil.which("stockfish") is None and not os.access("/usr/games/stockfish", os.X_OK):
        print("bench_analyse: no stockfish: apt-get install stockfish", file=sys.stderr)
        return 2
    from _latency_hall import world_cup_games

    t_begin = time.perf_counter()
    load = os.getloadavg()
    games = world_cup_games(bl.WORLD_CUP, args.pace)
    order = ["off"] + (["engine"] if args.engine_row else []) + ["on"]
    if args.repeat > 1:
        order += order[::-1]
    results: list[Result] = []
    tmp = Path(tempfile.mkdtemp(prefix="venue-bench-analyse-"))
    try:
        async with bl.deploy_mosquitto(tmp) as (mqtt, _tuning):
            await bl.check_redis()
            for i, mode in enumerate(order):
                print(f"  analysis {mode:<3} {args.boards[0]} boards {args.pace} ...", end="", flush=True)
                r = await run_one(mode, args, games, mqtt, tmp, i + 1)
                results.append(r)
                extra = f", {r.analysis.evaluations} evaluations" if r.analysis else ""
                print(f" FAILED: {r.row.error}" if r.row.error else
                      f" p99 {bl.pct(r.row.appended, .99):.1f} ms{extra}", flush=True)
                for e in (r.analysis.errors if r.analysis else []):
                    print(f"  note: {e}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    print(table(results))
    print()
    print(f"settings: {args.boards[0]} boards {args.pace} (bench_gateway's hall load: FIDE World Cup 2025 games at "
          f"their real pace), {args.warmup_s:g} s + {args.duration:g} s played, this tree's gateway in its own process; "
          f"on = venue analyse --budget-ms {args.budget_ms} --max-boards {args.max_boards} (Debian's Stockfish, one "
          f"thread, SCHED_IDLE; the analyser at nice 10) following the same Redis log; p50/p99 = publish -> move_played readable; p99 ratio = "
          f"row / off; evals/s = position_evaluated written per second of the analyser's life; analyser cores = its "
          f"and its engine's CPU s per s.")
    print(f"machine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start; "
          f"run took {time.perf_counter() - t_begin:.0f} s")
    return 0 if all(not r.row.error for r in results) else 1


if __name__ == "__main__":
    from venue.serve import run

    sys.exit(run(main()))
