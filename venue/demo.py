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
from pathlib import Path

from services.events import RoundStarted
from venue.demo_run import STOPS_WHEN_DONE, demo_round_text, run_task, watch
from venue.demo_workdir import demo_workdir
from venue.errors import CliError

# The Candidates 2024 were played in Toronto (venue/data/README.md); the round's PGN, copied unchanged
# from the shared data, has no Site tag, so the exported PGN said "?".
DEMO_SITE = "Toronto CAN"
from venue.serve import dashboard_at, gateway_ready, simulator

TOURNAMENT = "candidates-2024"


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
    from services.arbiter_office.setup import round_from_pgn

    simulate = simulator()
    text = demo_round_text()
    setup = round_from_pgn(text)
    setup["site"] = setup["site"] or DEMO_SITE
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
                gateway_task = run_task(stack, gateway.run(), "gateway")  # stopped before the broker
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
                sim = run_task(stack, simulate(mqtt_url, TOURNAMENT, text, speed=speed, kind=kind),
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
