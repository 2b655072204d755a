"""The MQTT client's own cost on the gateway's path: CPU per message of a subscriber that receives QoS 1
messages, acknowledges them only once a (simulated) store every 4 ms has them, and publishes one QoS 1
feedback per message, as gateway/service.py does.

Clients compared, each in a subprocess of its own on uvloop, on the same load, in the same run:

- ``ours``: ``gateway.mqtt_client.MqttClient`` (the gateway's);
- ``gmqtt``: gmqtt with ``optimistic_acknowledgement=False``: an async ``on_message`` waits for the
  store, its return sends the PUBACK (skipped when gmqtt is not installed: ``pip install gmqtt``);
- ``aiomqtt``: aiomqtt's ``client.messages`` with paho's manual acknowledgement and publish (what
  main's gateway used, without its drain of aiomqtt's queue).

The load: ``--messages`` QoS 1 moves (80-byte JSON) from ``--publishers`` connections at ``--rate``
messages per second through a Mosquitto with deploy/'s tuning (``bench_latency.deploy_mosquitto``).
CPU/msg is the subscriber process's user+system CPU (/proc) from its subscription to its last PUBACK,
divided by the messages; ``acked`` says every message was acknowledged (the publishers' in-flight
emptied). Usage: ``.venv/bin/python bench/bench_mqtt_client.py [--messages 6000] [--rate 500]
[--publishers 50] [--clients ours,gmqtt,aiomqtt] [--lock PATH]``; it holds the machine lock while it runs (``--lock PATH``, bench/_checkout.py).
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

from _checkout import add_lock_option, hold_machine_lock

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

TICK_S = 0.004  # the gateway's FLUSH_EVERY_S: a batch is "stored", then acknowledged
FEEDBACK = json.dumps({"ref": 1, "accepted": True, "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"}).encode()
FILTER = "mb/+/move"


async def sub_ours(port: int, n: int) -> None:
    from gateway.mqtt_client import MqttClient

    batch: list[tuple[str, int]] = []
    client = MqttClient("127.0.0.1", port, "bench-sub-ours", clean_session=False, keepalive=30, max_inflight=1000,
                        on_message=lambda topic, payload, mid, qos: batch.append((topic, mid)))
    await client.connect()
    await client.subscribe([(FILTER, 1)])
    print("READY", flush=True)
    done = 0
    while done < n:
        await asyncio.sleep(TICK_S)
        if batch:
            taken = batch[:]
            batch.clear()
            for topic, mid in taken:
                client.ack(mid)
                client.publish(topic[:-4] + "feedback", FEEDBACK, 1)
            client.flush()
            done += len(taken)
    client.close()


async def sub_gmqtt(port: int, n: int) -> None:
    import gmqtt
    from gmqtt.mqtt.constants import MQTTv311

    loop = asyncio.get_running_loop()
    state = {"store": loop.create_future(), "done": 0}
    finished = loop.create_future()

    async def on_message(client, topic, payload, qos, properties):
        await state["store"]  # acknowledged once the batch is stored
        client.publish(topic[:-4] + "feedback", FEEDBACK, qos=1)
        state["done"] += 1
        if state["done"] >= n and not finished.done():
            finished.set_result(None)
        return 0  # PUBACK, success

    client = gmqtt.Client("bench-sub-gmqtt", clean_session=False, optimistic_acknowledgement=False)
    client.on_message = on_message
    subscribed = loop.create_future()
    client.on_subscribe = lambda *a: subscribed.done() or subscribed.set_result(None)
    await client.connect("127.0.0.1", port, keepalive=30, version=MQTTv311)
    client.subscribe(FILTER, qos=1)
    await asyncio.wait_for(subscribed, 10)
    print("READY", flush=True)
    while not finished.done():
        await asyncio.sleep(TICK_S)
        store, state["store"] = state["store"], loop.create_future()
        store.set_result(None)
    await asyncio.sleep(0.05)  # the last PUBACKs go out
    await client.disconnect()


async def sub_aiomqtt(port: int, n: int) -> None:
    import aiomqtt

    from devices import mqtt_adapter as adapter

    batch: list = []
    client = aiomqtt.Client("127.0.0.1", port, identifier="bench-sub-aiomqtt", clean_session=False,
                            max_inflight_messages=1000)
    adapter.paho(client).manual_ack_set(True)
    async with client:
        client.pending_calls_threshold = 100_000
        adapter.no_delay(client)
        await client.subscribe(FILTER, qos=1)
        print("READY", flush=True)

        async def read():
            async for message in client.messages:
                batch.append(message)

        reader = asyncio.create_task(read())
        done = 0
        paho = adapter.paho(client)
        while done < n:
            await asyncio.sleep(TICK_S)
            if batch:
                taken = batch[:]
                batch.clear()
                for message in taken:
                    paho.ack(message.mid, message.qos)
                    paho.publish(str(message.topic)[:-4] + "feedback", FEEDBACK, qos=1)
                done += len(taken)
        reader.cancel()


SUBSCRIBERS = {"ours": sub_ours, "gmqtt": sub_gmqtt, "aiomqtt": sub_aiomqtt}


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(kind: str, port: int, args) -> tuple[float, float, bool, float] | None:
    """Run subscriber ``kind`` under the load: (its CPU s at READY, the children's CPU s once it exited,
    every message acknowledged, wall s), None when it never got ready."""
    import resource

    from gateway.mqtt_client import MqttClient

    proc = await asyncio.create_subprocess_exec(sys.executable, __file__, "sub", kind, str(port), str(args.messages),
                                                stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 20)
    if line.strip() != b"READY":
        await proc.wait()
        return None
    pubs = [MqttClient("127.0.0.1", port, f"bench-pub-{kind}-{i}", keepalive=30, max_inflight=1000)
            for i in range(args.publishers)]
    for pub in pubs:
        await pub.connect()
    start = cpu_s(proc.pid)
    began = time.perf_counter()
    every = 0.01
    per_tick = args.rate * every
    sent, owed = 0, 0.0
    while sent < args.messages:
        owed += per_tick
        while owed >= 1 and sent < args.messages:
            pub = pubs[sent % len(pubs)]
            pub.publish(f"mb/{sent % len(pubs)}/move", json.dumps({"seq": sent, "move": "e2e4", "at": 0}).encode()[:80], 1)
            sent += 1
            owed -= 1
        await asyncio.sleep(every)
    for pub in pubs:
        pub.flush()
    await asyncio.wait_for(proc.wait(), 60)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)  # the exited subscriber's CPU is in it now
    deadline = time.monotonic() + 5
    while any(pub.inflight for pub in pubs) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    acked = not any(pub.inflight or pub.queued for pub in pubs)
    for pub in pubs:
        pub.close()
    return start, used.ru_utime + used.ru_stime, acked, time.perf_counter() - began


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--messages", type=int, default=6000)
    p.add_argument("--rate", type=float, default=500.0, help="messages per second, all publishers")
    p.add_argument("--publishers", type=int, default=50)
    p.add_argument("--clients", default="ours,gmqtt,aiomqtt")
    add_lock_option(p)
    args = p.parse_args()
    hold_machine_lock(args.lock)
    import bench_latency as bl

    from venue.serve import run

    async def go() -> int:
        rows = []
        with tempfile.TemporaryDirectory(prefix="venue-bench-mqtt-") as tmp:
            async with bl.deploy_mosquitto(Path(tmp)) as (mqtt, tuning):
                print(f"bench_mqtt_client: Mosquitto (deploy tuning) on port {mqtt[1]}; {args.messages} QoS 1 "
                      f"messages at {args.rate:g}/s from {args.publishers} connections", flush=True)
                children = 0.0
                for kind in args.clients.split(","):
                    if kind == "gmqtt":
                        try:
                            import gmqtt  # noqa: F401
                        except ImportError:
                            rows.append(f"{kind:<8} skipped (not installed)")
                            continue
                    got = await measure(kind, mqtt[1], args)
                    if got is None:
                        rows.append(f"{kind:<8} FAILED (never subscribed)")
                        continue
                    start, total, acked, wall = got
                    # CPU before READY (imports, connect) excluded: the child had used ``start`` s then
                    cpu = total - children - start
                    children = total
                    rows.append(f"{kind:<8} {1000 * cpu / args.messages:8.3f} {str(acked):>6} {wall:6.1f}")
        print(f"\n{'client':<8} {'CPU/msg ms':>10} {'acked':>6} {'wall s':>6}")
        for row in rows:
            print(row)
        load = os.getloadavg()
        print(f"\nCPU/msg: the subscriber's user+system CPU from READY to exit / messages; each message "
              f"acknowledged after a simulated store every {TICK_S * 1000:g} ms and answered with one QoS 1 "
              f"feedback. machine: {os.cpu_count()} CPUs, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at end")
        return 0

    return run(go())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "sub":
        from venue.serve import run

        sys.exit(run(SUBSCRIBERS[sys.argv[2]](int(sys.argv[3]), int(sys.argv[4]))) or 0)
    sys.exit(main())
