"""Colour rules of the Dutch system: which pairs are allowed (C.04.3 C.3) and who gets white (C.04.3 E).
"""

from __future__ import annotations

from services.tournament.pairing.dutch.history import NO_COLOR, invert
from services.tournament.pairing.dutch.state import RoundPlayer


def preferences_compatible(a: int, b: int) -> bool:
    """Both preferences can be met: they differ, or either player has none."""
    return a != b or a == NO_COLOR or b == NO_COLOR


def may_meet(a: RoundPlayer, b: RoundPlayer, top_score_threshold: int | None) -> bool:
    """The absolute criteria C.04.3 C.1 (not met before) and C.3 (no two players with the same absolute
    colour preference), the latter waived in the last round for a player scoring over 50 % (topscorer,
    A.7): ``top_score_threshold`` is that 50 % in tenths, or None before the last round.
    """
    if b.start_no in a.met:
        return False
    if not (a.absolute and b.absolute) or a.color_pref != b.color_pref:
        return True
    return top_score_threshold is not None and (a.score > top_score_threshold or b.score > top_score_threshold)


def _ranks_below(a: RoundPlayer, b: RoundPlayer) -> bool:
    """a ranks below b: lower score, or the same score and a later initial rank."""
    return (a.score, b.rank) < (b.score, a.rank)


def _last_difference(a: RoundPlayer, b: RoundPlayer) -> tuple[int, int]:
    """The colours of a and b in the latest round (counting back over each one's played games) in
    which they differed; NO_COLOR when one history runs out first (C.04.3 E.4)."""
    i, j = len(a.colors) - 1, len(b.colors) - 1
    while i >= 0 and j >= 0 and a.colors[i] == b.colors[j]:
        i -= 1
        j -= 1
    return (a.colors[i] if i >= 0 else NO_COLOR), (b.colors[j] if j >= 0 else NO_COLOR)


def neutral_color(p: RoundPlayer, o: RoundPlayer) -> int:
    """The colour for p against o from the colour rules E.1-E.3 alone (preferences, their strength,
    alternation from the latest differing round); NO_COLOR when those rules do not decide."""
    return colour_rule(p, o)[0]


def colour_rule(p: RoundPlayer, o: RoundPlayer) -> tuple[int, str]:
    """(colour for p against o, the rule of C.04.3 E that decided it) from E.1-E.3; (NO_COLOR, "")
    when those rules do not decide."""
    if preferences_compatible(p.color_pref, o.color_pref):
        if p.color_pref != NO_COLOR:
            return p.color_pref, "E.1"
        if o.color_pref != NO_COLOR:
            return invert(o.color_pref), "E.1"
        return NO_COLOR, ""
    if p.absolute and (p.imbalance > o.imbalance or not o.absolute):
        return p.color_pref, "E.2"
    if o.absolute and (o.imbalance > p.imbalance or not p.absolute):
        return invert(o.color_pref), "E.2"
    if p.strong and not o.strong:
        return p.color_pref, "E.2"
    if o.strong and not p.strong:
        return invert(o.color_pref), "E.2"
    mine, theirs = _last_difference(p, o)
    if mine != NO_COLOR and theirs != NO_COLOR:
        return theirs, "E.3"
    return NO_COLOR, ""


def color_for(p: RoundPlayer, o: RoundPlayer, initial_color: int) -> int:
    """The colour p gets against o (C.04.3 E.1-E.5); see :func:`color_and_rule`."""
    return color_and_rule(p, o, initial_color)[0]


def color_and_rule(p: RoundPlayer, o: RoundPlayer, initial_color: int) -> tuple[int, str]:
    """(colour p gets against o, the rule that decided it): E.1-E.3 as :func:`colour_rule`; otherwise
    the higher-ranked player gets his preference (E.4), or, with no preference at all, the initial
    colour when his rank is odd (1st, 3rd, ...) and the other colour when it is even (E.5)."""
    result, rule = colour_rule(p, o)
    if result != NO_COLOR:
        return result, rule
    if p.color_pref == NO_COLOR:
        if _ranks_below(p, o):
            return (initial_color if o.rank & 1 else invert(initial_color)), "E.5"
        return (invert(initial_color) if p.rank & 1 else initial_color), "E.5"
    return (invert(o.color_pref) if _ranks_below(p, o) else p.color_pref), "E.4"
