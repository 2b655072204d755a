"""The persistent session secret (dashboard.arbiter.auth.persistent_secret): "Several processes on
one machine share it" (its docstring), so the dashboard nodes of one host (deploy/systemd/
venue-dashboard@.service, one user, one state directory) accept each other's arbiter sessions, even
when they start together for the first time."""

from __future__ import annotations

import os
import threading

from dashboard.arbiter.auth import persistent_secret


def test_nodes_started_together_for_the_first_time_take_one_secret(tmp_path):
    env = {"VENUE_STATE_DIR": str(tmp_path / "state")}
    start = threading.Barrier(8)
    got: list[bytes] = []

    def node() -> None:
        start.wait()
        got.append(persistent_secret(env))

    threads = [threading.Thread(target=node) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kept = tmp_path / "state" / "secret"
    assert set(got) == {bytes.fromhex(kept.read_text())}
    assert os.listdir(tmp_path / "state") == ["secret"]  # no draft left behind
    assert kept.stat().st_mode & 0o777 == 0o600
    assert persistent_secret(env) == got[0]  # and a restart keeps it


def test_an_unreadable_secret_file_is_replaced(tmp_path):
    (tmp_path / "secret").write_text("not hex")
    secret = persistent_secret({"VENUE_STATE_DIR": str(tmp_path)})
    assert len(secret) == 32 and (tmp_path / "secret").read_text() == secret.hex()
