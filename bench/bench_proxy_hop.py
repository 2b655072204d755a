"""What one load-balancer hop costs a spectator: publish-to-spectator latency through the shipped
nginx (deploy/nginx/nginx.conf) against the same dashboard nodes directly, in the same run.

The deployment of deploy/README.md on this machine: ``venue gateway`` and two ``venue dashboard``
nodes (subprocesses) on the real Mosquitto (127.0.0.1:1883) and Redis (127.0.0.1:6379) under a
fresh tournament slug, and a private nginx running deploy/nginx/nginx.conf in front of the two
nodes (tests/nginx_site.py: only its [site] directives rewritten, the spectators per address
raised: they all come from 127.0.0.1). Spectators in this process,
the pages' client (tests/live_spectator.py, live.js in Python), following every board: half of them
connect to the nodes directly (alternately to each: the baseline), half through nginx (its round
robin spreads them the same way). Then ``--boards`` boards play real games (FIDE Candidates 2024,
../shared/data) over MQTT, each board a ply every ``--interval`` s, staggered, for ``--duration``
s; the first ``--warmup`` s are not counted.

Latency of a ply = its first receipt by a spectator - its publish, both ``time.perf_counter()`` in
this process; one sample per spectator and ply. Also: nginx's CPU (its workers) per delta it
carried. A small load on purpose: the hop's cost, not the nodes' limits (bench_latency.py).

``--kill-at S``: the failover instead. Every spectator connects through nginx; S s into the round
dashboard1 is killed (SIGKILL). Printed: how many it held, how soon each of them was served again
(the first message on its new connection, through the same address), and the latency of the plies
published in the ``--window`` s after the kill to them and to the other node's spectators.

Usage: ``.venv/bin/python bench/bench_proxy_hop.py [--spectators 100] [--boards 20] [--interval 1.0]
[--duration 20] [--warmup 3] [--kill-at S [--window 5]] [--lock PATH]``; it holds the machine lock while it runs (``--lock PATH``, bench/_checkout.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import aiomqtt  # noqa: E402
import chess.pgn  # noqa: E402
import httpx  # noqa: E402
from live_spectator import Spectator  # noqa: E402
from _checkout import add_lock_option, hold_machine_lock  # noqa: E402
from nginx_site import site_config  # noqa: E402

from gateway.broker import free_port  # noqa: E402
from services.eventlog import open_log  # noqa: E402

VENUE = str(Path(sys.executable).with_name("venue"))
PGN = REPO.parent / "shared" / "data" / "chess" / "fide_candidates_2024_open.pgn"
MQTT = "mqtt://127.0.0.1:1883"
REDIS = "redis://127.0.0.1:6379/0"


def games(n: int, plies: int) -> dict[str, list[str]]:
    """Board ``1..n``: the first ``plies`` UCI moves of a Candidates 2024 game with that many."""
    found = []
    with open(PGN, encoding="utf-8-sig") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            moves = [m.uci() for m in game.mainline_moves()]
            if len(moves) >= plies:
                found.append(moves[:plies])
    if not found:
        raise SystemExit(f"no game of {PGN} has {plies} plies")
    return {str(b + 1): found[b % len(found)] for b in range(n)}


def cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` (/proc)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def children(pid: int) -> list[int]:
    """nginx's workers: the processes whose parent is ``pid``."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
    return out


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


async def wait_ready(proc: subprocess.Popen, out: Path, text: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in out.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{proc.args[:2]} not ready: {out.read_text()[-500:]}")
        await asyncio.sleep(0.05)


async def healthy(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(timeout=2) as client:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError, ValueError, KeyError):
                r = await client.get(f"{url}/api/health")
                if r.status_code == 200 and r.json()["caught_up"]:
                    return
            await asyncio.sleep(0.1)
    raise SystemExit(f"{url} not healthy")


async def run(args) -> None:
    slug = f"hop-{uuid.uuid4().hex[:8]}"
    plies = int(args.duration / args.interval) + 2
    boards = games(args.boards, plies)
    log = open_log(REDIS, slug)
    await log.append("round_started", {"round": "1", "event": "Hop bench", "site": "", "date": "2024.04.04", "games": [
        {"id": f"1-{b}", "board": b, "round": "1", "white": f"W{b}", "black": f"B{b}", "variant": "chess",
         "time_control": None, "fen": None, "kind": "classical"} for b in boards]})
    tmp = Path(tempfile.mkdtemp(prefix="bench-hop-"))
    procs: list[subprocess.Popen] = []

    def start(name: str, argv: list[str]) -> tuple[subprocess.Popen, Path]:
        out = tmp / f"{name}.out"
        p = subprocess.Popen(argv, stdout=open(out, "w"), stderr=open(tmp / f"{name}.err", "w"))
        procs.append(p)
        return p, out

    spectators: list[Spectator] = []
    try:
        gw, gw_out = start("gateway", [VENUE, "gateway", "--tournament", slug, "--mqtt", MQTT, "--store", REDIS])
        nodes = [free_port(), free_port()]
        for i, port in enumerate(nodes):
            start(f"dashboard{i + 1}", [VENUE, "dashboard", "--tournament", slug, "--store", REDIS,
                                        "--host", "127.0.0.1", "--port", str(port)])
        lb_port = free_port()
        nginx, _ = start("nginx", site_config(lb_port, tmp, nodes, access_log=False,
                                           per_address=args.spectators + 10))
        await wait_ready(gw, gw_out, "Ctrl-C to stop.")
        for port in (*nodes, lb_port):
            await healthy(f"http://127.0.0.1:{port}")

        sent: dict[tuple[str, int], float] = {}
        seen: dict[str, list[dict]] = {"direct": [], "nginx": []}

        def recorder(path: str):
            got: dict[tuple[str, int], float] = {}
            seen[path].append(got)
            return lambda gid, ply: got.setdefault((gid, ply), time.perf_counter())

        for i in range(args.spectators):
            path = "direct" if i % 2 == 0 and args.kill_at is None else "nginx"
            address = f"127.0.0.1:{nodes[(i // 2) % 2] if path == 'direct' else lb_port}"
            spectators.append(Spectator(address, on_append=recorder(path)))
        for s in spectators:
            s.start()
        for s in spectators:
            await asyncio.wait_for(s.first_message.wait(), 30)

        workers = children(nginx.pid)
        cpu0 = cpu_s(workers)
        on_killed = (await health(nodes[0]))["spectators"]
        killed_at = None
        async with aiomqtt.Client("127.0.0.1", 1883, identifier=f"boards-{slug}") as client:
            start_t = time.perf_counter()
            schedule = sorted((k * args.interval + j * args.interval / len(boards), b, k)
                              for j, b in enumerate(boards) for k in range(plies - 2))
            for t, b, k in schedule:
                delay = start_t + t - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                if args.kill_at is not None and killed_at is None and t >= args.kill_at:
                    killed_at = time.perf_counter()
                    procs[1].kill()  # dashboard1, mid-round
                at = time.perf_counter()
                await client.publish(f"venue/{slug}/boards/{b}/move",
                                     json.dumps({"seq": k + 1, "move": boards[b][k]}), qos=1)
                if t >= args.warmup:
                    sent[(f"1-{b}", k + 1)] = at
        end = time.perf_counter() + 15
        while time.perf_counter() < end and not all(
                key in got for got in seen["direct"] + seen["nginx"] for key in sent):
            await asyncio.sleep(0.1)
        cpu1 = cpu_s(workers)
        dropped = sum(s.drops for s in spectators)
        if killed_at is not None:
            report_kill(args, spectators, seen["nginx"], sent, killed_at, on_killed)
            return
    finally:
        for s in spectators:
            await s.close()
        for p in reversed(procs):
            p.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(10)
        import redis.asyncio as aioredis

        from services.eventlog.redis import tournament_keys

        conn = aioredis.from_url(REDIS)
        await conn.delete(*tournament_keys(slug))
        await conn.aclose()
        await log.close()

    rows = {}
    for path, gots in seen.items():
        lat = [(got[k] - t0) * 1000 for k, t0 in sent.items() for got in gots if k in got]
        lost = sum(1 for k in sent for got in gots if k not in got)
        rows[path] = (len(gots), len(lat), lost, pct(lat, 0.5), pct(lat, 0.99), max(lat, default=float("nan")))
    base = rows["direct"]
    print(f"bench_proxy_hop: {args.boards} boards, a ply each every {args.interval:g} s "
          f"({args.boards / args.interval:g} plies/s), {args.duration:g} s ({args.warmup:g} s warm-up not counted), "
          f"{args.spectators} spectators following every board; 2 dashboard nodes; nginx {site_version()}")
    print("| path | spectators | samples | lost | p50 ms | p99 ms | max ms | p50 ratio | p99 ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for path, label in (("direct", "direct to a node (baseline)"), ("nginx", "through nginx (deploy/nginx)")):
        n, samples, lost, p50, p99, mx = rows[path]
        print(f"| {label} | {n} | {samples} | {lost} | {p50:.1f} | {p99:.1f} | {mx:.1f} | "
              f"{p50 / base[3]:.2f} | {p99 / base[4]:.2f} |")
    deltas = rows["nginx"][1]
    print(f"hop: {rows['nginx'][3] - base[3]:+.2f} ms at p50, {rows['nginx'][4] - base[4]:+.2f} ms at p99; "
          f"nginx workers' CPU {cpu1 - cpu0:.2f} s for {deltas} deltas carried "
          f"({(cpu1 - cpu0) / max(1, deltas) * 1e6:.0f} us per delta and spectator); reconnects: {dropped}")


def report_kill(args, spectators: list[Spectator], seen: list[dict], sent: dict, killed_at: float,
                on_killed: int) -> None:
    """The kill run's table: how soon the killed node's spectators were served again, and the
    latency of the plies published in the ``--window`` s after the kill, to them and to the others."""
    back = [s.opened_at[1] - killed_at for s in spectators if len(s.opened_at) > 1]
    dropped = {i for i, s in enumerate(spectators) if s.drops}
    after = {k: t0 for k, t0 in sent.items() if killed_at <= t0 < killed_at + args.window}
    groups = {"the killed node's": [seen[i] for i in sorted(dropped)],
              "the other node's (baseline)": [seen[i] for i in range(len(seen)) if i not in dropped]}
    print(f"bench_proxy_hop --kill-at {args.kill_at:g}: {args.boards} boards, a ply each every {args.interval:g} s, "
          f"{args.spectators} spectators through nginx {site_version()} following every board, 2 dashboard "
          f"nodes; dashboard1 killed (SIGKILL) {args.kill_at:g} s into the round")
    print(f"spectators on the killed node: {on_killed} (its /api/health); dropped: {len(dropped)}; "
          f"served again (first message on the new connection) after the kill: p50 {pct(back, 0.5):.2f} s, "
          f"p99 {pct(back, 0.99):.2f} s, max {max(back, default=float('nan')):.2f} s ({len(back)} of them)")
    print(f"| spectators | count | plies published in the {args.window:g} s after the kill | samples | lost | "
          "p50 ms | p99 ms | max ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, gots in groups.items():
        lat = [(got[k] - t0) * 1000 for k, t0 in after.items() for got in gots if k in got]
        lost = sum(1 for k in after for got in gots if k not in got)
        print(f"| {label} | {len(gots)} | {len(after)} | {len(lat)} | {lost} | {pct(lat, 0.5):.0f} | "
              f"{pct(lat, 0.99):.0f} | {max(lat, default=float('nan')):.0f} |")


async def health(port: int) -> dict:
    async with httpx.AsyncClient(timeout=5) as client:
        return (await client.get(f"http://127.0.0.1:{port}/api/health")).json()


def site_version() -> str:
    from nginx_site import nginx_binary

    out = subprocess.run([nginx_binary(), "-v"], capture_output=True, text=True)
    return (out.stderr or out.stdout).strip().rsplit("/", 1)[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spectators", type=int, default=100)
    ap.add_argument("--boards", type=int, default=20)
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between a board's plies")
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--kill-at", type=float, default=None,
                    help="every spectator through nginx; SIGKILL dashboard1 this many s into the round")
    ap.add_argument("--window", type=float, default=5.0, help="with --kill-at: the plies published this long after it")
    add_lock_option(ap)
    args = ap.parse_args()
    hold_machine_lock(args.lock)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
