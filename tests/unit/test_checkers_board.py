"""The rules of play through CheckersGame, with pydraughts (0.6.7, variant "english") as the engine:
perft from the start, each rule of play (ACF/WCDF rules of American checkers) on a small position,
and the thin layer over pydraughts (canonical positions, the legal-move cache, the king-step look
ahead of the repetition claims)."""

from __future__ import annotations

import draughts
import pytest

from services.rules import checkers_board
from services.rules.checkers_board import Position, apply_move, legal_moves, new_board, position_of
from services.rules.checkers_game import CheckersGame
from services.rules.checkers_notation import parse_fen
from services.rules.checkers_pdn import read_pdn

# Published perft of English/American checkers from the start (the brief of issue "American
# checkers"; the same table is given for checkers move generators, e.g. Aart Bik's perft for
# checkers). Depth 5 costs ~15-20 s through pydraughts; the issue asks for it in the test suite.
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361}


def perft(game: CheckersGame, depth: int) -> int:
    """Leaf count through CheckersGame only: a game per node, set up from its parent's FEN."""
    if depth == 1:
        return len(game.legal_moves())
    total = 0
    for move in game.legal_moves():
        child = CheckersGame(game.fen)
        child.play(move)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_the_start_via_checkers_game(depth):
    assert perft(CheckersGame(), depth) == PERFT[depth]


def routes(fen: str) -> list[str]:
    return CheckersGame(fen).legal_moves()


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
    game = CheckersGame("B:W25,26:B23")
    assert game.legal_moves() == ["23x30"]
    game.play("23x30")
    assert game.position.black_kings == {30} and game.position.white_men == {25}


def test_a_king_already_crowned_jumps_on():
    """Only crowning stops a jump; a king continues through the crowning row."""
    assert routes("B:W25,26:BK23") == ["23x30x21"]


def test_a_king_may_run_a_circuit_back_to_its_square():
    """The square a king left is empty for the rest of its jump: 10x17x26x19x10 and its reverse
    take the same four men."""
    assert routes("B:W14,15,22,23:BK10") == ["10x17x26x19x10", "10x19x26x17x10"]


def test_the_start_position():
    """ACF/WCDF: Black (Red) men on 1-12, White on 21-32, Black to move."""
    start = CheckersGame().position
    assert start == Position.start() == parse_fen("B:W21-32:B1-12")
    assert start.turn == "black" and start.black_men == set(range(1, 13)) and start.white_men == set(range(21, 33))
    assert position_of(draughts.Board("english")) == start


# -- the layer over pydraughts ------------------------------------------------------------------


def test_positions_are_canonical_whatever_pydraughts_square_order():
    """pydraughts 0.6.7 writes its FEN squares in string order ("B1,10,11,12,2,..."); the key and
    the FEN we show are sorted (WCDF "the same position" = side to move + men/kings per colour)."""
    board = draughts.Board("english")
    assert board.fen.endswith(":B1,10,11,12,2,3,4,5,6,7,8,9")
    assert position_of(board).fen == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    kings = draughts.Board("english", "W:WK3,21:B5,K30")
    assert position_of(kings) == parse_fen("W:W21,K3:BK30,5")


def test_legal_moves_are_pydraughts_own_with_their_routes_and_captures():
    """Each legal move is one of pydraughts' Move objects, described by its full route
    (``steps_move``) and captured squares (``captures``); the list is sorted by route."""
    pos = parse_fen("B:W6,7,14,15:B2")
    board = new_board(pos)
    ours = legal_moves(pos, board)
    theirs = {tuple(m.steps_move): tuple(m.captures) for m in board.legal_moves()}
    assert [(m.route, m.captured) for m in ours] == sorted(theirs.items())
    assert all(isinstance(m.engine, draughts.Move) for m in ours)
    assert [(m.man, m.crowns) for m in ours] == [(True, False), (True, False)]


def test_the_cache_gives_what_pydraughts_gives(shared_data):
    """Legal moves cached per position answer as a fresh pydraughts board does, along a real game
    (tinsley.pdn game 1)."""
    record = read_pdn((shared_data / "checkers" / "tinsley.pdn").read_text())[0]
    game = CheckersGame()
    for text in record.moves[:30]:
        pos = game.position
        cached = [m.route for m in legal_moves(pos)]
        assert cached == sorted(tuple(m.steps_move) for m in draughts.Board("english", pos.fen).legal_moves())
        game.play(text)


def test_the_king_step_look_ahead_is_what_pydraughts_plays(shared_data):
    """Repetition claims look one king step ahead without a pydraughts board
    (``Position.after_king_step``); along the king endings of real games (tinsley.pdn games with
    kings) each such step leads where pydraughts' push leads."""
    records = read_pdn((shared_data / "checkers" / "tinsley.pdn").read_text())
    checked = 0
    for record in (records[1], records[4]):  # two drawn king endings of the 1946 US National
        game = CheckersGame()
        for text in record.moves:
            pos = game.position
            for move in legal_moves(pos):
                if not move.irreversible:
                    board = new_board(pos)
                    board.push(move.engine)
                    assert pos.after_king_step(move) == position_of(board) == apply_move(pos, move)
                    checked += 1
            game.play(text)
    assert checked >= 20
    with pytest.raises(ValueError):
        Position.start().after_king_step(legal_moves(Position.start())[0])  # a man's move


def test_apply_move_plays_captures_and_crowning_through_pydraughts():
    pos = parse_fen("B:W25,26:B23")
    (move,) = legal_moves(pos)
    assert apply_move(pos, move) == parse_fen("W:W25:BK30")


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(checkers_board, "CACHE_SIZE", 2)
    checkers_board.clear_cache()
    for fen in ("B:W32:B15", "W:W15:B1", "B:W32:BK15"):
        legal_moves(parse_fen(fen))
    assert list(checkers_board._CACHE) == [parse_fen("W:W15:B1"), parse_fen("B:W32:BK15")]
    checkers_board.clear_cache()
