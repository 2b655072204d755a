"""A private Mosquitto running the shipped deploy/mosquitto/mosquitto.conf, for the tests.

Only the directives the file marks ``[site]`` are rewritten: ``listener`` (a free port of
127.0.0.1), ``password_file``/``acl_file``/``persistence_location`` (into a directory of the
caller's) and ``user`` (this user); the users and ACL are what deploy/make-mosquitto-passwords.py
makes. So what is tested is what ships.

``tests/`` is on ``sys.path`` under pytest.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest
from eventually import eventually

from gateway.broker import free_port

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
CONF = DEPLOY / "mosquitto" / "mosquitto.conf"
MAKER = DEPLOY / "make-mosquitto-passwords.py"


def mosquitto_binary() -> str:
    """Debian's mosquitto; AssertionError when it is not installed."""
    found = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    assert Path(found).exists(), "mosquitto is not installed (apt-get install mosquitto)"
    return found


def plain_broker(tmp: Path, port: int) -> "Callable[[], subprocess.Popen]":
    """A starter for a bare private Mosquitto on ``port`` (anonymous, no persistence: a broker killed
    with -9 loses every session and queued message): each call starts it and returns the process
    (AssertionError when it does not stay up)."""
    conf = tmp / f"mosquitto-{port}.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    return _starter(conf)


def _starter(conf: Path) -> "Callable[[], subprocess.Popen]":
    def start() -> subprocess.Popen:
        proc = subprocess.Popen([mosquitto_binary(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(0.3)
        assert proc.poll() is None
        return proc

    return start


PERSISTENCE = ("persistence", "autosave_interval", "max_inflight_messages", "max_queued_messages")


def persistent_broker(tmp: Path, port: int) -> "Callable[[], subprocess.Popen]":
    """As ``plain_broker``, with the shipped config's persistence settings (``PERSISTENCE``'s
    directives, as deploy/mosquitto/mosquitto.conf has them: ``persistence true``,
    ``autosave_interval 30``, ...) and its store in ``tmp``: a broker killed with -9 keeps what it
    saved last (on an autosave), loses what came since."""
    shipped = [line for line in CONF.read_text().splitlines()
               if line.strip() and not line.startswith("#") and line.split()[0] in PERSISTENCE]
    assert {line.split()[0] for line in shipped} == set(PERSISTENCE), f"{CONF} lacks some of {PERSISTENCE}"
    conf = tmp / f"mosquitto-{port}.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n" + "\n".join(shipped)
                    + f"\npersistence_location {tmp}/\n")
    return _starter(conf)


def site_config(port: int, tmp: Path, extra: str = "") -> str:
    """The shipped config with only its [site] directives rewritten for a private test broker, and
    ``extra`` lines (a setting under test) appended."""
    overrides = {
        "listener": f"listener {port} 127.0.0.1",
        "password_file": f"password_file {tmp / 'passwd'}",
        "acl_file": f"acl_file {tmp / 'acl'}",
        "persistence_location": f"persistence_location {tmp}/",
        "user": f"user {getpass.getuser()}",
    }
    seen, lines = set(), []
    for line in CONF.read_text().splitlines():
        key = line.split()[0] if line.strip() and not line.startswith("#") else None
        if key in overrides:
            assert key not in seen, f"{key} appears twice in {CONF}"
            seen.add(key)
            line = overrides[key]
        lines.append(line)
    assert seen == set(overrides), f"{CONF} lacks {set(overrides) - seen}"
    return "\n".join(lines) + "\n" + extra


class Site:
    """A private Mosquitto running the shipped config: ``port``, ``users`` ({username: password}),
    ``proc`` (the running process), ``start()`` (wait until it listens; AssertionError with its log
    when it dies), ``stop()`` (SIGTERM: it saves its persistence file) and ``restart()``."""

    def __init__(self, tmp_path: Path, port: int, users: dict[str, str]):
        self.tmp_path, self.port, self.users = tmp_path, port, users
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        """Start the broker and wait until it listens."""
        conf = self.tmp_path / "mosquitto.conf"
        log = (self.tmp_path / "mosquitto.log").open("a")
        proc = self.proc = subprocess.Popen([mosquitto_binary(), "-c", conf], stdout=log, stderr=subprocess.STDOUT)
        log.close()

        def listening() -> bool:
            if proc.poll() is not None:
                pytest.fail((self.tmp_path / "mosquitto.log").read_text())
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return True
            return False

        eventually(listening, 10)

    def stop(self) -> None:
        """SIGTERM, and wait for the process to end."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def restart(self) -> None:
        """``stop()`` then ``start()`` on the same port and persistence file (an operator's restart)."""
        self.stop()
        self.start()


@contextlib.contextmanager
def shipped_site(tmp_path: Path, *maker_args: str, extra: str = ""):
    """A running ``Site`` with the users and ACL that make-mosquitto-passwords.py makes from
    ``maker_args`` (and ``extra`` config lines); stopped afterwards."""
    subprocess.run([sys.executable, MAKER, "--out-dir", tmp_path, *maker_args], check=True, capture_output=True)
    port = free_port()
    (tmp_path / "mosquitto.conf").write_text(site_config(port, tmp_path, extra))
    creds = json.loads((tmp_path / "credentials.json").read_text())
    users = {d["username"]: d["password"] for d in creds["devices"]}
    users.update({g["username"]: g["password"] for g in creds["gateways"]})
    site = Site(tmp_path, port, users)
    try:
        site.start()
        yield site
    finally:
        site.stop()


@contextlib.contextmanager
def shipped_broker(tmp_path: Path, *maker_args: str):
    """(port, {username: password}) of a Mosquitto running the shipped config with the users and ACL
    that make-mosquitto-passwords.py makes from ``maker_args``; stopped afterwards."""
    with shipped_site(tmp_path, *maker_args) as site:
        yield site.port, site.users
