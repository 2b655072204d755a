"""The end of a game, whoever ends it: the Laws (checkmate, stalemate, dead position, 9.6), a flag
(6.9), a device's result, the regulations (default time, move timer, late start) or an arbiter.

Termination words are ``services.rules.results``' (with the FIDE Laws article each comes from);
checkers adds its own (``services.rules.checkers_results``); the regulations add ``late_start``.
"""

from __future__ import annotations

from .base import Event, entry
from .vocabulary import EndedBy  # noqa: F401 (re-exported: who ended a game)


@entry("game_ended")
class GameEnded(Event, kw_only=True):
    """``result`` (``services.events.base.Result``), ``termination`` (a word of
    ``services.rules.results``), ``ply`` (plies played), ``by`` (``EndedBy``), ``forfeit`` (not
    played: TRF ``+``/``-``), ``rule`` quoting the regulation applied, ``arbiter`` the login of the
    arbiter who decided (``by`` "arbiter"), ``note``, ``alert`` (the alert it answers), ``evidence``
    (how the Laws decided it, for the arbiter's record: at a flag fall the opponent's
    ``Unwinnability`` (FIDE Laws 6.9); at a dead position both sides' ``{"white": ..., "black":
    ...}`` (5.2.2); at a start position that is already over, the same with ``"at": "start"``)."""

    KEEP = ('termination', 'ply', 'by')

    game: str
    result: str
    board: str = ""
    termination: str | None = None
    ply: int = 0
    by: str = "rules"
    forfeit: bool = False
    rule: str | None = None
    arbiter: str | None = None
    note: str | None = None
    alert: int | None = None
    evidence: dict | None = None
