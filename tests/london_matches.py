"""Two real matches of London 1992 on hall board 1, each ballot played twice with the colours
reversed, for the tests of a match's board messages of game 1 that come late
(test_gateway_match_board_late and its ``_hole``): games 7 and 8
(venue/data/tinsley_chinook_1992_matches.pdn, records 1 and 2; ACF ballot 123, 11-15 23-18 10-14)
and games 25 and 26 (records 9 and 10; ballot 15, 9-13 23-18 11-15), played with the simulated
station's clock figures (``devices.checkers_script.match_scripts``) by ``Match``, the match harness
of ``match_gateway.LateClock``. 11-Man National 2017 X.A.b: "The clocks shall be paused between
games, but the clock times shall not be reset prior to the second game".

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from london_matches import Match``.
"""

from __future__ import annotations

from importlib import resources

import pytest
from match_gateway import LateClock

from devices.checkers_script import match_scripts
from gateway.hall import Hall
from services.rules.checkers_ballots import load_deck
from services.rules.checkers_pdn import read_pdn


MATCHES = read_pdn(resources.files("venue").joinpath("data", "tinsley_chinook_1992_matches.pdn").read_text())
GAME_7, GAME_8, GAME_25, GAME_26 = MATCHES[0], MATCHES[1], MATCHES[8], MATCHES[9]
ONE, TWO = "1-1.1", "1-1.2"


def ballot(number: int) -> dict:
    return next(b for b in load_deck() if b.number == number).to_json()


class Match(LateClock):
    """Board 1 playing one real match: game 1's and game 2's scripts (``one``, ``two``)."""

    def __init__(self, first, second, number: int):
        super().__init__(first, ballot(number))
        self.one, self.two = match_scripts(first, second, "1")
        self.records = (first, second)

    def game_one(self, *, last_move: bool = False) -> dict:
        """Game 1 with every press, its last move's board message held up (not sent) unless
        ``last_move``; returns the clock's figures after the last press."""
        clocks = {"white": self.one.white_ms, "black": self.one.black_ms}
        self.clock("start", clocks["white"], clocks["black"], self.one.first_side)
        for i, ply in enumerate(self.one.plies):
            if last_move or i < len(self.one.plies) - 1:
                self.send("move", {"move": ply.uci})
            clocks[ply.side] = ply.clock_ms
            self.clock("press", clocks["white"], clocks["black"], "black" if ply.side == "white" else "white")
        return clocks

    def clock_result(self) -> None:
        """The clock reports game 1's result (docs/protocol.md: "result" with "device": "clock")."""
        self.seq["clock"] += 1
        self.send_seq("result", self.seq["clock"], {"result": self.one.result, "reason": self.one.reason,
                                                     "device": "clock"})

    def pause_and_start(self, clocks: dict) -> None:
        """X.A.b: the clock paused between the games, then started for game 2 with the carried times."""
        self.clock("pause", clocks["white"], clocks["black"], None)
        self.clock("start", self.two.white_ms, self.two.black_ms, self.two.first_side)

    def late_last_move(self):
        return self.send("move", {"move": self.one.plies[-1].uci})

    def game_two(self, start: int = 0, stop: int | None = None) -> None:
        """Game 2's moves from ply index ``start`` up to ``stop`` (default: all), every one pressed."""
        for i in range(start, len(self.two.plies) if stop is None else stop):
            self.send("move", {"move": self.two.plies[i].uci})
            self.press_two(i)

    def press_two(self, i: int) -> None:
        """The press after game 2's ply index ``i``, showing both times then (X.A.b: game 2's clock
        starts with the times carried from game 1)."""
        clocks = {"white": self.two.white_ms, "black": self.two.black_ms}
        for ply in self.two.plies[:i + 1]:
            clocks[ply.side] = ply.clock_ms
        mover = self.two.plies[i].side
        self.clock("press", clocks["white"], clocks["black"], "black" if mover == "white" else "white")

    def moves(self, game: str) -> list[str]:
        return [d["move"] for d in self.entries("move_played") if d["game"] == game]

    def rebuilt(self) -> Hall:
        """A gateway rebuilt from the log (DESIGN.md "one fold")."""
        again = Hall(self.hall.tournament)
        for (type_, data), at in zip(self.log, self.stamps):
            again.fold(type_, data, at)
        return again

    def rebuilt_same(self) -> None:
        assert (again := self.rebuilt()).state.snapshot() == self.hall.state.snapshot() and again.watches == self.hall.watches


MATCH_PAIRS = [pytest.param(GAME_7, GAME_8, 123, id="games_7_8_legal_in_game_twos_start"),
               pytest.param(GAME_25, GAME_26, 15, id="games_25_26_no_move_in_game_twos_start")]
