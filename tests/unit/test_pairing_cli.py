"""``venue pair``: the next round of a TRF in the fixtures' format (../shared/data/pairing/README.md:
count, then ``white black`` lines, ``N 0`` for the PAB), Berger tables, and errors."""

from __future__ import annotations

import os
from pathlib import Path

from venue.pair import main

SHARED_DATA = Path(os.environ.get("VENUE_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data"
DUTCH = SHARED_DATA / "pairing" / "dutch"


def test_prints_the_fixture_file_exactly(capsys) -> None:
    for name in ("dutch-001042-9p-r3of7", "dutch-001019-6p-r3of5"):
        assert main([str(DUTCH / f"{name}.trf")]) == 0
        assert capsys.readouterr().out == (DUTCH / f"{name}.pairs").read_text()


def test_berger_round(capsys) -> None:
    """FIDE C.05 Annex 1, 10 players, round 2: 10-6, 7-5, 8-4, 9-3, 1-2."""
    assert main(["--berger", "10", "--round", "2"]) == 0
    assert capsys.readouterr().out == "5\n10 6\n7 5\n8 4\n9 3\n1 2\n"


def test_berger_of_fewer_than_two_players_is_an_error(capsys) -> None:
    """A new user's finding: ``venue pair --berger 0`` printed nothing and exited 0. FIDE C.05
    Annex 1's tables start at 3-4 players; a round robin of 2 is one game a round."""
    for n in ("0", "1", "-3"):
        assert main(["--berger", n]) == 2
        assert f"--berger {n}: a round robin needs at least 2 players" in capsys.readouterr().err
    assert main(["--berger", "2"]) == 0
    assert capsys.readouterr().out == "1\n1 2\n"


def test_broken_file_exit_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("001    1      Test0001 Player0001               27x8\nXXR 5\n")
    assert main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.trf" in err and "rating" in err and "Traceback" not in err


def test_missing_file_exit_2(tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path / "none.trf")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_unpairable_exit_1(tmp_path: Path, capsys) -> None:
    f = tmp_path / "done.trf"
    f.write_text(
        "001    1      Test0001 Player0001               2700                             1.0    1     2 w 1\n"
        "001    2      Test0002 Player0002               2600                             0.0    2     1 b 0\n"
        "XXR 3\n"
    )
    assert main([str(f)]) == 1
    assert "absolute criteria" in capsys.readouterr().err


def test_venue_pair_starts_without_the_web_stack() -> None:
    """``venue pair`` is a command an arbiter runs between rounds: loading it (the ``venue`` entry
    point, then the pair module) must not import the web or messaging stack."""
    import subprocess
    import sys

    code = ("import sys, venue.cli, venue.pair; "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'redis', 'aiomqtt', 'amqtt') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
