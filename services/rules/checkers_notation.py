"""Standard numeric notation for American checkers: move text and PDN FEN.

Moves (ACF/WCDF rules, "notation"; PDN 3.0 for the separators): squares 1-32 joined by ``-`` for
an ordinary move (``11-15``) and by ``x`` for a jump (``23x14``; a multi-jump with its landing
squares, ``6x15x24``). Regulation X.A.g.i of the 11-Man National 2017 asks players to record "all
jumps", so the canonical machine form (``CheckersMove.text``) always gives the full route; the form
shown to people (``display_text``) is the usual short ``23x14`` unless two routes share its start
and end squares.

FEN (PDN 3.0): ``"B:W21,22,...,32:B1,2,...,12"``: the side to move, then White's and Black's
pieces, kings prefixed ``K``. ``format_fen`` writes one canonical string (squares sorted); the
reader also takes unsorted lists, ranges (``1-12``), either colour first and a trailing ``.``.

Why our own parsing in front of pydraughts (0.6.7): its move parser answers "99-100" and "11-"
with a bare KeyError and "abc" with int()'s ValueError, and it takes a jump given by its start
and end squares ("2x18") as whichever of two routes it met last, where the ACF/WCDF rules ask for
the full route; its FEN reader accepts a square twice, both colours on one square or a man on its
crowning row without a word. Here every such text gets a ``NotationError`` or ``IllegalMove``
naming it, and pydraughts only ever sees a checked FEN and its own ``Move`` objects.
"""

from __future__ import annotations

import re

from services.rules.base import BLACK, WHITE, Side
from services.rules.checkers_board import BLACK_CROWN_ROW, WHITE_CROWN_ROW, CheckersMove, Position


class NotationError(ValueError):
    """Text that is not a checkers move or FEN at all (e.g. "abc", "11-", "99-100"). ``str()`` says why."""


class IllegalMove(ValueError):
    """A well-formed move that cannot be played in the position. ``reason`` says why (the legal
    alternatives when useful); ``routes`` lists the full routes to choose from when the move was
    given by start and end squares only and two routes exist (else empty)."""

    def __init__(self, reason: str, routes: tuple[str, ...] = ()):
        super().__init__(reason)
        self.reason = reason
        self.routes = routes


_MOVE_RE = re.compile(r"^\s*(\d+)\s*(?:([-x:])\s*(\d+)\s*)+$", re.IGNORECASE)


def parse_move_text(text: object) -> tuple[int, ...]:
    """The squares named by a move text, in order: ``"6x15x24"`` -> (6, 15, 24).

    ``-``, ``x`` (either case) and ``:`` separate squares; the separator is not otherwise
    significant (old records write some jumps with ``-`` and steps with ``x``; a step and a jump never
    share both end squares, so the route decides). Raises NotationError for anything else: not a
    string, fewer than two squares, a square outside 1-32. (A square may repeat: "10x10" is a
    king's circuit given by its start and end.)
    """
    if not isinstance(text, str):
        raise NotationError(f"not a move: {text!r} (a move is text such as '11-15' or '23x14')")
    if not _MOVE_RE.match(text):
        raise NotationError(
            f"not a move in numeric notation: {text!r} (expected squares 1-32 joined by '-' or 'x', "
            "e.g. '11-15', '23x14', '6x15x24')"
        )
    squares = tuple(int(s) for s in re.split(r"[-x:]", text.replace(" ", ""), flags=re.IGNORECASE))
    bad = [s for s in squares if not 1 <= s <= 32]
    if bad:
        raise NotationError(f"not a move: {text!r}: square {bad[0]} is not on the board (squares are 1-32)")
    return squares


def _is_subroute(given: tuple[int, ...], route: tuple[int, ...]) -> bool:
    """True when ``given`` keeps the route's start and end and names only its squares, in order."""
    if given[0] != route[0] or given[-1] != route[-1]:
        return False
    it = iter(route[1:-1])
    return all(any(sq == r for r in it) for sq in given[1:-1])


def resolve_move(pos: Position, text: str, legal: tuple[CheckersMove, ...] | None = None) -> CheckersMove:
    """The legal move of ``pos`` that ``text`` names. ``legal``: pydraughts' legal moves of
    ``pos`` when the caller has them (``checkers_board.legal_moves``, asked otherwise).

    ``text`` may give the full route (``6x15x24``), the start and end squares only (``6x24``), or
    any landing squares in between. Raises NotationError when the text is not a move, IllegalMove
    when it names no legal move (a capture is compulsory; a jump must be completed; a man moves
    forward only) or when it names two routes that take different pieces (ACF/WCDF: the full
    route must then be given; ``IllegalMove.routes`` lists them). Routes that take the same pieces
    (a king's circuit run either way) leave the same position, so the lowest route is recorded.
    """
    given = parse_move_text(text)
    legal = pos.legal_moves if legal is None else legal
    if not legal:
        raise IllegalMove(f"{text}: {pos.turn} has no legal move (the game is over)")
    matches = [m for m in legal if m.route == given] or [m for m in legal if _is_subroute(given, m.route)]
    if len({frozenset(m.captured) for m in matches}) > 1:
        routes = tuple(m.text for m in matches)
        raise IllegalMove(
            f"{text} is ambiguous: {len(routes)} capture routes lead from {given[0]} to {given[-1]} "
            f"({', '.join(routes)}); give the full route",
            routes,
        )
    if matches:
        return matches[0]
    raise IllegalMove(_why_illegal(pos, given, text, legal))


def _why_illegal(pos: Position, given: tuple[int, ...], text: str, legal: tuple[CheckersMove, ...]) -> str:
    side = pos.turn
    start = given[0]
    if start not in pos.pieces(side):
        owner = "an opponent's piece" if start in pos.occupied else "empty"
        return f"illegal move {text}: square {start} is {owner}; {side} to move"
    if legal[0].is_capture:
        own = [m.text for m in legal if m.start == start and m.route[: len(given)] == given]
        if own and len(given) >= 2:
            return f"illegal move {text}: the jump must be completed ({', '.join(own)})"
        shorter = [m for m in legal if given[: len(m.route)] == m.route]
        if any(m.crowns for m in shorter):
            return (
                f"illegal move {text}: the man is crowned on {shorter[0].end} and crowning ends the move "
                f"(ACF/WCDF rules); play {shorter[0].text}"
            )
        return (
            f"illegal move {text}: a capture is compulsory (ACF/WCDF rules); legal: "
            + ", ".join(m.text for m in legal)
        )
    from_here = [m.text for m in legal if m.start == start]
    hint = f"legal from {start}: {', '.join(from_here)}" if from_here else f"the piece on {start} cannot move"
    return f"illegal move {text}: {hint}"


def display_text(pos: Position, move: CheckersMove, legal: tuple[CheckersMove, ...] | None = None) -> str:
    """The form shown to people: ``11-15``, ``23x14`` (start and end of a jump, also of a
    multi-jump), or the full route when another legal route shares those start and end squares.
    ``legal``: the legal moves of ``pos`` when the caller has them."""
    if not move.is_capture or len(move.route) == 2:
        return move.text
    twins = [m for m in (pos.legal_moves if legal is None else legal) if m.start == move.start and m.end == move.end]
    return move.text if len(twins) > 1 else f"{move.start}x{move.end}"


def format_fen(pos: Position) -> str:
    """Canonical PDN FEN: side to move (``B``/``W``), then ``W`` and ``B`` piece lists with
    squares in ascending order, kings prefixed ``K``: ``"B:W21,...,32:B1,...,12"``
    (``Position.fen``; pydraughts writes the squares in string order, "B1,10,11,12,2,...")."""
    return pos.fen


def _fen_squares(text: str, fen: str) -> tuple[set[int], set[int]]:
    men: set[int] = set()
    kings: set[int] = set()
    for item in filter(None, (s.strip() for s in text.split(","))):
        king = item[:1].upper() == "K"
        body = item[1:] if king else item
        m = re.fullmatch(r"(\d{1,2})(?:-(\d{1,2}))?", body)
        if not m:
            raise NotationError(f"bad FEN {fen!r}: {item!r} is not a square, K+square or range")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if not (1 <= lo <= hi <= 32):
            raise NotationError(f"bad FEN {fen!r}: {item!r} is outside squares 1-32")
        for sq in range(lo, hi + 1):
            if sq in men or sq in kings:
                raise NotationError(f"bad FEN {fen!r}: square {sq} listed twice")
            (kings if king else men).add(sq)
    return men, kings


def parse_fen(fen: object) -> Position:
    """The position a PDN FEN describes (see the module docstring for the forms read).

    Raises NotationError when it is not a FEN, names a square twice or for both colours, puts a
    man on the row where it would already be crowned, or gives a side more than 12 pieces.
    """
    if not isinstance(fen, str):
        raise NotationError(f"not a FEN: {fen!r}")
    parts = [p.strip() for p in fen.strip().rstrip(".").split(":")]
    if len(parts) != 3 or parts[0].upper() not in ("B", "W"):
        raise NotationError(f"bad FEN {fen!r}: expected 'B|W:W<squares>:B<squares>'")
    lists: dict[str, tuple[set[int], set[int]]] = {}
    for part in parts[1:]:
        colour = part[:1].upper()
        if colour not in ("W", "B") or colour in lists:
            raise NotationError(f"bad FEN {fen!r}: each of W and B must head one piece list")
        lists[colour] = _fen_squares(part[1:], fen)
    (wm, wk), (bm, bk) = lists["W"], lists["B"]
    clash = (wm | wk) & (bm | bk)
    if clash:
        raise NotationError(f"bad FEN {fen!r}: square {min(clash)} holds pieces of both colours")
    if bm & BLACK_CROWN_ROW or wm & WHITE_CROWN_ROW:
        raise NotationError(f"bad FEN {fen!r}: an uncrowned man stands on its crowning row")
    if len(wm | wk) > 12 or len(bm | bk) > 12:
        raise NotationError(f"bad FEN {fen!r}: a side has more than 12 pieces")
    turn: Side = BLACK if parts[0].upper() == "B" else WHITE
    return Position(turn, frozenset(bm), frozenset(bk), frozenset(wm), frozenset(wk))
