"""The Dutch pairing of a TRF tournament's next round, with colours, in publication order."""

from __future__ import annotations

from dataclasses import dataclass

from services.tournament.pairing.dutch.colours import color_for
from services.tournament.pairing.dutch.engine import pair_round
from services.tournament.pairing.dutch.history import WHITE, RoundInput, round_input_from_trf
from services.tournament.trf import TrfTournament


@dataclass(frozen=True)
class Pairing:
    """One board of the round: start numbers of white and black; ``black`` is None for the
    pairing-allocated bye of ``white`` (C.04.1 c)."""

    white: int
    black: int | None


def pair_input(inp: RoundInput) -> list[Pairing]:
    """The pairing of round ``inp.played_rounds + 1``: boards ordered by the higher player's score,
    then the lower player's score, then the higher player's rank (C.04.2 D.9 board order), the
    PAB last. Raises :class:`~.engine.NoValidPairing` when the round cannot be paired."""
    pairs, bye = pair_round(inp)
    boards = []
    for a, b in pairs:
        first, second = (a, b) if a.start_no < b.start_no else (b, a)
        color = color_for(first, second, inp.initial_color)
        white, black = (first, second) if color == WHITE else (second, first)
        high, low = (a, b) if (a.score, b.rank) > (b.score, a.rank) else (b, a)
        boards.append(((-high.score, -low.score, high.rank), Pairing(white.start_no, black.start_no)))
    boards.sort(key=lambda x: x[0])
    result = [p for _, p in boards]
    if bye is not None:
        result.append(Pairing(bye.start_no, None))
    return result


def pair_trf(t: TrfTournament) -> list[Pairing]:
    """The Dutch pairing of the round after the last one recorded in the parsed TRF ``t``.

    Raises ValueError for an inconsistent file (see :func:`~.history.round_input_from_trf`) and
    :class:`~.engine.NoValidPairing` (a ValueError) when the round cannot be paired.
    """
    return pair_input(round_input_from_trf(t))
