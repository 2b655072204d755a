"""Run a script (another tree's ``bench/_latency_services.py``) under tracemalloc; each SIGUSR1 dumps a
snapshot to ``DUMPDIR/N.tracemalloc`` (N = 1, 2, ...). For ``bench/bench_spectator_memory.py``.

Usage: ``python bench/_memory_probe.py DUMPDIR SCRIPT ARGS...``
"""

from __future__ import annotations

import runpy
import signal
import sys
import tracemalloc
from pathlib import Path


def main() -> None:
    dump_dir, script = Path(sys.argv[1]), sys.argv[2]
    sys.argv = [script, *sys.argv[3:]]
    count = [0]

    def dump(signum, frame) -> None:
        count[0] += 1
        tracemalloc.take_snapshot().dump(str(dump_dir / f"{count[0]}.tracemalloc"))
        (dump_dir / f"{count[0]}.done").touch()

    signal.signal(signal.SIGUSR1, dump)
    tracemalloc.start(1)
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
