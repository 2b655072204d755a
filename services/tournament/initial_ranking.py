"""The initial ranking list of a Swiss: the order that gives the start (pairing) numbers before the
first round is paired. FIDE C.04.2 (General handling rules for Swiss tournaments), "Initial order":
the players are ranked in order of, respectively, a) strength (rating), b) FIDE title
(GM-IM-WGM-FM-WIM-CM-WFM-WCM-no title), c) alphabetically (unless the regulations replaced this
criterion by another). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping

TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
"""FIDE titles in C.04.2's order (the strongest first)."""

TRF_TITLES = {"g": "GM", "m": "IM", "wg": "WGM", "f": "FM", "wm": "WIM", "c": "CM", "wf": "WFM", "wc": "WCM"}
"""TRF16's title codes (column 11-13) -> FIDE's abbreviations."""


def title_of(text: str | None) -> str | None:
    """A FIDE title as FIDE writes it ("GM"), from its abbreviation in any case or TRF16's code
    ("g", "wm"); None for no title. ValueError for anything else."""
    word = (text or "").strip()
    if not word:
        return None
    if word.upper() in TITLES:
        return word.upper()
    if word.lower() in TRF_TITLES:
        return TRF_TITLES[word.lower()]
    raise ValueError(f"title: {text!r} is not a FIDE title ({', '.join(TITLES)})")


def ranking_key(player: Mapping) -> tuple:
    """The sort key of one player (``{"name", "rating", "title"}``) in C.04.2's initial order: a
    higher rating first (unrated last), then the stronger title, then the name alphabetically
    (case and accents as Python's ``casefold`` reads them)."""
    rating = player.get("rating")
    title = player.get("title")
    return (-(rating or 0), TITLES.index(title) if title in TITLES else len(TITLES),
            str(player.get("name") or "").casefold())


def initial_order(players: Mapping[int, Mapping]) -> list[int]:
    """The keys of ``players`` (start number -> player) in C.04.2's initial order; ties of every
    criterion keep the order of the keys."""
    return sorted(players, key=lambda sno: (ranking_key(players[sno]), sno))
