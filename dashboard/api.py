"""The JSON and PGN API (DESIGN.md "Dashboard"). Spectators' routes only: nothing here acts.

Every route reads the audience's channel (``dashboard.audience``): the public one (the hall as it was
``[broadcast] delay`` ago: docs/broadcast.md), or the live one for an arbiter's session.

- ``GET /api/health``: ``{"ok": bool, "tournament", "seq" (last folded), "caught_up", "spectators",
  "error": str|None, "delay_ms", "public_seq", "deaf_gateways": [client id, ...]}``; 503 when the event
  log cannot be read, or when the log says a gateway is deaf (``gateway_deaf`` without its
  ``gateway_hearing``: the broker delivers it nothing, so no move is recorded: issue 28).
- ``GET /api/games[?round=R]``: ``{"round": ROUND|None, "seq": N, "games": [GAME, ...]}``
  (services.views.spectator): the current round, or round R (404 for a round not set up).
- ``GET /api/rounds``: ``{"current": R|None, "rounds": [ROUND, ...], "next": {"round", "start_ms"}|None,
  "now": ms}``: every round set up, and the next round the tournament file schedules (a countdown).
- ``GET /api/games/{id}``: one GAME of any round; 404 ``{"error": ...}`` when there is none.
- ``GET /api/games/{id}.pgn``, ``GET /api/round.pgn[?round=R]``: PGN with %clk (services.arbiter_office.view_pgn),
  fit for lichess's relay to poll: ``ETag`` and ``Last-Modified``, ``304`` for ``If-None-Match`` /
  ``If-Modified-Since`` when nothing changed; checkers games are PDN (``application/x-draughts-pdn``,
  files named ``.pdn``), also at ``/api/games/{id}.pdn`` and ``/api/round.pdn``.
- ``GET /board/{id}.svg?ply=N&size=PX&coords=0|1&flip=0|1``: the board after ply N (default now).
"""

from __future__ import annotations

import asyncio

import hashlib
from email.utils import format_datetime, parsedate_to_datetime
from datetime import datetime, timezone

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from services.events.vocabulary import Variant
from services.arbiter_office.view_pgn import game_pgn, round_pgn

from dashboard.audience import channel
from dashboard.boards import game_svg
from dashboard.feed import Channel

PGN_TYPE = "application/x-chess-pgn; charset=utf-8"
PDN_TYPE = "application/x-draughts-pdn; charset=utf-8"  # checkers: PDN, as pydraughts and PDN 3.0 name it


def _file_kind(games: list[dict]) -> tuple[str, str]:
    """``(extension, media type)`` of a download of ``games``: ``pdn`` and the draughts type when
    they are checkers games, else ``pgn`` and the chess type."""
    if games and all(g.get("variant") == Variant.CHECKERS for g in games):
        return "pdn", PDN_TYPE
    return "pgn", PGN_TYPE


def _not_found(game_id: str) -> JSONResponse:
    return JSONResponse({"error": f"no game {game_id!r} in this tournament"}, status_code=404)


def _round(request: Request, ch: Channel) -> str | None | JSONResponse:
    """The ``round`` query parameter: None (the current round), a round set up, or a 404 response."""
    number = request.query_params.get("round")
    if number is None:
        return None
    if number not in ch.state.rounds:
        return JSONResponse({"error": f"no round {number[:20]!r} set up"}, status_code=404)
    return number


def next_round(ch: Channel, now_ms: int) -> dict | None:
    """``{"round", "start_ms"}`` of the next round the tournament file schedules after ``now_ms``
    that is not set up yet, or None (no file, no schedule, or the last round is under way)."""
    t = ch.state.config
    if t is None:
        return None
    for r in sorted(t.rounds, key=lambda r: r.start_ms):
        if str(r.number) not in ch.state.rounds and r.start_ms > now_ms:
            return {"round": str(r.number), "start_ms": r.start_ms}
    return None


async def rounds(request: Request) -> JSONResponse:
    """``GET /api/rounds``: every round set up, the current one, the next one scheduled."""
    ch = channel(request)
    now = request.app.state.feed.clock()
    return JSONResponse({"current": ch.state.current, "rounds": ch.view.rounds(), "next": next_round(ch, now),
                         "now": now})


STORE_PROBE_S = 1.0  # how long /api/health waits for the store, and how long its answer is kept


async def store_error(feed) -> str | None:
    """Whether the store answers now (``last_seq`` within ``STORE_PROBE_S``): None, or why not. The
    answer is kept ``STORE_PROBE_S`` so a health check every second costs one store call: a frozen
    or lost store shows within a second or two, not when the feed's next read times out (15-20 s),
    and a store back shows at once, not at the next entry."""
    loop = asyncio.get_running_loop()
    cached = getattr(feed, "_probe", None)
    if cached is not None and loop.time() - cached[0] < STORE_PROBE_S:
        return cached[1]
    try:
        await asyncio.wait_for(feed.log.last_seq(), STORE_PROBE_S)
        error = None
    except asyncio.TimeoutError:
        error = f"the event log store did not answer within {STORE_PROBE_S:g} s"
    except Exception as exc:  # noqa: BLE001 - any store failure is what health reports
        error = f"{type(exc).__name__}: {exc}"
    feed._probe = (loop.time(), error)
    return error


def deaf_error(deaf: dict[str, dict]) -> str | None:
    """The health error for the gateways the log says are deaf (client id -> its ``gateway_deaf``
    data), or None."""
    if not deaf:
        return None
    named = ", ".join(f"{cid} (since {data.get('since')} ms, {data.get('unanswered')} probes unanswered)"
                      for cid, data in sorted(deaf.items()))
    return f"gateway deaf: the broker delivers nothing to {named}"


async def health(request: Request) -> JSONResponse:
    """``GET /api/health``: is the feed folding the log and does the store answer now (503 with
    ``error`` when not)."""
    feed = request.app.state.feed
    error = feed.error or await store_error(feed) or deaf_error(feed.deaf_gateways)
    body = {"ok": error is None, "tournament": feed.log.tournament, "seq": feed.state.seq,
            "caught_up": feed.caught_up.is_set(), "spectators": len(feed.hub.clients),
            "error": error, "delay_ms": feed.delay.delay_ms, "public_seq": feed.public.state.seq,
            "deaf_gateways": sorted(feed.deaf_gateways)}
    return JSONResponse(body, status_code=200 if error is None else 503)


async def games(request: Request) -> Response:
    """``GET /api/games[?round=R]``: the current round's GAMEs, encoded once per log seq; or round R's."""
    ch = channel(request)
    number = _round(request, ch)
    if isinstance(number, Response):
        return number
    if number is not None and number != ch.state.current:
        r = ch.state.rounds[number]
        return JSONResponse({"round": r.info(), "seq": ch.view.seq, "games": ch.view.games(number)})
    _, text = ch.games_text()
    return Response(text, media_type="application/json")


async def game(request: Request) -> Response:
    """``GET /api/games/{id}`` (and ``{id}.pgn``, ``{id}.pdn``): one GAME, or 404."""
    game_id = request.path_params["id"]
    if game_id.endswith((".pgn", ".pdn")):  # the router gives "{id}.pgn" to this route too
        return await game_pgn_route(request, game_id[:-4])
    g = channel(request).view.game(game_id)
    return JSONResponse(g) if g is not None else _not_found(game_id)


def _http_date(ms: int) -> str:
    return format_datetime(datetime.fromtimestamp(ms // 1000, timezone.utc), usegmt=True)


def polled(request: Request, ch: Channel, key: tuple, make, media: str, filename: str) -> Response:
    """A feed polled by broadcasts (lichess's relay, chess.com): the text ``make()`` gives, built
    once per log seq, with a strong ``ETag`` (its content's hash) and ``Last-Modified`` (when that
    content was first served); ``304 Not Modified`` when the poller's ``If-None-Match`` (or, without
    it, ``If-Modified-Since``) shows it has this content already."""
    seq = ch.view.seq
    hit = ch.texts.get(key)
    if hit is None or hit[0] != seq:
        text = make()
        etag = '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
        modified = hit[3] if hit is not None and hit[2] == etag else request.app.state.feed.clock()
        hit = ch.texts[key] = (seq, text, etag, modified)
    _, text, etag, modified = hit
    headers = {"ETag": etag, "Last-Modified": _http_date(modified), "Cache-Control": "no-cache",
               "Content-Disposition": f'inline; filename="{filename}"'}
    if _not_modified(request, etag, modified):
        return Response(status_code=304, headers={k: v for k, v in headers.items() if k != "Content-Disposition"})
    return Response(text, media_type=media, headers=headers)


def _not_modified(request: Request, etag: str, modified_ms: int) -> bool:
    match = request.headers.get("if-none-match")
    if match is not None:
        return match.strip() == "*" or etag in [m.strip().removeprefix("W/") for m in match.split(",")]
    since = request.headers.get("if-modified-since")
    if since is None:
        return False
    try:
        return modified_ms // 1000 <= int(parsedate_to_datetime(since).timestamp())
    except (TypeError, ValueError):
        return False


async def game_pgn_route(request: Request, game_id: str) -> Response:
    """One game of any round as PGN with %clk (a checkers game as PDN, named ``.pdn``, whichever
    extension was asked for); 404 when there is none."""
    ch = channel(request)
    g = ch.view.game(game_id)
    if g is None:
        return _not_found(game_id)
    ext, media = _file_kind([g])
    r = ch.state.rounds.get(g["round"])
    info = r.info() if r else ch.view.round
    return polled(request, ch, ("game", game_id), lambda: game_pgn(g, info), media, f"{game_id}.{ext}")


async def round_pgn_route(request: Request) -> Response:
    """``GET /api/round.pgn[?round=R]`` (or ``.pdn``): every game of the current round (or round R),
    in board order; a checkers round is PDN, named ``round-N.pdn``."""
    ch = channel(request)
    number = _round(request, ch)
    if isinstance(number, Response):
        return number
    games = ch.view.games(number)
    info = ch.state.rounds[number].info() if number is not None else ch.view.round
    ext, media = _file_kind(games)
    name = f"round-{info['round']}.{ext}" if info else f"round.{ext}"
    return polled(request, ch, ("round", number), lambda: round_pgn(games, info), media, name)


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
    """``GET /board/{id}.svg``: the board picture; 400 for a bad ply or size, 404 for no game.
    A ply past what the audience may see is out of range (the delay hides it)."""
    game_id = request.path_params["id"]
    g = channel(request).view.game(game_id)
    if g is None:
        return _not_found(game_id)
    try:
        ply = _whole(request, "ply", None, "ply must be a whole number of plies (0 = the start)")
        size = _whole(request, "size", 360, "size must be a whole number of pixels")
        assert size is not None  # its default is 360
        svg = game_svg(g, ply, max(120, min(size, 1200)),
                       _flag(request, "coords", True), _flag(request, "flip", False))
    except ValueError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    # A given ply of a game never changes (a corrected record is asked for with another ``v``: the
    # pages put the move at that ply and the number of corrections in it), so it may be cached.
    cache = "public, max-age=3600" if "ply" in request.query_params else "no-cache"
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": cache})
