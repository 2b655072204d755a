"""The next round's draft against ``venue pair``: a 300-player Swiss round by the Dutch system (FIDE
C.04.3), paired into a draft from the log (docs/pairing.md "The round's life cycle"; issue 27 item
7: "a 300-player Dutch draft appears in the console within the CLI's own time").

The tournament: 300 players, rounds paired by our engine with seeded random results
(``bench/_swiss.py``), written as the log's entries (``tests/trf_log.py``: the venue's
``tournament_registered``, ``round_started`` and ``game_ended``) into an SQLite store, and as the
TRF a pairing program reads. Timed, in the same run, each one warm-up then ``--runs`` runs:

- baseline: ``venue pair FILE.trf`` as a user runs it (a new process: start-up, parsing, pairing,
  printing), the CLI's own time;
- ``venue round pair N --store sqlite:///... --tournament SLUG`` as a process (start-up, reading and
  folding the whole log, pairing with the reasons, appending the draft; the draft is then removed
  again by using a fresh copy of the store for each run);
- the console's draft in process: what ``pair_round`` computes on the dashboard's folded state
  (``services.arbiter_office.round_draft.draft_round``: the TRF of the results, the pairing, each board's
  colour rule and float reasons), the least CPU of the runs.

Prints the table (median wall and CPU seconds, least CPU, the CPU ratio to ``venue pair``) and
checks that the draft's boards are ``venue pair``'s pairs.

Usage: python bench/bench_draft.py [--players 300] [--rounds 11] [--runs 5] [--seed 2013]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from _commands import timed
from _swiss import dutch_swiss

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from trf_log import trf_entries  # noqa: E402 - the tests' writer of a TRF as the venue's log entries

from services.eventlog import open_log  # noqa: E402
from services.arbiter_office.round_draft import draft_round  # noqa: E402
from services.tournament.trf import dump_trf  # noqa: E402
from services.views.standings import TournamentView  # noqa: E402


def _write_log(url: str, slug: str, entries: list[tuple[str, dict]]) -> None:
    async def write() -> None:
        log = open_log(url, slug)
        await log.append_many([(t, d, None) for t, d in entries])
        await log.close()

    asyncio.run(write())


def _in_process(entries: list[tuple[str, dict]], rnd: int, runs: int) -> tuple[float, set]:
    """Least CPU seconds of the console's draft on a folded state (folding not counted: the
    dashboard holds the state already), and the draft's pairs."""
    from trf_log import as_log

    view = TournamentView()
    for e in as_log(entries):
        view.apply(e)
    best, pairs = float("inf"), set()
    for _ in range(runs):
        t0 = time.process_time()
        draft = draft_round(view, rnd)
        best = min(best, time.process_time() - t0)
        pairs = {f"{b.white_no} {b.black_no}" for b in draft.boards} | {f"{y.start_no} 0" for y in draft.byes
                                                                         if y.code == "U"}
    return best, pairs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=11, help="the round to pair (default 11)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2013)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="bench-draft") as tmp:
        t = dutch_swiss(args.players, args.rounds - 1, args.seed, total_rounds=args.rounds)
        trf = Path(tmp, "round.trf")
        trf.write_text(dump_trf(t))
        entries = trf_entries(t, slug="bench-draft")
        store = Path(tmp, "log.sqlite")
        _write_log(f"sqlite:///{store}", "bench-draft", entries)
        pair = timed([sys.executable, "-m", "venue", "pair", str(trf)], args.runs, env=env)
        copy = Path(tmp, "run.sqlite")
        cmd = [sys.executable, "-m", "venue", "round", "pair", str(args.rounds), "--store", f"sqlite:///{copy}",
               "--tournament", "bench-draft"]
        # each run on a fresh copy of the store: a draft already there would be paired again, not first
        script = (f"import shutil,subprocess,sys; shutil.copy({str(store)!r}, {str(copy)!r}); "
                  f"sys.exit(subprocess.run({cmd!r}, stdout=subprocess.DEVNULL).returncode)")
        shutil.copy(store, copy)
        store_cli = timed([sys.executable, "-c", script], args.runs, env=env)
        inproc, pairs = _in_process(entries, args.rounds, args.runs)
    theirs = set(pair.stdout.split("\n")[1:int(pair.stdout.split("\n")[0]) + 1])
    print(f"Round {args.rounds} of a {args.players}-player Swiss (seed {args.seed}): the draft against venue pair; "
          f"median of {args.runs} runs after a warm-up")
    print(f"{'what':<58}{'wall s':>8}{'CPU s':>8}{'min CPU':>9}{'CPU / venue pair':>18}")
    rows = [("venue pair FILE.trf (baseline: the CLI's own time)", pair.wall, pair.cpu, pair.cpu_min),
            ("venue round pair N --store sqlite (fold the log, draft)", store_cli.wall, store_cli.cpu,
             store_cli.cpu_min),
            ("console's draft in process (draft_round on the fold)", None, None, inproc)]
    for name, wall, cpu, least in rows:
        ratio = (cpu if cpu is not None else least) / pair.cpu
        print(f"{name:<58}{'' if wall is None else f'{wall:.3f}':>8}{'' if cpu is None else f'{cpu:.3f}':>8}"
              f"{least:>9.3f}{ratio:>18.2f}")
    print(f"the draft's boards are venue pair's pairs: {'yes' if pairs == theirs else 'NO'}")
    print(f"the console's draft within the CLI's own time: {'yes' if inproc <= pair.cpu else 'NO'}")


if __name__ == "__main__":
    main()
