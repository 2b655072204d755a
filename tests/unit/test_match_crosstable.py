"""The crosstable and the TRF export of a round of two-game checkers matches show both games.

Sources:
* events/checkers-11-man-national-2017.toml: 11 players, round robin, ``scoring = "standard"``;
  round 1 by the Berger tables (FIDE C.05 Annex 1): 2-11, 3-10, 4-9, 5-8, 6-7 on boards 1-5, player
  1 the bye (tests/unit/test_match_standings.py);
* regulation X.A.a/X.A.b and issue 6: each round a match of two games, "the same ballot with colours
  reversed";
* the demo's real matches, venue/data/tinsley_chinook_1992_matches.pdn, one match per board in file
  order (venue.demo_tournament): the PDN Result tags, Black's score first (docs/checkers.md), are
  game 7 "1/2-1/2", 8 "1-0" (Black won), 13 "1/2-1/2", 14 "0-1" (White won), 17 "1/2-1/2", 18 "1-0",
  23 "1/2-1/2", 24 "1/2-1/2", 25 "0-1", 26 "1/2-1/2";
* FIDE TRF16 (C.04 Annex 2): one 10-column block per game (opponent, colour, result code).

So, from each board's first player (game 1's White, game 2's Black):
board 1, Player 02 v 11: game 7 drawn, game 8 won by Black = Player 02: "= then 1", 1½ - ½;
board 2, Player 03 v 10: game 13 drawn, game 14 won by White = Player 10: "= then 0", ½ - 1½;
board 3, Player 04 v 09: game 17 drawn, game 18 won by Black = Player 04: "= then 1", 1½ - ½;
board 4, Player 05 v 08: both drawn, 1 - 1;
board 5, Player 06 v 07: game 25 won by White = Player 06, game 26 drawn: "1 then =", 1½ - ½;
Player 01: the pairing-allocated bye, one game's win under the preset's scoring (docs/checkers.md).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from services.eventlog.base import Entry
from services.arbiter_office.round_from_file import round_from_tournament
from services.arbiter_office.tournament_export import tournament_trf
from services.arbiter_office.tournament_json import crosstable_json
from services.arbiter_office.tournament_log import tournament_registered_data
from services.views.standings import TournamentView
from services.regulations.tournament_file import load_tournament
from services.rules.checkers_pdn import read_pdn
from services.tournament.results import results_from_trf
from services.tournament.trf import parse_trf
from venue.demo_tournament import CHECKERS_MATCHES, match_ballots

PRESET = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml"
RECORDS = read_pdn(resources.files("venue").joinpath("data", CHECKERS_MATCHES).read_text("utf-8"))
PDN_RESULTS = ["1/2-1/2", "1-0", "1/2-1/2", "0-1", "1/2-1/2", "1-0", "1/2-1/2", "1/2-1/2", "0-1", "1/2-1/2"]
# start number -> its crosstable cell text in round 1 (opponent, then game 1 and game 2: colour, code)
CELLS = {1: "0000 - U", 2: "  11 w = b 1", 11: "   2 b = w 0", 3: "  10 w = b 0", 10: "   3 b = w 1",
         4: "   9 w = b 1", 9: "   4 b = w 0", 5: "   8 w = b =", 8: "   5 b = w =", 6: "   7 w 1 b =",
         7: "   6 b 0 w ="}
POINTS = {1: 1.0, 2: 1.5, 11: 0.5, 3: 0.5, 10: 1.5, 4: 1.5, 9: 0.5, 5: 1.0, 8: 1.0, 6: 1.5, 7: 0.5}


def demo_round_view(finished: bool = True) -> TournamentView:
    """Round 1 of the preset with the demo's ballots, each game ended with its record's result."""
    t = load_tournament(PRESET.read_text("utf-8"), str(PRESET))
    data = round_from_tournament(t, 1, ballots=match_ballots(5))
    games = data["games"]
    assert [g["id"] for g in games] == [f"1-{b}.{n}" for b in range(1, 6) for n in (1, 2)]
    entries = [("tournament_registered", tournament_registered_data(t)), ("round_started", data)]
    for setup, record in zip(games, RECORDS):
        if finished or setup["match"]["game_no"] == 1:
            entries.append(("game_ended", {"game": setup["id"], "board": setup["board"],
                                           "result": record.venue_result, "termination": "recorded"}))
    view = TournamentView()
    for seq, (type_, d) in enumerate(entries, start=1):
        view.apply(Entry(seq, 1_700_000_000_000 + seq, type_, d))
    return view


def test_the_records_are_the_matches_the_docstring_reads():
    assert [r.tags["Result"] for r in RECORDS] == PDN_RESULTS
    assert [r.tags["Event"].split("game ")[1] for r in RECORDS] == ["7", "8", "13", "14", "17", "18", "23", "24",
                                                                    "25", "26"]
    # each pair: the same players, colours reversed
    for one, two in zip(RECORDS[::2], RECORDS[1::2]):
        assert one.tags["Black"].split()[-1] == two.tags["White"].split()[-1]


def test_the_crosstable_cell_of_a_match_holds_both_games():
    rows = {r.start_no: r for r in demo_round_view().crosstable()}
    assert {s: r.cells[0].text for s, r in rows.items()} == CELLS
    assert {s: r.total for s, r in rows.items()} == POINTS
    cell = rows[2].cells[0]
    assert (cell.opponent, cell.color, cell.code, cell.points) == (11, "w", "=", 1.5)
    assert cell.games == (("w", "="), ("b", "1"))
    assert rows[1].cells[0].games == ()  # the bye: one block


def test_the_crosstable_api_lists_both_games():
    data = crosstable_json(demo_round_view())
    row = next(r for r in data["rows"] if r["start_no"] == 10)
    assert row["cells"] == [{"round": 1, "opponent": 3, "color": "b", "code": "=", "points": 1.5,
                             "text": "   3 b = w 1", "games": [{"color": "b", "code": "="}, {"color": "w", "code": "1"}]}]
    bye = next(r for r in data["rows"] if r["start_no"] == 1)
    assert "games" not in bye["cells"][0]


def test_a_match_half_played_shows_its_second_game_open():
    rows = {r.start_no: r for r in demo_round_view(finished=False).crosstable()}
    assert rows[2].cells[0].text == "  11 w = b  "  # game 2: Black, no result yet (TRF " ")
    assert rows[2].total == 0.5  # game 1's draw only
    assert rows[2].cells[0].games == (("w", "="), ("b", " "))


def test_the_trf_writes_each_game_of_a_match_as_a_round_of_its_own():
    text = tournament_trf(demo_round_view())
    t = parse_trf(text)
    assert t.total_rounds == 22  # XXR: 11 rounds of two games
    for sno, cell in CELLS.items():
        games = t.players[sno].games
        if sno == 1:
            assert [(g.round, g.opponent, g.color, g.result) for g in games] == [(1, None, None, "U")]
            continue
        opp = int(cell.split()[0])
        _, c1, r1, c2, r2 = cell.split()
        assert [(g.round, g.opponent, g.color, g.result) for g in games] == [(1, opp, c1, r1), (2, opp, c2, r2)]
        assert t.players[sno].points == POINTS[sno]
    # read back, each game is one pairing; the points are the blocks' sum (1 / ½ / 0)
    back = results_from_trf(t)
    assert len([r for r in back if r.black is not None]) == 10
    value = {"1": 1, "=": 0.5, "0": 0, "U": 1}
    for sno, p in t.players.items():
        assert sum(value[g.result] for g in p.games if g.result in value) == POINTS[sno]


def test_the_tournament_pdn_writes_the_match_clock_as_pgn_time_control():
    """The preset's match clock (90 minutes, X.A.a) is PGN TimeControl "5400" (PGN standard 9.6.1)
    for each match's game 1, never the file's table; game 2, on the time left from game 1
    (X.A.b), has no TimeControl ("?", which the PDN writer leaves out)."""
    from services.arbiter_office.tournament_export import tournament_pgn

    records = read_pdn(tournament_pgn(demo_round_view()))
    assert len(records) == 10 and "match_clock" not in tournament_pgn(demo_round_view())
    assert [r.tags.get("TimeControl") for r in records] == ["5400", None] * 5
