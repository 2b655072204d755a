"""Checkers results: the venue's result codes with the ways a checkers game ends, and PDN's spelling.

Result codes are the venue's, for both games (``services.rules.results``): the **first figure is
White's score**, "1-0" = White won, "0-1" = Black won, plus the special scores ("+:-", "0-0", ...).
Standings and the dashboard read them the same way whatever game was played.

PDN for checkers (GameType 21) writes the other way round: the first figure is the first player's,
Black's (in tinsley.pdn the "1-0" games mostly end with Black ahead in material, the "0-1" games
with White ahead; see tests/unit/test_checkers_results.py). ``to_pdn`` and ``from_pdn`` convert at
the file border, nowhere else.

Terminations (WCDF rules as adopted by the ACF; 11-Man National 2017 regulations):
``no_legal_moves`` (the side to move cannot move: it has lost), ``time_forfeit`` (X.A.b: always a
loss, never a draw), ``resignation``, ``agreement``, ``threefold_repetition`` and ``forty_moves``
(draw claims upheld), ``forfeit``, ``arbiter`` (the referee's decision, adjudication),
``late_start`` (X.B.e: "Any game, not started in accordance with this rule, shall be declared
drawn": always a draw), and ``recorded`` (a result taken from a record that does not say how the
game ended).
"""

from __future__ import annotations

from services.events.vocabulary import Termination
from services.rules import results

NO_LEGAL_MOVES = Termination.NO_LEGAL_MOVES
FORTY_MOVES = Termination.FORTY_MOVES
RECORDED = Termination.RECORDED
LATE_START = Termination.LATE_START
TERMINATIONS = (
    NO_LEGAL_MOVES,
    results.TIME_FORFEIT,
    results.RESIGNATION,
    results.AGREEMENT,
    results.THREEFOLD_REPETITION,
    FORTY_MOVES,
    results.FORFEIT,
    results.ARBITER,
    LATE_START,
    RECORDED,
    results.RESULT_SLIP,
    results.CLAIM_UPHELD,
)
DECISIVE_TERMINATIONS = (NO_LEGAL_MOVES, results.TIME_FORFEIT, results.RESIGNATION)
DRAWN_TERMINATIONS = (results.AGREEMENT, results.THREEFOLD_REPETITION, FORTY_MOVES, LATE_START, results.CLAIM_UPHELD)
_FLIP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2", "*": "*"}
# PDN result token as written -> the same result in GameType 21's spelling ("2-0" etc.: 10x10 style)
PDN_TOKENS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "*": "*", "2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}


def check_outcome(result: str, termination: str) -> results.Score:
    """Validate a (result code, termination) pair for a checkers game; returns its ``Score``.

    Raises ValueError when the result is not a venue result code (``results.score``), the
    termination is not in ``TERMINATIONS``, a decisive termination comes without a win, a drawing one
    without a draw, or a score without play ("+:-", ...) with a termination other than forfeit/arbiter.
    """
    sc = results.score(result)
    if termination not in TERMINATIONS:
        raise ValueError(f"not a checkers termination: {termination!r} (expected one of {', '.join(TERMINATIONS)})")
    if termination in DECISIVE_TERMINATIONS and sc.code not in ("1-0", "0-1"):
        raise ValueError(f"{termination} needs a win (1-0 or 0-1), not {result!r}")
    if termination in DRAWN_TERMINATIONS and sc.code != "1/2-1/2":
        raise ValueError(f"{termination} is a draw (1/2-1/2), not {result!r}")
    if not sc.played and termination not in (results.FORFEIT, results.ARBITER):
        raise ValueError(f"{result!r} is a score without play: its termination is 'forfeit' or 'arbiter'")
    return sc


def to_pdn(code: str) -> str:
    """The PDN Result (Black's score first) for a venue result code: "1-0" (White won) -> "0-1".
    Scores PDN cannot write (double forfeit, arbiter's splits) give "*", as in PGN. Raises
    ValueError for an unknown code."""
    return _FLIP[results.score(code).pgn]


def from_pdn(token: str) -> str:
    """The venue result code for a PDN result token: "1-0" (Black won) -> "0-1"; "2-0"/"0-2"/"1-1"
    are read as "1-0"/"0-1"/"1/2-1/2"; "*" stays "*" (no result). Raises ValueError otherwise."""
    if token not in PDN_TOKENS:
        raise ValueError(f"not a PDN result: {token!r} (expected 1-0, 0-1, 1/2-1/2 or *)")
    return _FLIP[PDN_TOKENS[token]]
