"""The shipped deploy/ files read as their runners read them, for the deployment's live tests
(tests/integration/test_deploy_commands.py, tests/node_deployment.py): deploy/venue.env.example as
systemd's ``EnvironmentFile=`` reads it (``env_file``), pointed at this machine's Mosquitto
(127.0.0.1:1883, the example's own URL) and Redis (127.0.0.1:6379, the example's Redis line) under a
tournament slug and a dashboard port (``deploy_env``), and a unit's ``ExecStart=`` expanded as
systemd.service(5) says, run with this checkout's ``venue`` (``exec_start``).

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from shipped_deploy import deploy_env``.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


VENUE = str(Path(sys.executable).with_name("venue"))  # this checkout's console script
REDIS_URL = "redis://127.0.0.1:6379/0"


def env_file(path: Path) -> dict[str, str]:
    """systemd's EnvironmentFile= (KEY=VALUE lines, # comments, optional quotes)."""
    env = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip().strip('"').strip("'")
    return env


def deploy_env(tournament: str, port: int) -> dict[str, str]:
    """deploy/venue.env.example pointed at this machine's Mosquitto and Redis."""
    example = (DEPLOY / "venue.env.example").read_text()
    env = env_file(DEPLOY / "venue.env.example")
    redis_line = re.search(r"^#\s*VENUE_LOG_URL=(redis://\S+)$", example, re.M)
    assert redis_line, "venue.env.example offers no Redis VENUE_LOG_URL"
    assert "@127.0.0.1:1883" in env["VENUE_MQTT_URL"], "the example's broker is this host's"
    env.update(VENUE_TOURNAMENT=tournament, VENUE_LOG_URL=redis_line[1],
               VENUE_DASHBOARD_HOST="127.0.0.1", VENUE_DASHBOARD_PORT=str(port))
    assert env["VENUE_LOG_URL"] == REDIS_URL
    return env


def exec_start(unit: Path, env: dict[str, str]) -> list[str]:
    """The unit's ExecStart= as argv, expanded as systemd.service(5) says: words split as a shell
    would, ``${VAR}`` replaced within its word; the binary replaced by this checkout's ``venue``."""
    lines = [ln for ln in unit.read_text().splitlines() if ln.startswith("ExecStart=")]
    assert len(lines) == 1, f"{unit.name}: one ExecStart= expected"
    words = shlex.split(lines[0].removeprefix("ExecStart="))
    assert words[0].endswith("/bin/venue"), words[0]
    return [VENUE] + [re.sub(r"\$\{(\w+)\}", lambda m: env[m[1]], w) for w in words[1:]]
