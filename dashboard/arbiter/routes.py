"""The arbiters' HTTP and websocket routes (docs/arbiter.md). Every route but the login and the
page itself needs a session (cookie ``venue_arbiter`` or ``Authorization: Bearer TOKEN``, never a
token in the URL); without one it answers 401 and records nothing. Spectators' routes never expose
any of this. Origins and CSRF tokens are checked before any route runs (dashboard.security).

- ``POST /api/arbiter/login`` ``{"login", "password"}`` (JSON) -> ``{"login", "name", "token"}`` +
  cookie; 401 on a wrong login or password, 429 with ``Retry-After`` after too many failures
  (dashboard.arbiter.throttle), 415 for a body that is not JSON.
- ``POST /api/arbiter/logout``: revokes the session (its token is refused from then on, and its
  open ``/ws/arbiter`` closes with 1008).
- ``GET /api/arbiter/alerts`` -> the desk snapshot (open alerts, closed ones, recent actions).
- ``GET /api/arbiter/round-tools`` -> what the next pairing reads from the log: players, who is
  left out of the next round and with which code, requested byes, late entries, forbidden pairs,
  acceleration (services.views.round_tools).
- ``POST /api/arbiter/actions`` ``{"action": NAME, ...fields}`` (JSON, else 415) ->
  ``{"entries": [ENTRY...]}``; 400 with ``{"error"}`` on a bad request (dashboard.arbiter.actions).
- ``/ws/arbiter``: the desk snapshot, then alert and action messages (dashboard.arbiter.desk);
  closed with 1008 when the session is revoked or expires.

A ``token`` in the query string is refused (400; a websocket is closed with 1008): URLs end up in
proxy logs and browser history.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from dashboard.arbiter.actions import ActionError, Context
from dashboard.arbiter.actions import decode as decode_action
from dashboard.arbiter.auth import Account, Session
from dashboard.live import _drain_incoming, _write
from services.views.round_tools import round_tools as round_tools_json

COOKIE = "venue_arbiter"
TOKEN_IN_URL = ("a session token never goes in a URL (proxies log URLs and browsers keep them): "
                "send the cookie or Authorization: Bearer TOKEN")


def _token(conn) -> str | None:
    auth = conn.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return conn.cookies.get(COOKIE)


def session(conn) -> Session | None:
    """The live session of a request or websocket, or None (none, revoked, expired, or a token in
    the URL: refused whatever else the request carries)."""
    accounts = getattr(conn.app.state, "accounts", None)
    if accounts is None or "token" in conn.query_params:
        return None
    return accounts.session(_token(conn))


def current(conn) -> Account | None:
    """The logged-in arbiter of a request or websocket, or None."""
    found = session(conn)
    return found.account if found else None


def _unauthorized(request: Request) -> JSONResponse:
    if "token" in request.query_params:
        return JSONResponse({"error": TOKEN_IN_URL}, status_code=400)
    return JSONResponse({"error": "arbiters only: log in first"}, status_code=401)


def _not_json(request: Request) -> JSONResponse | None:
    """415 unless the body is declared JSON: a page elsewhere can post text/plain or a form without
    asking the browser's permission, never application/json."""
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type == "application/json":
        return None
    return JSONResponse({"error": "the body must be JSON (Content-Type: application/json)"}, status_code=415)


def _client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _session_cookie(request: Request, resp: JSONResponse, token: str | None, max_age: int = 0) -> None:
    """Set (``token``) or drop (None) the session cookie: HttpOnly, SameSite=Strict, and Secure
    when the request came over TLS (the scheme uvicorn's proxy headers give)."""
    secure = request.url.scheme in ("https", "wss")
    if token is None:
        resp.delete_cookie(COOKIE, httponly=True, samesite="strict", secure=secure)
    else:
        resp.set_cookie(COOKIE, token, max_age=max_age, httponly=True, samesite="strict", secure=secure)


async def login(request: Request) -> JSONResponse:
    if (refused := _not_json(request)) is not None:
        return refused
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "the body must be JSON: {\"login\", \"password\"}"}, status_code=400)
    if not isinstance(body, dict):
        return JSONResponse({"error": "the body must be a JSON object: {\"login\", \"password\"}"}, status_code=400)
    login_name, address = str(body.get("login", "")), _client_address(request)
    throttle = request.app.state.login_throttle
    wait_s = throttle.start(login_name, address)
    if wait_s is not None:
        minutes = max(1, round(wait_s / 60))
        return JSONResponse({"error": f"too many failed logins: try again in {minutes} min"},
                            status_code=429, headers={"Retry-After": str(wait_s)})
    accounts = request.app.state.accounts
    acct = await accounts.authenticate(login_name, str(body.get("password", "")))
    if acct is None:
        return JSONResponse({"error": "wrong login or password"}, status_code=401)
    throttle.succeeded(login_name, address)
    token = accounts.issue(acct.login)
    resp = JSONResponse({"login": acct.login, "name": acct.name, "token": token})
    _session_cookie(request, resp, token, accounts.ttl_s)
    return resp


async def logout(request: Request) -> JSONResponse:
    """Revoke the request's session (if any) and drop the cookie."""
    if "token" in request.query_params:
        return _unauthorized(request)
    request.app.state.accounts.revoke(_token(request))
    resp = JSONResponse({"ok": True})
    _session_cookie(request, resp, None)
    return resp


async def me(request: Request) -> JSONResponse:
    acct = current(request)
    if acct is None:
        return _unauthorized(request)
    return JSONResponse({"login": acct.login, "name": acct.name})


async def alerts(request: Request) -> JSONResponse:
    if current(request) is None:
        return _unauthorized(request)
    return JSONResponse(request.app.state.desk.snapshot_dict())


async def round_tools(request: Request) -> JSONResponse:
    """``GET /api/arbiter/round-tools``: the Round tools panel's data (services.views.round_tools)."""
    if current(request) is None:
        return _unauthorized(request)
    return JSONResponse(round_tools_json(request.app.state.feed.state))


async def actions(request: Request) -> JSONResponse:
    """``POST /api/arbiter/actions``: the body decoded into its action (dashboard.arbiter.actions),
    its entries appended; 400 ``{"error"}`` naming the field for a bad body or a refused action."""
    acct = current(request)
    if acct is None:
        return _unauthorized(request)
    if (refused := _not_json(request)) is not None:
        return refused
    feed = request.app.state.feed
    games = feed.live.view.every_game()  # any game of the event, earlier rounds too, as it stands now
    try:
        act = decode_action(await request.body())
        # decisions with a rule behind them are judged on the folded state at the request's instant
        items = act.entries(Context(acct.login, games, feed.state, now_ms=int(time.time() * 1000)))
        if act.alert is not None and act.alert not in request.app.state.desk.queue.alerts:
            raise ActionError(f"alert: no alert {act.alert} (see GET /api/arbiter/alerts)")
    except ActionError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    entries = await feed.log.append_many([(t, d, None) for (t, d) in items])
    return JSONResponse({"entries": [e.to_json() for e in entries]})


async def arbiter_ws(ws: WebSocket) -> None:
    """Serve one arbiter's console; closes with 1008 (policy violation) without a valid session,
    and when that session is revoked (logout) or expires while the console is open."""
    live = session(ws)
    if live is None:
        await ws.close(code=1008)
        return
    desk = ws.app.state.desk
    await ws.accept()
    client = desk.hub.add()
    try:
        first = [desk.snapshot()]
        reader = asyncio.create_task(_drain_incoming(ws))
        writer = asyncio.create_task(_write(ws, desk, client, first, first[0][0]))
        ended = asyncio.create_task(ws.app.state.accounts.until_ended(live))
        done, pending = await asyncio.wait({reader, writer, ended}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if ended in done:
            with contextlib.suppress(Exception):  # the client may be gone already
                await ws.close(code=1008, reason=f"session {ended.result()}: log in again")
    finally:
        desk.hub.remove(client)
