"""services.rules.results: scores, points, PGN results and TRF codes.

Sources: PGN standard 8.1.1 (Result values), FIDE Handbook C.04 Annex 2 TRF-16 (result codes "1",
"=", "0", "+", "-"), the real TRF ../shared/data/trf/example1.trf (forfeit pairs written + / -),
FIDE Laws 6.9 (flag fall can be a draw), 12.9 (arbiter's scores)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.rules.results import (
    PGN_RESULTS, SCORES, TERMINATIONS, check_outcome, result_for_winner, score,
)

HALF = Fraction(1, 2)


@pytest.mark.parametrize("code,white,black,played,pgn,trf", [
    ("1-0", 1, 0, True, "1-0", ("1", "0")),
    ("0-1", 0, 1, True, "0-1", ("0", "1")),
    ("1/2-1/2", HALF, HALF, True, "1/2-1/2", ("=", "=")),
    ("+:-", 1, 0, False, "1-0", ("+", "-")),
    ("-:+", 0, 1, False, "0-1", ("-", "+")),
    ("-:-", 0, 0, False, "*", ("-", "-")),
    ("0-0", 0, 0, True, "*", ("0", "0")),
    ("1/2-0", HALF, 0, True, "*", ("=", "0")),
    ("0-1/2", 0, HALF, True, "*", ("0", "=")),
])
def test_score_table(code, white, black, played, pgn, trf):
    """Issue "Rules core": results as PGN knows them, forfeits (+/- in TRF-16, no game played) and
    the arbiter's special scores 0-0, ½-0, 0-½ (FIDE Laws 12.9), with points per side."""
    sc = score(code)
    assert (sc.points("white"), sc.points("black")) == (white, black)
    assert sc.played is played and sc.pgn == pgn and sc.pgn in PGN_RESULTS
    assert (sc.trf("white"), sc.trf("black")) == trf


def test_aliases_and_bad_codes():
    """The ½ sign and TRF-style pairs are accepted; "*" (unfinished) and nonsense are not scores."""
    assert score("½-½") is SCORES["1/2-1/2"] and score("½-0") is SCORES["1/2-0"]
    assert score(" 1-0 ") is SCORES["1-0"]
    for bad in ("*", "2-0", "", None):
        with pytest.raises(ValueError):
            score(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SCORES["1-0"].points("red")


def test_winner_and_result_for_winner():
    """PGN 8.1.1: "1-0" White wins, "0-1" Black wins, "1/2-1/2" drawn."""
    assert result_for_winner("white") == "1-0" and result_for_winner("black") == "0-1"
    assert result_for_winner(None) == "1/2-1/2"
    assert score("1-0").winner == "white" and score("-:+").winner == "black"
    assert score("0-0").winner is None and score("1/2-0").winner is None


def test_termination_words():
    """The issue's list of termination words, exactly, plus "dead_position" (issue 12: FIDE Laws
    5.2.2, a dead position that is not one of insufficient material: a blockade, a forced line),
    which is a draw; and issue 27's "the termination says how the result came" for a result entered
    by hand: "result_slip" (FIDE Laws 8.7, the players' signed result) and "claim_upheld" (9.2, 9.3),
    a draw."""
    assert set(TERMINATIONS) == {
        "checkmate", "stalemate", "fivefold_repetition", "seventyfive_moves", "insufficient_material",
        "dead_position", "time_forfeit", "agreement", "resignation", "threefold_repetition",
        "fifty_moves", "forfeit", "arbiter", "result_slip", "claim_upheld"}
    with pytest.raises(ValueError):
        check_outcome("1-0", "claim_upheld")
    assert check_outcome("1/2-1/2", "dead_position").code == "1/2-1/2"
    with pytest.raises(ValueError):
        check_outcome("1-0", "dead_position")


def test_check_outcome_rejects_inconsistent_pairs():
    """FIDE Laws: checkmate/resignation decide (5.1), stalemate, repetition, 50/75 moves, dead
    position and agreement draw (5.2, 9.2, 9.3, 9.6); a flag fall wins or draws (6.9); a score
    without play is a forfeit or an arbiter's decision."""
    assert check_outcome("1/2-1/2", "time_forfeit").code == "1/2-1/2"
    assert check_outcome("+:-", "forfeit").played is False
    assert check_outcome("0-0", "arbiter").code == "0-0"
    for bad in [("1/2-1/2", "checkmate"), ("1-0", "stalemate"), ("1-0", "threefold_repetition"),
                ("+:-", "resignation"), ("0-0", "time_forfeit"), ("1-0", "nonsense")]:
        with pytest.raises(ValueError):
            check_outcome(*bad)


def test_trf_codes_match_the_real_tournament_report(shared_data):
    """example1.trf (FIDE's TRF example, SOURCES.md: 10 forfeit pairs): each round entry is
    "opponent colour result"; a forfeit pair is "+" against "-", a played game "1"/"0" or "="/"=".
    Every pair found there is one of our scores' TRF pairs."""
    path = shared_data / "trf" / "example1.trf"
    results: dict[tuple[int, int], dict[int, str]] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if not line.startswith("001"):
            continue
        number = int(line[4:8])
        # TRF-16: round entries from column 92, 10 characters each: opponent (4), colour, result.
        for round_no in range(1, 8):
            entry = line[81 + 10 * round_no:89 + 10 * round_no].ljust(8)
            opponent, result = entry[0:4], entry[7]
            if opponent.strip().isdigit() and int(opponent) > 0:
                results.setdefault((round_no, min(number, int(opponent))), {})[number] = result
    pairs = set()
    for (_, low), entry in results.items():
        if len(entry) == 2:
            high = max(entry)
            pairs.add((entry[low], entry[high]))
    ours = {(s.trf_white, s.trf_black) for s in SCORES.values()}
    assert ("+", "-") in pairs  # the forfeits really are there
    assert {pair for pair in pairs} <= ours | {(b, a) for a, b in ours}
    forfeits = sum(1 for (_, low), entry in results.items() if len(entry) == 2 and set(entry.values()) == {"+", "-"})
    assert forfeits == 10  # SOURCES.md: 10 forfeit pairs
