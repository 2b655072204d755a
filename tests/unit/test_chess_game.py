"""ChessGame: moves in and out, refusals, castling, automatic ends, ends off the board.

Expected values come from ../shared/cases/field-cases.md (F02, F03, F04, F05) and the FIDE Laws of
Chess (articles named in each test)."""

from __future__ import annotations

import chess
import pytest

from services.rules.base import Game, MoveRefused, PlayedMove
from services.rules.chess_game import ChessGame
from services.rules.chess_moves import KING_TAKES_ROOK

START = chess.STARTING_FEN


def play_all(game: ChessGame, moves: str) -> None:
    for move in moves.split():
        game.play(move)


def test_chess_game_is_a_game():
    """services.rules.base: ChessGame implements the Game protocol; White moves first (FIDE Laws 1.2)."""
    game = ChessGame()
    assert isinstance(game, Game)
    assert game.variant == "chess" and game.first_side == "white" and game.turn == "white"
    assert game.fen == START and game.ply == 0 and game.moves == [] and game.outcome is None


def test_play_accepts_uci_and_san():
    """A move in UCI (e-boards) or SAN (people) is the same move: 1.e4 e5 2.Nf3 (FIDE Laws App. C)."""
    game = ChessGame()
    first = game.play("e2e4")
    second = game.play("e5")
    third = game.play("Nf3")
    assert isinstance(first, PlayedMove)
    assert [p.move for p in (first, second, third)] == ["e2e4", "e7e5", "g1f3"]
    assert game.sans == ["e4", "e5", "Nf3"]
    assert third.ply == 3 and game.turn == "black"
    assert third.fen == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert third.to_json()["given"] == "Nf3"


def test_F05a_illegal_king_jump_is_refused_and_the_position_stands():
    """F05(a): e2e4 e7e5 e1e3 is an illegal move (FIDE Laws 7.5.1); the official position stays
    rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2; the later b8c6 is not appended;
    the replacement 2.Ke2 (e1e2) is legal."""
    game = ChessGame()
    play_all(game, "e2e4 e7e5")
    official = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    with pytest.raises(MoveRefused) as refused:
        game.play("e1e3")
    assert refused.value.move == "e1e3"
    assert "e1e3" in refused.value.reason and official in refused.value.reason
    assert refused.value.fen == official
    assert game.fen == official and game.ply == 2
    with pytest.raises(MoveRefused):
        game.play("b8c6")  # Black's reply to the illegal move is not appended
    assert game.fen == official
    assert game.play("e1e2").san == "Ke2"


def test_F05b_promotion_without_the_piece_is_illegal():
    """F05(b): FEN 8/4P1k1/8/8/8/8/6K1/8 w - - 0 60, e7e8 without a piece is illegal (Laws 7.5.2);
    the pawn becomes a queen, recorded as e7e8q."""
    game = ChessGame("8/4P1k1/8/8/8/8/6K1/8 w - - 0 60")
    with pytest.raises(MoveRefused) as refused:
        game.play("e7e8")
    assert "promotion" in refused.value.reason and "e7e8q" in refused.value.reason
    assert game.ply == 0
    played = game.play("e7e8q")
    assert played.move == "e7e8q" and played.san == "e8=Q"


@pytest.mark.parametrize("text", ["", "e9e4", "xyz", "Nf6", "0000", "--", "e2e5", "Ke2"])
def test_unparsable_illegal_and_null_moves_are_refused(text):
    """FIDE Laws 7.5.1 (illegal) and the device contract ("illegal move: e2e5" in feedback): every
    bad text is refused with a reason naming it and the position; nothing changes."""
    game = ChessGame()
    with pytest.raises(MoveRefused) as refused:
        game.play(text)
    assert START in refused.value.reason and refused.value.fen == START
    assert game.ply == 0 and game.fen == START


def test_non_string_move_is_refused():
    """Bad input gets a clear error (docs/CONTRIBUTING.md): a number is not a move."""
    with pytest.raises(MoveRefused):
        ChessGame().play(1234)  # type: ignore[arg-type]


def test_F02A_a_wandering_rook_does_not_lose_the_other_rooks_castling_right():
    """F02(A): a2a4 e7e6 a1a3 d7d6 a3h3 c7c6 h3a3 leaves castling field Kkq (Laws 3.8.2)."""
    game = ChessGame()
    play_all(game, "a2a4 e7e6 a1a3 d7d6 a3h3 c7c6 h3a3")
    assert game.fen.split()[2] == "Kkq"


def test_F02B_rook_e1g1_is_an_ordinary_rook_move():
    """F02(B): FEN 8/5k2/8/8/8/8/5K2/4R3 w - - 0 1, e1g1 is Rg1, not castling (king on f2)."""
    played = ChessGame("8/5k2/8/8/8/8/5K2/4R3 w - - 0 1").play("e1g1")
    assert played.san == "Rg1" and played.move == "e1g1" and played.note is None


def test_F02_king_takes_rook_is_castling_and_noted():
    """F02 note: with the king on e1, e1h1 reads as O-O (python-chess: parse_uci('e1h1') -> e1g1);
    the product logs that it was given as king-takes-rook. Same for O-O-O by e1a1."""
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    short = ChessGame(fen).play("e1h1")
    assert (short.move, short.san, short.note, short.given) == ("e1g1", "O-O", KING_TAKES_ROOK, "e1h1")
    long = ChessGame(fen).play("e1a1")
    assert (long.move, long.san, long.note) == ("e1c1", "O-O-O", KING_TAKES_ROOK)
    plain = ChessGame(fen).play("e1g1")
    assert (plain.san, plain.note) == ("O-O", None)


def test_a_castling_sent_with_a_promotion_letter_is_recorded_as_the_castling_played():
    """python-chess reads "e1g1q" with the king on e1 as castling (parse_uci drops the letter, as it
    turns e1h1 into e1g1: F02); the log's ``move`` must be the move played, UCI "e1g1" (FIDE Laws
    3.8.2: castling is a move of the king two squares), not the text. Found by the hypothesis test
    of chess_ply in a real game's position (test_chess_ply_oracle.py); the gateway recorded "e1g1q"."""
    played = ChessGame("r1bqkb1r/pp1n1ppp/3p1n2/1B2p3/3NP3/2N5/PPP2PPP/R1BQK2R w KQkq - 2 7").play("e1g1q")
    assert (played.move, played.san) == ("e1g1", "O-O")


def test_F03c_mate_on_the_move_completing_75_moves_is_checkmate():
    """F03(c): FEN k7/8/1K6/8/8/8/8/7R w - - 149 120, h1h8 is checkmate, 1-0 (Laws 9.6.2)."""
    game = ChessGame("k7/8/1K6/8/8/8/8/7R w - - 149 120")
    game.play("h1h8")
    assert game.outcome.to_json() == {"result": "1-0", "termination": "checkmate"}


def test_F03d_seventyfive_moves_ends_the_game_without_a_claim():
    """F03(d): same FEN, h1h2: automatic draw (Laws 9.6.2); no further move is accepted."""
    game = ChessGame("k7/8/1K6/8/8/8/8/7R w - - 149 120")
    game.play("h1h2")
    assert game.outcome.to_json() == {"result": "1/2-1/2", "termination": "seventyfive_moves"}
    assert game.claimable() == []
    with pytest.raises(MoveRefused) as refused:
        game.play("a8b8")
    assert "ended" in refused.value.reason


def test_fivefold_repetition_ends_the_game():
    """FIDE Laws 9.6.1: the start position standing for the fifth time (after 16 plies of knight
    shuffles g1f3 g8f6 f3g1 f6g8) ends the game, drawn."""
    game = ChessGame()
    for _ in range(3):
        play_all(game, "g1f3 g8f6 f3g1 f6g8")
    play_all(game, "g1f3 g8f6 f3g1")
    assert game.outcome is None
    game.play("f6g8")
    assert game.outcome.to_json() == {"result": "1/2-1/2", "termination": "fivefold_repetition"}


def test_checkmate_and_stalemate_end_the_game():
    """FIDE Laws 5.1.1 (fool's mate 1.f3 e5 2.g4 Qh4#, 0-1) and 5.2.1 (stalemate: in
    7k/8/6K1/8/8/8/8/5Q2 w, Qf7 leaves Black without a legal move and not in check)."""
    mate = ChessGame()
    play_all(mate, "f2f3 e7e5 g2g4")
    assert mate.play("d8h4").san == "Qh4#"
    assert mate.outcome.to_json() == {"result": "0-1", "termination": "checkmate"}
    stale = ChessGame("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    stale.play("f1f7")
    assert stale.outcome.to_json() == {"result": "1/2-1/2", "termination": "stalemate"}


def test_dead_position_by_insufficient_material_ends_the_game():
    """FIDE Laws 5.2.2: K+B v K is a dead position, drawn at once (the final position of the real
    game Nakamura-Gukesh, Candidates 2024 round 14, before its last move); K+B v K+R and K+R v K are not."""
    game = ChessGame("8/8/8/3k4/8/3Kb3/8/8 w - - 0 71")
    assert game.outcome.termination == "insufficient_material"  # already dead at the start
    live = ChessGame("8/8/8/3k4/8/3Kb3/8/7R b - - 0 71")
    live.play("e3h6")  # Bh6 leaves K+B v K+R: not dead
    assert live.outcome is None
    live.play("h1h6")  # Rxh6: K+R v K, White can still mate
    assert live.outcome is None


@pytest.mark.parametrize("turn", ["w", "b"])
def test_F04a_flag_fall_against_knight_and_pawn_is_a_loss(turn):
    """F04(a): Black's flag falls in 8/8/8/4k3/4p3/4N3/4K3/8 (K+N v K+P), either side to move:
    1-0, a mating line exists (Laws 6.9)."""
    game = ChessGame(f"8/8/8/4k3/4p3/4N3/4K3/8 {turn} - - 0 1")
    assert game.flag_fall("black").to_json() == {"result": "1-0", "termination": "time_forfeit"}


def test_F04a_mating_line_is_legal():
    """F04(a): the mating sequence quoted in the case replays legally and ends in mate."""
    line = ("Kd2 Kf4 Nc4 e3+ Kd3 e2 Nd2 e1=R Kd4 Kg3 Kd3 Kh2 Kd4 Kh1 Ne4 Rg1 Ke3 Rd1 Kf3 Re1 "
            "Kg3 Rf1 Kh3 Rg1 Nf2#")
    game = ChessGame.from_moves(line.split(), "8/8/8/4k3/4p3/4N3/4K3/8 w - - 0 1")
    assert game.outcome.to_json() == {"result": "1-0", "termination": "checkmate"}


def test_F04b_flag_fall_against_a_lone_knight_is_a_draw():
    """F04(b): Black's flag falls in 8/8/8/4k3/8/4N3/4K3/8 (K+N v K): ½-½ (Laws 6.9). The position
    is also dead (5.2.2), so the game had ended drawn already; the result is the same."""
    game = ChessGame("8/8/8/4k3/8/4N3/4K3/8 w - - 0 1")
    assert game.flag_fall("black").result == "1/2-1/2"


def test_flag_fall_when_the_opponent_has_only_a_king_is_a_draw():
    """FIDE Laws 6.9: White (K+R) loses on time to a bare king: drawn, the bare king cannot mate."""
    game = ChessGame("8/8/8/4k3/8/8/4K3/7R w - - 0 1")
    assert game.flag_fall("white").to_json() == {"result": "1/2-1/2", "termination": "time_forfeit"}
    assert ChessGame("8/8/8/4k3/8/8/4K3/7R w - - 0 1").flag_fall("black").result == "1-0"


def test_end_resign_and_bad_ends():
    """FIDE Laws 5.1.2 (resignation), 5.2.3 (agreement): ended off the board; a second end and
    inconsistent pairs are refused (ValueError); moves after the end are refused."""
    game = ChessGame()
    game.play("e2e4")
    assert game.resign("black").to_json() == {"result": "1-0", "termination": "resignation"}
    with pytest.raises(ValueError):
        game.end("1/2-1/2", "agreement")
    with pytest.raises(MoveRefused):
        game.play("e7e5")
    assert ChessGame().end("1/2-1/2", "agreement").result == "1/2-1/2"
    with pytest.raises(ValueError):
        ChessGame().end("1-0", "agreement")
    with pytest.raises(ValueError):
        ChessGame().end("2-0", "resignation")
    with pytest.raises(ValueError):
        ChessGame().end("1-0", "bored")
    with pytest.raises(ValueError):
        ChessGame().flag_fall("red")


def test_bad_fen_is_refused():
    """Bad input gets a clear error: an unreadable FEN and an impossible position (two kings of one
    side) raise ValueError."""
    with pytest.raises(ValueError):
        ChessGame("not a fen")
    with pytest.raises(ValueError):
        ChessGame("k7/8/8/8/8/8/8/KK6 w - - 0 1")


def test_from_moves_and_copies():
    """ChessGame.from_moves replays; moves/sans/played/board are copies (state cannot leak)."""
    game = ChessGame.from_moves(["e2e4", "c5", "Nf3"])
    game.moves.append("junk")
    game.sans.clear()
    assert game.moves == ["e2e4", "c7c5", "g1f3"] and game.sans == ["e4", "c5", "Nf3"]
    assert [p.ply for p in game.played] == [1, 2, 3]
    assert game.board.fen() == game.fen
