"""Which game a board message belongs to before the first move of a game that follows another on
the same board: an Armageddon game after a drawn game (Norway Chess 2023: "If the classical game is
drawn, an Armageddon game will be played. It shall start within 20 minutes of the conclusion of the
classical game"), a checkers match's second game (11-Man National 2017 X.A.b: "The clocks shall be
paused between games").

The next game is the board's from the end of the one before (an Armageddon's, ``armageddon_scheduled``)
or from the board's next ``move`` or clock ``start`` (a match's second game, ``match_game_started``),
but until its first move the pieces on the board are still the ended game's, and the board's
messages of that game can reach the gateway after its end: the arbiter's result signal (F07: the
kings on the centre squares, "After the game has ended"), the board's result message after the
clock's or the arbiter's, the ended game's last move late, and, while the pieces are set up again,
placements of neither game. Taken as the next game's they would score or hold a game never played
(a drawn Armageddon is Black's: "If the Armageddon game is drawn, black will win"; a match's second
game has the colours reversed, so game 1's result given to it scores the other player). What the
next game can read as its start or its first move is its own; the rest is the ended game's,
answered as after its end (``Decider.after_end``).

After the next game's first move too, a message of the ended game can still come: resent from a
hole the gateway skipped (``seq_gap``: the board's last messages of the ended game lost, the next
game's first move applied when the hold ran out), it is applied when it comes. The board numbers
its messages in the order it sends them, so one with a lower ``seq`` than the next game's first
board entry (``GameState.board_seq``) was sent before it: the ended game's, when the ended game's
own board entries began at or before that ``seq``. Decided from the state alone (a gateway rebuilt
from the log answers the same); docs/protocol.md "Two games on one board" and "An Armageddon game
after a drawn game" say it for the devices. ``gateway.clock_game`` has the clock's messages. Pure.
"""

from __future__ import annotations

from gateway import placement as pl
from gateway.payload import Message
from services.events.vocabulary import Variant
from services.rules.base import MoveRefused
from services.state import BoardState, GameState, HallState
from services.state.plies import moves_by


def asks(g: GameState, msg: Message) -> bool:
    """Whether board device message ``msg`` (``msg.device`` "board", ``msg.seq`` set) may belong to
    the game before the board's game ``g``: the board sent it before ``g``'s first board entry (a
    lower ``seq`` than ``GameState.board_seq``: resent from a hole a ``seq_gap`` skipped), or ``g``
    follows another game on its board (``GameState.follows``), has no move yet and has not ended.
    Most messages (a game under way): one comparison of two seqs, no search."""
    if g.ply:
        return g.board_seq is not None and msg.seq is not None and msg.seq < g.board_seq
    return not g.ended and g.follows is not None


def game_of(state: HallState, rules, board: BoardState, g: GameState, msg: Message, move: str | None) -> GameState:
    """The game board message ``msg`` belongs to when ``asks(g, msg)`` (or, for a match's second
    game ``g`` not begun yet, whether the board's ``move`` would begin it): the game ``g`` follows
    (``GameState.follows``, ended), or ``g``. ``rules``: the gateway's ``RulesCache``; ``move``: a
    ``move`` message's text as the rules read it (``Decider.move_text``).

    - any message the board sent before ``g``'s first board entry (``sent_before``) is the ended
      game's, whatever ``g`` has played since: a hole skipped, then resent (London 1992 game 25's
      lost 14-18 and result resent after game 26's tenth ply; Abasov - Nepomniachtchi's lost
      34.Re4, ``e2e4``, legal as the Armageddon's 4.e4, and its lost draw, which would end the
      Armageddon Black's); after ``g``'s first move, any other message is ``g``'s;
    - a ``result`` is the ended game's (its result confirmed, or a conflict answered "game over:
      result already R"): a game ended before its first move is the arbiter's to record;
    - a ``position`` (chess) is ``g``'s when it shows ``g``'s start or one legal move from it (or
      the start turned 180 degrees on a board not yet oriented, F06), else the ended game's (the
      F07 signal, the ended game's last placement late, the pieces being set up again);
    - a ``move`` is the ended game's when the rules refuse it in ``g``'s start (a king moved onto a
      centre square for F07, the ended game's last move: London 1992 game 25's last, 14-18, has no
      man to move in game 26's start), or when it is the move the ended game's clock shows made and
      the board never sent (``owes_move``) and legal in the ended game's final position (34.Re4,
      e2e4, is also White's first move 1.e4; London 1992 game 7's last, White's king 10-14, is also
      a move of Black's men in game 8's start); else ``g``'s (a first move off a match's ballot
      too: refused as such, X.A.d)."""
    before = state.games.get(g.follows or "")
    if before is None or not before.ended:
        return g
    if sent_before(before, g, msg):
        return before
    if g.ply:
        return g
    if msg.kind == "result":
        return before
    if msg.kind == "position" and g.variant == Variant.CHESS:
        raw = msg.body["placement"]
        if not board.oriented and pl.is_rotated_start(raw):
            return g
        placement = pl.rotate_placement(raw) if board.rotated else raw
        return g if pl.infer_move(rules.board(g), placement).kind in (pl.SAME, pl.MOVE) else before
    if msg.kind == "move" and move is not None:
        if not _legal(rules, g, move):
            return before
        return before if owes_move(before) and _legal(rules, before, move) else g
    return g


def sent_before(before: GameState, g: GameState, msg: Message) -> bool:
    """Whether the board sent ``msg`` while its game was ``before``, the game ``g`` follows: below
    ``g``'s lowest board seq (``GameState.board_seq``), at or above ``before``'s (a message below
    both is left to the rest of ``game_of``)."""
    return (g.board_seq is not None and before.board_seq is not None and msg.seq is not None
            and before.board_seq <= msg.seq < g.board_seq)


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
