"""The Dutch system (FIDE C.04.3, 2026) against bbpPairings (FIDE-endorsed, built from its public
source) on 300 rounds of random tournaments that the previous reading of the rules paired differently:
tests/data/pairing/oracle/NAME.trf (the round to pair, with the organiser's edge of NAME: withdrawals,
requested byes, late entries, forbidden pairs, Baku acceleration, a given first colour, 240 bye
records) and NAME.pairs (bbpPairings' pairing, or "NO PAIRING"). Made and chosen by
tools/compare_dutch.py and tools/select_fixtures.py (tests/data/pairing/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.tournament.pairing.dutch import NoValidPairing, pair_trf
from services.tournament.trf import parse_trf

ORACLE = Path(__file__).resolve().parents[1] / "data" / "pairing" / "oracle"
FIXTURES = sorted(ORACLE.glob("*.trf"))


def test_the_fixtures_are_there() -> None:
    assert len(FIXTURES) >= 300


@pytest.mark.parametrize("trf", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_pairing_matches_bbppairings(trf: Path) -> None:
    expected = trf.with_suffix(".pairs").read_text()
    if expected.startswith("NO PAIRING"):
        with pytest.raises(NoValidPairing):
            pair_trf(parse_trf(trf.read_text()))
        return
    lines = expected.split("\n")
    want = {tuple(int(x) for x in line.split()) for line in lines[1:int(lines[0]) + 1]}
    got = {(p.white, p.black or 0) for p in pair_trf(parse_trf(trf.read_text()))}
    assert got == want, f"missing {sorted(want - got)}; unexpected {sorted(got - want)}"
