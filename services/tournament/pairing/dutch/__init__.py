"""FIDE Dutch system (C.04.3, rules in force from 2026) as a sequence of maximum weight matchings.

Public entry points: :func:`pair_trf` (a parsed TRF tournament in, the next round's pairing out) and
:func:`pair_round` (the same over the pure :class:`~.history.RoundInput` model).
"""

from services.tournament.pairing.dutch.engine import NoValidPairing, pair_round
from services.tournament.pairing.dutch.history import Game, PlayerRecord, RoundInput, round_input_from_trf
from services.tournament.pairing.dutch.result import Pairing, pair_trf

__all__ = [
    "Game",
    "NoValidPairing",
    "Pairing",
    "PlayerRecord",
    "RoundInput",
    "pair_round",
    "pair_trf",
    "round_input_from_trf",
]
