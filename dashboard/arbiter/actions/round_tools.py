"""The round tools: the arbiter's actions that reach the next pairing (docs/arbiter.md "Round
tools", docs/pairing.md "Arbiter actions"). Each records one typed entry and needs the folded
state (``Context.state``: the tournament registered, its players and rounds); the next Swiss
pairing reads their entries (``services.arbiter_office.round_from_file.round_from_view``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from services.events import (AccelerationSet, ByeRequestCancelled, ByeRequested, PairingForbidden, PlayerEntered,
                             PlayerWithdrew)
from services.events.vocabulary import ByeCode

from .base import Action, ActionError, Context, RoundNo, action

StartNo = Annotated[int, Meta(description="a start number, a whole number")]


def event_of(ctx: Context, name: str, swiss: bool = True) -> Any:
    """The registered tournament; ActionError without one, or (``swiss``) when it is not a Swiss."""
    t = ctx.state.config if ctx.state is not None else None
    if t is None:
        raise ActionError(f"{name}: no tournament file is registered in the log, so there is no next round "
                          "to pair (venue serve --tournament FILE.toml)")
    if swiss and t.system != "swiss-dutch":
        raise ActionError(f"{name}: {t.name} is paired by {t.system} tables; requested byes, late entries, "
                          "forbidden pairs and acceleration are for a Swiss (FIDE C.04)")
    return t


def latest_round(state: Any) -> int:
    """The highest round number set up in the log (0 before round 1)."""
    return max((int(r) for r in state.rounds if r.isdigit()), default=0)


def player(ctx: Context, sno: int, key: str = "player") -> str:
    """The name of start number ``sno``; ActionError for a start number nobody has."""
    p = ctx.state.tournament.players.get(sno)
    if p is None:
        raise ActionError(f"{key}: no player with start number {sno}")
    return p["name"]


def round_to_pair(ctx: Context, t: Any, rnd: int | None, key: str = "round") -> int:
    """``rnd`` (default: the round after the latest set up): a round not paired yet."""
    latest = latest_round(ctx.state)
    rnd = latest + 1 if rnd is None else rnd
    if rnd <= latest:
        raise ActionError(f"{key}: round {rnd} is paired already (its pairing is published); round {latest + 1} "
                          "is the next one to pair")
    if rnd > t.rounds_total:
        raise ActionError(f"{key}: round {rnd} is past the last round ({t.rounds_total})")
    return rnd


@action
class WithdrawPlayer(Action, tag="withdraw_player", kw_only=True, frozen=True):
    """A player withdraws (any system; US Championship 2023 rule 1 withholds his prize): not paired
    from ``from_round`` on (default the next round to pair; the round in play at the earliest,
    whose game the arbiter then scores with set_result): ``player_withdrew``."""

    player: StartNo
    from_round: RoundNo | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        t = event_of(ctx, self.NAME, swiss=False)
        name = player(ctx, self.player)
        latest = latest_round(ctx.state)
        rnd = latest + 1 if self.from_round is None else self.from_round
        if not max(latest, 1) <= rnd <= t.rounds_total:
            raise ActionError(f"from_round: {rnd} is not a round still to be played (rounds {max(latest, 1)}-"
                              f"{t.rounds_total}); the rounds before stand as played")
        already = ctx.state.tournament.withdrawn.get(self.player)
        if already is not None and already <= rnd:
            raise ActionError(f"player: {name} withdrew from round {already} already")
        return [PlayerWithdrew(player=name, start_no=self.player, from_round=rnd, **ctx.base(self)).encode()]


@action
class RequestBye(Action, tag="request_bye", kw_only=True, frozen=True):
    """A requested bye (FIDE C.04.2: half-point H, full-point F or zero-point Z) for a round not
    paired yet: ``bye_requested``. Refused for a player withdrawn by then, a late entry's missed
    round, or a second request for the same round (cancel the first)."""

    player: StartNo
    round: RoundNo | None = None
    code: Annotated[Literal["H", "F", "Z"],
                    Meta(description="a requested bye is H (half point), F (full point) or Z (zero), "
                                     "not {value!r}")] = "H"

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        t = event_of(ctx, self.NAME)
        name = player(ctx, self.player)
        rnd = round_to_pair(ctx, t, self.round)
        ts, sno = ctx.state.tournament, self.player
        if ts.withdrawn.get(sno, rnd + 1) <= rnd:
            raise ActionError(f"player: {name} withdrew from round {ts.withdrawn[sno]}; he is not paired in round {rnd}")
        entered = ts.late_entries.get(sno)
        if entered is not None and rnd < entered["first_round"]:
            raise ActionError(f"player: {name} plays from round {entered['first_round']}; round {rnd} is a missed "
                              f"round ({entered['missed']}) already")
        have = ts.requested_byes.get(rnd, {}).get(sno)
        if have is not None:
            raise ActionError(f"player: {name} has a requested bye ({have}) for round {rnd} already: cancel it first")
        return [ByeRequested(start_no=sno, round=rnd, code=ByeCode(self.code), player=name, **ctx.base(self)).encode()]


@action
class CancelBye(Action, tag="cancel_bye", kw_only=True, frozen=True):
    """A requested bye withdrawn before its round is paired (FIDE C.04.2): he is paired again;
    ``bye_request_cancelled``."""

    player: StartNo
    round: RoundNo | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        t = event_of(ctx, self.NAME)
        name = player(ctx, self.player)
        rnd = round_to_pair(ctx, t, self.round)
        if self.player not in ctx.state.tournament.requested_byes.get(rnd, {}):
            raise ActionError(f"player: {name} has no requested bye for round {rnd}")
        return [ByeRequestCancelled(start_no=self.player, round=rnd, player=name, **ctx.base(self)).encode()]


def _text(value: str | None, limit: int) -> str | None:
    return (value.strip()[:limit] or None) if value else None


@action
class EnterPlayer(Action, tag="enter_player", kw_only=True, frozen=True):
    """A late entry in a Swiss (FIDE C.04.2: a player who joins after round 1): a new player from
    ``first_round`` (a round not paired yet), the rounds before it byes scored ``missed`` (Z, or H
    where the regulations give half a point): ``player_entered``. Refused for a name or start
    number taken."""

    name: Annotated[str, Meta(description="the player's name")]
    rating: Annotated[int, Meta(gt=0, lt=4000, description="a rating (leave it empty for an unrated player)")] | None = None
    fide_id: str | None = None
    federation: str | None = None
    title: str | None = None
    first_round: RoundNo | None = None
    missed: Annotated[Literal["Z", "H"],
                      Meta(description="the rounds missed are zero-point (Z) or half-point (H) byes, not "
                                       "{value!r}")] = "Z"
    start_no: StartNo | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        t = event_of(ctx, self.NAME)
        name = _text(self.name, 200)
        if not name:
            raise ActionError("name: is missing")
        players = ctx.state.tournament.players
        if any(p["name"] == name for p in players.values()):
            raise ActionError(f"name: {name!r} is a player of this tournament already")
        first = round_to_pair(ctx, t, self.first_round, "first_round")
        sno = max(players, default=0) + 1 if self.start_no is None else self.start_no
        if sno < 1 or sno in players:
            raise ActionError(f"start_no: {sno} is taken (or not a start number); leave it out for the next free one")
        return [PlayerEntered(start_no=sno, name=name, first_round=first, rating=self.rating, missed=self.missed,
                              fide_id=_text(self.fide_id, 12), federation=_text(self.federation, 3),
                              title=_text(self.title, 3), **ctx.base(self)).encode()]


@action
class ForbidPair(Action, tag="forbid_pair", kw_only=True, frozen=True):
    """Players who must not be paired with each other in the rounds still to pair (TRF XXP;
    C.04.3 C.1 treats them like players who have met): ``pairing_forbidden``."""

    players: Annotated[list[StartNo], Meta(description="the start numbers of two or more players, as a list")]

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        event_of(ctx, self.NAME)
        for sno in self.players:
            player(ctx, sno, "players")
        numbers = sorted(set(self.players))
        if len(numbers) < 2:
            raise ActionError("players: two or more different players")
        if tuple(numbers) in ctx.state.tournament.forbidden:
            raise ActionError(f"players: {', '.join(map(str, numbers))} must not meet already")
        return [PairingForbidden(players=numbers, **ctx.base(self)).encode()]


@action
class SetAcceleration(Action, tag="set_acceleration", kw_only=True, frozen=True):
    """Baku acceleration (FIDE C.04.7) or none, before round 1 is paired (its virtual points run
    from round 1, and rounds paired without them would not be the method's): ``acceleration_set``."""

    method: Annotated[Literal["baku", "none"], Meta(description="baku (FIDE C.04.7) or none, not {value!r}")]

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        event_of(ctx, self.NAME)
        if latest_round(ctx.state):
            raise ActionError("method: the acceleration is set before round 1 is paired")
        return [AccelerationSet(method=self.method, **ctx.base(self)).encode()]
