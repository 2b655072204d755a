"""A checkers match on hall board 1 through the gateway's pure part (``gateway.hall.Hall``, time passed
in), for the match tests (test_gateway_match, test_gateway_match_clock_late, test_ballot_check,
test_gateway_match_board_late and its ``_hole``, tests/integration/test_two_games_live.py): London
1992 games 25 and 26 (venue/data/tinsley_chinook_1992.pdn, records 4 and 5: the same ballot 9-13
23-18 11-15 with colours reversed), the round that pairs them (11-Man National 2017 X.A.b: one match
clock for both games), and ``Gateway``, the Hall with a record of what it appended and when;
``LateClock`` also hands the hall a device message with a seq of its choosing.

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from match_gateway import Gateway``.
"""

from __future__ import annotations

import json
from importlib import resources

from gateway.hall import Hall
from services.regulations.checkers_match import match_setups
from services.rules.checkers_ballots import load_deck
from services.rules.checkers_pdn import read_pdn


T = "match-test"
RECORDS = read_pdn(resources.files("venue").joinpath("data", "tinsley_chinook_1992.pdn").read_text())
GAME_25, GAME_26 = RECORDS[3], RECORDS[4]
BALLOT = next(b for b in load_deck() if b.moves == ("9-13", "23-18", "11-15")).to_json()


def round_data(first=GAME_25, ballot: dict = BALLOT) -> dict:
    """Round 1: one match on board 1, game 1 with the players of PDN record ``first`` as there,
    both games on ``ballot`` (``Ballot.to_json()``)."""
    pairing = {"id": "1-1", "board": "1", "round": "1", "white": first.tags["White"],
               "black": first.tags["Black"], "variant": "checkers", "fen": None, "kind": "classical",
               "time_control": {"white": "90m", "black": "90m", "match_clock": True}}
    return {"round": "1", "event": "match", "site": "", "date": "2017.07.10",
            "games": match_setups(pairing, ballot)}


class Gateway:
    """The Hall with a record of what it appended (and when): the log. ``first``, ``ballot``: the
    match's game 1 and ballot (``round_data``)."""

    def __init__(self, first=GAME_25, ballot: dict = BALLOT):
        self.hall = Hall(T)
        self.log: list[tuple[str, dict]] = []
        self.stamps: list[int] = []
        self.seq = {"board": 0, "clock": 0}
        self.now = 1_000
        self.feedback: list[dict] = []
        self.hall.fold("round_started", round_data(first, ballot), self.now)
        self.take([("round_started", round_data(first, ballot))])

    def take(self, entries):
        self.log.extend(entries)
        self.stamps.extend(self.now for _ in entries)

    def send(self, kind: str, body: dict):
        device = "clock" if kind == "clock" else "board"
        self.seq[device] += 1
        self.now += 1_000
        step = self.hall.handle(f"venue/{T}/boards/1/{kind}", json.dumps({"seq": self.seq[device], **body}),
                                self.now)
        self.take(step.entries)
        self.feedback.extend(f for _, f in step.feedback)
        return step

    def clock(self, event: str, white_ms: int, black_ms: int, running: str | None):
        return self.send("clock", {"event": event, "white_ms": white_ms, "black_ms": black_ms,
                                   "running": running})

    def entries(self, type_: str) -> list[dict]:
        return [d for t, d in self.log if t == type_]


class LateClock(Gateway):
    """The match harness, able to hand the hall a device message with a seq of its choosing."""

    def send_seq(self, kind: str, seq: int, body: dict):
        self.now += 1_000
        step = self.hall.handle(f"venue/{T}/boards/1/{kind}", json.dumps({"seq": seq, **body}), self.now)
        self.take(step.entries)
        self.feedback.extend(f for _, f in step.feedback)
        return step

    def clock_entries(self, game: str) -> list[tuple[str, dict]]:
        return [(t, d) for t, d in self.log if t.startswith("clock_") and d.get("game") == game]
