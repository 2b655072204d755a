"""The penalties the Laws give for irregularities, proposed to the arbiter (``penalty_proposed``):
a completed illegal move (FIDE Laws 7.5.1), a clock press without a move (7.5.3, "penalised as if
an illegal move"), an incorrect claim (9.5.3). Pure: reads the hall's state, proposes an entry.

The amounts and the loss come from ``services.rules.penalties`` (quoted there): the first completed
illegal move gives the opponent two minutes, the second by the same player loses the game unless
the opponent cannot checkmate by any possible series of legal moves (7.5.5); an incorrect claim
gives the opponent two minutes every time (9.5.3); one minute instead of two in rapid (A.3) and in
blitz under B.3. The game's time class is read from its control (A.1, B.1); which part of the
appendix governs it (A.4/A.5, B.2/B.3) from the tournament file's ``regulations.appendix`` (A.6,
B.4; A.5 and B.3 without one). Offences are counted per player and game in the state
(``GameState.offences``, folded from these entries), so a restarted gateway counts on from there.

The arbiter applies the time (``apply_penalty``: ``clock_adjusted``) or declares the loss
(``set_result``); nothing here changes a clock or ends a game. A proposal made at a press that the
record can also read as the replacement move's stays open, marked (``in_doubt``:
``penalty_in_doubt``; ``services.state.fold_penalties``): the arbiter decides. A proposal no longer
due is withdrawn (``withdraw``: ``penalty_withdrawn``): an illegal move that stood (A.5.2), or the
arbiter's ``withdraw_penalty``.
"""

from __future__ import annotations

from services.events import PenaltyInDoubt, PenaltyProposed, PenaltyWithdrawn, Side
from services.regulations.controls import control_of
from services.regulations.model import APPENDIX_DEFAULT
from services.regulations.quotes import rule_for
from services.rules.base import other
from services.rules.penalties import ILLEGAL_MOVE, INCORRECT_CLAIM, STANDARD, illegal_move_stands, penalty, time_class

ILLEGAL = "illegal_move"  # ``how``: a completed illegal move (7.5.1)
PRESS_WITHOUT_MOVE = "press_without_move"  # 7.5.3
CLAIM = "claim"  # 9.5.3
OFFENCE_OF = {ILLEGAL: ILLEGAL_MOVE, PRESS_WITHOUT_MOVE: ILLEGAL_MOVE, CLAIM: INCORRECT_CLAIM}


def game_class(state, g) -> tuple[str, str | None]:
    """``(time class, appendix part)`` of game ``g``: A.1/B.1 from its control's first period (a
    control of several periods is standard; an untimed or unknown control is taken as standard,
    where the Laws' own penalties apply), and the tournament file's appendix part for rapid and
    blitz (A.5/B.3 without one)."""
    control = control_of(g.setup, state.config)
    periods = control.periods(g.first_side) if control is not None and control.timed else ()
    if not periods:
        return STANDARD, None
    cls = time_class(periods[0].time_ms, periods[0].increment_ms, len(periods))
    if cls == STANDARD:
        return cls, None
    config = state.config
    parts = config.regulations.appendix if config is not None else APPENDIX_DEFAULT
    return cls, parts.get(cls, APPENDIX_DEFAULT[cls])


def propose(state, g, side: Side, how: str, *, result: str | None = None, evidence: dict | None = None,
            move: str | None = None, presses: int | None = None) -> PenaltyProposed:
    """The ``penalty_proposed`` for ``side``'s irregularity ``how`` (``ILLEGAL``,
    ``PRESS_WITHOUT_MOVE``, ``CLAIM``) in game ``g``, numbered after the offences already counted.
    ``result``/``evidence``: for a loss (the second completed illegal move), the result the rules
    core gives (``ChessGame.illegal_move_loss``-style: drawn when the opponent cannot checkmate) and
    the opponent's ``Unwinnability``; ``move``: the illegal move as sent; ``presses``: the side's
    presses counted when one of them completed no move. Raises ValueError for an unknown ``how``."""
    if how not in OFFENCE_OF:
        raise ValueError(f"not an irregularity: {how!r} (expected one of {', '.join(OFFENCE_OF)})")
    offence = OFFENCE_OF[how]
    number = g.offences.get(side, {}).get(offence, 0) + 1
    cls, part = game_class(state, g)
    p = penalty(offence, number, cls, part)
    first = {PRESS_WITHOUT_MOVE: "7.5.3, ", ILLEGAL: "7.5.1, "}.get(how, "")
    law = "FIDE Laws " + first + p.law.removeprefix("FIDE Laws ")
    return PenaltyProposed(game=g.id, board=g.board, rule=rule_for(state, "penalties", law), side=side,
                           offence=offence, how=how, offence_no=number, to=other(side), add_ms=p.add_ms,
                           game_lost=p.game_lost, result=result if p.game_lost else None,
                           evidence=evidence if p.game_lost else None, law=law, reason=p.reason,
                           time_class=cls, appendix=part, ply=g.ply, move=move, presses=presses)


STOOD_LAW = "FIDE Laws A.5.2"
STOOD_REASON = ("the opponent made the next move without a claim and without the arbiter intervening: \"the illegal "
                "move shall stand and the game shall continue\" (A.5.2); the penalty of 7.5.5 is no longer due and "
                "the offence is not counted")
DOUBT_LAW = "FIDE Laws 7.5.1, 7.5.2, 7.5.5"
DOUBT_REASON = ("the replacement move's board message came after this press, and the opponent went on before the same "
                "side pressed again: the press may have completed the illegal move (7.5.1; 7.5.2, a promotion pressed "
                "with the pawn on the last rank) or the replacement move; the proposal stays open: the arbiter "
                "applies it (apply_penalty) or withdraws it (withdraw_penalty)")
ARBITER_LAW = "FIDE Laws 7.5.1"


def withdraw(state, g, proposal, ground: str, *, law: str, reason: str, by: str | None = None) -> PenaltyWithdrawn:
    """The ``penalty_withdrawn`` of ``proposal`` (a ``services.state.Proposal`` of game ``g``) on
    ``ground``: "stood" (A.5.2, ``STOOD_LAW``) or "arbiter" (the arbiter's ``withdraw_penalty``,
    ``by`` the arbiter), with ``law`` and ``reason``; numbered as the proposal was counted."""
    number = g.offences.get(proposal.side, {}).get(proposal.offence, 0)
    return PenaltyWithdrawn(game=g.id, board=g.board, rule=rule_for(state, "penalties", law), side=proposal.side,
                            offence=proposal.offence, how=proposal.how, offence_no=number, to=proposal.to,
                            presses=proposal.presses, move=proposal.move, ply=g.ply, law=law, reason=reason,
                            ground=ground, by=by)


def in_doubt(state, g) -> PenaltyInDoubt:
    """The ``penalty_in_doubt`` game ``g`` owes (``g.unfounded``: ``(side, k, move)``, the press the
    record can also read as the replacement move's). Raises TypeError when nothing is owed."""
    side, k, move = g.unfounded
    return PenaltyInDoubt(game=g.id, board=g.board, rule=rule_for(state, "penalties", DOUBT_LAW), side=side,
                          presses=k, move=move, ply=g.ply, law=DOUBT_LAW, reason=DOUBT_REASON)


def loses(state, g, side: str, how: str) -> bool:
    """Whether ``side``'s next irregularity ``how`` loses the game (7.5.5: a second completed
    illegal move), so that the caller asks the rules core for the result and its evidence."""
    offence = OFFENCE_OF[how]
    cls, part = game_class(state, g)
    return penalty(offence, g.offences.get(side, {}).get(offence, 0) + 1, cls, part).game_lost


def stands(state, g) -> bool:
    """Whether an illegal move not corrected before the opponent's next move stands in game ``g``
    (A.5.2: rapid under A.5, blitz under B.3; ``penalties.illegal_move_stands``)."""
    cls, part = game_class(state, g)
    return illegal_move_stands(cls, part, opponent_moved=True)
