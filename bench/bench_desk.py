"""What the arbiters' desk costs the dashboard per log entry, now that it keeps the hall grid.

The dashboard folds every entry once (``dashboard.feed.Feed.ingest``) and hands it to the desk
(``dashboard.arbiter.desk.Desk.ingest``): the alert queue, and since issue 14 the hall grid's rows
and the alerts' words (services/views/hall_grid.py, alert_evidence.py), pushed to the arbiters'
consoles. Measured in one run on the same entries (CPU time, best of ``--repeat``):

- fold only: the feed with no desk (the spectators' view alone);
- desk, alerts only: the desk with no state attached (as before issue 14: no grid, no words);
- desk + grid: the desk as the dashboard runs it now.

Entries: the real games of FIDE Candidates 2024 (open), all 56, as tests/replay_entries.py writes
them (moves, SAN, %clk presses, claims), each on its own hall board of one round, replayed ``--times``
times on that many boards (a hall of 56 x times boards), interleaved by time as a hall writes them.

Usage: ``.venv/bin/python bench/bench_desk.py [--repeat 3] [--times 4]``.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

import chess.pgn

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from dashboard.arbiter.desk import Desk  # noqa: E402
from dashboard.feed import Feed  # noqa: E402
from dashboard.hub import Hub  # noqa: E402
from replay_entries import game_entries, setup_of  # noqa: E402
from services.eventlog.base import Entry  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "chess" / "fide_candidates_2024_open.pgn"


def entries(times: int) -> list[Entry]:
    stream, games = io.StringIO(DATA.read_text(encoding="utf-8")), []
    while (g := chess.pgn.read_game(stream)) is not None:
        games.append(g)
    boards = [(g, str(i + 1)) for i, g in enumerate(games * times)]
    rows = [("round_started", {"round": "1", "event": "bench", "games": [setup_of(g, b, "1") for g, b in boards]}, 0)]
    for g, b in boards:
        rows += game_entries(g, f"1-{b}", b, 1000 + int(b))
    rows.sort(key=lambda r: r[2])
    return [Entry(seq=i + 1, at=at, type=t, data=d) for i, (t, d, at) in enumerate(rows)]


def run(es: list[Entry], mode: str) -> float:
    desk = Desk()
    feed = Feed(None, Hub(64), observers=[] if mode == "fold only" else [desk.ingest])
    if mode == "desk + grid":
        desk.attach(feed.state)
    started = time.process_time()
    for e in es:
        feed.ingest(e)
    return time.process_time() - started


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--times", type=int, default=4)
    args = p.parse_args(argv)
    es = entries(args.times)
    modes = ("fold only", "desk, alerts only", "desk + grid")
    best = {m: min(run(es, m) for _ in range(args.repeat)) for m in modes}
    base = best["fold only"]
    print(f"{len(es):,} entries, {56 * args.times} boards (best of {args.repeat}, CPU time)")
    print(f"| {'':<18} | {'us / entry':>10} | {'entries/s':>10} | {'vs fold only':>12} |")
    print(f"| {'-' * 18} | {'-' * 10} | {'-' * 10} | {'-' * 12} |")
    for m in modes:
        print(f"| {m:<18} | {best[m] / len(es) * 1e6:>10.1f} | {len(es) / best[m]:>10,.0f} | {best[m] / base:>12.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
