"""A device's result reason in words, read as the draw claim it names (FIDE Laws 9.2, 9.3; WCDF
rules for checkers).

A board or clock reports ``{"result": "1/2-1/2", "reason": ...}`` with a reason in whatever words
its maker chose. A draw by repetition or by the fifty-move rule is never automatic (FIDE Laws 9.2,
9.3: "upon a correct claim"), so such a report is a claim for the arbiter to decide, under every
draw ban of an event's regulations. ``claim_kind`` reads the words into the claim kind the rules
core uses (``chess_claims.THREEFOLD``, ``chess_claims.FIFTY_MOVES``, ``checkers_claims.FORTY_MOVES``),
whatever their spacing, case, hyphens or underscores.

Wordings read, with where they come from:

- FIDE Laws of Chess 9.2 and 9.3, and the venue's own words for them (../shared/DESIGN.md, Words:
  "threefold repetition", "fifty-move rule"); the issue that asked for this: "threefold
  repetition", "Fifty move rule", "fifty-move", "3-fold";
- this code's words: the claim kinds "threefold", "fifty_moves" (``Claim.kind``), the termination
  words "threefold_repetition", "fifty_moves" (``results``), the enforcer's "fifty_move", the
  checkers kind "forty_moves";
- python-chess: ``Termination.THREEFOLD_REPETITION``, ``Termination.FIFTY_MOVES``;
- the Chess Engine Communication Protocol (Tim Mann, H.G. Muller; xboard/WinBoard): a game ended
  "by rule" includes "triple repetition, the 50 move rule", e.g. ``1/2-1/2 {Draw by
  repetition}``;
- chess.com's published-data API result codes: ``repetition`` ("Draw by repetition") and ``50``
  ("Draw by 50-move rule");
- WCDF rules of draughts as adopted by the ACF: the "third repetition" and the "40-move rule"
  (``checkers_claims``).

Not claims: the automatic ends of FIDE Laws 9.6 ("fivefold repetition", "75 moves"), which the
rules core ends by itself (``None``). A bare "claim" or "draw claim" without a kind is a claim the
arbiter must identify (``UNNAMED``).
"""

from __future__ import annotations

import re

from services.events.vocabulary import ClaimKind, Variant

THREEFOLD = ClaimKind.THREEFOLD  # chess_claims.THREEFOLD, checkers_claims.THREEFOLD
FIFTY_MOVES = ClaimKind.FIFTY_MOVES  # chess_claims.FIFTY_MOVES
FORTY_MOVES = ClaimKind.FORTY_MOVES  # checkers_claims.FORTY_MOVES
UNNAMED = ClaimKind.UNNAMED  # a claim whose kind the words do not say
VARIANTS = tuple(v.value for v in Variant)

_SEPARATORS = re.compile(r"[\s_\-\u2010-\u2015/.,;:!?()\[\]{}'\"]+")
_AUTOMATIC = re.compile(r"\b(five ?fold|5 ?fold|fifth|seventy ?five|75) ?(repetitions?|moves?|times?)?\b")
_REPETITION = re.compile(
    r"\b((three|3|triple|third) ?(fold|times?)? ?(repetitions?|rep)|three ?fold|3 ?fold|repetitions?)\b")
_FIFTY = re.compile(r"\b(fifty|50) ?(moves?( rule)?|rule)\b|^50$")
_FORTY = re.compile(r"\b(forty|40) ?(moves?( rule)?|rule)\b|^40$")
_CLAIM = re.compile(r"\bclaim(s|ed)?\b")


def normalise(reason: str) -> str:
    """``reason`` lower-cased, with every run of spaces, hyphens, dashes, underscores and
    punctuation made one space, trimmed: "Fifty-Move_Rule." -> "fifty move rule"."""
    return _SEPARATORS.sub(" ", reason.lower()).strip()


def claim_kind(reason: object, variant: str = "chess") -> str | None:
    """The draw claim a result reason names: ``THREEFOLD`` (FIDE Laws 9.2; checkers: the third
    repetition), ``FIFTY_MOVES`` (9.3; chess only), ``FORTY_MOVES`` (checkers only), ``UNNAMED``
    for a claim of no named kind, or None when the words name no claim (agreement, resignation,
    an automatic end of 9.6, anything else, or a reason that is not text). Raises ValueError for
    an unknown ``variant``."""
    if variant not in VARIANTS:
        raise ValueError(f"not a variant: {variant!r} (expected one of {', '.join(VARIANTS)})")
    if not isinstance(reason, str):
        return None
    words = normalise(reason)
    if not words or _AUTOMATIC.search(words):
        return None
    if _REPETITION.search(words):
        return THREEFOLD
    if variant == "chess" and _FIFTY.search(words):
        return FIFTY_MOVES
    if variant == "checkers" and _FORTY.search(words):
        return FORTY_MOVES
    if _CLAIM.search(words):
        return UNNAMED
    return None
