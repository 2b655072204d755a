"""The rules core of a recorded game: a ``Game`` (services/rules/base.py) per round_started SETUP,
replayed to a game's state (``replay``), going on from the position an illegal move left when that
move stood (``Continued``, FIDE Laws A.5.2). The gateway keeps one per hall board
(``gateway.hall``); the arbiter's decisions are judged on one (``services.regulations.rulings``).
Pure."""

from __future__ import annotations

from services.events.vocabulary import Variant
from services.rules.base import Game, PlayedMove


def new_game(setup: dict) -> Game:
    """A fresh game for a round_started SETUP (``{"variant", "fen", ...}``, docs/events.md).

    Chess: ``ChessGame(fen=...)``; checkers: ``CheckersGame(fen=...)``. Raises ValueError for an
    unknown variant or a bad start position.
    """
    variant = setup.get("variant", Variant.CHESS)
    if variant == Variant.CHESS:
        from services.rules.chess_game import ChessGame

        return ChessGame(fen=setup.get("fen"))
    if variant == Variant.CHECKERS:
        from services.rules.checkers_game import CheckersGame

        return CheckersGame(fen=setup.get("fen"))
    raise ValueError(f"unknown variant {variant!r}")


def replay(g, plies: int | None = None) -> Game:
    """The rules core of GameState ``g`` after its first ``plies`` plies (default: all): its SETUP
    with every move played; after an illegal move that stood (``g.stood``: ply -> the FEN it left,
    A.5.2) from that position, the earlier moves kept as the record's. Raises MoveRefused or
    ValueError when the record cannot be replayed."""
    moves = g.moves if plies is None else g.moves[:plies]
    game = new_game({"variant": g.setup.variant, "fen": g.setup.fen})
    for ply, move in enumerate(moves, start=1):
        fen = g.stood.get(ply)
        if fen is None:
            game.play(move)
        else:
            game = Continued(new_game({"variant": g.setup.variant, "fen": fen}), moves[:ply], g.san[:ply])
    return game


class Continued:
    """A game going on from the position an illegal move left standing (FIDE Laws A.5.2: "the
    illegal move shall stand and the game shall continue"): ``inner`` is the rules core set up from
    that position; ``moves``/``sans``, the record up to and with the illegal move. It answers as a
    ``Game`` does, plies counted over the whole record. Repetitions (9.2) are counted from the
    standing position on: a position before an illegal move is not compared with one after it."""

    def __init__(self, inner: Game, moves: list[str], sans: list[str]):
        self._inner = inner
        self._moves = list(moves)
        self._sans = list(sans)

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_inner":
            raise AttributeError(name)  # copy/pickle protocols, and before __init__ ran
        return getattr(self._inner, name)

    @property
    def ply(self) -> int:
        return len(self._moves) + self._inner.ply

    @property
    def moves(self) -> list[str]:
        return self._moves + self._inner.moves

    @property
    def sans(self) -> list[str]:
        return self._sans + self._inner.sans

    def play(self, move: str) -> PlayedMove:
        """``inner.play`` (MoveRefused as there), the ply counted over the whole record."""
        played = self._inner.play(move)
        return PlayedMove(self.ply, played.move, played.san, played.fen)
