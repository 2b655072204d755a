"""The spectators' dashboard as a Starlette app (DESIGN.md "Dashboard").

``create_app(log)`` folds ``log`` (an ``EventLog``) in a background task started with the app
(``log.follow``), and serves the JSON/PGN API (``dashboard.api``), the live feed ``/ws/live``
(``dashboard.live``), board pictures and the pages. It never writes to the log: spectators cannot
act. Run it under uvicorn (``venue dashboard``), or in tests with Starlette's TestClient used as a
context manager (so the fold task runs).
"""

from __future__ import annotations

import asyncio
import contextlib
from importlib import resources

from starlette.applications import Starlette
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from services.eventlog.base import EventLog

from dashboard import api, pages
from dashboard.feed import DEFAULT_HISTORY, Feed
from dashboard.hub import DEFAULT_CAP, Hub
from dashboard.live import live


def create_app(log: EventLog, *, queue_cap: int = DEFAULT_CAP, history: int = DEFAULT_HISTORY,
               clock_rate: float = 1.0) -> Starlette:
    """The dashboard for one tournament's ``log``.

    ``queue_cap``: per-spectator queue length before its backlog is dropped for a snapshot (F12);
    ``history``: recent deltas kept for ``/ws/live?after=SEQ``; ``clock_rate``: how fast the shown
    clocks run against wall time (a demo's replay speed). The app's state holds ``feed``
    (``dashboard.feed.Feed``: ``feed.view`` is the fold, ``feed.hub`` the spectators).
    """
    feed = Feed(log, Hub(queue_cap), history)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        task = asyncio.create_task(feed.run(), name="dashboard-feed")
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    static = resources.files("dashboard").joinpath("static")
    routes = [
        Route("/", pages.hall),
        Route("/game/{id}", pages.game),
        Route("/api/health", api.health),
        Route("/api/games", api.games),
        Route("/api/round.pgn", api.round_pgn_route),
        Route("/api/games/{id}", api.game),
        Route("/board/{id}.svg", api.board_svg),
        WebSocketRoute("/ws/live", live),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.feed = feed
    app.state.clock_rate = clock_rate
    return app
