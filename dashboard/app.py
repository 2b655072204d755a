"""The dashboard as a Starlette app (DESIGN.md "Dashboard").

``create_app(log)`` folds ``log`` (an ``EventLog``) in one background task started with the app
(``log.follow``) into the one state (``services.state.HallState``, held by ``dashboard.feed``);
the spectators' view, the standings (``services.views.standings``) and the arbiters' desk
(``dashboard.arbiter.desk``, its alerts) are projections of it. It serves:

- spectators (nothing acts): the JSON/PGN API (``dashboard.api``), the live feed ``/ws/live``
  (``dashboard.live``), board pictures, the pages ``/`` and ``/game/{id}``, standings and crosstable
  (``dashboard.standings``);
- arbiters (login required, docs/arbiter.md): ``/arbiter``, ``/api/arbiter/*``, ``/ws/arbiter``;
  their actions are the only writes to the log.

Every request goes through ``dashboard.security.middleware``: security headers, the origin check
and CSRF protection (docs/arbiter.md "Security"); then Starlette's ``AuthenticationMiddleware``
with ``dashboard.arbiter.backend.ArbiterBackend`` says who is asking (an arbiter's session, or
nobody), and the arbiters' routes ``require`` it.

Run it under uvicorn (``venue dashboard``), or in tests with Starlette's TestClient used as a context
manager (so the fold task runs).
"""

from __future__ import annotations

import asyncio
import contextlib
from importlib import resources
from typing import Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from services.arbiter_office.round_draft import needs_ballots
from services.eventlog.base import EventLog
from services.views.standings import TournamentView

from dashboard import api, pages, printing, security, standings
from dashboard.arbiter import routes as arbiter
from dashboard.arbiter.auth import Accounts
from dashboard.arbiter.backend import ArbiterBackend
from dashboard.arbiter.throttle import LoginThrottle
from dashboard.arbiter.desk import Desk
from dashboard.feed import DEFAULT_HISTORY, Feed, wall_ms
from dashboard.origins import allowed_origins
from dashboard.readiness import RefuseUntilCaughtUp
from dashboard.hub import DEFAULT_CAP, GROUP_S, Hub
from dashboard.live import live
from dashboard.templating import page


def create_app(log: EventLog, *, queue_cap: int = DEFAULT_CAP, history: int = DEFAULT_HISTORY,
               clock_rate: float = 1.0, accounts: Accounts | None = None,
               clock: Callable[[], int] = wall_ms, group_s: float | None = GROUP_S,
               refuse_until_caught_up: bool = False) -> Starlette:
    """The dashboard for one tournament's ``log``.

    ``queue_cap``: per-spectator queue length before its backlog is dropped for a snapshot (F12);
    ``history``: recent deltas kept for ``/ws/live?after=SEQ``; ``clock_rate``: how fast the shown
    clocks run against wall time (a demo's replay speed); ``accounts``: the arbiters who may log in
    (default: ``Accounts.load`` from the environment, ``VENUE_ARBITERS``; raises ValueError when
    that is malformed). The environment also gives ``VENUE_ALLOWED_ORIGINS``, ``VENUE_LOGIN_LIMIT``
    and ``VENUE_LOGIN_ADDRESS_LIMIT`` (docs/arbiter.md; ValueError when malformed). The app's state
    holds ``feed`` (``feed.view`` the hall view, ``feed.hub`` the spectators), ``tournament_view``,
    ``desk``, ``accounts`` and ``login_throttle``. ``clock()``: now in ms since the epoch, the time
    the broadcast delay is measured against (injected in tests). ``group_s``: the spectators' hub
    gathers each page's deltas into one frame per tick of at least this many seconds
    (``dashboard.hub`` grouped mode); None sends every delta as it comes (per-delta mode, the
    baseline of bench/bench_latency.py ``--fanout``). ``refuse_until_caught_up``: answer 503 to
    everything but ``/api/health`` until the start-up replay is folded, for a node behind a load
    balancer (``dashboard.readiness``).
    """
    desk = Desk()
    feed = Feed(log, Hub(queue_cap, group_s), history, observers=[desk.ingest], clock=clock)
    desk.attach(feed.state)  # the arbiters see the hall live
    tournament_view = TournamentView(feed.public.state)  # the public fold keeps its state object
    accounts = accounts if accounts is not None else Accounts.load(None)
    if accounts.scope is None:
        accounts.scope = log.tournament  # sessions good for this tournament's console only

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
        Route("/favicon.ico", _favicon),
        Route("/api/health", api.health),
        Route("/api/games", api.games),
        Route("/api/rounds", api.rounds),
        Route("/api/round.pgn", api.round_pgn_route),
        Route("/api/round.pdn", api.round_pgn_route),
        Route("/api/games/{id}", api.game),
        Route("/board/{id}.svg", api.board_svg),
        WebSocketRoute("/ws/live", live),
        *standings.routes(),
        *printing.routes(),
        *_arbiter_routes(),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]
    middleware = [*security.middleware(accounts.secret, arbiter.COOKIE),
                  Middleware(AuthenticationMiddleware, backend=ArbiterBackend(accounts))]
    if refuse_until_caught_up:  # outermost: a node still replaying does no other work
        middleware = [Middleware(RefuseUntilCaughtUp, ready=feed.caught_up.is_set), *middleware]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={401: arbiter.unauthorized})
    app.state.feed = feed
    app.state.clock_rate = clock_rate
    app.state.tournament_view = tournament_view
    app.state.desk = desk
    app.state.accounts = accounts
    app.state.login_throttle = LoginThrottle.from_environment()
    app.state.allowed_origins = allowed_origins()
    return app


async def arbiter_page(request: Request) -> Response:
    """``GET /arbiter``: the arbiter's console (it logs in from the page itself); the fine box is
    labelled with the event's currency (``Regulations.fine_currency``; none without a registered tournament)."""
    r = request.app.state.feed.live.view.round or {}  # the console sees the hall live
    event = r.get("event") or "Tournament"
    accounts = getattr(request.app.state, "accounts", None)
    t = TournamentView(request.app.state.feed.state).tournament
    return page(request, "arbiter.html", event=event, title=f"{event} - arbiter",
                fine_currency=t.regulations.fine_currency() if t is not None else None, slip_parts=slip_parts(t),
                round_label=f"Round {r['round']}" if r.get("round") else "", csrf_token=security.csrf_token(request),
                print_views=printing.VIEWS, no_logins=accounts is None or not accounts.by_login,
                signed_in=request.user.is_authenticated)


def slip_parts(t) -> list[tuple[str, str]]:
    """The result slip's choices of which game of a board, ``(value, label)``: the board's game; its
    Armageddon game where the regulations follow a drawn game with one (Norway Chess 2023); the two
    games of a checkers match where the event plays matches (11-Man National 2017 X.A.b). Without a
    registered tournament (``t`` None) every choice, as the hall may hold any."""
    parts = [("", "the board's game")]
    if t is None or t.regulations.armageddon_after_draw:
        parts.append(("armageddon", "its Armageddon game"))
    if t is None or needs_ballots(t):  # its rounds are two-game checkers matches
        parts += [("1", "match game 1"), ("2", "match game 2")]
    return parts


async def _favicon(request: Request) -> RedirectResponse:
    """``/favicon.ico``: browsers ask for it on every page; the icon is ``/static/favicon.svg``."""
    return RedirectResponse("/static/favicon.svg", status_code=301)


def _arbiter_routes() -> list:
    """The arbiters' routes (docs/arbiter.md); the module's own list when it offers one."""
    if hasattr(arbiter, "routes"):
        return list(arbiter.routes())
    return [
        Route("/arbiter", arbiter_page),
        Route("/api/arbiter/login", arbiter.login, methods=["POST"]),
        Route("/api/arbiter/logout", arbiter.logout, methods=["POST"]),
        Route("/api/arbiter/me", arbiter.me),
        Route("/api/arbiter/alerts", arbiter.alerts),
        Route("/api/arbiter/round-tools", arbiter.round_tools),
        Route("/api/arbiter/actions", arbiter.actions, methods=["POST"]),
        WebSocketRoute("/ws/arbiter", arbiter.arbiter_ws),
    ]
