"""Cross-checking the players' score sheets against the board's record (checkers 2017 XII: "both
copies, one from each player, are necessary to permit crosschecking for recording errors";
X.A.g: "the game record or move-count record shall govern in case of conflict"). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass


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
