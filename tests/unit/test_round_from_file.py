"""Rounds set up from the tournament file (services/arbiter_office/round_from_file.py).

Expected pairings: FIDE Handbook C.05 Annex 1, "Berger Tables for Round-Robin Tournaments" (the
tables for 11-12 and 9-10 players, rounds 1 and 2); the Dutch pairings of
../shared/data/pairing/dutch (bbpPairings v6.0.0, C.04.3 as in force from 2026)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from services.arbiter_office.round_from_file import round_from_tournament
from services.regulations.model import Player, Regulations, Tournament
from services.regulations.tournament_file import load_tournament
from services.tournament.results import results_from_trf
from services.tournament.trf import parse_trf

EVENTS = Path(__file__).resolve().parents[2] / "events"

# C.05 Annex 1, 11 or 12 players: "Rd 1: 1-12, 2-11, 3-10, 4-9, 5-8, 6-7";
# "Rd 2: 12-7, 8-6, 9-5, 10-4, 11-3, 1-2".
TABLE_12 = {1: [(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)],
            2: [(12, 7), (8, 6), (9, 5), (10, 4), (11, 3), (1, 2)]}
# C.05 Annex 1, 9 or 10 players: "Rd 1: 1-10, 2-9, 3-8, 4-7, 5-6"; "Rd 2: 10-6, 7-5, 8-4, 9-3, 1-2".
TABLE_10 = {1: [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
            2: [(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)]}


def _event(name: str) -> Tournament:
    path = EVENTS / name
    return load_tournament(path.read_text("utf-8"), str(path))


@pytest.mark.parametrize("rnd", [1, 2])
def test_us_championship_2023_by_the_berger_table_for_12(rnd: int) -> None:
    t = _event("us-championship-2023.toml")
    d = round_from_tournament(t, rnd)
    assert [(g["white_no"], g["black_no"]) for g in d["games"]] == TABLE_12[rnd]
    assert d["byes"] == []
    assert [g["board"] for g in d["games"]] == ["1", "2", "3", "4", "5", "6"]
    first = d["games"][0]
    assert first["id"] == f"{rnd}-1" and first["round"] == str(rnd)
    assert first["white"] == t.player(TABLE_12[rnd][0][0]).name
    # Rule 4 of the US 2023 regulations, as the file writes it
    assert first["time_control"] == "40/5400+30:1800+30" and first["kind"] == "classical"
    assert first["variant"] == "chess" and first["fen"] is None
    assert d["event"] == "2023 U.S. Championship" and d["site"] == "Saint Louis, USA"
    assert d["date"] == ("2023.10.05" if rnd == 1 else "2023.10.06")


@pytest.mark.parametrize("rnd", [1, 2])
def test_norway_2023_ten_players_by_the_berger_table(rnd: int) -> None:
    t = _event("norway-chess-2023.toml")
    d = round_from_tournament(t, rnd)
    assert [(g["white_no"], g["black_no"]) for g in d["games"]] == TABLE_10[rnd]
    # "120 minutes ... increment of 10 seconds after move 40": a table the PGN tag cannot hold
    assert d["games"][0]["time_control"] == {"white": "120m", "black": "120m", "increment": "10s",
                                             "increment_from_move": 41}


def test_pairing_numbers_from_a_drawing_of_lots() -> None:
    """C.05: the players play under the pairing numbers drawn; the table is that of the numbers."""
    t = _event("norway-chess-2023.toml")
    lots = {s: 11 - s for s in range(1, 11)}  # start 1 drew number 10, ..., start 10 drew number 1
    d = round_from_tournament(t, 1, lots=lots)
    assert [(g["white_no"], g["black_no"]) for g in d["games"]] == [(11 - w, 11 - b) for w, b in TABLE_10[1]]


def test_odd_number_of_players_gets_a_bye_without_a_board() -> None:
    """C.05 Annex 1: "if there is an odd number of players, the highest number counts as a bye"."""
    t = _event("us-championship-2023.toml")
    t11 = Tournament(**{**t.__dict__, "players": t.players[:11]})
    d = round_from_tournament(t11, 1)
    assert d["byes"] == [1]  # 1 would meet number 12 in round 1
    assert [(g["white_no"], g["black_no"]) for g in d["games"]] == TABLE_12[1][1:]


def test_bad_rounds_and_numbers_are_refused() -> None:
    t = _event("us-championship-2023.toml")
    with pytest.raises(ValueError, match="round 12"):
        round_from_tournament(t, 12)
    with pytest.raises(ValueError, match="pairing numbers"):
        round_from_tournament(t, 1, lots={1: 1, 2: 1})


def _swiss(trf_path: Path) -> tuple[Tournament, list, set[int], int]:
    t = parse_trf(trf_path.read_text())
    done = int(trf_path.stem.split("-r")[1].split("of")[0]) - 1
    results = results_from_trf(t)
    absent = {g.white for g in results if g.round == done + 1}  # requested byes for the next round
    tour = Tournament(name=t.name or "", slug="swiss", game="chess", system="swiss-dutch", kind="classical",
                      rounds_total=t.total_rounds, rounds=(), boards=(), time_controls={"classical": "5400+30"},
                      players=tuple(Player(p.start_no, p.name, p.rating) for p in t.players.values()),
                      regulations=Regulations())
    return tour, [g for g in results if g.round <= done], absent, done + 1


@pytest.mark.parametrize("name", ["dutch-001019-6p-r3of5", "dutch-001002-14p-r6of6", "dutch-001005-29p-r4of9",
                                  "dutch-001025-9p-r7of7"])
def test_swiss_round_by_the_dutch_system_matches_the_fixture(shared_data: Path, name: str) -> None:
    """The fixture's results as GameResults, paired again: the pairs and colours of NAME.pairs."""
    path = shared_data / "pairing" / "dutch" / f"{name}.trf"
    tour, results, absent, rnd = _swiss(path)
    words = path.with_suffix(".pairs").read_text().split()
    expected = {(int(w), None if b == "0" else int(b)) for w, b in zip(words[1::2], words[2::2])}
    d = round_from_tournament(tour, rnd, results_so_far=results, absent=absent)
    got = {(g["white_no"], g["black_no"]) for g in d["games"]} | {(s, None) for s in d["byes"]}
    assert got == expected
    assert [g["board"] for g in d["games"]] == [str(i) for i in range(1, len(d["games"]) + 1)]


def test_swiss_needs_every_earlier_result(shared_data: Path) -> None:
    tour, results, absent, rnd = _swiss(shared_data / "pairing" / "dutch" / "dutch-001019-6p-r3of5.trf")
    last = next(g for g in reversed(results) if g.black is not None)
    unfinished = [replace(g, result="*") if g is last else g for g in results]
    with pytest.raises(ValueError, match="cannot be paired"):
        round_from_tournament(tour, rnd, results_so_far=unfinished, absent=absent)


def test_us_2013_swiss_round_1_top_half_meets_bottom_half() -> None:
    """C.04.3: round 1 is one score group, S1 = the top half (1..12) meets S2 (13..24) in order; the
    colours alternate from the initial colour drawn for number 1 (E.5; White here)."""
    t = _event("us-championship-2013.toml")
    d = round_from_tournament(t, 1, initial_color="white")
    expected = [(i, i + 12) if i % 2 else (i + 12, i) for i in range(1, 13)]
    assert [(g["white_no"], g["black_no"]) for g in d["games"]] == expected
    assert d["byes"] == []


def test_checkers_eleven_players_round_1() -> None:
    """11 players: C.05 Annex 1's table for 11-12, number 12 a bye: 1 (who would meet 12) sits out.
    Each pairing is a Master division match of two games on one board (X.A.a "Each match in the
    Master Division shall be timed by match clocks"; the preset's control is a match clock), the
    second with the colours reversed and the same ballot (issue 6)."""
    t = _event("checkers-11-man-national-2017.toml")
    ballots = [{"ballot": n, "moves": [], "name": None} for n in (15, 19, 123, 129, 161)]
    d = round_from_tournament(t, 1, ballots=ballots)
    firsts, seconds = d["games"][0::2], d["games"][1::2]
    assert d["byes"] == [1] and [(g["white_no"], g["black_no"]) for g in firsts] == TABLE_12[1][1:]
    assert [(g["black_no"], g["white_no"]) for g in seconds] == TABLE_12[1][1:]
    assert all(g["variant"] == "checkers" for g in d["games"])
    assert [g["id"] for g in d["games"][:2]] == ["1-1.1", "1-1.2"]
    assert [g["board"] for g in d["games"]] == ["1", "1", "2", "2", "3", "3", "4", "4", "5", "5"]
    assert [(g["match"]["game_no"], g["ballot"]["ballot"]) for g in d["games"][:4]] == [(1, 15), (2, 15), (1, 19), (2, 19)]
    assert seconds[0]["match"]["follows"] == "1-1.1"


def test_swiss_round_from_the_folded_log(shared_data: Path) -> None:
    """The fixture's rounds written as log entries (tests/trf_log.py: byes in ``round_started``,
    forfeits as ``game_ended`` with ``forfeit``), folded, then paired: the pairs of NAME.pairs.
    (tests/unit/test_pairing_log.py pairs all 40 fixtures so, with the arbiter's actions.)"""
    from trf_log import folded, pairs_of, read_pairs, trf_entries

    from services.arbiter_office.round_from_file import round_from_view
    from services.views.standings import TournamentView

    path = shared_data / "pairing" / "dutch" / "dutch-001005-29p-r4of9.trf"
    d = round_from_view(folded(trf_entries(parse_trf(path.read_text()))), 4)
    assert pairs_of(d) == read_pairs(path.with_suffix(".pairs").read_text())
    with pytest.raises(ValueError, match="tournament_registered"):
        round_from_view(TournamentView(), 1)
