"""Moves made while the bridge did not hear LiveChess, recovered from LiveChess's own reading of the
game (issue 31: "E-boards that never lose a move"). Pure (python-chess).

The bridge sends each placement LiveChess reports, and the gateway reads a move from each one that
is one legal move on (docs/protocol.md "Placement boards"). When the link to LiveChess is cut while
the players go on, the next placement is several moves on: no single move gives it, and the game
stops there. LiveChess itself saw every move: each ``eboardevent`` carries its reconstruction of the
game, ``start`` (the FEN it reconstructs from) and ``san`` (every move it detected since, in SAN),
and ``match`` (the board shows the position after them) (devices/livechess/api.py).

The bridge keeps, with the board's other readings, the part of that list the gateway has been given
(``Covered``: LiveChess's ``start`` and the moves whose positions went out as placements). When an
event's list goes further than that, the positions between are sent too, one placement each, in
order, so the gateway reads one move from each:

- every move is checked against the position before it (python-chess ``parse_san``: legal there);
  the list is read up to its first move that is not (LiveChess never sends one; a king moved onto the
  centre for the result signal can be), and the moves before it all go out;
- the positions go out only from what was covered (the longest common part of the two lists): a
  position the gateway has already passed is never sent again (a knight moved back looks like a
  move). A list that keeps less than all but the last ``REPLACED`` covered moves is a new game on
  the board (set up again: an Armageddon game, the next round's game), and a board that has sent
  nothing yet this round (``fresh``) starts one: both go out from their start position on (the
  gateway reads the orientation and the new game from it). A reading from another ``start``
  (LiveChess set up again from a position) is taken as the new covered list, nothing sent;
- the last move of the list goes out only when the board shows the position after it (``match``,
  checked against the placement itself) or that position with the kings on the centre squares (the
  arbiter's result signal, F07; a piece or two moved off the centre squares for them): while a piece
  is in the air LiveChess may read a move it replaces at the next event, which then brings it again;
- ``turned``: whether the board's placement is that position turned 180 degrees (the evidence of
  how LiveChess reports a board set up the other way round, or flipped in LiveChess), None when the
  event does not show it. The caller sends each position in the orientation the gateway reads the
  board in.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from services.protocol import placement as pl

SIGNAL_MOVED = 4  # squares besides the kings' an arbiter's result signal may change (pieces moved off
# the centre squares for the kings); a placement further from the position is not that position
REPLACED = 2  # how many of its last readings LiveChess may replace (lila ui/dgt play.ts: "LiveChess
# detects the wrong move while pieces are still on the air"): a list that keeps less is a new game


@dataclass(frozen=True)
class Covered:
    """What the gateway has been given of LiveChess's reading: ``start`` (FEN) and ``san``; ``fen``
    the position after them, when known (a list that goes on from there is read from it: a game's
    whole list read again at every event would cost ~100 us a move)."""

    start: str
    san: tuple[str, ...]
    fen: str | None = None


@dataclass(frozen=True)
class Recovery:
    """The outcome of one event's reading: ``steps`` ``[(placement, covered), ...]``, each position
    to send (game terms: White on ranks 1-2 at the start) with what is covered once it is sent;
    ``covered`` after the event; ``turned`` (see the module notes) or None; ``problem`` a reading
    that could not be used, else None."""

    steps: tuple[tuple[str, Covered], ...]
    covered: Covered | None
    turned: bool | None
    problem: str | None = None


def same_start(a: str, b: str) -> bool:
    """Whether two FENs are the same position (placement, side to move, castling, en passant: the
    move counters aside)."""
    return a.split()[:4] == b.split()[:4]


def _replay(start: str, san: tuple[str, ...], known: Covered | None) -> tuple[list[str | None], list[str], str | None]:
    """``(placements, fens, problem)``: the placement and FEN after each legal move of ``san`` from
    ``start`` (index 0: ``start``'s), up to the first move that is not legal there, and why it
    stopped (None when every move was read). From ``known``'s position when ``san`` goes on from its
    list (the positions before it are then None: they are never sent)."""
    done = 0
    board = chess.Board(start)
    if known is not None and known.fen is not None and san[: len(known.san)] == known.san:
        done, board = len(known.san), chess.Board(known.fen)
    placements: list[str | None] = [None] * done + [board.board_fen()]
    fens = [""] * done + [board.fen()]
    for n, text in enumerate(san[done:], start=done + 1):
        try:
            board.push(board.parse_san(text))
        except ValueError:
            return placements, fens, f"LiveChess's move {n} ({text}) is not legal in {board.fen()}"
        placements.append(board.board_fen())
        fens.append(board.fen())
    return placements, fens, None


def squares_apart(a: str, b: str) -> int:
    """How many squares two placements differ on."""
    x, y = chess.BaseBoard(a), chess.BaseBoard(b)
    return sum(x.piece_at(sq) != y.piece_at(sq) for sq in chess.SQUARES)


def _without_kings(placement: str) -> str:
    board = chess.BaseBoard(placement)
    for square in list(board.pieces(chess.KING, chess.WHITE) | board.pieces(chess.KING, chess.BLACK)):
        board.remove_piece_at(square)
    return board.board_fen()


def _shown(placement: str | None, position: str) -> bool | None:
    """How the board's ``placement`` shows ``position``: False (as it is), True (turned 180
    degrees), also with both kings moved onto the centre squares (the result signal, F07: the game
    is over, the pieces no longer move) and at most ``SIGNAL_MOVED`` other squares changed to make
    room for them; None when it does not show it."""
    if placement is None:
        return None
    if placement == position:  # the usual case, at every move: one comparison
        return False
    rotated = pl.rotate_placement(placement)
    if rotated == position:
        return True
    if not pl.result_signal(placement):  # the same on the board turned round: d4/e5 dark, d5/e4 light
        return None
    # the kings on the centre squares: the game is over. The arbiter may have moved a piece off a
    # centre square for a king (or the king took its place): the nearer orientation, if near at all
    near = {turned: squares_apart(_without_kings(seen), _without_kings(position))
            for turned, seen in ((False, placement), (True, rotated))}
    turned = min(near, key=lambda k: near[k])
    return turned if near[turned] <= SIGNAL_MOVED else None


def recover(covered: Covered | None, fresh: bool, start: str | None, san: tuple[str, ...],
            placement: str | None, match: bool | None) -> Recovery:
    """The positions to send for one event's reading (module notes). ``covered``: what was covered
    before; ``fresh``: the board has sent no placement this round; ``start``, ``san``, ``match``:
    the event's reading (``start`` None: the standard start); ``placement``: the event's board as
    LiveChess reports it, or None. Never raises: a reading that cannot be used is the ``problem``."""
    start = start or chess.STARTING_FEN
    known = covered if covered is not None and same_start(covered.start, start) else None
    try:
        positions, fens, stop = _replay(start, san, known)
    except ValueError:
        return Recovery((), covered, None, f"LiveChess's start is not a FEN: {start!r}"[:200])
    read = len(positions) - 1  # the legal moves read
    last = positions[-1]
    assert last is not None
    turned = _shown(placement, last)
    shows_last = stop is None and (turned is not None or (match is True and placement is None))
    # the last move read waits until the board shows it, unless the list goes on past it (a move
    # that is not legal follows: the moves before it are no longer LiveChess's last reading)
    end = read if shows_last or stop is not None else max(read - 1, 0)
    first = None  # the first position to send
    if known is not None:
        common = 0
        while common < min(len(known.san), read) and known.san[common] == san[common]:
            common += 1
        # LiveChess replaces a reading or two while a piece is in the air; a list that keeps less
        # of the covered one is a new game on the board (set up again from the same start)
        first = common + 1 if common >= len(known.san) - REPLACED else 0
    elif covered is None and fresh and same_start(start, chess.STARTING_FEN):
        first = 0
    if first is None:  # nothing known of what the gateway has: the list is taken as it stands
        return Recovery((), Covered(start, tuple(san[:end]), fens[end] or None), turned, stop)
    if first == 0 and positions[0] is None:  # a new game from the start known: read from it
        positions, fens, stop = _replay(start, san, None)
    end = max(end, first - 1)
    steps = tuple((p, Covered(start, tuple(san[:j]), fens[j])) for j in range(first, end + 1)
                  if (p := positions[j]) is not None)
    return Recovery(steps, Covered(start, tuple(san[:end]), fens[end] or None), turned, stop)
