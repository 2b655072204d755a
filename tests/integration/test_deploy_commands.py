"""The shipped deployment's exact command lines start, serve and stop (issue 11, "The shipped
deployment does not start").

The command lines are read from the files that ship: ``ExecStart=`` of deploy/systemd/*.service
(expanded as systemd does: ``${VAR}`` is one argument, from ``EnvironmentFile=``) and ``command:`` of
the gateway and dashboard in deploy/compose.yaml (after the image's ``ENTRYPOINT ["venue"]``, with
compose's ``${VAR:?...}`` / ``${VAR:-...}`` interpolation). The environment is
deploy/venue.env.example pointed at this machine: the real Mosquitto on 127.0.0.1:1883 (the
example's own URL), the real Redis on 127.0.0.1:6379 (the example's Redis line), a fresh tournament
slug and a free dashboard port; compose's service names ``mosquitto`` and ``redis`` are this host.
Each command runs with this checkout's ``venue``; it must serve (the gateway prints its ready line
once subscribed, the dashboard answers ``/api/health`` with ok) and exit 0 on SIGTERM, as systemd
and docker stop it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
import redis
import yaml
from mosquitto_site import shipped_broker
from shipped_deploy import DEPLOY, REDIS_URL, VENUE, deploy_env, exec_start

from gateway.broker import free_port
from services.eventlog.redis import tournament_keys

pytestmark = pytest.mark.live

ENTRYPOINT = ["venue"]  # deploy/Dockerfile


def interpolate(text: str, env: dict[str, str]) -> str:
    """compose's interpolation: ``${VAR}``, ``${VAR:-default}``, ``${VAR:?error}``, ``$$``."""
    def one(m: re.Match) -> str:
        name, op, arg = m["name"], m["op"], m["arg"]
        value = env.get(name, "")
        if op == ":?":
            assert value, f"compose would stop: {arg}"
        return value or (arg if op == ":-" else "")
    return re.sub(r"\$\{(?P<name>\w+)(?:(?P<op>:[-?])(?P<arg>[^}]*))?\}", one,
                  text).replace("$$", "$")


def compose_command(service: str, env: dict[str, str]) -> list[str]:
    """The service's container command as argv on this host (service names -> 127.0.0.1)."""
    spec = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"][service]
    argv = ENTRYPOINT + [interpolate(str(word), env) for word in spec["command"]]
    argv = [re.sub(r"@mosquitto:|//mosquitto:", lambda m: m[0].replace("mosquitto", "127.0.0.1"), w)
            for w in argv]
    argv = [w.replace("//redis:6379", "//127.0.0.1:6379") for w in argv]
    return [VENUE] + argv[1:]


def start(argv: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(argv, env={**os.environ, **env}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_until_ready(gateway: subprocess.Popen) -> None:
    """The gateway's ready line ("... Ctrl-C to stop.", printed once subscribed: venue/serve.py)."""
    line = ""
    while "Ctrl-C to stop." not in line:
        line = gateway.stdout.readline()
        assert line or gateway.poll() is None, f"the gateway exited: {gateway.communicate()[1]}"


def wait_until_serving(gateway: subprocess.Popen, dashboard_port: int, dashboard: subprocess.Popen,
                       timeout: float = 30.0) -> None:
    """The gateway's ready line and the dashboard's ``/api/health`` ok."""
    wait_until_ready(gateway)
    deadline = time.monotonic() + timeout
    while True:
        assert dashboard.poll() is None, f"the dashboard exited: {dashboard.communicate()[1]}"
        try:
            health = httpx.get(f"http://127.0.0.1:{dashboard_port}/api/health", timeout=2)
            if health.status_code == 200 and health.json()["ok"]:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the dashboard did not serve /api/health"
        time.sleep(0.1)


def stop(proc: subprocess.Popen) -> tuple[int, str, str]:
    """SIGTERM (systemd's and docker's stop), then (exit code, stdout, stderr)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=15)
    return proc.returncode, out, err


@pytest.fixture
def deployment():
    """(tournament, dashboard port, env) for one run; the Redis keys are deleted afterwards."""
    tournament = f"deploy-{uuid.uuid4().hex[:8]}"
    port = free_port()
    yield tournament, port, deploy_env(tournament, port)
    redis.Redis.from_url(REDIS_URL).delete(*tournament_keys(tournament))


def run_both(gateway_argv: list[str], dashboard_argv: list[str], env: dict, port: int,
             while_serving=lambda: None) -> None:
    gateway = start(gateway_argv, env)
    dashboard = start(dashboard_argv, env)
    try:
        wait_until_serving(gateway, port, dashboard)
        while_serving()
    finally:
        results = [stop(gateway), stop(dashboard)]
    for code, out, err in results:
        assert code == 0, err
        assert "Traceback" not in err and "stopped" in out


def test_the_systemd_units_start_serve_and_stop_cleanly(deployment):
    """deploy/systemd/venue-gateway.service and venue-dashboard.service as systemd runs them."""
    tournament, port, env = deployment
    gateway = exec_start(DEPLOY / "systemd" / "venue-gateway.service", env)
    dashboard = exec_start(DEPLOY / "systemd" / "venue-dashboard.service", env)
    assert gateway[1] == "gateway" and dashboard[1] == "dashboard"
    run_both(gateway, dashboard, env, port)


def environment_files(unit: Path, instance: str) -> list[str]:
    """The unit's ``EnvironmentFile=`` paths, in order (later ones override), for ``instance``."""
    return [ln.removeprefix("EnvironmentFile=").replace("%i", instance)
            for ln in unit.read_text().splitlines() if ln.startswith("EnvironmentFile=")]


def test_the_gateway_shard_units_serve_side_by_side_with_their_own_logins(deployment, tmp_path):
    """deploy/systemd/venue-gateway@.service, one instance per shard (``venue-gateway@1-2``,
    ``@3-4``), each with the settings file the unit's comment and deploy/README.md describe
    (``VENUE_BOARDS`` and ``VENUE_MQTT_URL`` with that shard's login from credentials.json of
    make-mosquitto-passwords.py ``--gateway-shards``), on a broker running the shipped
    mosquitto.conf (tests/mosquitto_site.py): both serve, neither loses its link (a shard whose
    session is taken over does, issue 15), and both stop cleanly on SIGTERM."""
    tournament, _, env = deployment
    unit = DEPLOY / "systemd" / "venue-gateway@.service"
    specs = ("1-2", "3-4")
    maker_args = ["--tournament", f"{tournament}:1-4"]
    for spec in specs:
        maker_args += ["--gateway-shards", f"{tournament}:{spec}"]
    with shipped_broker(tmp_path, *maker_args) as (mqtt_port, _):
        logins = {g["boards"]: g for g in json.loads((tmp_path / "credentials.json").read_text())["gateways"]}
        assert sorted(logins) == sorted(specs)
        shards = []
        try:
            for spec in specs:
                assert environment_files(unit, spec) == ["/etc/venue/venue.env", f"/etc/venue/gateway-{spec}.env"]
                login = logins[spec]
                shard_env = {**env, "VENUE_BOARDS": login["boards"],
                             "VENUE_MQTT_URL": f"mqtt://{login['username']}:{login['password']}@127.0.0.1:{mqtt_port}"}
                argv = exec_start(unit, shard_env)
                assert argv[1] == "gateway" and argv[argv.index("--boards") + 1] == spec
                shards.append(start(argv, shard_env))
            for shard in shards:
                wait_until_ready(shard)
        finally:
            results = [stop(shard) for shard in shards]
    for code, out, err in results:
        assert code == 0, err
        assert "Traceback" not in err and "MQTT link lost" not in err and "stopped" in out


def compose_environment(service: str, env: dict[str, str]) -> dict[str, str]:
    """The service's ``environment:`` as compose interpolates it."""
    spec = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"][service]
    return {k: interpolate(str(v), env) for k, v in (spec.get("environment") or {}).items()}


def test_the_compose_services_start_serve_and_stop_cleanly(deployment):
    """deploy/compose.yaml's gateway and dashboard nodes' commands behind the image's entrypoint.
    Each node listens on port 8000 of its own container (the port nginx/upstream-compose.conf
    names); here, on this host, on a free port."""
    tournament, port, env = deployment
    env = {**env, "VENUE_GATEWAY_PASSWORD": "compose-test", "VENUE_SECRET": "compose-test"}
    gateway = compose_command("gateway", env)
    dashboard = compose_command("dashboard1", env)
    assert compose_command("dashboard2", env) == dashboard  # the same node twice
    assert dashboard[dashboard.index("--port") + 1] == "8000"
    dashboard[dashboard.index("--port") + 1] = str(port)
    [kind, *check] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]["dashboard1"][
        "healthcheck"]["test"]
    assert kind == "CMD" and check[0] == "python" and ":8000/api/health" in check[-1]
    check = [sys.executable, *check[1:-1], check[-1].replace(":8000/", f":{port}/")]

    def healthy() -> None:  # the healthcheck's command, as docker runs it in the node's container
        result = subprocess.run(check, capture_output=True, text=True, timeout=10)
        assert result.returncode == 0, result.stderr

    run_both(gateway, dashboard, {**env, **compose_environment("dashboard1", env)}, port, healthy)


def test_compose_puts_nginx_in_front_of_every_dashboard_node():
    """nginx/upstream-compose.conf names every dashboardN service of compose.yaml on the port it
    listens on, and compose mounts it and nginx.conf where nginx.conf includes them."""
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    nodes = sorted(s for s in services if re.fullmatch(r"dashboard\d+", s))
    upstream = (DEPLOY / "nginx" / "upstream-compose.conf").read_text()
    spectators = re.search(r"upstream venue_dashboards \{(.*?)\}", upstream, re.S)[1]
    assert sorted(re.findall(r"server (\w+):8000 ", spectators)) == nodes and len(nodes) >= 2
    for node in nodes:
        command = services[node]["command"]
        assert command[command.index("--port") + 1] == "8000"
    mounts = services["nginx"]["volumes"]
    assert "./nginx/nginx.conf:/etc/nginx/nginx.conf:ro" in mounts
    assert "./nginx/upstream-compose.conf:/etc/nginx/venue-upstream.conf:ro" in mounts
    assert "include /etc/nginx/venue-upstream.conf;" in (DEPLOY / "nginx" / "nginx.conf").read_text()
    assert set(services["nginx"]["depends_on"]) == set(nodes)


def test_a_lost_log_turns_the_deployed_dashboards_health_to_503(deployment):
    """Issue 11, "A lost or rolled-back log goes unnoticed": the log's keys vanish under the
    deployed gateway and dashboard (what a Redis restart without AOF does). The dashboard's
    ``/api/health`` turns 503 naming LogReplaced, the gateway reports it and stops, and neither
    writes a new log over the lost one. The entry is an arbiter's ``note_added`` (docs/events.md)."""
    import asyncio

    from services.eventlog import open_log

    tournament, port, env = deployment

    async def first_entry():
        log = open_log(REDIS_URL, tournament)
        await log.append("note_added", {"text": "deploy test", "by": "chief"})
        await log.close()

    asyncio.run(first_entry())
    gateway = start(exec_start(DEPLOY / "systemd" / "venue-gateway.service", env), env)
    dashboard = start(exec_start(DEPLOY / "systemd" / "venue-dashboard.service", env), env)
    store = redis.Redis.from_url(REDIS_URL)
    try:
        wait_until_serving(gateway, port, dashboard)
        store.delete(*tournament_keys(tournament))
        deadline = time.monotonic() + 10
        while True:
            health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
            if health.status_code == 503:
                break
            assert time.monotonic() < deadline, f"still healthy: {health.json()}"
            time.sleep(0.2)
        assert health.json()["ok"] is False and "LogReplaced" in health.json()["error"]
        deadline = time.monotonic() + 10
        while gateway.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert store.exists(*tournament_keys(tournament)) == 0  # nothing written over it
    finally:
        results = [stop(gateway), stop(dashboard)]
    # the gateway stops itself (exit 2, the reason on stderr: it never writes over a log it does
    # not recognise, and the service manager sees it); the dashboard stops cleanly when told to
    assert "LogReplaced" in results[0][2]
    assert results[0][0] == 2 and results[1][0] == 0
