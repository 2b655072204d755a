"""A result for any game of any round, as a result slip gives it (docs/arbiter.md "Results"): the
game found by round and board, a forfeit written ``+/-`` or ``1-0F``, an Armageddon's own result, a
correction after the round, an undo (``*``); the termination says how the result came
(``services.hall.result_slip``)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from services.hall.result_slip import SlipError, correction_notice, find_game, parse_result, result_entries

from .base import Action, ActionError, Context, Count, action

How = Annotated[Literal["slip", "arbiter", "forfeit", "claim", "board"],
                Meta(description="how the result came: slip, arbiter, forfeit, claim or board, not {value!r}")]


@action
class EnterResult(Action, tag="enter_result", kw_only=True, frozen=True):
    """A result slip: the game of round ``round`` on ``board`` (``part``: "armageddon" for the
    Armageddon game that followed a drawn game, 1 or 2 for a checkers match's game), ``result`` as
    slips write it ("1-0", "½-½", "+/-", "-/+", "-/-", "1-0F", "*" to undo), ``how`` it came
    (``slip``: the players' signed slip, FIDE Laws 8.7; ``arbiter``: the arbiter's decision;
    ``forfeit``; ``claim``: a claim upheld, 9.2/9.3; ``board``: the board's own result with its
    ``termination``): ``arbiter_decision`` (with what it replaces) and ``game_ended`` (none for an
    undo). Any round: a correction after the round moves the standings, and the answer's
    ``notice`` says when the next round was drafted or started from the old result."""

    round: Count
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
        g = self._game(ctx)
        try:
            result, forfeit = parse_result(self.result, self.forfeit)
            made = result_entries(g, result, forfeit=forfeit, how=self.how, reason=self.termination, by=ctx.by,
                                  note=self.note[:2000] if self.note else None, alert=self.alert)
        except SlipError as exc:
            raise ActionError(str(exc)) from None
        return [e.encode() for e in made]

    def notice(self, ctx: Context) -> str | None:
        """What the result means for the next round (``correction_notice``), or None."""
        return correction_notice(ctx.state, self._game(ctx))
