"""The Dutch system (FIDE C.04.3, 2026) against the 40 development fixtures of
../shared/data/pairing/dutch: each is a TRF after K rounds and the pairing of round K+1 made by
bbpPairings v6.0.0 (FIDE-endorsed). Correct = the same set of pairs with the same colours
(../shared/data/pairing/README.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from services.tournament.pairing.dutch import pair_trf
from services.tournament.trf import parse_trf

SHARED_DATA = Path(os.environ.get("VENUE_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data"

FIXTURES = sorted((SHARED_DATA / "pairing" / "dutch").glob("*.trf"))


def _expected(path: Path) -> set[tuple[int, int]]:
    lines = path.with_suffix(".pairs").read_text().split("\n")
    count = int(lines[0])
    pairs = {tuple(int(x) for x in line.split()) for line in lines[1:count + 1]}
    assert len(pairs) == count
    return pairs


def test_the_fixtures_are_there(shared_data: Path) -> None:
    assert len(list((shared_data / "pairing" / "dutch").glob("*.trf"))) >= 40


@pytest.mark.parametrize("trf", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_dutch_pairing_matches_bbppairings(trf: Path) -> None:
    got = {(p.white, p.black or 0) for p in pair_trf(parse_trf(trf.read_text()))}
    want = _expected(trf)
    assert got == want, f"missing {sorted(want - got)}; unexpected {sorted(got - want)}"
