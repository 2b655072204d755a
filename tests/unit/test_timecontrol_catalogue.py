"""The regulations' time controls (tests/regulation_controls.py), checked at their move boundaries.

Each test quotes its regulation line from ../shared/regulations.
"""

from __future__ import annotations

import pytest

from services.clock import FlagFallen, GameClock, carry_over
from regulation_controls import CATALOGUE, armageddon_by_bid, control

S = 1000
MIN = 60 * S


def play(clock: GameClock, moves_each: int, move_ms: int = S, first: str = "white", at: int = 0):
    """Start ``clock`` at ``at`` and let both sides make ``moves_each`` moves of ``move_ms``;
    returns {side: [PressResult, ...]}."""
    clock.start(at, first)
    second = "black" if first == "white" else "white"
    out = {"white": [], "black": []}
    for _ in range(moves_each):
        for side in (first, second):
            at += move_ms
            out[side].append(clock.press(side, at))
    return out


@pytest.mark.parametrize("name", ["us-2013/classical", "us-2023/classical"])
def test_us_classical_90_40_then_30_with_30s_from_move_one(name):
    """us-championship-2013/2023.txt 4: "90 minutes for the first 40 moves followed by 30 minutes
    for the rest of the game with an addition of 30 seconds (increment) per move starting from
    move one." +30 min on White's 40th press; +30 s on every press from move 1."""
    clock = GameClock(control(name))
    assert clock.remaining("white", 0) == 90 * MIN
    presses = play(clock, 41)
    for side in ("white", "black"):
        assert [p.increment_ms for p in presses[side]] == [30 * S] * 41
        assert [p.period_ms for p in presses[side]] == [0] * 39 + [30 * MIN, 0]
        assert presses[side][38].remaining_ms == 90 * MIN + 39 * (30 * S - S)
        assert presses[side][39].remaining_ms == 90 * MIN + 40 * (30 * S - S) + 30 * MIN


def test_norway_classical_no_increment_before_move_41():
    """norway-chess-2023.txt: "Each player will have 120 minutes on the clock with an increment of
    10 seconds after move 40." No increment on moves 1-40, +10 s from move 41."""
    clock = GameClock(control("norway-2023/classical"))
    presses = play(clock, 42)
    for side in ("white", "black"):
        assert [p.increment_ms for p in presses[side]] == [0] * 40 + [10 * S] * 2
        assert all(p.period_ms == 0 for p in presses[side])
        assert presses[side][39].remaining_ms == 120 * MIN - 40 * S
        assert presses[side][40].remaining_ms == 120 * MIN - 41 * S + 10 * S


def test_us_2023_armageddon_5_4_with_2s_from_move_61():
    """us-championship-2023.txt 6: "White shall start with 5 minutes and black shall start with 4
    minutes. A 2-second increment shall be added starting with move 61." """
    clock = GameClock(control("us-2023/armageddon"))
    assert (clock.remaining("white", 0), clock.remaining("black", 0)) == (5 * MIN, 4 * MIN)
    presses = play(clock, 61, move_ms=500)
    for side, base in (("white", 5 * MIN), ("black", 4 * MIN)):
        assert [p.increment_ms for p in presses[side]] == [0] * 60 + [2 * S]
        assert presses[side][59].remaining_ms == base - 60 * 500
        assert presses[side][60].remaining_ms == base - 61 * 500 + 2 * S


@pytest.mark.parametrize("name", ["norway-2023/armageddon", "norway-2023/playoff-armageddon"])
def test_norway_armageddon_10_7_with_1s_from_move_41(name):
    """norway-chess-2023.txt: "white has 10 minutes and black has 7 minutes with an increment for
    both players of 1 second per move, starting from move 41." """
    clock = GameClock(control(name))
    assert (clock.remaining("white", 0), clock.remaining("black", 0)) == (10 * MIN, 7 * MIN)
    presses = play(clock, 41, move_ms=500)
    for side in ("white", "black"):
        assert [p.increment_ms for p in presses[side]] == [0] * 40 + [S]


@pytest.mark.parametrize("name, base, increment, quote", [
    ("us-2013/rapid-playoff", 25 * MIN, 5 * S, "a two-game rapid match (G/25+5)"),
    ("us-2023/rapid-playoff", 10 * MIN, 2 * S, "a two-game rapid match (G/10 +2 increment)"),
    ("us-2023/blitz-playoff", 3 * MIN, 2 * S, "a blitz (G/3 +2 increment)"),
    ("norway-2023/blitz", 3 * MIN, 2 * S, "3 minutes + 2 seconds increment for each move"),
    ("norway-2023/playoff-blitz", 3 * MIN, 2 * S, "3 min. + 2 sec. increment per    move"),
])
def test_sudden_death_with_increment_from_move_one(name, base, increment, quote):
    """G/x+y: base minutes, y s on every press from move 1 (the regulation's words in ``quote``)."""
    clock = GameClock(control(name))
    presses = play(clock, 3)
    assert [p.increment_ms for p in presses["white"]] == [increment] * 3
    assert presses["black"][0].remaining_ms == base - S + increment
    assert " ".join(quote.split()) in CATALOGUE[name].quote


def test_every_entry_quotes_its_regulation(shared_data):
    """Each catalogue quote is found, word for word (whitespace aside), in its regulation file."""
    folder = shared_data.parent / "regulations"
    for entry in CATALOGUE.values():
        text = " ".join((folder / entry.regulation.split(",")[0]).read_text().split())
        assert " ".join(entry.quote.split()) in text, entry.name


def test_armageddon_by_bid_us_2013():
    """us-championship-2013.txt: "The Player who bids the lowest amount of time chooses his color
    and begins with that amount of time; the other Player receives 45:00." """
    tc = armageddon_by_bid(30 * MIN + 15 * S, "black")
    clock = GameClock(tc)
    assert (clock.remaining("white", 0), clock.remaining("black", 0)) == (45 * MIN, 30 * MIN + 15 * S)
    tc = armageddon_by_bid(45 * MIN, "white")
    assert (tc.starting_ms("white"), tc.starting_ms("black")) == (45 * MIN, 45 * MIN)
    assert armageddon_by_bid(12 * MIN, "white").starting_ms("white") == 12 * MIN


@pytest.mark.parametrize("bid", [45 * MIN + S, 0, -S, 10 * MIN + 500])
def test_armageddon_bid_out_of_range(bid):
    """A bid is "minutes and seconds, a number equal to or less than 45:00"."""
    with pytest.raises(ValueError):
        armageddon_by_bid(bid, "white")


def test_armageddon_bid_bad_side():
    with pytest.raises(ValueError):
        armageddon_by_bid(10 * MIN, "red")


def test_checkers_master_90_sudden_death_match_clock():
    """checkers-11-man-national-2017.txt X.A.a: "90 minutes will be set on both players' side of
    the clock"; X.A.d: "Red's clock is started" (Black in the venue's terms); no increment."""
    clock = GameClock(control("checkers-2017/master-90"))
    presses = play(clock, 45, first="black")
    assert all(p.added_ms == 0 for side in presses.values() for p in side)
    assert presses["black"][-1].remaining_ms == 90 * MIN - 45 * S
    assert control("checkers-2017/master-90").carries_over


def test_checkers_master_80_plus_10_every_press():
    """X.A.a option 2: "80 minutes + 10-second increment ... each player earns additional 10
    seconds of time with each press of the clock." """
    clock = GameClock(control("checkers-2017/master-80+10"))
    presses = play(clock, 3, first="black")
    assert [p.increment_ms for p in presses["white"]] == [10 * S] * 3
    assert presses["black"][2].remaining_ms == 80 * MIN + 3 * (10 * S - S)


def test_checkers_match_clock_carries_over_unreset():
    """X.A.b: "The clocks shall be paused between games, but the clock times shall not be reset
    prior to the second game. Whatever time shows on the clocks at the conclusion of the first game
    is the time the player has to play the entire second game. The number of moves made is not
    relevant with respect to time control." Colours change for game 2, so each player's time
    moves with him."""
    game1 = GameClock(control("checkers-2017/master-90"))
    play(game1, 30, move_ms=60 * S, first="black")  # 30 moves of 1 min each
    end = 60 * 60 * S
    game1.pause(end)
    white1, black1 = game1.remaining("white", end), game1.remaining("black", end)
    assert (white1, black1) == (60 * MIN, 60 * MIN)
    game2 = carry_over(game1, end + 10 * MIN)  # paused between the games: no time runs
    assert (game2.remaining("white", 0), game2.remaining("black", 0)) == (black1, white1)
    assert game2.moves_made("white") == game2.moves_made("black") == 0
    game2.start(0, "black")
    assert game2.press("black", 5 * S).remaining_ms == white1 - 5 * S


def test_checkers_match_clock_uneven_and_same_sides():
    """X.A.b carry-over keeps each player's own time; ``swap_sides=False`` keeps the sides."""
    game1 = GameClock(control("checkers-2017/master-80+10"))
    game1.start(0, "black")
    game1.press("black", 100 * S)
    game1.press("white", 130 * S)
    game1.pause(140 * S)
    kept = carry_over(game1, 150 * S, swap_sides=False)
    # Black's second move ran from 130 s to the pause at 140 s
    assert kept.remaining("black", 0) == 80 * MIN - 100 * S + 10 * S - 10 * S
    assert kept.remaining("white", 0) == 80 * MIN - 30 * S + 10 * S


def test_carry_over_keeps_the_credit_convention():
    """The next game's clock credits increments as the previous one did."""
    game1 = GameClock(control("checkers-2017/master-80+10"), credit="move_start")
    game1.start(0, "black")
    game1.press("black", 5 * S)
    game1.pause(6 * S)
    assert carry_over(game1, 7 * S).credit == "move_start"


def test_checkers_flag_forfeits_the_next_game_too():
    """X.A.b: "A player whose time expires forfeits the current game, as well as the next game if
    not started." Carrying a flagged clock over raises FlagFallen."""
    game1 = GameClock(control("checkers-2017/master-90"))
    game1.start(0, "black")
    with pytest.raises(FlagFallen) as caught:
        carry_over(game1, 90 * MIN)
    assert caught.value.side == "black"


def test_unknown_name():
    with pytest.raises(KeyError, match="known"):
        control("fide/classical")
