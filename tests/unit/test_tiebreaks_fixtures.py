"""Every value of ../shared/data/tiebreaks: FIDE TieBreakServer v1.9.57, C.07 as in force from
1 March 2026 (the fixtures' README). Exact to the printed decimals, ranks included."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from services.tournament.model import field_from_trf
from services.tournament.tiebreaks import compute_tiebreaks, format_value
from services.tournament.trf import parse_trf

SHARED_DATA = Path(os.environ.get("VENUE_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data"
FIXTURES = sorted((SHARED_DATA / "tiebreaks").glob("*/*.trf"))


def test_fixtures_present(shared_data: Path) -> None:
    assert len(list((shared_data / "tiebreaks" / "round-robin").glob("*.trf"))) >= 30
    assert len(list((shared_data / "tiebreaks" / "swiss").glob("*.trf"))) >= 20


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture(path: Path) -> None:
    rows = list(csv.reader(path.with_name(path.stem + ".tiebreaks.tsv").open(), delimiter="\t"))
    header, expected = rows[0], rows[1:]
    assert header[:2] == ["StartNo", "Rank"]
    t = parse_trf(path.read_text())
    table = compute_tiebreaks(field_from_trf(t), header[2:], round_robin=path.parent.name == "round-robin")
    by = table.by_start_no()
    assert sorted(by) == sorted(int(r[0]) for r in expected)
    for r in expected:
        row = by[int(r[0])]
        got = [str(row.rank)] + [format_value(s, row.values[s.text]) for s in table.specs]
        assert got == r[1:], f"start no {r[0]}: {dict(zip(header[1:], r[1:]))} != {dict(zip(header[1:], got))}"
