"""Entries of a round's life cycle before it starts (DESIGN.md "The arbiter's office"): the next
round paired into a *draft* the arbiters see, exchanges and boards set by hand, the draft published.
``round_started`` (``tournament.py``) then starts the published pairing; every running process
follows these entries as it follows moves (docs/pairing.md "The round's life cycle").

A draft has a ``version`` (1 for the first draft of a round, +1 for each re-pairing and each
change). Every entry here names the version its writer saw (``version``; 0: no draft yet): the fold
applies it only when that is still the draft's version, and otherwise records it as refused
(``PairingDraft.refused``). Two arbiters acting on the same draft at once therefore cannot publish
or change a draft they have not seen: the log's order decides, the same way in every process.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from .base import Event, entry


class DraftBoard(msgspec.Struct, kw_only=True):
    """One board of a draft: ``board`` (the hall board label), ``white_no``/``black_no`` (start
    numbers), the names for the record, ``colour_rule`` (what gave White: "E.1".."E.5" of FIDE
    C.04.3, "C.05 Annex 1" for the Berger tables, "by hand"), ``reasons`` (sentences: floats and their
    rules, C.04.3 A.4, C.14-C.17; an exchange's reason and the rules it breaks)."""

    board: str
    white_no: int
    black_no: int
    white: str = ""
    black: str = ""
    colour_rule: str = ""
    reasons: list[str] = []


class DraftBye(msgspec.Struct, kw_only=True):
    """A player of a draft without a board: ``code`` "U" (the pairing-allocated bye, C.04.1 c; a
    round robin's odd player out, C.05 Annex 1) or the absence's TRF code ("H", "F", "Z": a requested
    bye, a withdrawal, a late entry's missed round, C.04.2); ``reasons`` as for a board."""

    start_no: int
    code: str
    player: str = ""
    reasons: list[str] = []


class DraftAction(Event, kw_only=True):
    """Fields of every draft entry: ``round`` (the round number), ``version`` (the draft version its
    writer saw; 0 when none), ``by`` (the arbiter's login, or "organiser" from the command line),
    ``note``."""

    KEEP = ("version",)

    round: int
    version: int = 0
    by: str | None = None
    note: str | None = None


@entry("pairing_drafted")
class PairingDrafted(DraftAction, kw_only=True):
    """Round ``round`` paired into a draft (replacing an earlier draft of it, not started): the
    Dutch system (FIDE C.04.3) or the Berger tables (C.05 Annex 1), as the tournament file's
    ``system`` says; ``boards`` in board order, ``byes`` (the PAB, the absent with their codes).
    Nobody plays it until it is published and started."""

    system: str
    boards: list[DraftBoard] = []
    byes: list[DraftBye] = []


@entry("pairing_swapped")
class PairingSwapped(DraftAction, kw_only=True):
    """A change by hand to round ``round``'s draft: ``kind`` "exchange" (``players``: two start
    numbers that take each other's places and colours; a player with a bye gives it to the other)
    or "board" (``board`` set to ``white_no`` - ``black_no``; whoever sat there takes the places
    the two left). ``reason`` (required in words), ``warnings``: the rules the change breaks
    (FIDE C.04.1 b, f, g; a forbidden pair), recorded when the arbiter overrode them."""

    kind: Literal["exchange", "board"]
    reason: str
    players: list[int] = []
    board: str | None = None
    white_no: int | None = None
    black_no: int | None = None
    warnings: list[str] = []


@entry("pairing_published")
class PairingPublished(DraftAction, kw_only=True):
    """Round ``round``'s draft at ``version`` published: the pairing the players are shown and the
    one ``start_round`` starts. A change or a re-pairing afterwards makes a new draft that must be
    published again."""
