"""The event's end from the console (docs/arbiter.md "Play-off"): a play-off stage started as a
round of games on boards, its results by slip, the US 2013 Armageddon bid, drawings of lots, the
Norway Blitz order and pairing-number choices. Each is checked against the regulations by
``services.arbiter_office.playoff_stage`` (refused with the rule, nothing written) before it becomes its entry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from msgspec import Meta

from services.arbiter_office.playoff_stage import (PlayoffError, bid_entry, blitz_order_entry, lots_entry, number_choice_entry,
                                         stage_entry)
from services.events import Event
from services.views.standings import TournamentView

from .base import Action, ActionError, Context, Count, StartMs, action
from .results import slip_entries

StartNo = Annotated[int, Meta(description="a start number, a whole number")]
Stage = Annotated[int, Meta(ge=1, description="the play-off stage's number (1 for the first), a whole number")]
Ms = Annotated[int, Meta(ge=0, description="a time in ms, a whole number")]


def _view(ctx: Context) -> TournamentView:
    if ctx.state is None:
        raise ActionError("the console has no folded state")
    return TournamentView(ctx.state)


def _made(make: Callable[[], Event]) -> list[tuple[str, dict]]:
    """``make()``'s entry, or ActionError with the rule when the regulations refuse it."""
    try:
        return [make().encode()]
    except PlayoffError as exc:
        raise ActionError(str(exc)) from None


def _note(act: Action) -> str | None:
    return act.note[:2000] if act.note else None


@action
class StartPlayoffStage(Action, tag="start_playoff_stage", kw_only=True, frozen=True):
    """Start play-off stage ``stage`` (the next one the regulations call for, once the last round is
    over and the stage before has left the tie) on hall ``boards`` now, or at ``start_ms``:
    ``playoff_stage_started``, a round "P{stage}" of games the gateway records like any game.
    ``time_control`` only where the regulations give none (Norway's double round robin);
    ``players`` the two of a series Armageddon game (US 2023: the regulations do not pair it)."""

    stage: Stage
    boards: Annotated[list[str | int], Meta(description="hall boards, as a list or a text of numbers separated by commas (one per game of a round)")]
    start_ms: StartMs | None = None
    time_control: str | None = None
    players: Annotated[list[StartNo], Meta(description="two start numbers, as a list")] | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        start = self.start_ms if self.start_ms is not None else ctx.now_ms
        return _made(lambda: stage_entry(_view(ctx), self.stage, [str(b) for b in self.boards], start_ms=start,
                             time_control=self.time_control, players=self.players or (), by=ctx.by,
                             note=_note(self)))


@action
class EnterPlayoffResult(Action, tag="enter_playoff_result", kw_only=True, frozen=True):
    """A play-off game's result by slip: game ``game`` (1.., in the stage's order) of stage
    ``stage``, ``result`` as slips write it, ``how`` it came (as ``enter_result``):
    ``arbiter_decision`` and ``game_ended``. Refused for a stage not started or a game it has not."""

    stage: Stage
    game: Count
    result: Annotated[str, Meta(description="the result as the slip writes it (1-0, 0-1, 1/2-1/2, *)")]
    how: Annotated[Literal["slip", "arbiter", "forfeit", "claim", "board"],
                   Meta(description="how the result came: slip, arbiter, forfeit, claim or board, not {value!r}")] | None = None
    forfeit: bool = False

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        view = _view(ctx)
        po = view.state.tournament.playoff
        st = next((s for s in po.stages if s.stage == self.stage), None)
        if st is None:
            raise ActionError(f"stage: play-off stage {self.stage} does not exist (stages started: "
                              f"{[s.stage for s in po.stages] or 'none'}); a stage is created only when the one "
                              "before leaves the tie")
        if not 1 <= self.game <= len(st.games):
            raise ActionError(f"game: stage {self.stage} has games 1..{len(st.games)}, not {self.game}")
        g = view.state.games[st.games[self.game - 1]]
        return slip_entries(ctx, g, self.result, forfeit=self.forfeit, how=self.how, note=_note(self),
                            alert=self.alert)


@action
class RecordArmageddonBid(Action, tag="armageddon_bid", kw_only=True, frozen=True):
    """The US 2013 Armageddon bidding for the next stage's Armageddon game: ``bids`` (start number
    -> ms, both players), ``coin_toss_winner`` on equal bids, ``colour`` the chooser took:
    ``armageddon_bid``. Refused: a bid over 45:00, a player not of the game, equal bids without the
    coin (us-championship-2013.txt, Playoff Regulations)."""

    stage: Stage
    bids: Annotated[dict[int, Ms], Meta(description="start number -> bid in ms, for both players")]
    colour: Annotated[Literal["white", "black"], Meta(description="must be white or black (the chooser's colour)")]
    coin_toss_winner: StartNo | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return _made(lambda: bid_entry(_view(ctx), self.stage, self.bids, self.colour, coin_toss_winner=self.coin_toss_winner,
                           by=ctx.by, note=_note(self)))


@action
class DrawLots(Action, tag="draw_lots", kw_only=True, frozen=True):
    """A drawing of lots: ``numbers`` (start number -> the lot he drew, 1..n), ``purpose``
    "playoff_colours" (``stage``'s Armageddon game: lot 1 White), "playoff_order" (the play-off's
    last resort: Norway "5. Drawing of" [lots]) or "tiebreak" (C.07 LOT): ``lots_drawn``. Refused
    when a player named is not in the tie."""

    numbers: Annotated[dict[int, Annotated[int, Meta(ge=1)]], Meta(description="start number -> lot (1..n)")]
    purpose: Annotated[Literal["playoff_colours", "playoff_order", "tiebreak"],
                       Meta(description="playoff_colours, playoff_order or tiebreak, not {value!r}")]
    stage: Stage | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return _made(lambda: lots_entry(_view(ctx), self.purpose, self.numbers, stage=self.stage, by=ctx.by,
                            note=_note(self)))


@action
class RecordBlitzOrder(Action, tag="record_blitz_order", kw_only=True, frozen=True):
    """The Norway Blitz tournament's final order (start numbers of this event, winner first),
    handed to the classical event before round 1: ``blitz_order_recorded``."""

    order: Annotated[list[StartNo], Meta(description="start numbers, the Blitz winner first, as a list")]
    source: str = ""

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return _made(lambda: blitz_order_entry(_view(ctx), self.order, source=self.source, by=ctx.by,
                                   note=_note(self)))


@action
class ChoosePairingNumber(Action, tag="choose_pairing_number", kw_only=True, frozen=True):
    """Player ``start_no`` chooses pairing ``number`` in his turn of the Blitz order (Norway Chess
    2023 "Drawing of Lots and Number Allocation"): ``pairing_number_chosen``; once all have chosen,
    the Berger tables follow these numbers."""

    start_no: StartNo
    number: Annotated[int, Meta(ge=1, description="a pairing number, a whole number from 1")]

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return _made(lambda: number_choice_entry(_view(ctx), self.start_no, self.number, by=ctx.by,
                                     note=_note(self)))
