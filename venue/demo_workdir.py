"""The demo's working directory: a fresh temporary directory, and the ones dead demos left behind.

A demo stopped by Ctrl-C removes its directory (``tempfile.TemporaryDirectory``); one killed with
``kill -9`` cannot. Each demo writes its process id into its directory (``PID_FILE``); a demo
starting removes the directories whose process is gone, so repeated kills do not fill ``/tmp``.
Directories without a process id (another tool's, or an older demo's) are left alone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

PREFIX = "venue-demo-"
PID_FILE = "venue-demo.pid"


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (signal 0 checks without signalling). A zombie does not: a demo
    killed with -9 stays one until its parent (the shell) reaps it, which a restart right after the
    kill can beat (a new user's run left the dead demo's directory behind so)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether ``pid`` is a zombie (Linux ``/proc/PID/stat`` state ``Z``); False where /proc is not."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] == ["Z"]


def remove_abandoned(root: str | Path | None = None) -> list[Path]:
    """Remove ``PREFIX*`` directories under ``root`` (default: the temporary directory) whose
    ``PID_FILE`` names a process that no longer runs; returns those removed. Never raises."""
    removed = []
    base = Path(root or tempfile.gettempdir())
    with contextlib.suppress(OSError):
        for path in base.glob(PREFIX + "*"):
            try:
                pid = int((path / PID_FILE).read_text().strip())
            except (OSError, ValueError):
                continue
            if pid != os.getpid() and not _alive(pid):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
    return removed


@contextlib.contextmanager
def demo_workdir() -> Iterator[str]:
    """A new temporary directory for one demo (its path as str), removed on exit, after removing
    what killed demos left (``remove_abandoned``)."""
    remove_abandoned()
    with tempfile.TemporaryDirectory(prefix=PREFIX) as tmp:
        (Path(tmp) / PID_FILE).write_text(str(os.getpid()))
        yield tmp
