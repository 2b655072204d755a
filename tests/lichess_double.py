"""A local stand-in for lichess's broadcast push endpoint, as lichess documents it
(``POST /api/broadcast/round/{broadcastRoundId}/push``: a Bearer token with the study:write scope,
the body PGN text of at most 100 games; the answer ``{"games": [{"tags": {...}, "moves": N} or
{"tags": {...}, "error": "..."}]}``), served over real HTTP on a free port of 127.0.0.1 so the push
client talks to it exactly as to lichess. Every body is read with python-chess; a game it cannot
read is answered with a per-game error. ``fail`` holds HTTP statuses to answer with first (a
lichess that is down or rate-limits); ``refuse`` player names whose games get an error (a chapter
lichess cannot take)."""

from __future__ import annotations

import io
import socket
import threading

import chess.pgn
import uvicorn
from eventually import eventually
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

MAX_GAMES = 100


class LichessDouble:
    def __init__(self, token: str, round_id: str):
        self.token = token
        self.round_id = round_id
        self.fail: list[int] = []
        self.refuse: set[str] = set()
        self.bodies: list[str] = []  # every body that was taken (200)
        self.requests = 0
        self.url = ""
        self._server: uvicorn.Server | None = None

    async def push(self, request: Request) -> JSONResponse:
        self.requests += 1
        if request.headers.get("authorization") != f"Bearer {self.token}":
            return JSONResponse({"error": "No such token"}, status_code=401)
        if request.path_params["id"] != self.round_id:
            return JSONResponse({"error": "Not found"}, status_code=404)
        if self.fail:
            code = self.fail.pop(0)
            return JSONResponse({"error": "try later"}, status_code=code)
        text = (await request.body()).decode("utf-8")
        games = read_games(text)
        if len(games) > MAX_GAMES:
            return JSONResponse({"error": f"Too many games: {len(games)} > {MAX_GAMES}"}, status_code=400)
        self.bodies.append(text)
        out = []
        for g in games:
            tags = dict(g.headers)
            if g.errors:
                out.append({"tags": tags, "error": f"Invalid PGN: {g.errors[0]}"})
            elif tags.get("White") in self.refuse or tags.get("Black") in self.refuse:
                out.append({"tags": tags, "error": "Cannot add a chapter to this study"})
            else:
                out.append({"tags": tags, "moves": len(list(g.mainline_moves()))})
        return JSONResponse({"games": out})

    def __enter__(self) -> "LichessDouble":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        app = Starlette(routes=[Route("/api/broadcast/round/{id}/push", self.push, methods=["POST"])])
        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        threading.Thread(target=self._server.run, daemon=True).start()
        eventually(lambda: self._server.started, 10)
        self.url = f"http://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.should_exit = True


def read_games(text: str) -> list[chess.pgn.Game]:
    """Every game of a PGN text, as python-chess reads it."""
    stream, out = io.StringIO(text), []
    while (g := chess.pgn.read_game(stream)) is not None:
        out.append(g)
    return out
