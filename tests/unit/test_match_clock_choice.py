"""The referee's record of a Master division match clock (console action ``choose_match_clock``).

Source: ../shared/regulations/checkers-11-man-national-2017.txt X.A.a: "Each match in the Master
Division shall be timed by “match clocks.” The clocks will be set according to one of the following
two options. 1) At beginning of the round, 90 minutes will be set on both players' side of the
clock. Or 2) (this option requires digital clock with appropriate program) 80 minutes + 10-second
increment will be set on both players' side of the clock. In other words, each player earns
additional 10 seconds of time with each press of the clock. If the players cannot mutually agree
on which of these time options to use, then the decision shall be decided at random (e. g., coin
flip)." The coin's faces: ``checkers_rounds.choose_match_clock`` (heads = 90, tails = 80+10).

The round: round 1 of events/checkers-11-man-national-2017.toml (Berger tables, FIDE C.05 Annex 1:
board 1 is Player 02 (White) - Player 11, a match of games "1-1.1" and "1-1.2").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.arbiter.actions import ActionError, build
from services.eventlog.base import Entry
from services.events.tournament import spec_json
from services.arbiter_office.round_from_file import round_from_tournament
from services.views.spectator import SpectatorView as HallView
from referee_harness import Referee as Enforcer
from referee_harness import played
from services.regulations.tournament_file import load_tournament

PRESET = Path(__file__).resolve().parents[2] / "events" / "checkers-11-man-national-2017.toml"
MIN, S = 60_000, 1_000
TEN_S = 10 * S  # "80 minutes + 10-second increment"
SPEC_80_10 = {"white": "80m", "black": "80m", "increment": "10s", "match_clock": True}
SPEC_90 = {"white": "90m", "black": "90m", "match_clock": True}


def preset():
    return load_tournament(PRESET.read_text("utf-8"), str(PRESET))


def round_one() -> dict:
    return round_from_tournament(preset(), 1)


def view_of(*entries: tuple[str, dict]) -> HallView:
    view = HallView()
    for seq, (type_, data) in enumerate((("round_started", round_one()),) + entries, start=1):
        view.apply(Entry(seq, 1_700_000_000_000 + seq * S, type_, data))
    return view


def choose(view: HallView, **body) -> list[tuple[str, dict]]:
    return build("choose_match_clock", {"action": "choose_match_clock", "game": "1-1.1", **body}, "chief",
                 {g["id"]: g for g in view.games()})


def test_the_regulation_says_what_the_tests_use(shared_data):
    text = (shared_data.parent / "regulations" / "checkers-11-man-national-2017.txt").read_text("utf-8")
    assert "90 minutes will be set on both players' side of the clock" in text
    assert "80 minutes + 10-second increment" in text
    assert "decided at random (e. g., coin flip)" in text


def test_agreed_80_plus_10_is_logged_and_becomes_both_games_clock():
    view = view_of()
    assert [g["id"] for g in view.games()][:2] == ["1-1.1", "1-1.2"]
    (entry,) = choose(view, wishes={"black": "80+10", "white": "80+10"})
    type_, d = entry
    assert type_ == "match_clock_chosen"
    assert (d["by"], d["game"], d["match"], d["games"], d["board"]) == ("chief", "1-1.1", "1-1", ["1-1.1", "1-1.2"], "1")
    assert (d["option"], d["how"], d["coin"], d["previous"]) == ("80+10", "agreed", None, None)
    assert d["wishes"] == {"black": "80+10", "white": "80+10"}
    assert d["players"] == {"black": "Player 11", "white": "Player 02"}
    assert d["time_control"] == SPEC_80_10 and "coin flip" in d["rule"]
    # the spectators' GAMEs follow: both games' time control, game 1's clock at 80:00 each, paused
    after = view_of(entry)
    one, two = after.game("1-1.1"), after.game("1-1.2")
    assert one["time_control"] == two["time_control"] == SPEC_80_10
    assert one["match_clock"]["option"] == two["match_clock"]["option"] == "80+10"
    assert (one["clock"]["white_ms"], one["clock"]["black_ms"], one["clock"]["running"]) == (80 * MIN, 80 * MIN, None)
    assert two["clock"] is None  # game 2's clock comes from game 1's end (X.A.b)
    assert one["status"] == "waiting"
    # a second record before the start names the choice it replaces
    (again,) = choose(after, wishes={"black": "90", "white": "90"})
    assert (again[1]["option"], again[1]["previous"], again[1]["time_control"]) == ("90", "80+10", SPEC_90)


@pytest.mark.parametrize("coin,option", [("heads", "90"), ("tails", "80+10")])
def test_disagreeing_players_the_coin_flip_decides(coin, option):
    (entry,) = choose(view_of(), wishes={"black": "90", "white": "80+10"}, coin=coin)
    d = entry[1]
    assert (d["option"], d["how"], d["coin"]) == (option, "coin flip", coin)
    assert d["time_control"] == (SPEC_90 if option == "90" else SPEC_80_10)


@pytest.mark.parametrize("body,error", [
    ({"wishes": {"black": "90", "white": "80+10"}}, "the players disagree (Red 90, White 80+10): the referee's coin flip decides"),
    ({"wishes": {"black": "90", "white": "90"}, "coin": "heads"}, "the players agree on 90: no coin flip"),
    ({"wishes": {"black": "100", "white": "90"}}, "wishes.black: '100' is not a match clock option"),
    ({"wishes": {"black": "90"}}, "wishes.white: None is not a match clock option"),
    ({"wishes": "90"}, "wishes: each player's wish"),
    ({"wishes": {"black": "90", "white": "80+10"}, "coin": "edge"}, "coin: heads or tails, not 'edge'"),
    ({"game": "1-1.2", "wishes": {"black": "90", "white": "90"}}, "1-1.2 is game 2 of match 1-1; the match clock is chosen once, before game 1 (1-1.1) starts"),
])
def test_bad_requests_are_refused_with_the_reason(body, error):
    with pytest.raises(ActionError) as refused:
        choose(view_of(), **body)
    assert error in str(refused.value)


def test_refused_once_game_one_has_started_or_ended():
    started = view_of(("move_played", {"game": "1-1.1", "board": "1", "ply": 1, "move": "9-13", "san": "9-13",
                                       "fen": "W:...", "turn": "white", "claimable": []}))
    with pytest.raises(ActionError, match=r"1-1.1 has started \(1 plies played\); the match clock is set \"At "
                                          r"beginning of the round\" \(X.A.a\)"):
        choose(started, wishes={"black": "90", "white": "90"})
    clock_running = view_of(("clock_started", {"game": "1-1.1", "board": "1", "white_ms": 90 * MIN,
                                               "black_ms": 90 * MIN, "running": "black"}))
    with pytest.raises(ActionError, match="has started"):
        choose(clock_running, wishes={"black": "90", "white": "90"})
    ended = view_of(("game_ended", {"game": "1-1.1", "board": "1", "result": "1/2-1/2", "termination": "late_start"}))
    with pytest.raises(ActionError, match=r"has ended \(1/2-1/2\)"):
        choose(ended, wishes={"black": "90", "white": "90"})


def test_refused_for_chess_and_for_games_that_are_no_match():
    chess = {"id": "1-7", "board": "7", "variant": "chess", "status": "waiting", "ply": 0}
    with pytest.raises(ActionError, match="1-7 is a chess game; choose_match_clock is a checkers referee's action"):
        build("choose_match_clock", {"game": "1-7", "wishes": {"black": "90", "white": "90"}}, "chief", {"1-7": chess})
    single = {"id": "1-1", "board": "1", "variant": "checkers", "status": "waiting", "ply": 0, "match": None}
    with pytest.raises(ActionError, match="1-1 is not a Master division match game"):
        build("choose_match_clock", {"game": "1-1", "wishes": {"black": "90", "white": "90"}}, "chief", {"1-1": single})


def clock(e: Enforcer, gid: str, event: str, white_ms: int, black_ms: int, running, at: int) -> list:
    return e.observe(f"clock_{event}", {"game": gid, "board": "1", "white_ms": white_ms, "black_ms": black_ms,
                                        "running": running}, at)


def moved(e: Enforcer, gid: str, ply: int, at: int) -> list:
    return e.observe("move_played", played(gid, ply, first="black"), at)


def red_first_move(choice: dict | None) -> list:
    """Round 1 under the preset's regulations; the referee's choice (or none); game 1's clock
    started for Red at 80:00 each (option 2); Red moves after 5 s and presses: the 80+10 clock
    shows Red 80:00 - 5 s + 10 s ("each player earns additional 10 seconds of time with each press
    of the clock"). Returns the gateway's answers to that press."""
    e = Enforcer(preset())
    e.observe("round_started", round_one(), 0)
    if choice is not None:
        e.observe("match_clock_chosen", choice, 0)
    clock(e, "1-1.1", "started", 80 * MIN, 80 * MIN, "black", 1_000)
    moved(e, "1-1.1", 1, 6_000)
    return clock(e, "1-1.1", "pressed", 80 * MIN, 80 * MIN - 5 * S + TEN_S, "white", 6_000)


def test_the_gateways_clock_model_follows_the_choice():
    (entry,) = choose(view_of(), wishes={"black": "90", "white": "80+10"}, coin="tails")
    assert red_first_move(entry[1]) == []  # the 10 s increment per move: no disagreement
    # without the record the model runs the preset's 90 minutes and reports the device clock
    (found,) = red_first_move(None)
    assert found[0] == "clock_disagreement" and found[1]["side"] == "black"


def test_game_two_carries_game_one_times_under_the_chosen_control():
    # X.A.b: game 2 starts from the carried times; with 80+10 each of its presses adds 10 s too
    (entry,) = choose(view_of(), wishes={"black": "80+10", "white": "80+10"})
    e = Enforcer(preset())  # the referee applies the match rules (services.regulations.match_rules) too
    for type_, data in (("round_started", round_one()), entry):
        e.observe(type_, data, 0)
    assert spec_json(e.games["1-1.2"].setup.time_control) == SPEC_80_10
    game2 = e.watches.get("1-1.2")
    assert game2.control.periods("white")[0].increment_ms == TEN_S
    game2.carry(61 * MIN, 47 * MIN)
    clock(e, "1-1.2", "started", 61 * MIN, 47 * MIN, "black", 100_000)
    moved(e, "1-1.2", 1, 103_000)
    assert clock(e, "1-1.2", "pressed", 61 * MIN, 47 * MIN - 3 * S + TEN_S, "white", 103_000) == []
