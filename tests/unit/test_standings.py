"""Standings and crosstable (services/tournament/standings.py, crosstable.py).

Sources: the tie-break fixtures of ../shared/data/tiebreaks (FIDE TieBreakServer); Norway Chess 2023
regulations ("Points", "For tie-breaks purpose, only points in classical games will be counted")."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from services.tournament.crosstable import crosstable
from services.tournament.results import GameResult, results_from_trf
from services.tournament.scoring import NORWAY
from services.tournament.standings import standings
from services.tournament.tiebreaks import format_value, parse_spec
from services.tournament.trf import parse_trf


def _fixture(shared_data: Path, system: str, name: str):
    path = shared_data / "tiebreaks" / system / f"{name}.trf"
    rows = list(csv.reader(path.with_name(f"{name}.tiebreaks.tsv").open(), delimiter="\t"))
    t = parse_trf(path.read_text())
    players = {s: (p.name, p.rating) for s, p in t.players.items()}
    return t, players, rows[0], rows[1:]


@pytest.mark.parametrize("system,name", [("round-robin", "rr-000107-7p"), ("swiss", "swiss-002004-77p-5r")])
def test_standings_from_results_equal_fixture(shared_data: Path, system: str, name: str) -> None:
    t, players, header, expected = _fixture(shared_data, system, name)
    rows = standings(results_from_trf(t), players, rounds=t.total_rounds, tiebreaks=header[2:],
                     round_robin=system == "round-robin")
    by = {r.start_no: r for r in rows}
    for e in expected:
        r = by[int(e[0])]
        got = [str(r.rank), format_value(parse_spec("PTS"), r.points)]
        got += [format_value(parse_spec(h), r.tiebreaks[h]) for h in header[3:]]
        assert got == e[1:]
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


def test_standings_change_when_a_result_is_recorded(shared_data: Path) -> None:
    # rr-000100-6p, last round: before 6's last game is recorded 6 is not alone on top.
    t, players, header, expected = _fixture(shared_data, "round-robin", "rr-000100-6p")
    results = results_from_trf(t)
    last = [g for g in results if g.round == 5]
    earlier = [g for g in results if g.round < 5]
    pending = [GameResult(g.round, g.white, g.black, "*") for g in last]
    before = {r.start_no: r for r in standings(earlier + pending, players, rounds=5, round_robin=True)}
    assert before[6].points == 3.5 and before[6].in_progress == 1
    after = {r.start_no: r for r in standings(results, players, rounds=5, round_robin=True,
                                              tiebreaks=header[2:])}
    assert after[6].points == 3.5 and after[6].rank == 1 and after[6].in_progress == 0
    assert after[2].points == 3.0 and before[2].points == 2.0  # 2 beat 4 in round 5 (fixture)


def test_provisional_standings_count_games_in_progress() -> None:
    results = [GameResult(1, 1, 2, "1-0"), GameResult(1, 3, 4, "1/2-1/2"),
               GameResult(2, 4, 1, "*", provisional="1-0"), GameResult(2, 2, 3, "*")]
    live = {r.start_no: r for r in standings(results, range(1, 5), rounds=2)}
    assert (live[1].points, live[4].points) == (1.0, 0.5)
    assert not live[1].provisional and live[1].in_progress == 1
    prov = {r.start_no: r for r in standings(results, range(1, 5), rounds=2, provisional=True)}
    assert (prov[1].points, prov[4].points) == (1.0, 1.5)  # 4 wins "as if it ended now"
    assert prov[4].rank == 1 and prov[4].provisional
    assert prov[2].in_progress == 1 and prov[4].in_progress == 0


def test_norway_points_and_classical_tiebreaks() -> None:
    # Norway Chess 2023: win 3, draw + Armageddon win 1.5, draw + Armageddon loss 1; "If the Armageddon
    # game is drawn, black will win"; tie-breaks count classical points only.
    results = [GameResult(1, 1, 2, "1/2-1/2", armageddon="1/2-1/2"), GameResult(1, 3, 4, "1-0"),
               GameResult(2, 2, 3, "1/2-1/2", armageddon="1-0"), GameResult(2, 4, 1, "0-1")]
    rows = {r.start_no: r for r in standings(results, range(1, 5), rounds=2, scoring=NORWAY,
                                             tiebreaks=["PTS", "DE", "SB"], round_robin=True)}
    assert rows[1].points == 1.0 + 3.0  # White in a drawn Armageddon loses it (1), then a classical win (3)
    assert rows[2].points == 1.5 + 1.5  # Black in the drawn Armageddon wins it, then wins one as White
    assert rows[3].points == 3.0 + 1.0
    assert rows[4].points == 0.0
    # Classical points only: 1 drew 2 (classical total 1.0) and beat 4 (0.0): SB 0.5*1.0 + 1*0.0 = 0.5;
    # 3 beat 4 and drew 2: also 0.5. With Norway points SB would differ (2 has 3.0 Norway points).
    assert rows[1].tiebreaks["SB"] == rows[3].tiebreaks["SB"] == 0.5
    assert rows[1].tiebreaks["DE"] == rows[3].tiebreaks["DE"] == 0  # they have not met
    assert rows[1].rank == rows[3].rank == 1 and rows[2].rank == 3


def test_norway_armageddon_pending_counts_sure_point() -> None:
    rows = {r.start_no: r for r in standings([GameResult(1, 1, 2, "1/2-1/2")], (1, 2), rounds=1, scoring=NORWAY)}
    assert rows[1].points == rows[2].points == 1.0


def test_bad_results_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown player 9"):
        standings([GameResult(1, 1, 9, "1-0")], (1, 2))
    with pytest.raises(ValueError, match="two results"):
        standings([GameResult(1, 1, 2, "1-0"), GameResult(1, 1, None, "U")], (1, 2))
    with pytest.raises(ValueError, match="unknown result"):
        standings([GameResult(1, 1, 2, "2-0")], (1, 2))


def test_crosstable_rows(shared_data: Path) -> None:
    t, players, header, expected = _fixture(shared_data, "round-robin", "rr-000107-7p")
    rows = crosstable(results_from_trf(t), players, rounds=7, tiebreaks=header[2:], round_robin=True)
    assert [r.start_no for r in rows][0] == 5  # fixture: player 5 ranks 1
    row1 = next(r for r in rows if r.start_no == 1)
    # the TRF line of player 1: "0000 - Z     2 w 0     3 b =" ...
    assert [c.text for c in row1.cells[:3]] == ["0000 - Z", "   2 w 0", "   3 b ="]
    assert row1.total == 1.0 and row1.tiebreaks["SB"] == 2.5 and row1.rank == 7
