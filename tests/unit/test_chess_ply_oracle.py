"""The rules core's own reading of a plain-UCI ply (``services.rules.chess_ply.play_plain_uci``, used
by ``ChessGame.play``) against python-chess as the oracle: legal or not (``Board.parse_uci``, FIDE
Laws 3, 7.5.1), the move, its SAN byte for byte (``Board.san``: Appendix C, ``+``/``#``), the FEN
(``Board.fen``) and the automatic end (``Board.outcome``, 5.1.1, 5.2).

- Every ply of every real game of ../shared/data/chess (SOURCES.md; quirks/ included) played as UCI
  through ``ChessGame.play`` (test_chess_equivalence.py plays them as SAN, which takes
  python-chess's path).
- In the positions of every ``SAMPLE``-th real game: every legal move (castling in both notations),
  every pseudo-legal move (illegal ones: pins, checks) and random texts from the mover's men
  (blocked lines, wrong promotions); a tally shows each kind of ply the fast path settles
  (disambiguation by file, rank and both, promotions and under-promotions, checks, mates, captures)
  and each kind it must hand back (castling, en passant, moves out of check, pins, double checks).
- hypothesis: random games from real positions (positions of the real games where python-chess
  finds en passant, castling both ways, promotions, under-promotions, a double check, a mate, a
  stalemate, disambiguation), with legal and illegal texts; a refused text gets the refusal
  ``chess_moves.parse_move`` words (the reason the game gave before the fast path).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import chess
import chess.pgn
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from chess_oracle import _RESULT, _WORDS, ORACLE_DEAD

from services.rules.base import MoveRefused
from services.rules.chess_game import ChessGame
from services.rules.chess_moves import parse_move
from services.rules.chess_ply import play_plain_uci

SAMPLE = 40
RANDOM_TEXTS = 16
_DISAMBIGUATED = re.compile(r"^[NBRQK]([a-h]?)([1-8]?)x?[a-h][1-8]")


def real_games(shared) -> list[tuple[str, int, str, list[chess.Move]]]:
    """(file name, 1-based game index, start FEN, moves) of every real game with moves."""
    out = []
    for path in sorted((shared / "chess").rglob("*.pgn")):
        with open(path, encoding="utf-8-sig") as handle:
            index = 0
            while (game := chess.pgn.read_game(handle)) is not None:
                index += 1
                moves = list(game.mainline_moves())
                if moves:
                    out.append((path.name, index, game.board().fen(), moves))
    return out


def oracle_outcome(board: chess.Board) -> tuple[str, str] | None:
    found = board.outcome()
    return None if found is None else (_RESULT[found.winner], _WORDS[found.termination])


def check_outcome(game: ChessGame, board: chess.Board) -> None:
    got = None if game.outcome is None else (game.outcome.result, game.outcome.termination)
    expected = oracle_outcome(board)
    if got == ("1/2-1/2", "dead_position") and expected is None:
        return  # a dead position python-chess does not see (5.2.2): test_chess_equivalence's ORACLE_DEAD
    assert got == expected, board.fen()


def test_every_real_ply_played_as_uci_is_python_chess_ply(shared_data):
    plies, ended = 0, 0
    for name, index, start, moves in real_games(shared_data):
        game, board = ChessGame(start), chess.Board(start)
        for ply, move in enumerate(moves):
            if game.outcome is not None:
                # Moves recorded after an automatic end (test_chess_equivalence.py) are refused.
                with pytest.raises(MoveRefused, match="the game has ended"):
                    game.play(move.uci())
                assert game.outcome.termination in ("insufficient_material", "dead_position")
                ended += 1
                break
            san = board.san(move)
            played = game.play(move.uci())
            board.push(move)
            assert (played.move, played.san) == (move.uci(), san), (name, index, ply)
            if game.outcome is not None and game.outcome.termination == "dead_position":
                assert board.fen() in ORACLE_DEAD
            check_outcome(game, board)
            if ply % 7 == 0:
                assert played.fen == board.fen(), (name, index, ply)
            plies += 1
        assert game.fen == board.fen() and game.board.move_stack == board.move_stack, (name, index)
    assert plies > 90_000  # ~96,600 plies (SOURCES.md: the four big files and quirks/)
    assert ended == 5  # four moves after insufficient material, one after ORACLE_DEAD


def _texts(board: chess.Board, rng: random.Random) -> list[str]:
    """Legal moves (castling also as king-takes-rook), pseudo-legal ones and random texts from the
    mover's men: to any square, with any promotion letter or none."""
    texts = [move.uci() for move in board.legal_moves]
    texts += [board.uci(move, chess960=True) for move in board.generate_castling_moves()]
    texts += [move.uci() for move in board.generate_pseudo_legal_moves()]
    own = list(chess.SquareSet(board.occupied_co[board.turn]))
    for _ in range(RANDOM_TEXTS):
        origin, target = rng.choice(own), rng.randrange(64)
        if origin != target:
            texts.append(chess.square_name(origin) + chess.square_name(target)
                         + rng.choice(["", "", "", "q", "r", "b", "n", "k", "p", "Q"]))
    return texts


def compare(board: chess.Board, text: str, tally: Counter) -> None:
    """``play_plain_uci`` on ``text`` against python-chess; ``board`` is left as it was."""
    try:
        expected = board.parse_uci(text)
    except ValueError:
        expected = None
    before, depth = board.copy(stack=False), len(board.move_stack)
    in_check = board.is_check()
    got = play_plain_uci(board, text, in_check)
    if got is None:
        assert board == before and len(board.move_stack) == depth, text
        if expected is not None:  # handed back to python-chess
            kind = ("castling" if board.is_castling(expected) else "en_passant" if board.is_en_passant(expected)
                    else "in_check" if in_check else "other")
            tally["handed_back_" + kind] += 1
        else:
            try:
                pinned = not in_check and board.is_pseudo_legal(chess.Move.from_uci(text))
            except ValueError:
                pinned = False
            tally["refused_pinned" if pinned else "refused"] += 1
        return
    move, san = got
    assert expected is not None, f"{text} is illegal in {before.fen()}"
    assert board.move_stack[-1] == move == expected
    board.pop()
    assert board == before
    assert san == board.san(expected), (text, board.fen())
    tally["settled"] += 1
    if (found := _DISAMBIGUATED.match(san)) and (found.group(1) or found.group(2)):
        tally["disambiguated_" + ("file" if found.group(1) else "") + ("rank" if found.group(2) else "")] += 1
    if "=" in san:
        tally["promotion_" + san[san.index("=") + 1]] += 1
    tally["check" if san.endswith("+") else "mate" if san.endswith("#") else "quiet"] += 1
    if "x" in san:
        tally["capture"] += 1
    piece = board.piece_type_at(move.from_square)
    rivals = board.attackers_mask(board.turn, move.to_square) & board.pieces_mask(piece, board.turn)
    if piece not in (chess.PAWN, chess.KING) and rivals & ~chess.BB_SQUARES[move.from_square] \
            and not (found and (found.group(1) or found.group(2))):
        tally["rival_pinned"] += 1  # another such piece reaches the square but is pinned: no disambiguation


def test_every_text_in_sampled_real_positions_is_judged_as_python_chess(shared_data):
    rng = random.Random(3)
    tally: Counter = Counter()
    for _, _, start, moves in real_games(shared_data)[::SAMPLE]:
        board = chess.Board(start)
        for move in moves:
            if checkers := board.checkers_mask():
                tally["double_check" if chess.popcount(checkers) == 2 else "single_check"] += 1
            for text in _texts(board, rng):
                compare(board, text, tally)
            board.push(move)
    # What the sweep went through (counts from this seed; each must be there for the test to mean it).
    for kind in ("settled", "disambiguated_file", "disambiguated_rank", "rival_pinned", "promotion_Q",
                 "promotion_R", "promotion_B", "promotion_N", "check", "mate",
                 "capture", "handed_back_castling", "handed_back_en_passant", "handed_back_in_check",
                 "refused_pinned", "refused", "double_check"):
        assert tally[kind] > 0, (kind, tally)
    handed_back = sum(count for kind, count in tally.items() if kind.startswith("handed_back"))
    assert tally["settled"] > 0.9 * (tally["settled"] + handed_back), tally  # ~97%: else it would not pay


# Start positions of the random games: the standard start, and the first real position (games in
# SOURCES.md's files, file order) where python-chess finds each kind of ply among the legal moves
# ("ply N": after the game's first N plies).
STARTS = [
    chess.STARTING_FEN,
    # fide_candidates_2024_open.pgn game 1 ply 12: O-O (e1g1 / e1h1)
    "r1bqkb1r/pp1n1ppp/3p1n2/1B2p3/3NP3/2N5/PPP2PPP/R1BQK2R w KQkq - 2 7",
    # game 3 ply 35: O-O-O (e8c8 / e8a8)
    "r3k2r/2p2ppp/p1n1n3/1p1pP3/6Rq/2P2P2/PPB2P1P/R1N1Q2K b kq - 2 18",
    # game 1 ply 6: Nfd2 (disambiguation by file)
    "rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4",
    # game 1 ply 48: R5d4 (by rank)
    "5rk1/5ppp/Q7/3R4/7q/1Bb5/P1P2rPP/3R2K1 w - - 1 25",
    # game 3 ply 40: exf6 en passant
    "r4rk1/2p3pp/p1n1n3/1p1pPp1q/6R1/2PN1P2/PPB1QP1P/R6K w - f6 0 21",
    # game 14 ply 70: e8=Q, e8=R, e8=B, e8=N
    "8/1kpbP3/8/1ppn2BN/p7/PrP2K2/1P6/4R3 w - - 1 36",
    # fide_candidates_2024_women.pgn game 17 ply 111: Black in double check
    "5Q2/1R4k1/1P6/5p2/3K4/7p/8/1r6 b - - 0 56",
    # fide_world_cup_2025.pgn game 1 ply 33: Qd1#
    "r2qr1k1/ppp3pp/8/2b1nBQ1/7P/2P3P1/PP2NP2/RNB2K1b b - - 2 17",
    # game 375 ply 128: Kxe4 stalemates
    "2Q1R3/8/3k4/8/4r3/4K1P1/5P2/8 w - - 1 65",
]
# Disambiguation in SAN with the expected text from its source. FIDE Laws Appendix C.10.3 examples
# (white king and black king placed away from the knights to make a legal position): knights g1
# and e1 to f3 "Ngf3"; g5 and g1 "N5f3"; h2 and d4 "Nhf3". Wikipedia, "Algebraic notation (chess)",
# Disambiguating moves (kings added likewise): queens on e4, h4 and h1, the h4 queen to e1 "Qh4e1";
# rooks on d8 and h8, the d8 rook to f8 "Rdf8"; rooks on a1 and a5, the a1 rook to a3 "R1a3".
SOURCED_SANS = [
    ("7k/8/8/8/8/8/8/K3N1N1 w - - 0 1", "g1f3", "Ngf3"),
    ("7k/8/8/6N1/8/8/8/K5N1 w - - 0 1", "g5f3", "N5f3"),
    ("7k/8/8/8/3N4/8/7N/K7 w - - 0 1", "h2f3", "Nhf3"),
    ("8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Qh4e1"),
    ("3R3R/8/8/8/8/8/8/K1k5 w - - 0 1", "d8f8", "Rdf8"),
    ("7k/8/8/R7/8/8/8/R6K w - - 0 1", "a1a3", "R1a3"),
]


@pytest.mark.parametrize("fen, uci, san", SOURCED_SANS)
def test_disambiguation_as_appendix_c_and_wikipedia_write_it(fen, uci, san):
    board = chess.Board(fen)
    assert board.san(chess.Move.from_uci(uci)) == san  # python-chess, the oracle, agrees with the source
    assert play_plain_uci(board, uci, False) == (chess.Move.from_uci(uci), san)
    assert ChessGame(fen).play(uci).san == san


def play_and_compare(game: ChessGame, board: chess.Board, text: str) -> None:
    """One text through ``ChessGame.play`` against python-chess on the same position."""
    try:
        expected = board.parse_uci(text)
    except ValueError:
        expected = None
    if not expected:
        with pytest.raises(MoveRefused) as refused:
            game.play(text)
        with pytest.raises(MoveRefused) as worded:
            parse_move(board, text)
        assert refused.value.reason == worded.value.reason
        assert game.fen == board.fen()
        event("refused")
        return
    san = board.san(expected)
    en_passant = board.is_en_passant(expected)
    board.push(expected)
    played = game.play(text)
    assert (played.move, played.san, played.fen, game.fen) == (expected.uci(), san, board.fen(), board.fen())
    check_outcome(game, board)
    event("played " + ("castling" if "O-O" in san else "check" if san[-1] in "+#" else "move"))
    for kind, seen in (("promotion", "=" in san), ("en passant", en_passant), ("mate", san[-1] == "#"),
                       ("stalemate", board.is_stalemate())):
        if seen:
            event("played " + kind)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_and_illegal_texts_from_real_positions(data):
    start = data.draw(st.sampled_from(STARTS + [fen for fen, _, _ in SOURCED_SANS]), label="start")
    game, board = ChessGame(start), chess.Board(start)
    for _ in range(data.draw(st.integers(1, 40), label="plies")):
        if game.outcome is not None:
            with pytest.raises(MoveRefused, match="the game has ended"):
                game.play(data.draw(st.sampled_from(["e2e4", "a1a2", "Kd2"])))
            break
        legal = list(board.legal_moves)
        if data.draw(st.integers(0, 3)) == 0:
            own = list(chess.SquareSet(board.occupied_co[board.turn]))
            origin = data.draw(st.sampled_from(own))
            target = data.draw(st.integers(0, 62))
            target += target >= origin  # any square but the origin
            promotion = data.draw(st.sampled_from(["", "q", "r", "b", "n", "k"]))
            play_and_compare(game, board, chess.square_name(origin) + chess.square_name(target) + promotion)
            continue
        special = [m for m in legal if m.promotion or board.is_en_passant(m) or board.is_castling(m)]
        move = data.draw(st.sampled_from(special if special and data.draw(st.booleans()) else legal))
        text = move.uci()
        if board.is_castling(move) and data.draw(st.booleans()):
            text = board.uci(move, chess960=True)  # king takes rook (F02)
        play_and_compare(game, board, text)
