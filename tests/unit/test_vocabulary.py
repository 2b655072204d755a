"""The domain's closed sets (services/events/vocabulary.py): each enum holds exactly the words the rules
core, the events and the device protocol have always used, and a member is encoded as its word, so the
log, the API and the exports are unchanged."""

from __future__ import annotations

import json
import typing

import msgspec
import pytest

from services.events import REGISTRY, ByeRequested, GameEnded, decode, encode
from services.events import base as events_base
from services.events.vocabulary import (RESULTS_PLAYED, SPECIAL_SCORES, AlertKind, ByeCode, ClaimKind,
                                        DeviceKind, EndedBy, GameResult, GameStatus, Termination, Variant)
from services.rules import checkers_claims, checkers_results, chess_claims, claim_words, results


def test_termination_is_every_word_of_the_chess_and_checkers_rules():
    # services.rules.results (FIDE Laws articles in its comments) and checkers_results (WCDF/ACF, X.B.e)
    words = set(results.TERMINATIONS) | set(checkers_results.TERMINATIONS)
    assert {t.value for t in Termination} == words
    assert Termination.TIME_FORFEIT == "time_forfeit" and Termination("late_start") is Termination.LATE_START


def test_game_result_is_pgn_results_and_the_special_scores():
    # PGN standard 8.1.1 (services.rules.results.PGN_RESULTS) and FIDE Laws 12.9's special scores
    assert {r.value for r in GameResult} == set(results.PGN_RESULTS) | {"0-0", "1/2-0", "0-1/2"}
    assert RESULTS_PLAYED == ("1-0", "0-1", "1/2-1/2")
    assert SPECIAL_SCORES == ("0-0", "1/2-0", "0-1/2")
    for code in SPECIAL_SCORES:  # each special score is a score the standings know
        assert results.score(code).played
    assert events_base.Result is GameResult


def test_claim_kinds_are_the_rules_cores():
    assert {ClaimKind.THREEFOLD, ClaimKind.FIFTY_MOVES} == set(chess_claims.KINDS)
    assert {ClaimKind.THREEFOLD, ClaimKind.FORTY_MOVES} == set(checkers_claims.KINDS)
    assert ClaimKind.UNNAMED == claim_words.UNNAMED
    assert {v.value for v in Variant} == set(claim_words.VARIANTS)


def test_device_literal_and_device_kind_name_the_same_devices():
    # DESIGN.md "Device protocol": a hall board's devices are its board and its clock
    assert set(typing.get_args(events_base.Device)) == {d.value for d in DeviceKind} == {"board", "clock"}


def test_alert_kinds_are_registered_entry_types_or_the_rounds_presence_alert():
    for kind in AlertKind:
        assert kind.value in REGISTRY or kind is AlertKind.NOT_AT_BOARD, kind


def test_every_member_has_a_docstring_naming_its_rule():
    from services.events import vocabulary
    source = open(vocabulary.__file__, encoding="utf-8").read()
    for enum in (Termination, GameResult, GameStatus, ClaimKind, Variant, DeviceKind, EndedBy, AlertKind, ByeCode):
        assert enum.__doc__
        for member in enum:
            # each member's line is followed by its docstring
            line = f'    {member.name} = "{member.value}"\n    """'
            assert line in source, member


@pytest.mark.parametrize("as_word", [False, True])
def test_a_member_encodes_as_its_word(as_word):
    # the log's JSON is the same whether the code wrote the member or the word
    termination = "time_forfeit" if as_word else Termination.TIME_FORFEIT
    result = "0-1" if as_word else GameResult.BLACK_WINS
    by = "rules" if as_word else EndedBy.RULES
    ev = GameEnded(game="r1-b1", result=result, termination=termination, ply=80, by=by)
    assert encode(ev) == ("game_ended", {"game": "r1-b1", "result": "0-1", "termination": "time_forfeit",
                                         "ply": 80, "by": "rules"})
    assert msgspec.json.encode(ev) == msgspec.json.encode(GameEnded(game="r1-b1", result="0-1",
                                                                   termination="time_forfeit", ply=80))
    assert json.dumps({"termination": termination}) == '{"termination": "time_forfeit"}'
    assert f"{termination}" == "time_forfeit" and str(result) == "0-1"


def test_a_bye_code_reads_into_its_member_and_refuses_another():
    ev = decode("bye_requested", {"start_no": 7, "round": 3, "code": "Z"})
    assert isinstance(ev, ByeRequested) and ev.code is ByeCode.ZERO
    assert encode(ev)[1]["code"] == "Z"
    assert encode(decode("bye_requested", {"start_no": 7, "round": 3}))[1]["code"] == "H"
    with pytest.raises(Exception, match="code"):
        decode("bye_requested", {"start_no": 7, "round": 3, "code": "U"})
