"""What a gateway shard's per-board ACL costs the broker, beside the whole-tournament login's.

Issue 15: a shard's login (make-mosquitto-passwords.py ``--gateway-shards``) is allowed to read its
boards one ACL line each (``venue/{t}/boards/{b}/+``, then its ``feedback`` write line), where the
whole tournament's ``gateway-{t}`` has one line (``venue/{t}/#``). Mosquitto checks every message it
delivers against the subscriber's ACL lines in order, so a shard of 1,000 boards may cost the broker
more per message than the one gateway did, and a message of the shard's last board more than one of
its first.

Each row starts a Mosquitto running the shipped deploy/mosquitto/mosquitto.conf (tests/mosquitto_site.py:
only the ``[site]`` lines rewritten) with the users and ACL the script makes for a tournament of
2,000 boards, connects the row's gateway login (subscribed at QoS 1 to the board's five device
topics, as gateway/payload.py ``topic_filters`` does) and the board's own login, and publishes
``--messages`` moves at QoS 1 from that board (200 in flight) until the gateway login has them all,
then as many feedback messages from the gateway login to the board (subscribed to its feedback).

Per row: **broker CPU per move in / per feedback out**, the Mosquitto process's CPU time (user +
system, /proc; 10 ms ticks) over each phase divided by its messages; **moves/s** as the gateway
login received them; **vs baseline**: a ply's move and feedback together. The baseline (first row)
is what main ships: ``gateway-{t}`` (no shards), measured in the same run.

A bench: ``.venv/bin/python bench/bench_shard_acl.py [--messages N] [--repeat R] [--lock PATH]`` (the
best of R runs per row is printed); it holds the machine lock while it runs (``--lock PATH``, bench/_checkout.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import aiomqtt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from mosquitto_site import shipped_broker  # noqa: E402
from _checkout import add_lock_option, hold_machine_lock  # noqa: E402

T = "bench-acl"
KINDS = ("move", "position", "clock", "result", "status")
ROWS = [  # (label, --gateway-shards arguments, the subscriber's login, the publishing board)
    ("gateway-T (main), board 1000", [], f"gateway-{T}", "1000"),
    ("shard 1-1000, its board 1", ["1-1000", "1001-2000"], f"gateway-{T}-boards-1-1000", "1"),
    ("shard 1-1000, its board 1000", ["1-1000", "1001-2000"], f"gateway-{T}-boards-1-1000", "1000"),
    ("shard 1-2000, its board 2000", ["1-2000"], f"gateway-{T}-boards-1-2000", "2000"),
]


def broker_pid(conf: Path) -> int:
    """The pid of the mosquitto running ``-c conf``."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if str(conf).encode() in argv and any(a.endswith(b"mosquitto") for a in argv):
                return int(entry.name)
    raise RuntimeError(f"no mosquitto -c {conf}")


def cpu_s(pid: int) -> float:
    """User + system CPU time of ``pid`` (s), from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def one_row(shards: list[str], login: str, board: str, messages: int) -> tuple[float, float, float]:
    """(broker CPU µs per move the gateway login receives, per feedback it sends, moves/s) for one
    configuration."""
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--tournament", f"{T}:1-2000"]
        for spec in shards:
            args += ["--gateway-shards", f"{T}:{spec}"]
        with shipped_broker(Path(tmp), *args) as (port, users):
            pid = broker_pid(Path(tmp) / "mosquitto.conf")
            device_login = f"board-{T}-{board}"
            gateway = aiomqtt.Client("127.0.0.1", port, username=login, password=users[login],
                                     identifier=login, max_inflight_messages=200)
            device = aiomqtt.Client("127.0.0.1", port, username=device_login, password=users[device_login],
                                    identifier=device_login, max_inflight_messages=200)
            async with gateway, device:
                for c in (gateway, device):
                    c.pending_calls_threshold = 1000  # 200 in flight is the point, not a warning
                await gateway.subscribe([(f"venue/{T}/boards/{board}/{kind}", 1) for kind in KINDS])
                await device.subscribe(f"venue/{T}/boards/{board}/feedback", qos=1)
                move = json.dumps({"seq": 1, "move": "e2e4"})
                feedback = json.dumps({"ref": 1, "device": "board", "accepted": True, "reason": None})
                cpu, rate = [], 0.0
                for sender, receiver, topic, payload in (
                        (device, gateway, f"venue/{T}/boards/{board}/move", move),
                        (gateway, device, f"venue/{T}/boards/{board}/feedback", feedback)):
                    cpu0, t0 = cpu_s(pid), time.perf_counter()
                    await send_and_receive(sender, receiver, topic, payload, messages)
                    cpu1, t1 = cpu_s(pid), time.perf_counter()
                    cpu.append((cpu1 - cpu0) / messages * 1e6)
                    rate = rate or messages / (t1 - t0)
    return cpu[0], cpu[1], rate


async def send_and_receive(sender: aiomqtt.Client, receiver: aiomqtt.Client, topic: str, payload: str,
                           messages: int) -> None:
    """Publish ``messages`` times at QoS 1 (200 in flight) until ``receiver`` has them all."""
    async def receive() -> None:
        received = 0
        async for _ in receiver.messages:
            received += 1
            if received == messages:
                return

    task = asyncio.create_task(receive())
    for start in range(0, messages, 200):
        await asyncio.gather(*(sender.publish(topic, payload, qos=1) for _ in range(min(200, messages - start))))
    await asyncio.wait_for(task, 60)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    add_lock_option(parser)
    args = parser.parse_args()
    hold_machine_lock(args.lock)
    print(f"{args.messages} QoS 1 messages per run, best of {args.repeat}; Mosquitto "
          f"(deploy/mosquitto/mosquitto.conf), tournament of 2,000 boards")
    print(f"| {'gateway login, board':<30} | broker CPU per move in | per feedback out | move + feedback "
          f"vs baseline | moves/s |")
    print(f"| {'-' * 30} | ---------------------- | ---------------- | --------------------------- | ------- |")
    baseline = None
    for label, shards, login, board in ROWS:
        runs = [await one_row(shards, login, board, args.messages) for _ in range(args.repeat)]
        cpu_in, cpu_out = min(r[0] for r in runs), min(r[1] for r in runs)
        rate = max(r[2] for r in runs)
        baseline = baseline if baseline is not None else cpu_in + cpu_out
        ratio = (cpu_in + cpu_out) / baseline if baseline else float("nan")  # nan: too few messages for a tick
        print(f"| {label:<30} | {cpu_in:>19.1f} µs | {cpu_out:>13.1f} µs | "
              f"{ratio:>26.2f}x | {rate:>7.0f} |", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
