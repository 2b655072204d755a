"""What one small write to a spectator's socket costs on this machine, apart from the product.

Issue 15 ("Spectators at scale"): the dashboard's fan-out is one ``transport.write`` of a shared
websocket frame per spectator, and the bench_latency runs say each costs ~11 us of the dashboard's
CPU. This bench measures the write alone: one uvloop process holding N accepted loopback TCP
connections (TCP_NODELAY, as uvicorn's), the receivers in K other processes that read and discard
(uvloop, one ``data_received`` per read), and the sender writing one frame of SIZE bytes to every
connection, five passes per row:

- ``pass``: back to back, the receivers busy reading all along;
- ``slices``: 1,000 writes, then 3 ms of sleep (the receivers go idle and are woken again), as the
  hub's slices do.

Per row: the sender thread's CPU per write (``time.thread_time``: the system call and, on loopback,
the receiving side's TCP work the kernel does in the sender's context) and the wall time per write
(the sleeps left out), median of the five passes. Baseline: the ``pass`` row of the same run.

Usage: ``.venv/bin/python bench/bench_socket_write.py [--n 10000] [--size 600] [--procs 2]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import socket
import statistics
import time

import uvloop


def _receivers(port: int, n: int) -> None:
    class Drain(asyncio.Protocol):
        def data_received(self, data: bytes) -> None:
            pass

    async def go() -> None:
        loop = asyncio.get_running_loop()
        for _ in range(n):
            await loop.create_connection(Drain, "127.0.0.1", port)
        await asyncio.sleep(3600)

    uvloop.run(go())


async def _measure(n: int, size: int, procs: int) -> list[tuple[str, float, float]]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4096)
    port = listener.getsockname()[1]
    pids = []
    for k in range(procs):
        pid = os.fork()
        if pid == 0:
            _receivers(port, n // procs + (k < n % procs))
            os._exit(0)
        pids.append(pid)
    loop = asyncio.get_running_loop()
    transports = []
    try:
        for _ in range(n):
            s, _ = listener.accept()
            s.setblocking(False)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            t, _ = await loop.connect_accepted_socket(asyncio.Protocol, s)
            transports.append(t)
        frame = b"\x81\x7e" + size.to_bytes(2, "big") + b"x" * size  # a server text frame, RFC 6455 5.2
        await asyncio.sleep(1)
        rows = []
        for mode in ("pass", "slices"):
            cpu, wall = [], []
            for _ in range(5):
                random.shuffle(transports)
                c0, w0, slept = time.thread_time(), time.perf_counter(), 0.0
                if mode == "pass":
                    for t in transports:
                        t.write(frame)
                else:
                    for j in range(0, n, 1000):
                        for t in transports[j:j + 1000]:
                            t.write(frame)
                        s0 = time.perf_counter()
                        time.sleep(0.003)
                        slept += time.perf_counter() - s0
                cpu.append((time.thread_time() - c0) * 1e6 / n)
                wall.append((time.perf_counter() - w0 - slept) * 1e6 / n)
                await asyncio.sleep(0.3)  # the receivers drain
            rows.append((mode, statistics.median(cpu), statistics.median(wall)))
        return rows
    finally:
        for t in transports:
            t.close()
        for pid in pids:
            os.kill(pid, 9)
            os.waitpid(pid, 0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10000, help="connections (default 10000)")
    p.add_argument("--size", type=int, default=600, help="frame payload bytes (default 600)")
    p.add_argument("--procs", type=int, default=2, help="receiving processes (default 2)")
    a = p.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < a.n + 100:
        raise SystemExit(f"bench_socket_write: the open-files limit ({hard}) is below {a.n} connections")
    rows = uvloop.run(_measure(a.n, a.size, a.procs))
    base = rows[0][1]
    print(f"{a.n} loopback connections, {a.size}-byte frames, receivers in {a.procs} processes; "
          f"load average {os.getloadavg()[0]:.2f} at the end")
    print(f"{'mode':<8} {'CPU us/write':>13} {'wall us/write':>14} {'CPU vs pass':>12}")
    for mode, cpu, wall in rows:
        print(f"{mode:<8} {cpu:>13.1f} {wall:>14.1f} {cpu / base:>11.2f}x")


if __name__ == "__main__":
    main()
