"""Timing a command as a user runs it (a new process each time), hyperfine-like: ``warmup`` runs
first (page cache, .pyc files), then ``runs`` timed runs; wall time and the child's CPU time (user +
system, ``getrusage(RUSAGE_CHILDREN)``), in seconds."""

from __future__ import annotations

import resource
import statistics
import subprocess
import time
from dataclasses import dataclass


@dataclass
class Timing:
    """``runs`` runs of one command: median and least wall and CPU seconds, and the last stdout."""

    wall: float
    wall_min: float
    cpu: float
    cpu_min: float
    runs: int
    stdout: str


def timed(cmd: list[str], runs: int = 10, warmup: int = 1, env: dict[str, str] | None = None) -> Timing:
    """Run ``cmd`` ``warmup`` + ``runs`` times (each must exit 0: CalledProcessError otherwise), in
    ``env`` (default: this process's environment)."""
    for _ in range(warmup):
        subprocess.run(cmd, capture_output=True, check=True, env=env)
    walls, cpus, out = [], [], ""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        out = proc.stdout
    return Timing(statistics.median(walls), min(walls), statistics.median(cpus), min(cpus), runs, out)
