"""The ``/ws/live`` socket as the dashboard's spectator tests read it (test_dashboard_live,
test_dashboard_parked): round 5's entries as the hall logs them, the next message of a socket, and
a socket that never reads (../shared/cases/field-cases.md F12).

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from live_socket import recv``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket

from dashboard_helpers import T0
from replay_entries import game_entries


def interleaved(round5) -> list:
    """The four games' entries merged by time, as the hall would log them."""
    items = []
    for i, g in enumerate(round5, start=1):
        items += game_entries(g, f"5-{i}", str(i), T0 + 1000)
    return sorted(items, key=lambda it: it[2])


_PENDING: dict[int, list] = {}


async def recv(ws, timeout=5.0) -> dict:
    """The next message; a frame may hold one message or an array of them (dashboard.live)."""
    buf = _PENDING.setdefault(id(ws), [])
    if not buf:
        data = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        buf.extend(data if isinstance(data, list) else [data])
    return buf.pop(0)


def _raw_ws_that_never_reads(host: str, port: int) -> socket.socket:
    """An HTTP upgrade to /ws/live on a socket with a tiny receive window, then no reading."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws/live HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return s
