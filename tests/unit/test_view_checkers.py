"""The spectators' fold and exports for an American checkers game (two games, one pipeline).

Source: the German Open 2004 game Morgan-Pawlek, 1/2-1/2, ../shared/data/checkers/german_open_2004.pdn
(replayed by the rules core); ACF/WCDF rules: Black moves first; PDN gives Black's score first.
"""

from __future__ import annotations

import pytest

from dashboard.boards import checkers_svg, game_svg
from services.eventlog.base import Entry
from services.views.spectator import SpectatorView as HallView
from services.arbiter_office.view_pgn import game_pgn
from services.rules.checkers_pdn import read_pdn, replay


@pytest.fixture(scope="module")
def record(shared_data):
    (rec,) = read_pdn((shared_data / "checkers" / "german_open_2004.pdn").read_text())
    return rec


def entries(record) -> list[Entry]:
    game = replay(record)
    setup = {"id": "1-1", "board": "1", "round": "1", "white": record.tags["White"],
             "black": record.tags["Black"], "variant": "checkers", "fen": None}
    out = [Entry(1, 1000, "round_started", {"round": "1", "event": record.tags["Event"],
                                            "site": "Reutlingen", "date": "2004.05.01", "games": [setup]})]
    for p in game.played:
        turn = "white" if p.ply % 2 == 1 else "black"  # Black made the odd plies
        out.append(Entry(len(out) + 1, 1000 + p.ply * 1000, "move_played",
                         {"game": "1-1", "board": "1", "ply": p.ply, "move": p.move, "san": p.san,
                          "fen": p.fen, "turn": turn, "claimable": []}))
    out.append(Entry(len(out) + 1, 99_000, "game_ended", {"game": "1-1", "board": "1", "result": "1/2-1/2",
                                                          "termination": "agreement", "ply": game.ply}))
    return out


def test_black_moves_first_and_every_move_is_folded(record):
    view = HallView()
    for e in entries(record):
        view.apply(e)
    g = view.game("1-1")
    assert g["first_side"] == "black" and g["variant"] == "checkers"
    assert g["moves"][:3] == ["11-15", "22-17", "15-19"]
    assert g["ply"] == len(replay(record).moves) and g["result"] == "1/2-1/2"


def test_pdn_export_replays_to_the_same_moves(record):
    view = HallView()
    for e in entries(record):
        view.apply(e)
    text = game_pgn(view.game("1-1"), view.round)
    assert '[GameType "21"]' in text and '[Black "Morgan, John"]' in text
    (back,) = read_pdn(text)
    assert replay(back).moves == replay(record).moves
    assert back.result == "1/2-1/2"


def test_board_picture_is_drawn_by_pydraughts(record):
    view = HallView()
    for e in entries(record)[:4]:
        view.apply(e)
    svg = game_svg(view.game("1-1"))
    assert svg.startswith("<svg") and 'viewBox="0 0 352 352"' in svg
    # an earlier ply: the game replayed to it, drawn the same way (Black's men on 1-12 at the start)
    at_start = game_svg(view.game("1-1"), ply=0)
    assert at_start != svg and at_start == checkers_svg("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
    assert game_svg(view.game("1-1"), ply=3) == svg
    with pytest.raises(ValueError):
        game_svg(view.game("1-1"), ply=4)  # beyond the current position


def test_exports_escape_a_quoted_name(record):
    """PGN standard 8.1.1: a quote in a tag value is written ``\\"``, a backslash ``\\\\``; both the
    PDN (checkers) and the PGN (chess) of a GAME with a nickname in quotes read back to the name."""
    from services.rules.pgn_io import read_pgn

    name = 'Morgan, John "the Hammer"'
    view = HallView()
    for e in entries(record):
        if e.type == "round_started":
            e.data["games"][0]["black"] = name
        view.apply(e)
    text = game_pgn(view.game("1-1"), view.round)
    assert '[Black "Morgan, John \\"the Hammer\\""]' in text
    (back,) = read_pdn(text)
    assert back.tags["Black"] == name
    chess_game = {**view.game("1-1"), "variant": "chess", "moves": ["e2e4"], "start_fen": None,
                  "clocks": [None], "white": "a\\b"}
    text = game_pgn(chess_game, view.round)
    assert '[Black "Morgan, John \\"the Hammer\\""]' in text and '[White "a\\\\b"]' in text
    (back,) = read_pgn(text)
    assert back.tags["Black"] == name and back.tags["White"] == "a\\b"
