"""Play-offs (services/tournament/playoffs.py), one test per branch of each regulation
(../shared/regulations: us-championship-2023.txt "6. Playoff Procedures", us-championship-2013.txt
"Playoff Regulations", norway-chess-2023.txt "Tie-breaks")."""

from __future__ import annotations

import pytest

from services.tournament.playoffs import (
    NORWAY_2023, US_2013, US_2023, armageddon_by_bid, playoff,
)

MIN = 60_000
SEC = 1_000


def test_no_playoff_for_a_single_winner() -> None:
    assert playoff(US_2023, [5]) is None


def test_us_2023_two_players() -> None:
    # "Two Players: The tie will be broken with a two-game rapid match (G/10 +2 increment). If the contest
    # is still undecided, the match will be decided by an Armageddon Game." Armageddon: "White shall start
    # with 5 minutes and black shall start with 4 minutes. A 2-second increment shall be added starting
    # with move 61."
    plan = playoff(US_2023, [3, 8])
    rapid, arm = plan.stages
    assert [(g.white, g.black) for g in rapid.games] == [(3, 8), (8, 3)]
    assert rapid.games[0].time_control["pgn"] == "600+2"
    assert arm.condition == "the rapid match is tied"
    tc = arm.games[0].time_control
    assert (tc["white_ms"], tc["black_ms"], tc["increment_ms"], tc["increment_from_move"]) == (5 * MIN, 4 * MIN, 2 * SEC, 61)
    assert arm.games[0].armageddon and tc["pgn"] is None


@pytest.mark.parametrize("n", [3, 4])
def test_us_2023_three_or_four(n: int) -> None:
    # "Three or Four Players: ... a rapid round robin (G/10 +2 increment). If no clear winner is produced,
    # the remaining tied players shall contest a blitz (G/3 +2 increment) a) round robin ... or b) 2-game
    # match ... If the contest is still undecided, the winner will be decided by a series of Armageddon Games."
    plan = playoff(US_2023, list(range(1, n + 1)))
    rr, blitz, arm = plan.stages
    assert rr.kind == "round-robin" and len(rr.games) == n * (n - 1) // 2
    pairs = {frozenset(g.players) for g in rr.games}
    assert len(pairs) == n * (n - 1) // 2
    assert all(g.time_control["pgn"] == "600+2" for g in rr.games)
    assert "blitz (G/3 +2 increment)" in blitz.quote and arm.kind == "armageddon-series"


def test_us_2023_more_than_four() -> None:
    # "More Than Four Players: ... all tied players shall contest a blitz (G3 + 2 increment) round robin.
    # If more than one player is still tied for first, ... a series of Armageddon Games."
    plan = playoff(US_2023, [1, 2, 3, 4, 5])
    blitz, arm = plan.stages
    assert len(blitz.games) == 10 and all(g.time_control["pgn"] == "180+2" for g in blitz.games)
    assert arm.kind == "armageddon-series"


def test_us_2013_two_players() -> None:
    # "Two Players: The tie will be broken with a two-game rapid match (G/25+5). If the contest is still
    # undecided, the match will be decided by an Armageddon Game."
    plan = playoff(US_2013, [2, 9])
    rapid, arm = plan.stages
    assert rapid.games[0].time_control["pgn"] == "1500+5" and len(rapid.games) == 2
    assert arm.games[0].armageddon and arm.games[0].white is None  # colours by bidding
    assert plan.tiebreaks == ["DE", "BPG", "SB", "WON"]


def test_us_2013_three_players() -> None:
    # "the two Players with the lowest tie-breaks will contest an Armageddon Game. The winner of this game
    # will face the player with the highest tie-breaks as described above ("Two Players")."
    plan = playoff(US_2013, [4, 1, 7])
    first = plan.stages[0]
    assert first.games[0].players == (1, 7) and first.games[0].armageddon
    assert plan.stages[1].games[0].players == (4, "winner of A1")


def test_us_2013_four_players() -> None:
    # "1 plays 4 and 2 plays 3. Each Player will contest an Armageddon Game. The winner of each game will
    # face one another as described above ("Two Players")."
    plan = playoff(US_2013, [10, 20, 30, 40])
    semis = plan.stages[0].games
    assert [g.players for g in semis] == [(10, 40), (20, 30)]
    assert plan.stages[1].games[0].players == ("winner of A1", "winner of A2")


def test_us_2013_more_than_four() -> None:
    # "The format if more than four players are tied for first will be determined by the Arbiter and the
    # Chess Club and Scholastic Center of Saint Louis."
    plan = playoff(US_2013, [1, 2, 3, 4, 5])
    assert plan.stages[0].kind == "arbiter" and plan.stages[0].games == []


def test_us_2013_bidding() -> None:
    # "The Player who bids the lowest amount of time chooses his color and begins with that amount of time;
    # the other Player receives 45:00."
    out = armageddon_by_bid({1: 40 * MIN, 2: 38 * MIN + 30 * SEC})
    assert (out.chooser, out.chooser_ms, out.other, out.other_ms, out.coin_toss) == (2, 38 * MIN + 30 * SEC, 1, 45 * MIN, False)
    # "If both Players bid exactly the same amount of time, the Chief Arbiter will flip a coin"
    with pytest.raises(ValueError, match="coin toss"):
        armageddon_by_bid({1: 40 * MIN, 2: 40 * MIN})
    out = armageddon_by_bid({1: 40 * MIN, 2: 40 * MIN}, coin_toss_winner=2)
    assert (out.chooser, out.coin_toss) == (2, True)
    with pytest.raises(ValueError, match="45:00"):
        armageddon_by_bid({1: 46 * MIN, 2: 40 * MIN})


def test_norway_two_players() -> None:
    # "two-game blitz match with the time control of 3 min. + 2 sec. ... If this match ends in a tie, a
    # further match will be played. If this match ends in a tie, there will be an Armageddon game where
    # white has 10 minutes and black, with draw odds, has 7 minutes both with an increment of 1 second per
    # move, starting from move 41."
    plan = playoff(NORWAY_2023, [6, 1])
    first, second, arm = plan.stages
    assert [g.time_control["pgn"] for g in first.games + second.games] == ["180+2"] * 4
    tc = arm.games[0].time_control
    assert (tc["white_ms"], tc["black_ms"], tc["increment_ms"], tc["increment_from_move"]) == (10 * MIN, 7 * MIN, SEC, 41)


def test_norway_more_than_two() -> None:
    # "If more than two players share first place, there will be a double round-robin with the below
    # tiebreak rules." (1. Direct Encounter 2. Sonneborn-Berger 3. Koya 4. Koya Extended 5. Drawing of lots)
    plan = playoff(NORWAY_2023, [1, 2, 3])
    (drr,) = plan.stages
    assert drr.kind == "double-round-robin" and len(drr.games) == 6
    assert {(g.white, g.black) for g in drr.games} == {(a, b) for a in (1, 2, 3) for b in (1, 2, 3) if a != b}
    assert plan.tiebreaks == ["DE", "SB", "KS", "KSX", "LOT"]


def test_unknown_regulation_and_repeats() -> None:
    with pytest.raises(ValueError, match="unknown regulation"):
        playoff("fide-2024", [1, 2])
    with pytest.raises(ValueError, match="twice"):
        playoff(US_2023, [1, 1])
