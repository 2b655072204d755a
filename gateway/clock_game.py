"""Which game a clock message belongs to on a board that plays one game after another: a checkers
match's second game (11-Man National 2017 X.A.b). The board and its clock number their messages
apart (docs/protocol.md "Fields"), so a clock message of the game before can reach the gateway after
the board has begun the next game; the clock's own order and what it shows decide, read from the
state alone (a gateway rebuilt from the log answers the same). docs/protocol.md "Two games on one
board" says it for the devices. Pure.
"""

from __future__ import annotations

from gateway.payload import Message
from services.state import GameState, HallState


def asks(g: GameState, msg: Message) -> bool:
    """Whether clock device message ``msg`` may belong to the game before the board's game ``g``:
    ``g`` has no clock entry yet. Most messages: one check."""
    return g.clock_event is None


def clock_game(state: HallState, g: GameState, msg: Message) -> GameState:
    """The game clock device message ``msg`` (a ``clock`` or a clock's ``result``) belongs to when
    ``asks(g, msg)``: the game before the board's game ``g`` (``match_game``), else ``g``."""
    return match_game(state, g, msg)


def match_game(state: HallState, g: GameState, msg: Message) -> GameState:
    """For a checkers match's game ``g`` with no clock reading yet: the match game ``g`` follows,
    when the clock's last reading was that game's and the message shows no side's time running (a
    pause, a setting while stopped) or is the clock's result, else ``g``. The clock is paused
    between the games and moves on to the next by its ``start`` (X.A.b), and the board and the
    clock are ordered apart, so the board's first move of game 2 can reach the gateway before the
    clock's pause at the end of game 1. A clock running for a side is game 2's (its start lost)."""
    if msg.kind == "clock" and (msg.body.get("event") == "start" or msg.body.get("running") is not None):
        return g
    before = state.games.get((g.setup.get("match") or {}).get("follows") or "")
    return before if before is not None and before.clock_event is not None else g
