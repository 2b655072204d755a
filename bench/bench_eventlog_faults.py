"""Fault drills of the event log for docs/reliability.md (issue 11, the event log and broker rows).

Each drill starts its own ``redis-server`` or ``mosquitto`` on a free port (tests/eventlog_helpers.py
PrivateRedis) and freezes it with SIGSTOP, kills it with -9, flushes or swaps it. Prints one row per
fault: observed, data lost, recovery time. Usage: ``.venv/bin/python bench/bench_eventlog_faults.py``
from the repository root (the shared 127.0.0.1 services are not touched)."""
import asyncio, json, os, signal, sqlite3, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from eventlog_helpers import PrivateRedis
from services.eventlog import open_log
from services.eventlog.base import LogReplaced, BadEntryError, EventLogError
from services.eventlog.redis import RedisLog

rows = []
def row(*cells): rows.append(cells); print(" | ".join(str(c) for c in cells), flush=True)

async def redis_freeze(freeze_s):
    s = PrivateRedis(Path(tempfile.mkdtemp())); s.start()
    log = RedisLog(s.url, "drill")  # the shipped defaults: socket timeout 10 s, retries 30 s
    await log.append("round_started", {})
    s.freeze(); t0 = time.monotonic()
    tasks = [asyncio.ensure_future(log.append("move_played", {"board": b})) for b in range(20)]
    await asyncio.sleep(freeze_s); s.thaw(); t1 = time.monotonic()
    res = await asyncio.gather(*tasks, return_exceptions=True)
    t2 = time.monotonic()
    entries = await RedisLog(s.url, "drill").read()
    boards = [e.data.get("board") for e in entries[1:]]
    errors = sum(isinstance(r, BaseException) for r in res)
    row(f"Redis frozen (SIGSTOP) {freeze_s:g} s mid-append, 20 appends waiting (socket timeout 10 s)",
        f"{len(entries)-1} entries for 20 appends, {len(boards)-len(set(boards))} doubled, {errors} errors",
        "none", f"appends returned {t2-t1:.2f} s after SIGCONT")
    await log.close(); s.stop()

async def redis_restart():
    s = PrivateRedis(Path(tempfile.mkdtemp())); s.start()
    w = RedisLog(s.url, "drill"); r = RedisLog(s.url, "drill")
    await w.append_many([("move_played", {"i": i}, None) for i in range(50)])
    f = r.follow(); n = 0
    async for e in f:
        n += 1
        if n == 50: break
    s.restart(); t0 = time.monotonic()
    try:
        async for e in f: pass
    except LogReplaced as exc: t_f = time.monotonic() - t0
    try:
        await w.append("move_played", {"i": 50}); wrote = "WROTE"
    except LogReplaced: wrote = "refused (LogReplaced)"
    left = len(await RedisLog(s.url, "drill").read())
    row("Redis without AOF killed (-9) and restarted empty", f"follower raised LogReplaced after {t_f:.2f} s (idle follower: next XREAD timeout); writer {wrote}; {left} entries written over",
        "the log (Redis's own loss: no AOF)", "until an operator restores it")
    await w.close(); await r.close(); s.stop()

async def redis_flush_busy():
    s = PrivateRedis(Path(tempfile.mkdtemp())); s.start()
    w = RedisLog(s.url, "drill"); r = RedisLog(s.url, "drill")
    await w.append_many([("move_played", {"i": i}, None) for i in range(10)])
    f = r.follow(); got = []
    async for e in f:
        got.append(e)
        if len(got) == 10: break
    import redis.asyncio as aioredis
    c = aioredis.Redis.from_url(s.url); await c.flushdb(); await c.aclose()
    w2 = RedisLog(s.url, "drill")
    t0 = time.monotonic()
    await w2.append_many([("move_played", {"i": 100+i}, None) for i in range(20)])
    yielded_new = 0
    try:
        async for e in f: yielded_new += 1
    except LogReplaced: t_f = time.monotonic() - t0
    row("FLUSHDB mid-follow, then a restarted gateway writes a new log past the follower (seq 1-20)",
        f"follower raised LogReplaced {t_f*1000:.1f} ms after the new writes; {yielded_new} entries of the new log handed out",
        "none handed out wrongly", "immediate")
    await w.close(); await w2.close(); await r.close(); s.stop()

async def sqlite_swap():
    d = Path(tempfile.mkdtemp()); url = f"sqlite:///{d}/log.sqlite"
    w = open_log(url, "drill"); r = open_log(url, "drill")
    await w.append_many([("move_played", {"i": i}, None) for i in range(10)])
    f = r.follow(); n = 0
    async for e in f:
        n += 1
        if n == 10: break
    o = open_log(f"sqlite:///{d}/other.sqlite", "drill"); await o.append("move_played", {}); await o.close()
    os.replace(d / "other.sqlite", d / "log.sqlite"); t0 = time.monotonic()
    try:
        async for e in f: pass
    except LogReplaced: t_f = time.monotonic() - t0
    try:
        await w.append("move_played", {}); wrote = "WROTE"
    except LogReplaced: wrote = "refused (LogReplaced)"
    row("SQLite file swapped under a running writer and follower (mv backup over it)",
        f"follower raised LogReplaced after {t_f*1000:.0f} ms; writer {wrote}", "none", "until restarted (delete -wal/-shm)")
    await w.close(); await r.close()

async def sqlite_restore():
    d = Path(tempfile.mkdtemp()); url = f"sqlite:///{d}/log.sqlite"
    w = open_log(url, "drill"); r = open_log(url, "drill")
    await w.append_many([("move_played", {"i": i}, None) for i in range(3)])
    copy = sqlite3.connect(d / "b.sqlite"); live = sqlite3.connect(d / "log.sqlite"); live.backup(copy); live.close()
    await w.append_many([("move_played", {"i": i}, None) for i in range(3, 6)])
    f = r.follow(); n = 0
    async for e in f:
        n += 1
        if n == 6: break
    live = sqlite3.connect(d / "log.sqlite"); copy.backup(live); live.close(); t0 = time.monotonic()
    try:
        async for e in f: pass
    except LogReplaced: t_f = time.monotonic() - t0
    try:
        await w.append("move_played", {}); wrote = "WROTE"
    except LogReplaced: wrote = "refused (LogReplaced: went back to seq 3)"
    row("SQLite restored in place from an older backup (seq 6 -> 3, same epoch)",
        f"follower raised LogReplaced after {t_f*1000:.0f} ms; writer {wrote}", "entries 4-6 (the restore's)", "until an operator decides")
    await w.close(); await r.close()

async def surrogate():
    s = PrivateRedis(Path(tempfile.mkdtemp())); s.start()
    log = RedisLog(s.url, "drill")
    bad = json.loads(r'{"seq":9007199254740991,"move":"\ud800"}')
    t0 = time.monotonic()
    res = await asyncio.gather(*(log.append("move_played", {"b": b}) for b in range(50)),
                               log.append("move_rejected", bad), return_exceptions=True)
    t = time.monotonic() - t0
    ok = len(await log.read())
    row('Entry with a lone surrogate ({"seq":9007199254740991,"move":"\\ud800"}) among 50 appends',
        f"{type(res[-1]).__name__} (ValueError) naming item 0 'move_rejected' before any write; {ok}/50 others stored",
        "none (the caller replaces that one entry)", f"{t*1000:.1f} ms for all 51")
    await log.close(); s.stop()

def mosquitto_takeover(conf_text, label):
    import aiomqtt, getpass
    import mosquitto_site as acl  # site_config reads its CONF: the drill's own config below
    from mosquitto_site import site_config, MAKER
    T = "acl-test"
    d = Path(tempfile.mkdtemp())
    subprocess.run([sys.executable, MAKER, "--out-dir", d, "--tournament", f"{T}:1-2"], check=True, capture_output=True)
    from gateway.broker import free_port
    port = free_port()
    acl.CONF = d / "shipped.conf"; acl.CONF.write_text(conf_text)
    (d / "m.conf").write_text(site_config(port, d))
    p = subprocess.Popen(["mosquitto", "-c", d / "m.conf"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    creds = json.loads((d / "credentials.json").read_text())
    gws = creds.get("gateways") or [creds["gateway"]]
    gw_user, gw_pw = gws[0]["username"], gws[0]["password"]
    b = next(x for x in creds["devices"] if x["username"] == f"board-{T}-1")
    async def run():
        kicked = 0; t0 = time.monotonic()
        for i in range(20):
            try:
                async with aiomqtt.Client("127.0.0.1", port, username=gw_user, password=gw_pw, identifier=f"venue-gateway-{T}", clean_session=False, timeout=3) as gw:
                    await gw.subscribe(f"venue/{T}/#", qos=1)
                    async with aiomqtt.Client("127.0.0.1", port, username=b["username"], password=b["password"], identifier=f"venue-gateway-{T}", timeout=3) as bd:
                        await bd.publish(f"venue/{T}/boards/1/move", "{}", qos=1)
                        try:
                            async with asyncio.timeout(1):
                                await anext(aiter(gw.messages))
                        except (aiomqtt.MqttError, TimeoutError):
                            kicked += 1
            except aiomqtt.MqttError:
                kicked += 1
        return kicked, time.monotonic() - t0
    kicked, t = asyncio.run(run())
    p.terminate(); p.wait()
    row(f"Board login connects with the gateway's client id, 20 times ({label})",
        f"gateway kicked off {kicked}/20 times", "queued messages of the gateway's session" if kicked else "none", f"{t:.1f} s for 20")

def deploy_commands(ref, label):
    import uuid
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{ref}:deploy/systemd/venue-gateway.service"], capture_output=True, text=True).stdout
    line = next(l for l in src.splitlines() if l.startswith("ExecStart="))
    slug = f"drill-{uuid.uuid4().hex[:6]}"
    env = {"VENUE_TOURNAMENT": slug, "VENUE_MQTT_URL": "mqtt://127.0.0.1:1883", "VENUE_LOG_URL": "redis://127.0.0.1:6379/0"}
    import re, shlex
    argv = [str(ROOT / ".venv/bin/venue")] + [re.sub(r"\$\{(\w+)\}", lambda m: env[m[1]], w) for w in shlex.split(line[10:])[1:]]
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready = None
    while True:
        l = p.stdout.readline()
        if not l: break
        if "Ctrl-C to stop." in l: ready = time.monotonic() - t0; break
    if ready is None:
        p.wait(); row(f"venue-gateway.service ExecStart ({label})", f"exit {p.returncode}: {p.stderr.read().strip().splitlines()[-1][:70]}", "-", "never starts")
    else:
        t1 = time.monotonic(); p.send_signal(signal.SIGTERM); p.wait(20)
        row(f"venue-gateway.service ExecStart ({label})", f"serving (subscribed) after {ready:.2f} s; SIGTERM -> exit {p.returncode} in {time.monotonic()-t1:.2f} s", "-", "-")
    import redis as r; r.Redis().delete(*[f"venue:{{{slug}}}:{k}" for k in ("log", "seq", "epoch", "batches", "batch-order")])

async def main():
    await redis_freeze(12)
    await redis_restart()
    await redis_flush_busy()
    await sqlite_swap()
    await sqlite_restore()
    await surrogate()

asyncio.run(main())
old = subprocess.run(["git", "-C", str(ROOT), "show", "0160707:deploy/mosquitto/mosquitto.conf"], capture_output=True, text=True).stdout
mosquitto_takeover(old, "before: client ids not tied to logins")
mosquitto_takeover((ROOT / "deploy/mosquitto/mosquitto.conf").read_text(), "after: use_username_as_clientid")
deploy_commands("0160707", "before: --log")
deploy_commands("HEAD", "after: --store")
