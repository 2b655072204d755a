"""Norway 2023: "If the classical game is drawn, an Armageddon game will be played ... The player
with White pieces will continue with White in Armageddon." The spectators see it on the same board."""

from services.eventlog.base import Entry
from services.views.spectator import SpectatorView as HallView

SETUP = {"id": "1-1", "board": "1", "round": "1", "white": "Carlsen, Magnus", "black": "Nakamura, Hikaru",
         "variant": "chess", "time_control": "7200", "fen": None, "kind": "classical"}
ARM = {**SETUP, "id": "1-1-A", "kind": "armageddon", "follows": "1-1",
       "time_control": {"white": "10m", "black": "7m", "increment": "1s", "increment_from_move": 41}}


def test_armageddon_game_joins_the_round_on_the_same_board():
    v = HallView()
    v.apply(Entry(1, 0, "round_started", {"round": "1", "event": "Norway Chess", "games": [SETUP]}))
    v.apply(Entry(2, 1, "game_ended", {"game": "1-1", "board": "1", "result": "1/2-1/2",
                                       "termination": "agreement", "by": "device"}))
    [delta] = v.apply(Entry(3, 2, "armageddon_scheduled", ARM))
    assert delta["type"] == "round" and [g["id"] for g in delta["games"]] == ["1-1", "1-1-A"]
    arm = v.game("1-1-A")
    assert (arm["board"], arm["white"], arm["black"], arm["status"]) == ("1", "Carlsen, Magnus",
                                                                       "Nakamura, Hikaru", "waiting")
    assert v.game("1-1")["result"] == "1/2-1/2"
