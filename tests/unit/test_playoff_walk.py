"""The play-off walked stage by stage (services/tournament/playoff_walk.py): each next stage only when
the one before leaves the tie, down to the regulations' last resort. Expected stages, colours, time
controls and orders are read from ../shared/regulations (norway-chess-2023.txt "Tie-breaks",
us-championship-2013.txt "Playoff Regulations", us-championship-2023.txt "6. Playoff Procedures")."""

from __future__ import annotations

import pytest

from services.tournament.playoff_walk import (ArbiterDecides, Decided, NextStage, Playing, StageGame, StageRecord,
                                              StageMismatch, walk)

MIN, SEC = 60_000, 1_000


def played(spec, results, colours=None) -> StageRecord:
    """The stage ``spec`` with ``results`` in its games' order (``colours``: (white, black) per game
    where the spec leaves them open)."""
    pairs = colours or spec.pairs
    return StageRecord(spec.players if not spec.pair_by_arbiter else tuple(pairs[0]),
                       tuple(StageGame(w, b, r, spec.game_kind == "armageddon", rnd)
                             for (w, b), r, rnd in zip(pairs, results, spec.rounds or (1,) * len(pairs))))


def test_norway_two_blitz_matches_then_armageddon() -> None:
    # "a two-game blitz match with the time control of 3 min. + 2 sec. increment per move. If this match
    # ends in a tie, a further match will be played. If this match ends in a tie, there will be an
    # Armageddon game where white has 10 minutes and black, with draw odds, has 7 minutes"
    step = walk("norway-2023", [6, 1], [])
    assert isinstance(step, NextStage)
    first = step.spec
    assert first.pairs == ((6, 1), (1, 6)) and first.time_control["pgn"] == "180+2" and first.game_kind == "blitz"
    rec1 = played(first, ["1/2-1/2", "1/2-1/2"])
    step = walk("norway-2023", [6, 1], [rec1])
    second = step.spec
    assert second.name == "second blitz match" and second.pairs == ((6, 1), (1, 6))
    rec2 = played(second, ["1-0", "1-0"])  # one win each: tied again
    arm = walk("norway-2023", [6, 1], [rec1, rec2]).spec
    tc = arm.time_control
    assert arm.colours == "lots" and (tc["white_ms"], tc["black_ms"], tc["increment_ms"]) == (10 * MIN, 7 * MIN, SEC)
    # "black, with draw odds": the Armageddon drawn, Black (1, by the lot) wins the play-off
    done = walk("norway-2023", [6, 1], [rec1, rec2, played(arm, ["1/2-1/2"], [(6, 1)])])
    assert isinstance(done, Decided) and done.order == (1, 6)


def test_norway_first_match_decides_and_no_further_stage() -> None:
    first = walk("norway-2023", [3, 4], []).spec
    done = walk("norway-2023", [3, 4], [played(first, ["1/2-1/2", "1-0"])])  # 4 wins game 2 with White
    assert isinstance(done, Decided) and done.order == (4, 3) and "won the blitz match" in done.how[0]


def test_norway_unfinished_stage_is_playing() -> None:
    first = walk("norway-2023", [3, 4], []).spec
    assert walk("norway-2023", [3, 4], [played(first, ["1-0", "*"])]) == Playing(1)


def test_norway_three_players_double_round_robin_then_lots() -> None:
    # "If more than two players share first place, there will be a double round-robin with the below
    # tiebreak rules." ... "5. Drawing of" [lots]
    drr = walk("norway-2023", [1, 2, 3], []).spec
    assert drr.kind == "double-round-robin" and len(drr.pairs) == 6 and drr.time_control is None
    all_drawn = played(drr, ["1/2-1/2"] * 6)
    step = walk("norway-2023", [1, 2, 3], [all_drawn])
    assert isinstance(step, ArbiterDecides) and step.lots and set(step.players) == {1, 2, 3}
    done = walk("norway-2023", [1, 2, 3], [all_drawn], lots={2: 1, 3: 2, 1: 3})
    assert isinstance(done, Decided) and done.order == (2, 3, 1)


def test_us_2013_two_players_rapid_then_armageddon_by_bid() -> None:
    # "Two Players: The tie will be broken with a two-game rapid match (G/25+5). If the contest is still
    # undecided, the match will be decided by an Armageddon Game."
    rapid = walk("us-2013", [2, 9], []).spec
    assert rapid.time_control["pgn"] == "1500+5" and rapid.game_kind == "rapid"
    rec = played(rapid, ["1-0", "1-0"])
    arm = walk("us-2013", [2, 9], [rec]).spec
    assert arm.colours == "bid" and arm.time_control is None
    done = walk("us-2013", [2, 9], [rec, played(arm, ["1-0"], [(9, 2)])])
    assert done.order == (9, 2)


def test_us_2013_three_players() -> None:
    # "the two Players with the lowest tie-breaks will contest an Armageddon Game. The winner of this game
    # will face the player with the highest tie-breaks"
    first = walk("us-2013", [4, 1, 7], []).spec
    assert first.players == (1, 7) and first.colours == "bid"
    rec = played(first, ["1/2-1/2"], [(1, 7)])  # drawn: Black (7) wins
    final = walk("us-2013", [4, 1, 7], [rec]).spec
    assert final.pairs == ((4, 7), (7, 4)) and final.name == "final rapid match"
    done = walk("us-2013", [4, 1, 7], [rec, played(final, ["0-1", "1/2-1/2"])])
    assert done.order == (7, 4, 1)


def test_us_2013_four_players_and_more() -> None:
    # "1 plays 4 and 2 plays 3 ... The winner of each game will face one another"
    semis = walk("us-2013", [10, 20, 30, 40], []).spec
    assert semis.pairs == ((10, 40), (20, 30))
    rec = played(semis, ["0-1", "1-0"], [(10, 40), (20, 30)])
    final = walk("us-2013", [10, 20, 30, 40], [rec]).spec
    assert final.players == (40, 20)
    done = walk("us-2013", [10, 20, 30, 40], [rec, played(final, ["1-0", "0-1"])])  # 40 wins both
    assert done.order == (40, 20, 10, 30)  # the semi-final losers by the main tie-breaks
    # "The format if more than four players are tied for first will be determined by the Arbiter"
    assert isinstance(walk("us-2013", [1, 2, 3, 4, 5], []), ArbiterDecides)


def test_us_2023_three_players_rapid_blitz_armageddon() -> None:
    # "a rapid round robin (G/10 +2 increment). If no clear winner is produced, the remaining tied players
    # shall contest a blitz (G/3 +2 increment) ... b) 2-game match (if two players remain tied). If the
    # contest is still undecided, the winner will be decided by a series of Armageddon Games."
    rr = walk("us-2023", [5, 6, 7], []).spec
    assert rr.kind == "round-robin" and rr.time_control["pgn"] == "600+2" and len(rr.pairs) == 3
    # 5 and 6 beat 7, draw each other
    results = []
    for w, b in rr.pairs:
        results.append("1/2-1/2" if {w, b} == {5, 6} else ("1-0" if b == 7 else "0-1"))
    rec1 = played(rr, results)
    blitz = walk("us-2023", [5, 6, 7], [rec1]).spec
    assert blitz.kind == "match" and blitz.players == (5, 6) and blitz.time_control["pgn"] == "180+2"
    rec2 = played(blitz, ["1/2-1/2", "1/2-1/2"])
    arm = walk("us-2023", [5, 6, 7], [rec1, rec2]).spec
    tc = arm.time_control
    assert arm.colours == "lots" and (tc["white_ms"], tc["black_ms"], tc["increment_from_move"]) == (5 * MIN, 4 * MIN, 61)
    done = walk("us-2023", [5, 6, 7], [rec1, rec2, played(arm, ["1-0"], [(6, 5)])])
    assert done.order == (6, 5, 7)


def test_us_2023_armageddon_series_named_by_the_arbiter() -> None:
    # five tied: "all tied players shall contest a blitz (G3 + 2 increment) round robin. If more than one
    # player is still tied for first, ... a series of Armageddon Games."
    rr = walk("us-2023", [1, 2, 3, 4, 5], []).spec
    rec = played(rr, [("1-0" if 5 in (w, b) and b == 5 else "0-1" if 5 in (w, b) else "1/2-1/2")
                      for w, b in rr.pairs])  # everyone beats 5, draws otherwise: 1-4 tied on 2½
    series = walk("us-2023", [1, 2, 3, 4, 5], [rec]).spec
    assert series.pair_by_arbiter and set(series.players) == {1, 2, 3, 4}
    with pytest.raises(StageMismatch):
        walk("us-2023", [1, 2, 3, 4, 5], [rec, played(series, ["1-0"], [(1, 5)])])


def test_unknown_and_single() -> None:
    with pytest.raises(ValueError):
        walk("us-2023", [1], [])
    with pytest.raises(ValueError, match="unknown"):
        walk("fide", [1, 2], [])
