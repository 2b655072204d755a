"""Standings, crosstable and tournament downloads on the dashboard (spectators' routes; nothing acts).

- ``GET /api/standings?provisional=1``: STANDINGS of ``services.arbiter_office.tournament_json`` (``rows``,
  ``prizes``, ``playoff``); ``provisional=1``: games in progress count as draws
  (``services.views.standings.PROVISIONAL_RESULT``).
- ``GET /api/crosstable?provisional=1``: CROSSTABLE.
- ``GET /api/tournament.pgn``: every game of every round, PGN with ``[%clk]``.
- ``GET /api/tournament.trf``: FIDE TRF16 of the tournament so far.
- ``GET /standings``, ``GET /crosstable``: the pages (dashboard/templates), live: they reload the
  JSON when ``/ws/live`` reports a result or a new round, and poll every 2 s while it is down.

The routes read ``request.app.state.tournament_view`` (a ``TournamentView`` of the public fold: the
standings as they stood ``[broadcast] delay`` ago; an arbiter's session reads the live fold's);
without one they answer 503 ``{"error": ...}``; recorded results that contradict each other answer
409 ``{"error": ...}`` (the log is never hidden or guessed at).
"""

from __future__ import annotations

import time
import weakref

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from services.events.vocabulary import Variant
from services.arbiter_office.tournament_export import tournament_pgn, tournament_trf
from services.arbiter_office.tournament_json import crosstable_json, standings_json
from services.views.standings import TournamentView
from services.tournament.trf import TrfFieldError

from dashboard.audience import channel
from dashboard.templating import page

PGN_TYPE = "application/x-chess-pgn; charset=utf-8"
PDN_TYPE = "application/x-draughts-pdn; charset=utf-8"
TRF_TYPE = "text/plain; charset=utf-8"


def tournament_view(request: Request) -> TournamentView | None:
    """The standings the audience may see: the public fold's (delayed), or for an arbiter the live
    fold's (``dashboard.audience``)."""
    public = getattr(request.app.state, "tournament_view", None)
    if public is None or getattr(request.app.state, "feed", None) is None:
        return public  # the routes mounted without a feed: the view they were given
    ch = channel(request)
    if ch.state is public.state:
        return public
    live = getattr(request.app.state, "live_tournament_view", None)
    if live is None or live.state is not ch.state:
        live = request.app.state.live_tournament_view = TournamentView(ch.state)
    return live


def _no_view() -> JSONResponse:
    return JSONResponse({"error": "the dashboard has no tournament fold (app.state.tournament_view)"},
                        status_code=503)


def _provisional(request: Request) -> bool:
    return request.query_params.get("provisional", "0") not in ("0", "", "false", "no")


_CACHE: weakref.WeakKeyDictionary[TournamentView, dict] = weakref.WeakKeyDictionary()


def _cached(view: TournamentView, kind: str, provisional: bool, make) -> dict:
    """The body for (view, its seq, kind, provisional), computed once per log entry: every spectator
    polling or reloading after a result gets the same body without re-ranking the field."""
    bodies = _CACHE.setdefault(view, {})
    key = (view.seq, kind, provisional)
    if key not in bodies:
        for old in [k for k in bodies if k[0] != view.seq]:
            del bodies[old]
        bodies[key] = make(view, provisional)
    return bodies[key]


def _answer(make) -> Response:
    try:
        return make()
    except TrfFieldError as exc:  # a value the file's columns cannot hold: not the results' fault
        return JSONResponse({"error": f"the TRF export cannot write this tournament: {exc}"}, status_code=409)
    except ValueError as exc:
        return JSONResponse({"error": f"the recorded results do not add up: {exc}"}, status_code=409)


async def standings_api(request: Request) -> Response:
    """GET /api/standings."""
    view = tournament_view(request)
    if view is None:
        return _no_view()
    return _answer(lambda: JSONResponse(_cached(view, "standings", _provisional(request), standings_json),
                                        headers={"Cache-Control": "no-cache"}))


async def crosstable_api(request: Request) -> Response:
    """GET /api/crosstable."""
    view = tournament_view(request)
    if view is None:
        return _no_view()
    return _answer(lambda: JSONResponse(_cached(view, "crosstable", _provisional(request), crosstable_json),
                                        headers={"Cache-Control": "no-cache"}))


def _slug(view: TournamentView) -> str:
    return view.tournament.slug if view.tournament is not None else "tournament"


async def tournament_pgn_route(request: Request) -> Response:
    """GET /api/tournament.pgn (or .pdn): a checkers tournament as PDN, named .pdn."""
    view = tournament_view(request)
    if view is None:
        return _no_view()
    checkers = view.tournament is not None and view.tournament.game == Variant.CHECKERS
    ext, media = ("pdn", PDN_TYPE) if checkers else ("pgn", PGN_TYPE)  # checkers games are PDN
    return _answer(lambda: PlainTextResponse(
        tournament_pgn(view), media_type=media,
        headers={"Content-Disposition": f'inline; filename="{_slug(view)}.{ext}"'}))


async def tournament_trf_route(request: Request) -> Response:
    """GET /api/tournament.trf."""
    view = tournament_view(request)
    if view is None:
        return _no_view()
    return _answer(lambda: PlainTextResponse(
        tournament_trf(view), media_type=TRF_TYPE,
        headers={"Content-Disposition": f'inline; filename="{_slug(view)}.trf"'}))


def _page(request: Request, what: str) -> Response:
    """The page ``what`` ("standings" or "crosstable"): its frame; standings.js fills the tables."""
    view = tournament_view(request)
    name = (view.name if view is not None else "") or "Tournament"
    rnd = view.current_round if view is not None else 0
    total = view.tournament.rounds_total if view is not None and view.tournament is not None else None
    label = f"Round {rnd}" + (f" of {total}" if total else "") if rnd else ""
    site = view.tournament.site if view is not None and view.tournament is not None else ""
    return page(request, f"{what}.html", event=name, round_label=label, site=site, title=f"{name} - {what}",
                current=what, server_now=int(time.time() * 1000))


async def standings_page(request: Request) -> Response:
    """GET /standings."""
    return _page(request, "standings")


async def crosstable_page(request: Request) -> Response:
    """GET /crosstable."""
    return _page(request, "crosstable")


def routes() -> list[Route]:
    """The routes above, to add to the dashboard's ``Starlette(routes=...)`` before its static Mount."""
    return [
        Route("/standings", standings_page),
        Route("/crosstable", crosstable_page),
        Route("/api/standings", standings_api),
        Route("/api/crosstable", crosstable_api),
        Route("/api/tournament.pgn", tournament_pgn_route),
        Route("/api/tournament.pdn", tournament_pgn_route),
        Route("/api/tournament.trf", tournament_trf_route),
    ]
