"""The ACF 3-move ballot deck shipped with the package, and the draw of a ballot."""

from __future__ import annotations

import csv
import random
from importlib import resources

import pytest

from services.rules.checkers_ballots import Ballot, draw_ballot, load_deck, start_game
from services.rules.checkers_notation import parse_fen


def test_the_shipped_deck_is_the_shared_file(shared_data):
    """The package ships a copy of ../shared/data/checkers/acf_3move_ballots.csv (CONTRIBUTING:
    copy into the package only what it must ship)."""
    shipped = resources.files("services.rules.data").joinpath("acf_3move_ballots.csv").read_bytes()
    assert shipped == (shared_data / "checkers" / "acf_3move_ballots.csv").read_bytes()


def test_156_openings_in_play_and_18_barred():
    """SOURCES.md: 174 openings numbered 1-174; in_156_deck true for 156, false for the 18 barred."""
    deck, everything = load_deck(), load_deck(include_barred=True)
    assert len(deck) == 156 and len(everything) == 174
    assert [b.number for b in everything] == list(range(1, 175))
    assert {b.flag for b in deck} == {"CROSSBOARD", "MAILPLAY"}
    assert sum(not b.in_deck for b in everything) == 18


def test_every_opening_of_the_deck_reaches_its_fen_after(shared_data):
    """SOURCES.md: each opening reaches the FEN of pydraughts' 3move_english.json (fen_after).
    Compared as positions: the file lists squares in string order."""
    with open(shared_data / "checkers" / "acf_3move_ballots.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["in_156_deck"] == "true"]
    assert len(rows) == 156
    for row in rows:
        game = start_game(Ballot(int(row["acf_no"]), tuple(row["moves"].split()), True, "", None, row["fen_after"]))
        assert game.position == parse_fen(row["fen_after"]), row["acf_no"]
        assert game.turn == "white" and game.ply == 3


def test_barred_openings_replay_too():
    for ballot in load_deck(include_barred=True):
        assert start_game(ballot).position == parse_fen(ballot.fen_after), ballot.number


def test_known_names():
    """CheckerBoard's ACF table (SOURCES.md): #5 9-13 22-18 6-9 is the "Dreaded Edinburgh"."""
    ballot = next(b for b in load_deck() if b.number == 5)
    assert ballot.moves == ("9-13", "22-18", "6-9") and ballot.name == "Dreaded Edinburgh"
    assert ballot.to_json() == {"ballot": 5, "moves": ["9-13", "22-18", "6-9"], "name": "Dreaded Edinburgh"}


def test_draw_is_pure_the_same_seed_gives_the_same_ballot():
    deck = load_deck()
    assert draw_ballot(deck, 2017) == draw_ballot(deck, 2017)
    assert draw_ballot(deck, "round-3-board-7") == draw_ballot(deck, "round-3-board-7")
    expected = deck[random.Random(2017).randrange(156)]
    assert draw_ballot(deck, 2017) == expected


def test_draw_with_a_generator_advances_it_and_covers_the_deck():
    deck = load_deck()
    rng = random.Random(1)
    drawn = {draw_ballot(deck, rng).number for _ in range(3000)}
    assert drawn == {b.number for b in deck}  # every ballot can come up; barred ones never


def test_draw_skips_ballots_already_used():
    deck = load_deck()
    used = [b.number for b in deck[:155]]
    assert draw_ballot(deck, 7, exclude=used) == deck[155]
    with pytest.raises(ValueError, match="no ballot left"):
        draw_ballot(deck, 7, exclude=[b.number for b in deck])


@pytest.mark.parametrize("bad", [None, 1.5, True, object()])
def test_draw_needs_a_seed_or_a_generator(bad):
    with pytest.raises(TypeError):
        draw_ballot(load_deck(), bad)
