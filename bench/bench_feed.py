"""Entries per second the dashboard's feed folds and publishes (dashboard/feed.py), with and without
a broadcast delay, beside the baseline of one fold and one spectators' view in the same run.

Entries: every game of FIDE Candidates 2024 round 5 (../shared/data/chess), as a gateway writes them
(tests/replay_entries.py: moves, clock presses, results), after a tournament registration with or
without ``[broadcast] delay``. Rows (each the best of ``--repeat`` runs, CPU time of this process):

- baseline: ``HallState.apply`` + ``SpectatorView.deltas`` + ``json.dumps`` of each delta (what the
  feed did with one audience);
- feed, no delay: ``Feed.ingest`` (the live and public channels share one fold; nobody watches live);
- feed, delay 900 s: ``Feed.ingest`` (two folds: every entry waits in the delay queue), then
  ``release`` of all of them (the public fold).

Usage: ``.venv/bin/python bench/bench_feed.py [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from broadcast_helpers import T0, candidates_round5, keres_players, registration_entries, tournament_text  # noqa: E402
from replay_entries import game_entries, round_started  # noqa: E402
from services.eventlog.base import Entry  # noqa: E402
from services.state import HallState  # noqa: E402
from services.views.spectator import SpectatorView  # noqa: E402

from dashboard.feed import Feed  # noqa: E402
from dashboard.hub import Hub  # noqa: E402

SHARED = REPO.parent / "shared" / "data"


def entries(delay_s: int | None) -> list[Entry]:
    games = candidates_round5(SHARED)
    items = registration_entries(tournament_text(keres_players(SHARED), delay_s=delay_s), T0)[:1]
    items.append(round_started(games, "5", T0))
    for i, g in enumerate(games, start=1):
        items += game_entries(g, f"5-{i}", str(i), T0 + 1000)
    items.sort(key=lambda e: e[2])
    return [Entry(n, at, t, d) for n, (t, d, at) in enumerate(items, start=1)]


def baseline(log: list[Entry]) -> None:
    view = SpectatorView(HallState(), public=True)
    for e in log:
        for delta in view.deltas(view.state.apply(e), e.seq):
            json.dumps(delta, separators=(",", ":"), ensure_ascii=False)


def feed(log: list[Entry], delayed: bool) -> None:
    f = Feed(None, Hub(), clock=lambda: T0)
    for e in log:
        f.ingest(e)
    if delayed:
        f.release(T0 + 10 ** 9)


def best(run, repeat: int) -> float:
    out = []
    for _ in range(repeat):
        t = time.process_time()
        run()
        out.append(time.process_time() - t)
    return min(out)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args(argv)
    plain, delayed = entries(None), entries(900)
    base = best(lambda: baseline(plain), a.repeat)
    rows = [("baseline: one fold, one view", base, len(plain)),
            ("feed, no delay", best(lambda: feed(plain, False), a.repeat), len(plain)),
            ("feed, delay 900 s", best(lambda: feed(delayed, True), a.repeat), len(delayed))]
    print(f"{'':32} {'entries':>8} {'entries/s':>11} {'x baseline time':>16}")
    for name, secs, n in rows:
        print(f"{name:32} {n:>8} {n / secs:>11,.0f} {secs / base * len(plain) / n:>16.2f}")


if __name__ == "__main__":
    main()
