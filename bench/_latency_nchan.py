"""The nginx + nchan candidate of ``bench/bench_latency.py --fanout nchan`` (issue 15: "an existing
pub/sub fan-out engine in front of the dashboard"), measured on the same load as the dashboard's own
hub. Bench only: the product does not use it (docs/spectators.md says why).

- ``nginx(tmp, port)``: an nginx of its own (Debian's ``nginx`` and ``libnginx-mod-nchan``), ONE
  worker process (the per-process figure, as one dashboard process), on 127.0.0.1:``port``;
  ``/pub/CHANNEL`` publishes (nchan_publisher, 1,000 messages kept per channel for 60 s),
  ``/sub/CHANNEL`` is a websocket subscriber (pings every 20 s, as uvicorn's).
- ``attach(hub, url, pages)``: the dashboard side. The grouped hub already gathers each selection's
  deltas per tick into one body; for every hall page (and ``all``) a placeholder member keeps the
  group alive and each flushed body is POSTed to ``/pub/LO-HI`` (or ``/pub/all``) on one HTTP/1.1
  keep-alive connection, pipelined, its answers read and counted apart. So nchan fans out exactly
  what the hub would have written, one POST per page and tick.

What it does not give as such (why it would be a protocol change): a spectator's snapshot (nchan
serves messages, not the hall's state: a page would GET ``/api/games`` first), resume from OUR seq
(nchan resumes from its own message ids) and ``boards=SPEC`` beyond the channels published.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")


def available() -> str | None:
    """None when nginx and its nchan module are installed, else what is missing."""
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        return "no nginx binary (apt-get install -y nginx libnginx-mod-nchan)"
    if not MODULE.exists():
        return f"no {MODULE} (apt-get install -y libnginx-mod-nchan)"
    return None


def config(tmp: Path, port: int) -> str:
    """nginx.conf text for the candidate (module docstring)."""
    return f"""load_module {MODULE};
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 20000;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log info;  # info: the reason of a 400 ("client sent ...")
events {{ worker_connections 19000; multi_accept on; }}
http {{
    access_log off;
    client_max_body_size 16m;
    client_body_buffer_size 16m;  # a body in a temp file is misread by nchan (the rest parsed as a request)
    keepalive_requests 100000000;
    keepalive_timeout 600s;
    client_body_temp_path {tmp}/nginx-body;
    proxy_temp_path {tmp}/nginx-proxy;
    fastcgi_temp_path {tmp}/nginx-fastcgi;
    uwsgi_temp_path {tmp}/nginx-uwsgi;
    scgi_temp_path {tmp}/nginx-scgi;
    tcp_nodelay on;
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location ~ ^/pub/(.+)$ {{
            nchan_publisher;
            nchan_channel_id $1;
            nchan_message_buffer_length 1000;
            nchan_message_timeout 60s;
        }}
        location ~ ^/sub/(.+)$ {{
            nchan_subscriber websocket;
            nchan_channel_id $1;
            nchan_subscriber_first_message newest;
            nchan_websocket_ping_interval 20;
        }}
    }}
}}
"""


@contextlib.asynccontextmanager
async def nginx(tmp: Path, port: int):
    """Run the candidate's nginx while the block runs; yields ``(base http URL, master pid)``.
    RuntimeError when it does not start."""
    missing = available()
    if missing:
        raise RuntimeError(missing)
    conf = tmp / "nginx.conf"
    conf.write_text(config(tmp, port))
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    proc = await asyncio.create_subprocess_exec(binary, "-c", str(conf), "-e", str(tmp / "nginx-error.log"),
                                                stdout=asyncio.subprocess.DEVNULL,
                                                stderr=open(tmp / "nginx.stderr", "wb"))
    try:
        for _ in range(100):
            with contextlib.suppress(OSError):
                _, w = await asyncio.open_connection("127.0.0.1", port)
                w.close()
                break
            if proc.returncode is not None:
                raise RuntimeError(f"nginx exited: {(tmp / 'nginx.stderr').read_text()[-300:]}")
            await asyncio.sleep(0.05)
        else:
            raise RuntimeError("nginx did not listen")
        yield f"http://127.0.0.1:{port}", proc.pid
    finally:
        if proc.returncode is None:
            proc.terminate()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 5)
            if proc.returncode is None:
                proc.kill()


def refusals(tmp: Path, limit: int = 2) -> list[str]:
    """The first ``limit`` reasons nginx logged for refusing a request (its "client sent ..." lines)."""
    with contextlib.suppress(OSError):
        lines = [line for line in (tmp / "nginx-error.log").read_text(errors="replace").splitlines()
                 if "client sent" in line or "nchan" in line and "error" in line]
        return [line[:300] for line in lines[:limit]]
    return []


def worker_pids(master: int) -> list[int]:
    """The nginx master's children (its workers), from /proc."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == master:
                    out.append(int(d.name))
    return out


def page_channel(lo: int, hi: int) -> str:
    """The nchan channel of the hall page of boards ``lo``..``hi``."""
    return f"{lo}-{hi}"


class Publisher:
    """POSTs to nchan's ``/pub/CHANNEL``: one HTTP/1.1 keep-alive connection per channel, one request
    in flight on each; messages offered meanwhile wait and go as one JSON array in the next request
    (nchan, like the hub, then sends them as one frame). ``posted``/``answered``/``refused`` count
    requests (a refusal is any status but 200-202; ``statuses`` counts them); ``reconnects`` the
    connections opened again."""

    def __init__(self, url: str) -> None:
        u = urlsplit(url)
        self.host, self.port = u.hostname, u.port
        self.posted = self.answered = self.refused = self.reconnects = self.unsent = 0
        self.statuses: dict[int, int] = {}
        self.waiting: dict[str, list[str]] = {}
        self.wake: dict[str, asyncio.Event] = {}
        self.tasks: list[asyncio.Task] = []

    async def connect(self) -> None:
        """Nothing to do up front: each channel's connection opens with its first message."""

    def post(self, channel: str, texts: list[str]) -> None:
        """Offer ``texts`` (encoded messages, in order) to ``channel``. Never blocks."""
        if channel not in self.waiting:
            self.waiting[channel] = []
            self.wake[channel] = asyncio.Event()
            self.tasks.append(asyncio.ensure_future(self._channel(channel)))
        self.waiting[channel].extend(texts)
        self.wake[channel].set()

    async def _channel(self, channel: str) -> None:
        reader = writer = None
        while True:
            await self.wake[channel].wait()
            self.wake[channel].clear()
            texts, self.waiting[channel] = self.waiting[channel], []
            if not texts:
                continue
            body = (texts[0] if len(texts) == 1 else "[" + ",".join(texts) + "]").encode()
            try:
                if writer is None or writer.is_closing():
                    if writer is not None:
                        self.reconnects += 1
                    reader, writer = await asyncio.open_connection(self.host, self.port)
                writer.write(f"POST /pub/{channel} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json"
                             f"\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
                self.posted += 1
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                if length:
                    await reader.readexactly(length)
                self.answered += 1
                if not 200 <= status <= 202:
                    self.refused += 1
                    self.statuses[status] = self.statuses.get(status, 0) + 1
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.unsent += 1
                if writer is not None:
                    writer.close()
                writer = None

    async def close(self) -> None:
        for t in self.tasks:
            t.cancel()


async def attach(hub, url: str, boards: int, page: int) -> Publisher:
    """Publish every flushed body of ``hub`` (grouped mode) for the hall pages of ``boards`` boards
    (``page`` boards each) and for every board (``all``) to nchan at ``url`` (module docstring)."""
    from dashboard.boardspec import parse

    pub = Publisher(url)
    await pub.connect()
    channels = {None: "all"}
    for lo in range(1, boards + 1, page):
        hi = min(lo + page - 1, boards)
        channels[parse(f"{lo}-{hi}")] = page_channel(lo, hi)
    for spec in channels:
        keeper = hub.add(spec)  # keeps the group (and so its bodies) alive; accepts every frame
        keeper.direct = lambda data: True
        keeper.idle = True
    flush_group = hub._flush_group

    def flush_and_publish(g) -> None:
        items = g.pending
        channel = channels.get(g.boards)
        if channel is not None and items:
            pub.post(channel, [t for _, t in items])
        flush_group(g)

    hub._flush_group = flush_and_publish
    return pub


def cpu_and_rss(master: int) -> tuple[float, int]:
    """CPU seconds (master + workers) and the workers' RSS in KiB."""
    cpu, rss = 0.0, 0
    for pid in [master, *worker_pids(master)]:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            if pid != master:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
    return cpu, rss
