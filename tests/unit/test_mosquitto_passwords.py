"""deploy/make-mosquitto-passwords.py's gateway shards (``--gateway-shards SLUG:BOARDS``, issue 15).

Expected values come from the script's docstring: a shard's login is ``gateway-{t}-boards-{SPEC}``
and replaces ``gateway-{t}``, whose login stays when a tournament has no shards; a shard reads
``venue/{t}/boards/{b}/+`` and writes ``venue/{t}/boards/{b}/feedback`` of its boards only;
``credentials.json`` lists a shard's login with ``"boards"``, its SPEC; passwords of users already
in ``credentials.json`` are kept; a shard naming no ``--tournament``, with boards outside it,
sharing a board with another shard, or a tournament's boards left in no shard exit with status 2
and a message naming the argument.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

MAKER = Path(__file__).resolve().parents[2] / "deploy" / "make-mosquitto-passwords.py"


def make(out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, MAKER, "--out-dir", out, *args], capture_output=True, text=True)


def gateways(out: Path) -> list[dict]:
    return json.loads((out / "credentials.json").read_text())["gateways"]


def user_acl(out: Path, user: str) -> list[str]:
    """The acl file's lines of ``user`` (from its ``user`` line to the next blank line)."""
    block = (out / "acl").read_text().split(f"\nuser {user}\n", 1)[1]
    return block.split("\n\n", 1)[0].strip().splitlines()


def test_shards_get_their_own_logins_and_the_unsharded_tournament_keeps_its_gateway(tmp_path):
    result = make(tmp_path, "--tournament", "open:1-4", "--tournament", "women:1-2",
                  "--gateway-shards", "open:1-2", "--gateway-shards", "open: 3,4")
    assert result.returncode == 0, result.stderr
    assert [(g["tournament"], g["username"], g.get("boards")) for g in gateways(tmp_path)] == [
        ("women", "gateway-women", None),
        ("open", "gateway-open-boards-1-2", "1-2"),
        ("open", "gateway-open-boards-3,4", "3,4"),
    ]
    assert user_acl(tmp_path, "gateway-open-boards-3,4") == [
        "topic read venue/open/boards/3/+", "topic write venue/open/boards/3/feedback",
        "topic read venue/open/boards/4/+", "topic write venue/open/boards/4/feedback",
        # issue 28: each gateway login's own probe topic (gateway/probe.py), no one else's
        "topic readwrite venue/open/gateway/gateway-open-boards-3,4/probe",
    ]
    assert user_acl(tmp_path, "gateway-women") == ["topic read venue/women/#",
                                                  "topic write venue/women/boards/+/feedback",
                                                  "topic write venue/women/gateway/gateway-women/probe"]
    assert "user gateway-open\n" not in (tmp_path / "acl").read_text()
    users = [line.split(":")[0] for line in (tmp_path / "passwd").read_text().splitlines()]
    assert {u for u in users if u.startswith("gateway-")} == {
        "gateway-women", "gateway-open-boards-1-2", "gateway-open-boards-3,4"}


def test_a_second_run_keeps_the_shards_passwords(tmp_path):
    args = ("--tournament", "open:1-4", "--gateway-shards", "open:1-2", "--gateway-shards", "open:3-4")
    assert make(tmp_path, *args).returncode == 0
    first = {g["username"]: g["password"] for g in gateways(tmp_path)}
    assert make(tmp_path, *args).returncode == 0
    assert {g["username"]: g["password"] for g in gateways(tmp_path)} == first
    assert make(tmp_path, *args, "--rotate").returncode == 0
    rotated = {g["username"]: g["password"] for g in gateways(tmp_path)}
    assert rotated.keys() == first.keys() and not set(rotated.values()) & set(first.values())


@pytest.mark.parametrize("shards, message", [
    (["blitz:1-2"], "--gateway-shards 'blitz:1-2': no --tournament blitz"),
    (["open:1-2", "open:3-5"], "--gateway-shards 'open:3-5': board 5 is not in --tournament open's boards"),
    (["open:1-3", "open:3-4"], "--gateway-shards 'open:3-4': board 3 is also in --gateway-shards 'open:1-3'"),
    (["open:1-2", "open:1-4"], "--gateway-shards 'open:1-4': boards 1, 2 are also in --gateway-shards 'open:1-2'"),
    (["open:1-2"], "--gateway-shards of open: boards 3, 4 are in no shard"),
    (["open:1-2", "open:x-y"], "argument --gateway-shards: 'open:x-y': board 'x-y' cannot be in a shard"),
    (["open:1-2", "open:4-3"], "argument --gateway-shards: 'open:4-3': board range '4-3' runs backwards"),
    (["open"], "argument --gateway-shards: 'open': expected SLUG:BOARDS"),
], ids=["unknown-tournament", "outside-the-tournament", "overlap", "overlap-whole", "board-in-no-shard",
        "non-numeric-range", "backwards", "no-boards"])
def test_bad_shards_exit_2_naming_the_argument(tmp_path, shards, message):
    args = ["--tournament", "open:1-4"]
    for shard in shards:
        args += ["--gateway-shards", shard]
    result = make(tmp_path, *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "passwd").exists()  # nothing written
