"""The whole-round weights the engine loads at once (from vertex terms) are the field-by-field
weights of services/tournament/pairing/dutch/weights.py for every pair: completion check, and the
weights outside the bracket with and without C.9 (a consistency check of two computations on the
shared fixtures of ../shared/data/pairing/dutch)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from services.tournament.pairing.dutch import round_input_from_trf
from services.tournament.pairing.dutch.state import build_players
from services.tournament.pairing.dutch.weights import RoundWeights
from services.tournament.trf import parse_trf

SHARED_DATA = Path(os.environ.get("VENUE_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data"
FIXTURES = sorted((SHARED_DATA / "pairing" / "dutch").glob("*.trf"))[:12]


@pytest.mark.parametrize("trf", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_vertex_term_weights_equal_the_field_weights(trf: Path) -> None:
    inp = round_input_from_trf(parse_trf(trf.read_text()))
    players, _ = build_players(inp)
    w = RoundWeights(players, None, inp.played_rounds)
    allowed = w.allowed_pairs()
    top = players[0].score
    fast = w.completion_weights(top, allowed)
    n = len(players)
    assert all(fast(i, j) == w.completion_weight(j, i, top) for j in range(n) for i in range(j))
    for c9 in (False, True):
        w.set_bye_score(players[-1].score)
        w.c9 = c9
        w.c9_rank = {c: r for r, c in enumerate(sorted((p.played for p in players), reverse=True))}
        outside = w.outside_weights(allowed)
        assert all(outside(i, j) == w.weight(i, j, False, False) for j in range(n) for i in range(j))
        duals = w.outside_duals()
        assert all(duals[i] + duals[j] == 2 * outside(i, j) for j in range(n) for i in range(j) if outside(i, j))


@pytest.mark.parametrize("trf", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_weight_rows_by_player_class_equal_the_field_weights(trf: Path) -> None:
    """``weight_row`` (each pair of player classes weighed once) gives ``weight`` for every pair, in
    the bracket, in the next score group and outside both, with and without C.9."""
    inp = round_input_from_trf(parse_trf(trf.read_text()))
    players, _ = build_players(inp)
    w = RoundWeights(players, None, inp.played_rounds)
    w.allowed_pairs()
    n = len(players)
    for c9 in (False, True):
        w.set_bye_score(players[-1].score)
        w.c9_rank = {c: r for r, c in enumerate(sorted((p.played for p in players), reverse=True))}
        w.c9 = c9
        for in_bracket, in_next in ((True, False), (False, True), (False, False)):
            for lo in range(n):
                row = w.weight_row(list(range(lo)), lo, in_bracket, in_next)
                assert row == [w.weight(hi, lo, in_bracket, in_next) for hi in range(lo)]
