"""Counting tie-breaks: FIDE C.07 Art. 7. Pure.

* WIN (7.1): rounds scored as a win, played or not (forfeit wins, PAB and full-point byes worth a win
  count);
* WON (7.2): games won over the board;
* BPG (7.3, "most blacks"): games played over the board with Black (a forfeit has no colour);
* BWG (7.4): games won over the board with Black.

A double forfeit is unplayed for both players: no colour, no game (field-cases F14, F10 d).
"""

from __future__ import annotations

from services.tournament.model import Field


def wins(field: Field, win: float = 1.0) -> dict[int, int]:
    """WIN: rounds whose tie-break points equal a win."""
    return {s: sum(1 for e in p.entries if e.tb_points == win) for s, p in field.players.items()}


def won(field: Field, win: float = 1.0) -> dict[int, int]:
    """WON: games won over the board."""
    return {s: sum(1 for e in p.entries if e.played and e.tb_points == win) for s, p in field.players.items()}


def black_played(field: Field) -> dict[int, int]:
    """BPG: games played over the board with Black."""
    return {s: sum(1 for e in p.entries if e.played and e.color == "b") for s, p in field.players.items()}


def black_won(field: Field, win: float = 1.0) -> dict[int, int]:
    """BWG: games won over the board with Black."""
    return {s: sum(1 for e in p.entries if e.played and e.color == "b" and e.tb_points == win)
            for s, p in field.players.items()}
