"""Which game a board message belongs to before an Armageddon game's first move (Norway Chess 2023:
"If the classical game is drawn, an Armageddon game will be played. It shall start within 20 minutes
of the conclusion of the classical game").

The drawn game's end sets up the Armageddon on the same board at once (``armageddon_scheduled``: the
board's game is the Armageddon from then on), but until the Armageddon's first move the pieces on the
board are still the drawn game's: the arbiter's result signal (F07: the kings on the centre squares,
"After the game has ended"), the board's result message after the clock's, the drawn game's last
move late, and, while the pieces are set up again, placements of neither game. A drawn Armageddon is
Black's ("If the Armageddon game is drawn, black will win"), so a drawn game's message taken as the
Armageddon's would score a game never played. What the Armageddon can read as its start or its
first move is its own; the rest is the drawn game's, answered as after its end
(``Decider.after_end``). Decided from the state alone (a gateway rebuilt from the log answers the
same); docs/protocol.md "An Armageddon game after a drawn game" says it for the devices.
``gateway.clock_game`` has the clock's messages. Pure.
"""

from __future__ import annotations

from gateway import placement as pl
from gateway.payload import Message
from services.rules.base import MoveRefused
from services.state import BoardState, GameState, HallState
from services.state.plies import moves_by


def asks(g: GameState, msg: Message) -> bool:
    """Whether board device message ``msg`` may belong to the game before the board's game ``g``:
    ``g`` is an Armageddon game that has no move yet and has not ended. Most messages: one check."""
    return not g.ply and g.kind == "armageddon" and msg.device == "board" and not g.ended


def armageddon(state: HallState, rules, board: BoardState, g: GameState, msg: Message, move: str | None) -> GameState:
    """The game board message ``msg`` belongs to when ``asks(g, msg)``: the drawn game ``g``
    follows (its SETUP's ``follows``, ended), or ``g``. ``rules``: the gateway's
    ``RulesCache``; ``move``: a ``move`` message's text as the rules read it (``Decider.move_text``).

    - a ``result`` is the drawn game's (its result confirmed, or a conflict answered "game over:
      result already R"): an Armageddon ended before its first move is the arbiter's to record;
    - a ``position`` is ``g``'s when it shows ``g``'s start or one legal move from it (or the start
      turned 180 degrees on a board not yet oriented, F06), else the drawn game's (the F07 signal,
      the drawn game's last placement late, the pieces being set up again);
    - a ``move`` is the drawn game's when the rules refuse it in ``g``'s start (a king moved onto
      a centre square for F07, the drawn game's last move), or when it is the move the drawn game's
      clock shows made and the board never sent (``owes_move``) and legal in the drawn game's final
      position (34.Re4, e2e4, is also White's first move 1.e4); else ``g``'s."""
    drawn = state.games.get(g.setup.get("follows") or "")
    if drawn is None or not drawn.ended:
        return g
    if msg.kind == "result":
        return drawn
    if msg.kind == "position":
        raw = msg.body["placement"]
        if not board.oriented and pl.is_rotated_start(raw):
            return g
        placement = pl.rotate_placement(raw) if board.rotated else raw
        return g if pl.infer_move(rules.board(g), placement).kind in (pl.SAME, pl.MOVE) else drawn
    if msg.kind == "move" and move is not None:
        if not _legal(rules, g, move):
            return drawn
        return drawn if owes_move(drawn) and _legal(rules, drawn, move) else g
    return g


def owes_move(g: GameState) -> bool:
    """Whether the side to move in ``g`` pressed its clock after its last move on the board (FIDE
    Laws 6.2.1: the press ends a move): a press the board's move never came for, kept in the
    per-ply record, or taken out of it with a penalty proposed for it (7.5.3: ``reported``)."""
    side = g.turn
    made = g.moves_by(side) - moves_by(g, side, g.timed_from or 0)
    return len(g.presses[side]) > made or ("press_without_move", side, made + 1) in g.reported


def _legal(rules, g: GameState, move: str) -> bool:
    """Whether the rules core takes ``move`` in ``g``'s position (on a copy: nothing is played)."""
    try:
        rules.judge(g).play(move)
    except (MoveRefused, ValueError):
        return False
    return True
