"""A result for any game of any round, as a result slip gives it (docs/arbiter.md "Results"): the
game found by round and board, a forfeit written ``+/-`` or ``1-0F``, an Armageddon's own result, a
correction after the round, an undo (``*``); the termination says how the result came
(``services.arbiter_office.result_slip``)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from services.arbiter_office.result_slip import (SlipError, confirms, correction_notice, find_game, parse_result, result_entries,
                                      termination_of)

from .base import Action, ActionError, Context, RoundNo, action
from .game import result_ruling

How = Annotated[Literal["slip", "arbiter", "forfeit", "claim", "board"],
                Meta(description="how the result came: slip, arbiter, forfeit, claim or board, not {value!r}")]


@action
class EnterResult(Action, tag="enter_result", kw_only=True, frozen=True):
    """A result slip: the game of round ``round`` on ``board`` (``part``: "armageddon" for the
    Armageddon game that followed a drawn game, 1 or 2 for a checkers match's game), ``result`` as
    slips write it ("1-0", "½-½", "+/-", "-/+", "-/-", "1-0F", "*" to undo), ``how`` it came
    (``slip``: the players' signed slip, FIDE Laws 8.7; ``arbiter``: the arbiter's decision;
    ``forfeit``; ``claim``: a claim upheld, 9.2/9.3; ``board``: the board's own result with its
    ``termination``): judged as ``set_result`` is (``slip_entries``), then ``arbiter_decision``
    (with what it replaces) and ``game_ended`` (none for an undo); the result the game already has
    is only confirmed (a ``note_added``; its termination stays). Any round: a correction after the round moves the standings, and the answer's
    ``notice`` says when the next round was drafted or started from the old result."""

    round: RoundNo
    board: str | int
    result: Annotated[str, Meta(description="the result as the slip writes it (1-0, 0-1, 1/2-1/2, +/-, 1-0F, *)")]
    part: str | int | None = None
    forfeit: bool = False
    how: How | None = None
    termination: str | None = None

    def _game(self, ctx: Context):
        if ctx.state is None:
            raise ActionError("round: the console has no folded state")
        try:
            return find_game(ctx.state, self.round, self.board, self.part)
        except SlipError as exc:
            raise ActionError(str(exc)) from None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return slip_entries(ctx, self._game(ctx), self.result, forfeit=self.forfeit, how=self.how,
                            reason=self.termination, note=self.note, alert=self.alert)

    def notice(self, ctx: Context) -> str | None:
        """What the result means for the next round (``correction_notice``), or None (also for a
        slip that confirms the result the game has: nothing changed)."""
        g = self._game(ctx)
        try:
            result, forfeit = parse_result(self.result, self.forfeit)
        except SlipError:
            return None
        if confirms(g, result, forfeit, self.how, self.termination):
            return None
        return correction_notice(ctx.state, g, result, forfeit)


def slip_entries(ctx: Context, g, text: str, *, forfeit: bool = False, how: str | None = None,
                 reason: str | None = None, note: str | None = None, alert: int | None = None) -> list[tuple[str, dict]]:
    """The entries of a result entered by slip for game ``g`` (a ``GameState``): ``text`` as the
    slip writes it (``parse_result``), ``how`` it came and the board's ``reason`` (``how`` "board").
    The result the game already has is confirmed (``result_slip.confirmation``: a note, nothing
    changed); any other is judged as ``set_result``'s (``result_ruling``: the same refusals, the
    same ``ruling``), then ``arbiter_decision`` + ``game_ended`` (``result_entries``). ActionError
    naming the field and why."""
    try:
        result, lost = parse_result(text, forfeit)
        ruling = None
        if result != "*" and not confirms(g, result, lost, how, reason):
            ruling = result_ruling(ctx, g.id, result, termination_of(how, lost, reason), lost)
        made = result_entries(g, result, forfeit=lost, how=how, reason=reason, by=ctx.by,
                              note=note[:2000] if note else None, alert=alert, ruling=ruling)
    except SlipError as exc:
        raise ActionError(str(exc)) from None
    return [e.encode() for e in made]
