"""devices.script and the placement passing states of devices.station (pure parts of the simulators).

Sources: ../shared/data/chess (FIDE Candidates 2024 [%clk] figures; FIDE World Cup 2025 special
endings), PGN standard 9.6.1 (TimeControl), the F06/F07 cases and FIDE Laws 3.8 (castling).
"""

from __future__ import annotations

import chess
import pytest

from devices.script import scripts_from_pgn, time_control
from devices.station import FAULTS, lift_and_put_back, passing_placements, _illegal_move
from services.protocol.placement import MOVE, SAME, TRANSIENT, infer_move

FIRST_GAME = """[Event "Candidates"]
[Round "1"]
[White "Caruana, Fabiano"]
[Black "Nakamura, Hikaru"]
[Result "1/2-1/2"]

1. e4 {[%clk 1:59:56]}  c5 {[%clk 1:59:50]}  2. Nf3 {[%clk 1:59:51]}
d6 {[%clk 1:59:46]} 1/2-1/2
"""


def test_clock_figures_and_thinking_times():
    """Candidates 2024 R1 Caruana - Nakamura: first clocks 1:59:56 / 1:59:50 -> start 2:00:00;
    thinking = previous clock - this clock + increment (0: no TimeControl tag)."""
    (script,) = scripts_from_pgn(FIRST_GAME)
    assert (script.white_ms, script.black_ms) == (7_200_000, 7_200_000)
    assert [p.clock_ms for p in script.plies] == [7_196_000, 7_190_000, 7_191_000, 7_186_000]
    assert [p.think_ms for p in script.plies] == [4_000, 10_000, 5_000, 4_000]
    assert script.final_clocks() == (7_191_000, 7_186_000)
    assert script.board == "1" and script.reason == "agreement"


def test_time_control_tag():
    """PGN standard 9.6.1: "900+10" -> 900 s base, 10 s increment; moves/seconds periods."""
    assert time_control("900+10") == (900_000, 10_000)
    assert time_control("40/7200:1800+30") == (7_200_000, 0)
    assert time_control(None) == (None, 0)


def test_every_candidates_game_replays(shared_data):
    scripts = scripts_from_pgn((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text(),
                               boards=[str(i) for i in range(1, 57)])
    assert len(scripts) == 56
    assert all(p.think_ms >= 0 for s in scripts for p in s.plies)


def test_reasons_of_special_endings(shared_data):
    """FIDE World Cup 2025 (special_endings_index.csv): game 1 checkmate, 452 stalemate,
    469 Adams - Cheparinov lost on time at 0:00:00."""
    import io

    import chess.pgn

    stream = io.StringIO((shared_data / "chess" / "fide_world_cup_2025.pgn").read_text())
    wanted, picked, index = {1: "checkmate", 452: "stalemate", 469: "time_forfeit"}, {}, 0
    while (game := chess.pgn.read_game(stream)) is not None and len(picked) < 3:
        index += 1
        if index in wanted:
            picked[index] = str(game)
    for index, reason in wanted.items():
        (script,) = scripts_from_pgn(picked[index], boards=["1"])
        assert script.reason == reason, index


def test_bad_input():
    with pytest.raises(ValueError):
        scripts_from_pgn("")
    with pytest.raises(ValueError, match="boards"):
        scripts_from_pgn(FIRST_GAME, boards=["1", "2"])


def stable_and_passing(board: chess.Board, uci: str) -> list[str]:
    return [infer_move(board, p).kind for p in passing_placements(board, chess.Move.from_uci(uci))]


def test_passing_states_are_never_taken_for_a_move():
    """Every intermediate placement is a passing state; the last one is the move."""
    board = chess.Board()
    for uci in ("e2e4", "d7d5", "e4d5"):  # a capture: the victim lifted first
        kinds = stable_and_passing(board, uci)
        assert kinds[:-1] == [TRANSIENT] * (len(kinds) - 1) and kinds[-1] == MOVE
        board.push_uci(uci)


def test_castling_rook_first_states():
    """Laws 3.8.2: rook h1-f1 first (itself the legal Rf1), the king in the hand, then castled."""
    board = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    states = passing_placements(board, chess.Move.from_uci("e1g1"))
    assert states == ["r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3KR2", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4R2",
                      "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1"]


def test_en_passant_and_promotion_states():
    board = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    assert stable_and_passing(board, "e5d6") == [TRANSIENT, TRANSIENT, MOVE]
    board = chess.Board("8/4P1k1/8/8/8/8/6K1/8 w - - 0 60")  # F05 (b) position
    assert passing_placements(board, chess.Move.from_uci("e7e8q"))[-1] == "4Q3/6k1/8/8/8/8/6K1/8"


def test_lift_and_put_back():
    board = chess.Board()
    lifted, back = lift_and_put_back(board)
    assert infer_move(board, lifted).kind == TRANSIENT and infer_move(board, back).kind == SAME


def test_illegal_fault_move_is_illegal():
    """F05 (a): the king jump e1e3 is illegal after 1.e4 e5."""
    board = chess.Board()
    for uci in ("e2e4", "e7e5"):
        board.push_uci(uci)
    assert _illegal_move(board) == "e1e3"
    assert not board.is_legal(chess.Move.from_uci(_illegal_move(board)))


def test_fault_words():
    assert FAULTS == {"illegal", "duplicate", "out_of_order", "malformed", "disconnect", "rotated"}
