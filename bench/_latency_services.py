"""Subprocesses of ``bench/bench_latency.py``: the gateway, the dashboard and the passive spectators.

Each mode prints one line ``READY <what>`` on stdout once it serves (or ``FAILED <why>`` and exits 2),
then runs until SIGTERM (or stdin closing: the bench died) and prints ``STATS <json>`` on the way out.
The services are the product's own code, started as ``venue gateway`` / ``venue dashboard`` start them
(``venue.serve``), with two differences a shared test machine needs: the gateway's MQTT client id is
unique to the run (two gateways with the same id on one Mosquitto throw each other off), and
``--embedded`` runs the amqtt broker inside the gateway process, as ``venue demo`` does.

Usage (from the bench, not by hand)::

    python bench/_latency_services.py gateway --store URL --tournament T (--mqtt URL | --embedded)
    python bench/_latency_services.py dashboard --store URL --tournament T --port P [--queue-cap N]
        [--fanout grouped|per-delta] [--group-s S]
    python bench/_latency_services.py spectators --url ws://HOST:PORT/ws/live --count N [--offset I]
        [--raw] [--no-deflate]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import signal
import socket
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


from dashboard.pages import PAGE_SIZE as PAGE  # boards per hall page


def _say(line: str) -> None:
    print(line, flush=True)


def _raise_fd_limit() -> None:
    """1,000 sockets per process need more than the usual soft limit of 1,024 descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _until_stopped() -> None:
    """Return on SIGTERM/SIGINT or when stdin closes (the bench went away)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    def watch_stdin() -> None:
        with contextlib.suppress(Exception):
            sys.stdin.read()
        loop.call_soon_threadsafe(stop.set)

    loop.run_in_executor(None, watch_stdin)
    await stop.wait()


async def run_gateway(args) -> int:
    from gateway import Gateway
    from gateway.broker import embedded_broker
    from services.eventlog import open_log

    async with contextlib.AsyncExitStack() as stack:
        mqtt = args.mqtt
        if args.embedded:
            mqtt = await stack.enter_async_context(embedded_broker())
        log = open_log(args.store, args.tournament)
        stack.push_async_callback(log.close)
        appends = {"append_many calls": 0, "entries appended": 0}
        append_many = log.append_many

        async def counted_append_many(items, **kwargs):  # how well the gateway batches its store writes
            appends["append_many calls"] += 1
            appends["entries appended"] += len(items)
            return await append_many(items, **kwargs)

        log.append_many = counted_append_many
        gateway = Gateway(log, mqtt, args.tournament, client_id=f"venue-gateway-{args.tournament}")
        task = asyncio.create_task(gateway.run(), name="gateway")
        ready = asyncio.create_task(gateway.ready.wait())
        done, _ = await asyncio.wait({task, ready}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            why = (task.exception() if task.done() and not task.cancelled() else None) or "not ready in 30 s"
            _say(f"FAILED gateway: {why}")
            return 2
        _say(f"READY {mqtt}")
        await _until_stopped()
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        _say("STATS " + json.dumps(gateway.counts | appends))
    return 0


async def run_dashboard(args) -> int:
    from services.eventlog import open_log
    from venue.serve import dashboard_at

    log = open_log(args.store, args.tournament)
    gone = {"dropped": 0, "stale": 0, "high_water_max": 0}
    try:
        options = {"queue_cap": args.queue_cap} if args.queue_cap else {}
        if args.fanout == "per-delta":
            options["group_s"] = None
        elif args.group_s is not None:
            options["group_s"] = args.group_s
        async with dashboard_at(log, "127.0.0.1", args.port, **options) as (url, app):
            feed = app.state.feed
            hub = feed.hub
            remove = hub.remove

            def counted_remove(client) -> None:  # keep the figures of spectators that left
                gone["dropped"] += client.dropped
                gone["stale"] += client.stale
                gone["high_water_max"] = max(gone["high_water_max"], client.high_water)
                remove(client)

            hub.remove = counted_remove
            hub.flush_cpu_s = 0.0
            flush = hub.flush

            def timed_flush() -> None:  # the fan-out's own CPU, apart from the fold's and the server's
                t = time.thread_time()
                flush()
                hub.flush_cpu_s += time.thread_time() - t

            hub.flush = timed_flush
            if args.group_factor is not None:
                hub.factor = args.group_factor
            publisher = None
            if args.nchan:  # the nginx + nchan candidate: the hub's page bodies go to nchan
                sys.path.insert(0, str(REPO / "bench"))
                from _latency_nchan import attach

                publisher = await attach(hub, args.nchan, args.boards, PAGE)
            await asyncio.wait_for(feed.caught_up.wait(), 30)
            _say(f"READY {url}")
            await _until_stopped()
            spectators_at_stop = len(hub.clients)
            nchan = {} if publisher is None else {
                "nchan POSTs": publisher.posted, "nchan answered": publisher.answered,
                "nchan refused": publisher.refused, "refused statuses": publisher.statuses,
                "publisher reconnects": publisher.reconnects, "requests lost (connection)": publisher.unsent}
            for client in list(hub.clients):
                counted_remove(client)
            _say("STATS " + json.dumps({"spectators at stop": spectators_at_stop,
                                        "deltas published": hub.published,
                                        "frames built": hub.frames if hub.grouped else "per delta",
                                        "flushes": hub.flushes,
                                        "frames handed to spectators": hub.writes,
                                        "flushing s": round(hub.flush_s, 2),
                                        "longest flush ms": round(hub.longest_flush_s * 1000, 1),
                                        "CPU us per frame handed (grouped)": round(
                                            hub.flush_cpu_s * 1e6 / hub.writes, 2) if hub.writes else None,
                                        "deltas dropped for snapshots (all spectators)": gone["dropped"],
                                        "longest queue": gone["high_water_max"]} | nchan))
    finally:
        await log.close()
    return 0


async def run_spectators(args) -> int:
    """``count`` spectators that only read (and count) what ``/ws/live`` sends them."""
    import websockets

    stats = {"connected": 0, "frames": 0, "bytes": 0, "closed": 0}
    first = asyncio.Event()
    gate = asyncio.Semaphore(50)  # handshakes in flight at once

    def url_of(i: int) -> str:
        """What spectator ``i`` follows (bench_latency ``--watch``)."""
        if args.watch == "games" and args.boards:
            return f"{args.url}?boards={i % args.boards + 1}"
        if args.watch == "pages" and args.boards:
            pages = -(-args.boards // PAGE)
            lo = (i % pages) * PAGE + 1
            if args.nchan:
                return f"{args.url}/{lo}-{min(lo + PAGE - 1, args.boards)}"
            return f"{args.url}?boards={lo}-{min(lo + PAGE - 1, args.boards)}"
        return args.url

    if args.raw:
        return await _raw_spectators(args, url_of)

    async def spectator(i: int) -> None:
        try:
            async with gate:
                ws = await websockets.connect(url_of(i), max_size=None, open_timeout=60,
                                              compression=None if args.no_deflate else "deflate",
                                              ping_interval=None)
                await ws.recv()  # the snapshot
            stats["connected"] += 1
            if stats["connected"] == args.count:
                first.set()
            async for msg in ws:
                stats["frames"] += 1
                stats["bytes"] += len(msg)
        except Exception:
            stats["closed"] += 1
            if stats["connected"] + stats["closed"] >= args.count:
                first.set()

    tasks = [asyncio.create_task(spectator(args.offset + i)) for i in range(args.count)]
    try:
        await asyncio.wait_for(first.wait(), args.connect_timeout)
    except asyncio.TimeoutError:
        pass
    _say(f"READY {stats['connected']} {stats['closed']}")
    await _until_stopped()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    _say("STATS " + json.dumps(stats))
    return 0


class _Spectator(asyncio.Protocol):
    """A browser-like spectator at the byte level (RFC 6455): makes the opening handshake (4.1),
    then reads every frame's header, skips the payloads of data frames unparsed, answers each ping
    with a masked pong of the same payload (5.5.2-3; a browser does this by itself, and a server such
    as uvicorn closes a connection whose pongs stop, ``ws_ping_interval``) and answers a close.
    ``stats``: counters shared by the process's spectators; ``closed_at``: when the connection was
    lost (``time.monotonic()``, one clock for every process on Linux), None while it is open."""

    def __init__(self, path: str, host: str, stats: dict, ready: asyncio.Future, deflate: bool = True) -> None:
        self.path, self.host, self.stats, self.ready = path, host, stats, ready
        self.deflate = deflate  # offer permessage-deflate, as browsers do (RFC 7692)
        self.throttle: _Throttle | None = None  # a slow reader (--slow-every)
        self.transport = None
        self.head = b""
        self.open = False
        self.buf = b""
        self.skip = 0  # payload bytes of the current data frame still to come
        self.closed_at: float | None = None

    def connection_made(self, transport) -> None:
        import base64
        import os

        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write((f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                         f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                         + ("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                            if self.deflate else "")
                         + "Sec-WebSocket-Version: 13\r\n\r\n").encode())

    def data_received(self, data: bytes) -> None:
        self.stats["bytes"] += len(data)
        if self.throttle is not None:
            self.throttle.took(len(data))
        if not self.open:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            status, data = self.head[:end], self.head[end + 4:]
            self.head = b""
            if b" 101 " not in status.split(b"\r\n", 1)[0]:
                if not self.ready.done():
                    self.ready.set_exception(ConnectionError(status[:60]))
                self.transport.close()
                return
            self.open = True
            if not self.ready.done():
                self.ready.set_result(None)
        if self.skip:
            if len(data) <= self.skip:
                self.skip -= len(data)
                return
            data = data[self.skip:]
            self.skip = 0
        buf = self.buf + data if self.buf else data
        i, n = 0, len(buf)
        while n - i >= 2:
            op, ln, h = buf[i] & 0x0F, buf[i + 1] & 0x7F, 2
            if ln == 126:
                if n - i < 4:
                    break
                ln, h = int.from_bytes(buf[i + 2:i + 4], "big"), 4
            elif ln == 127:
                if n - i < 10:
                    break
                ln, h = int.from_bytes(buf[i + 2:i + 10], "big"), 10
            if op >= 8:  # a control frame: its payload (<= 125 bytes) is needed whole
                if n - i < h + ln:
                    break
                self._control(op, buf[i + h:i + h + ln])
            else:
                self.stats["frames"] += 1
                if n - i < h + ln:
                    self.skip = h + ln - (n - i)
                    i = n
                    break
            i += h + ln
        self.buf = buf[i:] if i < n else b""

    def _control(self, op: int, payload: bytes) -> None:
        if op == 9:  # ping: pong with the same payload, masked as a client must (RFC 6455 5.3)
            self._send(0xA, payload)
            self.stats["pongs"] += 1
        elif op == 8:  # close: answer it; the server then closes the TCP connection
            self._send(0x8, payload[:2])
            self.stats["close frames"] += 1

    def _send(self, op: int, payload: bytes) -> None:
        import os

        mask = os.urandom(4)
        masked = bytes(b ^ mask[k % 4] for k, b in enumerate(payload))
        self.transport.write(bytes((0x80 | op, 0x80 | len(payload))) + mask + masked)

    def connection_lost(self, exc) -> None:
        self.closed_at = time.monotonic()
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(f"closed during the handshake: {exc}"))


# A slow spectator's receive buffer (the kernel doubles it): small, so that the server's view of the
# link is its rate, not a deep buffer on this side.
SLOW_RCVBUF = 16 * 1024


class _Throttle:
    """Reads at ``rate`` bytes a second at most (a token bucket of one second's bytes): when a read
    overdraws it, reading pauses until the bytes are paid for, as a phone on a weak link takes them."""

    __slots__ = ("transport", "rate", "loop", "tokens", "at", "total", "paused")

    def __init__(self, transport, rate: float, loop) -> None:
        self.transport, self.rate, self.loop = transport, rate, loop
        self.tokens = rate
        self.at = loop.time()
        self.total = 0
        self.paused = False

    def took(self, n: int) -> None:
        now = self.loop.time()
        self.tokens = min(self.rate, self.tokens + (now - self.at) * self.rate) - n
        self.at = now
        self.total += n
        if self.tokens < 0 and not self.paused:
            self.paused = True
            self.transport.pause_reading()
            self.loop.call_later(-self.tokens / self.rate, self._resume)

    def _resume(self) -> None:
        self.paused = False
        if not self.transport.is_closing():
            self.transport.resume_reading()


async def _raw_spectators(args, url_of) -> int:
    """``--raw``: ``_Spectator`` clients (handshake, frame headers, pongs; no JSON parsing). The
    server does the same work for each as for a browser that keeps up; this process spends a
    fraction of the CPU a parsing client would, CPU the services share on one machine."""
    from urllib.parse import urlsplit

    loop = asyncio.get_running_loop()
    stats = {"connected": 0, "failed": 0, "frames": 0, "bytes": 0, "pongs": 0, "close frames": 0}
    gate = asyncio.Semaphore(100)  # handshakes in flight at once
    spectators: list[_Spectator] = []
    slow_ones: list[_Spectator] = []

    async def one(i: int) -> None:
        u = urlsplit(url_of(i))
        path = u.path + (f"?{u.query}" if u.query else "")
        async with gate:
            ready = loop.create_future()
            # one in slow_every, drawn per spectator number (spread over the pages, the same in every run)
            slow = bool(args.slow_every) and random.Random(i).randrange(args.slow_every) == 0
            try:
                sock = None
                if slow:  # a small receive window read at the link's rate: the server sees a weak link
                    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SLOW_RCVBUF)
                    sock.setblocking(False)
                    await asyncio.wait_for(loop.sock_connect(sock, (u.hostname, u.port)), 60)
                factory = lambda: _Spectator(path, f"{u.hostname}:{u.port}", stats, ready, not args.no_deflate)  # noqa: E731
                if sock is not None:
                    _, proto = await asyncio.wait_for(loop.create_connection(factory, sock=sock), 60)
                else:
                    _, proto = await asyncio.wait_for(loop.create_connection(factory, u.hostname, u.port), 60)
                await asyncio.wait_for(ready, 60)
                if slow:
                    proto.throttle = _Throttle(proto.transport, args.slow_rate, loop)
                    slow_ones.append(proto)
                spectators.append(proto)
                stats["connected"] += 1
            except Exception:
                stats["failed"] += 1

    await asyncio.gather(*(one(args.offset + i) for i in range(args.count)))
    _say(f"READY {stats['connected']} {stats['failed']}")
    await _until_stopped()
    stats["closed_at"] = sorted(s.closed_at for s in spectators if s.closed_at is not None)
    stats["open at the end"] = sum(1 for s in spectators if s.closed_at is None)
    stats["slow"] = len(slow_ones)
    stats["slow closed_at"] = sorted(s.closed_at for s in slow_ones if s.closed_at is not None)
    stats["slow bytes"] = sum(s.throttle.total for s in slow_ones if s.throttle is not None)
    for s in spectators:
        s.transport.close()
    _say("STATS " + json.dumps(stats))
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="mode", required=True)
    g = sub.add_parser("gateway")
    g.add_argument("--store", required=True)
    g.add_argument("--tournament", required=True)
    g.add_argument("--mqtt")
    g.add_argument("--embedded", action="store_true")
    d = sub.add_parser("dashboard")
    d.add_argument("--store", required=True)
    d.add_argument("--tournament", required=True)
    d.add_argument("--port", type=int, required=True)
    d.add_argument("--queue-cap", type=int, default=0, help="create_app(queue_cap=); 0: the default")
    d.add_argument("--fanout", choices=("grouped", "per-delta"), default="grouped",
                   help="the spectators' hub: grouped (the product's default) or per-delta (the old one)")
    d.add_argument("--group-s", type=float, default=None, help="grouped: the shortest tick (default: the app's)")
    d.add_argument("--group-factor", type=float, default=None, help="what-if: the hub's GROUP_FACTOR")
    d.add_argument("--nchan", help="publish the grouped page bodies to this nchan (http://HOST:PORT; bench/_latency_nchan.py)")
    d.add_argument("--boards", type=int, default=0, help="with --nchan: boards in the round (its pages)")
    s = sub.add_parser("spectators")
    s.add_argument("--url", required=True)
    s.add_argument("--count", type=int, required=True)
    s.add_argument("--offset", type=int, default=0, help="the first spectator's number (for --watch)")
    s.add_argument("--no-deflate", action="store_true")
    s.add_argument("--boards", type=int, default=0, help="boards in the round (for --watch)")
    s.add_argument("--watch", choices=("pages", "games", "all"), default="all")
    s.add_argument("--raw", action="store_true", help="handshake, then only drain the socket")
    s.add_argument("--slow-every", type=int, default=0,
                   help="--raw: one spectator in K reads slowly, drawn per spectator number (0: none)")
    s.add_argument("--slow-rate", type=float, default=4096, help="a slow spectator's bytes per second")
    s.add_argument("--nchan", action="store_true", help="--url is nchan's ws://HOST:PORT/sub: pages are channels")
    s.add_argument("--connect-timeout", type=float, default=120)
    args = p.parse_args()
    _raise_fd_limit()
    from venue.serve import quiet_logs

    quiet_logs()
    runner = {"gateway": run_gateway, "dashboard": run_dashboard, "spectators": run_spectators}[args.mode]
    try:
        from venue.serve import run

        return run(runner(args))
    except Exception as exc:  # say why in one line; the bench prints it
        _say(f"FAILED {args.mode}: {type(exc).__name__}: {exc}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
