"""The checkers simulators' pure parts: devices.checkers_script, devices.thinking, devices.records,
devices.checkers_faults.

Sources: venue/data/tinsley_chinook_1992.pdn (records 684, 689, 698, 700, 701, 714 of
../shared/data/checkers/tinsley.pdn, copied unchanged) and tinsley.pdn itself (records 623 and 693,
time forfeits noted in the record: ../shared/data/SOURCES.md); the 11-Man National 2017 regulations
(X.A.a: 90 minutes each, or 80 minutes + 10 s a press; X.A.d: Red's clock is started first);
docs/checkers.md (PDN results give Black's score first; moves recorded with every jump).
"""

from __future__ import annotations

from importlib import resources

import pytest

from devices.checkers_faults import illegal_move, neighbours
from devices.checkers_script import script_from_record, scripts_from_pdn
from devices.records import detect_variant, retime, scripts_from_text
from devices.script import Script
from devices.station import SimulatedBoard
from devices.thinking import MAX_THINK_MS, thinking_times
from services.rules.base import MoveRefused
from services.rules.checkers_game import CheckersGame
from services.rules.checkers_pdn import read_pdn, replay

SHIPPED = resources.files("venue").joinpath("data", "tinsley_chinook_1992.pdn").read_text("utf-8")
NINETY_MIN = 90 * 60_000  # X.A.a option 1


@pytest.fixture(scope="module")
def scripts() -> list[Script]:
    return scripts_from_pdn(SHIPPED)


def test_moves_are_the_records_with_full_routes(scripts):
    """Each board sends the record's moves as the rules core replays them: numeric notation with the
    full route of every jump (regulation X.A.g.i, "all jumps"). London 1992 game 8: 17. 3x10x19
    ... 32x23x16; the record's "10x14" step (2. 10x14) is sent as the step it is, 10-14."""
    records = read_pdn(SHIPPED)
    assert len(scripts) == len(records) == 6
    for script, record in zip(scripts, records):
        assert [p.uci for p in script.plies] == replay(record).moves
        assert script.variant == "checkers"
    game8 = [p.uci for p in scripts[0].plies]
    assert game8[2] == "10-14" and "3x10x19" in game8 and "32x23x16" in game8


def test_results_are_converted_from_pdn(scripts):
    """PDN writes Black's score first, the venue White's (docs/checkers.md): game 8 "1-0" (Chinook,
    Black, won) is "0-1"; game 14 "0-1" (Chinook, White, won) is "1-0"; games 23 and 26 drawn; game
    25 "0-1" (Tinsley, White) is "1-0"; game 39 "1-0" (Tinsley, Black) is "0-1". No record says how
    its game ended: the reason is "recorded"."""
    assert [s.result for s in scripts] == ["0-1", "1-0", "1/2-1/2", "1-0", "1/2-1/2", "0-1"]
    assert {s.reason for s in scripts} == {"recorded"}
    assert [s.board for s in scripts] == ["1", "2", "3", "4", "5", "6"]


def test_black_moves_first_and_the_clock_is_the_match_control(scripts):
    """X.A.d: Red's (Black's) clock is started first; X.A.a option 1: 90 minutes each, no
    increment: the mover's clock after a press is its previous figure less the thinking time."""
    for script in scripts:
        assert script.first_side == "black"
        assert (script.white_ms, script.black_ms) == (NINETY_MIN, NINETY_MIN)
        clocks = {"white": NINETY_MIN, "black": NINETY_MIN}
        for i, ply in enumerate(script.plies):
            assert ply.side == ("black" if i % 2 == 0 else "white")
            assert ply.clock_ms == clocks[ply.side] - ply.think_ms
            clocks[ply.side] = ply.clock_ms
        assert min(script.final_clocks()) > 0


def test_the_alternative_control_credits_ten_seconds_a_press():
    """X.A.a option 2: "80 minutes + 10-second increment ... each player earns additional 10
    seconds of time with each press of the clock" (the preset's alternative "4800+10")."""
    (script,) = scripts_from_pdn(SHIPPED.split("\n\n")[0], control="4800+10")
    assert (script.white_ms, script.black_ms) == (4_800_000, 4_800_000)
    clocks = {"white": 4_800_000, "black": 4_800_000}
    for ply in script.plies:
        assert ply.clock_ms == clocks[ply.side] - ply.think_ms + 10_000
        clocks[ply.side] = ply.clock_ms


def test_thinking_times_are_seeded_and_realistic(scripts):
    moves = [p.uci for p in scripts[1].plies]
    assert thinking_times(moves, 7) == thinking_times(moves, 7)
    assert thinking_times(moves, 7) != thinking_times(moves, 8)
    times = thinking_times(moves, 0)
    assert all(t % 1000 == 0 and 0 < t <= MAX_THINK_MS for t in times)
    assert all(t <= 12_000 for t in times[:6])  # the balloted opening is played quickly


def test_a_side_short_of_time_thinks_faster(scripts):
    """A 3-minute game (no increment) still ends with both clocks above 0: no accidental flag."""
    (script,) = scripts_from_pdn(SHIPPED.split("\n\n")[1], control="180")
    assert min(script.final_clocks()) > 0
    assert all(p.clock_ms > 0 for p in script.plies)


def test_time_forfeits_noted_in_records(shared_data):
    """tinsley.pdn #623 (Petal 1987, game 15; PDN 0-1, "Red overstepped the time control on this
    move.") and #693 (London 1992, game 18; PDN 1-0, "White overstepped ..."): the loser's flag
    falls at the end (Script.flag), the board reports time_forfeit."""
    records = read_pdn((shared_data / "checkers" / "tinsley.pdn").read_text())
    red = script_from_record(records[622], "1")
    white = script_from_record(records[692], "2")
    assert (red.result, red.reason, red.flag) == ("1-0", "time_forfeit", "black")
    assert (white.result, white.reason, white.flag) == ("0-1", "time_forfeit", "white")


def test_a_record_that_does_not_replay_names_its_game_and_ply(shared_data):
    """tinsley.pdn #541 (Petal 1981, game 18): illegal move 32-28 at ply 123 (SOURCES.md)."""
    text = (shared_data / "checkers" / "tinsley.pdn").read_text()
    chunk = text.split("\n\n")
    bad = next(c for c in chunk if '"Petal 1981, game 18"' in c)
    with pytest.raises(ValueError, match=r"game 1: ply 123 \(32-28\)"):
        scripts_from_pdn(bad)


def test_variant_detection():
    chess_text = resources.files("venue").joinpath("data", "candidates_2024_round5.pgn").read_text()
    assert detect_variant(SHIPPED) == "checkers"
    assert detect_variant(chess_text) == "chess"
    assert detect_variant('[GameType "21"]\n[Black "a"]\n[White "b"]\n*') == "checkers"
    assert detect_variant('[White "a"]\n[Black "b"]\n\n1. e4 e5 1-0') == "chess"
    assert scripts_from_text(SHIPPED)[0].variant == "checkers"


def test_illegal_fault_moves_are_refused_at_every_ply(scripts):
    """The ``illegal`` fault's move is refused by the rules core wherever it is made (London 1992
    game 14, every ply)."""
    game = CheckersGame()
    for ply in scripts[1].plies:
        wrong = illegal_move(game)
        probe = CheckersGame.from_moves(game.moves)
        with pytest.raises(MoveRefused):
            probe.play(wrong)
        game.play(ply.uci)


def test_a_plain_step_while_a_capture_is_compulsory():
    """London 1992 game 8: after 1. 11-15 23-18 2. 10-14 White must take (18x11 is the record's
    move): the fault offers a plain step, refused as "a capture is compulsory"."""
    game = CheckersGame.from_moves(["11-15", "23-18", "10-14"])
    wrong = illegal_move(game)
    with pytest.raises(MoveRefused, match="capture is compulsory"):
        game.play(wrong)


def test_square_neighbours():
    """ACF numbering: 11 steps to 15 or 16 (Black forward), 9 to 13 or 14; 1 and 32 are corners."""
    assert neighbours(11) == {1: [15, 16], -1: [7, 8]}
    assert neighbours(9) == {1: [13, 14], -1: [5, 6]}
    assert neighbours(32) == {1: [], -1: [27, 28]}


def test_placement_boards_are_chess_only(scripts):
    with pytest.raises(ValueError, match="chess only"):
        SimulatedBoard("mqtt://127.0.0.1:1", "t", scripts[0], kind="position")
    with pytest.raises(ValueError, match="chess only"):
        SimulatedBoard("mqtt://127.0.0.1:1", "t", scripts[0], faults=frozenset({"rotated"}))


def test_chess_retimed_under_another_control():
    """A Candidates 2024 game (venue/data) under 90 minutes + 30 s from move 1 ("5400+30"): the same
    moves and, where the time suffices, the same thinking times; each press leaves the previous
    figure - thinking + 30 s (PGN [%clk] convention)."""
    text = resources.files("venue").joinpath("data", "candidates_2024_round5.pgn").read_text()
    source = scripts_from_text(text)[0]
    script = retime(source, "5400+30", board="7")
    assert script.board == "7" and [p.uci for p in script.plies] == [p.uci for p in source.plies]
    assert (script.white_ms, script.black_ms) == (5_400_000, 5_400_000)
    clocks = {"white": 5_400_000, "black": 5_400_000}
    for ply in script.plies:
        assert ply.clock_ms == clocks[ply.side] - ply.think_ms + 30_000
        clocks[ply.side] = ply.clock_ms
    assert script.result == source.result
