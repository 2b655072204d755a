"""The arbiter's check of a Dutch round before it is published: each board with the reasons for its
floats and colours, the PAB with the reason it went where it did, and a comparison with another
engine's pairing of the same file.

Reasons name the rules of FIDE C.04.3 (2026): a float is a pairing of players with different scores
(A.4: the higher one floats down, the lower one up), and floats repeated from the previous round or
from two rounds before are what C.14-C.21 minimise; colours come from E.1 (both preferences met),
E.2 (the stronger preference), E.3 (alternation from the latest round with different colours), E.4
(the higher-ranked player's preference) or E.5 (the initial colour by pairing number); the PAB goes to
an eligible player (C.2) of the lowest possible score (C.5), with the fewest unplayed games (C.9).
Scores are shown in points (acceleration included, as the pairing sees them).
"""

from __future__ import annotations

from dataclasses import dataclass

from services.tournament.pairing.dutch.colours import color_and_rule
from services.tournament.pairing.dutch.history import RoundInput
from services.tournament.pairing.dutch.result import Pairing
from services.tournament.pairing.dutch.state import FLOAT_DOWN, FLOAT_UP, RoundPlayer, build_players


@dataclass(frozen=True)
class BoardCheck:
    """One board of the round as the arbiter checks it: ``board`` number (1-based), ``white`` and
    ``black`` start numbers (``black`` None for the PAB), their scores in tenths, the colour rule,
    and the reasons (float or PAB) as sentences."""

    board: int
    white: int
    black: int | None
    white_score: int
    black_score: int | None
    colour_rule: str
    reasons: tuple[str, ...]


def _points(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}" if tenths >= 0 else f"-{_points(-tenths)}"


def _repeats(p: RoundPlayer, direction: int) -> list[str]:
    out = []
    for back, (rule_down, rule_up) in ((1, ("C.14", "C.15")), (2, ("C.16", "C.17"))):
        if p.floats[back - 1] == direction:
            when = "the previous round" if back == 1 else "two rounds before"
            out.append(f"{p.start_no} also floated {'down' if direction == FLOAT_DOWN else 'up'} in {when} "
                       f"({rule_down if direction == FLOAT_DOWN else rule_up})")
    return out


def _float_reasons(high: RoundPlayer, low: RoundPlayer) -> list[str]:
    if high.score == low.score:
        return []
    out = [f"{high.start_no} ({_points(high.score)}) floats down to {low.start_no} ({_points(low.score)}), "
           f"a score difference of {_points(high.score - low.score)} (A.4)"]
    out += _repeats(high, FLOAT_DOWN)
    out += _repeats(low, FLOAT_UP)
    return out


def _pab_reasons(bye: RoundPlayer, paired: list[RoundPlayer]) -> list[str]:
    eligible = [p for p in paired if p.bye_ok]
    lowest = min((p.score for p in eligible), default=bye.score)
    same = sorted(p.start_no for p in eligible if p.score == bye.score and p is not bye)
    out = [f"pairing-allocated bye to {bye.start_no} ({_points(bye.score)}): eligible (C.2)"]
    if bye.score == lowest:
        out.append("the lowest score of any eligible player (C.5)")
    else:
        out.append(f"eligible players scoring {_points(lowest)} could not all be paired otherwise (C.4, C.5)")
    out.append(f"{bye.unplayed} unplayed game(s) (C.9)" + (f"; others eligible at this score: {', '.join(map(str, same))}"
                                                          if same else ""))
    return out


def check_round(inp: RoundInput, pairing: list[Pairing]) -> list[BoardCheck]:
    """The boards of ``pairing`` (as :func:`~.result.pair_input` returns it for ``inp``) with their
    reasons. Raises ValueError when a start number of the pairing is not a player of ``inp``."""
    to_pair, everyone = build_players(inp)
    out: list[BoardCheck] = []
    for number, board in enumerate(pairing, start=1):
        white = everyone.get(board.white)
        if white is None:
            raise ValueError(f"board {number}: {board.white} is not a player of this round")
        if board.black is None:
            out.append(BoardCheck(number, board.white, None, white.score, None, "",
                                  tuple(_pab_reasons(white, to_pair))))
            continue
        black = everyone.get(board.black)
        if black is None:
            raise ValueError(f"board {number}: {board.black} is not a player of this round")
        first, second = (white, black) if white.start_no < black.start_no else (black, white)
        rule = color_and_rule(first, second, inp.initial_color)[1]
        high, low = (white, black) if (white.score, black.rank) > (black.score, white.rank) else (black, white)
        out.append(BoardCheck(number, white.start_no, black.start_no, white.score, black.score, rule,
                              tuple(_float_reasons(high, low))))
    return out


def compare_pairings(ours: list[Pairing], theirs: list[tuple[int, int | None]]) -> list[str]:
    """Differences between our pairing and another engine's (its ``(white, black)`` boards, black
    None or 0 for a bye), as sentences; empty when they are the same pairs with the same colours."""
    mine = {(p.white, p.black or 0) for p in ours}
    other = {(w, b or 0) for w, b in theirs}
    out = []
    swapped = {(w, b) for w, b in mine - other if (b, w) in other}
    for w, b in sorted(swapped):
        out.append(f"colours differ: we give {w}-{b}, the other engine {b}-{w}")
    for w, b in sorted(mine - other - swapped):
        out.append(f"only ours: {w} bye" if b == 0 else f"only ours: {w}-{b}")
    for w, b in sorted(other - mine - {(b, w) for w, b in swapped}):
        out.append(f"only theirs: {w} bye" if b == 0 else f"only theirs: {w}-{b}")
    return out
