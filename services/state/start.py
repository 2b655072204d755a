"""Where a game starts: the SETUP's ``fen`` (docs/events.md) or the variant's standard start, and
who moves first. Pure: the start position comes from the SETUP's ``fen`` or the variant's standard start, and the
side to move first is read from that FEN (chess ``"... w ..."``; checkers ``"B:..."`` / ``"W:..."``,
where Black moves first from the standard start, ACF/WCDF rules).
"""

from __future__ import annotations

from services.events.base import Side
from services.events.vocabulary import Variant

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CHECKERS_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def start_fen(variant: str, fen: str | None) -> str:
    """The SETUP's FEN, else the standard start of ``variant`` ("chess" or "checkers")."""
    if fen:
        return fen
    return CHECKERS_START if variant == Variant.CHECKERS else CHESS_START


def side_to_move(variant: str, fen: str) -> Side:
    """"white" or "black": who moves in ``fen``. Raises ValueError on a FEN without a side."""
    if variant == Variant.CHECKERS:
        head = fen.split(":", 1)[0].strip().upper()
        if head in ("W", "B"):
            return "white" if head == "W" else "black"
        raise ValueError(f"checkers FEN without a side to move: {fen!r}")
    parts = fen.split()
    if len(parts) >= 2 and parts[1] in ("w", "b"):
        return "white" if parts[1] == "w" else "black"
    raise ValueError(f"chess FEN without a side to move: {fen!r}")
