"""Unplayed rounds in tie-breaks: FIDE C.07 Art. 16 (Aug-2024 text and the March-2026 revision).

Pure. Two numbers are needed whenever a tie-break looks at opponents' scores (Buchholz,
Sonneborn-Berger):

* :func:`adjusted_scores`: a participant's score *as an opponent* (C.07 16.3). Every round up to the
  last round that was not a voluntary unplayed round (VUR, 16.2: a forfeit loss, a half- or zero-point
  bye, an absence) counts with its points. After that round, a VUR *without a scheduled opponent* (a
  bye, an absence, the rounds after a withdrawal) is evaluated as a draw in a Swiss (16.3.2) and as
  nothing in a round robin; a forfeit loss keeps its 0 wherever it falls, because the participant was
  paired in that round. So a player with a zero-point bye, then a forfeit loss, then a withdrawal
  counts ½ + 0 + ½ per round withdrawn (issue 30's question, settled by FIDE's TieBreakServer
  v1.9.57: tests/data/tiebreaks_unplayed/issue30-zpb-forfeit-withdrawal*, tools/compare_tiebreaks.py).
* :func:`dummy_score`: the score of the dummy opponent of a participant's own unplayed round (16.4).
  Aug-2024: the participant's own score. March-2026: capped, for a forfeit by the scheduled opponent's
  adjusted score (16.4.1) and for any other unplayed round by ½ × the number of rounds (16.4.2).

Editions: ``"2026"`` (C.07 as in force from 1 March 2026; FIDE's TieBreakServer v1.9.57 computes it)
and ``"2024"`` (Aug-2024 text; the TieBreakServer applies it to an event that started before
1 March 2026). See ../shared/cases/field-cases.md F13 for where they differ.
"""

from __future__ import annotations

from services.tournament.model import Entry, Field, Player

EDITIONS = ("2026", "2024")
"""Supported C.07 editions; the first is the default."""


def last_non_vur_round(player: Player) -> int:
    """The last round that was not a voluntary unplayed round (0 when every round was one)."""
    last = 0
    for e in player.entries:
        if not e.voluntary_unplayed:
            last = e.round
    return last


def adjusted_scores(field: Field, round_robin: bool, draw: float = 0.5) -> dict[int, float]:
    """Each participant's score for use in his opponents' tie-breaks (C.07 16.3), by start number.

    ``draw`` is the value of a draw in tie-break points. A round after the last non-VUR round counts
    as ``draw`` (Swiss) or 0 (round robin) when it had no scheduled opponent; a forfeit loss counts
    its points (see the module's docstring).
    """
    out: dict[int, float] = {}
    trailing = 0.0 if round_robin else draw
    for sno, p in field.players.items():
        lna = last_non_vur_round(p)
        out[sno] = sum(e.tb_points if (e.round <= lna or e.opponent is not None) else trailing for e in p.entries)
    return out


def dummy_score(player: Player, entry: Entry, adjusted: dict[int, float], rounds: int, edition: str,
                draw: float = 0.5) -> float:
    """Score of the dummy opponent of ``player``'s unplayed round ``entry`` (Swiss only; C.07 16.4).

    Raises ValueError for an unknown ``edition``.
    """
    own = player.tb_points
    if edition == "2024":
        return own
    if edition != "2026":
        raise ValueError(f"unknown C.07 edition {edition!r} (known: {', '.join(EDITIONS)})")
    if entry.opponent is not None:
        return min(own, adjusted[entry.opponent])  # 16.4.1: forfeit, capped by the opponent's score
    return min(own, draw * rounds)  # 16.4.2: byes and absences, capped at half the rounds
