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
import os
import re
import socket
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import uvicorn

from dashboard.direct_ws import DirectProtocol
from services.events import RoundStarted
from venue.errors import CliError, read_text, round_number

if TYPE_CHECKING:
    from starlette.applications import Starlette

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
    ``send_buffer``: the kernel send buffer of each connection, in bytes (see ``SEND_BUFFER``).
    Forwarded headers are believed from ``dashboard.proxies.trusted_proxies()`` only (ValueError
    for ``FORWARDED_ALLOW_IPS=*``)."""
    # DirectProtocol: uvicorn's websockets-sansio protocol that lets the hub write one shared frame to
    # every idle spectator (dashboard/direct_ws.py). No permessage-deflate: it would compress every delta once per spectator (3/4 of the
    # dashboard's CPU with 1,000 spectators, bench/bench_latency.py); the deltas are small anyway.
    from dashboard.proxies import trusted_proxies

    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, lifespan="on",
                            ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=2,
                            ws_per_message_deflate=False, ws=DirectProtocol,
                            proxy_headers=True, forwarded_allow_ips=trusted_proxies())
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


def check_port(host: str, port: int) -> None:
    """CliError when ``host:port`` cannot be listened on (busy, not ours), checked before anything
    is written or connected: ``venue serve`` on a busy port wrote a round to the log and took the
    tournament's MQTT session from the running gateway before it found the port taken."""
    if port == 0:
        return
    try:
        bind(host, port, None).close()
    except OSError as exc:
        raise CliError(f"cannot serve the dashboard on {host}:{port}: {exc.strerror or exc}") from None


@contextlib.asynccontextmanager
async def writing(log, boards: str, owner: str,
                  hint: str = "stop it first, or give this one other boards (--boards)"):
    """Hold this gateway's writer lease on ``boards`` (a SPEC, or ``*``) of ``log`` while the block
    runs (``services.eventlog.writers``): CliError at once when another live gateway writes some of
    these boards; renewed in the background; released on a clean stop (a process killed with -9
    leaves it to lapse, and its restart takes it over after one renewal period). ``hint``: what the
    refusal advises (``venue serve`` writes every board: it has no ``--boards`` to offer)."""
    from services.eventlog.writers import WriterConflict

    lease = log.writer_lease(boards, owner)
    try:
        await lease.claim()
    except WriterConflict as exc:
        raise CliError(f"{exc}: {hint}") from None

    async def renewing() -> None:
        from services.eventlog.writers import RENEW_S

        while True:
            await asyncio.sleep(RENEW_S)
            with contextlib.suppress(Exception):  # a store outage: the gateway reports it itself
                await lease.renew()

    renewer = asyncio.create_task(renewing(), name="writer-lease")
    try:
        yield lease
    finally:
        renewer.cancel()
        with contextlib.suppress(BaseException):
            await renewer
        with contextlib.suppress(Exception):
            await lease.release()


SERVE_LEASE_HINT = ("stop it first (venue serve writes every board and has no --boards; a shard of the hall is a "
                    "venue gateway --boards SPEC, on a Redis store)")
"""What ``venue serve`` advises when another process writes its boards (issue 27: it suggested
``--boards``, which only ``venue gateway`` has)."""


def raise_open_files() -> int:
    """Raise this process's soft limit of open files to its hard limit (each spectator is a socket:
    10,000 of them need more than the usual soft 1,024); returns the limit now in force."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def quiet_uvicorn() -> None:
    """Keep uvicorn's access log out of the terminal (progress lines are the venue's own)."""
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)


# --- the venue commands: serve, gateway, dashboard, simulate ---------------------------------------


def run_until_stopped(coro) -> int:
    """Run ``coro`` (returns an exit code) until it ends, Ctrl-C or SIGTERM; cleanup runs in its
    ``finally`` blocks. Returns its code, or 0 when stopped."""
    import signal

    async def main() -> int:
        task = asyncio.current_task()
        assert task is not None  # main() runs as asyncio.run's task
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            # not the main thread (a test running the CLI in a thread): RuntimeError on asyncio's
            # loop, ValueError on uvloop's
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, task.cancel)
        try:
            return int(await coro or 0)
        except asyncio.CancelledError:
            print("stopped", flush=True)
            return 0

    quiet_logs()
    return run(main())


def run(coro):
    """``asyncio.run(coro)`` on uvloop's event loop (libuv: about half the CPU per message of the
    standard loop for the gateway's MQTT and Redis traffic, bench/bench_latency.py), or on the
    standard loop where uvloop is not installed."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


def quiet_logs() -> None:
    """Warnings and errors only, one line each; amqtt and uvicorn chatter kept out."""
    logging.basicConfig(level=logging.WARNING, format="venue: %(levelname)s %(name)s: %(message)s")
    for name in ("amqtt", "transitions", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (for printing)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


async def check_mqtt(url: str, timeout: float = 5.0) -> None:
    """CliError unless ``url`` is a valid ``mqtt://`` URL whose broker accepts TCP connections."""
    from services.protocol.mqtt_url import parse_mqtt_url

    try:
        target = parse_mqtt_url(url)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(target.host, target.port), timeout)
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    except (OSError, asyncio.TimeoutError) as exc:
        why = getattr(exc, "strerror", None) or str(exc) or "timed out"
        raise CliError(f"cannot reach the MQTT broker at {target.host}:{target.port}: {why}") from None


async def open_store(url: str, tournament: str, timeout: float = 5.0):
    """The tournament's ``EventLog`` at ``url``, checked by reading from it; CliError otherwise."""
    from services.eventlog import open_log

    try:
        log = open_log(url, tournament)
    except ValueError as exc:
        raise CliError(f"bad --store or --tournament: {exc}") from None
    except Exception as exc:
        raise CliError(f"cannot open the event log {redact(url)}: {exc}") from None
    try:
        await asyncio.wait_for(log.last_seq(), timeout)
    except Exception as exc:
        with contextlib.suppress(Exception):
            await log.close()
        why = str(exc) or type(exc).__name__
        raise CliError(f"cannot reach the event log store {redact(url)}: {why}") from None
    return log


async def ensure_round(log, setup: dict) -> bool:
    """Append ``round_started`` with ``setup`` unless that round is in the log; True if appended."""
    for entry in await log.read():
        if entry.type == RoundStarted.TYPE and str(entry.data.get("round")) == str(setup["round"]):
            return False
    await log.append(RoundStarted.TYPE, setup)
    return True


def round_setup(path: str, variant: str = "chess") -> dict:
    """``round_started`` data from the PGN/PDN file at ``path``; CliError when it cannot be used."""
    from services.arbiter_office.setup import round_from_pgn

    text = read_text(path)
    try:
        return round_from_pgn(text, variant=variant)
    except ValueError as exc:
        raise CliError(f"{path}: {exc}") from None


@contextlib.asynccontextmanager
async def dashboard_at(log, host: str, port: int, **app_options) -> AsyncIterator[tuple[str, Starlette]]:
    """The dashboard for ``log`` served on ``host:port``; yields ``(base URL, Starlette app)``.
    CliError when the port cannot be bound."""
    from dashboard.app import create_app

    quiet_uvicorn()
    raise_open_files()
    app = create_app(log, **app_options)
    try:
        ctx = serving(app, host, port)
        url = await ctx.__aenter__()
    except OSError as exc:
        raise CliError(f"cannot serve the dashboard on {host}:{port}: {exc.strerror or exc}"
                       " (choose another with --port)") from None
    except ValueError as exc:  # dashboard.proxies: FORWARDED_ALLOW_IPS='*'
        raise CliError(str(exc)) from None
    try:
        yield url, app
    finally:
        await ctx.__aexit__(None, None, None)


async def _forever() -> None:
    await asyncio.Event().wait()


async def prepare(log, tournament_file, round_arg: str | None, variant: str, start_ms: int | None = None,
                  accept_changes: bool = False):
    """Set the hall up in ``log`` (``venue.start_up.StartUp``: the lines to print, the round's
    set-up, whether it was logged now). The tournament file, when given, is registered first
    whatever the round (``venue.start_up``: the same file appends nothing; a changed one is refused
    while a round is in play unless ``accept_changes``). A PGN file of pairings is then logged as
    ``round_started`` unless that round is there; otherwise ``venue.start_up.start_up`` starts round
    ``round_arg`` (None: round 1 if no round is in the log yet, else carry on) with its start
    ``start_ms`` (``--round-start``; None: the file's schedule). CliError as ``start_up``."""
    from venue.start_up import StartUp, register_file, start_up

    if round_arg is not None and not round_arg.isdigit():
        setup = round_setup(round_arg, variant)
        lines = await register_file(log, tournament_file, accept_changes) if tournament_file is not None else []
        added = await ensure_round(log, setup)
        return StartUp([*lines, _round_note(setup, added)], setup, added)
    return await start_up(log, tournament_file, int(round_arg) if round_arg else None, start_ms, accept_changes)


def round_argument(value: str | None) -> str | None:
    """``--round ROUND.pgn|N`` as ``prepare`` reads it: a number (signed too: ``-1`` is no file name
    anyone means) as its digits, checked to be a round (``venue.errors.round_number``: CliError for 0
    or less), anything else as the PGN file's path. Checked before anything is opened or written."""
    if value is not None and re.fullmatch(r"[+-]?[0-9]+", value.strip()):
        return str(round_number(int(value), "--round"))
    return value


def resolve_tournament(value: str):
    """``--tournament``: (slug, Tournament or None): a ``.toml`` file is loaded and checked."""
    from venue.tournament import is_file_argument, load_file

    if is_file_argument(value):
        t = load_file(value)
        return t.slug, t
    return value, None


def _round_note(setup: dict | None, added: bool) -> str:
    if setup is None:
        return "carrying on with the round in the log"
    state = "logged" if added else "already in the log"
    return f"round {setup['round']} ({len(setup['games'])} boards, {state})"


def round_start_ms(t, round_start: str | None) -> int | None:
    """``--round-start`` in ms since the epoch (None when not given), read before anything starts.
    CliError on a bad time, or without a tournament file (a PGN round has no schedule to move)."""
    if round_start is None:
        return None
    if t is None:
        raise CliError("--round-start needs --tournament FILE.toml")
    import time

    from venue.tournament import parse_round_start

    return parse_round_start(round_start, int(time.time() * 1000))


def warn_passwords(t) -> None:
    """Say which arbiters cannot log in because their password variable is unset."""
    if t is None:
        return
    from venue.tournament import missing_passwords

    for name in missing_passwords(t):
        print(f"venue: warning: {name} is not set: that arbiter cannot log in", flush=True)


def no_logins_note(slug: str) -> str:
    """Why nobody can log in to the console when the tournament was named by its slug: the arbiters'
    logins and password variables are the file's and are never in the log (docs/arbiter.md). One
    sentence without a label: the caller prints its own ("note"), once."""
    return (f"no tournament file given (--tournament {slug}): arbiters cannot log in; give the "
            "tournament's FILE.toml to --tournament for their logins (or set VENUE_ARBITERS)")


async def run_serve(mqtt: str, store: str, tournament: str, round_path: str | None, variant: str,
                    host: str, port: int, round_start: str | None = None, accept_changes: bool = False) -> int:
    """``venue serve``: gateway and dashboard in one process. ``tournament``: a slug or a tournament
    file; ``round_path``: a PGN of the round's pairings, or a round number to pair from the file;
    ``round_start``: ``--round-start``; ``accept_changes``: ``--accept-changes`` (``prepare``)."""
    from dashboard.arbiter.auth import Accounts
    from gateway import Gateway

    round_path = round_argument(round_path)
    slug, t = resolve_tournament(tournament)
    if round_path is not None and not round_path.isdigit():
        round_setup(round_path, variant)  # a broken file stops us before anything starts
    start_ms = round_start_ms(t, round_start)
    try:
        accounts = Accounts.load(t, persistent=True)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    check_port(host, port)
    await check_mqtt(mqtt)
    warn_passwords(t)
    log = await open_store(store, slug)
    gateway_task = None
    try:
        async with writing(log, "*", f"venue serve on {socket.gethostname()} (pid {os.getpid()})", SERVE_LEASE_HINT):
            started = await prepare(log, t, round_path, variant, start_ms, accept_changes)
            if t is None and await _log_is_empty(log):
                print(f"venue serve: warning: the event log of {slug!r} in {redact(store)} is empty and no tournament "
                      f"file or round was given: the hall stays empty until a round is set up; {await _held(store, slug)}",
                      flush=True)
            gateway = Gateway(log, mqtt, slug, tournament=t)
            gateway_task = asyncio.create_task(gateway.run(), name="gateway")
            await gateway_ready(gateway, gateway_task)
            async with dashboard_at(log, host, port, accounts=accounts) as (url, _):
                print(f"venue serve: {t.name if t else slug}")
                for line in started.lines:
                    print(f"  {line}")
                print(f"  dashboard   {url}/")
                print(f"  arbiters    {url}/arbiter ({len(accounts.by_login)} login(s))")
                if t is None and not accounts.by_login:
                    print(f"  note        {no_logins_note(slug)}")
                print(f"  MQTT        {redact(mqtt)}")
                print(f"  event log   {redact(store)}")
                print("Ctrl-C to stop.", flush=True)
                await gateway_stopped(gateway_task)
            return 0
    finally:
        await _stop(gateway_task)
        await log.close()


async def run_gateway(mqtt: str, store: str, tournament: str, round_path: str | None = None,
                      variant: str = "chess", round_start: str | None = None, accept_changes: bool = False,
                      boards: str | None = None) -> int:
    """``venue gateway``: devices' MQTT messages into the event log, until stopped; with
    ``round_path`` (PGN, or a round number with a tournament file), first logs that round's
    ``round_started`` unless it is there already; a tournament file is registered as ``prepare``
    says. ``boards``: a shard's board SPEC (``gateway.service``): only the shard with board 1 writes
    the tournament-level entries (the file's registration, the round); CliError for ``--round``
    on another shard, a bad SPEC or an SQLite store."""
    from gateway import Gateway

    round_path = round_argument(round_path)
    slug, t = resolve_tournament(tournament)
    shard = shard_of(boards, store)
    lead = shard is None or "1" in shard
    if round_path is not None and not lead:
        raise CliError(f"--round with --boards {boards}: the round is logged once, by the gateway whose boards "
                       "include board 1 (or by venue serve/gateway without --boards); start this shard without it")
    if round_path is not None and not round_path.isdigit():
        round_setup(round_path, variant)
    start_ms = round_start_ms(t, round_start)
    await check_mqtt(mqtt)
    log = await open_store(store, slug)
    task = None
    try:
        owner = f"venue gateway on {socket.gethostname()} (pid {os.getpid()})"
        async with writing(log, shard.spec if shard is not None else "*", owner):
            if lead and (round_path is not None or t is not None):
                started = await prepare(log, t, round_path, variant, start_ms, accept_changes)
                for line in started.lines:
                    print(f"venue gateway: {line}")
            gateway = Gateway(log, mqtt, slug, tournament=t, boards=shard)
            task = asyncio.create_task(gateway.run(), name="gateway")
            await gateway_ready(gateway, task)
            part = f" boards {shard.spec}" if shard is not None else ""
            print(f"venue gateway: {slug}{part}: {redact(mqtt)} -> {redact(store)}. Ctrl-C to stop.", flush=True)
            in_play = {g.board for g in gateway.hall.state.current_games()}
            if shard is not None and in_play and not any(b in shard for b in in_play):
                print(f"venue gateway: warning: the round in the log has none of boards {shard.spec} "
                      f"(its boards: {', '.join(sorted(in_play, key=_board_order))}): this shard has "
                      "nothing to do until a round that has them", flush=True)
            await gateway_stopped(task)
            return 0
    finally:
        await _stop(task)
        await log.close()


def _board_order(label: str) -> tuple:
    return (0, int(label), "") if label.isdigit() else (1, 0, label)


def shard_of(boards: str | None, store: str):
    """``--boards``: the shard's ``BoardSet`` (None without it); CliError for a bad SPEC or a store
    other than Redis (several gateway processes append to one log: the SQLite log is one process's)."""
    if boards is None:
        return None
    from services.arbiter_office.boardspec import BoardSpecError, parse

    try:
        shard = parse(boards)
    except BoardSpecError as exc:
        raise CliError(f"--boards: {exc}") from None
    if not store.startswith(("redis://", "rediss://")):
        raise CliError("--boards needs a Redis store (--store redis://...): the shards of a hall append to one "
                       "log, and the SQLite log is written by one gateway process, which takes every board")
    return shard


async def run_dashboard(store: str, tournament: str, host: str, port: int, *,
                        refuse_until_caught_up: bool = False) -> int:
    """``venue dashboard``: the spectators' dashboard (and the arbiters' console) fed from the event
    log, until stopped. ``tournament``: a slug, or a tournament file (its arbiters may log in).
    ``refuse_until_caught_up``: a node behind a load balancer (``dashboard.readiness``)."""
    from dashboard.arbiter.auth import Accounts

    slug, t = resolve_tournament(tournament)
    try:
        accounts = Accounts.load(t, persistent=True)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    warn_passwords(t)
    log = await open_store(store, slug)
    try:
        async with dashboard_at(log, host, port, accounts=accounts,
                                refuse_until_caught_up=refuse_until_caught_up) as (url, _):
            print(f"venue dashboard: {slug} from {redact(store)}")
            print(f"  dashboard   {url}/")
            print(f"  arbiters    {url}/arbiter ({len(accounts.by_login)} login(s))")
            if t is None:
                print(f"venue dashboard: note: {no_logins_note(slug)}", flush=True)
            if await _log_is_empty(log):
                # The usual cause is a dashboard pointed at another store, database or slug than
                # the gateway: say so, rather than serve an empty hall in silence.
                print(f"venue dashboard: warning: the event log of {slug!r} in {redact(store)} is empty: "
                      "the pages stay empty until a gateway writes to this same store and "
                      f"tournament (check the store URL, its database number and the slug); "
                      f"{await _held(store, slug)}", flush=True)
            print("Ctrl-C to stop.", flush=True)
            await _forever()
        return 0
    finally:
        await log.close()


async def _held(store: str, slug: str) -> str:
    """What the store holds besides ``slug``, in words (``services.eventlog.stores.naming``)."""
    from services.eventlog.stores import naming, tournaments

    try:
        return naming(slug, [t for t in await tournaments(store) if t != slug])
    except Exception as exc:  # the listing is advice: a store that cannot list says so, nothing stops
        return f"the store's tournaments cannot be listed ({exc})"


async def _log_is_empty(log) -> bool:
    """Whether the store answers that ``log`` holds no entry. A store that fails now (down, or the
    log lost or replaced since the dashboard opened it: ``LogReplaced``) is the feed's to report
    (``/api/health`` 503 naming it): False, never an exception that would stop a serving dashboard."""
    from services.eventlog.base import EventLogError

    try:
        return await log.last_seq() == 0
    except EventLogError:
        return False


async def run_simulate(mqtt: str, tournament: str, pgn_path: str, speed: float, kind: str,
                       faults: frozenset = frozenset(), credentials: str | None = None,
                       confirm_wait_s: float | None = None) -> int:
    """``venue simulate``: replay ``pgn_path`` on simulated boards and clocks over MQTT, with the
    simulators' ``faults`` (devices.station.FAULTS) injected on every board; ``credentials``: the
    deployment's credentials.json (each board logs in as its own device); ``confirm_wait_s``: how
    long each board waits at the end for the gateway's answers (None: the stations' default)."""
    text = read_text(pgn_path)
    logins = None
    if credentials is not None:
        import json

        from devices.simulate import board_logins

        try:
            logins = board_logins(json.loads(read_text(credentials)), tournament)
        except (ValueError, KeyError, TypeError) as exc:
            raise CliError(f"{credentials}: not a credentials.json of deploy/make-mosquitto-passwords.py: {exc}") from None
    await check_mqtt(mqtt)
    simulate = simulator()
    print(f"venue simulate: {pgn_path} -> {redact(mqtt)} ({tournament}), speed {speed:g}x, "
          f"{kind} boards{', faults: ' + ', '.join(sorted(faults)) if faults else ''}. Ctrl-C to stop.",
          flush=True)
    try:
        more = {} if confirm_wait_s is None else {"confirm_wait_s": confirm_wait_s}
        await simulate(mqtt, tournament, text, speed=speed, kind=kind, faults=frozenset(faults), logins=logins,
                       **more)
    except ValueError as exc:
        raise CliError(f"{pgn_path}: {exc}") from None
    print("venue simulate: every game has been played.", flush=True)
    return 0


def simulator():
    """``devices``' ``simulate(mqtt_url, tournament, pgn_text, speed=, kind=)`` coroutine function."""
    import importlib

    for name in ("devices", "devices.simulate", "devices.simulator", "devices.sim"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        fn = getattr(module, "simulate", None)
        if callable(fn):
            return fn
    raise CliError("the device simulators (devices.simulate) are not installed")


async def gateway_ready(gateway, task: asyncio.Task, timeout: float = 15.0) -> None:
    """Wait until ``gateway`` has rebuilt its state and subscribed; CliError if it stopped or did
    not manage within ``timeout`` seconds (the broker refuses it, the store fails)."""
    waiter = asyncio.create_task(gateway.ready.wait())
    done, _ = await asyncio.wait({waiter, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if waiter in done:
        return
    waiter.cancel()
    if task.done() and not task.cancelled() and task.exception() is not None:
        raise CliError(f"the gateway stopped: {task.exception()}")
    raise CliError(f"the gateway could not subscribe at the MQTT broker within {timeout:g} s")


async def gateway_stopped(task: asyncio.Task) -> None:
    """Wait for the gateway to end; CliError when it stopped itself because the store no longer
    holds the log it folded (``LogReplaced``: a store restarted without its data, a restore of an
    older backup): it never writes over a log it does not recognise; or when the broker delivers it
    nothing, on a fresh session too (``BrokerDeaf``: its supervisor restarts it)."""
    from gateway.service import BrokerDeaf, SessionTakenOver
    from services.eventlog.base import EventLogError

    try:
        await task
    except EventLogError as exc:
        raise CliError(f"the gateway stopped: {exc}") from None
    except (SessionTakenOver, BrokerDeaf) as exc:
        raise CliError(f"the gateway stopped: {exc}") from None


async def _stop(task) -> None:
    if task is not None and not task.done():
        task.cancel()
    if task is not None:
        with contextlib.suppress(BaseException):
            await task
