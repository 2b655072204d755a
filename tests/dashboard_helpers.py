"""What the dashboard tests share: the round's instant, a dashboard over a log, waiting until it has
folded the log, the arbiters' console account with its CSRF and login steps, and the round tools
once they show what a test waits for.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from dashboard_helpers import caught_up``.
"""

from __future__ import annotations

import asyncio
import re

from eventually import eventually
from starlette.testclient import TestClient

from dashboard.app import create_app
from dashboard.arbiter.auth import Account, Accounts, hash_password

T0 = 1_712_678_400_000  # 2024-04-09 16:00 UTC, ms: the Candidates 2024 round the tests replay starts
LOGIN, PASSWORD = "chief", "Laws-of-Chess-9.2"


def client_for(log) -> TestClient:
    """A TestClient of the dashboard over ``log`` (enter it to start the app)."""
    return TestClient(create_app(log))


def caught_up(client: TestClient, seq: int, timeout: float = 5.0) -> None:
    """Until the dashboard has folded the log up to ``seq`` (its ``/api/health``)."""
    eventually(lambda: client.get("/api/health").json()["seq"] >= seq, timeout)


def accounts(**extra) -> Accounts:
    """The one arbiter account, ``LOGIN``/``PASSWORD``, with a fixed signing key."""
    return Accounts([Account(LOGIN, "Chief Arbiter", hash_password(PASSWORD))], b"k" * 32, **extra)


def recorded(log) -> int:
    """The log's last seq."""
    return asyncio.run(log.last_seq())


def csrf_of(client: TestClient) -> dict[str, str]:
    """The console page's CSRF token as the header the console sends (dashboard/static/arbiter.js)."""
    page = client.get("/arbiter").text
    [token] = re.findall(r'<meta name="csrf-token" content="([^"]+)"', page)
    assert client.cookies.get("csrftoken"), "the page sets the csrftoken cookie it names"
    return {"X-CSRFToken": token}


def log_in(client: TestClient, **headers) -> str:
    """Sign in as ``LOGIN``; the session token."""
    r = client.post("/api/arbiter/login", json={"login": LOGIN, "password": PASSWORD}, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()["token"]


def tools_when(client: TestClient, ready, timeout: float = 10.0) -> dict:
    """GET /api/arbiter/round-tools until ``ready(data)`` (the dashboard folds the log as it
    follows it)."""
    def data() -> dict:
        got = client.get("/api/arbiter/round-tools").json()
        assert ready(got), got
        return got

    return eventually(data, timeout, poll=0.05)
