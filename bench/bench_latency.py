"""End-to-end latency of the live hall: a board's MQTT publish to its delta on a ``/ws/live`` spectator.

Issue "Live hall end to end". For each backend x board count it runs the product's gateway and
dashboard as two subprocesses (``bench/_latency_services.py``; the code ``venue gateway`` and ``venue
dashboard`` run, on the same event loop, uvloop), sets up a round of N boards (``round_started``
through the product's ``round_from_pgn``), connects S spectators to ``/ws/live`` (S - R passive ones
in subprocesses of their own, one per 5,000, ``--client-procs``; R recording ones in this process)
and N board connections (this process, one MQTT connection each, QoS 1), then plays the load:

- ``--load hall`` (default): a round of N games in play. Every board replays a real game of the
  FIDE World Cup 2025 at its real pace (``--pace rapid``, the default: 15+10 and 10+10; ``blitz``:
  5+3 and 3+2), each ply after the thinking time its clocks show, the boards starting within 3 s of
  each other as at a round's start (``bench/_latency_hall.py``). The first ``--warmup-s`` seconds are
  not counted, then ``--duration`` seconds are. At 1,000 boards the rapid round's first 35 s bring
  about 300 plies a second (openings are played fast), the blitz round's about 390.
- ``--load burst``: waves; every board publishes its next move in the same instant, the bench
  waits until every recording spectator has the wave, pauses and goes on (a stress test: 1,000
  moves in the same millisecond do not happen in a hall).

What spectators follow (``--watch``): ``pages`` (default) as the hall page does (pages of 50 boards,
``/ws/live?boards=LO-HI``, spectator i on page i mod pages: at 10 boards all of them follow every
board); ``games``: one board each (the game page); ``all``: every board. The R recording spectators
always follow every board. Passive ones behave as browsers at the byte level: the handshake, every
frame's header read, every ping answered (uvicorn closes a connection whose pongs stop), payloads
not parsed (``--parse-spectators``: websockets clients parsing every frame, which costs this shared
machine CPU). The bench prints how many were still connected at the end of the measured window and
exits 1 with a ``FAIL:`` line when any dropped.

The fan-out (``--fanout``, several measured one after the other on the same load, one table):
``grouped`` (the dashboard's hub as shipped: one frame per page and tick), ``per-delta`` (the hub
before issue 15: one frame per delta and spectator), ``nchan`` (nginx + nchan in front, one worker,
fed the hub's page bodies: ``bench/_latency_nchan.py``), ``baseline`` (the grouped dashboard of another
tree, ``--baseline-code DIR``: e.g. ``git worktree add --detach ../base COMMIT`` of the commit before
a change, measured in the same run on the same load). Per row: spectators connected at the end,
"fan" latency (the entry readable in the log to a spectator: the fan-out alone), the fan-out's CPU
(dashboard, + nginx) and memory per spectator (RSS growth of the process holding the sockets).

Latency of a ply = its first receipt on a recording spectator - its publish, both
``time.perf_counter()`` in this process; one sample per recording spectator and ply.

Beside it, on the same broker and in the same run (services up, idle): the bare hop, the same boards
publishing the same load to a topic only one plain MQTT subscriber in this process reads: the limit
of broker + client library.

Backends: ``mosquitto+redis`` (mqtt://127.0.0.1:1883, or the port in ``BENCH_MQTT_PORT``;
redis://127.0.0.1:6379/0, unique tournament slug, its keys deleted afterwards) and ``embedded`` (the
amqtt broker inside the gateway process, as ``venue demo`` runs it, and SQLite in a temporary
directory; the dashboard, another process, polls the file every 5 ms, the SQLite log's default).

Besides the table: "log" columns (publish to the entry readable by a log follower in this process,
i.e. the gateway's share), a "stages" line per row (publish -> gateway's ``at`` stamp -> log ->
spectator), each service's CPU per ply, the gateway's store batching and the dashboard's dropped
deltas (queue overflow, F12).

Target: p99 < 25 ms at 1,000 boards over Mosquitto + Redis. Prints one table and the settings.
Bounded: stops by itself (``--budget`` seconds; per-config caps; a 15 s drain after the load); a
service that cannot be reached or started is reported on its row ("FAILED: ...").

Usage: ``.venv/bin/python bench/bench_latency.py [--quick] [--boards 10,100,1000] [--spectators 1000]
[--load hall|burst] [--pace rapid|blitz] [--watch pages|games|all] [--backends ...] [--verbose]
[--profile DIR] [--fanout grouped,per-delta,nchan] [--client-procs K] [--no-hop]``. ``--quick``: 10 and 100 boards, 100 spectators, 15 s counted (10 waves).
``--profile DIR``: py-spy (``--py-spy``) records the gateway and the dashboard at the largest N.
``BENCH_DEBUG=1``: print each service's last stderr lines when it is stopped.
What-if options (not the product's defaults): ``--no-deflate``, ``--queue-cap N``, ``--spread S``
(burst: each wave spread over S seconds).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import resource
import shutil
import signal
import socket
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from services.events import MovePlayed, RoundStarted

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import chess.pgn  # noqa: E402
from _checkout import add_lock_option, hold_machine_lock  # noqa: E402
from _latency_clients import Boards, HopSubscriber, Recorder  # noqa: E402
from _latency_hall import round_pgn, schedule, world_cup_games  # noqa: E402

PGN = REPO.parent / "shared" / "data" / "chess" / "fide_candidates_2024_open.pgn"
WORLD_CUP = REPO.parent / "shared" / "data" / "chess" / "fide_world_cup_2025.pgn"
SERVICES = REPO / "bench" / "_latency_services.py"
MOSQUITTO = ("127.0.0.1", int(os.environ.get("BENCH_MQTT_PORT", "1883")))  # --mosquitto system
DEPLOY_CONF = REPO / "deploy" / "mosquitto" / "mosquitto.conf"
# The broker settings of deploy/mosquitto/mosquitto.conf a bench broker takes (not its users, ACL,
# persistence or port): Nagle off and the in-flight and queue limits a 1,000-board hall needs.
DEPLOY_TUNING = ("set_tcp_nodelay", "max_inflight_messages", "max_queued_messages", "max_packet_size",
                 "max_connections")
REDIS_URL = "redis://127.0.0.1:6379/0"
TARGET_MS = 25.0
WALL_OFFSET = time.time() - time.perf_counter()  # to put the gateway's time.time() stamps on perf_counter
CONFIG_CAP_S = {10: 40, 100: 60, 1000: 120}  # wall-clock cap of one config (set-up included)


# ----- the round ---------------------------------------------------------------------------------

def load_games(plies: int) -> list[tuple[chess.pgn.Headers, list[str]]]:
    """Games of the Candidates 2024 (open) with at least ``plies`` moves: (headers, UCI moves)."""
    out = []
    with open(PGN, encoding="utf-8-sig") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            moves = [m.uci() for m in game.mainline_moves()]
            if len(moves) >= plies:
                out.append((game.headers, moves[:plies]))
    if not out:
        raise SystemExit(f"no game of {PGN} has {plies} plies")
    return out


def round_setup(n: int, games) -> tuple[dict, dict[str, list[str]]]:
    """``round_started`` data for ``n`` boards (game ``i % len(games)`` on board ``i + 1``) through
    the product's own ``round_from_pgn``, and each board's moves."""
    from services.arbiter_office.setup import round_from_pgn

    text = io.StringIO()
    moves = {}
    for i in range(n):
        h, ms = games[i % len(games)]
        board = str(i + 1)
        moves[board] = ms
        text.write(f'[Event "Latency bench"]\n[Site "bench"]\n[Date "2024.04.04"]\n[Round "1"]\n'
                   f'[Board "{board}"]\n[White "{h.get("White")}"]\n[Black "{h.get("Black")}"]\n'
                   f'[WhiteElo "{h.get("WhiteElo", "?")}"]\n[BlackElo "{h.get("BlackElo", "?")}"]\n'
                   f'[TimeControl "40/7200:1800+30"]\n[Result "*"]\n\n*\n\n')
    return round_from_pgn(text.getvalue()), moves


# ----- the services --------------------------------------------------------------------------------

class ServiceError(RuntimeError):
    """A service could not be reached or started: the message says which and why."""


@dataclass
class Proc:
    name: str
    proc: asyncio.subprocess.Process
    errfile: Path
    ready: str = ""
    stats: dict = field(default_factory=dict)

    def stderr_tail(self, lines: int = 8) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.errfile.read_text(errors="replace").splitlines()[-lines:])
        return ""


async def start(name: str, args: list[str], tmp: Path, timeout: float, services: Path = SERVICES) -> Proc:
    """Start ``_latency_services.py ARGS`` (``services``: another tree's, for a baseline); wait for
    its ``READY`` line (ServiceError otherwise)."""
    return await launch(name, [sys.executable, str(services), *args], tmp, timeout)


async def launch(name: str, cmd: list[str], tmp: Path, timeout: float) -> Proc:
    """Start ``cmd`` (a service that prints ``READY ...`` or ``FAILED ...``); wait for ``READY``
    (ServiceError otherwise, the process stopped)."""
    errfile = tmp / f"{name}.stderr"
    proc = await asyncio.create_subprocess_exec(
        *cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=open(errfile, "wb"))
    p = Proc(name, proc, errfile)
    try:
        while True:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout)
            if not line:
                raise ServiceError(f"{name} exited at start-up: {p.stderr_tail() or 'no output'}")
            text = line.decode().strip()
            if text.startswith("READY"):
                p.ready = text[6:]
                return p
            if text.startswith("FAILED"):
                raise ServiceError(f"{name}: {text[7:]}")
    except asyncio.TimeoutError:
        await stop(p)
        raise ServiceError(f"{name} not ready within {timeout:g} s: {p.stderr_tail()}") from None
    except BaseException:
        await stop(p)
        raise


async def stop(p: Proc | None) -> None:
    """SIGTERM, collect its ``STATS`` line, SIGKILL after 10 s."""
    if p is not None and os.environ.get("BENCH_DEBUG"):
        print(f"\n[{p.name} rc={p.proc.returncode}] {p.stderr_tail(20)}")
    if p is None or p.proc.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        p.proc.send_signal(signal.SIGTERM)
    with contextlib.suppress(Exception):
        p.proc.stdin.close()  # its stdin watcher thread ends, so asyncio.run can return
    try:
        out = await asyncio.wait_for(p.proc.stdout.read(), 10)
        for line in out.decode(errors="replace").splitlines():
            if line.startswith("STATS "):
                p.stats = json.loads(line[6:])
        await asyncio.wait_for(p.proc.wait(), 5)
    except (asyncio.TimeoutError, ValueError):
        with contextlib.suppress(ProcessLookupError):
            p.proc.kill()
        await p.proc.wait()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (/proc), 0 when unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


@contextlib.asynccontextmanager
async def deploy_mosquitto(tmp: Path):
    """A Mosquitto with the tuning of ``deploy/mosquitto/mosquitto.conf`` on a free port of
    127.0.0.1, anonymous, no persistence; yields ``(host, port)``. ServiceError when the
    ``mosquitto`` binary is missing or does not start."""
    binary = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if Path(p).exists()), None)
    if binary is None:
        raise ServiceError("no mosquitto binary (apt-get install mosquitto), or use --mosquitto system")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    tuning = [line.strip() for line in DEPLOY_CONF.read_text().splitlines()
              if line.split(" ", 1)[0] in DEPLOY_TUNING]
    conf = tmp / "mosquitto.conf"
    conf.write_text("\n".join([f"listener {port} 127.0.0.1", "allow_anonymous true", "persistence false",
                               "log_dest stderr", "log_type error", *tuning]) + "\n")
    proc = await asyncio.create_subprocess_exec(binary, "-c", str(conf), stdout=asyncio.subprocess.DEVNULL,
                                                stderr=open(tmp / "mosquitto.stderr", "wb"))
    try:
        for _ in range(100):
            try:
                await check_tcp("127.0.0.1", port, "the bench's Mosquitto")
                break
            except ServiceError:
                if proc.returncode is not None:
                    raise
                await asyncio.sleep(0.05)
        else:
            raise ServiceError(f"the bench's Mosquitto did not listen on {port}")
        yield ("127.0.0.1", port), tuning
    finally:
        if proc.returncode is None:
            proc.terminate()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 5)


async def check_tcp(host: str, port: int, what: str) -> None:
    try:
        _, w = await asyncio.wait_for(asyncio.open_connection(host, port), 3)
        w.close()
    except (OSError, asyncio.TimeoutError) as exc:
        raise ServiceError(f"cannot reach {what} at {host}:{port}: {getattr(exc, 'strerror', None) or exc}"
                           ) from None


async def check_redis() -> None:
    import redis.asyncio as aioredis

    await check_tcp("127.0.0.1", 6379, "Redis")
    client = aioredis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    try:
        await asyncio.wait_for(client.ping(), 3)
    except Exception as exc:
        raise ServiceError(f"Redis at {REDIS_URL} does not answer PING: {exc}") from None
    finally:
        await client.aclose()


async def cleanup_redis(slug: str) -> None:
    import redis.asyncio as aioredis

    from services.eventlog.redis import counter_key, stream_key

    client = aioredis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    with contextlib.suppress(Exception):
        await client.delete(stream_key(slug), counter_key(slug))
    with contextlib.suppress(Exception):
        await client.aclose()


async def cleanup_mqtt_session(host: str, port: int, client_id: str) -> None:
    """Drop the gateway's kept session (clean_session=0) from Mosquitto: connect once clean."""
    import aiomqtt

    with contextlib.suppress(Exception):
        async with aiomqtt.Client(host, port, identifier=client_id, clean_session=True):
            pass


# ----- one configuration ---------------------------------------------------------------------------

@dataclass
class Result:
    backend: str
    boards: int
    spectators: int = 0
    venue: list[float] = field(default_factory=list)  # ms, counted waves
    hop: list[float] = field(default_factory=list)
    logged: list[float] = field(default_factory=list)  # ms, publish -> entry readable in the log
    fan: list[float] = field(default_factory=list)  # ms, entry readable in the log -> on a spectator (hall load)
    handled: list[float] = field(default_factory=list)  # ms, publish -> the gateway's stamp ``at``
    waves: int = 0
    hop_waves: int = 0
    lost: int = 0  # (recorder, ply) never received within the wave timeout
    hop_lost: int = 0
    via_snapshot: int = 0
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    cpu: dict = field(default_factory=dict)
    seconds: float = 0.0
    fanout: str = "grouped"
    connected_start: int = 0  # passive spectators whose handshake succeeded
    connected_end: int | None = None  # of them, still connected at the end of the measured window
    window_end: float = 0.0  # time.monotonic() when the measured window ended
    pongs: int = 0
    frames_received: int = 0
    rss_per_spectator_kb: float = 0.0  # of the process that holds the spectators (dashboard, or nginx)
    dashboard_rss_kb: int = 0
    nginx_rss_kb: int = 0
    slow: float = 0.0  # the share of passive spectators reading slowly (--slow)
    slow_connected: int = 0
    slow_at_end: int | None = None
    slow_bytes: int = 0

    @property
    def dropped(self) -> int:
        """Passive spectators wanted but not connected at the end of the window, plus recorders
        that lost their connection (0 when all stayed)."""
        passive = max(0, self.spectators - self.recorders)
        end = self.connected_end if self.connected_end is not None else 0
        return (passive - end if passive else 0) + self.recorders_lost

    recorders: int = 0
    recorders_lost: int = 0


def rfc3339_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


async def run_waves(boards: Boards, topic, payload, progress_of, n_waves: int, warmup: int, n: int,
                    wave_timeout: float, gap: float, deadline: float, drain_s: float,
                    spread: float = 0.0):
    """Publish up to ``warmup + n_waves`` waves (until ``deadline``); each waits for its deliveries
    (at most ``wave_timeout``) and ``gap``. Then waits up to ``drain_s`` for late deliveries.
    Returns ``[(wave, {board: publish instant}), ...]`` of the counted waves."""
    counted = []
    w = 0
    for w in range(1, warmup + n_waves + 1):
        if time.perf_counter() > deadline:
            w -= 1
            break
        stamp = rfc3339_now()
        payloads = {b: payload(b, w, stamp) for b in boards.boards}
        sent: dict[str, float] = {}
        refused = await boards.publish_wave(topic, payloads, sent, spread)
        if refused:
            raise ServiceError(f"{refused} of {n} publishes refused by the MQTT client (link down)")
        if w > warmup:
            counted.append((w, sent))
        wave_end = time.perf_counter() + wave_timeout
        for progress in progress_of():
            await progress.wait(w, n, max(0.0, wave_end - time.perf_counter()))
        await asyncio.sleep(gap)
    drain_end = time.perf_counter() + drain_s
    for wave in range(1, w + 1):
        for progress in progress_of():
            await progress.wait(wave, n, max(0.0, drain_end - time.perf_counter()))
    return counted


async def play_hall(boards: Boards, events, topic, payload, warmup: float, deadline: float,
                    done_of, drain_s: float) -> dict[tuple[str, int], float]:
    """Publish ``events`` (``[(s from start, board, ply)]``) each at its instant; returns the publish
    instant of every counted one (at or after ``warmup`` s), keyed ``(board, ply)``. Then waits up
    to ``drain_s`` until ``done_of(sent)`` is true (every counted ply received)."""
    sent: dict[tuple[str, int], float] = {}
    start = time.perf_counter()
    late = refused = 0
    for t, b, ply in events:
        due = start + t
        now = time.perf_counter()
        if now > deadline:
            break
        if due > now:
            await asyncio.sleep(due - now)
        elif now - due > 0.05:
            late += 1
        instant, ok = boards.publish_one(b, topic(b), payload(b, ply))
        refused += not ok
        if t >= warmup:
            sent[(b, ply)] = instant
    if refused:
        raise ServiceError(f"{refused} of {len(events)} publishes refused by the MQTT client (link down)")
    end = time.perf_counter() + drain_s
    while time.perf_counter() < end and not done_of(sent):
        await asyncio.sleep(0.05)
    sent_late[0] = late
    return sent


sent_late = [0]  # plies the bench itself published more than 50 ms after their instant (last run)


def hall_latencies(sent, seen_of, key_of) -> tuple[list[float], int]:
    """(ms from publish to first receipt, one per receiver and ply; how many never arrived)."""
    lat, lost = [], 0
    for (b, ply), t0 in sent.items():
        for seen in seen_of():
            t1 = seen.get(key_of(b, ply))
            if t1 is None:
                lost += 1
            else:
                lat.append((t1 - t0) * 1000.0)
    return lat, lost


def latencies(counted, seen_of, key_of) -> tuple[list[float], int]:
    """The burst's waves ``[(wave, {board: instant})]`` measured as ``hall_latencies``."""
    return hall_latencies({(b, w): t for w, sent in counted for b, t in sent.items()}, seen_of, key_of)


class LogProbe:
    """Follows the event log from the bench process: when each ``move_played`` became visible to a
    reader of the store (the dashboard's input), keyed ``(game id, ply)``."""

    def __init__(self, store: str, slug: str):
        from services.eventlog import open_log

        self.log = open_log(store, slug)
        self.seen: dict[tuple[str, int], float] = {}
        self.handled: dict[tuple[str, int], float] = {}
        self.task = asyncio.create_task(self._follow())

    async def _follow(self) -> None:
        with contextlib.suppress(Exception):
            async for e in self.log.follow(after=0):
                if e.type == MovePlayed.TYPE:
                    key = (e.data["game"], int(e.data["ply"]))
                    self.seen.setdefault(key, time.perf_counter())
                    # the gateway's stamp (ms since the epoch) on this process's perf_counter scale
                    self.handled.setdefault(key, e.at / 1000.0 - WALL_OFFSET)

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(BaseException):
            await self.task
        with contextlib.suppress(Exception):
            await self.log.close()


def rss_kb(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB (/proc), 0 when unknown."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def client_procs(args, passive: int) -> int:
    """How many spectator processes: ``--client-procs``, or one per 5,000 spectators (at least one)."""
    return args.client_procs or max(1, -(-passive // 5000))


async def run_config(backend: str, n: int, args, games, tmp: Path, deadline: float,
                     fanout: str = "grouped", slow: float = 0.0) -> Result:
    res = Result(backend, n, spectators=args.spectators, fanout=fanout, slow=slow)
    t_start = time.perf_counter()
    slug = f"bench-lat-{uuid.uuid4().hex[:8]}-{n}"
    if args.load == "hall":
        from services.arbiter_office.setup import round_from_pgn

        pgn_text, hall = round_pgn(n, games)
        setup = round_from_pgn(pgn_text)
        moves = {b: g.moves for b, g in hall.items()}
        events = schedule(hall, speed=args.speed, stagger=args.stagger, until=args.warmup_s + args.duration)
    else:
        setup, moves = round_setup(n, games)
    if backend == "embedded":
        store = f"sqlite:///{tmp / (slug + '.sqlite')}"
        gw_args = ["gateway", "--store", store, "--tournament", slug, "--embedded"]
    else:
        store = REDIS_URL
        gw_args = ["gateway", "--store", store, "--tournament", slug,
                   "--mqtt", f"mqtt://{MOSQUITTO[0]}:{MOSQUITTO[1]}"]
    gateway = dashboard = None
    crowds: list[Proc] = []
    local = contextlib.AsyncExitStack()  # this config's own services (the nchan candidate's nginx)
    boards = hop = probe = None
    recorders: list[Recorder] = []
    profilers: list[asyncio.subprocess.Process] = []
    from services.eventlog import open_log

    def phase(what: str) -> None:
        if args.verbose:
            print(f"\n    {time.perf_counter() - t_start:6.1f} s  {what}", end="", flush=True)

    try:
        log = open_log(store, slug)
        try:
            await log.append(RoundStarted.TYPE, setup)
        finally:
            await log.close()
        phase("round logged")
        gateway = await start("gateway", gw_args, tmp, 40)
        mqtt_host, mqtt_port = gateway.ready.removeprefix("mqtt://").rsplit(":", 1)
        mqtt_port = int(mqtt_port)
        nchan_args: list[str] = []
        fanout_factor = fanout.split("x", 1)[1] if fanout.startswith("grouped-x") else None  # what-if
        if fanout_factor:
            fanout = "grouped"
        if fanout == "nchan":  # the candidate engine in front: nginx + nchan (bench/_latency_nchan.py)
            import types

            from _latency_nchan import nginx, worker_pids

            with socket.socket() as probe_port:
                probe_port.bind(("127.0.0.1", 0))
                nginx_port = probe_port.getsockname()[1]
            try:
                nchan_url, master = await local.enter_async_context(nginx(tmp, nginx_port))
            except RuntimeError as exc:
                raise ServiceError(f"nginx + nchan: {exc}") from None
            fanout_proc = types.SimpleNamespace(name="nginx", proc=types.SimpleNamespace(pid=worker_pids(master)[0]))
            nchan_args = ["--nchan", nchan_url, "--boards", str(n)]
        baseline = fanout == "baseline"  # the same dashboard service from --baseline-code's tree
        services = Path(args.baseline_code) / "bench" / "_latency_services.py" if baseline else SERVICES
        dashboard = await start("dashboard", ["dashboard", "--store", store, "--tournament", slug, "--port", "0",
                                              "--fanout", "grouped" if fanout in ("nchan", "baseline") else fanout]
                                + nchan_args
                                + (["--queue-cap", str(args.queue_cap)] if args.queue_cap else [])
                                + (["--group-s", str(args.group_s)] if args.group_s is not None else [])
                                + (["--group-factor", fanout_factor] if fanout_factor else []), tmp, 40, services)
        if fanout != "nchan":
            fanout_proc = dashboard
        rss0 = rss_kb(fanout_proc.proc.pid)
        phase("gateway, dashboard ready")
        ws_url = dashboard.ready.replace("http://", "ws://") + "/ws/live"
        recorder_url = ws_url
        if fanout == "nchan":
            ws_url = nchan_url.replace("http://", "ws://") + "/sub"
            recorder_url = ws_url + "/all"
        passive = max(0, args.spectators - args.recorders)
        if passive:
            k = client_procs(args, passive)
            shares = [passive // k + (i < passive % k) for i in range(k)]
            offsets = [sum(shares[:i]) for i in range(k)]
            started = await asyncio.gather(*(
                start(f"spectators-{i + 1}", ["spectators", "--url", ws_url, "--count", str(shares[i]),
                                              "--offset", str(offsets[i]), "--boards", str(n), "--watch", args.watch]
                      + (["--raw"] if args.raw_spectators else [])
                      + (["--slow-every", str(round(1 / slow)), "--slow-rate", str(args.slow_rate)]
                         if slow and args.raw_spectators else [])
                      + (["--nchan"] if fanout == "nchan" else [])
                      + (["--no-deflate"] if args.no_deflate else []), tmp, 300)
                for i in range(k)), return_exceptions=True)
            crowds = [c for c in started if isinstance(c, Proc)]
            errors = [c for c in started if not isinstance(c, Proc)]
            if errors:
                raise errors[0] if isinstance(errors[0], Exception) else ServiceError(str(errors[0]))
            connected = sum(int(c.ready.split()[0]) for c in crowds)
            res.connected_start = connected
            if connected < passive:
                res.notes.append(f"only {connected}/{passive} passive spectators connected")
            res.rss_per_spectator_kb = (rss_kb(fanout_proc.proc.pid) - rss0) / max(1, connected)
        phase("passive spectators connected")
        for _ in range(args.recorders):
            r = Recorder(recorder_url, deflate=not args.no_deflate, snapshot=fanout != "nchan")
            await r.start()
            recorders.append(r)
        boards = Boards(mqtt_host, mqtt_port, list(moves), prefix=f"{slug}")
        await boards.connect()
        hop = HopSubscriber(mqtt_host, mqtt_port, f"venue-bench/{slug}/hop/+", f"{slug}-hop")
        await hop.start()

        phase("recorders, boards, hop subscriber connected")
        if args.load == "hall":
            await run_hall(res, args, n, boards, hop, events, moves, slug, store, setup,
                           [gateway, dashboard, *crowds] + ([fanout_proc] if fanout == "nchan" else []),
                           recorders, phase)
            return res
        waves = args.waves
        body = lambda b, w, stamp: json.dumps({"seq": w, "move": moves[b][w - 1], "sent_at": stamp})  # noqa: E731
        # the bare hop first (services up, idle), then the venue path, the same waves
        counted = await run_waves(boards, lambda b: f"venue-bench/{slug}/hop/{b}", body,
                                  lambda: [hop.progress], waves, args.warmup, n, args.wave_timeout,
                                  args.gap, deadline, drain_s=10, spread=args.spread)
        res.hop_waves = len(counted)
        res.hop, res.hop_lost = latencies(counted, lambda: [hop.seen], lambda b, w: (b, w))
        probe = LogProbe(store, slug)
        phase("bare hop done")
        if args.profile and n == max(args.boards) and args.py_spy:
            profilers = await start_profilers(args, backend, n, [gateway, dashboard])
        cpu0 = {p.name: cpu_seconds(p.proc.pid) for p in (gateway, dashboard, *crowds) if p}
        cpu0["bench"] = time.process_time()
        t0 = time.perf_counter()
        gid = {g["board"]: g["id"] for g in setup["games"]}
        counted = await run_waves(boards, lambda b: f"venue/{slug}/boards/{b}/move", body,
                                  lambda: [r.progress for r in recorders], waves, args.warmup, n,
                                  args.wave_timeout, args.gap, deadline, drain_s=args.drain,
                                  spread=args.spread)
        span = time.perf_counter() - t0
        res.waves = len(counted)
        res.venue, res.lost = latencies(counted, lambda: [r.seen for r in recorders],
                                        lambda b, w: (gid[b], w))
        res.logged, _ = latencies(counted, lambda: [probe.seen], lambda b, w: (gid[b], w))
        res.handled, _ = latencies(counted, lambda: [probe.handled], lambda b, w: (gid[b], w))
        phase("venue waves done")
        cpu = {p.name: cpu_seconds(p.proc.pid) - cpu0[p.name] for p in (gateway, dashboard, *crowds) if p}
        cpu["bench"] = time.process_time() - cpu0["bench"]
        cpu["spectators"] = sum(v for k, v in cpu.items() if k.startswith("spectators-"))
        res.cpu = {k: v / span for k, v in cpu.items()} if span > 0 else {}
        res.window_end = time.monotonic()
        plies = n * (res.waves + min(args.warmup, waves))
        if plies:
            res.notes.append(f"CPU per ply played: gateway {cpu.get('gateway', 0) / plies * 1000:.2f} ms, "
                             f"dashboard {cpu.get('dashboard', 0) / plies * 1000:.2f} ms "
                             f"({plies} plies, {span:.1f} s)")
        res.via_snapshot = sum(r.via_snapshot for r in recorders)
        for r in recorders:
            if r.error:
                res.notes.append(f"recorder: {r.error}")
        if res.waves < waves:
            res.notes.append(f"stopped after {res.waves}/{waves} waves (time cap)")
    except ServiceError as exc:
        res.error = str(exc)
    except Exception as exc:  # noqa: BLE001 - one config failing must not stop the others
        res.error = f"{type(exc).__name__}: {exc}"
    finally:
        await stop_profilers(profilers)
        for r in recorders:
            await r.close()
        if hop:
            await hop.close()
        if probe:
            await probe.close()
        if boards:
            await boards.close()
        phase("clients closed")
        for crowd in crowds:
            await stop(crowd)
        if crowds:
            ends = [c.stats for c in crowds]
            if all(ends):
                window_end = res.window_end or time.monotonic()
                res.connected_end = sum(sum(1 for t in e.get("closed_at", ()) if t > window_end)
                                        + e.get("open at the end", 0) for e in ends)
                res.pongs = sum(e.get("pongs", 0) for e in ends)
                res.frames_received = sum(e.get("frames", 0) for e in ends)
                res.slow_connected = sum(e.get("slow", 0) for e in ends)
                res.slow_at_end = res.slow_connected - sum(
                    sum(1 for t in e.get("slow closed_at", ()) if t <= window_end) for e in ends)
                res.slow_bytes = sum(e.get("slow bytes", 0) for e in ends)
            else:
                res.notes.append("a spectators process gave no STATS: connected at the end unknown")
        await stop(dashboard)
        await stop(gateway)
        if fanout == "nchan":
            from _latency_nchan import refusals

            res.notes += [f"nginx: {line}" for line in refusals(tmp)]
        await local.aclose()
        phase("services stopped")
        if gateway and gateway.stats:
            res.notes.append("gateway: " + ", ".join(f"{k} {v}" for k, v in gateway.stats.items()))
        if dashboard and dashboard.stats:
            res.notes.append("dashboard: " + ", ".join(f"{k} {v}" for k, v in dashboard.stats.items()))
        if backend != "embedded":
            await cleanup_redis(slug)
            await cleanup_mqtt_session(*MOSQUITTO, f"venue-gateway-{slug}")
        res.seconds = time.perf_counter() - t_start
    return res


async def run_hall(res: Result, args, n: int, boards: Boards, hop: HopSubscriber, events, moves, slug: str,
                   store: str, setup: dict, procs: list, recorders: list, phase) -> None:
    """The hall load (``_latency_hall``): the bare hop on the schedule first, then the venue path on
    the same schedule; fills ``res``."""
    body = lambda b, ply: json.dumps({"seq": ply, "move": moves[b][ply - 1], "sent_at": rfc3339_now()})  # noqa: E731
    deadline = time.perf_counter() + args.warmup_s + args.duration + 30
    gid = {g["board"]: g["id"] for g in setup["games"]}
    if args.hop:
        sent = await play_hall(boards, events, lambda b: f"venue-bench/{slug}/hop/{b}", body, args.warmup_s,
                               deadline, lambda sent: all(k in hop.seen for k in sent), drain_s=10)
        res.hop, res.hop_lost = hall_latencies(sent, lambda: [hop.seen], lambda b, p: (b, p))
        res.hop_waves = len(sent)
        phase("bare hop done")
    probe = LogProbe(store, slug)
    profilers = []
    try:
        procs = [p for p in procs if p]
        if args.profile and args.py_spy and n == max(args.boards):
            profilers = await start_profilers(args, res.backend, n, [p for p in procs if p.name != "spectators"])
        cpu0 = {p.name: cpu_seconds(p.proc.pid) for p in procs}
        cpu0["bench"] = time.process_time()
        t0 = time.perf_counter()
        deadline = t0 + args.warmup_s + args.duration + 30
        sent = await play_hall(boards, events, lambda b: f"venue/{slug}/boards/{b}/move", body, args.warmup_s,
                               deadline, lambda sent: all((gid[b], p) in r.seen for r in recorders
                                                          for b, p in sent), drain_s=args.drain)
        span = time.perf_counter() - t0
        late = sent_late[0]
        res.waves = len(sent)
        res.venue, res.lost = hall_latencies(sent, lambda: [r.seen for r in recorders], lambda b, p: (gid[b], p))
        res.logged, _ = hall_latencies(sent, lambda: [probe.seen], lambda b, p: (gid[b], p))
        res.handled, _ = hall_latencies(sent, lambda: [probe.handled], lambda b, p: (gid[b], p))
        res.fan = [(r.seen[k] - probe.seen[k]) * 1000.0 for b, ply in sent for k in [(gid[b], ply)]
                   for r in recorders if k in r.seen and k in probe.seen]
        cpu = {p.name: cpu_seconds(p.proc.pid) - cpu0[p.name] for p in procs}
        cpu["bench"] = time.process_time() - cpu0["bench"]
        cpu["spectators"] = sum(v for k, v in cpu.items() if k.startswith("spectators-"))
        res.cpu = {k: v / span for k, v in cpu.items()} if span > 0 else {}
        res.window_end = time.monotonic()
        res.dashboard_rss_kb = rss_kb(next(p for p in procs if p.name == "dashboard").proc.pid)
        res.nginx_rss_kb = sum(rss_kb(p.proc.pid) for p in procs if p.name == "nginx")
        plies = sum(1 for t, _, _ in events if t <= args.warmup_s + args.duration)
        res.notes.append(f"{plies} plies in {args.warmup_s + args.duration:g} s ({plies / (args.warmup_s + args.duration):.0f}/s), "
                         f"{len(sent)} counted; CPU per ply: gateway {cpu.get('gateway', 0) / plies * 1000:.2f} ms, "
                         f"dashboard {cpu.get('dashboard', 0) / plies * 1000:.2f} ms")
        if late:
            res.notes.append(f"the bench published {late} plies more than 50 ms after their instant (it was busy)")
        res.via_snapshot = sum(r.via_snapshot for r in recorders)
        res.recorders = len(recorders)
        res.recorders_lost = sum(1 for r in recorders if r.lost())
        for r in recorders:
            if r.error:
                res.notes.append(f"recorder: {r.error}")
    finally:
        await stop_profilers(profilers)
        await probe.close()


async def stop_profilers(profilers) -> None:
    """Stop py-spy (SIGINT makes it write its profile), waiting up to 20 s each."""
    for prof in profilers:
        with contextlib.suppress(ProcessLookupError):
            prof.send_signal(signal.SIGINT)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(prof.wait(), 20)


async def start_profilers(args, backend: str, n: int | str, procs: list[Proc], rate: int = 100):
    """py-spy (raw folded stacks at ``rate`` Hz) on each of ``procs``, into
    ``--profile``/``{backend}-{n}-{name}.txt``; returns the py-spy processes once they attached."""
    out = []
    Path(args.profile).mkdir(parents=True, exist_ok=True)
    for p in procs:
        dest = Path(args.profile) / f"{backend}-{n}-{p.name}.txt"
        out.append(await asyncio.create_subprocess_exec(
            args.py_spy, "record", "-p", str(p.proc.pid), "-r", str(rate), "--format", "raw", "-o", str(dest),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL))
    await asyncio.sleep(1.0)  # py-spy attaches
    return out


# ----- report --------------------------------------------------------------------------------------

def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def table(results: list[Result]) -> str:
    head = (f"{'backend':<16}{'fan-out':<10}{'boards':>7}{'spect':>7}{'at end':>7}{'p50 ms':>9}{'p99 ms':>9}"
            f"{'max ms':>9}{'hop p50':>9}{'hop p99':>9}{'p99/hop':>9}  {'log p50':>8}{'log p99':>8}  {'samples':>8} "
            f"{'lost':>5} {'snap':>6} {'KB/spect':>9} {'fan-out cpu/s':>14} {'fan p50':>8} {'fan p99':>8}"
            f"  cpu/s gw+dash+nginx+spect+bench")
    lines = [head, "-" * len(head)]
    for r in results:
        if r.error:
            lines.append(f"{r.backend:<16}{r.fanout:<10}{r.boards:>7}  FAILED: {r.error}")
            continue
        p99, hop99 = pct(r.venue, 0.99), pct(r.hop, 0.99)
        cpu = "+".join(f"{r.cpu.get(k, 0):.2f}" for k in ("gateway", "dashboard", "nginx", "spectators", "bench"))
        fan_cpu = r.cpu.get("dashboard", 0) + r.cpu.get("nginx", 0)
        at_end = "?" if r.connected_end is None and r.spectators > r.recorders else (
            (r.connected_end or 0) + r.recorders - r.recorders_lost)
        lines.append(f"{r.backend:<16}{r.fanout:<10}{r.boards:>7}{r.spectators:>7}{at_end:>7}"
                     f"{pct(r.venue, .5):>9.1f}{p99:>9.1f}"
                     f"{max(r.venue, default=float('nan')):>9.1f}{pct(r.hop, .5):>9.1f}{hop99:>9.1f}"
                     f"{p99 / hop99 if hop99 > 0 else float('nan'):>8.1f}x  {pct(r.logged, .5):>8.1f}"
                     f"{pct(r.logged, .99):>8.1f}  {len(r.venue):>8} {r.lost:>5} {r.via_snapshot:>6} "
                     f"{r.rss_per_spectator_kb:>9.1f} {fan_cpu:>14.2f} {pct(r.fan, .5):>8.1f} {pct(r.fan, .99):>8.1f}"
                     f"  {cpu}")
    return "\n".join(lines)


def summary(results: list[Result]) -> str:
    """The spectators' rows side by side (issue 31): each row's p99 and memory against the ``baseline``
    fan-out's row with the same slow share, and against its own fan-out without slow spectators."""
    ok = [r for r in results if not r.error and r.spectators]
    if not any(r.slow for r in ok) and not any(r.fanout == "baseline" for r in ok):
        return ""

    def find(fanout: str, slow: float, boards: int) -> Result | None:
        return next((r for r in ok if r.fanout == fanout and r.slow == slow and r.boards == boards), None)

    head = (f"{'fan-out':<10}{'boards':>7}{'slow':>6}{'spect':>8}{'at end':>8}{'slow at end':>12}{'KB/spect':>9}"
            f"{'RSS end MB':>11}{'p50 ms':>8}{'p99 ms':>8}{'p99 vs baseline':>16}{'p99 vs no slow':>15}"
            f"{'RSS vs no slow':>15}")
    lines = [head, "-" * len(head)]
    for r in ok:
        base, calm = find("baseline", r.slow, r.boards), find(r.fanout, 0.0, r.boards)
        p99 = pct(r.venue, .99)
        vs_base = f"{p99 / pct(base.venue, .99):.2f}x" if base and base is not r else "-"
        vs_calm = f"{p99 / pct(calm.venue, .99):.2f}x" if calm and calm is not r else "-"
        rss = f"{(r.dashboard_rss_kb - calm.dashboard_rss_kb) / 1024:+.0f} MB" if calm and calm is not r else "-"
        at_end = (r.connected_end or 0) + r.recorders - r.recorders_lost
        lines.append(f"{r.fanout:<10}{r.boards:>7}{r.slow:>6g}{r.spectators:>8}{at_end:>8}"
                     f"{(r.slow_at_end if r.slow else '-'):>5}/{(r.slow_connected if r.slow else '-'):<6}"
                     f"{r.rss_per_spectator_kb:>9.1f}{r.dashboard_rss_kb / 1024:>11.0f}{pct(r.venue, .5):>8.0f}"
                     f"{p99:>8.0f}{vs_base:>16}{vs_calm:>15}{rss:>15}")
    return "\n".join(lines)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="10 and 100 boards, 100 spectators, 10 waves")
    p.add_argument("--boards", default=None, help="board counts, comma-separated (default 10,100,1000)")
    p.add_argument("--spectators", type=int, default=None, help="spectators connected (default 1000)")
    p.add_argument("--recorders", type=int, default=4, help="of them, recording in this process (default 4)")
    p.add_argument("--waves", type=int, default=None, help="counted waves per config (default 20)")
    p.add_argument("--warmup", type=int, default=2, help="waves not counted first (default 2)")
    p.add_argument("--gap", type=float, default=0.25, help="pause between waves, s (default 0.25)")
    p.add_argument("--wave-timeout", type=float, default=8.0, help="give up on a wave after s (default 8)")
    p.add_argument("--drain", type=float, default=15.0,
                   help="after the last wave, wait up to s for late deliveries (default 15)")
    p.add_argument("--backends", default="mosquitto+redis,embedded")
    p.add_argument("--mosquitto", choices=("deploy", "system"), default="deploy",
                   help="deploy (default): the bench starts a Mosquitto with deploy/mosquitto/mosquitto.conf's "
                        "tuning (Nagle off, 200 in flight) on a free port, as a venue runs it; system: the "
                        "broker already on 127.0.0.1:1883 (or BENCH_MQTT_PORT) with its own settings")
    p.add_argument("--budget", type=float, default=None, help="whole run, s (default 900; burst 450)")
    p.add_argument("--no-deflate", action="store_true",
                   help="spectators do not offer permessage-deflate (browsers do; default: offer it)")
    p.add_argument("--spread", type=float, default=0.0,
                   help="paced mode: spread each wave's publishes evenly over s seconds (an even rate of "
                        "boards/s msg/s) instead of all at once (default 0: at once)")
    p.add_argument("--load", choices=("hall", "burst"), default="hall",
                   help="hall (default): every board plays a real rapid or blitz game at its real pace "
                        "(bench/_latency_hall.py); burst: waves, every board moving in the same instant")
    p.add_argument("--pace", choices=("rapid", "blitz"), default="rapid",
                   help="hall: the World Cup 2025 games replayed: rapid (default; 15+10 and 10+10) or blitz "
                        "(5+3 and 3+2)")
    p.add_argument("--duration", type=float, default=None, help="hall: counted seconds (default 30)")
    p.add_argument("--warmup-s", type=float, default=5.0, help="hall: seconds not counted first (default 5)")
    p.add_argument("--speed", type=float, default=1.0, help="hall: replay speed factor (default 1: real pace)")
    p.add_argument("--stagger", type=float, default=3.0,
                   help="hall: boards start within this many seconds (default 3)")
    p.add_argument("--watch", choices=("pages", "games", "all"), default="pages",
                   help="what each passive spectator follows: pages (default): the hall page of its "
                        "spectator number's page of 50 boards (/ws/live?boards=LO-HI); games: one "
                        "game's page; all: every board (/ws/live). The recording ones follow every board")
    p.add_argument("--parse-spectators", dest="raw_spectators", action="store_false",
                   help="passive spectators are websockets clients that parse every frame (default: they "
                        "make the handshake and then only drain their sockets, the same work for the "
                        "server, a third of the CPU for this machine)")
    p.add_argument("--queue-cap", type=int, default=0,
                   help="what-if: the dashboard's per-spectator queue cap (default: the app's own)")
    p.add_argument("--profile", metavar="DIR", help="py-spy the gateway and dashboard at the largest N")
    p.add_argument("--fanout", default="grouped",
                   help="the dashboard's spectator hub, comma-separated candidates measured side by side on "
                        "the same load: grouped (default, the product's: one frame per page and tick) and "
                        "per-delta (the hub before issue 15: one frame per delta and spectator); nchan: "
                        "nginx + nchan (one worker) in front, fed the hub's page bodies (bench/_latency_nchan.py; "
                        "apt-get install -y nginx libnginx-mod-nchan); what-if: grouped-xF, the grouped hub "
                        "with GROUP_FACTOR F (e.g. grouped-x0.5); baseline: the grouped dashboard of --baseline-code's tree")
    p.add_argument("--baseline-code", default=str(REPO),
                   help="--fanout baseline: the tree whose dashboard (its bench/_latency_services.py and code) "
                        "is measured as the baseline, e.g. a `git worktree add --detach DIR COMMIT` of the "
                        "commit before a change")
    p.add_argument("--group-s", type=float, default=None, help="grouped: the shortest tick, s (default: the app's)")
    p.add_argument("--slow", default="0",
                   help="shares of the passive spectators that read slowly, comma-separated, each measured as a "
                        "row (e.g. 0,0.1: without and with a slow tenth); needs the default byte-level spectators")
    p.add_argument("--slow-rate", type=float, default=4096,
                   help="a slow spectator's bytes per second (default 4096: a weak mobile link of 32 kbit/s, "
                        "slower than a busy hall page's 5-10 KB/s)")
    p.add_argument("--client-procs", type=int, default=0,
                   help="processes the passive spectators run in (default: one per 5,000)")
    p.add_argument("--no-hop", dest="hop", action="store_false",
                   help="hall: skip the bare MQTT hop baseline (halves the run; its columns read nan)")
    p.add_argument("--verbose", action="store_true", help="print each phase's time")
    p.add_argument("--py-spy", default=shutil.which("py-spy"), help="py-spy binary")
    add_lock_option(p)
    a = p.parse_args(argv)
    a.boards = [int(x) for x in (a.boards or ("10,100" if a.quick else "10,100,1000")).split(",")]
    a.spectators = a.spectators if a.spectators is not None else (100 if a.quick else 1000)
    a.waves = a.waves or (10 if a.quick else 20)
    a.duration = a.duration or (15.0 if a.quick else 30.0)
    a.budget = a.budget or (900.0 if a.load == "hall" else 450.0)
    a.recorders = max(1, min(a.recorders, a.spectators or 1))
    a.backends = [b.strip() for b in a.backends.split(",") if b.strip()]
    a.fanout = [f.strip() for f in a.fanout.split(",") if f.strip()]
    a.slow = [float(x) for x in a.slow.split(",") if x.strip()] or [0.0]
    if any(not 0 <= x < 1 for x in a.slow):
        p.error("--slow: shares within [0, 1)")
    for f in a.fanout:
        if f not in ("grouped", "per-delta", "nchan", "baseline") and not f.startswith("grouped-x"):
            p.error(f"unknown fan-out {f!r} (grouped, per-delta, nchan, baseline)")
        if f == "baseline" and not (Path(a.baseline_code) / "bench" / "_latency_services.py").is_file():
            p.error(f"--fanout baseline: no bench/_latency_services.py under --baseline-code {a.baseline_code}")
    for b in a.backends:
        if b not in ("mosquitto+redis", "embedded"):
            p.error(f"unknown backend {b!r}")
    if a.profile and not a.py_spy:
        p.error("--profile needs py-spy (pip install py-spy into a venv of its own; --py-spy PATH)")
    return a


async def main(argv=None) -> int:
    args = parse_args(argv)
    hold_machine_lock(args.lock)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    t_begin = time.perf_counter()
    budget_end = t_begin + args.budget
    load = os.getloadavg()
    print(f"bench_latency: {', '.join(args.backends)}; boards {args.boards}; {args.spectators} spectators "
          f"({args.recorders} recording); {args.waves} waves (+{args.warmup} warm-up)", flush=True)
    games = world_cup_games(WORLD_CUP, args.pace) if args.load == "hall" else load_games(args.warmup + args.waves)
    results: list[Result] = []
    tmp = Path(tempfile.mkdtemp(prefix="venue-bench-latency-"))
    stack = contextlib.AsyncExitStack()
    try:
        for backend in args.backends:
            if backend == "mosquitto+redis":
                try:
                    if args.mosquitto == "deploy":
                        global MOSQUITTO
                        broker = await stack.enter_async_context(deploy_mosquitto(tmp))
                        MOSQUITTO, tuning = broker
                        print(f"  Mosquitto with deploy/mosquitto's tuning on port {MOSQUITTO[1]}: "
                              f"{'; '.join(tuning)}", flush=True)
                    await check_tcp(*MOSQUITTO, "Mosquitto")
                    await check_redis()
                except ServiceError as exc:
                    results += [Result(backend, n, error=f"{exc} (skipped)") for n in args.boards]
                    print(f"  {backend}: {exc}: skipped", flush=True)
                    continue
            for n in args.boards:
                for fanout, slow in [(f, sl) for f in args.fanout for sl in args.slow]:
                    now = time.perf_counter()
                    if now > budget_end - 10:
                        results.append(Result(backend, n, fanout=fanout, slow=slow,
                                              error="skipped: the run's time budget is spent"))
                        continue
                    deadline = min(budget_end, now + CONFIG_CAP_S.get(n, 150) * (0.6 if args.quick else 1))
                    print(f"  {backend:<16} {fanout:<10} {n:>5} boards{f', slow {slow:g}' if slow else ''} ...",
                          end="", flush=True)
                    r = await run_config(backend, n, args, games, tmp, deadline, fanout, slow)
                    results.append(r)
                    status = f"FAILED: {r.error}" if r.error else f"p99 {pct(r.venue, .99):.1f} ms"
                    print(f" {status} ({r.seconds:.0f} s)", flush=True)
    finally:
        await stack.aclose()
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    print(table(results))
    print()
    if summary(results):
        print(summary(results))
        print()
    for r in results:
        if r.handled:
            print(f"stages {r.backend} {r.boards}: publish -> gateway handles (entry 'at', 1 ms steps) "
                  f"p50 {pct(r.handled, .5):.1f} p99 {pct(r.handled, .99):.1f}; -> readable in the log "
                  f"p50 {pct(r.logged, .5):.1f} p99 {pct(r.logged, .99):.1f}; -> on a spectator "
                  f"p50 {pct(r.venue, .5):.1f} p99 {pct(r.venue, .99):.1f} ms")
    for r in results:
        for note in r.notes:
            print(f"note {r.backend} {r.boards}: {note}")
    dropped = [r for r in results if not r.error and r.dropped]
    for r in results:
        if not r.error and r.spectators:
            print(f"spectators {r.backend} {r.fanout} {r.boards}: {r.connected_start} passive connected, "
                  f"{r.connected_end if r.connected_end is not None else '?'} still connected at the end of the "
                  f"measured window, {r.recorders - r.recorders_lost}/{r.recorders} recorders; {r.pongs} pings "
                  f"answered, {r.frames_received} frames received; dashboard {r.rss_per_spectator_kb:.1f} KB "
                  f"per spectator (RSS after connecting), {r.dashboard_rss_kb / 1024:.0f} MB at the end"
                  + (f"; slow ({r.slow:g}, {args.slow_rate:g} B/s): {r.slow_connected} connected, "
                     f"{r.slow_at_end} still connected at the end, {r.slow_bytes / 1024:.0f} KB read"
                     if r.slow else ""))
    for r in dropped:
        print(f"FAIL: {r.dropped} of {r.spectators} spectators were not connected at the end of the measured "
              f"window ({r.backend} {r.fanout} {r.boards} boards): its figures are not for {r.spectators}")
    big = [r for r in results if r.backend == "mosquitto+redis" and r.boards == 1000 and not r.error]
    if big:
        p99 = pct(big[0].venue, .99)
        print(f"target: p99 < {TARGET_MS:g} ms at 1,000 boards over Mosquitto+Redis: "
              f"{'met' if p99 < TARGET_MS else 'MISSED'} ({p99:.1f} ms)")
    print(f"broker: {'a Mosquitto with the tuning of deploy/mosquitto/mosquitto.conf' if args.mosquitto == 'deploy' else f'the Mosquitto on {MOSQUITTO[0]}:{MOSQUITTO[1]} with its own settings'}")
    print(f"settings: {args.spectators} spectators on /ws/live ({args.recorders} recording in the bench "
          f"process, the rest reading in a subprocess; permessage-deflate "
          f"{'off' if args.no_deflate else 'offered, as browsers do'}; spectator queue cap "
          f"{args.queue_cap or 'default'}); one MQTT connection per board, QoS 1, "
          f"no feedback subscription; "
          + (f"load hall: every board plays a FIDE World Cup 2025 {args.pace} game at {args.speed:g}x its real pace "
             f"(boards start within {args.stagger:g} s; {args.duration:g} s counted after {args.warmup_s:g} s); "
             f"passive spectators follow {args.watch} ({'handshake, then drain' if args.raw_spectators else 'parsing every frame'}); "
             if args.load == "hall" else
             f"load burst: {f'each wave spread over {args.spread:g} s' if args.spread else 'each wave published at once'}; "
             f"{args.waves} counted waves (+{args.warmup} warm-up), "
             f"{args.gap:g} s apart, wave timeout {args.wave_timeout:g} s; ")
          + f"samples = recording spectators x "
          f"plies; log = publish to the entry readable by a log follower in the bench process (the "
          f"dashboard's input); fan = from readable in the log to a recording spectator (the dashboard and its fan-out alone); lost = never received (after a {args.drain:g} s drain); snap = plies first seen in a snapshot (queue "
          f"overflow, F12); cpu/s = CPU seconds per wall second of each process during the venue waves.")
    print(f"machine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start "
          f"(shared with other work: figures are noisy); Python {sys.version.split()[0]}; "
          f"run took {time.perf_counter() - t_begin:.0f} s")
    return 0 if all(not r.error for r in results) and not dropped else 1


if __name__ == "__main__":
    from venue.serve import (
        run,  # the services' event loop (uvloop) for the load generator too
    )

    sys.exit(run(main()))
