"""Print views: the sheets an arbiter pins on the wall or hands out, as pages with an A4 print
stylesheet (``/static/print.css``) that the browser prints (or saves as PDF) as they are.

- ``GET /print?round=N``: the list of the sheets of round N (default: the latest started);
- ``GET /print/pairings?round=N``: the pairings by board, with each player's points before the
  round; ``GET /print/pairings-by-name?round=N``: one line per player, alphabetical;
- ``GET /print/standings``: the standings with the event's tie-breaks (FIDE C.07) and their legend,
  then the prize list when the event has prizes (the same as /standings: ``tournament_json.prizes_json``);
- ``GET /print/wall-chart``: the crosstable (a square chart for a round robin, by round for a Swiss),
  on A4 landscape;
- ``GET /print/cards?round=N``: each player's pairing card up to round N;
- ``GET /print/slips?round=N``: a result slip per board of round N, eight to a page, to cut.

The data is ``services.views.print_sheets`` over the dashboard's tournament fold, the public one
(``[broadcast] delay`` behind) or, for an arbiter, the live one (``dashboard.standings``). A round
that was not set up is a 404 page with the reason, a ``round`` that is no number a 400; recorded
results that contradict each other a 409 (the log is never hidden or guessed at).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.arbiter_office.tournament_json import prizes_json
from services.views import print_sheets as sheets

from dashboard.standings import tournament_view
from dashboard.templating import page

VIEWS = [("pairings", "Pairings by board"), ("pairings-by-name", "Pairings by name"),
         ("standings", "Standings"), ("wall-chart", "Wall chart"), ("cards", "Pairing cards"),
         ("slips", "Result slips")]
"""The sheets, by their path under /print and their title."""


def _sheet(request: Request, name: str, make) -> Response:
    """The page ``print/NAME.html`` with ``make(view, round)``'s values, or the error page."""
    view = tournament_view(request)
    title = dict(VIEWS).get(name, "Print")
    raw = request.query_params.get("round", "")
    if view is None or not view.rounds:
        return _error(request, title, "No round has been set up yet: there is nothing to print.", 404)
    if raw and not raw.isdigit():
        return _error(request, title, f"round: {raw!r} is not a round number", 400)
    rnd = int(raw) if raw else view.current_round
    try:
        values = make(view, rnd)
    except sheets.SheetError as exc:
        return _error(request, title, str(exc), 404)
    except ValueError as exc:
        return _error(request, title, f"The recorded results do not add up: {exc}", 409)
    head = sheets.header(view, rnd)
    return page(request, f"print/{name}.html", title=f"{head.event} - {title}", sheet=title, head=head,
                views=VIEWS, current=name, rounds=sorted(view.rounds), **values)


def _error(request: Request, title: str, reason: str, status: int) -> Response:
    return page(request, "print/error.html", status_code=status, title=f"{title} - cannot print", sheet=title,
                reason=reason, views=VIEWS, current="", rounds=[], head=None)


async def index(request: Request) -> Response:
    """``GET /print``: the sheets of a round."""
    return _sheet(request, "index", lambda view, rnd: {"boards": sheets.pairings(view, rnd)})


async def pairings(request: Request) -> Response:
    """``GET /print/pairings``: the pairings by board."""
    return _sheet(request, "pairings", lambda view, rnd: {"boards": sheets.pairings(view, rnd)})


async def pairings_by_name(request: Request) -> Response:
    """``GET /print/pairings-by-name``: the pairings, a line per player, alphabetical."""
    return _sheet(request, "pairings-by-name", lambda view, rnd: {"lines": sheets.by_name(view, rnd)})


async def standings(request: Request) -> Response:
    """``GET /print/standings``: the standings after the rounds played, with the tie-breaks."""
    def make(view, rnd):
        rows, legend = view.standings(), sheets.tiebreak_legend(view)
        return {"rows": rows, "legend": legend, "codes": [code for code, _ in legend],
                "open_games": sum(r.in_progress for r in rows) // 2, "prizes": prizes_json(view)}
    return _sheet(request, "standings", make)


async def wall_chart(request: Request) -> Response:
    """``GET /print/wall-chart``: the crosstable."""
    def make(view, rnd):
        (rows, square), legend = sheets.wall_chart(view), sheets.tiebreak_legend(view)
        return {"rows": rows, "square": square, "cells": sheets.square_cells(rows) if square else {},
                "codes": [code for code, _ in legend], "legend": legend, "played": view.current_round}
    return _sheet(request, "wall-chart", make)


async def cards(request: Request) -> Response:
    """``GET /print/cards``: the players' pairing cards."""
    return _sheet(request, "cards", lambda view, rnd: {"cards": sheets.cards(view, rnd)})


async def slips(request: Request) -> Response:
    """``GET /print/slips``: the result slips of a round's boards."""
    return _sheet(request, "slips", lambda view, rnd: {
        "boards": [b for b in sheets.pairings(view, rnd) if b.black is not None]})


def routes() -> list[Route]:
    """The routes above, to add to the dashboard's ``Starlette(routes=...)``."""
    return [Route("/print", index), Route("/print/pairings", pairings),
            Route("/print/pairings-by-name", pairings_by_name), Route("/print/standings", standings),
            Route("/print/wall-chart", wall_chart), Route("/print/cards", cards), Route("/print/slips", slips)]
