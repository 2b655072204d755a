"""The round's life cycle from the console (docs/pairing.md "The round's life cycle"): pair the next
round into a draft, change it by hand, publish it, start it. Each writes the entry
``services.arbiter_office.round_draft`` builds (``venue round`` writes the same ones), and names the draft
``version`` the arbiter saw: a draft another arbiter changed since is refused (409)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from msgspec import Meta

from services.events import (AccelerationSet, ByeRequestCancelled, ByeRequested, PairingDrafted, PairingForbidden,
                             PairingPublished, PairingSwapped, PlayerEntered, PlayerWithdrew, RoundStarted)
from services.arbiter_office.round_draft import (DraftError, draw_ballots, finish_draft, needs_ballots, prepare_draft,
                                       publish_entry, start_data, swap_entry)
from services.views.standings import TournamentView

from .base import Action, ActionError, Context, RoundNo, StartMs, action

StartNo = Annotated[int, Meta(description="a start number, a whole number")]
Version = Annotated[int, Meta(ge=0, description="the draft version you saw (GET /api/arbiter/round-tools)")]


class DraftRefused(ActionError):
    """A draft action refused; ``status``: 409 when the draft changed since the arbiter saw it."""

    def __init__(self, exc: DraftError):
        super().__init__(str(exc))
        self.status = exc.status


def _view(ctx: Context) -> TournamentView:
    if ctx.state is None:
        raise ActionError("the console has no folded state to pair from")
    return TournamentView(ctx.state)


class _DraftAction(Action, kw_only=True, frozen=True):
    round: RoundNo
    version: Version | None = None


@action
class PairRound(_DraftAction, tag="pair_round", kw_only=True, frozen=True):
    """Pair round ``round`` (default: the next) into a draft by the Dutch system (FIDE C.04.3) or
    the Berger tables (C.05 Annex 1), as the tournament file says: ``pairing_drafted``, each board
    with its colour rule and float reasons, the PAB and the absent with theirs. Pairing a drafted
    round again replaces its draft (give its ``version``). Refused while an earlier game of a Swiss
    has no result (naming the games)."""

    round: RoundNo | None = None  # type: ignore[assignment]  # optional here: the next round

    def offload(self, ctx: Context) -> Callable[[], list[tuple[str, dict]]]:
        """The state read now; the pairing itself returned as a call that reads nothing else (the
        route runs it in a thread: ~0.7 s for 300 players, bench/bench_draft.py)."""
        view = _view(ctx)
        try:
            job = prepare_draft(view, self.round, version=self.version, by=ctx.by, note=self.note)
        except DraftError as exc:
            raise DraftRefused(exc) from None
        numbers = dict(view.pairing_numbers)

        def pair() -> list[tuple[str, dict]]:
            try:
                return [finish_draft(job, numbers).encode()]
            except DraftError as exc:
                raise DraftRefused(exc) from None

        return pair

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        return self.offload(ctx)()


@action
class SwapPairing(_DraftAction, tag="swap_pairing", kw_only=True, frozen=True):
    """A change by hand to round ``round``'s draft, with a ``reason``: ``players`` (two start
    numbers) exchanged, or ``board`` set to ``white`` - ``black``: ``pairing_swapped``. Refused,
    quoting the rule, when it breaks a forbidden pair or FIDE C.04.1 b, d, f, g, unless ``override``
    (then recorded with the rules broken)."""

    reason: Annotated[str, Meta(description="why the pairing is changed by hand (it is recorded)")]
    players: Annotated[list[StartNo], Meta(description="two start numbers to exchange, as a list")] | None = None
    board: str | int | None = None
    white: StartNo | None = None
    black: StartNo | None = None
    override: bool = False

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        if bool(self.players) == (self.board is not None):
            raise ActionError("players: give two start numbers to exchange, or board with white and black")
        if self.players is not None and len(self.players) != 2:
            raise ActionError(f"players: an exchange names two start numbers, not {len(self.players)}")
        try:
            return [swap_entry(_view(ctx), self.round, self.version, reason=self.reason, players=self.players or (),
                               board=None if self.board is None else str(self.board), white_no=self.white,
                               black_no=self.black, override=self.override, by=ctx.by, note=self.note).encode()]
        except DraftError as exc:
            raise DraftRefused(exc) from None


@action
class PublishPairing(_DraftAction, tag="publish_pairing", kw_only=True, frozen=True):
    """Publish round ``round``'s draft at ``version`` (the one the arbiter saw): ``pairing_published``;
    the pairing ``start_round`` starts."""

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        try:
            return [publish_entry(_view(ctx), self.round, self.version, by=ctx.by, note=self.note).encode()]
        except DraftError as exc:
            raise DraftRefused(exc) from None


@action
class StartRound(_DraftAction, tag="start_round", kw_only=True, frozen=True):
    """Start round ``round``'s published draft now, or at ``start_ms`` (ms since the epoch; the
    default time counts from it, FIDE Laws 6.7.1): ``round_started``. Refused while a game of an
    earlier round has no result (naming each), or when the draft is not published as it stands."""

    start_ms: StartMs | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        view = _view(ctx)
        start = self.start_ms if self.start_ms is not None else ctx.now_ms
        if start is None:
            raise ActionError("start_ms: is missing (when the round starts)")
        ballots = None
        t, d = view.tournament, view.state.tournament.drafts.get(self.round)
        if t is not None and d is not None and needs_ballots(t):
            import random

            ballots = draw_ballots(view, len(d.boards), random.SystemRandom())  # 11-Man National 2017 X.A.d
        try:
            return [(RoundStarted.TYPE, start_data(view, self.round, start_ms=start, version=self.version,
                                                 ballots=ballots, now_ms=ctx.now_ms, by=ctx.by))]
        except DraftError as exc:
            raise DraftRefused(exc) from None


DRAFT_TYPES = (PairingDrafted.TYPE, PairingSwapped.TYPE, PairingPublished.TYPE)


def refused_in_fold(state, entries) -> str | None:
    """Why the fold of ``state`` kept one of ``entries`` (appended draft entries) as refused: it
    named a draft version another arbiter's entry had changed before it reached the log; None when
    every one was applied (or none is a draft entry)."""
    for e in entries:
        if e.type not in DRAFT_TYPES:
            continue
        d = state.tournament.drafts.get(e.data.get("round"))
        hit = next((r for r in (d.refused if d else ()) if r["type"] == e.type and r["at"] == e.at), None)
        if hit is not None:
            return (f"round {e.data.get('round')}'s draft changed to version {hit['draft_version']} before your "
                    f"{e.type} (made on version {hit['version']}) reached the log: another arbiter acted first; "
                    "it is recorded as refused and changed nothing: look at the draft again")
    return None


PAIRING_INPUTS = (PlayerWithdrew.TYPE, ByeRequested.TYPE, ByeRequestCancelled.TYPE, PlayerEntered.TYPE,
                  PairingForbidden.TYPE, AccelerationSet.TYPE)
"""The round tools' entries that the next pairing reads (docs/pairing.md "Arbiter actions")."""


def stale_draft_notice(state, items) -> str | None:
    """When one of ``items`` (``(type, data)`` entries about to be appended) changes what the next
    pairing reads while that round is drafted and not started: the sentence saying the draft was
    made before it (pair it again); else None."""
    if state is None or not any(t in PAIRING_INPUTS for t, _ in items):
        return None
    for rnd, d in sorted(state.tournament.drafts.items()):
        if not d.started:
            return (f"round {rnd} is {'published' if d.is_published else 'drafted'} (version {d.version}) from before "
                    f"this: pair it again (pair_round) so its pairing reads it")
    return None
