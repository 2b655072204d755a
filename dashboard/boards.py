"""Board pictures: SVG drawn by python-chess (``chess.svg``) for chess and by pydraughts
(``draughts.svg``) for checkers, never by hand. Pure functions plus a small LRU cache: a position at
a given ply of a game never changes, so each picture is drawn once.
"""

from __future__ import annotations

import re
from functools import lru_cache

import chess
import chess.svg

from services.events.vocabulary import Variant

# Light, neutral squares that sit well on the dashboard's light theme; the last move is tinted.
COLORS = {
    "square light": "#eeeed2",
    "square dark": "#8ca2ad",
    "square light lastmove": "#f6eb72",
    "square dark lastmove": "#d9c85a",
    "margin": "#ffffff",
    "coord": "#6b7280",
}


def chess_position(start_fen: str, moves: tuple[str, ...], stood: tuple[tuple[int, str], ...] = ()
                   ) -> tuple[chess.Board, chess.Move | None]:
    """The board after ``moves`` (UCI) from ``start_fen``, and the last move (None at the start).
    ``stood``: ``(ply, FEN after it)`` of illegal moves that stood (FIDE Laws A.5.2, GAME
    ``stood``): the board is that position there. Raises ValueError on an illegal or unparsable
    move that did not stand."""
    board = chess.Board(start_fen)
    after = dict(stood)
    last = None
    for ply, uci in enumerate(moves, start=1):
        last = chess.Move.from_uci(uci)
        if ply in after:
            board = chess.Board(after[ply])
            continue
        if last not in board.legal_moves:
            raise ValueError(f"illegal move {uci} in {board.fen()}")
        board.push(last)
    return board, last


@lru_cache(maxsize=8192)
def chess_svg(start_fen: str, moves: tuple[str, ...], size: int = 360, coordinates: bool = True,
              flipped: bool = False, stood: tuple[tuple[int, str], ...] = ()) -> str:
    """SVG text of the position after ``moves``, last move highlighted, king in check marked."""
    board, last = chess_position(start_fen, moves, stood)
    check = board.king(board.turn) if board.is_check() else None
    return chess.svg.board(board, lastmove=last, check=check, size=size, coordinates=coordinates,
                           orientation=chess.BLACK if flipped else chess.WHITE, colors=COLORS)


_COORDINATE = re.compile(r"<text\b[^>]*>[^<]*</text>\s*")
_VIEWBOX = re.compile(r'viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"')


@lru_cache(maxsize=2048)
def checkers_svg(fen: str, flipped: bool = False) -> str:
    """SVG text of an American checkers position (pydraughts FEN, e.g. ``B:W21,...:B1,...``), drawn
    by pydraughts; its chess-style a-h/1-8 labels are left out (checkers' numeric notation names
    squares 1-32: the pages number them, ``square_centres``). ``flipped``: turned half round (White's
    men at the bottom), as a checkers board looks from White's side. Raises ValueError when
    pydraughts cannot read the FEN."""
    from draughts import Board
    from draughts.svg import create_svg

    try:
        board = Board(variant="english", fen=fen)
    except Exception as exc:  # pydraughts raises assorted errors on a bad FEN
        raise ValueError(f"unreadable checkers FEN {fen!r}: {exc}") from exc
    svg = _COORDINATE.sub("", create_svg(board))
    if not flipped:
        return svg
    box = _VIEWBOX.search(svg)
    w, h = (float(box.group(1)), float(box.group(2))) if box else (352.0, 352.0)
    head, _, rest = svg.partition(">")
    body, _, _ = rest.rpartition("</svg>")
    return f'{head}><g transform="rotate(180 {w / 2:g} {h / 2:g})">{body}</g></svg>'


@lru_cache(maxsize=1)
def square_centres() -> dict[int, tuple[float, float]]:
    """Where pydraughts draws each square of an American checkers board: square number ->
    (x, y) of its centre as fractions of the picture's width and height (White's men, 21-32, at
    the top). Found by asking pydraughts to draw a man on each square."""
    from draughts import Board
    from draughts.svg import create_svg

    out = {}
    for n in range(1, 33):
        svg = create_svg(Board(variant="english", fen=f"W:W{n}:B{1 if n != 1 else 2}"))
        box = _VIEWBOX.search(svg)
        w, h = (float(box.group(1)), float(box.group(2))) if box else (352.0, 352.0)
        piece = re.search(r'<circle cx="([\d.]+)" cy="([\d.]+)"[^>]*fill="#FFFFFF"', svg)
        if piece is None:
            raise ValueError(f"pydraughts drew no white piece on square {n}: its SVG changed")
        x, y = piece.groups()
        out[n] = (round(float(x) / w, 4), round(float(y) / h, 4))
    return out


@lru_cache(maxsize=8192)
def checkers_fen(start_fen: str | None, moves: tuple[str, ...]) -> str:
    """The canonical PDN FEN after ``moves`` (numeric notation, as the event log keeps them) from
    ``start_fen`` (None: the standard start), replayed by the rules core (``CheckersGame`` on
    pydraughts). Raises ValueError (``MoveRefused``, ``NotationError``) on a move or FEN it refuses."""
    from services.rules.checkers_game import CheckersGame

    return CheckersGame.from_moves(list(moves), fen=start_fen).fen


def game_svg(game: dict, ply: int | None = None, size: int = 360, coordinates: bool = True,
             flipped: bool = False) -> str:
    """The picture of GAME (services.views.spectator) after ``ply`` (default: the current position).
    A checkers board at an earlier ply is the game's moves replayed to it (``checkers_fen``), drawn
    by pydraughts as the current one is (pydraughts has no size or coordinates: the picture scales;
    White's men at the top, at the bottom when ``flipped``). Raises ValueError for a ply out of range or a position that
    cannot be drawn."""
    n = game["ply"] if ply is None else ply
    if not 0 <= n <= game["ply"]:
        raise ValueError(f"ply {n} out of range 0..{game['ply']}")
    if game["variant"] == Variant.CHECKERS:
        if n == game["ply"]:
            return checkers_svg(game["fen"], flipped)
        return checkers_svg(checkers_fen(game.get("start_fen"), tuple(game["moves"][:n])), flipped)
    stood = tuple((x["ply"], x["fen"]) for x in game.get("stood") or () if x["ply"] <= n)
    return chess_svg(game["start_fen"], tuple(game["moves"][:n]), size, coordinates, flipped, stood)
