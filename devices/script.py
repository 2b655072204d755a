"""What a simulated board and clock will play: a real game from PGN with its ``[%clk]`` figures.

Pure. Each PGN game becomes a ``Script``: its hall board, the plies in UCI with the mover's clock after
each ply (ms, exactly the ``[%clk]`` value) and the thinking time that led to it, the starting clock
figures, the result and the reason the board will report.

Thinking time of a ply = the mover's previous clock - this clock + the increment of the control (the
PGN ``[%clk]`` convention: the mover's time left after the move, increment included). The increment is
the first period's (``TimeControl`` tag, PGN standard 9.6.1) or 0 when unknown; a negative time (a new
period's time added, e.g. at move 40) counts as 0. A ply without a clock comment keeps the mover's
previous figure and takes 5 s.

Starting figures: the TimeControl base when known, else each side's first clock rounded up to the
whole minute (FIDE Candidates 2024: first clocks 1:59:56 -> 2:00:00).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import chess

from services.events.vocabulary import Termination
from services.arbiter_office.setup import hall_boards
from services.rules.pgn_io import read_pgn

DEFAULT_THINK_MS = 5000
_TC_FIRST = re.compile(r"^(?:\d+/)?(\d+)(?:\+(\d+(?:\.\d+)?))?$")
_TERMINATION_TAGS = {"time forfeit": Termination.TIME_FORFEIT, "abandoned": "abandoned",
                     "rules infraction": Termination.ARBITER, "death": Termination.ARBITER,
                     "emergency": Termination.ARBITER}


@dataclass(frozen=True)
class Ply:
    """One ply: ``uci``: the move as the board sends it (UCI for chess, numeric notation with the
    full route for checkers: ``11-15``, ``6x15x24``); ``side`` that moved ("white"/"black");
    ``clock_ms``: the mover's clock after it (the ``[%clk]`` figure, ms); ``think_ms``: how long the
    simulated player thinks before it (ms of game time)."""

    uci: str
    side: str
    clock_ms: int
    think_ms: int


@dataclass
class Script:
    """One game to replay on hall board ``board``. ``start_fen``: None for the standard start (a
    chess FEN, or a PDN FEN for checkers); ``white_ms``/``black_ms``: the clocks at the start (ms);
    ``result``: the venue's result code, first figure White's ("*" = none sent; for checkers the
    PDN result is converted: docs/checkers.md); ``reason``: what the board reports with it;
    ``tags``: the PGN/PDN tags; ``variant``: "chess" or "checkers"; ``flag``: the side whose time
    ran out at the end (the clock then stops showing it at 0), or None."""

    board: str
    plies: list[Ply]
    white_ms: int
    black_ms: int
    result: str
    reason: str
    start_fen: str | None = None
    tags: dict = field(default_factory=dict)
    variant: str = "chess"
    flag: str | None = None

    @property
    def first_side(self) -> str:
        """The side to move in the start position ("white" or "black"): White in chess, Black
        (Red) in checkers from the standard start; else the FEN's side to move."""
        if self.variant == "checkers":
            fen = (self.start_fen or "B").strip().upper()
            return "white" if fen.startswith("W") else "black"
        board = chess.Board(self.start_fen) if self.start_fen else chess.Board()
        return "white" if board.turn else "black"

    def final_clocks(self) -> tuple[int, int]:
        """(white_ms, black_ms) after the last ply: what the clock shows at the end."""
        clocks = {"white": self.white_ms, "black": self.black_ms}
        for ply in self.plies:
            clocks[ply.side] = ply.clock_ms
        return clocks["white"], clocks["black"]


def time_control(tag: str | None) -> tuple[int | None, int]:
    """(base ms or None, increment ms) of the first period of a PGN TimeControl tag."""
    m = _TC_FIRST.match((tag or "").strip().split(":")[0])
    if not m:
        return None, 0
    return int(m.group(1)) * 1000, int(float(m.group(2) or 0) * 1000)


def scripts_from_pgn(pgn_text: str, *, boards: list[str] | None = None) -> list[Script]:
    """Every game of ``pgn_text`` as a Script. ``boards``: the hall board of each game in file order
    (default: ``services.arbiter_office.setup.hall_boards``). Raises ValueError for a broken file, a game the
    reader could not replay, or a ``boards`` list of the wrong length."""
    games = list(read_pgn(pgn_text))
    if not games:
        raise ValueError("no game found in the PGN text")
    if boards is None:
        boards = hall_boards(pgn_text)
    boards = [str(b) for b in boards]
    if len(boards) != len(games):
        raise ValueError(f"{len(boards)} boards for {len(games)} games")
    out = []
    for index, (game, board) in enumerate(zip(games, boards), start=1):
        if game.errors:
            raise ValueError(f"game {index}: {game.errors[0]}")
        out.append(_script(game, board))
    return out


def _script(game, board: str) -> Script:
    base, increment = time_control(game.tags.get("TimeControl"))
    position = chess.Board(game.start_fen) if game.start_fen else chess.Board()
    first = {"white": None, "black": None}
    side = "white" if position.turn else "black"
    for clock in game.clocks_ms:
        if clock is not None and first[side] is None:
            first[side] = clock
        side = "black" if side == "white" else "white"
    start = {s: base if base is not None else _round_up_minute(first[s]) for s in first}
    clocks = dict(start)
    plies = []
    side = "white" if position.turn else "black"
    for uci, clock in zip(game.moves, game.clocks_ms):
        if clock is None:
            clock, think = clocks[side], DEFAULT_THINK_MS
        else:
            think = max(0, clocks[side] - clock + increment)
        plies.append(Ply(uci, side, clock, think))
        clocks[side] = clock
        position.push_uci(uci)
        side = "black" if side == "white" else "white"
    return Script(board, plies, start["white"], start["black"], game.result,
                  _reason(game, position, clocks), game.start_fen, dict(game.tags))


def _round_up_minute(ms: int | None) -> int:
    if ms is None:
        return 0
    return int(math.ceil(ms / 60000) * 60000)


def _reason(game, position: chess.Board, clocks: dict) -> str:
    """The board's reason for the result: the Termination tag when it says more than "Normal",
    else what the final position shows, else "agreement" (draws) or "resignation" (wins)."""
    tag = (game.tags.get("Termination") or "").strip().lower()
    if tag in _TERMINATION_TAGS:
        return _TERMINATION_TAGS[tag]
    if game.result == "*" and not game.moves:
        return "unfinished"
    if not game.moves and game.result in ("1-0", "0-1"):
        return Termination.FORFEIT
    if position.is_checkmate():
        return Termination.CHECKMATE
    if position.is_stalemate():
        return Termination.STALEMATE
    if game.result == "1/2-1/2":
        if position.is_insufficient_material():
            return Termination.INSUFFICIENT_MATERIAL
        if position.can_claim_threefold_repetition():
            return Termination.THREEFOLD_REPETITION
        if position.can_claim_fifty_moves():
            return Termination.FIFTY_MOVES
        return Termination.AGREEMENT
    loser = {"1-0": "black", "0-1": "white"}.get(game.result)
    if loser and game.moves and clocks.get(loser) == 0:
        return Termination.TIME_FORFEIT
    return Termination.RESIGNATION
