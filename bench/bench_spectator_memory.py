"""What a ``/ws/live`` spectator costs the dashboard's memory, and where it goes (issue 31, "Spectators,
cheaper": 33 KB a spectator, against ~10 KB in nginx + nchan; target at most 16 KB at 10,000).

For each candidate, one after the other in the same run: the product's dashboard (``venue dashboard``'s
code, through ``bench/_latency_services.py``) over a SQLite log holding one round of ``--boards``
boards, with no load; then ``--spectators`` browser-like spectators in ``--client-procs`` processes of
their own (the handshake, every frame's header read, every ping answered: ``_latency_services.py
spectators --raw``), each on a hall page of 50 boards (``/ws/live?boards=1-50``, ...), connecting as a
storm (100 handshakes in flight per process); after ``--settle`` seconds, the dashboard's RSS growth per
spectator connected, then ``--hold`` seconds more and how many are still connected (pings answered).

Candidates (``--candidates``): ``this`` (this tree), ``baseline`` (the tree at ``--baseline-code``, e.g.
``git worktree add --detach /tmp/base main``), ``deflate`` (this tree with permessage-deflate negotiated:
uvicorn's settings, server window 2^12, memLevel 5; a what-if, the product does not negotiate it).

``--tracemalloc``: each tree once more under tracemalloc (``bench/_memory_probe.py``), the Python heap's
growth per spectator by where it was allocated (tracemalloc's own overhead makes its RSS meaningless:
only the breakdown is read from those runs). Prints one table and the breakdown; ratios against the
baseline of the same run.

Usage: ``.venv/bin/python bench/bench_spectator_memory.py [--spectators 10000] [--boards 1000]
[--candidates this,baseline,deflate] [--baseline-code DIR] [--tracemalloc] [--client-procs K]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_latency import Proc, launch, rss_kb, stop  # noqa: E402
from _latency_hall import round_pgn, world_cup_games  # noqa: E402

WORLD_CUP = REPO.parent / "shared" / "data" / "chess" / "fide_world_cup_2025.pgn"
PROBE = REPO / "bench" / "_memory_probe.py"
# where tracemalloc's allocations come from, by file path (first match wins)
CATEGORIES = (
    ("uvicorn's protocol, scope, keepalive", ("/uvicorn/",)),
    ("websockets: handshake request/headers, parser", ("/websockets/",)),
    ("ASGI app stack: Starlette routing, middleware, endpoint", ("/starlette/", "asgi_csrf", "/dashboard/security.py",
                                                                "/dashboard/live.py", "/dashboard/ws_feed.py",
                                                                "/dashboard/origins.py", "/dashboard/audience.py")),
    ("asyncio: tasks, queues, events, the loop's transports", ("/asyncio/",)),
    ("hub: queue, group, parked writer", ("/dashboard/hub.py", "/dashboard/parked.py", "/dashboard/direct_ws.py")),
    ("snapshots and pages (shared by a page's spectators)", ("/json/", "/dashboard/feed.py", "/dashboard/boardspec.py",
                                                             "/services/")),
)


def category(filename: str) -> str:
    for name, needles in CATEGORIES:
        if any(n in filename for n in needles):
            return name
    return "other"


async def setup_log(path: Path, slug: str, boards: int) -> None:
    """One round of ``boards`` boards (World Cup 2025 rapid games' pairings) in a SQLite log."""
    from services.eventlog import open_log
    from services.events import RoundStarted
    from services.arbiter_office.setup import round_from_pgn

    text, _ = round_pgn(boards, world_cup_games(WORLD_CUP, "rapid"))
    log = open_log(f"sqlite:///{path}", slug)
    try:
        await log.append(RoundStarted.TYPE, round_from_pgn(text))
    finally:
        await log.close()


async def measure(name: str, tree: Path, args, store: str, slug: str, tmp: Path, probe: bool = False) -> dict:
    """One candidate: its dashboard, the crowd, the figures."""
    services = tree / "bench" / "_latency_services.py"
    dash_args = ["dashboard", "--store", store, "--tournament", slug, "--port", "0"]
    env_cmd = [sys.executable]
    dumps = tmp / f"dumps-{name}-{uuid.uuid4().hex[:6]}"
    if probe:
        dumps.mkdir()
        env_cmd += [str(PROBE), str(dumps)]
    if name == "deflate":  # what-if: permessage-deflate negotiated with uvicorn's settings
        env_cmd += [str(REPO / "bench" / "_deflate_on.py")]
    dashboard: Proc | None = None
    crowds: list[Proc] = []
    out = {"name": name, "spectators": 0}
    try:
        dashboard = await launch(f"dashboard-{name}", [*env_cmd, str(services), *dash_args], tmp, 60)
        pid = dashboard.proc.pid
        url = dashboard.ready.replace("http://", "ws://") + "/ws/live"
        await asyncio.sleep(1.0)
        if probe:
            await snapshot(pid, dumps, 1)
        rss0 = rss_kb(pid)
        k = args.client_procs or max(1, -(-args.spectators // 5000))
        shares = [args.spectators // k + (i < args.spectators % k) for i in range(k)]
        offsets = [sum(shares[:i]) for i in range(k)]
        t0 = time.perf_counter()
        started = await asyncio.gather(*(
            launch(f"spectators-{name}-{i}", [sys.executable, str(REPO / "bench" / "_latency_services.py"),
                                              "spectators", "--url", url, "--count", str(shares[i]),
                                              "--offset", str(offsets[i]), "--boards", str(args.boards),
                                              "--watch", "pages", "--raw"], tmp, 600)
            for i in range(k)), return_exceptions=True)
        crowds = [c for c in started if isinstance(c, Proc)]
        out["storm_s"] = time.perf_counter() - t0
        connected = sum(int(c.ready.split()[0]) for c in crowds)
        out["spectators"] = connected
        await asyncio.sleep(args.settle)
        rss1 = rss_kb(pid)
        out["rss0_mb"], out["rss1_mb"] = rss0 / 1024, rss1 / 1024
        out["kb_per"] = (rss1 - rss0) / max(1, connected)
        if probe:
            await snapshot(pid, dumps, 2)
            out["breakdown"] = breakdown(dumps / "1.tracemalloc", dumps / "2.tracemalloc", connected)
        await asyncio.sleep(args.hold)
        out["rss_end_mb"] = rss_kb(pid) / 1024
        window_end = time.monotonic()
        for c in crowds:
            await stop(c)
        ends = [c.stats for c in crowds]
        out["at_end"] = sum(sum(1 for t in e.get("closed_at", ()) if t > window_end) + e.get("open at the end", 0)
                            for e in ends) if all(ends) else None
        out["pongs"] = sum(e.get("pongs", 0) for e in ends)
    finally:
        for c in crowds:
            await stop(c)
        await stop(dashboard)
        shutil.rmtree(dumps, ignore_errors=True)
    return out


async def snapshot(pid: int, dumps: Path, n: int) -> None:
    """Ask the probed dashboard for tracemalloc snapshot ``n`` and wait until it is written."""
    os.kill(pid, signal.SIGUSR1)
    for _ in range(1200):
        if (dumps / f"{n}.done").exists():
            return
        await asyncio.sleep(0.1)
    raise RuntimeError("the probed dashboard wrote no snapshot in 120 s")


def breakdown(before: Path, after: Path, n: int) -> dict[str, float]:
    """Bytes per spectator of the Python heap's growth, by ``category``."""
    a, b = tracemalloc.Snapshot.load(str(before)), tracemalloc.Snapshot.load(str(after))
    out: dict[str, float] = {}
    for stat in b.compare_to(a, "filename"):
        key = category(stat.traceback[0].filename)
        out[key] = out.get(key, 0.0) + stat.size_diff / max(1, n)
    return out


def table(rows: list[dict], base: dict | None) -> str:
    head = (f"{'candidate':<10}{'spectators':>11}{'at end':>8}{'storm s':>9}{'RSS before MB':>15}{'RSS after MB':>14}"
            f"{'RSS end MB':>12}{'KB/spectator':>14}{'vs baseline':>13}")
    lines = [head, "-" * len(head)]
    for r in rows:
        if "error" in r:
            lines.append(f"{r['name']:<10} FAILED: {r['error']}")
            continue
        ratio = f"{r['kb_per'] / base['kb_per']:.2f}x" if base and base.get("kb_per") else "-"
        lines.append(f"{r['name']:<10}{r['spectators']:>11,}{r['at_end'] if r['at_end'] is not None else '?':>8}"
                     f"{r['storm_s']:>9.1f}{r['rss0_mb']:>15.1f}{r['rss1_mb']:>14.1f}{r['rss_end_mb']:>12.1f}"
                     f"{r['kb_per']:>14.1f}{ratio:>13}")
    return "\n".join(lines)


def breakdown_table(rows: list[tuple[str, dict]]) -> str:
    names = [name for name, _ in rows]
    keys = [c for c, _ in CATEGORIES] + ["other"]
    head = f"{'Python heap per spectator, bytes (tracemalloc)':<58}" + "".join(f"{n:>12}" for n in names)
    lines = [head, "-" * len(head)]
    for k in keys:
        lines.append(f"{k:<58}" + "".join(f"{b.get(k, 0):>12,.0f}" for _, b in rows))
    lines.append(f"{'total':<58}" + "".join(f"{sum(b.values()):>12,.0f}" for _, b in rows))
    return "\n".join(lines)


async def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--spectators", type=int, default=10_000)
    p.add_argument("--boards", type=int, default=1000)
    p.add_argument("--candidates", default="this,baseline")
    p.add_argument("--baseline-code", default=None, help="the baseline's tree (default: this one)")
    p.add_argument("--client-procs", type=int, default=0, help="spectator processes (default: one per 5,000)")
    p.add_argument("--settle", type=float, default=3.0, help="s after the storm before RSS is read")
    p.add_argument("--hold", type=float, default=30.0, help="s more, then who is still connected (pings: 20 s)")
    p.add_argument("--tracemalloc", action="store_true", help="also the Python heap's breakdown per tree")
    args = p.parse_args(argv)
    candidates = [c.strip() for c in args.candidates.split(",") if c.strip()]
    base_tree = Path(args.baseline_code) if args.baseline_code else REPO
    load = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="venue-bench-memory-"))
    slug = f"bench-mem-{uuid.uuid4().hex[:8]}"
    store_path = tmp / "log.sqlite"
    await setup_log(store_path, slug, args.boards)
    store = f"sqlite:///{store_path}"
    rows, probes = [], []
    try:
        for name in candidates:
            tree = base_tree if name == "baseline" else REPO
            print(f"  {name}: {args.spectators} spectators ...", end="", flush=True)
            try:
                r = await measure(name, tree, args, store, slug, tmp)
            except Exception as exc:  # noqa: BLE001 - one candidate failing must not stop the others
                r = {"name": name, "error": f"{type(exc).__name__}: {exc}"}
            rows.append(r)
            print(f" {r.get('kb_per', float('nan')):.1f} KB each", flush=True)
        if args.tracemalloc:
            for name in [c for c in candidates if c != "deflate"]:
                tree = base_tree if name == "baseline" else REPO
                print(f"  {name} under tracemalloc ...", flush=True)
                r = await measure(name, tree, args, store, slug, tmp, probe=True)
                probes.append((name, r["breakdown"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = next((r for r in rows if r["name"] == "baseline" and "kb_per" in r), None)
    print()
    print(table(rows, base))
    if probes:
        print()
        print(breakdown_table(probes))
    print()
    print(f"settings: {args.boards} boards in the round, no load; spectators on hall pages of 50 boards in "
          f"{args.client_procs or max(1, -(-args.spectators // 5000))} processes (handshake, frame headers, pongs); "
          f"RSS after = {args.settle:g} s after the storm; at end = still connected {args.hold:g} s later; baseline = "
          f"{base_tree}")
    print(f"machine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start")
    dropped = [r for r in rows if "at_end" in r and r["at_end"] is not None and r["at_end"] < r["spectators"]]
    for r in dropped:
        print(f"FAIL: {r['spectators'] - r['at_end']} of {r['name']}'s spectators were not connected at the end")
    return 1 if dropped or any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
