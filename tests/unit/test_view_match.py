"""The spectators' view of a checkers match (services/views/spectator.py): both games of the match in
the round, game 2 waiting with its clock paused at the times carried over from game 1.

Source: checkers-11-man-national-2017.txt X.A.b ("The clocks shall be paused between games, but the
clock times shall not be reset prior to the second game"); issue 6 (the same ballot, colours reversed).
"""

from services.eventlog.base import Entry
from services.views.spectator import SpectatorView as HallView
from services.regulations.checkers_match import match_setups

MIN = 60_000
BALLOT = {"ballot": 15, "moves": ["9-13", "23-18", "11-15"], "name": None}


def test_game_two_waits_paused_at_the_carried_times():
    pairing = {"id": "1-1", "board": "1", "round": "1", "white": "M Tinsley", "black": "Chinook",
               "variant": "checkers", "fen": None, "kind": "classical"}
    view = HallView()
    view.apply(Entry(1, 1_000, "round_started", {"round": "1", "games": match_setups(pairing, BALLOT)}))
    one, two = view.games()
    assert (one["id"], two["id"]) == ("1-1.1", "1-1.2")
    assert (two["white"], two["black"]) == ("Chinook", "M Tinsley")
    assert one["ballot"] == two["ballot"] == BALLOT
    assert (one["match"]["game_no"], two["match"]["game_no"], two["match"]["follows"]) == (1, 2, "1-1.1")
    view.apply(Entry(2, 2_000, "game_ended", {"game": "1-1.1", "board": "1", "result": "1-0",
                                              "termination": "recorded"}))
    (delta,) = view.apply(Entry(3, 2_000, "match_game_ready", {"game": "1-1.2", "board": "1", "follows": "1-1.1",
                                                               "white_ms": 47 * MIN, "black_ms": 61 * MIN}))
    assert delta["set"]["clock"] == {"white_ms": 47 * MIN, "black_ms": 61 * MIN, "running": None, "at": 2_000}
    assert view.game("1-1.2")["status"] == "waiting"
