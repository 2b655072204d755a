"""The small rules interface that every game (chess, American checkers) sits behind.

Clocks, regulations, standings, the gateway and the dashboard only use what is here, so they do not
care which game is played. Everything is pure: no I/O, no clock reads.

Sides are the strings ``"white"`` and ``"black"``. In chess White moves first (FIDE Laws 1.2); in
American checkers Black (Red on the venue's boards) moves first (ACF/WCDF rules), so ``first_side``
differs per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Protocol, runtime_checkable

from services.events.vocabulary import Side  # noqa: F401 (a side of the board, FIDE Laws 1.1)

WHITE: Final = "white"
BLACK: Final = "black"
SIDES: tuple[Side, Side] = (WHITE, BLACK)


def other(side: str) -> Side:
    """The opponent of ``side`` ("white" <-> "black"). Raises ValueError on anything else."""
    if side == WHITE:
        return BLACK
    if side == BLACK:
        return WHITE
    raise ValueError(f"not a side: {side!r}")


class MoveRefused(ValueError):
    """A move that cannot be applied: unparsable, illegal in the position, or played after the end.

    Attributes: ``move`` (the text as given), ``reason`` (a sentence naming the move and why),
    ``fen`` (the position it was refused in, which is unchanged).
    """

    def __init__(self, move: str, reason: str, fen: str):
        super().__init__(reason)
        self.move = move
        self.reason = reason
        self.fen = fen


@dataclass(frozen=True)
class Claim:
    """A draw the player to move may claim now.

    ``kind``: ``"threefold"`` (FIDE Laws 9.2), ``"fifty_moves"`` (9.3), ``"threefold"`` /
    ``"forty_moves"`` in checkers. ``by_move``: None when the position on the board already justifies
    the claim (9.2.1.2, 9.3.2); else the intended move (UCI, or numeric notation in checkers) that the
    player writes down and declares (9.2.1.1, 9.3.1). ``evidence``: what an arbiter checks, e.g.
    ``{"plies": [0, 4, 8]}`` (the plies after which the repeated position stood; 0 = the start) or
    ``{"last_irreversible_ply": 12, "halfmove_clock": 100}``.
    """

    kind: str
    by_move: str | None
    evidence: dict = field(default_factory=dict, hash=False, compare=False)

    def to_json(self) -> dict:
        """``{"kind", "by_move", "evidence"}`` as in the API's GAME.claimable."""
        return {"kind": self.kind, "by_move": self.by_move, "evidence": self.evidence}


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``result``: "1-0", "0-1", "1/2-1/2" or a special score (see
    ``services.rules.results``). ``termination``: a word such as "checkmate", "stalemate",
    "fivefold_repetition", "seventyfive_moves", "insufficient_material", "time_forfeit",
    "agreement", "resignation", "threefold_repetition", "fifty_moves", "forfeit", "arbiter"."""

    result: str
    termination: str

    def to_json(self) -> dict:
        return {"result": self.result, "termination": self.termination}


@dataclass(frozen=True)
class PlayedMove:
    """One applied ply. ``ply`` counts from 1; ``move`` is the canonical machine form (UCI for chess,
    numeric with full route for checkers); ``san`` the form shown to people; ``fen`` the position after."""

    ply: int
    move: str
    san: str
    fen: str


@runtime_checkable
class Game(Protocol):
    """What every game offers. Implementations: ``services.rules.chess_game.ChessGame``,
    ``services.rules.checkers_game.CheckersGame``."""

    variant: str  # "chess" | "checkers"
    first_side: str  # the side that makes ply 1 from the standard start

    @property
    def fen(self) -> str: ...

    @property
    def ply(self) -> int: ...

    @property
    def turn(self) -> Side: ...

    @property
    def moves(self) -> list[str]: ...

    @property
    def last_move(self) -> str | None: ...

    @property
    def sans(self) -> list[str]: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def play(self, move: str) -> PlayedMove:
        """Apply a move; raises MoveRefused (game unchanged) when unparsable, illegal or after the end."""
        ...

    def claimable(self) -> list[Claim]:
        """Every draw claim open to the player to move now, with and without an intended move."""
        ...

    def end(self, result: str, termination: str) -> Outcome:
        """End the game by something outside the board rules (resignation, agreement, arbiter)."""
        ...

    def flag_fall(self, side: str) -> Outcome:
        """The result when ``side``'s flag falls (FIDE Laws 6.9): a loss, or a draw when the
        opponent cannot win by any series of legal moves."""
        ...
