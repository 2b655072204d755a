"""The gateway's store cycle alone: CPU of appending a batch to the Redis log and following it back.

What the gateway does every 10 ms under a 1,000-board blitz round (bench_gateway.py: ~444 plies/s,
so ~4-5 entries a batch): one ``append_many`` of the batch (one Lua script call) while a follower
(``follow(skip=...)``, paced as the gateway's FOLLOW_EVERY_S, 50 ms; ``--follow-pace``) reads the
entries back and passes over its own undecoded. Entries are ``move_played`` data of a real game's
shape (~220 bytes of JSON).

Each code (this tree, and ``--baseline-code DIR``, e.g. a ``git worktree`` of main) runs in a
subprocess of its own on the same Redis, alternately, ``--repeat`` times; the table gives the
medians of the process's CPU per entry (user + system, this process only: Redis's own CPU is not
counted) and per cycle. Usage: ``python bench/bench_log_cycle.py --baseline-code ../base``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REDIS = os.environ.get("VENUE_BENCH_REDIS", "redis://127.0.0.1:6379/0")


def _data(board: int, ply: int) -> dict:
    """A move_played's data as the gateway records it (docs/events.md), for board ``board``."""
    return {"board": str(board), "device": "board", "seq": ply, "game": f"1-{board}", "ply": ply,
            "move": "g1f3", "san": "Nf3", "turn": "black",
            "fen": "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1", "claimable": []}


async def _cycles(batches: int, per_batch: int, pace_s: float) -> dict:
    from services.eventlog.redis import RedisLog, tournament_keys  # noqa: PLC0415 - the code under test

    slug = f"bench-cycle-{uuid.uuid4().hex[:10]}"
    log = RedisLog(REDIS, slug)
    own: set[int] = set()
    followed = 0

    def skip(seq: int) -> bool:
        if seq in own:
            own.discard(seq)
            return True
        return False

    async def follow() -> None:
        nonlocal followed
        async for _ in log.follow(after=0, pace_s=pace_s, skip=skip):
            followed += 1

    try:
        await log.append("round_started", {"round": "1"})
        own.add(1)
        follower = asyncio.create_task(follow())
        seen = 0
        start_cpu, start = time.process_time(), time.perf_counter()
        for b in range(batches):
            items = [("move_played", _data(b * per_batch + i, b + 1), None) for i in range(per_batch)]
            stored = await log.append_many(items)
            own.update(e.seq for e in stored)
            seen += len(stored)
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the follower's last read
        cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
        follower.cancel()
        try:
            await follower
        except asyncio.CancelledError:
            pass
        left = len(own)
    finally:
        await log.close()
        import redis.asyncio as aioredis  # noqa: PLC0415

        admin = aioredis.Redis.from_url(REDIS)
        await admin.delete(*tournament_keys(slug))
        await admin.aclose()
    return {"cpu_s": cpu, "wall_s": wall, "entries": seen, "batches": batches, "followed_decoded": followed,
            "own_not_followed": left}


def child(argv: list[str]) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--code", required=True)
    p.add_argument("--batches", type=int, required=True)
    p.add_argument("--per-batch", type=int, required=True)
    p.add_argument("--follow-pace", type=float, required=True)
    a = p.parse_args(argv)
    sys.path.insert(0, str(Path(a.code).resolve()))
    try:
        import uvloop  # noqa: PLC0415 - as the gateway runs (venue/serve.py)

        result = uvloop.run(_cycles(a.batches, a.per_batch, a.follow_pace))
    except ImportError:
        result = asyncio.run(_cycles(a.batches, a.per_batch, a.follow_pace))
    print("RESULT " + json.dumps(result))


def run_code(code: str, batches: int, per_batch: int, pace_s: float) -> dict:
    out = subprocess.run([sys.executable, __file__, "child", "--code", code, "--batches", str(batches),
                          "--per-batch", str(per_batch), "--follow-pace", str(pace_s)],
                         capture_output=True, text=True, check=False)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise SystemExit(f"the {code} run failed:\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        child(sys.argv[2:])
        return
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline-code", default=None, help="the baseline tree (e.g. a worktree of main)")
    p.add_argument("--batches", type=int, default=1000, help="cycles of 10 ms (default 1000: 10 s)")
    p.add_argument("--per-batch", type=int, default=5, help="entries a batch (default 5)")
    p.add_argument("--repeat", type=int, default=3, help="runs per code, alternated (default 3)")
    p.add_argument("--follow-pace", type=float, default=0.05,
                   help="the follower's pace_s (default 0.05, the gateway's FOLLOW_EVERY_S)")
    p.add_argument("--baseline-follow-pace", type=float, default=None,
                   help="the baseline's pace_s (default: --follow-pace); with no --baseline-code, "
                        "this tree is run again at this pace as the baseline")
    a = p.parse_args()
    base_pace = a.follow_pace if a.baseline_follow_pace is None else a.baseline_follow_pace
    base_code = a.baseline_code or (str(REPO) if a.baseline_follow_pace is not None else None)
    codes = [("this", str(REPO), a.follow_pace)] + ([("baseline", base_code, base_pace)] if base_code else [])
    runs: dict[str, list[dict]] = {name: [] for name, _, _ in codes}
    for r in range(a.repeat):
        for name, code, pace in (codes if r % 2 == 0 else codes[::-1]):
            res = run_code(code, a.batches, a.per_batch, pace)
            runs[name].append(res)
            print(f"  {name:8s} run {r + 1}/{a.repeat}: {1e6 * res['cpu_s'] / res['entries']:6.1f} us CPU/entry "
                  f"({res['entries']} entries, follower decoded {res['followed_decoded']}, "
                  f"own entries not seen {res['own_not_followed']})", flush=True)
    print()
    print(f"{'code':10s} {'us CPU/entry':>13s} {'us CPU/cycle':>13s}  runs (us/entry)")
    med = {}
    for name, _, _ in codes:
        per = [1e6 * x["cpu_s"] / x["entries"] for x in runs[name]]
        med[name] = statistics.median(per)
        print(f"{name:10s} {med[name]:13.1f} {med[name] * a.per_batch:13.1f}  {' '.join(f'{v:.1f}' for v in per)}")
    if "baseline" in med:
        print(f"ratio baseline/this: {med['baseline'] / med['this']:.2f}x")
    print(f"settings: {a.batches} cycles of one append_many of {a.per_batch} move_played entries then 10 ms; "
          f"a follower paced {' / '.join(f'{c[0]} {c[2] * 1000:g} ms' for c in codes)}, skipping its own; "
          f"Redis {REDIS}; CPU = this process only; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
