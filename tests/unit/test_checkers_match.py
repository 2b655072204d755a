"""Master division two-game matches (services/regulations/checkers_match.py), pure.

Sources: ../shared/regulations/checkers-11-man-national-2017.txt X.A.b ("A player whose time expires
forfeits the current game, as well as the next game if not started. The clocks shall be paused
between games, but the clock times shall not be reset prior to the second game. Whatever time shows
on the clocks at the conclusion of the first game is the time the player has to play the entire
second game."); issue 6 ("both games of a match play the same ballot with colours reversed"); the
real match games of ../shared/data/checkers/tinsley.pdn: London 1992 games 25 and 26 (records 700,
701: ballot 9-13 23-18 11-15, ACF number 15; game 25 Chinook Black, Tinsley White; game 26 the
reverse).
"""

import pytest
from referee_harness import Referee

from services.events.vocabulary import Termination
from services.regulations.checkers_match import RULE_CARRY, RULE_FLAG, carried_times, match_setups
from services.regulations.rulings import Refused, judge_result, judged
from services.rules.checkers_ballots import load_deck

MIN = 60_000
BALLOT_15 = next(b for b in load_deck() if b.number == 15)


def pairing(**extra) -> dict:
    return {"id": "1-1", "board": "1", "round": "1", "white": "M Tinsley", "black": "Chinook",
            "white_no": 2, "black_no": 11, "white_elo": None, "black_elo": 2712, "variant": "checkers",
            "time_control": {"white": "90m", "black": "90m", "match_clock": True}, "fen": None,
            "kind": "classical", **extra}


def test_the_second_game_plays_the_same_ballot_with_colours_reversed():
    # London 1992 game 25: Black Chinook, White M Tinsley; game 26: Black M Tinsley, White Chinook,
    # both opening 9-13 23-18 11-15 (ACF ballot 15)
    assert BALLOT_15.moves == ("9-13", "23-18", "11-15")
    one, two = match_setups(pairing(), BALLOT_15.to_json())
    assert (one["id"], two["id"]) == ("1-1.1", "1-1.2")
    assert (one["black"], one["white"]) == ("Chinook", "M Tinsley")
    assert (two["black"], two["white"]) == ("M Tinsley", "Chinook")
    assert (two["white_no"], two["black_no"], two["white_elo"], two["black_elo"]) == (11, 2, 2712, None)
    assert one["ballot"] == two["ballot"] == {"ballot": 15, "moves": ["9-13", "23-18", "11-15"], "name": None}
    assert one["match"] == {"id": "1-1", "game_no": 1, "games": 2}
    assert two["match"] == {"id": "1-1", "game_no": 2, "games": 2, "follows": "1-1.1"}
    assert one["board"] == two["board"] == "1"


def test_clock_times_follow_the_players_into_the_second_game():
    # X.A.b: "Whatever time shows on the clocks at the conclusion of the first game is the time the
    # player has to play the entire second game": game 1's Black is game 2's White
    paused = {"white_ms": 61 * MIN, "black_ms": 47 * MIN, "running": None, "at": 1_000}
    assert carried_times(paused, 500_000) == {"white_ms": 47 * MIN, "black_ms": 61 * MIN}
    # still running when the game ended: the running side's time went on until the end
    running = {"white_ms": 61 * MIN, "black_ms": 47 * MIN, "running": "white", "at": 1_000}
    assert carried_times(running, 1_000 + 30_000) == {"white_ms": 47 * MIN, "black_ms": 61 * MIN - 30_000}
    assert carried_times(running, 1_000 + 500, rate=60) == {"white_ms": 47 * MIN, "black_ms": 61 * MIN - 30_000}
    assert carried_times(None, 5) is None


def keeper_with_match() -> tuple[Referee, list[dict]]:
    """The match rules (services.regulations.match_rules) as the gateway applies them, with no
    tournament file: a round_started with match games asks for them by itself."""
    k = Referee(None)
    setups = match_setups(pairing(), BALLOT_15.to_json())
    k.observe("round_started", {"round": "1", "games": setups}, 0)
    return k, setups


def test_a_finished_first_game_makes_the_second_ready_with_the_carried_clock():
    k, (one, two) = keeper_with_match()
    k.observe("clock_pressed", {"game": "1-1.1", "board": "1", "white_ms": 52 * MIN, "black_ms": 38 * MIN,
                                "running": "black"}, 10_000)
    k.observe("clock_paused", {"game": "1-1.1", "board": "1", "white_ms": 52 * MIN, "black_ms": 38 * MIN,
                               "running": None}, 11_000)
    (answer,) = k.observe("game_ended", {"game": "1-1.1", "board": "1", "result": "1-0",
                                         "termination": "recorded", "by": "device"}, 11_000)
    kind, data = answer
    assert kind == "match_game_ready"
    assert data["game"] == "1-1.2" and data["follows"] == "1-1.1" and data["match"] == "1-1"
    assert (data["white_ms"], data["black_ms"], data["running"]) == (38 * MIN, 52 * MIN, None)
    assert (data["white"], data["black"]) == ("Chinook", "M Tinsley")
    assert data["rule"] == RULE_CARRY and "not be reset" in data["rule"]
    # said once: the same end again (a replay, an echo) gives nothing
    assert k.observe("game_ended", {"game": "1-1.1", "result": "1-0", "termination": "recorded"}, 12_000) == []


def test_a_flag_in_the_first_game_forfeits_both_games():
    # X.A.b: "forfeits the current game, as well as the next game if not started": Black (Chinook)
    # flags in game 1; Chinook is White in game 2 and loses it by forfeit
    k, _ = keeper_with_match()
    k.observe("flag_fell", {"game": "1-1.1", "board": "1", "side": "black", "white_ms": 20 * MIN,
                            "black_ms": 0}, 9_000)
    out = k.observe("game_ended", {"game": "1-1.1", "board": "1", "result": "1-0",
                                   "termination": "time_forfeit", "by": "rules"}, 9_000)
    assert [t for t, _ in out] == ["match_forfeit", "game_ended"]
    forfeit, ended = out[0][1], out[1][1]
    assert forfeit["games"] == ["1-1.1", "1-1.2"] and forfeit["flagged_in"] == "1-1.1"
    assert (forfeit["side"], forfeit["player"], forfeit["result"]) == ("white", "Chinook", "0-1")
    assert ended == {"game": "1-1.2", "board": "1", "result": "0-1", "termination": "forfeit",
                     "forfeit": True, "ply": 0, "by": "regulations", "rule": RULE_FLAG}
    assert "as well as the next game if not started" in RULE_FLAG


def test_a_slip_for_the_second_game_the_flag_forfeited_is_refused():
    """X.A.b: "A player whose time expires forfeits the current game, as well as the next game if not
    started." A new user's slip of 1/2-1/2 for such a second game was recorded as a result ("Result
    recorded.", the forfeit overwritten without a word): the game never began, so no slip of it can
    hold another result. The forfeit's own result on a slip is no contradiction; the arbiter's
    decision (not a slip) is not judged here."""
    k, _ = keeper_with_match()
    k.observe("flag_fell", {"game": "1-1.1", "board": "1", "side": "black", "white_ms": 20 * MIN,
                            "black_ms": 0}, 9_000)
    k.observe("game_ended", {"game": "1-1.1", "board": "1", "result": "1-0",
                             "termination": "time_forfeit", "by": "rules"}, 9_000)
    assert k.state.games["1-1.2"].result == "0-1"
    for result in ("1/2-1/2", "1-0"):
        with pytest.raises(Refused) as refused:
            judge_result(k.state, "1-1.2", result, Termination.RESULT_SLIP, False)
        assert "never began" in refused.value.reason and refused.value.law == RULE_FLAG
    assert judged("1-0", Termination.RESULT_SLIP, False)
    assert judge_result(k.state, "1-1.2", "0-1", Termination.RESULT_SLIP, False) is None
    assert judge_result(k.state, "1-1.2", "1/2-1/2", None, False) is None  # the arbiter's own decision


def test_a_flag_in_the_second_game_forfeits_that_game_only():
    # London 1992 game 18 (record 693): "overstepped the time control" in the second game of the
    # 17/18 match: nothing more to forfeit
    k, _ = keeper_with_match()
    k.observe("game_ended", {"game": "1-1.1", "result": "1/2-1/2", "termination": "recorded"}, 1)
    k.observe("flag_fell", {"game": "1-1.2", "side": "white"}, 2)
    assert k.observe("game_ended", {"game": "1-1.2", "result": "0-1", "termination": "time_forfeit",
                                    "by": "rules"}, 2) == []


def test_a_move_timer_forfeit_is_not_a_flag_fall():
    # X.B.c's one-minute rule forfeit ("by": "regulations") is not "a player whose time expires" on the
    # match clock: the second game is played
    k, _ = keeper_with_match()
    (answer,) = k.observe("game_ended", {"game": "1-1.1", "result": "0-1", "termination": "time_forfeit",
                                         "by": "regulations"}, 5)
    assert answer[0] == "match_game_ready"


def test_replaying_the_log_answers_nothing_twice():
    k, setups = keeper_with_match()
    answers = k.observe("game_ended", {"game": "1-1.1", "result": "1-0", "termination": "recorded"}, 7)
    log = [("round_started", {"round": "1", "games": setups}),
           ("game_ended", {"game": "1-1.1", "result": "1-0", "termination": "recorded"}), *answers]
    assert answers and answers[0][0] == "match_game_ready"
    fresh = Referee(None)
    for t, d in log:  # a restarted gateway folds the log and says nothing while it does
        fresh.state.fold(t, d, 7)
    # after the replay nothing is pending: the same end again, or time passing, says nothing
    assert fresh.state.games["1-1.2"].prepared
    assert fresh.tick(8) == []
    assert fresh.observe("game_ended", {"game": "1-1.1", "result": "1-0", "termination": "recorded"}, 8) == []
