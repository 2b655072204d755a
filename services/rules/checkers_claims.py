"""Draw claims in American checkers: the third repetition and the 40-move rule.

Source: the WCDF Rules of Draughts as adopted by the ACF, drawn games. A draw is not automatic:
the player claims it and the referee decides. A game is drawn when a player demonstrates that

- **threefold**: the same position stands for the third time in the game, the claimant having
  the move; or that *with their next move* they would create the same position for the third time
  (the claim names that move, ``Claim.by_move``);
- **forty_moves**: during each player's own previous 40 moves no uncrowned man was advanced and
  no piece was removed from the board (80 plies with only king moves that take nothing).

"Same position": the same side to move and the same men and kings of each colour on the same
squares (``checkers_board.Position`` equality; never a raw FEN string, whose square order varies).
"""

from __future__ import annotations

from collections.abc import Sequence

from services.rules.base import Claim
from services.rules.checkers_board import Position, apply_move

FORTY_MOVES_PLIES = 80  # 40 moves by each player (WCDF 40-move rule)


def threefold_claims(history: Sequence[Position], since: int = 0) -> list[Claim]:
    """Repetition claims open to the side to move in ``history[-1]``.

    ``history[i]`` is the position after ply ``i`` (0 = the start or set-up position). ``since``:
    the last ply that moved a man or took a piece (earlier positions can never recur, so only
    ``history[since:]`` is searched). Returns at most one claim without a move (the position on
    the board has stood three times: evidence ``{"plies": [...]}``, every ply it stood after), then
    one claim per legal move that would make a position stand for the third time (``by_move`` =
    the full-route move text; evidence plies include the ply the move would make).
    """
    ply = len(history) - 1
    seen: dict[Position, list[int]] = {}
    for i in range(since, ply + 1):
        seen.setdefault(history[i], []).append(i)
    claims: list[Claim] = []
    now = seen[history[-1]]
    if len(now) >= 3:
        claims.append(Claim("threefold", None, {"plies": list(now)}))
    for move in history[-1].legal_moves:
        if move.irreversible:
            continue  # the position after it is new
        before = seen.get(apply_move(history[-1], move), [])
        if len(before) >= 2:
            claims.append(Claim("threefold", move.text, {"plies": before + [ply + 1]}))
    return claims


def forty_move_claim(ply: int, last_irreversible_ply: int) -> Claim | None:
    """The 40-move claim when the last ``FORTY_MOVES_PLIES`` plies (40 moves of each player) moved
    no man and took no piece, else None. Evidence: ``{"last_irreversible_ply": n, "plies_since": k}``
    (n = the last ply that moved a man or took a piece, 0 = the start)."""
    since = ply - last_irreversible_ply
    if since < FORTY_MOVES_PLIES:
        return None
    return Claim("forty_moves", None, {"last_irreversible_ply": last_irreversible_ply, "plies_since": since})
