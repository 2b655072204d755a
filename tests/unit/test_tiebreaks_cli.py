"""``venue tiebreaks`` (venue/tiebreaks.py): output equals the fixtures' TSV files of
../shared/data/tiebreaks; clear errors with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from venue.tiebreaks import main


@pytest.mark.parametrize("system,name", [("round-robin", "rr-000106-11p-double"), ("swiss", "swiss-002007-35p-11r")])
def test_prints_fixture_table(shared_data: Path, capsys: pytest.CaptureFixture[str], system: str, name: str) -> None:
    path = shared_data / "tiebreaks" / system / f"{name}.trf"
    expected = path.with_name(f"{name}.tiebreaks.tsv").read_text()
    header = expected.splitlines()[0].split("\t")
    assert main([str(path), "--system", system, "--tiebreaks", ",".join(header[2:])]) == 0
    assert capsys.readouterr().out.splitlines() == expected.splitlines()


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
