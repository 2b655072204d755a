"""What the engine analyses for the broadcast audience, and how its answer is written (issue 31
item 4; ``venue analyse``, docs/spectators.md "Engine evaluation"). Pure: no engine, no I/O.

- ``positions_due``: the positions to analyse now: the current round's chess games in play, on the
  first ``max_boards`` hall boards (board 1 is the top board), each game's position as it stands (a
  position the game has already left is never analysed: the audience sees the present one), unless
  it was analysed already (by this process, or by an earlier run whose ``position_evaluated`` the
  log holds); the position waiting longest first.
- ``evaluation_entry``: the ``position_evaluated`` record of an engine's answer (python-chess's
  ``chess.engine.InfoDict``: ``score``, ``pv``, ``depth``), the score from White's point of view and
  the best line in SAN.
- ``check_budget``/``check_max_boards``: the command line's bounds.

Each position is analysed once, whatever the number of spectators: the evaluation is an entry of the
log, folded into the public view every spectator reads (``services.state.fold_analysis``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import chess

from services.events import PositionEvaluated
from services.events.vocabulary import GameStatus, Variant
from services.state import HallState
from services.state.fold_analysis import same_position

BEST_LINE_PLIES = 10  # what a broadcast shows of the best line (lichess's and chess24's show about 5 moves)
MIN_BUDGET_MS = 50
MAX_BUDGET_MS = 60_000
DEFAULT_BUDGET_MS = 1000
DEFAULT_MAX_BOARDS = 10
MAX_BOARDS = 1000


@dataclass(frozen=True)
class Position:
    """One position to analyse: game ``game`` on hall board ``board`` after ``ply`` plies, ``fen``;
    ``reached_at`` when its move reached the log (ms; None when not known: an arbiter's correction)."""

    game: str
    board: str
    ply: int
    fen: str
    reached_at: int | None


def _board_order(board: str) -> tuple:
    return (0, int(board), board) if board.isdigit() else (1, 0, board)


def positions_due(state: HallState, analysed: Mapping[str, tuple[int, str]], max_boards: int) -> list[Position]:
    """The positions to analyse now (module docstring), the longest waiting first (then board
    order). ``state``: the hall as it stands (the live fold: the evaluation is made early and
    released with the delayed move); ``analysed``: game id -> ``(ply, fen)`` this process analysed
    last; ``max_boards``: how many hall boards, from board 1, are analysed at all."""
    r = state.round()
    if r is None:
        return []
    boards = sorted({state.games[gid].board for gid in r.games if gid in state.games}, key=_board_order)[:max_boards]
    chosen = set(boards)
    out = []
    for gid in r.games:
        g = state.games.get(gid)
        if g is None or g.board not in chosen or g.variant != Variant.CHESS or g.status != GameStatus.PLAYING:
            continue
        if g.ply == 0:
            continue  # the start position: the same evaluation for every game, nothing to tell
        done = analysed.get(gid)
        if done is not None and done[0] == g.ply and same_position(done[1], g.fen):
            continue
        if g.evaluation is not None and g.evaluation.ply == g.ply:
            continue  # already in the log (an earlier run, or another analyser)
        at = g.move_at[-1] if g.move_at else None
        out.append(Position(gid, g.board, g.ply, g.fen, at))
    return sorted(out, key=lambda p: (p.reached_at is None, p.reached_at or 0, _board_order(p.board)))


def evaluation_entry(position: Position, info: Mapping[str, Any], engine: str, budget_ms: int) -> PositionEvaluated:
    """The ``position_evaluated`` record of the engine's answer ``info`` for ``position``
    (python-chess ``InfoDict``: ``score`` a ``PovScore``, ``pv`` a list of ``chess.Move``,
    ``depth``). The score from White's point of view (centipawns, or moves to mate); the best line
    in SAN, cut to ``BEST_LINE_PLIES`` plies and at the first move that is not legal (an engine's
    line is played out on a copy of the position, so a bad one cannot leave a wrong SAN). Raises
    ValueError when ``info`` has no score."""
    score = info.get("score")
    if score is None:
        raise ValueError(f"the engine gave no score for {position.game} ply {position.ply}")
    white = score.white()
    mate = white.mate()
    board = chess.Board(position.fen)
    line: list[str] = []
    for move in list(info.get("pv") or [])[:BEST_LINE_PLIES]:
        if not board.is_legal(move):
            break
        line.append(board.san(move))
        board.push(move)
    return PositionEvaluated(game=position.game, board=position.board, ply=position.ply, fen=position.fen,
                             score_cp=None if mate is not None else white.score(), mate=mate, best_line_san=line,
                             depth=int(info.get("depth") or 0), engine=engine, budget_ms=budget_ms)


def check_budget(ms: int) -> int:
    """The time per position, ms: ``MIN_BUDGET_MS`` to ``MAX_BUDGET_MS``. Raises ValueError."""
    if not MIN_BUDGET_MS <= ms <= MAX_BUDGET_MS:
        raise ValueError(f"--budget-ms must be {MIN_BUDGET_MS} to {MAX_BUDGET_MS} ms a position, not {ms}")
    return ms


def check_max_boards(n: int) -> int:
    """How many hall boards are analysed: 1 to ``MAX_BOARDS``. Raises ValueError."""
    if not 1 <= n <= MAX_BOARDS:
        raise ValueError(f"--max-boards must be 1 to {MAX_BOARDS}, not {n}")
    return n
