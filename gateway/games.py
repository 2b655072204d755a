"""The rules core behind each hall board: a ``Game`` (services/rules/base.py) per round_started SETUP."""

from __future__ import annotations

from services.rules.base import Game


def new_game(setup: dict) -> Game:
    """A fresh game for a round_started SETUP (``{"variant", "fen", ...}``, docs/events.md).

    Chess: ``ChessGame(fen=...)``; checkers: ``CheckersGame(fen=...)``. Raises ValueError for an
    unknown variant or a bad start position.
    """
    variant = setup.get("variant", "chess")
    if variant == "chess":
        from services.rules.chess_game import ChessGame

        return ChessGame(fen=setup.get("fen"))
    if variant == "checkers":
        from services.rules.checkers_game import CheckersGame

        return CheckersGame(fen=setup.get("fen"))
    raise ValueError(f"unknown variant {variant!r}")
