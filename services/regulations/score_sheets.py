"""Cross-checking the players' score sheets against the board's record (checkers 2017 XII: "both
copies, one from each player, are necessary to permit crosschecking for recording errors";
X.A.g: "the game record or move-count record shall govern in case of conflict"). Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# What a sheet carries besides moves: move numbers ("1.", "12...") and results (PDN or ours).
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "½-½"}


@dataclass(frozen=True)
class SheetDifference:
    """One difference: ``ply`` (1-based), ``sheet`` (whose sheet: "black", "white"), what the
    board recorded (``board``) and what the sheet says (``written``; None when the sheet stops
    short, and ``board`` None when the sheet runs on)."""

    ply: int
    sheet: str
    board: str | None
    written: str | None

    def to_json(self) -> dict:
        return {"ply": self.ply, "sheet": self.sheet, "board": self.board, "written": self.written}


def _norm(move: str) -> str:
    return move.strip().lower().replace(" ", "")


def cross_check(board: list[str], sheets: dict[str, list[str]], same=None) -> list[SheetDifference]:
    """Every place where a sheet differs from the board's record, in ply order. ``board``: the moves
    as the board recorded them; ``sheets``: player -> moves as written; ``same(a, b)``: whether two
    texts name the same move (default: equal after trimming; pass the game's own resolver to accept
    a short capture for its full route)."""
    eq = same or (lambda a, b: _norm(a) == _norm(b))
    out: list[SheetDifference] = []
    for who, written in sheets.items():
        for i in range(max(len(board), len(written))):
            b = board[i] if i < len(board) else None
            w = written[i] if i < len(written) else None
            if b is None or w is None or not eq(b, w):
                out.append(SheetDifference(i + 1, who, b, w))
    return sorted(out, key=lambda d: (d.ply, d.sheet))


def sheet_moves(text: str) -> list[str]:
    """The moves of a score sheet typed as text, in order: tokens split on white space and commas,
    move numbers ("1.", "1...", also glued: "1.11-15") and results ("1-0", "1/2-1/2", "*") left out.
    ``"1. 11-15 23-19 2. 8-11 22-17"`` -> ``["11-15", "23-19", "8-11", "22-17"]``."""
    out: list[str] = []
    for token in re.split(r"[\s,;]+", text):
        token = _MOVE_NUMBER.sub("", token.strip())
        if token and token not in _RESULTS:
            out.append(token)
    return out


def _route(move: str) -> str:
    """A checkers move with every separator read the same: docs/checkers.md "`-`, `x`/`X` and `:`
    are all read as separators, and the separator does not decide the move"."""
    return re.sub(r"[-x:]", "-", _norm(move))


def checkers_same(full: list[str], short: list[str]):
    """``same(board, written)`` for ``cross_check`` against a checkers record: ``full`` the board's
    moves with every jump's route (``6x15x24``), ``short`` the same moves as people write them
    (``6x24``). A sheet's move names the board's when it is either form, whatever its separators
    (X.A.g.i asks players to record "all jumps"; a start-and-end capture is read as the same move)."""
    forms: dict[str, set[str]] = {}
    for f, s in zip(full, short):
        forms.setdefault(f, {_route(f)}).add(_route(s))

    def same(board: str, written: str) -> bool:
        return _route(written) in forms.get(board, {_route(board)})

    return same
