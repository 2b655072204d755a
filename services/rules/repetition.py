"""Incremental record of which positions have stood on the board, for repetition rules.

FIDE Laws 9.2 (threefold claim) and 9.6.1 (fivefold, automatic) count how often "the same position"
(9.2.2) has appeared. A position that stood before an irreversible move (a capture, a pawn move, a
loss of castling rights) can never appear again, so the table only keeps the positions since the last
irreversible move: work per ply is bounded (one dict update), and nothing rescans the game.

The table is game-agnostic: a position is any hashable key (the chess key is built by
``services.rules.chess_position.position_key``; it encodes 9.2.2's "same position").
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
"""The position key type of one game's table (the chess ``PositionKey``)."""


class RepetitionTable(Generic[K]):
    """Plies at which each position stood since the last irreversible move.

    ``plies(key)`` -> list of plies (0 = the start position) in increasing order.
    ``repeated`` -> dict of the keys that stood at least twice (a move reaching one of them makes a
    third occurrence, FIDE Laws 9.2.1.1), in first-seen order, each mapped to its plies list.
    Work per ``record`` call: O(1) amortised.
    """

    __slots__ = ("_seen", "repeated", "since_ply")

    def __init__(self, key: K, ply: int = 0):
        """Start with ``key`` standing at ``ply`` (0 for the start position of a game)."""
        self._seen: dict[K, list[int]] = {key: [ply]}
        self.repeated: dict[K, list[int]] = {}
        self.since_ply = ply  # the ply of the first position in the table

    def record(self, key: K, ply: int, irreversible: bool) -> int:
        """Record that ``key`` stands after ``ply``; ``irreversible`` when the move that made it was a
        capture, a pawn move or lost a castling right (then every earlier position is forgotten: it
        cannot recur). Returns how often ``key`` has now stood (1 = first time)."""
        if irreversible:
            self._seen = {key: [ply]}
            self.repeated = {}
            self.since_ply = ply
            return 1
        plies = self._seen.get(key)
        if plies is None:
            self._seen[key] = [ply]
            return 1
        plies.append(ply)
        if len(plies) == 2:
            self.repeated[key] = plies
        return len(plies)

    def plies(self, key: K) -> list[int]:
        """The plies after which ``key`` stood (a copy; empty if it has not stood since ``since_ply``)."""
        return list(self._seen.get(key, ()))

    def count(self, key: K) -> int:
        """How often ``key`` has stood since the last irreversible move."""
        return len(self._seen.get(key, ()))

    def __len__(self) -> int:
        """The number of distinct positions since the last irreversible move."""
        return len(self._seen)
