"""The ``illegal`` fault of a simulated checkers board: a move the rules refuse. Pure.

Square numbering (ACF/WCDF): 1-32 row by row, four playing squares a row, Black (Red) on 1-12
moving towards 29-32. A diagonal neighbour is one row up or down and one column aside.
"""

from __future__ import annotations

from services.rules.base import BLACK
from services.rules.checkers_game import CheckersGame


def _row_col(square: int) -> tuple[int, int]:
    row = (square - 1) // 4
    return row, 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)


def neighbours(square: int) -> dict[int, list[int]]:
    """The diagonal neighbours of ``square`` (1-32) by row step: ``{+1: [...], -1: [...]}``
    (+1 = towards 29-32, Black's forward direction)."""
    row, col = _row_col(square)
    out: dict[int, list[int]] = {1: [], -1: []}
    for other in range(1, 33):
        r, c = _row_col(other)
        if abs(c - col) == 1 and r - row in (1, -1):
            out[r - row].append(other)
    return out


def illegal_move(game: CheckersGame) -> str:
    """A move ``game`` refuses for the side to move, as players make them: a plain step while a
    capture is compulsory (the commonest illegal move in checkers), else a man stepping backwards
    onto an empty square, else any step of one of its pieces that is not legal. Raises ValueError
    when the game is over."""
    if game.outcome is not None:
        raise ValueError("the game is over: no move to refuse")
    pos = game.position
    side = pos.turn
    forward = 1 if side == BLACK else -1
    legal = {(int(t.split("x")[0].split("-")[0]), int(t.replace("x", "-").split("-")[-1]))
             for t in game.legal_moves()}
    empty = [s for s in range(1, 33) if s not in pos.occupied]
    jumps_only = all("x" in t for t in game.legal_moves())
    candidates: list[tuple[int, int]] = []
    for man in sorted(pos.pieces(side)):
        steps = neighbours(man)
        if jumps_only:
            candidates += [(man, to) for to in steps[forward] if to in empty]
    for man in sorted(pos.men(side)):
        candidates += [(man, to) for to in neighbours(man)[-forward] if to in empty]
    for piece in sorted(pos.pieces(side)):
        candidates += [(piece, to) for to in empty]
    for start, end in candidates:
        if (start, end) not in legal:
            return f"{start}-{end}"
    raise ValueError("no illegal move found")  # cannot happen: some empty square is out of reach
