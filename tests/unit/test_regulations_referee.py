"""The regulations enforced live (services.regulations.referee) on each preset, quoting the rule."""

from pathlib import Path

from referee_harness import Referee as Enforcer
from referee_harness import played
from services.regulations.tournament_file import load_tournament

EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000


def enforcer(preset: str) -> tuple[Enforcer, int]:
    t = load_tournament((EVENTS / preset).read_text(), preset)
    e = Enforcer(t)
    e.observe("round_started", {"round": "1", "games": [
        {"id": "1-1", "board": "1", "round": "1", "white": "A", "black": "B", "variant": "chess",
         "kind": t.kind}]}, t.round(1).start_ms - MIN)
    return e, t.round(1).start_ms


def play(e: Enforcer, start: int, moves_each: int) -> int:
    at = start
    for i in range(moves_each):
        for turn in ("black", "white"):
            at += 1000
            ply = e.games["1-1"].ply + 1
            e.observe("move_played", played("1-1", ply, turn=turn), at)
    return at


def report_draw(e: Enforcer, at: int, reason: str = "agreement", game: str = "1-1"):
    """What the gateway does with a device's result: ask the enforcer; allowed -> game_ended."""
    refused = e.review_result(game, "1/2-1/2", reason, 99)
    if refused is not None:
        return refused
    return [("game_ended", {"game": game, "board": "1", "result": "1/2-1/2", "termination": reason,
                            "by": "device"})]


def types(out):
    return [t for t, _ in out]


def test_us2023_board_reports_draw_at_move_25_refused():
    # US 2023 rule 2: "Player may not mutually agree to a draw."
    e, start = enforcer("us-championship-2023.toml")
    at = play(e, start, 25)
    assert types(report_draw(e, at)) == ["draw_offer_refused"]
    # Still refused at move 60: the ban has no move limit.
    assert types(report_draw(e, play(e, at, 35))) == ["draw_offer_refused"]


def test_claims_and_stalemate_stay_draws_under_every_ban():
    e, start = enforcer("us-championship-2023.toml")
    at = play(e, start, 10)
    # US 2023 rule 2: "In the event of a claim ... one of the Event Arbiters must be asked ... to verify"
    assert types(report_draw(e, at, "threefold")) == ["draw_claim_reported"]
    out = report_draw(e, at, "stalemate")
    assert types(out) == ["game_ended"] and out[0][1]["result"] == "1/2-1/2"


def test_us2013_no_draw_in_less_than_30_moves():
    # US 2013 rule 2: "... mutually agree to a draw in less than 30 moves during a game."
    e, start = enforcer("us-championship-2013.toml")
    at = play(e, start, 29)
    assert types(report_draw(e, at)) == ["draw_offer_refused"]
    at = play(e, at, 1)
    assert types(report_draw(e, at)) == ["game_ended"]


def test_norway_classical_30_moves_each_and_blitz_exempt():
    # Norway: "not allowed to agree to a draw until at least 30 moves have been made by each player"
    e, start = enforcer("norway-chess-2023.toml")
    at = play(e, start, 29)
    e.observe("move_played", played("1-1", e.games["1-1"].ply + 1, turn="black"), at + 1)  # White's 30th
    out = report_draw(e, at + 2)
    assert types(out) == ["draw_offer_refused"] and out[0][1]["moves"] == {"white": 30, "black": 29}
    # "This rule does not apply to Blitz and Armageddon games."
    b, bstart = enforcer("norway-chess-2023-blitz.toml")
    assert types(report_draw(b, play(b, bstart, 3))) == ["game_ended"]


def test_norway_classical_draw_is_followed_by_armageddon_won_by_black_on_a_draw():
    # "If the classical game is drawn, an Armageddon game will be played ... The player with White
    #  pieces will continue with White in Armageddon. If the Armageddon game is drawn, black will win."
    e, start = enforcer("norway-chess-2023.toml")
    at = play(e, start, 30)
    out = report_draw(e, at)
    assert types(out) == ["game_ended"]
    follow = e.observe("game_ended", out[0][1], at)
    assert types(follow) == ["armageddon_scheduled"]
    arm = follow[0][1]
    assert (arm["white"], arm["black"], arm["kind"], arm["follows"]) == ("A", "B", "armageddon", "1-1")
    # "white has 10 minutes and black has 7 minutes with an increment ... of 1 second ... from move 41"
    assert arm["time_control"] == {"white": "10m", "black": "7m", "increment": "1s",
                                   "increment_from_move": 41, "draw_goes_to": "black"}
    e.observe("armageddon_scheduled", arm, at)
    # Draw offers are allowed in Armageddon ("does not apply to ... Armageddon games").
    r = report_draw(e, at + 5, game=arm["id"])
    assert types(r) == ["game_ended"]
    decided = e.observe("game_ended", r[0][1], at + 5)
    assert types(decided) == ["armageddon_decided"] and decided[0][1]["winner"] == "black"


def test_us2023_white_silent_31_minutes_loses_by_default():
    # US 2023 rule 1: "Players more than 30 (thirty) minutes late for a round shall forfeit that round."
    e, start = enforcer("us-championship-2023.toml")
    e.observe("player_arrived", {"game": "1-1", "side": "black"}, start - 5 * MIN)
    assert "default_forfeit" not in types(e.tick(start + 30 * MIN))
    out = e.tick(start + 31 * MIN)
    assert types(out) == ["default_forfeit", "game_ended"]
    assert out[0][1]["side"] == "white" and out[1][1]["result"] == "0-1"
    assert e.tick(start + 40 * MIN) == []  # said once


def test_us2023_not_at_board_fine_alert_once_per_player():
    # US 2023 rule 1: "Players not at their board at the beginning of each round may receive a fine of $500"
    e, start = enforcer("us-championship-2023.toml")
    e.observe("player_arrived", {"game": "1-1", "side": "white"}, start - MIN)
    out = e.tick(start + 1000)
    assert types(out) == ["player_not_at_board"] and out[0][1]["side"] == "black"
    assert out[0][1]["fine"] == 500
    assert e.tick(start + 2000) == []


def test_norway_classical_default_time_15_minutes_both_absent():
    # Norway: "Default time is 15 minutes."; Laws 6.7.1; F10 (d) both absent lose.
    e, start = enforcer("norway-chess-2023.toml")
    assert e.tick(start + 15 * MIN) == []
    out = e.tick(start + 15 * MIN + 1)
    assert out[0][1]["side"] == "both" and out[1][1]["result"] == "0-0"


def test_arbiter_may_overrule_a_default():
    # FIDE Laws 6.7.1 "unless the arbiter decides otherwise": the arbiter checks in the players who
    # are at the board and reopens the game; it goes on and is not defaulted again.
    e, start = enforcer("us-championship-2023.toml")
    assert types(e.tick(start + 31 * MIN))[-2:] == ["default_forfeit", "game_ended"]
    for side in ("white", "black"):
        e.observe("player_arrived", {"game": "1-1", "board": "1", "side": side, "by": "chief"}, start + 32 * MIN)
    assert e.observe("arbiter_decision", {"game": "1-1", "result": "*", "by": "chief"}, start + 32 * MIN) == []
    assert e.games["1-1"].ended is False
    assert e.tick(start + 40 * MIN) == []


def test_an_overruled_default_fires_again_for_the_player_still_absent():
    # Issue "One record, one fold": both were defaulted (0-0) while Black was in fact seated; the
    # arbiter checks Black in as present from the start and reopens: White, still absent, loses
    # (FIDE Laws 6.7.1: only the player who arrives after the default time loses): 0-1.
    e, start = enforcer("us-championship-2023.toml")
    e.tick(start + 31 * MIN)
    e.observe("player_arrived", {"game": "1-1", "board": "1", "side": "black", "arrived_at": start, "by": "chief"},
              start + 32 * MIN)
    out = e.observe("arbiter_decision", {"game": "1-1", "result": "*", "by": "chief"}, start + 32 * MIN)
    assert types(out) == ["default_forfeit", "game_ended"]
    assert (out[0][1]["side"], out[1][1]["result"]) == ("white", "0-1")


def test_a_default_time_of_zero_is_left_to_the_arbiter():
    # FIDE Laws 6.7.1: "If the default time is not specified, then it is zero. Any player who arrives at
    # the chessboard after the default time shall lose the game unless the arbiter decides otherwise."
    # No device shows who sat at the board at the instant of the start (White's first move comes after
    # it), so the default is the arbiter's to declare: a new user's file without [regulations.default_time]
    # had every game of a round started "now" ended 0-0 by default in the second it started.
    text = (EVENTS / "norway-chess-2023.toml").read_text()
    cut = text.index("[regulations.default_time]")
    text = text[:cut] + text[text.index("\n\n", cut) + 2:]
    t = load_tournament(text, "no-default-time.toml")
    assert t.regulations.default_time_for("classical") == 0
    e = Enforcer(t)
    start = t.round(1).start_ms
    e.observe("round_started", {"round": "1", "games": [
        {"id": "1-1", "board": "1", "round": "1", "white": "A", "black": "B", "variant": "chess",
         "kind": "classical"}]}, start - MIN)
    out = e.tick(start + 1)
    # the arbiter is told who is not seen at the board, and no fine is named (Norway fines none)
    assert [(t_, d["side"], d.get("fine")) for t_, d in out] == [("player_not_at_board", "white", None),
                                                                 ("player_not_at_board", "black", None)]
    assert "6.7.1" in out[0][1]["rule"]
    assert e.tick(start + 60 * MIN) == [] and not e.games["1-1"].ended
    e.observe("move_played", played("1-1", 1, turn="white"), start + 5000)
    assert "default_forfeit" not in types(e.tick(start + 61 * MIN)) and not e.games["1-1"].ended
