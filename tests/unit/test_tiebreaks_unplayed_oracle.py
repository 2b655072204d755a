"""Tie-breaks with byes, forfeits and withdrawals as FIDE's TieBreakServer v1.9.57 computes them
(tests/data/tiebreaks_unplayed/README.md: the oracle's answers, unedited; issue 30)."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest

from services.tournament.model import field_from_trf
from services.tournament.tiebreaks import compute_tiebreaks, format_value
from services.tournament.trf import parse_trf
from services.tournament.unplayed import adjusted_scores

DATA = Path(__file__).resolve().parents[1] / "data" / "tiebreaks_unplayed"
FIXTURES = sorted(DATA.glob("*.trf"))


def _oracle(path: Path) -> list[list[str]]:
    return list(csv.reader(path.with_name(path.stem + ".tiebreaks.tsv").open(), delimiter="\t"))


def _number(text: str) -> Decimal | None:
    # the oracle prints a missing ARO as "-0" and a Koya score of nothing as "0" (README)
    return None if text in ("", "-0") else Decimal(text)


def test_fixtures_present() -> None:
    assert len(FIXTURES) >= 8


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_as_tiebreakserver(path: Path) -> None:
    rows = _oracle(path)
    header, expected = rows[0], rows[1:]
    table = compute_tiebreaks(field_from_trf(parse_trf(path.read_text())), header[2:],
                              round_robin="-rr-" in path.stem,
                              edition="2024" if path.stem.endswith("-c07-2024") else "2026")
    by = table.by_start_no()
    assert sorted(by) == sorted(int(r[0]) for r in expected)
    for r in expected:
        row = by[int(r[0])]
        got = [row.rank] + [_number(format_value(s, row.values[s.text])) for s in table.specs]
        want = [int(r[1])] + [_number(v) for v in r[2:]]
        assert got == want, f"{path.stem} start no {r[0]}: {dict(zip(header[1:], want))} != {dict(zip(header[1:], got))}"


@pytest.mark.parametrize("edition, bye_cap", [("2026", Decimal("2.5")), ("2024", Decimal("3.5"))])
def test_trailing_forfeit_loss_counts_zero_as_opponent(edition: str, bye_cap: Decimal) -> None:
    """Issue 30: player 8 (played, zero-point bye, forfeit loss, withdrawn) as player 4's opponent.
    Player 4 met 8, had a PAB (dummy: his own 3.5, capped at ½ x 5 rounds = 2.5 by C.07 16.4.2 in
    2026), then 7, 2 and 1: the oracle's BH(4) less those leaves 8's score as an opponent, 1.5
    = 0 (loss) + ½ (bye) + 0 (forfeit loss) + ½ + ½ (withdrawn), not 2.0 (the forfeit loss as a draw)."""
    name = "issue30-zpb-forfeit-withdrawal" + ("-c07-2024" if edition == "2024" else "")
    rows = _oracle(DATA / f"{name}.trf")
    col = {h: i for i, h in enumerate(rows[0])}
    by = {r[0]: r for r in rows[1:]}
    pts = {s: Decimal(by[s][col["PTS"]]) for s in by}
    as_opponent = Decimal(by["4"][col["BH"]]) - bye_cap - pts["7"] - pts["2"] - pts["1"]
    assert as_opponent == Decimal("1.5")
    field = field_from_trf(parse_trf((DATA / f"{name}.trf").read_text()))
    assert adjusted_scores(field, round_robin=False)[8] == float(as_opponent)
