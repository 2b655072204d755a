"""The state's typed SETUP, clock and time control (issue 26: msgspec Structs in ``GameState``) are
written to the log, the API and the websocket as the plain JSON they were before.

Source of the values: the Armageddon table of events/norway-chess-2023.toml ("10 minutes for White,
7 minutes for Black, an increment of 1 s from move 41", draw odds to Black) and its blitz control,
PGN text "180+2"; the clock figures are that table's (White 10 min, Black 7 min, ms) on the README's GAME
``clock`` shape ``{"white_ms", "black_ms", "running", "at"}``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec
import pytest

from services.events import RoundStarted, decode
from services.events.tournament import Setup, TimeControlTable
from services.state import HallState
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
