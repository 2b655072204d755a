"""Folding a round's life cycle before it starts (``services.events.rounds``): the draft paired,
changed by hand, published; ``round_started`` marks it started (``fold_round``).

Every entry names the draft version its writer saw: applied only when the draft still has it,
otherwise kept in ``PairingDraft.refused`` and nothing else changes (module docstring of
``services.events.rounds``). An entry for a round already started changes nothing either (counted
in ``state.errors``: a round's pairing is fixed once it is played).
"""

from __future__ import annotations

from services.events.rounds import DraftAction, PairingDrafted, PairingPublished, PairingSwapped
from services.arbiter_office.round_draft import changed_draft
from services.state.changes import Changes
from services.state.draft import PairingDraft
from services.state.fold import HallState, folds


def _current(state: HallState, ev: DraftAction, at: int) -> PairingDraft | None:
    """The round's draft when ``ev`` may act on it (None: no draft, and ``ev`` saw none); raises
    ValueError for a round started; None after recording ``ev`` as refused when it names a version
    the draft no longer has."""
    if str(ev.round) in state.rounds:
        raise ValueError(f"round {ev.round} has started: its pairing no longer changes")
    d = state.tournament.drafts.get(ev.round)
    have = d.version if d is not None else 0
    if ev.version == have:
        return d
    if d is None:
        raise ValueError(f"round {ev.round} has no draft, and the entry names version {ev.version}")
    d.refused.append({"type": ev.TYPE, "version": ev.version, "draft_version": have, "by": ev.by, "at": at})
    return None


def _acted_on(state: HallState, ev: DraftAction, at: int, ch: Changes) -> PairingDraft | None:
    """The draft ``ev`` changes (``_current``), None when it was refused; ValueError (counted) when
    the round has no draft at all."""
    ch.drafts.add(ev.round)
    d = _current(state, ev, at)
    if d is None and ev.round not in state.tournament.drafts:
        raise ValueError(f"round {ev.round} has no draft for {ev.TYPE}")
    return d


@folds(PairingDrafted)
def _drafted(state: HallState, ev: PairingDrafted, at: int, ch: Changes) -> None:
    ch.drafts.add(ev.round)
    old = state.tournament.drafts.get(ev.round)
    if _current(state, ev, at) is None and old is not None:
        return  # refused: it re-paired a draft that had changed since
    state.tournament.drafts[ev.round] = PairingDraft(
        round=ev.round, system=ev.system, version=ev.version + 1, boards=list(ev.boards), byes=list(ev.byes),
        drafted_by=ev.by, drafted_at=at, changes=[], refused=list(old.refused) if old is not None else [])


@folds(PairingSwapped)
def _swapped(state: HallState, ev: PairingSwapped, at: int, ch: Changes) -> None:
    d = _acted_on(state, ev, at, ch)
    if d is None:
        return
    names = {sno: p["name"] for sno, p in state.tournament.players.items()}
    d.boards, d.byes = changed_draft(d.boards, d.byes, ev, names)  # ValueError (counted) before any change
    d.version += 1
    d.changes.append({"version": d.version, "kind": ev.kind, "players": list(ev.players), "board": ev.board,
                      "white_no": ev.white_no, "black_no": ev.black_no, "reason": ev.reason,
                      "warnings": list(ev.warnings), "by": ev.by, "at": at})


@folds(PairingPublished)
def _published(state: HallState, ev: PairingPublished, at: int, ch: Changes) -> None:
    d = _acted_on(state, ev, at, ch)
    if d is None:
        return
    d.published, d.published_by, d.published_at = d.version, ev.by, at
