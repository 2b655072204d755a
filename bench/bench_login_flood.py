"""Does a burst of wrong arbiter logins hold up the dashboard? (issue 11: "8 parallel guesses froze
/api/health for 9 s").

One dashboard under uvicorn (venue.serve.serving, this process's event loop); from another
process (so the clients take no CPU or GIL from the server's), one thread polls ``GET /api/health``
every 20 ms while others send ``--logins`` wrong logins at once (each to its own login, so the rate
limit refuses none and every one costs a real argon2 check). Three rows, measured in the same run:

- idle: the health poll alone (the baseline);
- now: the burst with the dashboard as it is (argon2 in worker threads, dashboard.arbiter.auth);
- on the loop (before): the same burst with ``Accounts.authenticate`` calling ``verify`` on the
  event loop, as the dashboard did before issue 11.

For each: health answers, their p50 and max latency (ms) and max against idle, and the loop's
longest stall (ms; the largest gap between ticks of a task that sleeps 5 ms). Wall time: the
burst's first request to its last answer.

Usage: ``.venv/bin/python bench/bench_login_flood.py [--logins 9]``.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from dashboard.app import create_app  # noqa: E402
from dashboard.arbiter.auth import Account, Accounts, hash_password  # noqa: E402
from services.eventlog.memory import MemoryLog  # noqa: E402
from venue.serve import serving  # noqa: E402


class OnTheLoop(Accounts):
    """The check as before issue 11: argon2 on the event loop."""

    async def authenticate(self, login, password):
        return self.verify(login, password)


def poll_health(url: str, stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(base_url=url, timeout=60) as http:
        while not stop.is_set():
            t = time.perf_counter()
            http.get("/api/health").raise_for_status()
            out.append((time.perf_counter() - t) * 1000)
            time.sleep(0.02)


def burst(url: str, n: int) -> tuple[float, list[int]]:
    def one(i: int) -> int:
        with httpx.Client(base_url=url, timeout=120) as http:
            return http.post("/api/arbiter/login", json={"login": f"guess{i}", "password": "wrong"}).status_code

    t = time.perf_counter()
    with ThreadPoolExecutor(n) as pool:
        codes = list(pool.map(one, range(n)))
    return time.perf_counter() - t, codes


def clients(url: str, logins: int | None, out) -> None:
    """The other process: the health poll, and the burst after 0.3 s (or 1.3 s of polling alone)."""
    latencies: list[float] = []
    stop = threading.Event()
    poller = threading.Thread(target=poll_health, args=(url, stop, latencies))
    poller.start()
    time.sleep(0.3)
    if logins:
        wall, codes = burst(url, logins)
    else:
        time.sleep(1.0)
        wall, codes = 0.0, []
    stop.set()
    poller.join()
    out.put((latencies, wall, codes))


async def run(accounts_cls, logins: int | None) -> dict:
    accounts = accounts_cls([Account("chief", "Chief", hash_password("s3cret"))], b"k" * 32)
    app = create_app(MemoryLog("bench-login"), accounts=accounts)
    gaps: list[float] = []
    running = True

    async def ticker():
        last = time.perf_counter()
        while running:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            gaps.append((now - last) * 1000)
            last = now

    async with serving(app) as url:
        tick = asyncio.create_task(ticker())
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        child = ctx.Process(target=clients, args=(url, logins, out))
        child.start()
        latencies, wall, codes = await asyncio.to_thread(out.get)
        await asyncio.to_thread(child.join)
        running = False
        await tick
    return {"n": len(latencies), "p50": statistics.median(latencies), "max": max(latencies),
            "stall": max(gaps), "wall": wall, "codes": sorted(set(codes))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logins", type=int, default=9)
    args = parser.parse_args()
    rows = [("idle", asyncio.run(run(Accounts, None))),
            ("now: argon2 off the loop", asyncio.run(run(Accounts, args.logins))),
            ("before: argon2 on the loop", asyncio.run(run(OnTheLoop, args.logins)))]
    idle = rows[0][1]["max"]
    print(f"{args.logins} parallel wrong logins; /api/health polled every 20 ms from another thread")
    print(f"{'scenario':28} {'health':>6} {'p50 ms':>8} {'max ms':>8} {'max/idle':>9} {'loop stall ms':>14} "
          f"{'burst s':>8}  answers")
    for name, r in rows:
        print(f"{name:28} {r['n']:>6} {r['p50']:>8.1f} {r['max']:>8.1f} {r['max'] / idle:>9.1f} "
              f"{r['stall']:>14.1f} {r['wall']:>8.2f}  {r['codes'] or '-'}")


if __name__ == "__main__":
    main()
