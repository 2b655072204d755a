"""Start-up of ``venue pair`` and ``venue tiebreaks``: what an arbiter waits for before any work.

Times, each in a new process (one warm-up run, then the median of ``--runs``; wall and the child's
CPU), beside the baseline measured in the same run, ``python -c pass`` (the interpreter alone):
``venue pair --help``, ``venue tiebreaks --help``, a real pairing (``venue pair`` on a fixture of
../shared/data/pairing) and, for scale, ``python -c "import venue.serve"`` (the web stack a
service command loads). For each, ``python -X importtime`` gives the modules imported, their
import time (the sum of the top-level cumulative figures, us) and which of the web stack
(starlette, uvicorn, websockets, aiomqtt, paho, amqtt, redis) they include.

``--before DIR``: the same commands run from another checkout (e.g. ``git archive`` of an earlier
commit unpacked in DIR; its ``venue`` package is imported from DIR), side by side.

    .venv/bin/python bench/bench_start_up.py [--runs 10] [--before DIR]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from _checkout import add_lock_option, hold_machine_lock
from _commands import timed

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO.parent / "shared" / "data" / "pairing" / "dutch" / "dutch-001004-119p-r5of10.trf"
WEB_STACK = ("starlette", "uvicorn", "websockets", "aiomqtt", "paho", "amqtt", "redis")
COMMANDS = {
    "python -c pass (baseline)": ["-c", "pass"],
    "venue pair --help": ["-m", "venue", "pair", "--help"],
    "venue tiebreaks --help": ["-m", "venue", "tiebreaks", "--help"],
    f"venue pair {FIXTURE.name}": ["-m", "venue", "pair", str(FIXTURE)],
    'python -c "import venue.serve"': ["-c", "import venue.serve"],
}


def imports(argv: list[str], cwd: Path) -> tuple[int, float, list[str]]:
    """(modules imported, their import time in us, the web-stack packages among them) of
    ``python -X importtime ARGV`` run in ``cwd``."""
    err = subprocess.run([sys.executable, "-X", "importtime", *argv], cwd=cwd, capture_output=True,
                         text=True, check=True).stderr
    rows = [line.split("|") for line in err.splitlines() if line.startswith("import time:") and line.count("|") == 2]
    rows = [r for r in rows if r[1].strip().isdigit()]
    total = sum(int(r[1]) for r in rows if not r[2].startswith("  "))  # top level: one space before the name
    web = sorted({r[2].strip().split(".")[0] for r in rows} & set(WEB_STACK))
    return len(rows), total, web


def main() -> None:
    """Time every command in each checkout and print one table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--before", type=Path, help="another checkout to run the same commands from")
    add_lock_option(ap)
    args = ap.parse_args()
    hold_machine_lock(args.lock)
    trees = [("this tree", REPO)] + ([("before", args.before.resolve())] if args.before else [])
    print(f"new process each run; median of {args.runs} after a warm-up; python {sys.version.split()[0]}")
    print(f"{'tree':<10} {'command':<44} {'wall ms':>8} {'CPU ms':>7} {'x base':>7} {'modules':>8} "
          f"{'import ms':>10}  web stack")
    for label, tree in trees:
        base = None
        for name, argv in COMMANDS.items():
            cmd = [sys.executable, *argv]
            t = _timed_in(cmd, tree, args.runs)
            base = base or t.cpu
            count, total, web = imports(argv, tree)
            print(f"{label:<10} {name:<44} {t.wall * 1000:8.1f} {t.cpu * 1000:7.1f} {t.cpu / base:7.2f} "
                  f"{count:8d} {total / 1000:10.1f}  {', '.join(web) or '-'}")


def _timed_in(cmd: list[str], cwd: Path, runs: int):
    """``timed`` with ``cwd`` as the working directory (so ``-m venue`` imports that tree's package)."""
    import os

    here = os.getcwd()
    os.chdir(cwd)
    try:
        return timed(cmd, runs)
    finally:
        os.chdir(here)


if __name__ == "__main__":
    main()
