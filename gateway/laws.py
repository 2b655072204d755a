"""What the Laws decide with a game's rules core besides one move: flag falls, the evidence of
dead positions, a game over before its first move, a second completed illegal move. Pure (the rules
core is ``services.rules``); the gateway (``gateway.decide``) emits what these return.

The gateway runs on one thread: a search that takes long holds every other board. The one search
that can (whether the opponent of a flagged player, or of a player who completed a second illegal
move, can checkmate by any possible series of legal moves, FIDE Laws 6.9, 7.5.5) runs here with a
fixed budget, ``LIVE_NODES`` positions. Within it a proof of "unwinnable" draws the game; a verdict
the budget leaves "undetermined" is taken as the Laws' loss at once (6.9: the game is drawn only
"if the position is such that the opponent cannot checkmate": not proved, not drawn), and the
evidence in the entry says "undetermined", so the arbiter sees the loss was not proved by the search
and may still rule otherwise. The budget counts positions, not time, so a gateway rebuilt from the
log answers exactly as the live one. Cost: ``bench/bench_dead_position.py --nodes 300``.
"""

from __future__ import annotations

import copy

from services.events.vocabulary import Termination, Variant
from services.rules.base import Outcome, other
from services.rules.results import ARBITER, TIME_FORFEIT, result_for_winner

LIVE_NODES = 300
"""Positions the gateway searches per side at a flag fall or a second illegal move. Measured on
the 2-core development machine over the CHA test vectors (3,606 sides, the hardest positions we
know): worst about 0.1 s at 300 (p99 about 50 ms), 0.5 s at 1,000 and 0.8 s at 5,000 (the rules
core's own ``FLAG_FALL_NODES``); real flag falls (lichess timeouts) stay under 75 ms. 300 proves
1,121 of the 1,857 sides CHA labels unable to mate (5,000: 1,378)."""


def opponent_can_mate(game, side: str) -> dict | None:
    """Whether ``side``'s opponent can checkmate by any possible series of legal moves, as the
    evidence an entry carries (``Unwinnability.to_json()``); None for a game without that
    question (checkers: a flag loses outright, 11-Man National 2017 X.A.b)."""
    if getattr(game, "variant", None) != Variant.CHESS:
        return None
    return game.can_checkmate(other(side), LIVE_NODES).to_json()


def lost_unless_unwinnable(game, side: str, termination: Termination) -> tuple[Outcome, dict | None]:
    """The outcome when ``side`` loses unless the opponent cannot checkmate (FIDE Laws 6.9 with
    ``TIME_FORFEIT``, 7.5.5 with ``ARBITER``), and its evidence. Checkers: the rules core's own flag
    fall (a loss). The game is not changed."""
    evidence = opponent_can_mate(game, side)
    if evidence is None:  # checkers: its own flag fall, on a copy (it records the outcome it gives)
        return copy.deepcopy(game).flag_fall(side), None
    drawn = evidence["verdict"] == "unwinnable"
    return Outcome(result_for_winner(None if drawn else other(side)), termination), evidence


def flag_fall(game, side: str) -> tuple[Outcome, dict | None]:
    """``side``'s flag fell (FIDE Laws 6.9): lost, drawn when the opponent cannot checkmate."""
    return lost_unless_unwinnable(game, side, TIME_FORFEIT)


def illegal_move_loss(game, side: str) -> tuple[Outcome, dict | None]:
    """``side`` completed a second illegal move (FIDE Laws 7.5.5): lost, drawn when the opponent
    cannot checkmate; termination "arbiter" (the arbiter declares it)."""
    return lost_unless_unwinnable(game, side, ARBITER)


def dead_evidence(game, nodes: int = LIVE_NODES) -> dict | None:
    """Both sides' verdicts for a position the rules core found dead (FIDE Laws 5.2.2), as
    ``{"white": Unwinnability, "black": Unwinnability}`` JSON, searched with ``nodes`` per side;
    None for checkers. The rules core's own proof after a move may be a short forced line
    (``DeadPositionWatch``) that this search, walking longer lines first, leaves undetermined: the
    evidence then also says ``"forced_line": true``."""
    if getattr(game, "variant", None) != Variant.CHESS:
        return None
    from services.rules.chess_unwinnable import dead_position

    found = dead_position(game.board, nodes)
    out: dict[str, dict | bool] = {"white": found.white.to_json(), "black": found.black.to_json()}
    if not found.dead:
        out["forced_line"] = True
    return out


def end_evidence(game, outcome: Outcome, nodes: int = LIVE_NODES) -> dict | None:
    """The evidence of an automatic end for ``game_ended``: both sides' verdicts at a dead position
    (5.2.2); nothing for a mate, a stalemate or 9.6, which the position shows by itself."""
    if outcome.termination in (Termination.DEAD_POSITION, Termination.INSUFFICIENT_MATERIAL):
        return dead_evidence(game, nodes)
    return None
