"""The JSON and PGN API (DESIGN.md "Dashboard"). Spectators' routes only: nothing here acts.

- ``GET /api/health``: ``{"ok": bool, "tournament", "seq" (last folded), "caught_up", "spectators",
  "error": str|None}``; 503 when the event log cannot be read.
- ``GET /api/games[?round=R]``: ``{"round": ROUND|None, "seq": N, "games": [GAME, ...]}``
  (services.views.spectator): the current round, or round R (404 for a round not set up).
- ``GET /api/rounds``: ``{"current": R|None, "rounds": [ROUND, ...]}``, every round set up.
- ``GET /api/games/{id}``: one GAME of any round; 404 ``{"error": ...}`` when there is none.
- ``GET /api/games/{id}.pgn``, ``GET /api/round.pgn[?round=R]``: PGN with %clk (services.hall.view_pgn);
  checkers games are PDN (``application/x-draughts-pdn``, files named ``.pdn``), also at
  ``/api/games/{id}.pdn`` and ``/api/round.pdn``.
- ``GET /board/{id}.svg?ply=N&size=PX&coords=0|1&flip=0|1``: the board after ply N (default now).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from services.hall.view_pgn import game_pgn, round_pgn

from dashboard.boards import game_svg
from dashboard.feed import Feed

PGN_TYPE = "application/x-chess-pgn; charset=utf-8"
PDN_TYPE = "application/x-draughts-pdn; charset=utf-8"  # checkers: PDN, as pydraughts and PDN 3.0 name it


def _file_kind(games: list[dict]) -> tuple[str, str]:
    """``(extension, media type)`` of a download of ``games``: ``pdn`` and the draughts type when
    they are checkers games, else ``pgn`` and the chess type."""
    if games and all(g.get("variant") == "checkers" for g in games):
        return "pdn", PDN_TYPE
    return "pgn", PGN_TYPE


def _feed(request: Request) -> Feed:
    return request.app.state.feed


def _not_found(game_id: str) -> JSONResponse:
    return JSONResponse({"error": f"no game {game_id!r} in this tournament"}, status_code=404)


def _round(request: Request) -> str | None | JSONResponse:
    """The ``round`` query parameter: None (the current round), a round set up, or a 404 response."""
    number = request.query_params.get("round")
    if number is None:
        return None
    if number not in _feed(request).state.rounds:
        return JSONResponse({"error": f"no round {number[:20]!r} set up"}, status_code=404)
    return number


async def rounds(request: Request) -> JSONResponse:
    """``GET /api/rounds``: every round set up, and which is the current one."""
    view = _feed(request).view
    return JSONResponse({"current": view.state.current, "rounds": view.rounds()})


async def health(request: Request) -> JSONResponse:
    """``GET /api/health``: is the feed folding the log (503 with ``error`` when not)."""
    feed = _feed(request)
    body = {"ok": feed.error is None, "tournament": feed.log.tournament, "seq": feed.view.seq,
            "caught_up": feed.caught_up.is_set(), "spectators": len(feed.hub.clients),
            "error": feed.error}
    return JSONResponse(body, status_code=200 if feed.error is None else 503)


async def games(request: Request) -> Response:
    """``GET /api/games[?round=R]``: the current round's GAMEs, encoded once per log seq; or round R's."""
    number = _round(request)
    if isinstance(number, Response):
        return number
    if number is not None and number != _feed(request).state.current:
        view = _feed(request).view
        r = view.state.rounds[number]
        return JSONResponse({"round": r.info(), "seq": view.seq, "games": view.games(number)})
    _, text = _feed(request).games_text()
    return Response(text, media_type="application/json")


async def game(request: Request) -> Response:
    """``GET /api/games/{id}`` (and ``{id}.pgn``, ``{id}.pdn``): one GAME, or 404."""
    game_id = request.path_params["id"]
    if game_id.endswith((".pgn", ".pdn")):  # the router gives "{id}.pgn" to this route too
        return await game_pgn_route(request, game_id[:-4])
    g = _feed(request).view.game(game_id)
    return JSONResponse(g) if g is not None else _not_found(game_id)


async def game_pgn_route(request: Request, game_id: str) -> Response:
    """One game of any round as PGN with %clk (a checkers game as PDN, named ``.pdn``, whichever
    extension was asked for); 404 when there is none."""
    view = _feed(request).view
    g = view.game(game_id)
    if g is None:
        return _not_found(game_id)
    ext, media = _file_kind([g])
    r = view.state.rounds.get(g["round"])
    return PlainTextResponse(game_pgn(g, r.info() if r else view.round), media_type=media,
                             headers={"Content-Disposition": f'inline; filename="{game_id}.{ext}"'})


async def round_pgn_route(request: Request) -> Response:
    """``GET /api/round.pgn[?round=R]`` (or ``.pdn``): every game of the current round (or round R),
    in board order; a checkers round is PDN, named ``round-N.pdn``."""
    number = _round(request)
    if isinstance(number, Response):
        return number
    view = _feed(request).view
    games = view.games(number)
    info = view.state.rounds[number].info() if number is not None else view.round
    ext, media = _file_kind(games)
    name = f"round-{info['round']}.{ext}" if info else f"round.{ext}"
    return PlainTextResponse(round_pgn(games, info), media_type=media,
                             headers={"Content-Disposition": f'inline; filename="{name}"'})


def _flag(request: Request, name: str, default: bool) -> bool:
    raw = request.query_params.get(name)
    return default if raw is None else raw not in ("0", "false", "no")


def _whole(request: Request, name: str, default: int | None, message: str) -> int | None:
    """The query parameter ``name`` as a whole number (``default`` when absent). Raises ValueError
    with ``message`` and the text given when it is not one (never int()'s own words)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.strip().isascii() or not raw.strip().lstrip("-").isdigit():
        raise ValueError(f"{message}, got {raw!r}")
    return int(raw)


async def board_svg(request: Request) -> Response:
    """``GET /board/{id}.svg``: the board picture; 400 for a bad ply or size, 404 for no game."""
    game_id = request.path_params["id"]
    g = _feed(request).view.game(game_id)
    if g is None:
        return _not_found(game_id)
    try:
        ply = _whole(request, "ply", None, "ply must be a whole number of plies (0 = the start)")
        size = _whole(request, "size", 360, "size must be a whole number of pixels")
        svg = game_svg(g, ply, max(120, min(size, 1200)),
                       _flag(request, "coords", True), _flag(request, "flip", False))
    except ValueError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    # A given ply of a game never changes, so pictures asked for by ply may be cached.
    cache = "public, max-age=3600" if "ply" in request.query_params else "no-cache"
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": cache})
