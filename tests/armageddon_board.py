"""Board 1 of a Norway Chess 2023 round whose drawn classical game is followed by an Armageddon game
on the same board, driven through ``hall_driver.Driver`` (time passed in), for the gateway's
Armageddon tests (test_gateway_armageddon_clock, test_gateway_armageddon_board and its ``_hole``,
test_two_games_held): the event's controls, the instants the players and the arbiter act at, each
ply of the drawn game with its think time, and the board and clock that play them.

Sources: ../shared/regulations/norway-chess-2023.txt, through events/norway-chess-2023.toml: "Each
player will have 120 minutes on the clock with an increment of 10 seconds after move 40." "The time
control for the Armageddon game: white has 10 minutes and black has 7 minutes with an increment for
both players of 1 second per move, starting from move 41." "It shall start within 20 minutes of the
conclusion of the classical game." The drawn game (the ``drawn_game`` fixture of
tests/unit/conftest.py): FIDE Candidates 2024, round 1, Abasov - Nepomniachtchi
(../shared/data/chess/fide_candidates_2024_open.pgn, ``[%clk]`` after every ply, no increment before
move 41, so each ply's think time is its side's drop in ``[%clk]``). docs/protocol.md: a message
after a hole "waits (up to 5 s)".

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from armageddon_board import Board``.
"""

from __future__ import annotations

from pathlib import Path

import chess.pgn
from hall_driver import Driver

from services.regulations.tournament_file import load_tournament


EVENTS = Path(__file__).resolve().parents[1] / "events"
NORWAY = load_tournament((EVENTS / "norway-chess-2023.toml").read_text(), "norway-chess-2023.toml")
MIN = 60_000
START_MS = 120 * MIN  # "Each player will have 120 minutes on the clock"
ARMAGEDDON_MS = {"white": 10 * MIN, "black": 7 * MIN}  # "white has 10 minutes and black has 7 minutes"
MOVE_BEFORE_PRESS_MS = 500  # the board reports the piece, then the player presses
RESULT_AFTER_MS = 20_000  # the players agree the draw 20 s after White's last press, Black's time running
PAUSE_AFTER_MS = 3_000  # ... and stop the clock 3 s after the board's result
SET_AFTER_MS = 5 * MIN  # the arbiter sets the clock for the Armageddon 5 minutes after the end
START_AFTER_MS = 5 * MIN  # ... and it starts 5 minutes later: "within 20 minutes of the conclusion"
HOLD_MS = 5_000  # docs/protocol.md: a message after a hole "waits (up to 5 s)"
DRAWN = "1-1"


def plies(game: chess.pgn.Game, start: dict) -> list[dict]:
    """Each ply: the move, the mover, its think time (ms: the drop in ``[%clk]``, no increment before
    move 41) and both figures after its press, the clock starting at ``start``."""
    clocks, before, out = dict(start), {"white": START_MS, "black": START_MS}, []
    for node in game.mainline():
        side = "white" if node.parent.board().turn else "black"
        shown = int(node.clock() * 1000)
        think = before[side] - shown
        before[side] = shown
        clocks[side] -= think
        out.append({"uci": node.move.uci(), "side": side, "think": think, **{f"{s}_ms": clocks[s] for s in clocks}})
    return out


class Board:
    """Board 1 of round 1 under Norway Chess 2023: its board and clock, and where the clock's
    messages landed."""

    def __init__(self, game: chess.pgn.Game):
        self.game = game
        self.d = Driver("1", config=NORWAY, time_control=NORWAY.time_controls["classical"], hold_ms=HOLD_MS)
        self.d.now = NORWAY.rounds[0].start_ms

    def clock(self, event: str, figures: dict, running: str | None, *, after_ms: int, seq: int | None = None):
        return self.d.send("1", "clock", {"event": event, "white_ms": figures["white"], "black_ms": figures["black"],
                                          "running": running}, seq=seq, after_ms=after_ms)

    def play(self, moves: list[dict], *, press: bool = True) -> None:
        for p in moves:
            self.d.move("1", p["uci"], after_ms=p["think"] - MOVE_BEFORE_PRESS_MS)
            if press:
                self.press(p)

    def press(self, p: dict, **kw) -> None:
        self.clock("press", {"white": p["white_ms"], "black": p["black_ms"]},
                   "black" if p["side"] == "white" else "white", after_ms=kw.pop("after_ms", MOVE_BEFORE_PRESS_MS),
                   **kw)

    def drawn(self, *, last_press: bool = True) -> dict:
        """The classical game up to the board's draw by agreement; returns the clock's figures at the
        pause the players make then (Black's time ran since White's last press)."""
        moves = plies(self.game, {"white": START_MS, "black": START_MS})
        self.clock("start", {"white": START_MS, "black": START_MS}, "white", after_ms=0)
        self.play(moves[:-1])
        self.play(moves[-1:], press=last_press)
        self.last = moves[-1]
        self.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"}, after_ms=RESULT_AFTER_MS)
        (arm,) = self.d.of("armageddon_scheduled")
        self.arm = arm["id"]
        return {"white": self.last["white_ms"], "black": self.last["black_ms"] - RESULT_AFTER_MS - PAUSE_AFTER_MS}

    def drawn_by_the_clock_alone(self, *, pause: bool = True) -> dict:
        """The classical game played to its end, the clock stopped by the players 20 s after White's
        last press (that pause lost on the way when not ``pause``): the draw not recorded yet.
        Returns the pause's figures."""
        moves = plies(self.game, {"white": START_MS, "black": START_MS})
        self.clock("start", {"white": START_MS, "black": START_MS}, "white", after_ms=0)
        self.play(moves)
        paused = {"white": moves[-1]["white_ms"], "black": moves[-1]["black_ms"] - RESULT_AFTER_MS}
        if pause:
            self.clock("pause", paused, None, after_ms=RESULT_AFTER_MS)
        return paused

    def set_and_start(self) -> None:
        """The clock set for the Armageddon while stopped, then started for White."""
        self.clock("set", ARMAGEDDON_MS, None, after_ms=SET_AFTER_MS)
        self.clock("start", ARMAGEDDON_MS, "white", after_ms=START_AFTER_MS)

    def set_after_a_lost_pause(self) -> int:
        """The pause lost on the way: the clock's setting for the Armageddon waits for it, and is
        applied when the hold runs out (``seq_gap``); returns the pause's seq."""
        pause = self.next_seq()
        self.clock("set", ARMAGEDDON_MS, None, seq=pause + 1, after_ms=SET_AFTER_MS)
        self.d.tick(HOLD_MS + 1)
        assert self.d.of("seq_gap") and self.kinds(self.arm) == ["clock_set"]
        return pause

    def armageddon(self, count: int = 6) -> list[dict]:
        """The Armageddon's first ``count`` plies, with the drawn game's think times."""
        return plies(self.game, ARMAGEDDON_MS)[:count]

    def next_seq(self) -> int:
        return self.d.seqs.get(("1", "clock"), 0) + 1

    def clock_entries(self, game: str) -> list[tuple[str, dict]]:
        return [(t, e) for t, e in self.d.entries if t.startswith("clock_") and e.get("game") == game]

    def kinds(self, game: str) -> list[str]:
        return [t for t, _ in self.clock_entries(game)]

    def state(self, game: str):
        return self.d.hall.state.games[game]

    def drawn_ends_with(self, paused: dict) -> None:
        """The drawn game's last clock entry is the players' pause, with its figures."""
        kind, last = self.clock_entries(DRAWN)[-1]
        assert (kind, last["white_ms"], last["black_ms"]) == ("clock_paused", paused["white"], paused["black"])

    def no_false_alarm(self) -> None:
        """No clock disagreement, no penalty, the Armageddon not ended, and a gateway rebuilt from
        the log holds the live state."""
        assert not self.d.of("clock_disagreement") and not self.d.of("penalty_proposed")
        assert not [e for e in self.d.of("game_ended") if e["game"] == self.arm]
        self.rebuilt_same()

    def rebuilt_same(self) -> None:
        assert (again := self.d.rebuilt()).state.snapshot() == self.d.hall.state.snapshot() and again.watches == self.d.hall.watches


def classical(b: Board, *, last_move: bool = True) -> list[dict]:
    """The drawn game's plies from the clock's start, with every press (its last move's board
    message left out when not ``last_move``); returns them."""
    moves = plies(b.game, {"white": START_MS, "black": START_MS})
    b.clock("start", {"white": START_MS, "black": START_MS}, "white", after_ms=0)
    b.play(moves if last_move else moves[:-1])
    if not last_move:
        b.press(moves[-1], after_ms=moves[-1]["think"])
    return moves


def scheduled(b: Board) -> None:
    """The Armageddon set up on the board at the drawn game's end (``armageddon_scheduled``)."""
    (arm,) = b.d.of("armageddon_scheduled")
    b.arm = arm["id"]


def clock_result(b: Board) -> None:
    """The clock reports the draw (docs/protocol.md: "result" with "device": "clock")."""
    b.d.send("1", "result", {"result": "1/2-1/2", "reason": "agreement", "device": "clock"},
             after_ms=RESULT_AFTER_MS)
    scheduled(b)
