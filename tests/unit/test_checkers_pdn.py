"""PDN records: the real games of ../shared/data/checkers replay through CheckersGame.play() with
their moves and results (SOURCES.md), and our PDN export reads back identically."""

from __future__ import annotations

import draughts.PDN
import pytest

from services.rules.base import Outcome
from services.rules.checkers_game import CheckersGame
from services.rules.checkers_notation import parse_move_text
from services.rules.checkers_pdn import PdnError, PdnReplayError, read_pdn, replay, write_pdn


def _ends(move: str) -> tuple[int, int]:
    squares = parse_move_text(move)
    return squares[0], squares[-1]


@pytest.fixture(scope="module")
def tinsley(shared_data):
    return read_pdn((shared_data / "checkers" / "tinsley.pdn").read_text())


def test_tinsley_holds_724_games_with_their_results(tinsley):
    """SOURCES.md: 724 games; results 533 draws, 125 0-1, 66 1-0."""
    assert len(tinsley) == 724
    results = [g.result for g in tinsley]
    assert (results.count("1/2-1/2"), results.count("0-1"), results.count("1-0")) == (533, 125, 66)


def test_721_tinsley_games_replay_with_moves_and_results_intact(tinsley):
    """SOURCES.md: 721 of 724 replay legally; #541 does not (ply 123); #623 and #693 end in time
    forfeits written as unbraced text."""
    refused = {}
    for number, record in enumerate(tinsley, start=1):
        try:
            game = replay(record)
        except PdnReplayError as exc:
            refused[number] = exc
            continue
        assert [_ends(m) for m in game.moves] == [_ends(m) for m in record.moves], number
        assert game.outcome is not None and game.outcome.result == record.venue_result, number
    assert list(refused) == [541]


def test_petal_1981_game_18_is_refused_at_ply_123_with_a_clear_reason(tinsley):
    """SOURCES.md: #541 "Petal 1981, game 18" has an illegal move 32-28 at ply 123."""
    record = tinsley[540]
    assert record.tags["Event"] == "Petal 1981, game 18"
    with pytest.raises(PdnReplayError) as err:
        replay(record)
    assert (err.value.ply, err.value.move) == (123, "32-28")
    assert "32-28" in err.value.reason and "square 32 is empty" in err.value.reason


@pytest.mark.parametrize(
    "number, event, last_move, outcome",
    [
        (623, "Petal 1987, game 15", "8-11", Outcome("1-0", "time_forfeit")),  # "Red overstepped ...", PDN 0-1
        (693, "London 1992, game 18", "26-22", Outcome("0-1", "time_forfeit")),  # "White overstepped ...", PDN 1-0
    ],
)
def test_unbraced_time_forfeit_text_is_a_note_and_a_flag_fall(tinsley, number, event, last_move, outcome):
    """SOURCES.md: the last move is followed by unbraced text "Red/White overstepped the time control
    on this move." The move stands, the text is kept as a note, the loser forfeits on time
    (regulation X.A.b)."""
    record = tinsley[number - 1]
    assert record.tags["Event"] == event and record.moves[-1] == last_move
    assert record.notes == [(len(record.moves), record.notes[0][1])]
    assert "overstepped" in record.notes[0][1]
    game = replay(record)
    assert game.moves[-1] == last_move and game.outcome == outcome


def test_german_open_2004_replays(shared_data):
    """SOURCES.md: Morgan-Pawlek 1/2-1/2, opening 11-15 22-17 15-19; replays legally."""
    (record,) = read_pdn((shared_data / "checkers" / "german_open_2004.pdn").read_text())
    assert record.tags["Black"] == "Morgan, John" and record.tags["Date"] == "2004-05-01"
    game = replay(record)
    assert game.moves[:3] == ["11-15", "22-17", "15-19"]
    assert game.moves[-2:] == ["10x19x26", "17x10x1"]
    assert game.outcome == Outcome("1/2-1/2", "recorded")


def test_a_result_that_contradicts_the_board_is_an_error():
    (record,) = read_pdn('[Event "x"]\n[FEN "B:W14:B9"]\n1. 9x18 0-1\n')  # PDN 0-1: White won
    with pytest.raises(PdnReplayError, match="contradicts"):
        replay(record)


def test_another_game_type_is_refused():
    with pytest.raises(PdnError, match="GameType"):
        read_pdn('[GameType "20"]\n1. 32-28 19-23 *\n')


def test_comments_variations_and_glyphs_are_not_moves():
    text = '[Event "e"]\n1. 11-15 {best} 23-18 (22-17 9-13) 2. 8-11! $1 27-23 1/2-1/2\n'
    (record,) = read_pdn(text)
    assert record.moves == ["11-15", "23-18", "8-11", "27-23"]
    assert record.notes == [(1, "best")] and record.result == "1/2-1/2"


def test_set_up_position_with_white_to_move(shared_data):
    """A PDN game with a FEN tag (set-up position) replays from it: pydraughts 0.6.7 reads the
    moves of such a game paired as if White moved first, so the set-up is handled here."""
    text = '[Event "study"]\n[SetUp "1"]\n[FEN "W:WK10,21:B5,K30"]\n1... 10-14 2. 30-26 21-17 *\n'
    (record,) = read_pdn(text)
    game = replay(record)
    assert game.moves == ["10-14", "30-26", "21-17"] and game.outcome is None


def _german_open(shared_data) -> CheckersGame:
    (record,) = read_pdn((shared_data / "checkers" / "german_open_2004.pdn").read_text())
    return replay(record)


TAGS = {"Event": "German Open 2004", "Date": "2004.05.01", "Black": "Morgan, John", "White": "Pawlek, Dennis"}


def test_export_reads_back_identically_with_our_reader(shared_data):
    game = _german_open(shared_data)
    text = write_pdn(game, TAGS)
    (record,) = read_pdn(text)
    assert record.tags == {**TAGS, "Result": "1/2-1/2", "GameType": "21"}
    assert list(record.tags)[:6] == ["Event", "Date", "Black", "White", "Result", "GameType"]
    assert record.moves == game.moves and record.result == "1/2-1/2"
    assert replay(record).moves == game.moves


def test_export_reads_back_identically_with_pydraughts(shared_data):
    game = _german_open(shared_data)
    (theirs,) = draughts.PDN.PDNReader(pdn_text=write_pdn(game, TAGS)).games
    assert theirs.moves == game.moves
    assert theirs.tags == {**TAGS, "Result": "1/2-1/2", "GameType": "21"}
    assert theirs.game_ending == "1/2-1/2" and theirs.variant == "english"


def test_export_of_a_set_up_game_carries_its_fen():
    game = CheckersGame("W:WK10,21:B5,K30")
    for move in ("10-14", "30-26", "21-17"):
        game.play(move)
    game.end("0-1", "resignation")  # Black won: PDN writes 1-0
    text = write_pdn(game, {"Event": "study"})
    (record,) = read_pdn(text)
    assert record.tags["FEN"] == "W:WK10,21:B5,K30"
    assert record.tags["SetUp"] == "1" and record.moves == game.moves
    assert record.result == "1-0" and record.venue_result == "0-1"
    assert "1... 10-14 2. 30-26 21-17 1-0" in text


def test_export_refuses_a_tag_it_cannot_write():
    with pytest.raises(ValueError):
        write_pdn(CheckersGame(), {"Event": 'say "hi"'})
