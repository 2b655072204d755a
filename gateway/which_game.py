"""Which game a device message belongs to, on a board that plays more than one game in a round: an
Armageddon game after a drawn game (Norway Chess 2023: "If the classical game is drawn, an
Armageddon game will be played"), a checkers match's second game (11-Man National 2017 X.A.b), a
round's next game on the board. Pure.

One concept (DESIGN.md "The arbiter's office and the game a message belongs to"): a device's
messages are split into games at recorded boundaries (``device_game_began``: from a ``seq`` on, the
device's messages are a game's). A device numbers its messages in the order it sends them, so once
a boundary is recorded the game of any message of that device is a lookup of its ``seq``
(``BoardState.game_of``): resends and holes alike. A boundary is recorded once, by ``split``, when
the evidence is there; until then the messages that could be either game's wait in the log
(``message_awaiting_game``), never applied to a guess, and are applied in ``seq`` order once decided.

The evidence that a device began the next game N after its game C (docs/protocol.md "Two games on
one board"):

- the device's own ``game`` counter (the game's number on the board this round);
- C's result final, and the device showing N's start: the board set to N's start position (a
  sensor board), the clock set to N's starting times or started; or a message only N can take (a
  move legal in N's start that C's record cannot take, a press C owes no move for);
- the arbiter's call (``board_game_called``, answered by ``Decider.settle``).

A message fits C when C can take it: while C is open, anything but a sign of N; once C is over, a
result, a clock stopped, the pieces after the end (a placement that is not N's start; a king moved
onto a centre square: the F07 signal), and what C's record still owes (the move its clock's press
was for; the press its last move was made before: FIDE Laws 6.2.1). Of a device's waiting
messages those before the split are C's and the rest N's; the split is where N's evidence is, or
the one place that fits every message. Where more than one place fits, the messages wait.

Two holds cover the whole board (both devices): while a game of the board awaits the arbiter
(``GameState.awaiting``: a claim, a penalty that loses the game), and while N's start was shown
(N's evidence) before C's result is final: what the board sends then waits for the result (the
arbiter's, or C's result from a device, which only C can have before N's first message).
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from services.protocol import placement as pl
from gateway.games import new_game
from gateway.payload import UCI, Message
from services.events.base import Device
from services.regulations.controls import control_from_spec, control_of
from services.rules.base import MoveRefused
from services.state import BoardState, GameState
from services.state.plies import moves_by

ARBITER, NEXT_GAME, EITHER = "arbiter", "next_game", "either"
HELD = {ARBITER: "held: the board's game awaits the arbiter's decision",
        NEXT_GAME: "held: the next game's start was shown before this game's result is final",
        EITHER: "held: this message fits the game that ended and the next one alike"}
STOPPED = ("pause", "set", "period_added")  # a clock not running for a side: never a game's start


class Fit(NamedTuple):
    """How one message fits: ``current`` (C can take it), ``opens`` (it can be N's first),
    ``shows`` (the evidence word when it shows N's start: ``DeviceGameBegan.evidence``)."""

    current: bool
    opens: bool
    shows: str | None = None


class Split(NamedTuple):
    """A device's waiting messages (in ``seq`` order) split: the first ``current`` are C's; then,
    when ``begins`` names the evidence, N (``game``) begins with the next one; the rest wait for
    ``reason`` (None: nothing waits)."""

    current: int
    begins: str | None = None
    reason: str | None = None
    game: str | None = None


def split(d, board: BoardState, device: Device, msgs: list[Message]) -> Split:
    """How ``device``'s messages ``msgs`` (the ones not applied yet, in ``seq`` order, none below the
    device's latest boundary) divide between its game now (C, ``BoardState.current``) and the
    board's next game (N). ``d``: the ``gateway.decide.Decider`` (state and rules core)."""
    state = d.state
    c = state.games[board.current(device)]
    if any(state.games[gid].awaiting for gid in board.games if gid in state.games):
        return Split(0, reason=ARBITER)
    n = _next(state, board, c)
    if not c.ended:
        if not any(_shows_next(d, board, c, n, m) for m in msgs) and not next_shown(d, board):
            return Split(len(msgs))  # nearly every message: the game goes on
        doubt = (f.opens or not f.current for f in (_fit(d, board, c, n, m) for m in msgs))  # not C's for sure
        first = next((i for i, x in enumerate(doubt) if x), len(msgs))
        return Split(first, reason=NEXT_GAME if first < len(msgs) else None)
    if n is None:  # nothing open follows C on the board: its late messages, after its end
        first = next((i for i, m in enumerate(msgs) if "game" in m.body and _shows_next(d, board, c, n, m)),
                     len(msgs))
        # a counter naming a later game that is over (X.A.b: "forfeits the current game, as well as
        # the next game if not started"): that game's, answered "game over"; a counter past the
        # board's games waits for a game to be set up
        over = _counted_over(state, board, msgs[first]) if first < len(msgs) else None
        if over is not None:
            return Split(first, "counter", None, over)
        return Split(first, reason=NEXT_GAME if first < len(msgs) else None)
    fits = _in_context(d, n, msgs, [_fit(d, board, c, n, m) for m in msgs])
    places = [j for j in range(len(msgs) + 1) if _fits_at(d, c, n, msgs, fits, j)]
    shown = next((i for i, f in enumerate(fits) if f.shows), None)
    if shown is not None and shown in places:
        return Split(shown, fits[shown].shows, None, n.id)
    if len(places) == 1:
        j = places[0]
        return Split(j, (fits[j].shows or "next_only") if j < len(msgs) else None, None, n.id)
    return Split(min(places) if places else 0, reason=EITHER)


def waiting(board: BoardState, device: Device) -> list[Message]:
    """``device``'s messages ``board`` holds (``message_awaiting_game``), in ``seq`` order, as the
    messages they were (read when they were first read)."""
    held = sorted((m for m in board.awaiting if m["device"] == device), key=lambda m: m["seq"])
    return [Message(board.board, m["kind"], device, m["seq"], m["body"], read_at=m["read_at"],
                    late=m.get("late", False)) for m in held]


def next_shown(d, board: BoardState) -> bool:
    """Whether a message the board holds shows the next game's start while its device's game is
    not over (the whole board then waits for that game's result)."""
    if not board.awaiting:
        return False
    for device in {m["device"] for m in board.awaiting}:
        c = d.state.games[board.current(device)]
        if not c.ended:
            n = _next(d.state, board, c)
            if any(_shows_next(d, board, c, n, m) for m in waiting(board, device)):
                return True
    return False


def _in_context(d, n: GameState, msgs: list[Message], fits: list[Fit]) -> list[Fit]:
    """``fits`` of board moves read with the moves before them: a move neither C owes nor the F07
    signal fits C (the ended game's pieces moved after its end: "game over") only when it cannot
    follow the moves before it as N's either (1.e4's reply 1...e5 is no move after the end)."""
    if not msgs or msgs[0].device != "board":
        return fits
    out: list[Fit] = []
    before: list[str] = []
    for m, f in zip(msgs, fits):
        text = d.move_text_of(m, n) if m.kind == "move" else ""
        if text and f.current and not f.opens and before and _plays(d, n, before + [text]):
            f = Fit(False, False)
        out.append(f)
        if text:
            before.append(text)
    return out


def _fits_at(d, c: GameState, n: GameState, msgs: list[Message], fits: list[Fit], j: int) -> bool:
    """Whether N can begin at ``msgs[j]`` (``j == len(msgs)``: all are C's): every message before
    fits C, and no more of C's owed moves or presses than it owes; ``msgs[j]`` can open N, and N's
    moves follow from its start."""
    if not all(f.current for f in fits[:j]) or (j < len(msgs) and not fits[j].opens):
        return False
    if msgs and msgs[0].device == "board":  # a move of C's that N's start takes too is one C owes
        owed = sum(1 for m, f in zip(msgs[:j], fits) if m.kind == "move" and f.opens)
        return owed <= _owed_moves(c) and _plays(d, n, [d.move_text_of(m, n) for m in msgs[j:] if m.kind == "move"])
    for side in ("white", "black"):
        presses = sum(1 for m in msgs[:j] if _presser(m) == side)
        if presses > _owed_presses(c, side):
            return False
    return True


def _fit(d, board: BoardState, c: GameState, n: GameState | None, msg: Message) -> Fit:
    """How ``msg`` fits C (``c``) and N (``n``, None: no next game, or only one that may come)."""
    counter = msg.body.get("game")
    if isinstance(counter, int):
        target = board.games[counter - 1] if 0 < counter <= len(board.games) else None
        return Fit(target == c.id, target is not None and target == (n.id if n else None),
                   "counter" if target is not None and n is not None and target == n.id else None)
    shows = _shows_next(d, board, c, n, msg)
    if shows:
        return Fit(False, True, shows)
    if msg.kind == "result":
        return Fit(True, False)
    if not c.ended:
        return Fit(True, _opens(d, board, c, n, msg))
    if msg.kind == "clock":
        event = msg.body.get("event")
        if event in STOPPED:
            return Fit(True, False)
        side = _presser(msg)
        return Fit(side is not None and _owed_presses(c, side) > 0, True)
    if msg.kind == "position":
        return Fit(True, False)  # N's start or one move from it is evidence (``_shows_next``)
    if n is None:
        return Fit(True, False)
    owed = _owed_moves(c) > 0 and _plays(d, c, [d.move_text_of(msg, c)])
    opens = _plays(d, n, [d.move_text_of(msg, n)])
    return Fit(owed or _signal(board, c, d.move_text_of(msg, c)) or not opens, opens)


def _signal(board: BoardState, c: GameState, move: str) -> bool:
    """Whether chess move ``move`` takes a king onto a centre square of C's pieces after its end:
    half of the arbiter's result signal (F07: "the arbiter places the kings on the centre
    squares")."""
    if c.variant != "chess" or not UCI.match(move):
        return False
    pieces = chess.BaseBoard(board.physical or c.fen.split(" ")[0])
    piece = pieces.piece_at(chess.parse_square(move[:2]))
    return piece is not None and piece.piece_type == chess.KING and chess.parse_square(move[2:4]) in pl.CENTRE


def _opens(d, board: BoardState, c: GameState, n: GameState | None, msg: Message) -> bool:
    """While C is open: whether ``msg`` could be N's first (a move N's start takes, a clock running,
    the placement of N's start or of one move from it; N, when not set up yet, from the standard
    start)."""
    if msg.kind == "clock":
        return msg.body.get("event") not in STOPPED
    if msg.kind == "move":
        return _plays(d, n, [d.move_text_of(msg, n or c)])
    return msg.kind == "position" and (n or c).variant == "chess" and _shows_start(d, board, n, msg)


def _shows_start(d, board: BoardState, n: GameState | None, msg: Message) -> bool:
    """Whether placement message ``msg`` shows N's start, or the position one legal move from it
    (N None: the standard start), or the start turned 180 degrees on a board not yet oriented (F06)."""
    raw = msg.body.get("placement", "")
    if not board.oriented and pl.is_rotated_start(raw):
        return True
    placement = pl.rotate_placement(raw) if board.rotated else raw
    start = d.hall.rules.board(n) if n is not None else chess.STARTING_FEN
    return pl.infer_move(start, placement).kind in (pl.SAME, pl.MOVE)


def _shows_next(d, board: BoardState, c: GameState, n: GameState | None, msg: Message) -> str | None:
    """The evidence word when ``msg`` shows N's start: the device's counter past C's number; the
    clock set or started at N's starting times (also a possible Armageddon's while C is open), or
    started again (a match's next game); once C is over, the board's placement of N's start (or of
    one move from it; the start turned 180 degrees on a board not yet oriented, F06)."""
    counter = msg.body.get("game")
    if isinstance(counter, int):
        return "counter" if counter > board.games.index(c.id) + 1 else None
    if msg.kind == "clock":
        event = msg.body.get("event")
        if event not in ("set", "start", "resume"):
            return None  # a press, a pause: nearly every clock message
        times = _starting_times(d.state, n, c)
        if times is not None and (msg.body.get("white_ms"), msg.body.get("black_ms")) == times:
            return "starting_times"
        if event == "start" and n is not None and (c.ended or c.clock_event is not None):
            return "clock_start"
        return None
    if msg.kind != "position" or not c.ended or n is None or n.variant != "chess":
        return None
    return "start_position" if _shows_start(d, board, n, msg) else None


def _counted_over(state, board: BoardState, msg: Message) -> str | None:
    """The game ``msg``'s ``game`` counter names when it is one of ``board``'s games and over (a
    match's second game forfeited with the first, 11-Man National 2017 X.A.b), else None (no
    counter, or one past the board's games: the message waits for a game to be set up)."""
    counter = msg.body.get("game")
    if not isinstance(counter, int) or not 0 < counter <= len(board.games):
        return None
    g = state.games.get(board.games[counter - 1])
    return g.id if g is not None and g.ended else None


def _next(state, board: BoardState, c: GameState) -> GameState | None:
    """N: the first game after C on the board not over yet (a match's second game forfeited with
    the first is never played: X.A.b), or None."""
    gid = board.next_game(c.id)
    while gid is not None:
        g = state.games.get(gid)
        if g is not None and not g.ended:
            return g
        gid = board.next_game(gid)
    return None


def _starting_times(state, n: GameState | None, c: GameState) -> tuple[int, int] | None:
    """``(white_ms, black_ms)`` N starts with, once C has started (a setting before C's first move
    or clock start is C's own): a match's second game's carried times (``match_game_ready``), else
    its control's (not a match clock's: carried, unknown before C's end); while C is open and an
    Armageddon game may follow it (Norway Chess 2023: "If the classical game is drawn, an
    Armageddon game will be played"), the Armageddon's control's. None when unknown or untimed."""
    if c.started_at is None:
        return None
    if n is not None:
        if n.prepared:
            return (n.clock.white_ms, n.clock.black_ms) if n.clock is not None else None
        control = control_of(n.setup, state.config)
        if control is not None and control.carries_over:
            return None
    else:
        t = state.config
        if (t is None or c.ended or not t.regulations.armageddon_after_draw or c.kind != "classical"
                or c.follow_up):
            return None
        try:
            control = control_from_spec(t.time_controls.get("armageddon"))
        except ValueError:
            return None
    if control is None or not control.timed:
        return None
    return control.starting_ms("white"), control.starting_ms("black")


def _owed_moves(g: GameState) -> int:
    """1 when the side to move in ``g`` pressed its clock after its last move on the board (FIDE
    Laws 6.2.1: the press ends a move): a press the board's move never came for, kept in the per-ply
    record, or taken out of it with a penalty proposed for it (7.5.3); else 0."""
    side = g.turn
    made = g.moves_by(side) - moves_by(g, side, g.timed_from or 0)
    return int(len(g.presses[side]) > made or ("press_without_move", side, made + 1) in g.reported)


def _owed_presses(g: GameState, side: str) -> int:
    """How many of ``side``'s moves in ``g`` since the clock started have no press yet (6.2.1)."""
    if g.timed_from is None:
        return 0
    return max(0, g.moves_by(side) - moves_by(g, side, g.timed_from) - len(g.presses[side]))


def _presser(msg: Message) -> str | None:
    """The side a clock press came from (the side not running after it), else None."""
    if msg.kind != "clock" or msg.body.get("event") != "press":
        return None
    running = msg.body.get("running")
    return {"white": "black", "black": "white"}.get(running) if isinstance(running, str) else None


def _plays(d, g: GameState | None, moves: list[str]) -> bool:
    """Whether the rules core plays ``moves`` one after another from ``g``'s position (None: the
    standard start of chess), on a copy: nothing is played."""
    game = d.hall.rules.judge(g) if g is not None else new_game({"variant": "chess"})
    try:
        for move in moves:
            game.play(move)
    except (MoveRefused, ValueError):
        return False
    return True
