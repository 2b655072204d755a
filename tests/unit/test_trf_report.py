"""The TRF16 rating report of a whole event (services/arbiter_office/tournament_export.py, tournament_trf), its
lines checked against FIDE's TRF16 text (FIDE Handbook C.04 Annex 2, "Format of TRF (Tournament Report
File)", approved Elista 2015), and read back by our own tie-breaks to the same standings (issue 30).

Events: events/us-championship-2013.toml (a 24-player Swiss), events/us-championship-2023.toml and
events/norway-chess-2023.toml (round robins), played through the arbiter's actions with seeded results
(tests/trf_events.py). Norway Chess 2023's points: "Win in the classical game: 3 points / Loss in the
classical game: 0 points / Draw in the classical game & win Armageddon: 1½ points / Draw in the main
game & loss Armageddon: 1 point" and "For tie-breaks purpose, only points in classical games will be
counted" (../shared/regulations/norway-chess-2023.txt).
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
from functools import cache
from pathlib import Path

import pytest

from trf_events import EVENTS, enter, event, play
from services.regulations.fields import TournamentFileError
from services.regulations.tournament_file import load_tournament
from services.arbiter_office.tournament_export import tournament_trf
from services.tournament.model import field_from_trf
from services.tournament.scoring import CLASSICAL
from services.tournament.standings import tiebreak_specs
from services.tournament.tiebreaks import compute_tiebreaks
from services.tournament.trf import parse_trf
from services.tournament.trf_points import standings_points
from services.views.standings import TournamentView
from venue import tiebreaks as venue_tiebreaks

# TRF16, "Tournament Section": "Data-Identification-number (??2 for tournament data) position 1-3",
# "from position 5 (free text)": 012 Tournament Name, 022 City, 032 Federation, 042 Date of start,
# 052 Date of end, 062 Number of players, 072 Number of rated players, 082 Number of teams in case of a
# team tournament, 092 Type of tournament, 102 Chief Arbiter, 112 Deputy Chief Arbiter one line for each
# arbiter, 122 Allotted times per moves/game, 132 Dates of the round format: YY/MM/DD,
# "92 - 99 Round 1 date", "102 - 109 Round 2 date", "112 - 119 Round 3 date and so on..."
OFFICIALS = {"federation": "USA", "chief_arbiter": "IA Chief Arbiter 2000001",
             "deputy_arbiters": ("IA Deputy Arbiter 2000002", "FA Arbiter 2000003")}


@cache
def _played(name: str, seed: int = 30) -> tuple[TournamentView, str]:
    t = event(name)
    if name == "us-championship-2013.toml":
        t = dataclasses.replace(t, **OFFICIALS)
    view = play(t, seed)
    return view, tournament_trf(view)


def _lines(text: str, code: str) -> list[str]:
    return [line for line in text.splitlines() if line[:3] == code]


def test_tournament_section_as_trf16() -> None:
    view, text = _played("us-championship-2013.toml")
    t = view.tournament
    assert t is not None
    assert _lines(text, "012") == [f"012 {t.name}"] and _lines(text, "022") == [f"022 {t.site}"]
    assert _lines(text, "032") == ["032 USA"]
    days = [s.start[:10].replace("-", "/") for s in t.rounds]  # the file's [[rounds]] (ISO 8601)
    assert _lines(text, "042") == [f"042 {days[0]}"] and _lines(text, "052") == [f"052 {days[-1]}"]
    assert _lines(text, "062") == [f"062 {len(t.players)}"]
    assert _lines(text, "072") == [f"072 {sum(1 for p in t.players if p.rating)}"]
    assert _lines(text, "102") == ["102 IA Chief Arbiter 2000001"]
    assert _lines(text, "112") == ["112 IA Deputy Arbiter 2000002", "112 FA Arbiter 2000003"]
    assert _lines(text, "122") == [f"122 {t.time_controls[t.kind]}"]
    [dates] = _lines(text, "132")
    # "92 - 99 Round 1 date", "102 - 109 Round 2 date" ... in YY/MM/DD; columns are 1-based
    got = [dates[91 + 10 * i:99 + 10 * i] for i in range(t.rounds_total)]
    assert got == [d[2:] for d in days]
    assert all(dates[99 + 10 * i:101 + 10 * i] == "  " for i in range(t.rounds_total - 1))


@pytest.mark.parametrize("name", ["us-championship-2013.toml", "us-championship-2023.toml"])
def test_player_lines_as_trf16(name: str) -> None:
    """TRF16 "Player Section": 81-84 "Points (in the format 11.5)", "the number of points in the
    tournament standings"; 86-89 Rank; per round 92-95 "Startingrank-Number of the scheduled opponent"
    or "0000 If the player had a bye", 97 "Scheduled color or forfeit" (w, b, "-" "If the player had a
    bye or was not paired", so a forfeit keeps its scheduled colour), 99 the result ("-" forfeit loss, "+" forfeit win, 1 = 0, H F U Z)."""
    view, text = _played(name)
    rows = {r.start_no: r for r in view.standings()}
    for line in _lines(text, "001"):
        sno = int(line[4:8])
        assert line[80:84] == f"{rows[sno].points:4.1f}" and int(line[85:89]) == rows[sno].rank
        blocks = [line[91 + 10 * i:99 + 10 * i] for i in range((len(line) - 91 + 2) // 10)]
        codes = [b[7] for b in blocks]
        assert sum(CLASSICAL.points(c) for c in codes) == rows[sno].points  # the column agrees with the codes
        for b in blocks:
            opponent, colour, code = b[0:4], b[5], b[7]
            if code in "UHFZ":
                assert (opponent, colour) == ("0000", "-")
            elif code in "+-":  # "Scheduled color against the scheduled opponent"
                assert opponent.strip().isdigit() and opponent != "0000" and colour in "wb"
                back = parse_trf(text).players[int(opponent)].game(blocks.index(b) + 1)
                assert back is not None and back.opponent == sno and {back.color, colour} == {"w", "b"}
            else:
                assert code in "10=" and colour in "wb" and opponent.strip().isdigit()


def test_norway_points_column_is_classical_and_its_own_points_kept() -> None:
    """The column holds the classical points, consistent with the codes under the system the file
    states (bbpPairings' BBW/BBD/... records: 1, ½, 0); the event's 3/1½/1/0 points in VPT lines;
    the rank column is the final order (by the event's points and its tie-breaks)."""
    view, text = _played("norway-chess-2023.toml")
    assert [line.split() for line in _lines(text, "BBW") + _lines(text, "BBD") + _lines(text, "BBL")] == \
        [["BBW", "1.0"], ["BBD", "0.5"], ["BBL", "0.0"]]
    own = standings_points(text.splitlines())
    rows = {r.start_no: r for r in view.standings()}
    for line in _lines(text, "001"):
        sno = int(line[4:8])
        codes = [line[98 + 10 * i] for i in range((len(line) - 91 + 2) // 10)]
        assert float(line[80:84]) == sum(CLASSICAL.points(c) for c in codes)
        assert sum(own[sno]) == rows[sno].points and int(line[85:89]) == rows[sno].rank
        assert set(own[sno]) <= {3.0, 1.5, 1.0, 0.0}


@pytest.mark.parametrize("name", ["norway-chess-2023.toml", "us-championship-2013.toml", "us-championship-2023.toml"])
def test_read_back_to_the_same_standings(name: str) -> None:
    view, text = _played(name)
    specs = tiebreak_specs(view.tiebreak_order())
    table = compute_tiebreaks(field_from_trf(parse_trf(text)), specs,
                              round_robin=view.tournament is not None and "robin" in view.tournament.system)
    want = [(r.rank, r.start_no, r.points) for r in view.standings()]
    fld = field_from_trf(parse_trf(text))
    assert [(r.rank, r.start_no, fld.players[r.start_no].points) for r in table.rows] == want


def test_venue_tiebreaks_reads_the_norway_report_back(tmp_path: Path) -> None:
    view, text = _played("norway-chess-2023.toml")
    path = tmp_path / "norway.trf"
    path.write_text(text)
    specs = tiebreak_specs(view.tiebreak_order())
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = venue_tiebreaks.main([str(path), "--system", "round-robin", "--tiebreaks",
                                   ",".join(s.text for s in specs), "--tsv"])
    assert rc == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()[1:]]
    got = {int(r[0]): (int(r[1]), float(r[2])) for r in rows}
    assert got == {r.start_no: (r.rank, r.points) for r in view.standings()}


def test_a_correction_after_the_next_round_is_in_the_report() -> None:
    """A round-2 result corrected after round 3 was paired: the report holds the corrected result
    (what is rated; the pairing of round 3 stands: tools/check_trf_pairings.py checks it as paired)."""
    t = event("us-championship-2013.toml")
    view = play(t, 30, 3)
    before = parse_trf(tournament_trf(view))
    g = next(g for g in view.games.values() if g.round == 2 and g.result == "1-0")
    board = next(view.state.games[i].board for i in view.state.rounds["2"].games
                 if view.state.games[i].setup.white_no == g.white)
    enter(view, 2, board, "0-1")
    after = parse_trf(tournament_trf(view))
    assert [before.players[g.white].game(2).result, before.players[g.black].game(2).result] == ["1", "0"]
    assert [after.players[g.white].game(2).result, after.players[g.black].game(2).result] == ["0", "1"]
    assert after.players[g.white].points == before.players[g.white].points - 1
    assert after.players[g.black].points == before.players[g.black].points + 1


def test_forbidden_pair_and_withdrawal_lines() -> None:
    """The forbidden pair as JaVaFo's and bbpPairings' XXP line; the rounds after a withdrawal as
    TRF16's "Z zero-point-bye Known absence from round" with "0000"."""
    t = event("us-championship-2013.toml")
    view = play(t, 30, 3, before={
        2: lambda v: [("pairing_forbidden", {"players": [3, 9], "by": "chief"})],
        3: lambda v: [("player_withdrew", {"start_no": 7, "from_round": 3, "by": "chief"})]})
    text = tournament_trf(view)
    assert _lines(text, "XXP") == ["XXP 3 9"]
    seven = parse_trf(text).players[7].game(3)
    assert seven is not None and (seven.opponent, seven.color, seven.result) == (None, None, "Z")


@pytest.mark.parametrize("line, error", [
    ("VPT    1  13.0   3.0   x", "must be numbers"),
    ("VPT    1  12.0   3.0   1.5", "is not the sum of the rounds"),
    ("VPT", "must be numbers")])
def test_a_bad_points_line_is_refused(line: str, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        standings_points([line])
    with pytest.raises(ValueError, match=error):
        field_from_trf(parse_trf(f"012 x\n{line}\n001    1      A{' ' * 80}\n"))


def test_a_federation_that_is_not_a_fide_code_is_refused() -> None:
    """TRF16 032 "Federation": the file's ``federation`` is FIDE's three-letter code or nothing."""
    text = (EVENTS / "us-championship-2013.toml").read_text("utf-8")
    bad = text.replace('[tournament]\n', '[tournament]\nfederation = "United States"\n', 1)
    with pytest.raises(TournamentFileError, match="tournament.federation: must be FIDE's three-letter code"):
        load_tournament(bad, "bad.toml")
