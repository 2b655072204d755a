"""``venue tiebreaks`` (venue/tiebreaks.py): with ``--tsv`` the output equals the fixtures' TSV files of
../shared/data/tiebreaks; without it, the standings in rank order with names (issue 27: it printed
start-number order with no names) and a note for a blank ARO; clear errors with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from venue.tiebreaks import main


@pytest.mark.parametrize("system,name", [("round-robin", "rr-000106-11p-double"), ("swiss", "swiss-002007-35p-11r")])
def test_prints_fixture_table(shared_data: Path, capsys: pytest.CaptureFixture[str], system: str, name: str) -> None:
    path = shared_data / "tiebreaks" / system / f"{name}.trf"
    expected = path.with_name(f"{name}.tiebreaks.tsv").read_text()
    header = expected.splitlines()[0].split("\t")
    assert main([str(path), "--system", system, "--tiebreaks", ",".join(header[2:]), "--tsv"]) == 0
    assert capsys.readouterr().out.splitlines() == expected.splitlines()


def test_standings_in_rank_order_with_names(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """swiss-002001: the fixture's ranks (its TSV) give the order; the names are the TRF's."""
    path = shared_data / "tiebreaks" / "swiss" / "swiss-002001-12p-7r.trf"
    expected = [line.split("\t") for line in path.with_name("swiss-002001-12p-7r.tiebreaks.tsv").read_text().splitlines()]
    assert main([str(path), "--system", "swiss", "--tiebreaks", "PTS,BH,SB,ARO"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Rank", "No", "Name", "PTS", "BH", "SB", "ARO"]
    by_rank = sorted(expected[1:], key=lambda r: (int(r[1]), int(r[0])))
    assert [line.split()[:2] for line in lines[1:]] == [[r[1], r[0]] for r in by_rank]
    assert lines[1].split()[2:4] == ["Test0002", "Player0002"]  # rank 1 is start number 2


def test_a_blank_aro_is_explained(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """example1.trf (FIDE's TRF example) has unrated players: ARO is blank for everyone (given only
    when every player is rated, services/tournament/rating_average.py), and the note says so."""
    path = shared_data / "trf" / "example1.trf"
    assert main([str(path), "--system", "swiss", "--tiebreaks", "PTS,ARO"]) == 0
    note = capsys.readouterr().out.splitlines()[-1]
    assert note.startswith("note: ARO is blank for 284 player(s) (") and "not every player of the event is rated" in note


def test_unknown_tiebreak_exit_2(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = shared_data / "tiebreaks" / "swiss" / "swiss-002001-12p-7r.trf"
    assert main([str(path), "--system", "swiss", "--tiebreaks", "PTS,NOPE"]) == 2
    assert "unknown tie-break 'NOPE'" in capsys.readouterr().err


def test_broken_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("012 X\n001    1      A                                 2000                             1.0    1     2 q 1\n")
    assert main([str(bad), "--system", "swiss", "--tiebreaks", "PTS"]) == 2
    assert "line 2: round 1 colour (column 97)" in capsys.readouterr().err


def test_missing_file_and_bad_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "none.trf"), "--system", "swiss", "--tiebreaks", "PTS"]) == 2
    assert main([str(tmp_path / "none.trf"), "--system", "knockout", "--tiebreaks", "PTS"]) == 2


def test_mid_event_counts_the_rounds_played_not_xxr(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ../shared/data/SOURCES.md: the Gros 2010 file has "XXR 9 but results only for rounds 1-5". Its
    # tie-breaks now are those after round 5 (FIDE C.07 over the rounds played); the four rounds not
    # played yet are no unplayed rounds (counted, they gave everyone virtual opponents: a new user's
    # Buchholz 26 for 2 on another file).
    f = str(shared_data / "trf" / "xx_open_internacional_de_gros_2010_after_r5.trf")
    args = [f, "--system", "swiss", "--tiebreaks", "PTS,BH", "--tsv"]
    assert main(args) == 0
    default = capsys.readouterr().out
    assert main([*args, "--rounds", "5"]) == 0
    assert capsys.readouterr().out == default
    assert main([*args, "--rounds", "9"]) == 0
    assert capsys.readouterr().out != default
    for bad in ("0", "10"):
        assert main([*args, "--rounds", bad]) == 2
        assert capsys.readouterr().err.strip() == f"venue tiebreaks: {f}: --rounds {bad}: the file has rounds 1 to 9"
