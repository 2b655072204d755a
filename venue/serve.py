"""Running the dashboard under uvicorn inside a running event loop (``venue demo``/``serve``/
``dashboard``, and tests), so the gateway, the simulators and the web server share one process.

``serving(app, host, port)`` starts uvicorn, waits until it listens and yields the base URL
(``http://HOST:PORT``; port 0 picks a free one), and stops it on exit. Raises OSError when the port
cannot be bound (in use, not permitted).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator

import uvicorn


# F12: a spectator that stops reading must cost bounded memory. Left to autotuning, Linux lets one
# connection's kernel send buffer grow to tcp_wmem's maximum (4 MiB by default), which hides a stalled
# reader for megabytes and, over a thousand spectators, costs gigabytes. 128 KiB still carries a live
# feed (a few KB/s) and a 1,000-board snapshot (~2 MB) in well under a second on a LAN.
SEND_BUFFER = 128 * 1024


class _Server(uvicorn.Server):
    """uvicorn without its own signal handlers: the venue command handles Ctrl-C itself."""

    def install_signal_handlers(self) -> None:  # pragma: no cover - trivial
        pass

    @contextlib.contextmanager
    def capture_signals(self):  # uvicorn >= 0.29 installs handlers here
        yield


@contextlib.asynccontextmanager
async def serving(app, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning",
                  send_buffer: int = SEND_BUFFER) -> AsyncIterator[str]:
    """Serve ``app`` on ``host:port`` while the block runs; yields ``http://HOST:PORT``.
    ``send_buffer``: the kernel send buffer of each connection, in bytes (see ``SEND_BUFFER``)."""
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, lifespan="on",
                            ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=2)
    server = _Server(config)
    sock = bind(host, port, send_buffer)  # bound here so a busy port is an OSError, not uvicorn's sys.exit
    bound = sock.getsockname()[1]
    task = asyncio.create_task(server.serve(sockets=[sock]), name="uvicorn")
    try:
        while not server.started:
            if task.done():
                raise OSError(f"cannot serve on {host}:{bound}: the server stopped at start-up")
            await asyncio.sleep(0.02)
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        yield f"http://{shown}:{bound}"
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, timeout=5)
        if not task.done():
            task.cancel()


def bind(host: str, port: int, send_buffer: int | None = SEND_BUFFER) -> socket.socket:
    """A listening TCP socket on ``host:port`` (IPv4 or IPv6 by the host's form); its accepted
    connections inherit ``send_buffer`` (bytes; None keeps the system's). Raises OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if send_buffer:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        sock.bind((host, port))
        sock.listen(2048)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def quiet_uvicorn() -> None:
    """Keep uvicorn's access log out of the terminal (progress lines are the venue's own)."""
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
