"""The arbiter's actions that reach the next Swiss pairing, written into the tournament's TRF.

Each action is a small record; :func:`apply_actions` returns a new :class:`TrfTournament` for the round
being paired, with the entries a pairing program reads (the same file is then what the organiser
exports for rating, so our pairing and any endorsed program's see one input):

- :class:`Withdrawal` (C.04.2: a withdrawn player is not paired): ``0000 - Z`` for that round;
- :class:`RequestedBye` (C.04.2 byes: half-point ``H``, full-point ``F``, zero-point ``Z``): that
  entry for the round; the player is not paired in it;
- :class:`LateEntry`: a new ``001`` line, the rounds missed as zero-point (``Z``) or half-point
  (``H``, when the regulations give it) byes;
- :class:`ForbiddenPair` (players who must not meet, e.g. same family or club in a youth event):
  an ``XXP`` line;
- :class:`BakuAcceleration` (C.04.7, as bbpPairings applies it): the ``192 FIDE_DUTCH_2025_BAKU`` type.

Pure: the input is not changed. Errors are ValueError with the reason (unknown player, an entry
already there, a start number taken).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from services.tournament.trf import TrfGame, TrfPlayer, TrfTournament

BYE_CODES = ("H", "F", "Z")
"""Requested bye codes (TRF16): half-point, full-point, zero-point."""


@dataclass(frozen=True)
class Withdrawal:
    """``start_no`` withdraws before round ``from_round`` (1-based): not paired from then on."""

    start_no: int
    from_round: int


@dataclass(frozen=True)
class RequestedBye:
    """``start_no`` asked not to be paired in round ``round``; ``code`` H (half point), F (full
    point) or Z (zero), as the regulations allow."""

    start_no: int
    round: int
    code: str = "H"


@dataclass(frozen=True)
class LateEntry:
    """A player who joins at round ``first_round``: start number ``start_no`` (the next free one
    when 0), the missed rounds entered as ``missed`` byes (Z, or H where the regulations give half a
    point)."""

    name: str
    first_round: int
    rating: int | None = None
    fide_id: str = ""
    federation: str = ""
    start_no: int = 0
    missed: str = "Z"


@dataclass(frozen=True)
class ForbiddenPair:
    """Players who must not be paired with each other (two or more start numbers)."""

    players: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class BakuAcceleration:
    """Pair with Baku acceleration (C.04.7)."""


Action = Withdrawal | RequestedBye | LateEntry | ForbiddenPair | BakuAcceleration


def rounds_paired(t: TrfTournament) -> int:
    """The last round in which someone was paired (an opponent, or the PAB ``U``); requested byes
    entered ahead for the next round do not count."""
    paired = 0
    for p in t.players.values():
        for g in p.games:
            if g.opponent is not None or g.result in ("U", "+"):
                paired = max(paired, g.round)
    return paired


def _enter(p: TrfPlayer, rnd: int, code: str) -> None:
    if len(p.games) >= rnd and p.games[rnd - 1].result != " ":
        raise ValueError(f"player {p.start_no} already has an entry for round {rnd}")
    while len(p.games) < rnd - 1:
        p.games.append(TrfGame(len(p.games) + 1, None, None, " "))
    del p.games[rnd - 1:]
    p.games.append(TrfGame(rnd, None, None, code))


def apply_actions(t: TrfTournament, actions: list[Action], round_no: int | None = None) -> TrfTournament:
    """A copy of ``t`` with ``actions`` entered for the pairing of round ``round_no`` (default: the
    round after the last one paired). Actions about other rounds are ignored (a requested bye for a
    later round, a withdrawal from a later round). Raises ValueError as the module says."""
    out = copy.deepcopy(t)
    rnd = rounds_paired(t) + 1 if round_no is None else round_no
    if out.total_rounds is not None and rnd > out.total_rounds:
        raise ValueError(f"round {rnd} is past the last round ({out.total_rounds})")
    for action in actions:
        if isinstance(action, LateEntry):
            _late_entry(out, action, rnd)
        elif isinstance(action, (Withdrawal, RequestedBye)):
            player = out.players.get(action.start_no)
            if player is None:
                raise ValueError(f"no player with start number {action.start_no}")
            if isinstance(action, Withdrawal):
                if action.from_round <= rnd:
                    _enter(player, rnd, "Z")
            else:
                if action.code not in BYE_CODES:
                    raise ValueError(f"bye code {action.code!r}: use one of {', '.join(BYE_CODES)}")
                if action.round == rnd:
                    _enter(player, rnd, action.code)
        elif isinstance(action, ForbiddenPair):
            unknown = sorted(s for s in action.players if s not in out.players)
            if len(action.players) < 2 or unknown:
                raise ValueError(f"a forbidden pair needs two known players (unknown: {unknown})")
            out.header.append("XXP " + " ".join(str(s) for s in sorted(action.players)))
        elif isinstance(action, BakuAcceleration):
            out.header = [line for line in out.header if line[:3] != "192"]
            out.header.append("192 FIDE_DUTCH_2025_BAKU")
        else:
            raise ValueError(f"not an arbiter action: {action!r}")
    return out


def _late_entry(t: TrfTournament, action: LateEntry, rnd: int) -> None:
    if action.missed not in ("Z", "H"):
        raise ValueError(f"missed rounds are Z or H byes, not {action.missed!r}")
    start_no = action.start_no or max(t.players, default=0) + 1
    if start_no in t.players:
        raise ValueError(f"start number {start_no} is taken")
    first = min(action.first_round, rnd)
    games = [TrfGame(r, None, None, action.missed) for r in range(1, first)]
    points = 0.5 * len(games) if action.missed == "H" else 0.0
    t.players[start_no] = TrfPlayer(
        start_no=start_no, name=action.name, rating=action.rating, fide_id=action.fide_id,
        federation=action.federation, points=points, games=games,
    )
