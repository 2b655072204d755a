"""The gateway's headroom: CPU per ply and publish-to-append latency, beside main's gateway.

Issue 15 "A gateway with headroom". For each configuration the bench starts the gateway (or several
shards of it) as subprocesses of this script (``serve`` mode: the product's ``gateway.Gateway``
over Mosquitto + Redis, exactly as ``venue gateway`` runs it, on uvloop), sets up a round of N boards
(``round_started`` through the product's ``round_from_pgn``), connects one MQTT client per board
(``bench/_latency_clients.Boards``) and replays the hall load of ``bench/_latency_hall.py``: every
board plays a real FIDE World Cup 2025 game at its real pace (``rapid``: 15+10 and 10+10; ``blitz``:
5+3 and 3+2). No dashboard, no spectators: the gateway alone.

Per row:

- **CPU/ply**: the gateway processes' CPU time (user + system, /proc) over the measured window
  (warm-up included, set-up excluded) divided by the plies published in it;
- **plies/s**: the plies published per second of that window;
- **append p50/p99**: a ply's MQTT publish (this process) to its ``move_played`` readable in the
  log by a follower in this process (``XREAD BLOCK``), both ``time.perf_counter()``; plies from the
  warm-up on are counted. ``lost``: counted plies never appended (after a 15 s drain).

The baseline is main's gateway (``--baseline-code``, default the repository's main checkout: the
first of ``git worktree list``, bench/_checkout.py) run by the same ``serve`` mode, in the same run,
on the same load: each row prints it beside this tree's figure and the ratio. ``2 shards`` rows split the boards in two board
ranges (``Gateway(boards=...)``), one process each, on one log.

``--floor``: the baseline is the floor (``bench/_floor_gateway.py``: the least a Python gateway does per
ply, with this tree's MQTT client and log, on the same load), to say how far the product is from it.

``--repeat N``: on this shared machine one run's CPU/ply moves by a third from run to run (0.47 to
0.70 ms for the same code), so each configuration is run N times per code, the order alternated
(this, main, then main, this, ...) so that a drift of the machine hits both codes alike. The row then
gives each code's median CPU/ply and plies/s, the ratio of the medians, p50/p99 pooled over the
runs' plies and ``lost`` summed; a ``runs`` line under it lists every run's CPU/ply in run order.
With N = 1 (the default) the table is the single run's, as before.

``--tournament-file FILE.toml`` (e.g. events/us-championship-2023.toml): the gateways run under that
file's regulations as a venue's does: what ``venue gateway --tournament FILE.toml --round-start now``
does (venue/serve.py ``run_gateway``, venue/start_up.py), i.e. the file's ``tournament_registered``
in the log and ``Gateway(tournament=<the file>)``; the gateway's timer then looks at every game on
every tick for the default time, move timers, time trouble and clock disagreements. The round is the
same World Cup round (``round_from_pgn``) with its start now in ``round_started`` (``start_ms``:
the file schedules round 1 in 2023, and 30 minutes of default time, FIDE Laws 6.7.1, would forfeit
every game at the first tick), and the arbiter checks every player in at the start
(``player_arrived``): the players are at their boards, so no default and no fine for not being at
the board (US 2023 rule 1) is due in the window. Each board's clock plays too, as a venue's does
(``clock_messages``): a ``start`` when White's first thinking time begins, a ``press`` 2 ms after
every ply, with the figures the control gives for the thinking times played; without them every
ply would be a ``move_without_press`` clock disagreement 5 s later (FIDE Laws 6.2.1; ~0.75 extra
entries per ply). Such a row's CPU/ply is therefore per ply of two messages (move and press):
compare it with its own baseline, not with rows without the file. Rows are labelled with the file (``1000 blitz
us-ch-2023``). Every row notes the ``game_ended`` entries of its window (and the count of every other
entry type but ``move_played``): a row whose games the regulations ended shows it (its plies after
the end are refused and counted ``lost``).

A Mosquitto with the tuning of deploy/mosquitto/mosquitto.conf is started on a free port (as
``bench_latency.py`` does); Redis is the one on 127.0.0.1:6379 (keys of a unique slug, deleted after).
Heavy: it holds the machine lock while it runs (``--lock PATH``, default the repository's
``.git/bench.lock``; bench/_checkout.py). ``--quick``: 100 boards rapid, 15 s. ``--profile DIR``:
py-spy records each gateway (raw folded stacks) at the largest board count.

What-ifs (not the product's settings), to say where the time goes: ``BENCH_GATEWAY_WHATIF`` =
``FLUSH_EVERY_S=0.02`` (any constant of gateway/service.py), ``feedback=off``, ``tick=off``,
``checkin=off`` (with ``--tournament-file``: no check-in, each player arrives with a first move)
(comma-separated); ``BENCH_GATEWAY_CPROFILE=DIR`` writes a cProfile of each gateway (slow: it
inflates Python-heavy code several times; ``BENCH_GATEWAY_CPROFILE_CPU=1``: in thread CPU time, not wall
time). ``BENCH_GATEWAY_SECTIONS=1``: each gateway's synchronous parts timed in
thread CPU per message (``bench/_sections.py``; a ``SECTIONS`` note). Each gateway's STATS line (printed as a note) has its
counts and the garbage collector's pauses.

Usage: ``bench/bench_gateway.py [--quick] [--boards 100,1000] [--paces rapid,blitz] [--shards 2x1000]
[--duration S] [--warmup-s S] [--baseline-code DIR | --floor | --no-baseline] [--repeat N]
[--tournament-file FILE.toml] [--profile DIR] [--lock PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import shutil
import signal
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from _checkout import add_lock_option, hold_machine_lock, main_checkout

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
TARGET_CPU_MS = 0.3
TARGET_P99_MS = 25.0


# ----- serve mode: one gateway process (this tree's code or the baseline's) --------------------------

async def serve(args) -> int:
    """Run one gateway until SIGTERM/stdin closes; ``READY <code>`` once subscribed, ``STATS`` after."""
    from _latency_services import _say, _until_stopped  # noqa: PLC0415 (REPO is put on sys.path first)

    from gateway import Gateway
    from services.eventlog import open_log

    import gc

    pauses = {"gc runs": 0, "gc longest ms": 0.0, "gc total ms": 0.0}
    began = [0.0]

    def timed(phase, info) -> None:  # the collector's pauses (a long one delays every message)
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            ms = (time.perf_counter() - began[0]) * 1000
            pauses["gc runs"] += 1
            pauses["gc total ms"] = round(pauses["gc total ms"] + ms, 1)
            pauses["gc longest ms"] = round(max(pauses["gc longest ms"], ms), 1)

    gc.callbacks.append(timed)
    log = open_log(args.store, args.tournament)
    options = {"boards": args.boards} if args.boards else {}
    if args.tournament_file:  # as ``venue gateway --tournament FILE.toml``: the file's rules in force
        from venue.tournament import load_file

        options["tournament"] = load_file(args.tournament_file)
    if args.floor:
        from _floor_gateway import FloorGateway

        gateway = FloorGateway(log, args.mqtt, args.tournament, args.client_id)
    else:
        gateway = Gateway(log, args.mqtt, args.tournament, client_id=args.client_id, **options)
    for what in filter(None, os.environ.get("BENCH_GATEWAY_WHATIF", "").split(",")):  # where the time goes
        name, _, value = what.partition("=")
        if name == "feedback" and value == "off":
            gateway._publish_feedback = lambda feedback: None  # noqa: SLF001 - what-if only
        elif name == "tick" and value == "off":
            gateway.hall.tick = lambda now: __import__("gateway.hall").hall.Step()
        elif name == "checkin":
            pass  # the bench's set-up (``log_set_up``), not the gateway's
        else:
            setattr(sys.modules["gateway.service"], name, float(value))  # e.g. FLUSH_EVERY_S=0.02
    sections = _wrap_sections() if os.environ.get("BENCH_GATEWAY_SECTIONS") else None
    task = asyncio.create_task(gateway.run(), name="gateway")
    ready = asyncio.create_task(gateway.ready.wait())
    done, _ = await asyncio.wait({task, ready}, timeout=40, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        why = (task.exception() if task.done() and not task.cancelled() else None) or "not ready in 40 s"
        _say(f"FAILED gateway: {why}")
        return 2
    import gateway as code

    _say(f"READY {Path(code.__file__).resolve().parent.parent}")
    if sections is not None:
        sections.reset()
        handled = gateway.counts["messages"]
    await _until_stopped()
    if sections is not None:
        pauses["sections (us CPU, calls) per message"] = sections.report(gateway.counts["messages"] - handled)
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    await log.close()
    _say("STATS " + json.dumps(gateway.counts | pauses))
    return 0


def _wrap_sections():
    """``BENCH_GATEWAY_SECTIONS=1``: the gateway's synchronous parts timed in thread CPU
    (``bench/_sections.py``), each section's own time, per message handled, in the STATS note. Costs a few clock reads a section call (~0.5 us each)."""
    import redis.asyncio.connection as rconn
    from _sections import Sections

    import gateway.decide
    import gateway.hall
    import gateway.mqtt_client
    import gateway.service
    import services.eventlog._appends
    import services.eventlog.redis
    import services.rules.chess_game
    import services.state.fold

    s = Sections()
    mc, svc, hall = gateway.mqtt_client.MqttClient, gateway.service.Gateway, gateway.hall
    for owner, name, label in [
        (mc, "data_received", "mqtt: read and parse packets"), (mc, "ack", "mqtt: PUBACK"),
        (mc, "publish", "mqtt: publish feedback"), (mc, "flush", "mqtt: write"),
        (svc, "_enqueue", "gateway: queue a message"), (svc, "_receive", "gateway: receive (glue)"),
        (svc, "_take", "gateway: take a step"), (svc, "_publish_feedback", "gateway: encode feedback"),
        (hall.Hall, "handle", "hall: handle (rest)"), (hall, "parse", "hall: parse the payload"),
        (gateway.decide.Decider, "play", "hall: decide a move (rest)"),
        (services.rules.chess_game.ChessGame, "play", "rules: ChessGame.play"),
        (services.state.fold.HallState, "apply_event", "fold: apply_event"),
        (hall.Turn, "answers", "hall: regulations' answers"),
        (hall.Hall, "tick", "timer: Hall.tick"), (hall.Hall, "external", "follow: Hall.external"),
        (services.eventlog._appends, "make_rows", "log: make rows"),
        (services.eventlog.redis, "_encode", "log: encode rows"),
        (rconn.AbstractConnection, "pack_command", "redis: pack command"),
        (services.eventlog.redis, "_xread_items", "follow: XREAD items"),
    ]:
        s.wrap(owner, name, label)
    return s


def serve_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="bench_gateway.py serve")
    p.add_argument("--code", required=True, help="the repository whose gateway runs")
    p.add_argument("--store", required=True)
    p.add_argument("--tournament", required=True)
    p.add_argument("--mqtt", required=True)
    p.add_argument("--client-id", required=True)
    p.add_argument("--boards", default=None, help="this shard's boards (SPEC); none: all")
    p.add_argument("--tournament-file", default=None, help="a tournament file (TOML) whose rules apply")
    p.add_argument("--floor", action="store_true", help="run bench/_floor_gateway.py instead of the gateway")
    args = p.parse_args(argv)
    code = str(Path(args.code).resolve())
    sys.path.insert(0, code)  # the code's own packages first: main's gateway runs with main's services
    import dashboard.pages  # noqa: F401 - what _latency_services imports, from the code's tree
    import gateway.service  # noqa: F401
    import services.eventlog  # noqa: F401
    from venue.serve import quiet_logs, run

    sys.path.insert(0, str(BENCH))
    import _latency_services  # noqa: F401 - puts REPO first on sys.path: the code's tree goes first again

    sys.path.insert(0, code)

    quiet_logs()
    if not os.environ.get("BENCH_GATEWAY_CPROFILE"):
        return run(serve(args))
    import cProfile  # what-if: call counts per ply (BENCH_GATEWAY_CPROFILE=DIR; slows the gateway down)

    # wall time by default (a send that wakes Redis on this core counts the time Redis then runs);
    # BENCH_GATEWAY_CPROFILE_CPU=1 counts this thread's CPU time instead (CLOCK_THREAD_CPUTIME_ID)
    prof = cProfile.Profile(time.thread_time) if os.environ.get("BENCH_GATEWAY_CPROFILE_CPU") else cProfile.Profile()
    try:
        return prof.runcall(run, serve(args))
    finally:
        prof.dump_stats(str(Path(os.environ["BENCH_GATEWAY_CPROFILE"]) / f"{args.client_id}.prof"))


# ----- the bench ---------------------------------------------------------------------------------

@dataclass
class Row:
    """One configuration run with one code: figures, or ``error``. ``run``: which run of the
    configuration (1-based, ``--repeat``); ``ended``: the ``game_ended`` entries of the window."""

    code: str
    boards: int
    pace: str
    shards: int = 1
    cpu_ms: float = float("nan")
    plies_s: float = float("nan")
    appended: list[float] = field(default_factory=list)
    lost: int = 0
    ended: int = 0
    run: int = 1
    error: str | None = None
    notes: list[str] = field(default_factory=list)


def cpu_split(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of process ``pid`` so far (/proc), (0, 0) when unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, IndexError, ValueError):
        return 0.0, 0.0


def shard_specs(n: int, shards: int) -> list[str | None]:
    """``shards`` board ranges covering boards 1..n evenly (None: one gateway for every board)."""
    if shards <= 1:
        return [None]
    step = -(-n // shards)
    return [f"{lo}-{min(lo + step - 1, n)}" for lo in range(1, n + 1, step)]


async def start_gateway(name: str, code: Path, store: str, slug: str, mqtt: str, boards: str | None,
                        tmp: Path, tournament_file: str | None = None, floor: bool = False):
    """A ``serve`` subprocess (``bench_latency.Proc``), once it printed READY; ``tournament_file``:
    the gateway runs under that file's regulations (``Gateway(tournament=...)``)."""
    from bench_latency import launch

    cmd = [sys.executable, str(Path(__file__).resolve()), "serve", "--code", str(code), "--store", store,
           "--tournament", slug, "--mqtt", mqtt, "--client-id", f"venue-gateway-{slug}-{name}"]
    if boards:
        cmd += ["--boards", boards]
    if tournament_file:
        cmd += ["--tournament-file", tournament_file]
    if floor:
        cmd += ["--floor"]
    return await launch(name, cmd, tmp, 60)


async def run_row(row: Row, code: Path, args, games, mqtt: tuple[str, int], tmp: Path) -> None:
    """Play the hall load of ``row`` against gateway code ``code``; fills ``row``."""
    import bench_latency as bl
    from _latency_clients import Boards
    from _latency_hall import round_pgn, schedule

    from services.arbiter_office.setup import round_from_pgn

    slug = f"bench-gw-{uuid.uuid4().hex[:8]}"
    pgn_text, hall = round_pgn(row.boards, games)
    setup = round_from_pgn(pgn_text)
    moves = {b: g.moves for b, g in hall.items()}
    window = args.warmup_s + args.duration
    events = schedule(hall, speed=1.0, stagger=3.0, until=window)
    gid = {g["board"]: g["id"] for g in setup["games"]}
    mqtt_url = f"mqtt://{mqtt[0]}:{mqtt[1]}"
    gateways, boards, probe, profilers = [], None, None, []
    try:
        set_up = await log_set_up(slug, setup, args.tournament)
        for i, spec in enumerate(shard_specs(row.boards, row.shards)):
            gateways.append(await start_gateway(f"gw{i + 1}", code, bl.REDIS_URL, slug, mqtt_url, spec, tmp,
                                                args.tournament_file, floor=args.floor and row.code == "main"))
            row.notes.append(f"gw{i + 1}: the gateway of {gateways[-1].ready}" + (f", boards {spec}" if spec else ""))
        boards = Boards(mqtt[0], mqtt[1], list(moves), prefix=slug)
        await boards.connect()
        probe = bl.LogProbe(bl.REDIS_URL, slug)
        if args.profile and row.boards == max(args.boards):
            profilers += await bl.start_profilers(args, f"{row.code}-{row.boards}-{row.pace}", f"{row.shards}sh",
                                                  gateways, rate=200)
        body = lambda b, ply: json.dumps({"seq": ply, "move": moves[b][ply - 1], "sent_at": bl.rfc3339_now()})  # noqa: E731
        split0 = [cpu_split(p.proc.pid) for p in gateways]
        t0 = time.perf_counter()
        clocks = None
        if args.tournament is not None:  # a venue's clocks: the regulations' clock model checks them
            presses = clock_messages(hall, events, slug)
            clocks = asyncio.create_task(play_clocks(boards, presses, t0, t0 + window + 30))
            row.notes.append(f"clock messages: {len(presses)} (a start per board, a press after every ply)")
        sent = await bl.play_hall(boards, events, lambda b: f"venue/{slug}/boards/{b}/move", body, 0.0,
                                  t0 + window + 30, lambda sent: all((gid[b], p) in probe.seen for b, p in sent),
                                  drain_s=0.0)
        if clocks is not None:
            await clocks
        span = time.perf_counter() - t0
        split = [cpu_split(p.proc.pid) for p in gateways]  # the load's window only
        user = sum(u for u, _ in split) - sum(u for u, _ in split0)
        system = sum(s for _, s in split) - sum(s for _, s in split0)
        cpu = user + system
        end = time.perf_counter() + 15
        while time.perf_counter() < end and not all((gid[b], p) in probe.seen for b, p in sent):
            await asyncio.sleep(0.05)
        row.appended, row.lost = bl.hall_latencies(sent, lambda: [probe.seen], lambda b, p: (gid[b], p))
        handled, _ = bl.hall_latencies(sent, lambda: [probe.handled], lambda b, p: (gid[b], p))
        if handled:  # the gateway's own stamp on the entry: how much of the p99 is the wait before it
            row.notes.append(f"publish -> handled by the gateway (its move_played's at, ms clock): p50 "
                             f"{bl.pct(handled, .5):.1f} ms, p99 {bl.pct(handled, .99):.1f} ms")
        row.cpu_ms = cpu / len(sent) * 1000 if sent else float("nan")
        row.plies_s = len(sent) / span if span > 0 else float("nan")
        if sent:
            row.notes.append(f"CPU per ply: user {user / len(sent) * 1000:.3f} ms, system {system / len(sent) * 1000:.3f} "
                             f"ms ({len(sent)} plies, {span:.1f} s)")
        if bl.sent_late[0]:
            row.notes.append(f"the bench published {bl.sent_late[0]} plies > 50 ms late (it was busy)")
        row.ended, others = await window_entries(slug, set_up)
        row.notes.append(f"games ended in the window: {row.ended} of {len(setup['games'])} (game_ended entries)"
                         + (f"; other entries besides move_played: {others}" if others else ""))
    except Exception as exc:  # noqa: BLE001 - one row failing must not stop the others
        row.error = f"{type(exc).__name__}: {exc}"
    finally:
        for prof in profilers:
            with contextlib.suppress(ProcessLookupError):
                prof.send_signal(signal.SIGINT)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(prof.wait(), 30)
        if probe:
            await probe.close()
        if boards:
            await boards.close()
        for p in gateways:
            await bl.stop(p)
            if p.stats:
                row.notes.append(f"{p.name}: " + ", ".join(f"{k} {v}" for k, v in p.stats.items() if v))
            await bl.cleanup_mqtt_session(*mqtt, f"venue-gateway-{slug}-{p.name}")
        await bl.cleanup_redis(slug)
        await _cleanup_identity(slug)


def clock_messages(hall: dict, events, slug: str, after_s: float = 0.002) -> list[tuple[float, str, str, str]]:
    """The clocks' messages for the load ``events`` (``[(s from the start, board, ply)]``, moves of
    ``hall``: board -> ``_latency_hall.HallGame``), as a venue's clock sends them (docs/protocol.md
    ``clock``, as ``devices.station`` plays them): ``start`` with White's clock running at the
    instant White's first thinking time began, then ``after_s`` after each ply its ``press`` (seq:
    the clock's own, 1 for the start). The figures are what a correct clock shows for the thinking
    times played: the game's TimeControl (base + increment per move, the World Cup's) applied to
    them. (The games' own ``[%clk]`` figures differ where a thinking time was read as 0: 5:05 after
    a 5+3 game's first move is 2 s above the control's 5:03, which the regulations' clock model
    would report once per game as a ``time`` difference.) Returns ``[(s from the start, board,
    topic, payload)]`` in time order."""
    out, shown = [], {}
    for t, b, ply in events:
        g = hall[b]
        topic = f"venue/{slug}/boards/{b}/clock"
        base, _, inc = g.headers["TimeControl"].partition("+")
        if ply == 1:
            shown[b] = {"white": int(base) * 1000, "black": int(base) * 1000}
            out.append((t - g.think_ms[0] / 1000, b, topic, json.dumps(
                {"seq": 1, "event": "start", **{f"{k}_ms": v for k, v in shown[b].items()}, "running": "white"})))
        mover = "white" if ply % 2 else "black"
        shown[b][mover] += int(float(inc or 0) * 1000) - g.think_ms[ply - 1]
        out.append((t + after_s, b, topic, json.dumps({"seq": ply + 1, "event": "press", **{
            f"{k}_ms": v for k, v in shown[b].items()}, "running": "black" if mover == "white" else "white"})))
    out.sort(key=lambda m: m[0])
    return out


async def play_clocks(boards, messages, start: float, deadline: float) -> None:
    """Publish each of ``messages`` (``clock_messages``) at its instant after ``start``
    (``time.perf_counter()``), until ``deadline``; not counted as plies."""
    for t, b, topic, payload in messages:
        now = time.perf_counter()
        if now > deadline:
            return
        if start + t > now:
            await asyncio.sleep(start + t - now)
        boards.publish_one(b, topic, payload)


def set_up_entries(setup: dict, t, start_ms: int, checkin: bool = True) -> list[tuple[str, dict, int | None]]:
    """The hall's set-up as log entries ``[(type, data, at)]`` (pure). Without a tournament file
    (``t`` None): the ``round_started`` of ``setup`` alone. With one, what ``venue gateway
    --tournament FILE.toml --round-start now`` writes (``venue.start_up``): the file's
    ``tournament_registered``, then the round with its start ``start_ms`` (now: the file schedules
    round 1 years ago, and its default time, FIDE Laws 6.7.1, would forfeit every game at once),
    then, with ``checkin``, each player's check-in at the start (``player_arrived`` by the arbiter):
    the players are at their boards when the round starts, so no default and no fine for not being
    at the board (US 2023 rule 1) falls due."""
    from services.events import PlayerArrived, RoundStarted, TournamentRegistered
    from services.arbiter_office.tournament_log import tournament_registered_data

    if t is None:
        return [(RoundStarted.TYPE, setup, None)]
    out = [(TournamentRegistered.TYPE, tournament_registered_data(t), start_ms),
           (RoundStarted.TYPE, {**setup, "start_ms": start_ms}, start_ms)]
    if checkin:
        out += [(PlayerArrived.TYPE, {"by": "bench", "game": g["id"], "board": g["board"], "side": side,
                                      "player": g[side], "arrived_at": start_ms}, start_ms)
                for g in setup["games"] for side in ("white", "black")]
    return out


async def log_set_up(slug: str, setup: dict, t) -> int:
    """Append ``set_up_entries`` (the round starting now) to tournament ``slug``'s log; returns the
    log's last seq after them (the entries after it are the window's). ``BENCH_GATEWAY_WHATIF``
    ``checkin=off``: no check-in (each player arrives with a first move or press)."""
    import bench_latency as bl

    from services.eventlog import open_log

    checkin = "checkin=off" not in os.environ.get("BENCH_GATEWAY_WHATIF", "").split(",")
    log = open_log(bl.REDIS_URL, slug)
    try:
        await log.append_many(set_up_entries(setup, t, int(time.time() * 1000), checkin))
        return await log.last_seq()
    finally:
        await log.close()


async def window_entries(slug: str, after: int) -> tuple[int, str]:
    """The log's entries after seq ``after`` (the window's, drain included): how many
    ``game_ended``, and the count of every other type but ``move_played`` (``"type n, ..."``)."""
    import bench_latency as bl

    from services.eventlog import open_log

    log = open_log(bl.REDIS_URL, slug)
    try:
        counts: dict[str, int] = {}
        for e in await log.read(after):
            counts[e.type] = counts.get(e.type, 0) + 1
    finally:
        await log.close()
    ended = counts.pop("game_ended", 0)
    counts.pop("move_played", None)
    return ended, ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


async def _cleanup_identity(slug: str) -> None:
    """Delete the log's identity keys (epoch, batch ids) ``bench_latency.cleanup_redis`` leaves."""
    import redis.asyncio as aioredis

    from services.eventlog.redis import tournament_keys

    client = aioredis.Redis.from_url("redis://127.0.0.1:6379/0", socket_connect_timeout=3)
    with contextlib.suppress(Exception):
        await client.delete(*tournament_keys(slug))
    with contextlib.suppress(Exception):
        await client.aclose()


def _fmt(x: float, spec: str) -> str:
    return "-" if x != x else format(x, spec)


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def label_of(n: int, pace: str, shards: int, tag: str = "") -> str:
    """A configuration's label: ``1000 blitz``, ``1000 blitz 2 shards``, ``1000 blitz us-ch-2023``."""
    return f"{n} {pace}" + (f" {shards} shards" if shards > 1 else "") + (f" {tag}" if tag else "")


def table(rows: list[Row], tag: str = "") -> str:
    """One line per configuration: this tree's figures, main's beside them, the ratio (main / this).
    Several runs of a configuration (``--repeat``): CPU/ply and plies/s are each code's median over
    its runs, p50/p99 pooled over the runs' plies, ``lost`` summed; a ``runs`` line under the row
    gives each run's CPU/ply in run order."""
    from bench_latency import pct

    keyed: dict[tuple, dict[str, list[Row]]] = {}
    for r in rows:
        keyed.setdefault((r.boards, r.pace, r.shards), {}).setdefault(r.code, []).append(r)
    width = max([22] + [len(label_of(*k, tag)) + 1 for k in keyed])
    head = (f"{'config':<{width}}{'CPU/ply ms':>11}{'main':>8}{'ratio':>7}{'plies/s':>9}{'main':>7}"
            f"{'p50 ms':>8}{'main':>8}{'p99 ms':>9}{'main':>9}{'ratio':>7}{'lost':>6}")
    lines = [head, "-" * len(head)]
    for (n, pace, shards), codes in keyed.items():
        label = label_of(n, pace, shards, tag)
        news, bases = codes.get("this", []), codes.get("main", [])
        new = [r for r in news if not r.error]
        base = [r for r in bases if not r.error]
        several = len(news) > 1 or len(bases) > 1
        if not new:
            lines.append(f"{label:<{width}}FAILED: {news[0].error if news else 'not run'}")
            continue
        cpu, plies = _median([r.cpu_ms for r in new]), _median([r.plies_s for r in new])
        appended = [x for r in new for x in r.appended]
        b_appended = [x for r in base for x in r.appended]
        b_cpu, b_plies = _median([r.cpu_ms for r in base]), _median([r.plies_s for r in base])
        p99, b_p99 = pct(appended, .99), pct(b_appended, .99)
        lines.append(f"{label:<{width}}{_fmt(cpu, '.3f'):>11}{_fmt(b_cpu, '.3f'):>8}"
                     f"{_fmt(b_cpu / cpu, '.1f') + 'x':>7}{_fmt(plies, '.0f'):>9}"
                     f"{_fmt(b_plies, '.0f'):>7}{_fmt(pct(appended, .5), '.1f'):>8}"
                     f"{_fmt(pct(b_appended, .5), '.1f'):>8}{_fmt(p99, '.1f'):>9}{_fmt(b_p99, '.1f'):>9}"
                     f"{_fmt(b_p99 / p99, '.1f') + 'x':>7}{sum(r.lost for r in new):>6}")
        if several:
            runs = " / ".join(f"{code} " + " ".join("FAILED" if r.error else _fmt(r.cpu_ms, ".3f") for r in rs)
                              for code, rs in (("this", news), ("main", bases)) if rs)
            lines.append(f"{'':<{width}}runs (CPU/ply ms, in run order): {runs}")
        for code, rs in (("this", news), ("main", bases)):
            for r in rs:
                if r.error and (several or code == "main"):
                    lines.append(f"{'':<{width}}{code} FAILED" + (f" in run {r.run}" if several else "")
                                 + f": {r.error}")
    return "\n".join(lines)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="100 boards, rapid, 15 s counted, no shards")
    p.add_argument("--boards", default=None, help="board counts, comma-separated (default 100,1000)")
    p.add_argument("--paces", default=None, help="rapid,blitz (default both)")
    p.add_argument("--shards", default=None, help="SHARDSxBOARDS rows, comma-separated (default 2x1000 blitz)")
    p.add_argument("--duration", type=float, default=None, help="seconds played after the warm-up (default 25)")
    p.add_argument("--warmup-s", type=float, default=5.0, help="seconds played first (default 5)")
    p.add_argument("--baseline-code", default=str(main_checkout()),
                   help="the repository of the baseline gateway (default: the main checkout, %(default)s)")
    p.add_argument("--no-baseline", action="store_true", help="this tree's gateway only")
    p.add_argument("--floor", action="store_true", help="the baseline is the floor (bench/_floor_gateway.py: "
                   "the least a Python gateway does per ply, this tree's MQTT client and log), not another tree")
    p.add_argument("--repeat", type=int, default=1, help="runs of each configuration per code, the order "
                   "alternated (this, main, then main, this, ...); the table gives the medians (default 1)")
    p.add_argument("--tournament-file", metavar="TOML", help="the gateways run under this tournament file's "
                   "regulations (e.g. events/us-championship-2023.toml)")
    p.add_argument("--profile", metavar="DIR", help="py-spy each gateway at the largest board count")
    p.add_argument("--py-spy", default=shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy"))
    add_lock_option(p)
    a = p.parse_args(argv)
    a.boards = [int(x) for x in (a.boards or ("100" if a.quick else "100,1000")).split(",")]
    a.paces = [x.strip() for x in (a.paces or ("rapid" if a.quick else "rapid,blitz")).split(",")]
    a.shards = [tuple(int(v) for v in s.split("x")) for s in
                (a.shards if a.shards is not None else ("" if a.quick else "2x1000")).split(",") if s]
    a.duration = a.duration or (15.0 if a.quick else 25.0)
    if a.repeat < 1:
        p.error("--repeat must be 1 or more")
    if a.tournament_file:
        path = Path(a.tournament_file)
        if not path.exists() and (REPO / path).exists():
            path = REPO / path
        if not path.exists():
            p.error(f"--tournament-file: no such file: {a.tournament_file}")
        a.tournament_file = str(path.resolve())
    return a


async def main(argv=None) -> int:
    args = parse_args(argv)
    hold_machine_lock(args.lock)
    sys.path.insert(0, str(BENCH))
    import bench_latency as bl
    from _latency_hall import world_cup_games

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    t_begin = time.perf_counter()
    load = os.getloadavg()
    codes = [("this", REPO)] + ([] if args.no_baseline else [("main", Path(args.baseline_code))])
    if args.floor:
        args.baseline_code = "floor"  # the table's "main" column: bench/_floor_gateway.py on this tree
        codes = [("this", REPO), ("main", REPO)]
    args.tournament, tag = None, ""
    if args.tournament_file:
        from venue.tournament import load_file

        args.tournament = load_file(args.tournament_file)  # this tree's reading: what the log registers
        tag = Path(args.tournament_file).stem.replace("championship", "ch")
    configs = [(n, pace, 1) for pace in args.paces for n in args.boards]
    configs += [(n, "blitz", k) for k, n in args.shards]
    games = {pace: world_cup_games(bl.WORLD_CUP, pace) for pace in {c[1] for c in configs}}
    rows: list[Row] = []
    tmp = Path(tempfile.mkdtemp(prefix="venue-bench-gateway-"))
    try:
        async with bl.deploy_mosquitto(tmp) as (mqtt, tuning):
            await bl.check_redis()
            print(f"bench_gateway: Mosquitto (deploy tuning: {'; '.join(tuning)}) on port {mqtt[1]}; "
                  f"Redis 127.0.0.1:6379", flush=True)
            for n, pace, shards in configs:
                runs = [(name, code) for name, code in codes if not (shards > 1 and name == "main")]
                for k in range(args.repeat):  # alternated: drift of the machine hits both codes alike
                    for name, code in runs if k % 2 == 0 else runs[::-1]:
                        row = Row(name, n, pace, shards, run=k + 1)
                        print(f"  {name:<5} {n:>5} boards {pace:<6} {shards} gateway(s)" + (f" {tag}" if tag else "")
                              + (f" run {k + 1}/{args.repeat}" if args.repeat > 1 else "") + " ...", end="", flush=True)
                        await run_row(row, code, args, games[pace], mqtt, tmp)
                        rows.append(row)
                        print(f" FAILED: {row.error}" if row.error else
                              f" CPU/ply {row.cpu_ms:.3f} ms, p99 {bl.pct(row.appended, .99):.1f} ms, "
                              f"{row.ended} games ended", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    print(table(rows, tag))
    print()
    for r in rows:
        for note in r.notes:
            print(f"note {r.code} {r.boards} {r.pace} {r.shards}sh{f' run {r.run}' if args.repeat > 1 else ''}: {note}")
    from bench_latency import pct

    for n, pace, shards in configs:
        new = [r for r in rows if r.code == "this" and not r.error and (r.boards, r.pace, r.shards) == (n, pace, shards)]
        if new and n >= 1000 and pace == "blitz":
            cpu, p99 = _median([r.cpu_ms for r in new]), pct([x for r in new for x in r.appended], .99)
            what = f"median of {len(new)} runs, " if len(new) > 1 else ""
            print(f"target at {n} blitz{f' ({tag})' if tag else ''}, {shards} gateway(s): CPU/ply <= {TARGET_CPU_MS} ms "
                  f"{'met' if cpu <= TARGET_CPU_MS else 'MISSED'} ({what}{cpu:.3f}); p99 < {TARGET_P99_MS:g} ms "
                  f"{'met' if p99 < TARGET_P99_MS else 'MISSED'} ({p99:.1f})")
    print(f"settings: hall load of bench/_latency_hall.py (FIDE World Cup 2025 games at their real pace, boards "
          f"starting within 3 s); {args.warmup_s:g} s + {args.duration:g} s played, all counted; one MQTT "
          f"connection per board, QoS 1; CPU/ply = gateway processes' user+system CPU in the window / plies "
          f"published; p50/p99 = publish -> move_played readable by a log follower in this process; main = "
          f"{args.baseline_code}'s gateway, same load, same run; ratio = main / this"
          + (f"; {args.repeat} runs per code, order alternated (this, main, then main, this, ...): CPU/ply and "
             f"plies/s are medians, p50/p99 pooled over the runs" if args.repeat > 1 else "")
          + (f"; regulations: {args.tournament_file} (tournament_registered, round started now, players checked "
             f"in at the start; Gateway(tournament=...)); each board's clock starts and presses after every ply: "
             f"CPU/ply is per ply of two messages" if tag else "") + ".")
    print(f"machine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start; "
          f"Python {sys.version.split()[0]}; run took {time.perf_counter() - t_begin:.0f} s")
    return 0 if all(not r.error for r in rows) else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        sys.exit(serve_main(sys.argv[2:]))
    sys.path.insert(0, str(REPO))
    from venue.serve import run

    sys.exit(run(main()))
