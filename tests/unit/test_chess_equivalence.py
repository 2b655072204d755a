"""Every real game of ../shared/data/chess (quirks/ included) replays through ChessGame.play() from
its SAN, and on every ply the venue's incremental claim states and automatic ends equal what
python-chess computes from scratch.

Compared on every ply of every game:
- the position key (9.2.2) with python-chess's ``Board._transposition_key()``;
- the threefold claim without a move with ``Board.is_repetition(3)``;
- "some fifty-move claim now or by an intended move" with ``Board.can_claim_fifty_moves()``, except
  where python-chess's open bug #1188 applies (clock 99 and every non-pawn non-capture move mates
  or stalemates: the claim is correct by FIDE Laws 9.3.1, field case F03(e)); such plies are
  checked to be exactly that and counted;
- the automatic end with ``Board.outcome()``.
Compared on every ply of the sampled games (every game ending in a threefold or fifty-move
position per special_endings_index.csv, plus every SAMPLE-th game; all games when the environment
variable VENUE_FULL_EQUIVALENCE=1): "some threefold claim now or by an intended move" with
``Board.can_claim_threefold_repetition()`` (slow: it replays history and tries every legal move)
and, on every fourth of those plies, the lazily made FEN with ``Board.fen()``.

Moves after an automatic end are not part of the game (FIDE Laws 5.2.2: a dead position ends the
game at once). Four real games record one more move after the position became dead by insufficient
material; play() refuses it ("the game has ended") and the test checks that this is what happened.
One more real game reaches a dead position that is not one of insufficient material, which
python-chess does not see: ``ORACLE_DEAD`` lists it with the verdict of Ambrona's Chess
Unwinnability Analyzer (CHA 2.6.1, built from miguel-ambrona/D3-Chess and run as an oracle:
"unwinnable" for both sides); there the venue ends the game ("dead_position") and the moves the
players went on to record are refused.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

import chess
import chess.pgn
import pytest
from chess_oracle import _RESULT, _WORDS, ORACLE_DEAD, is_bug_1188

from services.rules.base import MoveRefused
from services.rules.chess_game import ChessGame
from services.rules.chess_position import position_key

SAMPLE = 40
FULL = os.environ.get("VENUE_FULL_EQUIVALENCE") == "1"


def pgn_files(shared: Path) -> list[Path]:
    return sorted((shared / "chess").rglob("*.pgn"))


def claim_heavy_games(shared: Path) -> set[tuple[str, int]]:
    """(file name, 1-based game index) of the games ending in a threefold or fifty-move position."""
    with open(shared / "chess" / "special_endings_index.csv", encoding="utf-8") as handle:
        return {(row["file"], int(row["game_index"])) for row in csv.DictReader(handle)
                if row["categories"] in ("threefold_repetition", "fifty_move_rule")}


def replay_and_compare(game: chess.pgn.Game, deep: bool, stats: dict) -> None:
    board = game.board()
    venue = ChessGame(board.fen())
    moves = list(game.mainline_moves())
    for index, move in enumerate(moves):
        san = board.san(move)
        if venue.outcome is not None:
            # FIDE Laws 5.2.2: only a dead position has ended a real game early here.
            with pytest.raises(MoveRefused, match="the game has ended"):
                venue.play(san)
            if venue.outcome.termination == "dead_position":
                assert board.fen() in ORACLE_DEAD
                stats["dead_beyond_material"].append((game.headers.get("White"), game.headers.get("Black"), index))
                return
            assert venue.outcome.termination == "insufficient_material" and board.is_insufficient_material()
            stats["after_dead_position"].append((game.headers.get("White"), game.headers.get("Black"), index + 1))
            assert index == len(moves) - 1, "only the last recorded move comes after the end"
            return
        played = venue.play(san)
        board.push(move)
        assert played.move == move.uci() and played.san == san
        assert position_key(board) == board._transposition_key()
        found = board.outcome()
        expected = None if found is None else (_RESULT[found.winner], _WORDS[found.termination])
        got = venue.outcome
        if got is not None and expected is None and board.fen() in ORACLE_DEAD:
            assert (got.result, got.termination) == ("1/2-1/2", "dead_position")
            continue  # the next recorded move is refused above
        assert (None if got is None else (got.result, got.termination)) == expected, board.fen()
        stats["plies"] += 1
        if got is not None:
            continue
        claims = venue.claimable()
        threefold_now = any(c.kind == "threefold" and c.by_move is None for c in claims)
        assert threefold_now == board.is_repetition(3), board.fen()
        fifty_any = any(c.kind == "fifty_moves" for c in claims)
        if fifty_any != board.can_claim_fifty_moves():
            assert fifty_any and is_bug_1188(board), board.fen()
            stats["bug_1188"] += 1
        if deep:
            threefold_any = any(c.kind == "threefold" for c in claims)
            assert threefold_any == board.can_claim_threefold_repetition(), board.fen()
            if FULL or stats["deep_plies"] % 4 == 0:
                assert played.fen == board.fen()
            stats["deep_plies"] += 1
            stats["threefold_plies"] += threefold_any


def test_every_real_game_replays_with_the_same_claims_and_ends_as_python_chess(shared_data):
    """Sources: the real games of ../shared/data/chess (SOURCES.md); FIDE Laws 9.2, 9.3, 9.6, 5."""
    heavy = claim_heavy_games(shared_data)
    stats = {"games": 0, "plies": 0, "deep_plies": 0, "threefold_plies": 0, "bug_1188": 0,
             "after_dead_position": [], "dead_beyond_material": []}
    for path in pgn_files(shared_data):
        with open(path, encoding="utf-8-sig") as handle:
            number = 0
            while (game := chess.pgn.read_game(handle)) is not None:
                number += 1
                assert not game.errors, (path.name, number, game.errors)
                deep = FULL or (path.name, number) in heavy or number % SAMPLE == 0
                replay_and_compare(game, deep, stats)
                stats["games"] += 1
    # SOURCES.md: 56 + 56 + 717 + 298 games, plus 2 + 4 + 12 in quirks/.
    assert stats["games"] == 56 + 56 + 717 + 298 + 2 + 4 + 12
    assert stats["plies"] > 90_000 and stats["deep_plies"] > 8_000
    assert stats["threefold_plies"] > 100  # the sample really contains claimable positions
    # The four real games that record a move after the dead position arose (found by this test).
    assert len(stats["after_dead_position"]) == 4
    # The one real dead position beyond material (ORACLE_DEAD), ended at ply 178.
    assert [ply for _, _, ply in stats["dead_beyond_material"]] == [178]
    assert stats["bug_1188"] == 0  # no real game meets python-chess #1188 (F03(e) is constructed)
