"""Single Dutch-system rules on small tournaments built for them (FIDE C.04.1, C.04.2, C.04.3).
Each expected pairing is worked out by hand from the article named in the test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from services.tournament.pairing.dutch import NoValidPairing, Pairing, pair_trf, round_input_from_trf
from services.tournament.trf import parse_trf

SHARED_DATA = Path(os.environ.get("VENUE_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "data"


def _line(no: int, points: str, games: str) -> str:
    line = f"001 {no:4d}      Test{no:04d} Player{no:04d}               {2700 - no:4d}"
    return line + " " * 28 + f"{points:>4} {no:4d}" + games


def _trf(rows: list[tuple[int, str, str]], rounds: int) -> str:
    return "\n".join(["012 rules"] + [_line(*r) for r in rows] + [f"XXR {rounds}"]) + "\n"


def test_pab_goes_to_the_player_with_fewest_unplayed_games() -> None:
    """C.04.3 C.9: minimise the unplayed games of the PAB assignee. 3, 4 and 5 all have 0 points;
    5 had a zero-point bye (an unplayed game), so of 3 and 4 the lower-ranked, 4, gets the PAB
    (C.04.1 c). 2 had black and 1 white: they alternate (E.4); 3 had black, 5 has no history (E.1)."""
    text = _trf([
        (1, "1.0", "     3 w 1"),
        (2, "1.0", "     4 b 1"),
        (3, "0.0", "     1 b 0"),
        (4, "0.0", "     2 w 0"),
        (5, "0.0", "  0000 - Z"),
    ], 3)
    assert pair_trf(parse_trf(text)) == [Pairing(2, 1), Pairing(3, 5), Pairing(4, None)]


def test_a_forfeited_game_is_not_a_game_played() -> None:
    """C.04.1 b/f: players may meet again after a forfeit, which gives no colour either. Neither
    has a colour preference, so the higher-ranked (1, the forfeit winner) gets the colour the top
    player had in round 1 (E.5): white."""
    text = _trf([(1, "1.0", "     2 w +"), (2, "0.0", "     1 b -")], 3)
    assert pair_trf(parse_trf(text)) == [Pairing(1, 2)]


def test_players_who_met_cannot_meet_again() -> None:
    """C.04.3 C.1: two players who have played each other cannot be paired: no valid pairing."""
    text = _trf([(1, "1.0", "     2 w 1"), (2, "0.0", "     1 b 0")], 3)
    with pytest.raises(NoValidPairing):
        pair_trf(parse_trf(text))


def test_pab_and_forfeit_win_make_a_player_ineligible_for_the_pab() -> None:
    """C.04.1 d / C.04.3 C.2: a player who already received a PAB or won by forfeit gets no PAB."""
    t = parse_trf(_trf([
        (1, "1.0", "  0000 - U"),
        (2, "1.0", "     3 w +"),
        (3, "0.0", "     2 b -"),
    ], 3))
    pairing = pair_trf(t)
    assert pairing[-1] == Pairing(3, None)


def test_a_player_with_an_entry_for_the_round_being_paired_is_not_paired() -> None:
    """A requested bye (TRF ``0000 - H``) or a withdrawal (``0000 - Z``/``-``) entered for the round
    being paired takes the player out of it (C.04.2: only players present are paired)."""
    path = SHARED_DATA / "pairing" / "dutch" / "dutch-001019-6p-r3of5.trf"
    lines = path.read_text().split("\n")
    lines = [ln + "  0000 - H" if ln.startswith("001    6") else ln for ln in lines]
    t = parse_trf("\n".join(lines))
    inp = round_input_from_trf(t)
    assert inp.played_rounds == 2 and inp.players[6].next_entry is not None
    pairing = pair_trf(t)
    seen = [p.white for p in pairing] + [p.black for p in pairing if p.black is not None]
    assert sorted(seen) == [1, 2, 3, 4, 5]
    assert sum(1 for p in pairing if p.black is None) == 1


def test_missing_xxr_is_an_error() -> None:
    text = _trf([(1, "1.0", "     2 w 1"), (2, "0.0", "     1 b 0")], 3).replace("XXR 3\n", "")
    with pytest.raises(ValueError, match="XXR"):
        pair_trf(parse_trf(text))


def test_contradicting_entries_are_an_error() -> None:
    text = _trf([(1, "1.0", "     2 w 1"), (2, "0.0", "     1 w 0"), (3, "0.0", "")], 3)
    with pytest.raises(ValueError, match="contradicts"):
        pair_trf(parse_trf(text))


def test_point_system_lines_are_read() -> None:
    """BBW/BBD lines (bbpPairings' TRF extension) set the points of a win and a draw; the PAB is
    worth a win unless BBU says otherwise."""
    text = _trf([(1, "3.0", "     2 w 1"), (2, "0.0", "     1 b 0"), (3, "0.0", "")], 3)
    inp = round_input_from_trf(parse_trf(text + "BBW  3.0\nBBD  1.0\n"))
    assert (inp.points.win, inp.points.draw, inp.points.pab) == (30, 10, 30)


def test_round_one_top_half_against_bottom_half() -> None:
    """Round 1 (C.04.3 B.2, E.5): one bracket, S1 = 1-3 against S2 = 4-6 in order; with XXC white1
    the 1st, 3rd, ... players of S1 get white and the others black."""
    text = _trf([(n, "0.0", "") for n in range(1, 7)], 5) + "XXC white1\n"
    assert pair_trf(parse_trf(text)) == [Pairing(1, 4), Pairing(5, 2), Pairing(3, 6)]
