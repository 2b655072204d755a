"""Draw claims in American checkers: the third repetition and the 40-move rule.

Source: the WCDF Rules of Draughts as adopted by the ACF, drawn games. A draw is not automatic:
the player claims it and the referee decides. A game is drawn when a player demonstrates that

- **threefold**: the same position stands for the third time in the game, the claimant having
  the move; or that *with their next move* they would create the same position for the third time
  (the claim names that move, ``Claim.by_move``);
- **forty_moves**: during each player's own previous 40 moves no uncrowned man was advanced and
  no piece was removed from the board (80 plies with only king moves that take nothing).

"Same position": the same side to move and the same men and kings of each colour on the same
squares (``checkers_board.Position`` equality; never a raw FEN string, whose square order varies
in pydraughts). The position a claimed move would make is only needed for a king's step without a
capture (any other move makes a new position), so it is derived from the step
(``Position.after_king_step``) rather than played on a pydraughts board per candidate.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.events.vocabulary import ClaimKind
from services.rules.base import Claim
from services.rules.checkers_board import CheckersMove, Position, apply_move
from services.rules.chess_claims import ClaimVerdict  # the verdict shape both games share

THREEFOLD = ClaimKind.THREEFOLD
FORTY_MOVES = ClaimKind.FORTY_MOVES
KINDS = (THREEFOLD, FORTY_MOVES)
FORTY_MOVES_PLIES = 80  # 40 moves by each player (WCDF 40-move rule)
THREEFOLD_RULE = "WCDF rules (ACF): drawn game, third repetition"
FORTY_MOVES_RULE = "WCDF rules (ACF): drawn game, 40-move rule"


def threefold_claims(
    history: Sequence[Position], since: int = 0, legal: Sequence[CheckersMove] | None = None
) -> list[Claim]:
    """Repetition claims open to the side to move in ``history[-1]``.

    ``history[i]`` is the position after ply ``i`` (0 = the start or set-up position). ``since``:
    the last ply that moved a man or took a piece (earlier positions can never recur, so only
    ``history[since:]`` is searched). ``legal``: the legal moves in ``history[-1]`` when the caller
    has them (else asked of pydraughts, ``checkers_board.legal_moves``). Returns at most one claim
    without a move (the position on the board has stood three times: evidence ``{"plies": [...]}``,
    every ply it stood after), then one claim per legal move that would make a position stand for
    the third time (``by_move`` = the full-route move text; evidence ``{"plies": [the two plies it
    stood after], "after_move_ply": the ply the move would make}``, as for chess).
    """
    ply = len(history) - 1
    seen = _occurrences(history, since)
    claims: list[Claim] = []
    now = seen[history[-1]]
    if len(now) >= 3:
        claims.append(Claim(THREEFOLD, None, {"plies": list(now)}))
    for move in history[-1].legal_moves if legal is None else legal:
        before = _before_move(history[-1], move, seen)
        if len(before) >= 2:
            claims.append(Claim(THREEFOLD, move.text, {"plies": before, "after_move_ply": ply + 1}))
    return claims


def _occurrences(history: Sequence[Position], since: int) -> dict[Position, list[int]]:
    seen: dict[Position, list[int]] = {}
    for i in range(since, len(history)):
        seen.setdefault(history[i], []).append(i)
    return seen


def _before_move(pos: Position, move: CheckersMove, seen: dict[Position, list[int]]) -> list[int]:
    """The plies after which the position ``move`` leads to already stood ([] for a man move or a
    capture: the position after it is new)."""
    return [] if move.irreversible else list(seen.get(apply_move(pos, move), []))


def forty_evidence(ply: int, last_irreversible_ply: int) -> dict:
    """``{"last_irreversible_ply": n, "halfmove_clock": k}`` as in ``base.Claim``: n = the last ply
    that moved a man or took a piece (0 = the start), k = plies since then."""
    return {"last_irreversible_ply": last_irreversible_ply, "halfmove_clock": ply - last_irreversible_ply}


def forty_move_claim(ply: int, last_irreversible_ply: int) -> Claim | None:
    """The 40-move claim when the last ``FORTY_MOVES_PLIES`` plies (40 moves of each player) moved
    no man and took no piece, else None. Evidence: ``forty_evidence``. There is no claim with an
    intended move: the WCDF rule looks at each player's *previous* 40 moves."""
    if ply - last_irreversible_ply < FORTY_MOVES_PLIES:
        return None
    return Claim(FORTY_MOVES, None, forty_evidence(ply, last_irreversible_ply))


def judge_threefold(history: Sequence[Position], since: int, move: CheckersMove | None) -> ClaimVerdict:
    """The referee's answer to a repetition claim by the side to move in ``history[-1]``:
    ``move`` None = about the position on the board (correct when it has stood three times), else
    the legal intended move (correct when it makes a position stand for the third time)."""
    seen, ply = _occurrences(history, since), len(history) - 1
    if move is None:
        plies = seen[history[-1]]
        if len(plies) >= 3:
            return ClaimVerdict(THREEFOLD, None, True, THREEFOLD_RULE,
                                f"the position has stood {len(plies)} times", {"plies": plies})
        return ClaimVerdict(THREEFOLD, None, False, THREEFOLD_RULE,
                            f"the position has stood only {len(plies)} time(s)", {"plies": plies})
    before = _before_move(history[-1], move, seen)
    evidence = {"plies": before, "after_move_ply": ply + 1}
    if len(before) >= 2:
        return ClaimVerdict(THREEFOLD, move.text, True, THREEFOLD_RULE,
                            f"{move.text} makes the position stand for the third time", evidence)
    why = "moves a man or takes a piece (a new position)" if move.irreversible else (
        f"leads to a position that stood {len(before)} time(s) before")
    return ClaimVerdict(THREEFOLD, move.text, False, THREEFOLD_RULE, f"{move.text} {why}", evidence)


def judge_forty(ply: int, last_irreversible_ply: int, by_move: str | None) -> ClaimVerdict:
    """The referee's answer to a 40-move claim: correct when each player's previous 40 moves
    advanced no man and took no piece. The moves already played decide; an intended move is noted
    but not counted (the rule looks back)."""
    evidence = forty_evidence(ply, last_irreversible_ply)
    since = evidence["halfmove_clock"]
    if since >= FORTY_MOVES_PLIES:
        return ClaimVerdict(FORTY_MOVES, by_move, True, FORTY_MOVES_RULE,
                            f"{since} plies without a man move or a capture", evidence)
    return ClaimVerdict(FORTY_MOVES, by_move, False, FORTY_MOVES_RULE,
                        f"only {since} plies without a man move or a capture, not {FORTY_MOVES_PLIES}", evidence)
