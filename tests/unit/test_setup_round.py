"""services.arbiter_office.setup.round_from_pgn: the round_started data of docs/events.md from real PGN files."""

from __future__ import annotations

import pytest

from services.arbiter_office.setup import game_kind, round_from_pgn


def test_candidates_round_1_gives_four_boards_in_file_order(shared_data):
    """FIDE Candidates 2024 (open), round 1: 4 games, no Board tag -> boards 1..4 in file order."""
    text = (shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text()
    data = round_from_pgn(text, round="1")
    assert data["round"] == "1"
    assert data["event"] == "Candidates"
    assert data["date"] == "2024.04.04"
    assert [g["id"] for g in data["games"]] == ["1-1", "1-2", "1-3", "1-4"]
    first = data["games"][0]
    assert first["white"] == "Caruana, Fabiano" and first["black"] == "Nakamura, Hikaru"
    assert first["white_elo"] == 2803 and first["black_elo"] == 2789
    assert first["fen"] is None and first["variant"] == "chess"
    assert first["time_control"] is None and first["kind"] == "classical"


def test_whole_tournament_without_round_is_refused(shared_data):
    """The Candidates file holds 14 rounds: one round_started needs one round."""
    text = (shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text()
    with pytest.raises(ValueError, match="several rounds"):
        round_from_pgn(text)


def test_board_tag_and_time_control(shared_data):
    """DGT demoLiveGames.pgn: Paul Keres Memorial 2011, round 7, Board tags 1-4, TimeControl 900+10."""
    text = (shared_data / "chess" / "quirks" / "demoLiveGames.pgn").read_text()
    data = round_from_pgn(text)
    assert [g["id"] for g in data["games"]] == ["7-1", "7-2", "7-3", "7-4"]
    assert {g["time_control"] for g in data["games"]} == {"900+10"}
    # FIDE Laws A.1: 15 min + 60 x 10 s = 25 min, more than 10 and less than 60 -> rapid
    assert {g["kind"] for g in data["games"]} == {"rapid"}


def test_dotted_round_tag_is_round_and_board(shared_data):
    """DGT LiveChess sample: Round "1.1" .. "1.12" (broadcast convention R.B) -> round 1, boards 1..12."""
    text = (shared_data / "chess" / "quirks" / "dgt_livechess_sample_invitational_2023.pgn").read_text()
    data = round_from_pgn(text)
    assert data["round"] == "1"
    assert [g["board"] for g in data["games"]] == [str(b) for b in range(1, 13)]


def test_setup_and_fen_tags_give_start_position():
    """F05 (b) position, as a set-up game."""
    fen = "8/4P1k1/8/8/8/8/6K1/8 w - - 0 60"
    text = f'[White "A"]\n[Black "B"]\n[Round "3"]\n[Board "12"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n*\n'
    (game,) = round_from_pgn(text)["games"]
    assert game["id"] == "3-12" and game["fen"] == fen


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no game"),
        ("hello world", "no White or Black tag"),
        ('[White "A"]\n[Black "B"]\n[SetUp "1"]\n[FEN "not a fen"]\n\n*\n', "fen"),
        ('[White "A"]\n[Black "B"]\n[Board "1"]\n\n*\n\n[White "C"]\n[Black "D"]\n[Board "1"]\n\n*\n',
         "both on board 1"),
        ('[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Ke3 *\n', "broken PGN"),
    ],
)
def test_broken_files_raise_value_error(text, message):
    """CONTRIBUTING: bad input gets a clear error."""
    with pytest.raises(ValueError, match=message):
        round_from_pgn(text)


def test_checkers_pdn_headers(shared_data):
    """checkers/german_open_2004.pdn: one game, Pawlek (White) - Morgan; moves ignored."""
    text = (shared_data / "checkers" / "german_open_2004.pdn").read_text()
    data = round_from_pgn(text, variant="checkers")
    (game,) = data["games"]
    assert game["variant"] == "checkers" and game["id"] == "1-1"
    assert data["event"] == "German Open 2004"


@pytest.mark.parametrize(
    "tc, kind",
    [("300+0", "blitz"), ("180+2", "blitz"), ("900+10", "rapid"), ("600+0", "blitz"),
     ("5400+30", "classical"), ("40/7200:1800+30", "classical"), (None, "classical"),
     ("15 min/game + 10 sec/move", "rapid")],
)
def test_game_kind_fide_appendix(tc, kind):
    """FIDE Laws A.1 (rapid: >10 and <60 min incl. 60 x increment), B.1 (blitz: <= 10 min)."""
    assert game_kind(tc) == kind


def test_armageddon_from_event():
    assert game_kind("300+0", "Norway Chess Armageddon") == "armageddon"
