"""The arbiters' HTTP and websocket routes (docs/arbiter.md). Every route but the login and the
page itself needs a session (cookie ``venue_arbiter`` or ``Authorization: Bearer TOKEN``); without
one it answers 401 and records nothing. Spectators' routes never expose any of this.

- ``POST /api/arbiter/login`` ``{"login", "password"}`` -> ``{"login", "name", "token"}`` + cookie;
  401 on a wrong login or password.
- ``POST /api/arbiter/logout``.
- ``GET /api/arbiter/alerts`` -> the desk snapshot (open alerts, closed ones, recent actions).
- ``POST /api/arbiter/actions`` ``{"action": NAME, ...fields}`` -> ``{"entries": [ENTRY...]}``;
  400 with ``{"error"}`` on a bad request (dashboard.arbiter.actions).
- ``/ws/arbiter``: the desk snapshot, then alert and action messages (dashboard.arbiter.desk).
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from dashboard.arbiter.actions import ActionError, build
from dashboard.arbiter.auth import TOKEN_TTL_S, Account
from dashboard.live import _drain_incoming, _write

COOKIE = "venue_arbiter"


def _token(conn) -> str | None:
    auth = conn.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return conn.cookies.get(COOKIE) or conn.query_params.get("token")


def current(conn) -> Account | None:
    """The logged-in arbiter of a request or websocket, or None."""
    accounts = getattr(conn.app.state, "accounts", None)
    return accounts.check(_token(conn)) if accounts else None


def _unauthorized() -> JSONResponse:
    return JSONResponse({"error": "arbiters only: log in first"}, status_code=401)


async def login(request: Request) -> JSONResponse:
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "the body must be JSON: {\"login\", \"password\"}"}, status_code=400)
    accounts = request.app.state.accounts
    acct = accounts.verify(str(body.get("login", "")), str(body.get("password", ""))) if isinstance(body, dict) else None
    if acct is None:
        return JSONResponse({"error": "wrong login or password"}, status_code=401)
    token = accounts.issue(acct.login)
    resp = JSONResponse({"login": acct.login, "name": acct.name, "token": token})
    resp.set_cookie(COOKIE, token, max_age=TOKEN_TTL_S, httponly=True, samesite="strict")
    return resp


async def logout(request: Request) -> JSONResponse:
    resp = JSONResponse({"ok": True})
    resp.delete_cookie(COOKIE)
    return resp


async def me(request: Request) -> JSONResponse:
    acct = current(request)
    if acct is None:
        return _unauthorized()
    return JSONResponse({"login": acct.login, "name": acct.name})


async def alerts(request: Request) -> JSONResponse:
    if current(request) is None:
        return _unauthorized()
    return JSONResponse(request.app.state.desk.snapshot_dict())


async def actions(request: Request) -> JSONResponse:
    acct = current(request)
    if acct is None:
        return _unauthorized()
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "the body must be JSON"}, status_code=400)
    if not isinstance(body, dict):
        return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)
    feed = request.app.state.feed
    games = {g["id"]: g for g in feed.view.all_games()} if hasattr(feed.view, "all_games") else \
        {g["id"]: g for g in feed.view.games()}
    try:
        items = build(str(body.get("action", "")), body, acct.login, games)
        alert = body.get("alert")
        if alert is not None and int(alert) not in request.app.state.desk.queue.alerts:
            raise ActionError(f"alert: no alert {alert} (see GET /api/arbiter/alerts)")
    except (ActionError, ValueError, TypeError) as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    entries = await feed.log.append_many([(t, d, None) for (t, d) in items])
    return JSONResponse({"entries": [e.to_json() for e in entries]})


async def arbiter_ws(ws: WebSocket) -> None:
    """Serve one arbiter's console; closes with 1008 (policy violation) without a valid session."""
    if current(ws) is None:
        await ws.close(code=1008)
        return
    desk = ws.app.state.desk
    await ws.accept()
    client = desk.hub.add()
    try:
        first = [desk.snapshot()]
        reader = asyncio.create_task(_drain_incoming(ws))
        writer = asyncio.create_task(_write(ws, desk, client, first, first[0][0]))
        done, pending = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    finally:
        desk.hub.remove(client)
