"""Simulated boards with their own logins (devices/simulate.py ``board_logins``, ``play_scripts``).

Expected values come from deploy/make-mosquitto-passwords.py's docstring: users ``board-{t}-{b}``
and ``clock-{t}-{b}`` per board, ``credentials.json`` shaped ``{"gateways": [...], "devices":
[{"tournament", "board", "device", "username", "password"}, ...]}``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from devices.script import Script
from devices.simulate import board_logins, play_scripts

MAKER = Path(__file__).resolve().parents[2] / "deploy" / "make-mosquitto-passwords.py"


@pytest.fixture
def credentials(tmp_path) -> dict:
    subprocess.run([sys.executable, MAKER, "--out-dir", tmp_path, "--tournament", "open:1-3",
                    "--tournament", "women:1"], check=True, capture_output=True)
    return json.loads((tmp_path / "credentials.json").read_text())


def test_each_board_gets_its_board_login(credentials):
    logins = board_logins(credentials, "open")
    assert sorted(logins) == ["1", "2", "3"]
    assert logins["2"][0] == "board-open-2"
    assert all(len(password) >= 24 for _, password in logins.values())
    assert [g["username"] for g in credentials["gateways"]] == ["gateway-open", "gateway-women"]


def test_a_tournament_without_boards_in_the_file_is_an_error(credentials):
    with pytest.raises(ValueError, match="no board login of tournament 'blitz'"):
        board_logins(credentials, "blitz")


async def test_a_board_without_a_login_is_refused_before_anything_is_sent(credentials):
    script = Script(board="4", plies=[], white_ms=5_400_000, black_ms=5_400_000, result="*", reason="")
    with pytest.raises(ValueError, match="no login for boards 4"):
        # port 1 has no broker: nothing may be tried before the check
        await play_scripts("mqtt://127.0.0.1:1", "open", [script], logins=board_logins(credentials, "open"))
