"""A local stand-in for lichess's broadcast push endpoint, served over real HTTP on a free port of
127.0.0.1 so the push client talks to it exactly as to lichess, and behaving as lila's source does
(lichess-org/lila ``app/controllers/RelayRound.push``, ``modules/relay`` ``RelayPush``,
``RelaySync``, ``RelayUpdatePlan``, ``JsonView``; ``modules/study`` ``MultiPgn``):

- ``POST /api/broadcast/round/{broadcastRoundId}/push``, a Bearer token with the study:write scope
  (401 otherwise), a round id it knows (404 otherwise), the body PGN text;
- the body is split before each ``[`` that follows a blank line and cut to the first 100 games
  (``MultiPgn.split(body, RelayFetch.maxChaptersToShow)``): the rest is dropped without a word;
- the answer ``{"games": [{"tags": {...}, "moves": N} | {"tags": {...}, "error": "..."}]}``, one
  entry per game read, in body order, *before* the games are put in chapters;
- each game goes to the round's chapter it matches (``tests/lichess_relay.same_game``: by
  ``GameId``, else event, round, board and players), else becomes a new chapter **only while the
  round has fewer than 100** (``RelaySync.createChapter``: ``maxChaptersToShow > nb``); a game that
  finds no room is answered with success all the same and kept nowhere.

Every game is read with python-chess; one it cannot read is answered with a per-game error. ``fail``
holds HTTP statuses to answer with first (a lichess that is down or rate-limits); ``refuse`` player
names, and ``refuse_ids`` GameIds, whose games get an error (a chapter lichess cannot take). ``chapters[round id]`` holds each
chapter's tags and moves; ``shrunk`` every update that did not extend a chapter's moves (a move taken
back on lichess's board: the audience sees moves only growing when it stays empty)."""

from __future__ import annotations

import io
import re
import socket
import threading

import chess.pgn
import uvicorn
from eventually import eventually
from lichess_relay import same_game
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

MAX_CHAPTERS = 100  # lila RelayFetch.maxChaptersToShow
_SPLIT = re.compile(r"\n\n(?=\[)")  # lila MultiPgn.splitPat


class LichessDouble:
    def __init__(self, token: str, *round_ids: str):
        self.token = token
        self.round_ids = list(round_ids)
        self.fail: list[int] = []
        self.refuse: set[str] = set()
        self.refuse_ids: set[str] = set()
        self.bodies: list[str] = []  # every body that was taken (200)
        self.pushes: list[tuple[str, str]] = []  # (round id, body) of each taken push
        self.chapters: dict[str, list[dict]] = {r: [] for r in round_ids}
        self.shrunk: list[tuple[str, str, int, int]] = []  # (round id, GameId, plies before, after)
        self.requests = 0
        self.url = ""
        self._server: uvicorn.Server | None = None

    @property
    def round_id(self) -> str:
        """The first round id (the one-round tests)."""
        return self.round_ids[0]

    async def push(self, request: Request) -> JSONResponse:
        self.requests += 1
        if request.headers.get("authorization") != f"Bearer {self.token}":
            return JSONResponse({"error": "No such token"}, status_code=401)
        rid = request.path_params["id"]
        if rid not in self.chapters:
            return JSONResponse({"error": "Not found"}, status_code=404)
        if self.fail:
            code = self.fail.pop(0)
            return JSONResponse({"error": "try later"}, status_code=code)
        text = (await request.body()).decode("utf-8")
        self.bodies.append(text)
        self.pushes.append((rid, text))
        out, taken = [], []
        for part in [p for p in _SPLIT.split(text.replace("\r", ""), MAX_CHAPTERS)[:MAX_CHAPTERS] if p]:
            g = chess.pgn.read_game(io.StringIO(part))
            if g is None:
                out.append({"tags": {}, "error": "No game found"})
                continue
            tags = dict(g.headers)
            if g.errors:
                out.append({"tags": tags, "error": f"Invalid PGN: {g.errors[0]}"})
            elif tags.get("White") in self.refuse or tags.get("Black") in self.refuse \
                    or tags.get("GameId") in self.refuse_ids:
                out.append({"tags": tags, "error": "Cannot add a chapter to this study"})
            else:
                moves = [m.uci() for m in g.mainline_moves()]
                out.append({"tags": tags, "moves": len(moves)})
                taken.append((tags, moves))
        self._sync(rid, taken)
        return JSONResponse({"games": out})

    def _sync(self, rid: str, games: list[tuple[dict, list[str]]]) -> None:
        """lila's RelaySync after the answer: update the matching chapter, or append one while the
        round has room."""
        chapters = self.chapters[rid]
        for tags, moves in games:
            hit = next((c for c in chapters if same_game(tags, c["tags"])), None)
            if hit is None:
                if len(chapters) < MAX_CHAPTERS:
                    chapters.append({"tags": dict(tags), "moves": list(moves)})
                continue
            if moves[: len(hit["moves"])] != hit["moves"]:
                self.shrunk.append((rid, tags.get("GameId", "?"), len(hit["moves"]), len(moves)))
            hit["tags"], hit["moves"] = dict(tags), list(moves)

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
