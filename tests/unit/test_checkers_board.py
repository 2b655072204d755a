"""The checkers move generator: perft from the start, agreement with pydraughts, and each rule of
play (ACF/WCDF rules of American checkers) on a small position."""

from __future__ import annotations

import draughts
import pytest

from services.rules.checkers_board import Position, apply_move
from services.rules.checkers_game import CheckersGame
from services.rules.checkers_notation import parse_fen
from services.rules.checkers_pdn import read_pdn


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(apply_move(pos, m), depth - 1) for m in pos.legal_moves)


def pydraughts_perft(board: draughts.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves():
        board.push(move)
        total += pydraughts_perft(board, depth - 1)
        board.pop()
    return total


# Published perft of English/American checkers from the start (the brief of issue "American
# checkers"; the same table is given for checkers move generators, e.g. Aart Bik's perft for checkers).
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361}


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_the_start_via_checkers_game(depth):
    def count(game: CheckersGame, d: int) -> int:
        if d == 0:
            return 1
        total = 0
        for move in game.legal_moves():
            child = CheckersGame(game.fen)
            child.play(move)
            total += count(child, d - 1)
        return total

    if depth <= 4:  # a CheckersGame per node; depth 5 (16,000 nodes) walks the same generator directly
        assert count(CheckersGame(), depth) == PERFT[depth]
    assert perft(Position.start(), depth) == PERFT[depth]


def test_perft_agrees_with_pydraughts_at_depths_1_to_3():
    board = draughts.Board("english")
    for depth in (1, 2, 3):
        assert perft(Position.start(), depth) == pydraughts_perft(board, depth)


def _pydraughts_routes(board: draughts.Board) -> set[tuple[int, ...]]:
    return {tuple(m.steps_move) for m in board.legal_moves()}


def test_legal_moves_agree_with_pydraughts_along_real_games(shared_data):
    """Every 80th Tinsley game (10 games, over 400 positions with kings, multi-jumps and crownings):
    at every ply our legal moves are pydraughts 0.6.7's (variant "english"), and so is the position
    after the recorded move."""
    games = read_pdn((shared_data / "checkers" / "tinsley.pdn").read_text())
    checked = 0
    for record in games[::80]:
        game, board = CheckersGame(), draughts.Board("english")
        for text in record.moves:
            theirs = {tuple(m.steps_move): m for m in board.legal_moves()}
            assert {m.route for m in game.position.legal_moves} == set(theirs), (record.tags, game.ply)
            played = game.play(text)
            board.push(theirs[tuple(int(s) for s in played.move.replace("x", "-").split("-"))])
            assert game.position == parse_fen(board.fen)
            checked += 1
    assert checked == sum(len(r.moves) for r in games[::80]) > 400


@pytest.mark.parametrize(
    "fen",
    [
        "B:W14,15,22,23:BK10",  # a king's circuit either way round
        "B:W6,7,14,15:B2",  # two routes of a man to the same square
        "B:W25,26:B23",  # crowning on a jump
        "W:WK18,K19:B14,15,22,23,K27",  # kings jumping backwards
        "B:W10,19:B6",  # a double jump
    ],
)
def test_legal_moves_agree_with_pydraughts_on_set_up_positions(fen):
    assert {m.route for m in parse_fen(fen).legal_moves} == _pydraughts_routes(draughts.Board("english", fen))


def routes(fen: str) -> list[str]:
    return [m.text for m in parse_fen(fen).legal_moves]


def test_men_move_one_square_diagonally_forward_only():
    """ACF/WCDF: a man moves one square diagonally forward; Black towards 29-32, White towards 1-4."""
    assert routes("B:W32:B15") == ["15-18", "15-19"]
    assert routes("W:W15:B1") == ["15-10", "15-11"]


def test_kings_move_in_all_four_directions():
    """ACF/WCDF: a king moves one square diagonally forward or backward."""
    assert routes("B:W32:BK15") == ["15-10", "15-11", "15-18", "15-19"]


def test_capture_is_compulsory():
    """ACF/WCDF: when a capture is available the player must capture (here only 15x24 of Black's)."""
    assert routes("B:W19,32:B1,15") == ["15x24"]


def test_any_capture_may_be_chosen_no_rule_of_the_greatest_number():
    """American checkers has no majority rule: a single jump may be chosen over a double jump."""
    assert routes("B:W10,19,14:B6,9") == ["6x15x24", "9x18"]


def test_multi_jump_is_completed():
    """ACF/WCDF: a capture sequence continues while a jump is available: 6x15 alone is not a move."""
    assert routes("B:W10,19:B6") == ["6x15x24"]


def test_crowning_ends_the_move():
    """ACF/WCDF: a man reaching the king row is crowned and the move ends, though the new king
    could jump 25 next."""
    pos = parse_fen("B:W25,26:B23")
    assert [m.text for m in pos.legal_moves] == ["23x30"]
    after = apply_move(pos, pos.legal_moves[0])
    assert after.black_kings == {30} and after.white_men == {25}


def test_a_king_already_crowned_jumps_on():
    """Only crowning stops a jump; a king continues through the crowning row."""
    assert routes("B:W25,26:BK23") == ["23x30x21"]


def test_the_start_position():
    """ACF/WCDF: Black (Red) men on 1-12, White on 21-32, Black to move."""
    start = Position.start()
    assert start.turn == "black" and start.black_men == set(range(1, 13)) and start.white_men == set(range(21, 33))
    assert start == parse_fen("B:W21-32:B1-12")
