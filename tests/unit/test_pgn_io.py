"""services.rules.pgn_io: PGN out with the Seven Tag Roster, TimeControl, Termination and
``[%clk h:mm:ss]`` per move; PGN in with clocks in ms, for replay.

Sources: PGN standard 8.1.1 (Seven Tag Roster, in that order), 9.6.1 (TimeControl), 9.8.1
(Termination); the real games of ../shared/data/chess (SOURCES.md: clock on every move of the
Candidates files; quirks/ clocks that python-chess cannot read)."""

from __future__ import annotations

import chess.pgn
import pytest

from services.rules.chess_game import ChessGame
from services.rules.pgn_io import (
    SEVEN_TAG_ROSTER, game_to_pgn, read_pgn, read_pgn_file, write_pgn, write_pgn_games,
)


def test_write_pgn_has_roster_time_control_termination_and_clocks():
    """PGN 8.1.1 roster in order with "?" defaults; TimeControl "5400+30"; Termination; clocks in
    ms written as [%clk h:mm:ss] after every move (7196000 ms = 1:59:56, floored to seconds)."""
    text = write_pgn(["e2e4", "c7c5", "g1f3"], tags={"Event": "Candidates", "White": "Caruana, Fabiano"},
                     result="1-0", termination="resignation", clocks_ms=[7196000, 7190999, 7191000],
                     time_control="5400+30")
    lines = text.splitlines()
    tag_names = [line.split()[0][1:] for line in lines if line.startswith("[")]
    assert tag_names[:7] == list(SEVEN_TAG_ROSTER)
    assert '[Site "?"]' in lines and '[Date "????.??.??"]' in lines and '[Result "1-0"]' in lines
    assert '[TimeControl "5400+30"]' in lines and '[Termination "normal"]' in lines
    movetext = " ".join(text.split())  # python-chess wraps lines at 80 columns
    assert "1. e4 { [%clk 1:59:56] } 1... c5 { [%clk 1:59:50] } 2. Nf3 { [%clk 1:59:51] } 1-0" in movetext
    game = next(read_pgn(text))
    assert game.clocks_ms == [7196000, 7190000, 7191000] and game.result == "1-0"


def test_special_scores_and_forfeits_in_pgn():
    """PGN has only 1-0, 0-1, 1/2-1/2, *: a forfeit win is 1-0 with Termination "rules
    infraction"; 0-0 and ½-0 are written "*"; a flag fall is "time forfeit"."""
    assert '[Result "1-0"]' in write_pgn([], result="+:-", termination="forfeit")
    assert '[Termination "rules infraction"]' in write_pgn([], result="+:-", termination="forfeit")
    assert '[Result "*"]' in write_pgn(["e2e4"], result="1/2-0", termination="arbiter")
    assert '[Termination "time forfeit"]' in write_pgn(["e2e4"], result="0-1", termination="time_forfeit")


def test_write_pgn_refuses_bad_input():
    """Bad input gets a clear error: an illegal move (F05: e1e3 after 1.e4 e5) names the ply; clock
    counts must match the moves."""
    with pytest.raises(ValueError, match="ply 3"):
        write_pgn(["e2e4", "e7e5", "e1e3"])
    with pytest.raises(ValueError):
        write_pgn(["e2e4"], clocks_ms=[1, 2])
    with pytest.raises(ValueError):
        write_pgn(["e2e4"], result="2-0")


def test_game_to_pgn_from_a_fen_start():
    """A game from a FEN (F03(c): k7/8/1K6/8/8/8/8/7R w - - 149 120, h1h8 mates) carries SetUp/FEN,
    the result 1-0 and reads back to the same moves."""
    game = ChessGame("k7/8/1K6/8/8/8/8/7R w - - 149 120")
    game.play("h1h8")
    text = game_to_pgn(game, clocks_ms=[60000])
    back = next(read_pgn(text))
    assert back.start_fen == "k7/8/1K6/8/8/8/8/7R w - - 149 120"
    assert back.moves == ["h1h8"] and back.result == "1-0" and back.clocks_ms == [60000]
    assert "120. Rh8# { [%clk 0:01:00] } 1-0" in " ".join(text.split())


def test_real_games_round_trip_with_clocks(shared_data):
    """The Candidates 2024 files (SOURCES.md: 56 games each, a clock on every move): read, write
    back, read again: same tags, moves, clocks (ms) and results; each replays with ChessGame."""
    for name in ("fide_candidates_2024_open.pgn", "fide_candidates_2024_women.pgn"):
        games = read_pgn_file(shared_data / "chess" / name)
        assert len(games) == 56
        texts = []
        for game in games:
            assert game.errors == [] and len(game.clocks_ms) == len(game.moves)
            assert all(ms is not None for ms in game.clocks_ms)
            texts.append(write_pgn(game.moves, tags=game.tags, result=game.result, clocks_ms=game.clocks_ms))
        again = list(read_pgn(write_pgn_games(texts)))
        assert [(g.tags, g.moves, g.clocks_ms, g.result) for g in again] == \
            [(g.tags, g.moves, g.clocks_ms, g.result) for g in games]
    first = read_pgn_file(shared_data / "chess" / "fide_candidates_2024_open.pgn")[0]
    assert first.clocks_ms[0] == 7196000  # SOURCES.md: first-move clock about 2:00:00
    assert ChessGame.from_moves(first.moves).ply == len(first.moves)


def test_lichess_file_counts(shared_data):
    """lichess_2017-05.pgn (SOURCES.md): 298 games, 292 with %clk, 5 with result "*", 1 without
    moves."""
    games = read_pgn_file(shared_data / "chess" / "lichess_2017-05.pgn")
    assert len(games) == 298
    assert sum(1 for g in games if any(ms is not None for ms in g.clocks_ms)) == 292
    assert sum(1 for g in games if g.result == "*") == 5
    assert sum(1 for g in games if not g.moves) == 1


def test_quirky_dgt_clocks_read_as_absent(shared_data):
    """quirks/ (SOURCES.md): dgt.pgn (2 games) and demoLiveGames.pgn (4) write clocks as
    [%clk 1:30] / [%clk 0:10.12], which are not h:mm:ss: read as None, moves still read;
    the LiveChess sample (12 games) has h:mm:ss clocks, 8 on every move."""
    for name, count in (("dgt.pgn", 2), ("demoLiveGames.pgn", 4)):
        games = read_pgn_file(shared_data / "chess" / "quirks" / name)
        assert len(games) == count
        assert all(ms is None for g in games for ms in g.clocks_ms)
        assert all(g.moves for g in games)
    live = read_pgn_file(shared_data / "chess" / "quirks" / "dgt_livechess_sample_invitational_2023.pgn")
    assert len(live) == 12
    assert sum(1 for g in live if g.moves and all(ms is not None for ms in g.clocks_ms)) == 8


def test_reader_matches_python_chess(shared_data):
    """read_pgn is python-chess's reader: same main line as chess.pgn.read_game (Women's Candidates)."""
    path = shared_data / "chess" / "fide_candidates_2024_women.pgn"
    ours = read_pgn_file(path)
    with open(path, encoding="utf-8-sig") as handle:
        for game in ours:
            theirs = chess.pgn.read_game(handle)
            assert game.moves == [m.uci() for m in theirs.mainline_moves()]
            assert game.tags == dict(theirs.headers)
    assert len(ours) == 56


def test_tag_values_escape_quotes_and_backslashes():
    """PGN standard 8.1.1 (7, string tokens): a quote inside a tag value is written ``\\"`` and a
    backslash ``\\\\``; our reader gives the value back as it was (python-chess 1.11 reads tag values
    without unescaping them, so the reader undoes the escapes itself)."""
    name = 'Smith, Bob "the Hammer" C:\\x'
    text = write_pgn(["e2e4"], tags={"White": name})
    assert '[White "Smith, Bob \\"the Hammer\\" C:\\\\x"]' in text
    (ours,) = read_pgn(text)
    assert ours.tags["White"] == name
