"""The engine's reading of a position, for the broadcast audience (issue 31 item 4: "an engine
evaluation bar and best line on the game page, computed once per position on the server").

Written by ``venue analyse`` (a separate process, off by default: docs/spectators.md "Engine
evaluation"), never by the gateway; read only by the spectators' public view
(``services.views.spectator``), never by the arbiters' or the hall's screens.
"""

from __future__ import annotations

from .base import Event, entry


@entry("position_evaluated")
class PositionEvaluated(Event, kw_only=True):
    """An engine's evaluation of game ``game``'s position after ``ply`` plies (``fen``, the position
    analysed), from White's point of view: ``score_cp`` centipawns (positive: White is better) or
    ``mate`` (moves to mate: positive, White mates; negative, Black mates; 0: the side to move is
    mated), one of the two; ``best_line_san`` the engine's principal variation in SAN from that
    position (at most ``services.views.analysis.BEST_LINE_PLIES`` plies); ``depth`` the search depth
    reached (plies); ``engine`` its UCI name (``"Stockfish 16"``); ``budget_ms`` the time it was given."""

    KEEP = ("ply", "fen", "best_line_san", "depth", "engine")

    game: str
    ply: int
    fen: str
    board: str = ""
    score_cp: int | None = None
    mate: int | None = None
    best_line_san: list[str] = []
    depth: int = 0
    engine: str = ""
    budget_ms: int | None = None
