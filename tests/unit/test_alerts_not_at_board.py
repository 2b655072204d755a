"""One "not at the board" alert per round (services.views.not_at_board), fed the entries the
regulations really write (tests/referee_harness.py on events/us-championship-2023.toml):

- US 2023 rule 1: "Players not at their board at the beginning of each round may receive a fine of
  $500" (``player_not_at_board``), and "Players more than 30 (thirty) minutes late for a round shall
  forfeit that round" (``default_forfeit``, FIDE Laws 6.7.1: "unless the arbiter decides otherwise").
- A player is present from a check-in, a move or a press (services/regulations/lateness.py).
"""

from pathlib import Path

from referee_harness import Referee, played
from services.regulations.tournament_file import load_tournament
from alert_feed import FoldedAlerts

EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000


class Hall:
    """The regulations and the alert queue fed the same entries, as the dashboard's desk is."""

    def __init__(self, boards: int = 3):
        t = load_tournament((EVENTS / "us-championship-2023.toml").read_text(), "us-championship-2023.toml")
        self.start = t.round(1).start_ms
        self.referee, self.queue, self.seq = Referee(t), FoldedAlerts(), 0
        games = [{"id": f"1-{b}", "board": str(b), "round": "1", "white": f"Player {2 * b - 1:02d}",
                  "black": f"Player {2 * b:02d}", "variant": "chess", "kind": t.kind} for b in range(1, boards + 1)]
        self.observe("round_started", {"round": "1", "games": games}, self.start - MIN)

    def _fold(self, type: str, data: dict, at: int) -> None:
        self.seq += 1
        self.queue.apply(self.seq, at, type, data)

    def observe(self, type: str, data: dict, at: int) -> None:
        self._fold(type, data, at)
        for t, d in self.referee.observe(type, data, at):
            self._fold(t, d, at)

    def tick(self, at: int) -> list[str]:
        out = self.referee.tick(at)
        for t, d in out:
            self._fold(t, d, at)
        return [t for t, _ in out]

    def grouped(self):
        return [a for a in self.queue.alerts.values() if a.kind == "not_at_board"]


def items(alert) -> list[tuple[str, str, str]]:
    return [(i["board"], i["side"], i["state"]) for i in alert.evidence["items"]]


def test_one_alert_for_the_round_that_closes_as_players_arrive():
    h = Hall()
    assert h.tick(h.start + 1000).count("player_not_at_board") == 6  # nobody seated at the start
    [a] = h.grouped()
    assert [x for x in h.queue.alerts.values() if x.kind == "player_not_at_board"] == []  # not one each
    assert (a.status, a.severity, a.count) == ("open", "warning", 6)
    assert items(a) == [("1", "white", "absent"), ("1", "black", "absent"), ("2", "white", "absent"),
                        ("2", "black", "absent"), ("3", "white", "absent"), ("3", "black", "absent")]
    assert a.evidence["items"][0]["player"] == "Player 01" and a.evidence["items"][0]["fine"] == 500
    # board 1: the arbiter checks White in; White's first move and Black's reply show both seated
    h.observe("player_arrived", {"game": "1-1", "board": "1", "side": "white", "by": "chief"}, h.start + 2 * MIN)
    h.observe("move_played", played("1-2", 1, "e2e4", board="2"), h.start + 3 * MIN)
    h.observe("move_played", played("1-2", 2, "e7e5", board="2"), h.start + 4 * MIN)
    h.observe("clock_pressed", {"game": "1-3", "board": "3", "device": "clock", "white_ms": 1, "black_ms": 1,
                                "running": "white"}, h.start + 5 * MIN)  # Black pressed: Black is there
    assert [s for _, _, s in items(a)] == ["arrived", "absent", "arrived", "arrived", "absent", "arrived"]
    assert a.status == "open"
    for game, side in (("1-1", "black"), ("1-3", "white")):
        h.observe("player_arrived", {"game": game, "board": game[-1], "side": side, "by": "chief"}, h.start + 6 * MIN)
    assert (a.status, a.resolution["by"]) == ("resolved", "players")
    assert len(h.grouped()) == 1


def test_defaults_join_the_round_alert_and_wait_for_the_arbiter():
    h = Hall(boards=2)
    h.tick(h.start + 1000)
    for side in ("white", "black"):
        h.observe("player_arrived", {"game": "1-1", "board": "1", "side": side, "by": "chief"}, h.start + MIN)
    h.observe("player_arrived", {"game": "1-2", "board": "2", "side": "white", "by": "chief"}, h.start + MIN)
    out = h.tick(h.start + 31 * MIN)  # Black of board 2 past the 30 minutes: default_forfeit, game_ended
    assert out == ["default_forfeit", "game_ended"]
    [a] = h.grouped()
    assert (a.status, a.severity) == ("open", "action")
    item = a.evidence["items"][-1]
    assert (item["board"], item["side"], item["state"], item["result"]) == ("2", "black", "defaulted", "1-0")
    assert item["deadline_ms"] == h.start + 30 * MIN
    # the forfeit's game_ended is told in the round's alert, not in one of its own
    assert [x.kind for x in h.queue.open_alerts()] == ["not_at_board"]
    # arriving late does not undo the default (6.7.1) ...
    h.observe("player_arrived", {"game": "1-2", "board": "2", "side": "black", "by": "chief"}, h.start + 33 * MIN)
    assert (item["state"], item["arrived_at"], a.status) == ("defaulted", h.start + 33 * MIN, "open")
    # ... the arbiter's decision does ("unless the arbiter decides otherwise")
    h.observe("arbiter_decision", {"game": "1-2", "board": "2", "result": "*", "by": "chief"}, h.start + 34 * MIN)
    assert (item["state"], a.status) == ("decided", "resolved")
