"""What waking up costs: ``Hall.handle``'s CPU per move message back to back, and when the process
sleeps between groups of messages as a gateway does between reads.

Why (issue 15, docs/performance.md "The floor"): inside the running gateway each part of a ply
costs two to three times its figure in a loop (``bench_gateway.py``'s ``BENCH_GATEWAY_SECTIONS``
against ``bench_rules.py``). This bench shows the cause on this machine without MQTT or a store: the
same pure step, on the same messages (a 1,000-board round of real games, ``bench_rules.hall_messages``),
costs more CPU when the thread has been idle before it; the baseline is the back-to-back row of the
same run. Each row: ``k`` messages handled per wake-up, then ``time.sleep(gap)``; CPU is this
thread's (``time.thread_time_ns`` around each ``handle``: the sleeps are not counted), per message.

Usage: ``.venv/bin/python bench/bench_wake_cost.py [--boards 1000] [--messages 20000]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import bench_rules as br  # noqa: E402

from gateway.hall import Hall  # noqa: E402

ROWS = [(None, 0.0), (1, 0.002), (4, 0.002), (16, 0.002), (64, 0.002), (16, 0.0005), (16, 0.005), (16, 0.02)]


def measure(started: dict, messages: list, k: int | None, gap: float) -> float:
    """us of thread CPU per ``Hall.handle`` on a fresh hall, sleeping ``gap`` s after every ``k``."""
    hall = Hall(br.SLUG)
    hall.fold("round_started", started)
    clock, spent, now = time.thread_time_ns, 0, 0
    for i, (topic, payload) in enumerate(messages, start=1):
        now += 10
        began = clock()
        hall.handle(topic, payload, now)
        spent += clock() - began
        if k and i % k == 0:
            time.sleep(gap)
    if hall.faults:
        raise SystemExit(f"the hall caught {hall.faults} faults: {hall.last_fault}")
    return spent / len(messages) / 1000


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=int, default=1000)
    p.add_argument("--messages", type=int, default=20000)
    args = p.parse_args()
    games = br.load_games()
    chosen = (games * (args.boards // len(games) + 1))[:args.boards]
    started, messages = br.hall_messages(chosen, False)
    messages = messages[:args.messages]
    print(f"Hall.handle, move messages of a {args.boards}-board round ({len(messages)} messages); thread CPU per "
          "message; baseline: back to back, same run")
    print(f"{'messages per wake-up':<22}{'sleep ms':>9}{'us/message':>12}{'vs back to back':>17}{'us more a wake-up':>19}")
    base = None
    for k, gap in ROWS:
        us = measure(started, messages, k, gap)
        if base is None:
            base = us
            print(f"{'all (back to back)':<22}{'-':>9}{us:>12.1f}{'1.00x':>17}{'-':>19}")
            continue
        print(f"{k:<22}{gap * 1000:>9g}{us:>12.1f}{us / base:>16.2f}x{(us - base) * k:>19.0f}")
    load = __import__("os").getloadavg()
    print(f"machine: load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
