"""The event's regulations as the tests drive them: what ``gateway.hall.Hall`` does with every entry,
without devices. Entries are folded into a ``services.state.HallState``; the proposals of
``services.regulations.referee`` are folded as the gateway folds what it appends, and returned.

``Referee(tournament)``: ``observe(type, data, at)`` folds one entry and returns the regulations'
answers to it (folded already, answers to answers included); ``tick(now)`` returns (and folds) what
is due as time passes; ``review_result(game, result, reason, seq)`` what a device's result gets;
``games``: the state's GameStates by id; ``watches``: the regulations' clock models beside the fold
(``services.regulations.clock_watches``), as the gateway keeps them.
"""

from __future__ import annotations

from gateway.hall import Turn
from services.events import decode
from services.regulations import referee
from services.regulations.clock_watches import ClockWatches
from services.state import HallState


class Referee:
    def __init__(self, tournament, clock_rate: float = 1.0):
        self.state = HallState(tournament, clock_rate)
        self.watches = ClockWatches()

    @property
    def games(self):
        return self.state.games

    def observe(self, type: str, data: dict, at: int) -> list[tuple[str, dict]]:
        turn = Turn(self, at)
        event = decode(type, data)
        turn.emitted.append((event, *self.watches.apply(self.state, event, at)))
        turn.answers()
        return turn.step.entries

    def owns(self, event) -> bool:
        """One hall, no shards: every answer is this referee's (``gateway.hall.Hall.owns``)."""
        return True

    def touched(self, event, changes) -> None:
        """The gateway's timer notes the games an entry touched (``gateway.hall.Hall.touched``);
        this harness ticks every game (``referee.tick``)."""

    def laws_answers(self, turn, changes) -> None:
        """The Laws' answers need a game's rules core (``gateway.hall.Hall.laws_answers``): the
        gateway's, not driven here."""

    def tick(self, now_ms: int) -> list[tuple[str, dict]]:
        turn = Turn(self, now_ms)
        for event in referee.tick(self.state, now_ms, self.watches):
            turn.emit(event)
        turn.answers()
        return turn.step.entries

    def review_result(self, game: str, result: str, reason: str | None, seq: int | None = None):
        answers = referee.review_result(self.state, game, result, reason, seq)
        return None if answers is None else [a.encode() for a in answers]


def played(game: str, ply: int, move: str = "", *, turn: str | None = None, board: str = "1",
           first: str = "white") -> dict:
    """The data of a ``move_played`` entry (docs/events.md) for tests of the regulations, where only
    who moved and when matter: ``turn`` (the side to move after) from ``ply`` and ``first`` (who
    makes ply 1: "black" in checkers) unless given; no real position (``fen`` empty)."""
    if turn is None:
        mover = first if ply % 2 == 1 else ("black" if first == "white" else "white")
        turn = "black" if mover == "white" else "white"
    return {"game": game, "board": board, "device": "board", "ply": ply, "move": move, "san": move, "fen": "",
            "turn": turn, "claimable": [], "from": "move"}
