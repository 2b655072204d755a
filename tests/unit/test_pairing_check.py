"""The arbiter's check of a round before publishing (services/tournament/pairing/dutch/check.py) and
``venue pair --check / --check-with``. The reasons are read off the fixture's TRF by hand: scores,
the float of earlier rounds (C.04.3 A.4: the higher-scored player of a game floats down, the lower
one up), the PAB rules (C.2, C.5, C.9); the pairing itself is bbpPairings' (tests/data/pairing)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from services.tournament.pairing.dutch import Pairing, pair_trf, round_input_from_trf
from services.tournament.pairing.dutch.check import check_round, compare_pairings
from services.tournament.trf import parse_trf
from venue.pair import main

SHARED_DATA = Path(os.environ.get("VENUE_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data"
CASE = Path(__file__).resolve().parents[1] / "data" / "pairing" / "actions" / "bye-half-001002.trf"


def _check():
    t = parse_trf(CASE.read_text())
    return check_round(round_input_from_trf(t), pair_trf(t))


def test_a_downfloat_names_the_players_scores_and_repeats() -> None:
    """Board 7-1: 1 has 4.5 points, 7 3.5. In round 5, 1 (3.5 before it) beat 3 (3.0): a downfloat
    in the previous round, which C.14 minimises."""
    board = next(b for b in _check() if (b.white, b.black) == (7, 1))
    assert (board.white_score, board.black_score) == (35, 45)
    assert board.reasons[0] == "1 (4.5) floats down to 7 (3.5), a score difference of 1.0 (A.4)"
    assert "1 also floated down in the previous round (C.14)" in board.reasons


def test_a_board_of_equal_scores_has_no_float_and_its_colour_rule() -> None:
    """11 and 9 both have 2.5 points; 11 had black in round 5, 9 white: both preferences met (E.1)."""
    board = next(b for b in _check() if (b.white, b.black) == (11, 9))
    assert board.reasons == () and board.colour_rule == "E.1"


def test_the_pab_reasons() -> None:
    """14 has 0 points, the lowest of all, and no PAB or forfeit win before (eligible, C.2, C.5)."""
    bye = _check()[-1]
    assert (bye.white, bye.black, bye.white_score) == (14, None, 0)
    assert bye.reasons[:2] == ("pairing-allocated bye to 14 (0.0): eligible (C.2)",
                               "the lowest score of any eligible player (C.5)")


def test_compare_pairings_names_each_difference() -> None:
    ours = [Pairing(1, 2), Pairing(3, 4), Pairing(5, None)]
    theirs = [(2, 1), (3, 5), (4, None)]
    assert compare_pairings(ours, theirs) == [
        "colours differ: we give 1-2, the other engine 2-1",
        "only ours: 3-4",
        "only ours: 5 bye",
        "only theirs: 3-5",
        "only theirs: 4 bye",
    ]
    assert compare_pairings(ours, [(1, 2), (3, 4), (5, 0)]) == []


def _engine(tmp_path: Path, pairs: str) -> str:
    """A stand-in for an external engine: writes ``pairs`` to the file after ``-p``."""
    script = tmp_path / "engine"
    script.write_text(f"#!{sys.executable}\nimport sys\nopen(sys.argv[sys.argv.index('-p') + 1], 'w').write({pairs!r})\n")
    script.chmod(0o755)
    return str(script)


def test_check_with_an_engine_that_agrees_exits_0(tmp_path: Path, capsys) -> None:
    expected = CASE.with_suffix(".pairs").read_text()
    assert main([str(CASE), "--check-with", _engine(tmp_path, expected)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(expected) and "the same 7 boards, the same colours" in out


def test_check_with_an_engine_that_differs_exits_3(tmp_path: Path, capsys) -> None:
    different = CASE.with_suffix(".pairs").read_text().replace("7 1\n", "1 7\n")
    assert main([str(CASE), "--check-with", _engine(tmp_path, different)]) == 3
    assert "colours differ: we give 7-1, the other engine 1-7" in capsys.readouterr().out


def test_check_with_an_engine_that_cannot_run_exits_3(tmp_path: Path, capsys) -> None:
    assert main([str(CASE), "--check-with", str(tmp_path / "missing-engine")]) == 3
    assert "cannot run it" in capsys.readouterr().out


def test_cli_actions_reach_the_pairing(tmp_path: Path, capsys) -> None:
    """``--bye 5:H`` on the shared fixture gives the file and the pairing of tests/data (bbpPairings')."""
    shared = SHARED_DATA / "pairing" / "dutch" / "dutch-001002-14p-r6of6.trf"
    out = tmp_path / "round6.trf"
    assert main([str(shared), "--bye", "5:H", "--write", str(out), "--check"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(CASE.with_suffix(".pairs").read_text())
    assert "bye  14: pairing-allocated bye" in printed
    assert out.read_text() == CASE.read_text()


def test_cli_bad_action_exit_2(capsys) -> None:
    assert main([str(CASE), "--bye", "5:Q"]) == 2
    assert "H, F or Z" in capsys.readouterr().err
