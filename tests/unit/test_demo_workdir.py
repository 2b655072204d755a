"""venue/demo_workdir.py: a demo killed with kill -9 leaves its directory; the next demo removes it
(a newcomer's run of the README found /tmp filling with venue-demo-* directories)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from eventually import eventually

from venue import demo_workdir as w


def _reaped() -> int:
    """The id of a process that has ended (a child run to completion and reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_dead_demos_directory_is_removed_and_the_others_are_kept(tmp_path):
    dead = tmp_path / f"{w.PREFIX}dead"
    dead.mkdir()
    (dead / w.PID_FILE).write_text(str(_reaped()))
    (dead / "venue.sqlite").write_text("x")
    alive = tmp_path / f"{w.PREFIX}alive"
    alive.mkdir()
    (alive / w.PID_FILE).write_text(str(os.getppid()))
    unknown = tmp_path / f"{w.PREFIX}no-pid"  # an older demo's or another tool's: never guessed at
    unknown.mkdir()
    other = tmp_path / "venue-pair-x"
    other.mkdir()
    (other / w.PID_FILE).write_text(str(_reaped()))
    assert w.remove_abandoned(tmp_path) == [dead]
    assert not dead.exists() and alive.exists() and unknown.exists() and other.exists()


def test_the_workdir_names_its_process_and_goes_away_on_exit():
    with w.demo_workdir() as tmp:
        assert Path(tmp).name.startswith(w.PREFIX)
        assert (Path(tmp) / w.PID_FILE).read_text() == str(os.getpid())
    assert not Path(tmp).exists()


def test_a_demo_killed_and_not_yet_reaped_counts_as_dead(tmp_path):
    """A new user's run: `kill -9` of the demo, then `./run demo` 0.3 s later: the killed demo was
    still a zombie (state Z: dead, not yet reaped by its parent) and its directory stayed. A zombie
    runs nothing: its directory is removed like any dead demo's."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        child.kill()
        # dead, unreaped: /proc shows Z until wait()
        eventually(lambda: Path(f"/proc/{child.pid}/stat").read_text().rpartition(")")[2].split()[0] == "Z", 5)
        zombie = tmp_path / f"{w.PREFIX}zombie"
        zombie.mkdir()
        (zombie / w.PID_FILE).write_text(str(child.pid))
        assert w.remove_abandoned(tmp_path) == [zombie]
        assert not zombie.exists()
    finally:
        child.wait()
