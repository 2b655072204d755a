"""CheckersGame behind the rules interface: moves, refusals, the end of the game, flag fall, and
the draw claims of the WCDF rules as adopted by the ACF."""

from __future__ import annotations

import draughts
import pytest

from services.rules.base import Claim, Game, MoveRefused, Outcome
from services.rules.checkers_game import CheckersGame

START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def test_it_is_a_game_of_the_rules_interface():
    game = CheckersGame()
    assert isinstance(game, Game)
    assert game.variant == "checkers"
    assert game.first_side == "black"  # ACF/WCDF: Black (Red) moves first
    assert (game.fen, game.ply, game.turn, game.moves, game.sans, game.outcome) == (START_FEN, 0, "black", [], [], None)


def test_play_returns_the_played_move():
    """German Open 2004 (german_open_2004.pdn) opens 11-15 22-17 15-19 24x15."""
    game = CheckersGame()
    for move in ("11-15", "22-17", "15-19"):
        game.play(move)
    played = game.play("24x15")
    assert played.ply == 4 and played.move == "24x15" and played.san == "24x15"
    assert played.fen == "B:W15,17,21,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12"
    assert game.moves == ["11-15", "22-17", "15-19", "24x15"] and game.turn == "black"


def test_multi_jump_is_recorded_with_its_full_route_and_shown_short():
    """Issue "American checkers": move = full route (6x15x24), san = the short 6x24 when one route."""
    game = CheckersGame("B:W10,19,32:B6")
    played = game.play("6x24")
    assert (played.move, played.san) == ("6x15x24", "6x24")


def test_ambiguous_jump_is_refused_with_a_request_for_the_full_route():
    game = CheckersGame("B:W6,7,14,15,32:B2")
    with pytest.raises(MoveRefused) as err:
        game.play("2x18")
    assert "full route" in err.value.reason and "2x9x18" in err.value.reason and "2x11x18" in err.value.reason
    assert err.value.fen == game.fen and game.ply == 0
    played = game.play("2x9x18")
    assert (played.move, played.san) == ("2x9x18", "2x9x18")


@pytest.mark.parametrize("move", ["99-100", "abc", "11-", "", None, "22-18", "11-14", "12-13", "1-5"])
def test_bad_or_illegal_input_is_refused_and_loses_nothing(move):
    """CONTRIBUTING: bad input gets a clear error and loses nothing (no raw KeyError as from pydraughts)."""
    game = CheckersGame()
    game.play("11-15")
    game.play("23-18")
    before = (game.fen, game.moves, game.ply)
    with pytest.raises(MoveRefused) as err:
        game.play(move)
    assert err.value.reason and err.value.fen == before[0]
    assert (game.fen, game.moves, game.ply) == before


def test_a_capture_is_compulsory():
    """ACF/WCDF: after 11-15 24-19 Black must take 15x24."""
    game = CheckersGame()
    game.play("11-15")
    game.play("24-19")
    with pytest.raises(MoveRefused, match="compulsory"):
        game.play("9-13")
    assert game.legal_moves() == ["15x24"]


def test_a_jump_must_be_completed():
    game = CheckersGame("B:W10,19,32:B6")
    with pytest.raises(MoveRefused, match="completed"):
        game.play("6x15")


def test_crowning_ends_the_move():
    game = CheckersGame("B:W25,26,32:B23")
    with pytest.raises(MoveRefused, match="crowning ends the move"):
        game.play("23x30x21")
    assert game.play("23x30").fen == "W:W25,32:BK30"


def test_the_side_with_no_pieces_left_has_lost():
    """ACF/WCDF: a game is won by the player who makes the last move (the opponent cannot move)."""
    game = CheckersGame("B:W14:B9")
    game.play("9x18")
    assert game.outcome == Outcome("0-1", "no_legal_moves")  # venue result code: White's score first
    assert game.legal_moves() == [] and game.claimable() == []


def test_the_side_whose_pieces_are_all_blocked_has_lost():
    game = CheckersGame("W:W29:B22,25")
    assert game.outcome == Outcome("0-1", "no_legal_moves")


def test_a_move_after_the_end_is_refused():
    game = CheckersGame("B:W14:B9")
    game.play("9x18")
    with pytest.raises(MoveRefused, match="game is over"):
        game.play("18-22")
    assert game.moves == ["9x18"]


def test_flag_fall_is_a_loss():
    """11-Man National 2017, regulation X.A.b: "A player whose time expires forfeits the current game"."""
    game = CheckersGame()
    assert game.flag_fall("black") == Outcome("1-0", "time_forfeit")
    with pytest.raises(MoveRefused):
        game.play("11-15")
    other = CheckersGame("B:WK32:B1")  # even with a lone king the opponent wins on time: no 6.9-style draw
    assert other.flag_fall("black").result == "1-0"


def test_flag_fall_after_the_end_leaves_the_result():
    game = CheckersGame("B:W14:B9")
    game.play("9x18")
    assert game.flag_fall("black") == Outcome("0-1", "no_legal_moves")


def test_flag_fall_of_an_unknown_side_is_an_error():
    with pytest.raises(ValueError):
        CheckersGame().flag_fall("red")


def test_end_by_resignation_agreement_or_referee():
    """Venue result codes (services.rules.results) with the checkers terminations."""
    game = CheckersGame()
    assert game.end("1/2-1/2", "agreement") == Outcome("1/2-1/2", "agreement")
    assert game.outcome.to_json() == {"result": "1/2-1/2", "termination": "agreement"}
    with pytest.raises(ValueError):
        game.end("1-0", "resignation")  # already over
    assert CheckersGame().end("½-½", "forty_moves") == Outcome("1/2-1/2", "forty_moves")
    assert CheckersGame().end("+:-", "forfeit") == Outcome("+:-", "forfeit")


@pytest.mark.parametrize(
    "result, termination",
    [
        ("2-0", "resignation"),  # not a venue result code
        ("1-0", ""),
        ("1-0", "checkmate"),  # a chess word
        ("1/2-1/2", "resignation"),  # a decisive termination needs a win
        ("1-0", "forty_moves"),  # a drawing one needs a draw
        ("+:-", "resignation"),  # a score without play needs forfeit/arbiter
    ],
)
def test_end_refuses_what_does_not_fit(result, termination):
    game = CheckersGame()
    with pytest.raises(ValueError):
        game.end(result, termination)
    assert game.outcome is None


# -- draw claims (WCDF rules as adopted by the ACF) ---------------------------------------------

KINGS = "B:WK32:BK1"
SHUFFLE = ["1-5", "32-27", "5-1", "27-32"]


def _game(moves: list[str], fen: str = KINGS) -> CheckersGame:
    game = CheckersGame(fen)
    for move in moves:
        game.play(move)
    return game


def test_no_claim_when_the_position_has_stood_only_twice():
    """Ply 7 (White to move): the start position stood after plies 0 and 4; claiming now without a
    move is not a third repetition (the checkers form of field case F01 (a))."""
    game = _game(SHUFFLE + SHUFFLE[:3])
    assert all(c.by_move is not None for c in game.claimable())


def test_third_repetition_by_the_claimants_next_move():
    """WCDF: a player may show that with their next move they would create the same position for
    the third time (field case F01 (b) in checkers)."""
    game = _game(SHUFFLE + SHUFFLE[:3])
    assert game.claimable() == [Claim("threefold", "27-32")]
    assert game.claimable()[0].evidence == {"plies": [0, 4], "after_move_ply": 8}


def test_third_repetition_on_the_board():
    """The position after ply 8 has stood three times (plies 0, 4, 8) and the claimant has the move
    (F01 (c))."""
    claims = _game(SHUFFLE * 2).claimable()
    assert Claim("threefold", None) in claims
    assert next(c for c in claims if c.by_move is None).evidence == {"plies": [0, 4, 8]}


def test_the_claim_lapses_when_the_position_is_gone():
    """F01 (d): after 1-6 instead, the repeated position is gone."""
    game = _game(SHUFFLE * 2 + ["1-6"])
    assert game.claimable() == []


def test_positions_are_the_same_whatever_route_led_there():
    """Repetition counts positions (side to move and men/kings per colour), not moves."""
    game = _game(["1-6", "32-28", "6-1", "28-32", "1-5", "32-27", "5-1"])
    assert game.claimable() == [Claim("threefold", "27-32")]


def test_forty_move_rule():
    """WCDF: drawn when in each player's own previous 40 moves no man advanced and no piece was
    removed: claimable after 80 plies of king moves without a capture, not one ply before."""
    fen = "B:WK32,29:BK1,4"  # two kings and a blocked-free man each, so there is no repetition issue
    tour_b = ["1-5", "5-9", "9-6", "6-1"]
    tour_w = ["32-27", "27-24", "24-28", "28-32"]
    moves = [m for pair in zip(tour_b * 10, tour_w * 10) for m in pair]
    game = _game(moves[:79], fen)
    assert [c.kind for c in game.claimable() if c.kind == "forty_moves"] == []
    game.play(moves[79])
    forty = [c for c in game.claimable() if c.kind == "forty_moves"]
    assert forty == [Claim("forty_moves", None)]
    assert forty[0].evidence == {"last_irreversible_ply": 0, "halfmove_clock": 80}


def test_a_man_move_restarts_the_forty_move_count():
    fen = "B:WK32,29:BK1,4"
    game = _game(["1-5", "32-27", "4-8"], fen)
    assert game.last_irreversible_ply == 3
    game = _game(["1-5", "29-25"], fen)  # White's man advances at ply 2
    assert game.last_irreversible_ply == 2


def test_the_move_reaching_a_sensed_position():
    """Boards that only sense pieces report the placement (DESIGN.md, device protocol `position`)."""
    game = CheckersGame("B:W10,19,32:B6")
    assert game.move_reaching("W:W32:B24") == "6x15x24"
    with pytest.raises(MoveRefused):
        game.move_reaching("W:W10,19,32:B9")
    with pytest.raises(MoveRefused):
        game.move_reaching("not a fen")
    assert CheckersGame().move_reaching("W:W21-32:B1-10,12,15") == "11-15"


# -- the referee's verdict on a claim (checkers form of field case F01) --------------------------


def test_verdicts_on_repetition_claims():
    """F01 in checkers (WCDF third repetition): (a) at ply 7 without a move: incorrect (the
    position stood twice); (b) at ply 7 with 27-32: correct; (c) after 27-32, Black at ply 8
    without a move: correct; (d) after 1-6 instead: incorrect. The game is unchanged by a verdict."""
    game = _game(SHUFFLE + SHUFFLE[:3])
    a = game.claim("threefold")
    assert (a.correct, a.evidence) == (False, {"plies": [3, 7]})
    b = game.claim("threefold", "27-32")
    assert (b.correct, b.by_move, b.evidence) == (True, "27-32", {"plies": [0, 4], "after_move_ply": 8})
    assert "WCDF" in b.law and game.ply == 7
    assert game.claim("threefold", "27-23").correct is False
    game.play("27-32")
    c = game.claim("threefold")
    assert (c.correct, c.evidence) == (True, {"plies": [0, 4, 8]})
    game.play("1-6")
    assert game.claim("threefold").correct is False


def test_verdict_on_an_unplayable_intended_move_is_incorrect():
    game = _game(SHUFFLE + SHUFFLE[:3])
    verdict = game.claim("threefold", "99-100")
    assert verdict.correct is False and "cannot be played" in verdict.reason
    with pytest.raises(ValueError):
        game.claim("fifty_moves")


def test_verdicts_on_forty_move_claims():
    fen = "B:WK32,29:BK1,4"
    tour_b = ["1-5", "5-9", "9-6", "6-1"]
    tour_w = ["32-27", "27-24", "24-28", "28-32"]
    moves = [m for pair in zip(tour_b * 10, tour_w * 10) for m in pair]
    game = _game(moves[:79], fen)
    early = game.claim("forty_moves", "32-27")
    assert early.correct is False and early.evidence == {"last_irreversible_ply": 0, "halfmove_clock": 79}
    game.play(moves[79])
    assert game.claim("forty_moves").correct is True


def test_resign_and_from_moves():
    game = CheckersGame.from_moves(["11-15", "23-18"])
    assert game.resign("black") == Outcome("1-0", "resignation")
    with pytest.raises(MoveRefused):
        CheckersGame.from_moves(["11-15", "11-15"])


# -- what pydraughts 0.6.7 lacks and CheckersGame wraps (docs/checkers.md, "pydraughts gaps") -----
# Each test pins pydraughts' own answer first, so an upgrade that closes a gap shows here.


@pytest.mark.parametrize(
    "text, raw", [("99-100", KeyError), ("11-", KeyError), ("abc", ValueError), ("2x18", KeyError)]
)
def test_bad_text_raises_raw_errors_in_pydraughts_and_a_refusal_here(text, raw):
    """Issue "American checkers": pydraughts answers bad move text with a bare KeyError ('99100',
    '11', '0218') or int()'s ValueError; CheckersGame refuses it with a reason, game unchanged."""
    with pytest.raises(raw):
        draughts.Move(draughts.Board("english"), pdn_move=text)
    game = CheckersGame()
    with pytest.raises(MoveRefused) as err:
        game.play(text)
    assert text in err.value.reason and not isinstance(err.value, KeyError) and game.ply == 0


def test_a_short_ambiguous_jump_is_guessed_by_pydraughts_and_refused_here():
    """pydraughts takes "2x18" as one of the two routes (2x9x18) without a word; the ACF/WCDF
    rules and PDN 3.0 ask for the full route, and the refusal lists both."""
    fen = "B:W6,7,14,15,32:B2"
    assert draughts.Move(draughts.Board("english", fen), pdn_move="2x18").steps_move == [2, 9, 18]
    with pytest.raises(MoveRefused) as err:
        CheckersGame(fen).play("2x18")
    assert "2x9x18" in err.value.reason and "2x11x18" in err.value.reason


def test_a_third_repetition_ends_the_game_in_pydraughts_but_is_a_claim_here():
    """pydraughts' is_over()/winner() declare a draw at a third repetition (and after 40 king moves
    each); under the WCDF rules adopted by the ACF a draw is claimed and the referee decides."""
    board = draughts.Board("english", KINGS)
    for move in SHUFFLE * 2:
        board.push(draughts.Move(board, pdn_move=move))
    assert board.is_over() and board.winner() == 0
    game = _game(SHUFFLE * 2)
    assert game.outcome is None and Claim("threefold", None) in game.claimable()


def test_moves_after_the_end_are_refused_here_though_pydraughts_would_push_them():
    """pydraughts knows nothing of a resignation (or a flag fall, an agreed draw): its board takes
    the next move; CheckersGame refuses every move once the game has an outcome."""
    board = draughts.Board("english")
    board.push(board.legal_moves()[0])
    game = CheckersGame()
    game.resign("white")
    with pytest.raises(MoveRefused, match="game is over"):
        game.play("11-15")
    assert game.ply == 0 and game.legal_moves() == []


@pytest.mark.parametrize("fen", ["B:W5:B5", "B:W21,21:B1", "B:W21:B30", "B:W33:B1", "X:W1:B2"])
def test_a_bad_fen_is_taken_by_pydraughts_and_refused_here(fen):
    """pydraughts builds a board from each of these (both colours on 5, a square twice, a Black man
    on its crowning row, square 33, side "X"); CheckersGame raises a ValueError naming the FEN."""
    draughts.Board("english", fen)
    with pytest.raises(ValueError, match="FEN"):
        CheckersGame(fen)
