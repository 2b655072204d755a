"""The state's typed SETUP, clock and time control (issue 26: msgspec Structs in ``GameState``) are
written to the log, the API and the websocket as the plain JSON they were before.

Source of the values: the Armageddon table of events/norway-chess-2023.toml ("10 minutes for White,
7 minutes for Black, an increment of 1 s from move 41", draw odds to Black) and its blitz control,
PGN text "180+2"; the clock figures are that table's (White 10 min, Black 7 min, ms) on the README's GAME
``clock`` shape ``{"white_ms", "black_ms", "running", "at"}``.

A checkers match's SETUP (``match``, ``ballot``) and its match clock: the 2017 11-Man National's
regulations (../shared/regulations/checkers-11-man-national-2017.txt): X.A.a (90 minutes, or 80
minutes + 10 s, "decided at random (e. g., coin flip)"; heads = 90, ``checkers_rounds``), X.A.b (two
games, the second following the first), X.A.d (the balloted moves); the ballot is no. 15 of the ACF
deck ../shared/data/checkers/acf_3move_ballots.csv (9-13 23-18 11-15, no traditional name), on which
London 1992 games 25 and 26 were played (Black Chinook, White M Tinsley, then reversed). The shapes
are docs/events.md's SETUP and services/views/spectator.py's GAME (``match_clock`` ``{"option",
"how", "coin", "by", "at"}``; the public ``evaluation`` ``{"ply", "score_cp", "mate",
"best_line_san", "depth", "engine"}``, the engine named as docs/events.md's example).
"""

from __future__ import annotations

import csv
import tomllib
from pathlib import Path

import msgspec
import pytest

from services.events import BadEvent, CheckersMatch, PositionEvaluated, RoundStarted, ThreeMoveBallot, decode
from services.events.tournament import Setup, TimeControlTable
from services.regulations.checkers_match import match_setups
from services.state import HallState
from services.state.match_clock import MatchClockChoice
from services.views.spectator import game_json

EVENTS = Path(__file__).resolve().parents[2] / "events"
AT = 1_700_000_000_000  # the round's set-up (ms); the clock's reading one minute later


@pytest.fixture(scope="module")
def controls() -> dict:
    with open(EVENTS / "norway-chess-2023.toml", "rb") as f:
        return tomllib.load(f)["time_controls"]


def _state(controls: dict) -> HallState:
    state = HallState()
    games = [{"id": "1-1", "board": "1", "white": "Carlsen", "black": "Nakamura", "time_control": controls["armageddon"],
              "kind": "armageddon"},
             {"id": "1-2", "board": "2", "white": "Ding", "black": "Caruana", "time_control": controls["blitz"]}]
    state.fold(RoundStarted.TYPE, {"round": "1", "games": games}, AT)
    state.fold("clock_started", {"game": "1-1", "board": "1", "device": "clock", "white_ms": 600_000,
                                 "black_ms": 420_000, "running": "white"}, AT + 60_000)
    return state


def test_a_table_control_reads_as_typed_and_is_written_as_the_file_gave_it(controls):
    table = controls["armageddon"]
    state = _state(controls)
    g = state.games["1-1"]
    assert isinstance(g.time_control, TimeControlTable) and isinstance(g.setup, Setup)
    assert game_json(g)["time_control"] == table  # the file's keys, none added
    assert game_json(state.games["1-2"])["time_control"] == controls["blitz"] == "180+2"  # PGN text as it is
    _, data = RoundStarted(round="1", games=[g.setup]).encode()
    assert msgspec.json.decode(msgspec.json.encode(data))["games"][0]["time_control"] == table


def test_the_clock_reading_is_sent_with_all_four_fields(controls):
    g = _state(controls).games["1-1"]
    assert game_json(g)["clock"] == {"white_ms": 600_000, "black_ms": 420_000, "running": "white", "at": AT + 60_000}
    shifted = game_json(g, shift_ms=5_000)["clock"]
    assert shifted["at"] == AT + 65_000 and g.clock is not None and g.clock.at == AT + 60_000  # the state's untouched


def test_a_setup_read_back_from_the_log_equals_the_live_one(controls):
    g = _state(controls).games["1-1"]
    _, data = RoundStarted(round="1", games=[g.setup]).encode()
    back = decode(RoundStarted.TYPE, msgspec.json.decode(msgspec.json.encode(data)))
    assert isinstance(back, RoundStarted) and back.games[0] == g.setup


def _ballot_15(shared_data) -> dict:
    """ACF ballot 15 as ``Ballot.to_json()`` writes it, read from the shared deck itself."""
    with open(shared_data / "checkers" / "acf_3move_ballots.csv", newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["acf_no"] == "15")
    return {"ballot": 15, "moves": [row["black_1"], row["white_1"], row["black_2"]],
            "name": row["traditional_name"] or None}


def _match_round(shared_data) -> tuple[dict, HallState]:
    """``round_started`` of one match (London 1992 games 25/26 on board 1) and the state folded from it."""
    pairing = {"id": "1-1", "board": "1", "round": "1", "white": "M Tinsley", "black": "Chinook",
               "variant": "checkers", "time_control": {"white": "90m", "black": "90m", "match_clock": True},
               "fen": None, "kind": "classical"}
    data = {"round": "1", "games": match_setups(pairing, _ballot_15(shared_data))}
    state = HallState()
    state.fold(RoundStarted.TYPE, data, AT)
    return data, state


def test_a_match_s_setup_reads_typed_and_is_written_byte_for_byte_as_the_log_has_it(shared_data):
    data, state = _match_round(shared_data)
    one, two = state.games["1-1.1"], state.games["1-1.2"]
    assert one.setup.match == CheckersMatch(id="1-1", game_no=1, games=2)
    assert two.setup.match == CheckersMatch(id="1-1", game_no=2, games=2, follows="1-1.1")
    assert one.setup.ballot == two.setup.ballot == ThreeMoveBallot(ballot=15, moves=["9-13", "23-18", "11-15"])
    _, written = RoundStarted(round="1", games=[one.setup, two.setup]).encode()
    for i in (0, 1):
        for key in ("match", "ballot"):  # game 1 without "follows"; the ballot's null name written
            assert msgspec.json.encode(written["games"][i][key]) == msgspec.json.encode(data["games"][i][key])
            assert game_json(state.games[f"1-1.{i + 1}"])[key] == data["games"][i][key]
    # the bytes the log has always had, in docs/events.md's order of keys
    assert msgspec.json.encode(written["games"][1]["match"]) == b'{"id":"1-1","game_no":2,"games":2,"follows":"1-1.1"}'
    assert msgspec.json.encode(written["games"][0]["ballot"]) == b'{"ballot":15,"moves":["9-13","23-18","11-15"],"name":null}'
    assert game_json(one)["match"] == {"id": "1-1", "game_no": 1, "games": 2}
    assert game_json(two)["ballot"] == {"ballot": 15, "moves": ["9-13", "23-18", "11-15"], "name": None}


def test_a_match_and_ballot_an_older_writer_recorded_still_read(shared_data):
    # tests/checkers_entries.py's shape: game 2 without "follows", the keys in another order; a ballot
    # recorded without its number (venue/demo_tournament.py's opening missing from the deck), without a name
    games = [{"id": f"1-1.{n}", "board": "1", "variant": "checkers", "match": {"id": "1-1", "games": 2, "game_no": n},
              "ballot": {"moves": ["9-13", "23-18", "11-15"]}} for n in (1, 2)]
    back = decode(RoundStarted.TYPE, {"round": "1", "games": games})
    assert isinstance(back, RoundStarted)
    assert back.games[1].match == CheckersMatch(id="1-1", game_no=2, games=2)
    assert back.games[1].ballot == ThreeMoveBallot(ballot=None, moves=["9-13", "23-18", "11-15"], name=None)
    # what names the game is required: a match without its id is no match game (docs/events.md SETUP)
    with pytest.raises(BadEvent):
        decode(RoundStarted.TYPE, {"round": "1", "games": [{**games[0], "match": {"game_no": 1, "games": 2}}]})


def test_the_match_clock_is_typed_and_sent_with_all_five_fields(shared_data):
    _, state = _match_round(shared_data)
    # X.A.a: the players disagree, the referee flips heads: 90 minutes
    state.fold("match_clock_chosen", {"game": "1-1.1", "board": "1", "by": "chief", "option": "90",
                                      "time_control": {"white": "90m", "black": "90m", "match_clock": True},
                                      "match": "1-1", "games": ["1-1.1", "1-1.2"], "how": "coin flip",
                                      "coin": "heads"}, AT + 1_000)
    one, two = state.games["1-1.1"], state.games["1-1.2"]
    assert one.match_clock == two.match_clock == MatchClockChoice(option="90", how="coin flip", coin="heads",
                                                                  by="chief", at=AT + 1_000)
    assert game_json(two)["match_clock"] == {"option": "90", "how": "coin flip", "coin": "heads", "by": "chief",
                                             "at": AT + 1_000}


def test_the_engine_s_reading_is_kept_as_its_entry_and_shown_with_six_fields(controls):
    state = _state(controls)
    g = state.games["1-2"]  # no move yet: the start position
    state.fold("position_evaluated", {"game": "1-2", "board": "2", "ply": 0, "fen": g.fen, "score_cp": 20,
                                      "best_line_san": ["e4", "e5"], "depth": 20, "engine": "Stockfish 15.1",
                                      "budget_ms": 1_000}, AT + 2_000)
    assert isinstance(g.evaluation, PositionEvaluated) and g.evaluation.budget_ms == 1_000
    shown = game_json(g, public=True)["evaluation"]
    assert shown == {"ply": 0, "score_cp": 20, "mate": None, "best_line_san": ["e4", "e5"], "depth": 20,
                     "engine": "Stockfish 15.1"}
    shown["best_line_san"].append("Nf3")  # the GAME is a copy: the state's record is untouched
    assert g.evaluation.best_line_san == ["e4", "e5"]
