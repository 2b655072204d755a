#!/usr/bin/env python3
"""A chaos soak of the shipped deployment, in the manner of Jepsen's nemesis (issue 28's acceptance).

Not part of the test suite (it runs for minutes and kills processes). It starts, on free ports of
127.0.0.1 and in a temporary directory:

- Mosquitto with deploy/mosquitto/mosquitto.conf (only the ``[site]`` lines rewritten: port, paths,
  user) and the logins and ACL deploy/make-mosquitto-passwords.py makes;
- redis-server with deploy/redis.conf (port, bind and dir rewritten: AOF, ``appendfsync always``);
- ``venue gateway`` and ``venue dashboard`` with the systemd units' command lines
  (deploy/systemd/venue-gateway.service, venue-dashboard.service), the round given as PGN;

each supervised as systemd's ``Restart=always`` / ``RestartSec=1`` would: a process that ends is
started again a second later. Then ``--boards`` simulated boards (devices/station.py, each with its
board login) play real games from ../shared/data (FIDE Candidates 2024 open and women, World Cup
2025: PGN with ``[%clk]``) at a speed that ends the longest within ``--minutes``, while a fault
injector (``schedule``: seeded) every 20-60 s kills (-9), freezes (SIGSTOP 1-20 s, then SIGCONT) or
restarts (SIGTERM, as ``systemctl restart``) the gateway, the dashboard, the broker or Redis, or
cuts a board's link (1-20 s). The LiveChess bridge is left out (it needs DGT LiveChess's websocket
server to be faked: devices/livechess has its own recovery tests).

At the end, with every process back, it reads the event log and checks each game against its PGN
(``check``: the moves, the clock after each ply where the log has one, the result), that no device
message was recorded twice, and prints the faults injected (kind, target, when, how long) with each
one's recovery: the time from the fault's end (the process started again, SIGCONT, the link allowed
back) to the next move stored (of that board, for a cut link), or, for the dashboard, to its
``/api/health`` answering 200.

Usage::

    python tools/chaos_soak.py                      # 100 boards, 30 minutes
    python tools/chaos_soak.py --minutes 3 --boards 20 --seed 7

Exit status 0 when every game equals its PGN and nothing is doubled, else 1.

Run it on a checkout nobody changes while it runs (a clone: ``git clone . /tmp/soak && python
/tmp/soak/tools/chaos_soak.py``, with ../shared beside the clone): the processes it restarts load the
code on disk at each start, so a checkout changed mid-run mixes two versions (a 30-minute run on
2026-12-07 ended in an ImportError of its own check after a merge).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import io
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "chess"
GAME_FILES = ("fide_candidates_2024_open.pgn", "fide_candidates_2024_women.pgn", "fide_world_cup_2025.pgn")
KINDS = ("kill", "freeze", "restart", "cut")
PROCESSES = ("gateway", "dashboard", "broker", "redis")
GAP_S = (20.0, 60.0)  # between two faults (issue 28: "every 20-60 s")
HOLD_S = (1.0, 20.0)  # a freeze's SIGSTOP, a cut link's outage
RESTART_S = 1.0  # systemd's RestartSec=1 in the shipped units
SLUG = "soak"


@dataclass
class Fault:
    """One fault: ``at_s`` after the soak's start, ``kind`` (one of ``KINDS``), ``target`` (a process
    of ``PROCESSES``, or ``board N`` for a cut), ``hold_s`` (a freeze's or a cut's length, else 0).
    Filled as it runs: ``ended_ms`` (wall ms when the fault was over), ``recovery_s``."""

    at_s: float
    kind: str
    target: str
    hold_s: float = 0.0
    ended_ms: int | None = None
    recovery_s: float | None = None


def schedule(rng: random.Random, seconds: float, boards: int) -> list[Fault]:
    """The faults of a soak of ``seconds``: the first after a gap, each next one a gap later (gaps
    uniform in ``GAP_S``), none past ``seconds``; each a kind of ``KINDS`` and a target chosen
    uniformly (a cut takes a board of 1..``boards``), a freeze or cut held uniform in ``HOLD_S``
    (rounded to 0.1 s). Pure: the same ``rng`` state gives the same list."""
    out: list[Fault] = []
    at = rng.uniform(*GAP_S)
    while at < seconds:
        kind = rng.choice(KINDS)
        target = f"board {rng.randint(1, boards)}" if kind == "cut" else rng.choice(PROCESSES)
        hold = round(rng.uniform(*HOLD_S), 1) if kind in ("freeze", "cut") else 0.0
        out.append(Fault(round(at, 1), kind, target, hold))
        at += rng.uniform(*GAP_S)
    return out


# ----- the round ----------------------------------------------------------------------------------
def round_pgn(boards: int) -> str:
    """The first ``boards`` games of ``GAME_FILES`` with ``[%clk]`` and a result, as one round's PGN:
    Round "1", Board 1..N in order."""
    import chess.pgn

    games = []
    for name in GAME_FILES:
        stream = io.StringIO((DATA / name).read_text(encoding="utf-8"))
        while len(games) < boards and (game := chess.pgn.read_game(stream)) is not None:
            if game.headers.get("Result") in ("1-0", "0-1", "1/2-1/2") and "%clk" in str(game):
                games.append(game)
    if len(games) < boards:
        raise SystemExit(f"only {len(games)} games with clocks in {', '.join(GAME_FILES)}")
    for number, game in enumerate(games, start=1):
        game.headers["Round"], game.headers["Board"] = "1", str(number)
    return "\n\n".join(str(g) for g in games) + "\n"


# ----- the processes ------------------------------------------------------------------------------
def free_port() -> int:
    """A free TCP port of 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rewritten(text: str, lines: dict[str, str]) -> str:
    """Config ``text`` with each directive named in ``lines`` replaced by its line there (every
    occurrence; each must occur)."""
    out, seen = [], set()
    for line in text.splitlines():
        word = line.split()[0] if line.strip() and not line.lstrip().startswith("#") else ""
        if word in lines:
            seen.add(word)
            line = lines[word]
        out.append(line)
    if missing := set(lines) - seen:
        raise SystemExit(f"the shipped config lacks {sorted(missing)}")
    return "\n".join(out) + "\n"


class Supervised:
    """One process run as systemd's ``Restart=always``: ``start()``, and ``watch()`` (a task) starts
    it again ``RESTART_S`` after it ends unless ``stopping``. ``started_ms``: wall ms of the last
    start; ``starts``: how many."""

    def __init__(self, name: str, argv: list[str], logdir: Path, env: dict | None = None):
        self.name, self.argv, self.env = name, argv, env
        self.log = logdir / f"{name}.log"
        self.proc: subprocess.Popen | None = None
        self.stopping = False
        self.started_ms = 0
        self.starts = 0

    def start(self) -> None:
        """Start the process (its output appended to ``{name}.log``)."""
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT, cwd=REPO,
                                         env=self.env, start_new_session=True)
        self.started_ms = int(time.time() * 1000)
        self.starts += 1

    async def watch(self) -> None:
        """Restart the process a second after it ends, until ``stopping``."""
        while True:
            await asyncio.sleep(0.05)
            if self.proc is not None and self.proc.poll() is not None and not self.stopping:
                await asyncio.sleep(RESTART_S)
                if not self.stopping:
                    self.start()

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the process (nothing when it is not running)."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)

    async def restart(self) -> None:
        """``systemctl restart``: SIGTERM, wait for the end (SIGKILL after 10 s, TimeoutStopSec),
        start again at once."""
        self.stopping = True
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        await self._ended(10.0)
        self.start()
        self.stopping = False

    async def stop(self) -> None:
        """Stop for good: SIGCONT, SIGTERM, SIGKILL after 10 s."""
        self.stopping = True
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        await self._ended(10.0)

    async def _ended(self, timeout: float) -> None:
        if self.proc is None:
            return
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Site:
    """The deployment under test: its ports, logins, processes and the round's PGN."""

    tmp: Path
    mqtt_port: int
    redis_port: int
    http_port: int
    users: dict[str, str]
    pgn: Path
    procs: dict[str, Supervised] = field(default_factory=dict)

    @property
    def store(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"


def make_site(tmp: Path, boards: int) -> Site:
    """Write the broker's and Redis's configs, the logins and the round into ``tmp``; the processes
    made (not started)."""
    subprocess.run([sys.executable, REPO / "deploy" / "make-mosquitto-passwords.py", "--out-dir", tmp,
                    "--tournament", f"{SLUG}:1-{boards}"], check=True, capture_output=True)
    creds = json.loads((tmp / "credentials.json").read_text())
    users = {d["username"]: d["password"] for d in creds["devices"] + creds["gateways"]}
    site = Site(tmp, free_port(), free_port(), free_port(), users, tmp / "round.pgn")
    site.pgn.write_text(round_pgn(boards))
    (tmp / "mosquitto.conf").write_text(rewritten((REPO / "deploy" / "mosquitto" / "mosquitto.conf").read_text(), {
        "listener": f"listener {site.mqtt_port} 127.0.0.1", "password_file": f"password_file {tmp / 'passwd'}",
        "acl_file": f"acl_file {tmp / 'acl'}", "persistence_location": f"persistence_location {tmp}/",
        "user": f"user {getpass.getuser()}"}))
    (tmp / "redis").mkdir()
    (tmp / "redis.conf").write_text(rewritten((REPO / "deploy" / "redis.conf").read_text(), {
        "bind": "bind 127.0.0.1", "port": f"port {site.redis_port}", "dir": f"dir {tmp / 'redis'}"}))
    gateway_url = f"mqtt://gateway-{SLUG}:{users[f'gateway-{SLUG}']}@127.0.0.1:{site.mqtt_port}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    venue = [sys.executable, "-m", "venue"]
    site.procs = {
        "broker": Supervised("broker", [shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", str(tmp / "mosquitto.conf")], tmp),
        "redis": Supervised("redis", [shutil.which("redis-server") or "/usr/bin/redis-server", str(tmp / "redis.conf")], tmp),
        # deploy/systemd/venue-gateway.service's ExecStart, the round given as PGN
        "gateway": Supervised("gateway", venue + ["gateway", "--tournament", SLUG, "--mqtt", gateway_url,
                                                  "--store", site.store, "--round", str(site.pgn)], tmp, env),
        # deploy/systemd/venue-dashboard.service's ExecStart
        "dashboard": Supervised("dashboard", venue + ["dashboard", "--tournament", SLUG, "--store", site.store,
                                                      "--host", "127.0.0.1", "--port", str(site.http_port)], tmp, env),
    }
    return site


def healthy(port: int) -> bool:
    """The dashboard's ``/api/health`` answers 200."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as r:
            return r.status == 200
    except OSError:
        return False


# ----- the checks ---------------------------------------------------------------------------------
@dataclass
class Verdict:
    """What the log holds against the PGN: ``equal``/``total`` games, ``differences`` (one line per
    game that differs), ``doubled`` (device messages recorded twice), ``clocks`` compared, ``notes``
    (games equal though the log stops before the PGN's end: the Laws ended them)."""

    equal: int
    total: int
    differences: list[str]
    doubled: list[str]
    clocks: int
    notes: list[str] = field(default_factory=list)


# entries made from one applied device message (services/events/device.py), and a game's end
APPLIED = ("move_played", "move_composed", "clock_started", "clock_pressed", "clock_paused", "clock_resumed",
           "clock_set", "clock_period_added", "result_reported", "game_ended")


def check(entries, scripts) -> Verdict:
    """Compare the log's ``entries`` (folded with ``services.state.HallState``) with ``scripts``
    (devices.script.Script, one per board): each game's moves, the clock after each ply where the
    log has one (the ``[%clk]`` figure, ms), and its result (a game the Laws ended where the players
    went on, a dead position or a fivefold repetition, up to that ply); and look for a device message
    (board, device, seq) or a ply recorded twice."""
    from services.events.vocabulary import Termination
    from services.state import HallState

    # terminations by which the Laws end a game at once, whatever the players did next (5.2.2, 9.6)
    laws_endings = {Termination.DEAD_POSITION, Termination.INSUFFICIENT_MATERIAL, Termination.FIVEFOLD_REPETITION,
                    Termination.SEVENTYFIVE_MOVES}
    state = HallState()
    for entry in entries:
        state.apply(entry)
    by_board = {g.board: g for g in state.games.values()}
    differences, notes, clocks = [], [], 0
    for script in scripts:
        game = by_board.get(script.board)
        if game is None:
            differences.append(f"board {script.board}: no game in the log")
            continue
        want = [p.uci for p in script.plies]
        if (game.termination in laws_endings and len(game.moves) < len(want)
                and game.moves == want[:len(game.moves)] and str(game.result) == script.result):
            # the game ended by the Laws on a position the players went on from (FIDE Laws 5.2.2, 9.6:
            # the game is drawn at once): the log rightly stops there
            notes.append(f"board {script.board}: ended by the Laws ({game.termination}) at ply "
                         f"{len(game.moves)}; the PGN goes on to ply {len(want)}")
            want = want[:len(game.moves)]
        if game.moves != want:
            first = next((i for i, (a, b) in enumerate(zip(game.moves, want)) if a != b), min(len(game.moves), len(want)))
            differences.append(f"board {script.board}: {len(game.moves)} plies of {len(want)}, first difference at ply {first + 1}")
            continue
        for ply, recorded in zip(script.plies, game.clocks):
            if recorded is not None:
                clocks += 1
                if recorded != ply.clock_ms:
                    differences.append(f"board {script.board}: clock {recorded} ms, the PGN's {ply.clock_ms}")
                    break
        if str(game.result) != script.result:
            differences.append(f"board {script.board}: result {game.result}, the PGN's {script.result}")
    seen: dict[tuple, int] = {}
    doubled = []
    for entry in entries:
        data = entry.data
        if entry.type in APPLIED:  # each device message applied once; each ply once; one end per game
            key = (entry.type, data.get("board"), data.get("device"), data.get("seq"), data.get("game"), data.get("ply"))
            if key in seen:
                doubled.append(f"{entry.type} board {data.get('board')} seq {data.get('seq')} (entries {seen[key]} and {entry.seq})")
            seen[key] = entry.seq
    total = len(scripts)
    bad = {d.split(":")[0] for d in differences}
    return Verdict(total - len(bad), total, differences, doubled, clocks, notes)


def recoveries(faults: list[Fault], entries) -> None:
    """Each fault's recovery (but the dashboard's, measured live): from its end to the next move
    stored (of its board for a cut), from the log's ``move_played`` entries (``at``, ms)."""
    moves = sorted((e.at, str(e.data.get("board"))) for e in entries if e.type == "move_played")
    for f in faults:
        if f.target == "dashboard" or f.ended_ms is None:
            continue
        board = f.target.split()[1] if f.kind == "cut" else None
        nxt = next((at for at, b in moves if at >= f.ended_ms and (board is None or b == board)), None)
        f.recovery_s = None if nxt is None else (nxt - f.ended_ms) / 1000


# ----- the soak -----------------------------------------------------------------------------------
async def inject(site: Site, fault: Fault, stations: dict) -> None:
    """Inject ``fault`` and wait for its end (``ended_ms``); a dashboard fault's recovery is measured
    here (``/api/health`` 200 again)."""
    if fault.kind == "cut":
        station = stations[fault.target.split()[1]]
        station.outage_s = fault.hold_s
        await station._drop_link()  # the station's own disconnect fault (devices/station.py)
        await asyncio.sleep(fault.hold_s)
        fault.ended_ms = int(time.time() * 1000)
        return
    proc = site.procs[fault.target]
    if fault.kind == "kill":
        starts = proc.starts
        proc.signal(signal.SIGKILL)
        while proc.starts == starts:  # the supervisor starts it again
            await asyncio.sleep(0.02)
        fault.ended_ms = proc.started_ms
    elif fault.kind == "freeze":
        proc.signal(signal.SIGSTOP)
        await asyncio.sleep(fault.hold_s)
        proc.signal(signal.SIGCONT)
        fault.ended_ms = int(time.time() * 1000)
    else:
        await proc.restart()
        fault.ended_ms = proc.started_ms
    if fault.target == "dashboard":
        while not await asyncio.to_thread(healthy, site.http_port):
            await asyncio.sleep(0.1)
        fault.recovery_s = (time.time() * 1000 - fault.ended_ms) / 1000


async def soak(minutes: float, boards: int, seed: int, keep: bool) -> int:
    from devices.records import scripts_from_text
    from devices.station import SimulatedBoard
    from services.eventlog import open_log
    import services.state  # noqa: F401 - the final check's modules, loaded now: a checkout changed during
    import services.events.vocabulary  # noqa: F401 - the soak must not mix its code (run it on a clone)

    tmp = Path(tempfile.mkdtemp(prefix="venue-soak-"))
    site = make_site(tmp, boards)
    scripts = scripts_from_text(site.pgn.read_text())
    seconds = minutes * 60
    longest_ms = max(sum(p.think_ms for p in s.plies) for s in scripts)
    speed = longest_ms / 1000 / (seconds * 0.85)  # the longest game ends at 85% of the soak
    faults = schedule(random.Random(seed), seconds * 0.85, boards)
    print(f"chaos soak: {boards} boards, {minutes:g} min, seed {seed}, speed {speed:.0f}x, {len(faults)} faults "
          f"planned; work dir {tmp}", flush=True)
    watchers = []
    try:
        for name in ("redis", "broker"):
            site.procs[name].start()
        await asyncio.sleep(0.5)
        for name in ("gateway", "dashboard"):
            site.procs[name].start()
        watchers = [asyncio.create_task(p.watch()) for p in site.procs.values()]
        while not await asyncio.to_thread(healthy, site.http_port):
            await asyncio.sleep(0.2)
        log = open_log(site.store, SLUG)
        while not any(e.type == "round_started" for e in await log.read()):
            await asyncio.sleep(0.2)
        url = f"mqtt://127.0.0.1:{site.mqtt_port}"
        stations = {s.board: SimulatedBoard(url, SLUG, s, speed=speed, username=f"board-{SLUG}-{s.board}",
                                            password=site.users[f"board-{SLUG}-{s.board}"]) for s in scripts}
        start = time.monotonic()
        playing = asyncio.gather(*(st.run() for st in stations.values()))
        for fault in faults:
            await asyncio.sleep(max(0.0, start + fault.at_s - time.monotonic()))
            print(f"  {fault.at_s:7.1f} s  {fault.kind:8s} {fault.target}"
                  + (f" for {fault.hold_s:g} s" if fault.hold_s else ""), flush=True)
            await inject(site, fault, stations)
        await asyncio.wait_for(playing, timeout=max(60.0, seconds * 0.3))
        last, quiet = -1, 0
        while quiet < 3:  # the log still for 3 s: everything stored
            await asyncio.sleep(1)
            now = await log.last_seq()
            quiet, last = (quiet + 1, last) if now == last else (0, now)
        entries = await log.read()
        await log.close()
    finally:
        for w in watchers:
            w.cancel()
        for p in site.procs.values():
            await p.stop()
    verdict = check(entries, scripts)
    recoveries(faults, entries)
    report(faults, verdict, {n: p.starts for n, p in site.procs.items()})
    if not keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if verdict.equal == verdict.total and not verdict.doubled else 1


def report(faults: list[Fault], verdict: Verdict, starts: dict[str, int]) -> None:
    """Print the faults with their recoveries, the longest, and the games' verdict."""
    print("\n| # | at (s) | fault | target | held (s) | recovery (s) |\n| --- | --- | --- | --- | --- | --- |")
    for n, f in enumerate(faults, start=1):
        rec = "-" if f.recovery_s is None else f"{f.recovery_s:.2f}"
        print(f"| {n} | {f.at_s:.1f} | {f.kind} | {f.target} | {f.hold_s or '-'} | {rec} |")
    measured = [f for f in faults if f.recovery_s is not None]
    if measured:
        worst = max(measured, key=lambda f: f.recovery_s or 0.0)
        print(f"\nlongest recovery: {worst.recovery_s:.2f} s ({worst.kind} {worst.target} at {worst.at_s:.1f} s)")
    print(f"process starts: {', '.join(f'{n} {c}' for n, c in starts.items())}")
    print(f"games equal to their PGN: {verdict.equal}/{verdict.total} ({verdict.clocks} clock figures compared); "
          f"doubled device messages: {len(verdict.doubled)}")
    for line in verdict.notes[:20] + verdict.differences[:40] + verdict.doubled[:20]:
        print(f"  {line}")


def main(argv: list[str] | None = None) -> int:
    """The command line (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long the games and faults last (default 30)")
    parser.add_argument("--boards", type=int, default=100, help="boards, one real game each (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the fault schedule's seed (default 1)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs, configs)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    return asyncio.run(soak(args.minutes, args.boards, args.seed, args.keep))


if __name__ == "__main__":
    sys.exit(main())
