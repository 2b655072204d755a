"""Which game a clock message belongs to on a board that plays one game after another: a checkers
match's second game (11-Man National 2017 X.A.b), an Armageddon game after a drawn game (Norway
Chess 2023: "If the classical game is drawn, an Armageddon game will be played"). The board and its
clock number their messages apart (docs/protocol.md "Fields"), so a clock message of the game
before can reach the gateway after the board has begun the next game; the clock's own order and
what it shows decide, read from the state alone (a gateway rebuilt from the log answers the same).
docs/protocol.md "Two games on one board" and "An Armageddon game after a drawn game" say it for
the devices. Pure.
"""

from __future__ import annotations

from gateway.payload import Message
from services.state import GameState, HallState

MOVES_ON = ("set", "start")  # the clock moves on to an Armageddon game: set while stopped, then started


def asks(g: GameState, msg: Message) -> bool:
    """Whether clock device message ``msg`` may belong to the game before the board's game ``g``:
    ``g`` has no clock entry yet, or the clock sent ``msg`` before ``g``'s first one (a lower
    ``seq``: resent from a hole a ``seq_gap`` skipped). Most messages: one check."""
    if g.clock_event is None:
        return True
    return g.clock_seq is not None and msg.seq is not None and msg.seq < g.clock_seq


def clock_game(state: HallState, g: GameState, msg: Message) -> GameState:
    """The game clock device message ``msg`` (a ``clock`` or a clock's ``result``) belongs to when
    ``asks(g, msg)``: the game before the board's game ``g`` (``armageddon`` or ``match_game``), else
    ``g``."""
    if g.kind == "armageddon":
        return armageddon(state, g, msg)
    return match_game(state, g, msg)


def armageddon(state: HallState, g: GameState, msg: Message) -> GameState:
    """For an Armageddon game ``g`` (Norway Chess 2023; its SETUP's ``follows``: the drawn game, set
    up at its end, docs/protocol.md "An Armageddon game after a drawn game"):
    a ``set`` or ``start`` is ``g``'s (the clock is set while stopped to the Armageddon's times,
    then started: its ``start``, or a ``resume`` once set); any other message sent before ``g``'s
    clock began (``asks``) is the drawn game's when it is the clock's result or shows a time the
    drawn game's clock last showed for a side (a side whose time is not running shows the same
    figure until it runs again: the drawn game's last press or pause, late), else ``g``'s (a clock
    set with no message, now running with the Armageddon's times). Times in ms."""
    if msg.kind == "clock" and msg.body.get("event") in MOVES_ON:
        return g
    drawn = state.games.get(g.follows or "")
    if drawn is None or drawn.clock is None:
        return g
    if msg.kind != "clock" or _shows(drawn.clock, msg.body):
        return drawn
    return g


def _shows(clock: dict, body: dict) -> bool:
    """The message's figures (ms) show one side's time as ``clock`` (a game's last reading) has it."""
    return body.get("white_ms") == clock.get("white_ms") or body.get("black_ms") == clock.get("black_ms")


def match_game(state: HallState, g: GameState, msg: Message) -> GameState:
    """For a checkers match's game ``g`` with no clock reading yet, or a message the clock sent
    before ``g``'s first (``asks``): the match game ``g`` follows, when the clock's last reading was
    that game's and the message shows no side's time running (a pause, a setting while stopped) or
    is the clock's result, else ``g``. The clock is paused between the games and moves on to the
    next by its ``start`` (X.A.b), and the board and the clock are ordered apart, so the board's
    first move of game 2 can reach the gateway before the clock's pause at the end of game 1. A
    clock running for a side is game 2's (its start lost)."""
    if msg.kind == "clock" and (msg.body.get("event") == "start" or msg.body.get("running") is not None):
        return g
    before = state.games.get(g.follows or "")
    return before if before is not None and before.clock_event is not None else g
