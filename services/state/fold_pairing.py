"""Folding the arbiter's actions that reach the next Swiss pairing (docs/pairing.md "Arbiter
actions"): players registered or imported before round 1 (their C.04.2 start numbers), requested
byes and their cancellation, late entries, forbidden pairs, the acceleration.
A withdrawal is ``player_withdrew`` (``fold_round``). What they become in a pairing is
``TournamentState.absences`` and ``services.arbiter_office.round_from_file.round_from_view``'s."""

from __future__ import annotations

import msgspec

from services.events import (AccelerationSet, ByeRequestCancelled, ByeRequested, PairingForbidden, PlayerEntered,
                             PlayersRegistered)
from services.state.changes import Changes
from services.state.fold import HallState, folds


@folds(ByeRequested)
def _bye_requested(state: HallState, ev: ByeRequested, at: int, ch: Changes) -> None:
    t = state.tournament
    sno = t.player(ev.start_no, ev.player)  # KeyError (counted) before anything changes
    t.requested_byes.setdefault(ev.round, {})[sno] = ev.code


@folds(ByeRequestCancelled)
def _bye_cancelled(state: HallState, ev: ByeRequestCancelled, at: int, ch: Changes) -> None:
    t = state.tournament
    byes = t.requested_byes.get(ev.round, {})
    byes.pop(t.player(ev.start_no, ev.player), None)
    if not byes:
        t.requested_byes.pop(ev.round, None)


@folds(PlayerEntered)
def _entered(state: HallState, ev: PlayerEntered, at: int, ch: Changes) -> None:
    player = {"name": ev.name, "rating": ev.rating, "fide_id": ev.fide_id, "federation": ev.federation,
              "title": ev.title}
    started = sorted(int(r) for r in state.rounds if r.isdigit())
    state.tournament.enter(ev.start_no, player, ev.first_round, ev.missed, started)
    ch.standings = True


@folds(PairingForbidden)
def _forbidden(state: HallState, ev: PairingForbidden, at: int, ch: Changes) -> None:
    t = state.tournament
    group = tuple(sorted({t.player(s, None) for s in ev.players}))
    if len(group) < 2:
        raise ValueError(f"a forbidden pair needs two players, not {ev.players}")
    if group not in t.forbidden:
        t.forbidden.append(group)


@folds(AccelerationSet)
def _acceleration(state: HallState, ev: AccelerationSet, at: int, ch: Changes) -> None:
    state.tournament.acceleration = None if ev.method == "none" else ev.method


@folds(PlayersRegistered)
def _registered_players(state: HallState, ev: PlayersRegistered, at: int, ch: Changes) -> None:
    state.tournament.register_players([msgspec.to_builtins(p) for p in ev.players], numbers_fixed(state))
    ch.standings = True


def numbers_fixed(state: HallState) -> str | None:
    """Why the start numbers can no longer be given again (None: they can): round 1 drafted or a
    round started (a draft names players by start number)."""
    if state.rounds:
        return "a round has started"
    if state.tournament.drafts:
        return f"round {min(state.tournament.drafts)} is drafted"
    return None
