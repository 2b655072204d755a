"""FIDE Candidates 2024, round 5 (Toronto), as the clock tests replay it: the first game of
``venue/data/candidates_2024_round5.pgn`` (Praggnanandhaa - Nepomniachtchi, ``[%clk]`` after every
move) and the event's control, "120 minutes for the first 40 moves, followed by 30 minutes for the
rest of the game with an increment of 30 seconds per move starting from move 41" (spec
``40/7200:1800+30``), in a tournament file so that the gateway reports clock disagreements (README:
"when the gateway runs a tournament file"; the default ``clock_tolerance`` of 2 s,
docs/tournament-file.md). ``source_games``: the round's four games as recorded, for the tests that
replay every board (test_press_order, test_press_order_penalty, test_stray_seq); board 2, Firouzja -
Nakamura, as UCI moves (``firouzja_nakamura``, test_stray_seq and test_alerts_since).
"""

from __future__ import annotations

import io
from importlib import resources

import chess.pgn

from services.regulations.tournament_file import load_tournament

START_MS = 120 * 60_000  # 120 minutes each (the source PGN's first readings are 1:59:xx)
CONTROL = "40/7200:1800+30"
CANDIDATES = load_tournament(f"""
[tournament]
name = "Candidates 2024"
slug = "candidates-2024"
system = "round-robin"
rounds = 14
[time_controls]
classical = "{CONTROL}"
""")


def source_game() -> chess.pgn.Game:
    """Round 5's first game, Praggnanandhaa - Nepomniachtchi, as recorded."""
    text = resources.files("venue").joinpath("data", "candidates_2024_round5.pgn").read_text()
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["White"] == "Praggnanandhaa R"
    return game


def source_games() -> list[chess.pgn.Game]:
    """The round's four games as recorded."""
    text = resources.files("venue").joinpath("data", "candidates_2024_round5.pgn").read_text()
    f, out = io.StringIO(text), []
    while (game := chess.pgn.read_game(f)) is not None:
        out.append(game)
    return out


def firouzja_nakamura() -> list[str]:
    """Board 2 of the demo round, as recorded (126 plies)."""
    game = source_games()[1]
    assert (game.headers["White"], game.headers["Black"]) == ("Firouzja, Alireza", "Nakamura, Hikaru")
    return [m.uci() for m in game.mainline_moves()]
