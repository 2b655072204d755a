"""Where a bench looks by default, found from this checkout (never one developer's absolute paths):
the baseline tree a bench compares this tree with, and the lock that keeps two heavy benches off
the same cores at once.

- ``main_checkout()``: the repository's main working tree (``git worktree list``'s first entry), where
  a worktree's ``main`` usually is; this checkout itself when git cannot say.
- ``--lock PATH`` (``add_lock_option``): ``<git common dir>/bench.lock`` by default, one file for
  every worktree of the repository (``<checkout>/.bench.lock`` outside git); ``--lock ''`` takes none.
  A bench holds it for its whole run (``hold_machine_lock``), so ``flock`` is not needed around it.
"""

from __future__ import annotations

import argparse
import fcntl
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str | None:
    """git's answer in this checkout (stripped stdout), None when git is missing or refuses."""
    try:
        out = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip()


def main_checkout() -> Path:
    """The main working tree of this checkout's repository (for a ``git worktree``, the checkout the
    worktrees were made from); this checkout when it is the main one or git cannot say."""
    listing = _git("worktree", "list", "--porcelain") or ""
    first = next((line for line in listing.splitlines() if line.startswith("worktree ")), None)
    return Path(first.removeprefix("worktree ")) if first else REPO


def default_lock() -> Path:
    """``bench.lock`` in the repository's common git directory (shared by all its worktrees), or
    ``.bench.lock`` in this checkout outside git."""
    common = _git("rev-parse", "--path-format=absolute", "--git-common-dir")
    return Path(common) / "bench.lock" if common else REPO / ".bench.lock"


def add_lock_option(parser: argparse.ArgumentParser) -> None:
    """``--lock PATH``: the machine lock the bench holds while it runs ('' for none)."""
    parser.add_argument("--lock", default=str(default_lock()),
                        help="hold an exclusive flock on this file while running, so that two heavy "
                             "benches never share the cores ('' for none; default: %(default)s)")


_HELD: list = []  # the open lock files: closing one (or exiting) releases its lock


def hold_machine_lock(path: str | None) -> None:
    """Take an exclusive ``flock`` on ``path`` and hold it until this process exits, as ``flock PATH
    COMMAND`` does; wait for it, saying so on stderr, while another bench holds it. No lock when
    ``path`` is empty or None."""
    if not path:
        return
    handle = open(path, "a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"waiting for the bench lock {path} (another bench holds it)", file=sys.stderr, flush=True)
        fcntl.flock(handle, fcntl.LOCK_EX)
    _HELD.append(handle)
