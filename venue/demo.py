"""``venue demo``: the whole system in one process, with nothing else installed.

An embedded MQTT broker (amqtt, on a free port of its own: never 1883), a fresh SQLite event log in a
temporary directory, the gateway, the dashboard under uvicorn, and simulated boards and clocks
replaying the round shipped in ``venue/data`` (FIDE Candidates 2024, round 5; see its README). Prints
the dashboard's URL and the progress (moves played, games finished); when every game has ended it
prints "round over" and keeps serving until Ctrl-C (or returns at once with ``exit_when_done``).
The temporary directory is removed on exit.

With a tournament file (``venue demo --tournament FILE.toml``) the round is round 1 of that event,
paired from the file, with its players, boards, time control, regulations and arbiters; the boards
replay shipped real games (checkers: Tinsley-Chinook, London 1992): see ``venue.demo_tournament``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from importlib import resources
from pathlib import Path

from services.events import RoundStarted
from services.events.vocabulary import GameStatus, Termination, Variant
from venue.demo_workdir import demo_workdir
from venue.errors import CliError
from venue.serve import dashboard_at, gateway_ready, simulator

TOURNAMENT = "candidates-2024"
ROUND_FILE = "candidates_2024_round5.pgn"
PROGRESS_EVERY_S = 2.0


def demo_round_text() -> str:
    """The PGN text of the shipped demo round."""
    return resources.files("venue").joinpath("data", ROUND_FILE).read_text("utf-8")


def progress_line(games: list[dict]) -> str:
    """``"moves 57 | playing 4 | finished 0/4"`` for the current round's GAMEs."""
    moves = sum(g["ply"] for g in games)
    done = sum(1 for g in games if g["status"] == GameStatus.ENDED)
    playing = sum(1 for g in games if g["status"] == GameStatus.PLAYING)
    return f"moves {moves:4d} | playing {playing} | finished {done}/{len(games)}"


def wall_clock(ms: int | None = None) -> str:
    """``"01:04:45 UTC"``: the instant ``ms`` (ms since the epoch; default now) on this machine's
    clock, with its zone's name. Every time the demo prints goes through here, so the round's start
    and the progress lines read in one zone (a new user saw the start in the event's zone, -05:00,
    over progress lines in UTC)."""
    return time.strftime("%H:%M:%S %Z", time.localtime(None if ms is None else ms / 1000))


def result_line(g: dict) -> str:
    """``"board 2  Firouzja, Alireza - Nakamura, Hikaru  0-1 (resignation)"``. Checkers names Black
    (who moves first) first with the score in that order, as PDN does, and a match's game says which:
    ``"board 3 game 2  Player 04 - Player 09  1-0 (time forfeit)"``; a result taken from the game's
    record without its reason says so."""
    term = g.get("termination")
    why = ""
    if term == Termination.RECORDED:
        why = " (as the game's record gives it)"
    elif term:
        why = f" ({term.replace('_', ' ')})"
    which = f" game {g['match']['game_no']}" if isinstance(g.get("match"), dict) else ""
    if g.get("variant") == Variant.CHECKERS:
        from services.rules.checkers_results import to_pdn

        try:
            score = to_pdn(g["result"])
        except ValueError:
            score = g["result"]
        return f"board {g['board']}{which}  {g['black']} - {g['white']}  {score}{why}"
    return f"board {g['board']}{which}  {g['white']} - {g['black']}  {g['result']}{why}"


async def watch(view, out=print, every_s: float = PROGRESS_EVERY_S) -> None:
    """Print progress while the round is played; returns once every game of it has ended."""
    reported: set[str] = set()
    last = ""
    last_at = 0.0
    while True:
        games = view.games()
        for g in games:
            if g["status"] == GameStatus.ENDED and g["id"] not in reported:
                reported.add(g["id"])
                out(f"  result   {result_line(g)}")
        line = progress_line(games) if games else ""
        now = time.monotonic()
        if line and line != last and now - last_at >= every_s:
            out(f"  {wall_clock()} {line}")
            last, last_at = line, now
        if games and len(reported) == len(games):
            out(f"  {wall_clock()} {progress_line(games)}")
            return
        await asyncio.sleep(0.2)


async def run_demo(speed: float = 60.0, host: str = "127.0.0.1", port: int = 8000, kind: str = "move",
                   exit_when_done: bool = False, out=print, tournament: str | None = None) -> int:
    """Run the demo (see the module docstring); returns the exit code. CliError on a busy port.
    ``tournament``: a tournament file (``venue demo --tournament FILE.toml``): round 1 of that
    event instead, paired from the file (``venue.demo_tournament``)."""
    if tournament is not None:
        from venue.demo_tournament import run_tournament_demo

        return await run_tournament_demo(tournament, speed=speed, host=host, port=port, kind=kind,
                                         exit_when_done=exit_when_done, out=out)
    from gateway import Gateway, embedded_broker
    from services.eventlog import open_log
    from services.hall.setup import round_from_pgn

    simulate = simulator()
    text = demo_round_text()
    setup = round_from_pgn(text)
    with demo_workdir() as tmp:
        store = f"sqlite:///{Path(tmp) / 'venue.sqlite'}"
        log = open_log(store, TOURNAMENT)
        try:
            async with contextlib.AsyncExitStack() as stack:
                try:
                    mqtt_url = await stack.enter_async_context(embedded_broker(port=0))
                except Exception as exc:  # amqtt's errors have no common base worth naming
                    raise CliError(f"cannot start the embedded MQTT broker: {exc}") from None
                await log.append(RoundStarted.TYPE, setup)
                gateway = Gateway(log, mqtt_url, TOURNAMENT)
                gateway_task = _task(stack, gateway.run(), "gateway")  # stopped before the broker
                await gateway_ready(gateway, gateway_task)
                url, app = await stack.enter_async_context(
                    dashboard_at(log, host, port, clock_rate=speed))
                out(f"Venue demo: {setup['event']} {setup['date'][:4]}, round {setup['round']}: "
                    f"{len(setup['games'])} boards replayed at {speed:g}x")
                out(f"  spectators   {url}/")
                out(f"  API          {url}/api/games   PGN {url}/api/round.pgn")
                out(f"  MQTT broker  {mqtt_url} (embedded)   event log {store}")
                logins = "VENUE_ARBITERS" in os.environ
                out(f"  arbiters     {url}/arbiter"
                    + ("" if logins else "   (set VENUE_ARBITERS=login:password to log in)"))
                out(STOPS_WHEN_DONE if exit_when_done else "Ctrl-C to stop.")
                sim = _task(stack, simulate(mqtt_url, TOURNAMENT, text, speed=speed, kind=kind),
                            "simulators")
                await _watch_while_running(watch(app.state.feed.view, out),
                                           {"the simulated boards": sim, "the gateway": gateway_task})
                out("round over")
                if exit_when_done:
                    return 0
                out("Still serving the finished round; Ctrl-C to stop.")
                await asyncio.Event().wait()
        finally:
            await log.close()
    return 0


STOPS_WHEN_DONE = "Stops when the round is over (--exit-when-done); Ctrl-C stops it sooner."


async def _watch_while_running(watcher, tasks: dict[str, asyncio.Task]) -> None:
    """Await ``watcher``; CliError as soon as one of ``tasks`` fails (it would never end else)."""
    watching = asyncio.ensure_future(watcher)
    pending = set(tasks.values())
    try:
        while True:
            done, _ = await asyncio.wait({watching, *pending}, return_when=asyncio.FIRST_COMPLETED)
            if watching in done:
                return watching.result()
            for name, task in tasks.items():
                if task in done:
                    pending.discard(task)
                    if not task.cancelled() and task.exception() is not None:
                        raise CliError(f"{name} stopped: {task.exception()}")
    finally:
        watching.cancel()


def _task(stack: contextlib.AsyncExitStack, coro, name: str) -> asyncio.Task:
    """Start ``coro``; the stack cancels and awaits it on exit (in reverse order of start)."""
    task = asyncio.create_task(coro, name=name)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task

    stack.push_async_callback(stop)
    return task
