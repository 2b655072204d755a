"""The arbiter's actions that reach the next Swiss pairing (services/tournament/pairing/actions.py).

The entries written are the TRF16 codes a pairing program reads (``0000 - Z`` an absence, ``H``/``F``/
``Z`` requested byes, ``XXP`` forbidden pairs, ``192 FIDE_DUTCH_2025_BAKU``). The pairings expected
come from bbpPairings (FIDE-endorsed, built from its public source) run on the very file the actions
produced: tests/data/pairing/actions/NAME.trf with NAME.pairs (see tests/data/pairing/README.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from services.tournament.pairing.actions import (
    BakuAcceleration,
    ForbiddenPair,
    LateEntry,
    RequestedBye,
    Withdrawal,
    apply_actions,
    rounds_paired,
)
from services.tournament.pairing.dutch import pair_trf
from services.tournament.trf import dump_trf, parse_trf

SHARED_DATA = Path(os.environ.get("VENUE_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data"
BASE = SHARED_DATA / "pairing" / "dutch" / "dutch-001002-14p-r6of6.trf"
ACTIONS = Path(__file__).resolve().parents[1] / "data" / "pairing" / "actions"
CASES = sorted(ACTIONS.glob("*.trf"))


def _pairs(path: Path) -> set[tuple[int, int]]:
    lines = path.read_text().split("\n")
    return {tuple(int(x) for x in line.split()) for line in lines[1:int(lines[0]) + 1]}


def test_the_action_fixtures_are_there() -> None:
    assert len(CASES) >= 7


@pytest.mark.parametrize("trf", CASES, ids=[p.stem for p in CASES])
def test_pairing_after_the_actions_matches_bbppairings(trf: Path) -> None:
    got = {(p.white, p.black or 0) for p in pair_trf(parse_trf(trf.read_text()))}
    assert got == _pairs(trf.with_suffix(".pairs"))


def test_withdrawal_and_requested_bye_are_entered_for_the_round_being_paired() -> None:
    """5 rounds paired: the entries go to round 6; the withdrawn and the bye players are not paired."""
    t = parse_trf(BASE.read_text())
    assert rounds_paired(t) == 5
    out = apply_actions(t, [Withdrawal(3, 6), RequestedBye(5, 6, "H"), RequestedBye(7, 8, "H")])
    assert out.players[3].games[5].result == "Z" and out.players[3].games[5].opponent is None
    assert out.players[5].games[5].result == "H"
    assert len(out.players[7].games) == 5  # a bye for a later round waits for that round
    assert len(t.players[3].games) == 5  # the input is not changed
    seen = {n for p in pair_trf(out) for n in (p.white, p.black) if n}
    assert 3 not in seen and 5 not in seen and len(seen) == 12


def test_late_entry_gets_the_next_number_and_byes_for_the_missed_rounds() -> None:
    t = parse_trf(BASE.read_text())
    out = apply_actions(t, [LateEntry("Late Player", 6, rating=2000, missed="H")])
    p = out.players[15]
    assert [g.result for g in p.games] == ["H"] * 5 and p.points == 2.5
    assert "001   15      Late Player" in dump_trf(out)


def test_forbidden_pair_and_baku_are_header_records() -> None:
    t = parse_trf(BASE.read_text())
    out = apply_actions(t, [ForbiddenPair(frozenset({7, 1})), BakuAcceleration()])
    assert "XXP 1 7" in out.header and "192 FIDE_DUTCH_2025_BAKU" in out.header
    assert all(sorted((p.white, p.black)) != [1, 7] for p in pair_trf(out) if p.black)


@pytest.mark.parametrize("action, message", [
    (Withdrawal(99, 6), "no player"),
    (RequestedBye(5, 6, "X"), "bye code"),
    (ForbiddenPair(frozenset({1})), "two known players"),
    (LateEntry("X", 6, start_no=3), "taken"),
])
def test_bad_actions_are_refused_with_the_reason(action, message) -> None:
    with pytest.raises(ValueError, match=message):
        apply_actions(parse_trf(BASE.read_text()), [action])


def test_an_entry_already_there_is_refused() -> None:
    t = apply_actions(parse_trf(BASE.read_text()), [RequestedBye(5, 6, "H")])
    with pytest.raises(ValueError, match="already has an entry"):
        apply_actions(t, [Withdrawal(5, 6)], round_no=6)
