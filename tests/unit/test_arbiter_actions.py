"""Arbiter logins and actions (dashboard.arbiter): hashed passwords, signed sessions, and every
action turned into event-log entries that say who acted."""

import pytest

from hall_driver import Driver

from dashboard.arbiter.actions import ActionError, build
from dashboard.arbiter.auth import Accounts, hash_password
from services.regulations.model import ArbiterAccount
from services.views.spectator import SpectatorView

GAMES = {"1-1": {"id": "1-1", "board": "1", "white": "Caruana, Fabiano", "black": "Nakamura, Hikaru",
                 "status": "playing", "result": "*", "ply": 40,
                 "claimable": [{"kind": "threefold", "by_move": None, "evidence": {"plies": [32, 36, 40]}}]}}


def test_passwords_are_hashed_and_tokens_signed():
    accts = Accounts.load(None, {"VENUE_ARBITERS": "chief:s3cret,deputy:other", "VENUE_SECRET": "k"})
    assert accts.by_login["chief"].password_hash.startswith("$argon2")
    assert "s3cret" not in accts.by_login["chief"].password_hash
    assert accts.verify("chief", "s3cret").login == "chief"
    assert accts.verify("chief", "wrong") is None and accts.verify("nobody", "s3cret") is None
    token = accts.issue("chief", now_s=1000)
    assert accts.check(token, now_s=1001).login == "chief"
    assert accts.check(token + "0", now_s=1001) is None              # tampered signature
    assert accts.check(token.replace("chief", "deputy"), now_s=1001) is None
    assert accts.check(token, now_s=1000 + 13 * 3600) is None         # expired


def test_accounts_from_tournament_file_hash_or_environment():
    class T:
        arbiters = (ArbiterAccount("chief", "Chief", password_hash=hash_password("pw1")),
                    ArbiterAccount("deputy", password_env="DEPUTY_PW"))
    accts = Accounts.load(T(), {"DEPUTY_PW": "pw2"})
    assert accts.verify("chief", "pw1") and accts.verify("deputy", "pw2")
    with pytest.raises(ValueError):
        Accounts.load(None, {"VENUE_ARBITERS": "nocolon"})


def repeated() -> Driver:
    """Field case F01's shuttle from the start: 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8: the start
    position stands for the third time with White to move (FIDE Laws 9.2.2)."""
    d = Driver("1")
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8") * 2:
        d.move("1", uci)
    return d


def judged(d: Driver, action: str, body: dict):
    return build(action, body, "chief", SpectatorView(d.hall.state).every_game(), d.hall.state)


def test_accept_claim_ends_the_game_drawn_and_records_who():
    # FIDE Laws 9.2: a correct claim by the player to move: the game is drawn; the rules core's
    # verdict (the plies the position stood after) is the entry's ruling.
    out = judged(repeated(), "accept_claim", {"game": "1-1", "kind": "threefold", "alert": 7})
    assert [t for t, _ in out] == ["draw_claim_decided", "game_ended"]
    assert out[0][1]["accepted"] is True and out[0][1]["by"] == "chief" and out[0][1]["alert"] == 7
    assert out[0][1]["ruling"]["evidence"]["plies"] == [0, 4, 8] and out[0][1]["rule"] == out[0][1]["ruling"]["law"]
    assert out[1][1]["result"] == "1/2-1/2" and out[1][1]["termination"] == "threefold_repetition"
    assert out[1][1]["by"] == "arbiter"


def test_accepting_an_incorrect_claim_is_refused_with_the_reason():
    # FIDE Laws 9.3.2, 9.5.2: the claim is judged, not looked up: 8 plies without a pawn move is
    # not 100; 9.2.1: a third occurrence needs the intended move to make it, and 1...e5 cannot
    # (a pawn move: no earlier position can recur). Rejecting them is the Laws' way (9.5.3).
    d = repeated()
    with pytest.raises(ActionError, match=r"the fifty_moves claim is incorrect: only 8 plies .*9\.5\.3"):
        judged(d, "accept_claim", {"game": "1-1", "kind": "fifty_moves"})
    d.move("1", "e2e4")
    with pytest.raises(ActionError, match="the threefold claim is incorrect: the intended move e7e5 is a capture or "
                                          "pawn move"):
        judged(d, "accept_claim", {"game": "1-1", "kind": "threefold", "by_move": "e7e5"})


def test_reject_claim_records_without_ending_and_a_correct_claim_cannot_be_rejected():
    # FIDE Laws 9.5.3: an incorrect claim: the game continues (the gateway proposes the two minutes);
    # 9.5.2: "If the claim is found to be correct, the game is immediately drawn".
    d = repeated()
    out = judged(d, "reject_claim", {"game": "1-1", "kind": "fifty_moves"})
    assert [t for t, _ in out] == ["draw_claim_decided"] and out[0][1]["accepted"] is False
    assert out[0][1]["ruling"]["law"] == "FIDE Laws 9.3.2, 9.5"
    with pytest.raises(ActionError, match=r"the threefold claim is correct: .* close its alert with a note instead"):
        judged(d, "reject_claim", {"game": "1-1", "kind": "threefold"})


def test_a_claim_needs_the_recorded_state():
    with pytest.raises(ActionError, match="recorded state is needed"):
        build("accept_claim", {"game": "1-1", "kind": "threefold"}, "chief", GAMES)


@pytest.mark.parametrize("result,forfeit", [("1-0", False), ("1/2-0", False), ("0-1/2", False), ("0-0", False)])
def test_set_result_incl_special_scores(result, forfeit):
    out = build("set_result", {"game": "1-1", "result": result, "forfeit": forfeit}, "chief", GAMES)
    assert out[0][0] == "arbiter_decision" and out[1][1]["result"] == result
    assert out[1][1]["forfeit"] is forfeit and "ruling" not in out[0][1]  # the arbiter's judgement (12.9)


@pytest.mark.parametrize("result", ["0-1", "0-0"])
def test_forfeits_are_judged_against_the_default_time(result):
    # FIDE Laws 6.7.1: "If the default time is not specified, then it is zero. Any player who
    # arrives at the chessboard after the default time shall lose": the round started at 0, nobody
    # came: a forfeit of White (0-1) or of both (0-0) is what the Laws give.
    d = Driver("1")
    d.hall.state.rounds["1"].start_ms = 0
    out = build("set_result", {"game": "1-1", "result": result, "forfeit": True}, "chief",
                SpectatorView(d.hall.state).every_game(), d.hall.state, now_ms=1_000)
    assert out[1][1]["forfeit"] is True and out[0][1]["ruling"]["law"] == "FIDE Laws 6.7.1"


def test_bad_actions_are_refused_naming_the_field():
    with pytest.raises(ActionError, match="game: no game"):
        build("check_in", {"game": "9-9", "side": "white"}, "chief", GAMES)
    with pytest.raises(ActionError, match="side"):
        build("check_in", {"game": "1-1", "side": "red"}, "chief", GAMES)
    with pytest.raises(ActionError, match="result"):
        build("set_result", {"game": "1-1", "result": "2-0"}, "chief", GAMES)
    with pytest.raises(ActionError, match="forfeit is written"):
        build("set_result", {"game": "1-1", "result": "1/2-1/2", "forfeit": True}, "chief", GAMES)
    with pytest.raises(ActionError, match="white_ms"):
        build("adjust_clock", {"game": "1-1", "white_ms": "ten", "black_ms": 1}, "chief", GAMES)
    with pytest.raises(ActionError, match="unknown action"):
        build("delete_everything", {}, "chief", GAMES)


def test_fine_check_in_clock_pause_note():
    # US 2023 rule 1: "a fine of $500 to be deducted from their prize"
    [(t, d)] = build("record_fine", {"game": "1-1", "side": "black", "amount": 500}, "chief", GAMES)
    assert t == "fine_recorded" and d["player"] == "Nakamura, Hikaru" and d["amount"] == 500
    [(t, d)] = build("check_in", {"game": "1-1", "side": "white"}, "chief", GAMES)
    assert t == "player_arrived" and d["side"] == "white" and d["by"] == "chief"
    [(t, d)] = build("adjust_clock", {"game": "1-1", "white_ms": 120000, "black_ms": 60000}, "chief", GAMES)
    assert t == "clock_adjusted" and (d["white_ms"], d["black_ms"]) == (120000, 60000)
    assert build("pause", {"game": "1-1"}, "chief", GAMES)[0][0] == "game_paused"
    assert build("note", {"text": "spectator warned"}, "chief", GAMES)[0][1]["text"] == "spectator warned"


CHECKERS = {"2-1": {"id": "2-1", "board": "1", "white": "Chinook", "black": "Tinsley, Marion",
                    "status": "playing", "result": "*", "ply": 4, "variant": "checkers",
                    "san": ["11-15", "22-17", "15-19", "24x15"]}}


def test_score_sheet_cross_checked_against_the_board():
    # Checkers 2017 XII: "both copies ... are necessary to permit crosschecking for recording errors"
    out = build("enter_score_sheet", {"game": "2-1", "side": "black",
                                      "moves": ["11-15", "22-17", "15-18", "24x15"]}, "referee", CHECKERS)
    assert [t for t, _ in out] == ["score_sheet_entered", "score_sheet_differences"]
    assert out[1][1]["differences"] == [{"ply": 3, "sheet": "black", "board": "15-19", "written": "15-18"}]
    same = build("enter_score_sheet", {"game": "2-1", "side": "white", "moves": CHECKERS["2-1"]["san"]},
                 "referee", CHECKERS)
    assert [t for t, _ in same] == ["score_sheet_entered"]


def test_adjudication_win_needs_a_unanimous_committee():
    # Checkers 2017 X.B.d: "An adjudication win can only be awarded by unanimous vote of the Committee."
    members = ["A", "B", "C"]
    out = build("adjudicate", {"game": "2-1", "members": members,
                               "votes": {"A": "black", "B": "black", "C": "black"}}, "referee", CHECKERS)
    assert [t for t, _ in out] == ["adjudication_recorded", "game_ended"]
    assert out[1][1]["result"] == "0-1"  # Black won; our codes put White's score first (docs/checkers.md)
    split = build("adjudicate", {"game": "2-1", "members": members,
                                 "votes": {"A": "black", "B": "draw", "C": "black"}}, "referee", CHECKERS)
    assert split[1][1]["result"] == "1/2-1/2"
    with pytest.raises(ActionError, match="members/votes"):
        build("adjudicate", {"game": "2-1", "members": ["A", "B"], "votes": {"A": "white", "B": "white"}},
              "referee", CHECKERS)


def test_score_sheet_typed_as_text_against_a_real_record():
    # Checkers 2017 XII cross-check, a sheet typed as written: London 1992 game 8 (Chinook - Tinsley,
    # venue/data/tinsley_chinook_1992.pdn, the file's first game) to White's 18th move. The record
    # writes the step 10-14 as "10x14" and the double jumps by their landing squares; the board
    # records full routes (3x10x19) and shows the short form (3x19): all name the same moves.
    from importlib import resources

    from services.rules.checkers_pdn import read_pdn, replay

    record = replay(read_pdn(resources.files("venue").joinpath("data", "tinsley_chinook_1992.pdn")
                             .read_text("utf-8"))[0])
    plies = 36
    game = {"id": "1-1", "board": "1", "white": "M Tinsley", "black": "Chinook", "status": "playing",
            "result": "*", "ply": plies, "variant": "checkers", "moves": list(record.moves[:plies]),
            "san": [p.san for p in record.played[:plies]]}
    assert (game["moves"][32], game["san"][32], game["moves"][2]) == ("3x10x19", "3x19", "10-14")
    sheet = """1. 11-15 23-18 2. 10x14 18x11 3. 8x15 22-17 4. 14-18 24-19 5. 15x24 28x19 6.
7-11 17x14 7. 11-16 19-15 8. 4-8 21-17 9. 16-19 17-13 10. 12-16 25-21 11. 18-22
26x17 12. 9x18 29x25 13. 16-20 17x14 14. 2-7 21-17 15. 19x24 30-26 16. 7-10
14x7 17. 3x10x19 27-23 18. 18x27 32x23x16"""
    out = build("enter_score_sheet", {"game": "1-1", "side": "white", "moves": sheet}, "referee", {"1-1": game})
    assert [t for t, _ in out] == ["score_sheet_entered"]
    assert len(out[0][1]["moves"]) == plies and out[0][1]["differences"] == 0
    # One recording error (24-20 for White's 4th move, ply 8) and the sheet stopping a move short.
    wrong = sheet.replace("4. 14-18 24-19", "4. 14-18 24-20").replace(" 32x23x16", "")
    out = build("enter_score_sheet", {"game": "1-1", "side": "white", "moves": wrong}, "referee", {"1-1": game})
    assert out[1][1]["differences"] == [
        {"ply": 8, "sheet": "white", "board": "24-19", "written": "24-20"},
        {"ply": 36, "sheet": "white", "board": "32x23x16", "written": None}]
    with pytest.raises(ActionError, match="no moves"):
        build("enter_score_sheet", {"game": "1-1", "side": "white", "moves": "1. 2."}, "referee", {"1-1": game})


def test_sheet_moves_leave_out_numbers_and_results():
    from services.regulations.score_sheets import sheet_moves

    # PDN movetext as in venue/data/tinsley_chinook_1992.pdn (game 8's last line), and a glued number
    assert sheet_moves("25. 30-26 18-14 26-22\n1-0") == ["30-26", "18-14", "26-22"]
    assert sheet_moves("1.11-15, 23-18; 2...10x14 *") == ["11-15", "23-18", "10x14"]


def test_checkers_referee_actions_refused_for_a_chess_game():
    # The score sheet cross-check (XII), move timers (X.B.a, X.B.c) and the committee (X.B.d) are
    # the 11-Man National 2017's rules: a chess game of the round is refused, naming the game.
    for action, body in (("enter_score_sheet", {"side": "white", "moves": "1. e4"}),
                         ("start_move_timer", {"rule": "one_minute"}),
                         ("adjudicate", {"members": ["A", "B", "C"], "votes": {"A": "draw", "B": "draw", "C": "draw"}})):
        with pytest.raises(ActionError, match="1-1 is a chess game"):
            build(action, {"game": "1-1", **body}, "chief", GAMES)


def test_every_action_has_its_row_in_the_docs():
    # docs/arbiter.md "Actions" is the contract of POST /api/arbiter/actions: every action the
    # tagged union decodes has its row there, and every row names a registered action.
    import re
    from pathlib import Path

    from dashboard.arbiter.actions import ACTIONS, Action

    text = (Path(__file__).resolve().parents[2] / "docs" / "arbiter.md").read_text()
    section = text.split("\n## Actions\n", 1)[1].split("\n## ", 1)[0]
    documented = {name for row in re.findall(r"^\| (`[^|]+) \|", section, re.M)
                  for name in re.findall(r"`([a-z_]+)`", row)}
    assert documented == set(ACTIONS)
    for cls in ACTIONS.values():
        assert cls.__doc__ and cls.entries is not Action.entries, cls


@pytest.mark.parametrize("body,error", [
    # each refusal names the field (its path in the body) and the problem, the value given quoted
    (b'{"action": "check_in", "game": "1-1", "side": "red"}', "side: must be white or black, not 'red'"),
    (b'{"action": "check_in", "game": "1-1"}', "side: is missing"),
    (b'{"action": "check_in", "side": "white"}', "game: is missing"),
    (b'{"action": "adjust_clock", "game": "1-1", "white_ms": -5, "black_ms": 1}', "white_ms: a clock reading in ms"),
    (b'{"action": "forbid_pair", "players": [1, "x"]}', "players[1]: a start number, a whole number, not 'x'"),
    # rounds are numbered from 1 (README "--round N pairs and starts round N"): round 0 is a bad field,
    # not "round 0 has started already"
    (b'{"action": "pair_round", "round": 0}', "round: a round's number, a whole number from 1, not 0"),
    (b'{"action": "request_bye", "player": 1, "round": "-1"}', "round: a round's number, a whole number from 1, not '-1'"),
    # an instant no calendar date holds (a new user's 20 nines were an HTTP 500 from datetime)
    (b'{"action": "start_round", "round": 1, "version": 3, "start_ms": 99999999999999999999}',
     "start_ms: when it starts, ms since the epoch"),
    (b'{"action": "start_playoff_stage", "stage": 1, "boards": [1], "start_ms": "253402214400001"}',
     "start_ms: when it starts, ms since the epoch"),
    (b'{"action": "adjudicate", "game": "2-1", "votes": {"A": 1}}', "votes: every value must be text"),
    (b'{"action": "set_result", "game": "1-1", "result": "1-0", "forfeit": "maybe"}',
     "forfeit: must be true or false, not 'maybe'"),
    (b'{"action": "delete_everything"}', "unknown action 'delete_everything'"),
    (b'{"game": "1-1"}', "action: is missing"),
    (b'[1, 2]', "the body must be a JSON object"),
    (b'{"action": ', "the body must be JSON"),
])
def test_a_bad_body_is_refused_naming_the_field_and_the_problem(body, error):
    from dashboard.arbiter.actions import decode

    with pytest.raises(ActionError) as refused:
        decode(body)
    assert error in str(refused.value)


def test_a_form_field_left_empty_is_left_out_and_digits_are_numbers():
    # The console's forms post "" for an empty field and text for numbers (docs/arbiter.md "Round
    # tools"): "" takes the field's default, "11" is start number 11.
    from dashboard.arbiter.actions import decode

    bye = decode(b'{"action": "request_bye", "player": "11", "round": "", "code": "", "note": ""}')
    assert (bye.NAME, bye.player, bye.round, bye.code, bye.note) == ("request_bye", 11, None, "H", None)
