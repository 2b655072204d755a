"""Field cases F13 and F14 (../shared/cases/field-cases.md) and tie-break rules of C.07."""

from __future__ import annotations

import pytest

from services.tournament.results import GameResult, field_from_results
from services.tournament.tiebreaks import compute_tiebreaks, parse_spec

V, W, X, Y, Z = 1, 2, 3, 4, 5

# F13: 5 players, 4 rounds, White first; PAB worth 1 point.
F13 = [
    GameResult(1, V, Z, "1-0"), GameResult(1, W, X, "0-1"), GameResult(1, Y, None, "U"),
    GameResult(2, V, X, "1/2-1/2"), GameResult(2, Y, W, "0-1"), GameResult(2, Z, None, "U"),
    GameResult(3, V, Y, "1-0"), GameResult(3, X, Z, "0-1"), GameResult(3, W, None, "U"),
    GameResult(4, V, W, "0-1"), GameResult(4, Y, Z, "1-0"), GameResult(4, X, None, "U"),
]


def _table(results, specs, edition="2026", round_robin=False, players=(V, W, X, Y, Z)):
    field = field_from_results(players, results)
    return compute_tiebreaks(field, specs, round_robin=round_robin, edition=edition).by_start_no()


def test_f13_scores() -> None:
    t = _table(F13, ["PTS"])
    assert {s: t[s].values["PTS"] for s in t} == {W: 3.0, V: 2.5, X: 2.5, Y: 2.0, Z: 2.0}


def test_f13_aug_2024() -> None:
    # F13 "Expected under C.07 Aug-2024": BH V 9.5 W 10.0 X 10.0 Y 9.5 Z 9.0; SB 5.25 7.5 6.75 4.0 4.5.
    t = _table(F13, ["PTS", "BH", "SB"], edition="2024")
    assert {s: t[s].values["BH"] for s in t} == {V: 9.5, W: 10.0, X: 10.0, Y: 9.5, Z: 9.0}
    assert {s: t[s].values["SB"] for s in t} == {V: 5.25, W: 7.5, X: 6.75, Y: 4.0, Z: 4.5}
    assert t[X].rank < t[V].rank  # "The V/X tie goes to X (BH 10.0 vs 9.5)."


def test_f13_march_2026() -> None:
    # F13 "Under the March-2026 text": BH W 9.0, X 9.5, V 9.5; SB W 6.5, X 6.25; V and X tied on BH.
    t = _table(F13, ["PTS", "BH", "SB"], edition="2026")
    assert (t[W].values["BH"], t[X].values["BH"], t[V].values["BH"]) == (9.0, 9.5, 9.5)
    assert (t[W].values["SB"], t[X].values["SB"]) == (6.5, 6.25)
    t = _table(F13, ["PTS", "BH"], edition="2026")
    assert t[V].rank == t[X].rank


def test_edition_is_checked() -> None:
    with pytest.raises(ValueError, match="edition"):
        _table(F13, ["BH"], edition="2009")


# F14: X and Y tied on 3 points, Swiss, 4 rounds. Opponents A..F are filler players.
X14, Y14, A, B, C, D, E, F, G, H = range(1, 11)
F14 = [
    GameResult(1, X14, A, "1-0"), GameResult(1, B, Y14, "-+"),  # Y scheduled Black, won by forfeit
    GameResult(2, C, X14, "1/2-1/2"), GameResult(2, Y14, D, "1/2-1/2"),
    GameResult(3, E, X14, "0-1"), GameResult(3, F, Y14, "0-1"),
    GameResult(4, G, X14, "1/2-1/2"), GameResult(4, H, Y14, "1/2-1/2"),
]


def test_f14_win_won_bpg_bwg() -> None:
    # F14 table: WIN 2/2, WON 2/1, BPG 3/2, BWG 1/1.
    t = _table(F14, ["PTS", "WIN", "WON", "BPG", "BWG"], players=range(1, 11))
    assert t[X14].values["PTS"] == t[Y14].values["PTS"] == 3.0
    assert (t[X14].values["WIN"], t[Y14].values["WIN"]) == (2, 2)
    assert (t[X14].values["WON"], t[Y14].values["WON"]) == (2, 1)
    assert (t[X14].values["BPG"], t[Y14].values["BPG"]) == (3, 2)
    assert (t[X14].values["BWG"], t[Y14].values["BWG"]) == (1, 1)
    # "[BPG] ranks X above Y; [WIN] leaves them tied; [WON] ranks X above Y."
    by_bpg = _table(F14, ["PTS", "BPG"], players=range(1, 11))
    by_win = _table(F14, ["PTS", "WIN"], players=range(1, 11))
    by_won = _table(F14, ["PTS", "WON"], players=range(1, 11))
    assert by_bpg[X14].rank < by_bpg[Y14].rank
    assert by_win[X14].rank == by_win[Y14].rank
    assert by_won[X14].rank < by_won[Y14].rank


def test_f14_double_forfeit_unplayed_for_both() -> None:
    # F14 / F10 (d): a 0-0 double forfeit is unplayed for both: no colour and no game played.
    t = _table([GameResult(1, 1, 2, "--")], ["PTS", "WIN", "WON", "BPG", "BWG"], players=(1, 2))
    for s in (1, 2):
        assert [t[s].values[k] for k in ("PTS", "WIN", "WON", "BPG", "BWG")] == [0.0, 0, 0, 0, 0]


def test_direct_encounter_three_tied_round_robin() -> None:
    # C.07 Art. 6: among A, B, C tied on points, the games between them decide; A beat both.
    res = [GameResult(1, 1, 2, "1-0"), GameResult(1, 3, 4, "1-0"),
           GameResult(2, 1, 3, "1-0"), GameResult(2, 2, 4, "1-0"),
           GameResult(3, 1, 4, "0-1"), GameResult(3, 2, 3, "0-1")]
    t = _table(res, ["PTS", "DE"], round_robin=True, players=(1, 2, 3, 4))
    # points: 1: 2, 2: 1, 3: 2, 4: 1 ; 1 beat 3 -> DE 1 and 2; 2 beat 4 -> DE 1 and 2
    assert (t[1].values["DE"], t[3].values["DE"]) == (1, 2)
    assert (t[2].values["DE"], t[4].values["DE"]) == (1, 2)
    assert [t[s].rank for s in (1, 3, 2, 4)] == [1, 2, 3, 4]


def test_drawing_of_lots_is_last_resort() -> None:
    # C.07 Art. 12 / Norway Chess 2023 "5. Drawing of (lots)": a recorded lot separates a full tie.
    res = [GameResult(1, 1, 2, "1/2-1/2")]
    field = field_from_results((1, 2), res)
    t = compute_tiebreaks(field, ["PTS", "DE", "LOT"], round_robin=True, lots={1: 2, 2: 1}).by_start_no()
    assert (t[1].rank, t[2].rank) == (2, 1)


@pytest.mark.parametrize("bad", ["XYZ", "BH/Q1", "DE/C1", "SB/L-1"])
def test_unknown_tiebreak(bad: str) -> None:
    with pytest.raises(ValueError, match="tie-break"):
        parse_spec(bad)


def test_spec_modifiers() -> None:
    assert (parse_spec("bh/m1").cut_low, parse_spec("bh/m1").cut_high) == (1, 1)
    assert parse_spec("KS/L-2").limit_offset == -1.0
    assert parse_spec("KSX").limit_offset == -0.5


def test_regulation_lists_parse() -> None:
    # us-championship-2023.txt 6., us-championship-2013.txt Playoff Regulations, norway-chess-2023.txt
    from services.tournament.tiebreaks import REGULATION_TIEBREAKS

    assert REGULATION_TIEBREAKS["us-2023"][1:] == ["DE", "BPG", "KS", "SB", "WON"]
    assert REGULATION_TIEBREAKS["norway-2023"][1:] == ["DE", "SB", "KS", "KSX", "LOT"]
    for specs in REGULATION_TIEBREAKS.values():
        assert [parse_spec(s).name for s in specs][0] == "PTS"
