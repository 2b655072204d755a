"""A device's result reason read as the draw claim it names (FIDE Laws 9.2 threefold repetition,
9.3 fifty-move rule; checkers' 40-move rule), however it is written: "threefold repetition",
"Threefold", "3-fold", "fifty move rule", "Fifty-move", "50 moves", "forty moves", "claim". Pure."""

from __future__ import annotations

import re

_WORDS = re.compile(r"[^a-z0-9]+")
_KINDS = (
    ("threefold", ("threefold", "3fold", "three fold", "repetition", "threefold repetition")),
    ("fifty_moves", ("fifty", "50 move", "50move", "fifty move", "fiftymove")),
    ("forty_moves", ("forty", "40 move", "40move", "fortymove")),
)


def claim_kind(reason: str | None) -> str | None:
    """The claim ``reason`` names: "threefold" (Laws 9.2), "fifty_moves" (9.3), "forty_moves"
    (checkers), "claim" (a claim that names no rule), or None when it names none ("agreement",
    "stalemate", empty). Case, spaces, hyphens and underscores do not matter."""
    if not reason:
        return None
    text = " ".join(_WORDS.split(reason.lower())).strip()
    squashed = text.replace(" ", "")
    if any(k in squashed for k in ("fivefold", "5fold", "seventyfive", "75move")):
        return None  # FIDE Laws 9.6: the game is drawn without a claim
    for kind, keys in _KINDS:
        if any(k in text or k.replace(" ", "") in squashed for k in keys):
            return kind
    if squashed in ("claim", "drawclaim", "claimed"):
        return "claim"
    return None
