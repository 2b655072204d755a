"""How long the print views of a 300-player round take to render (issue 27 item 7: "the print views
of a 300-player round render in under 2 s").

The tournament: ``--players`` (300) paired by our Dutch engine for ``--rounds`` (5) rounds with
seeded random results, byes and forfeits (bench/_swiss.py), written as log entries as the venue
writes them (tests/trf_log.py), folded by a dashboard (dashboard.app.create_app over a memory log).
Each print view of the last round is asked over HTTP (Starlette's TestClient: routing, middleware,
the fold's projection, Jinja2), ``--repeat`` times; the table gives the median and the slowest, and
the ratio to the baseline measured in the same run: ``standings_json`` of the same fold (the
standings with tie-breaks that GET /api/standings serves, computed afresh), the work every sheet
starts from.

Usage: ``.venv/bin/python bench/bench_print_views.py [--players 300] [--rounds 5] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "bench"))

from _swiss import dutch_swiss  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from trf_log import trf_entries  # noqa: E402

from dashboard.app import create_app  # noqa: E402
from dashboard.printing import VIEWS  # noqa: E402
from services.eventlog.memory import MemoryLog  # noqa: E402
from services.arbiter_office.tournament_json import standings_json  # noqa: E402

TARGET_S = 2.0


def timed(call, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        out.append(time.perf_counter() - started)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=27)
    a = ap.parse_args()

    started = time.perf_counter()
    trf = dutch_swiss(a.players, a.rounds, a.seed, total_rounds=a.rounds + 4)
    entries = trf_entries(trf)
    entries[0][1]["regulations"] = {"tiebreaks": ["BH/C1", "BH", "SB", "ARO"]}
    log = MemoryLog("bench-print")
    asyncio.run(log.append_many([(t, d, None) for t, d in entries]))
    print(f"tournament: {a.players} players, {a.rounds} rounds paired (Dutch), {len(entries)} log entries, "
          f"made in {time.perf_counter() - started:.1f} s")

    with TestClient(create_app(log)) as client:
        deadline = time.monotonic() + 120
        while client.get("/api/standings").json().get("round") != a.rounds:
            if time.monotonic() > deadline:
                raise SystemExit("the dashboard did not fold the tournament in 120 s")
            time.sleep(0.05)
        view = client.app.state.tournament_view
        base = timed(lambda: standings_json(view), a.repeat)
        base_s = statistics.median(base)
        rows = [("baseline: standings_json", base, len(str(standings_json(view))))]
        for name, _ in VIEWS:
            path = f"/print/{name}?round={a.rounds}"
            answer = client.get(path)
            if answer.status_code != 200:
                raise SystemExit(f"{path}: {answer.status_code} {answer.text[:200]}")
            rows.append((path, timed(lambda p=path: client.get(p), a.repeat), len(answer.content)))

    print(f"\n{'view':42} {'median ms':>10} {'max ms':>9} {'vs baseline':>12} {'bytes':>9}")
    total = 0.0
    for name, times, size in rows:
        med = statistics.median(times)
        if name.startswith("/print"):
            total += med
        print(f"{name:42} {med * 1000:10.1f} {max(times) * 1000:9.1f} {med / base_s:11.1f}x {size:9d}")
    print(f"{'all six print views, one after another':42} {total * 1000:10.1f}")
    slowest = max(statistics.median(t) for n, t, _ in rows if n.startswith("/print"))
    verdict = "under" if slowest < TARGET_S else "OVER"
    print(f"\nslowest view {slowest:.2f} s: {verdict} the {TARGET_S:.0f} s target ({a.players} players, "
          f"round {a.rounds}; {a.repeat} runs each)")


if __name__ == "__main__":
    main()
