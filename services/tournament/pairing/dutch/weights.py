"""Edge weights that encode the Dutch criteria (C.04.3 C.1-C.21) for one pairing bracket.

A weight is one big integer made of fields, highest priority first; a maximum weight matching then
meets the criteria in their order of priority. The absolute criteria (C.1 no rematch or forbidden
pair, C.3 no two players with the same absolute colour preference) leave no edge at all. Then:

1. completion and PAB eligibility (C.2, C.4): 1 plus one for each player who may not take the PAB
   (not eligible, or scoring more than the PAB assignee must): every augmenting path gains, so the
   optimum pairs everyone it can and leaves out a PAB candidate;
2. pairs in the bracket (C.5) and the scores paired there (C.6, by the higher player's score group);
3. pairs and paired scores in the next bracket (C.7, C.8);
4. the PAB assignee's unplayed games (C.9), only where the bracket's single downfloater is the PAB
   assignee: players of the PAB score rank by games played, most first;
5. colour criteria: absolute imbalance (C.10), absolute preference with the repeated-colour clause
   (C.11), preferences met (C.12), strong preferences met (C.13);
6. floats: repeated downfloats and upfloats one and two rounds back (C.14-C.17), then their scores
   (C.18-C.21);
7. room for the engine's choice among equal pairings (C.04.3 B: exchanges, transpositions).

Field widths come from the round (the largest score group, the score groups' sizes) so no field can
overflow into the one above. This is the scheme of bbpPairings (FIDE-endorsed, Dutch rules as in
force from 2026), restated: each field is documented by the criterion it stands for.
"""

from __future__ import annotations

from collections.abc import Callable

from services.tournament.pairing.dutch.colours import may_meet, preferences_compatible
from services.tournament.pairing.dutch.history import NO_COLOR, invert
from services.tournament.pairing.dutch.state import FLOAT_DOWN, FLOAT_UP, RoundPlayer


class RoundWeights:
    """The weight fields of one round: ``players`` in pairing order (score, then rank), the last-round
    topscorer threshold for C.3 (tenths, None before the last round).

    ``group_bits``: bits to count the players of the largest score group; ``shifts``: each score's
    one-hot position in the score fields (lower scores lower), ``score_bits`` their total width.
    ``bye_score``, ``c9`` and ``c9_rank`` are set by the engine once the PAB score is known.
    """

    def __init__(self, players: list[RoundPlayer], threshold: int | None, played_rounds: int) -> None:
        self.players = players
        self.threshold = threshold
        self.played_rounds = played_rounds
        self.shifts: dict[int, int] = {}
        total = largest = 0
        i = len(players)
        while i > 0:
            j = i
            while j > 0 and players[j - 1].score == players[i - 1].score:
                j -= 1
            self.shifts[players[i - 1].score] = total
            total += (i - j).bit_length()
            largest = max(largest, i - j)
            i = j
        self.score_bits = total
        self.group_bits = largest.bit_length()
        self.bye_score = 0
        self.c9 = False
        self.c9_rank: dict[int, int] = {}
        self.candidate = [False] * len(players)
        # A pair's weight, once C.1/C.3 allow it, depends only on what each player brings to the
        # fields (score, colour data, floats, games played, PAB candidacy): players alike share a
        # class, and :meth:`weight_row` computes each pair of classes once (round 1: one class).
        kinds: dict[tuple[object, ...], int] = {}
        self._kind = [kinds.setdefault((p.score, p.color_pref, p.imbalance, p.repeated, p.strong, p.floats,
                                        p.played), len(kinds)) for p in players]
        self._kinds = len(kinds)
        self._memo: dict[int, int] = {}
        self._memo_c9 = False
        self.allowed: list[set[int]] = []
        self.set_bye_score(0)

    def set_bye_score(self, score: int) -> None:
        """The lowest score the PAB assignee can have (C.5); candidates are eligible players at or
        below it."""
        self.bye_score = score
        self.candidate = [p.bye_ok and p.score <= score for p in self.players]
        self._memo = {}

    def completion_weight(self, lo: int, hi: int, top: int) -> int:
        """The first matching's weight for an odd number of players: pair everyone who may not take
        the PAB, then the highest scores (so the one left out has the lowest possible score, C.5)."""
        a, b = self.players[lo], self.players[hi]
        if not may_meet(a, b, self.threshold):
            return 0
        r = 1 + (not a.bye_ok) + (not b.bye_ok)
        r = (r << self.score_bits) | (self.shifts[a.score] + self.shifts[b.score])
        return (r << self.group_bits) | (a.score >= top)

    def allowed_pairs(self) -> list[set[int]]:
        """For each player (by index), the players below him he may meet (C.1, C.3)."""
        ps, t = self.players, self.threshold
        self.allowed = [{j for j in range(i + 1, len(ps)) if may_meet(ps[i], ps[j], t)} for i in range(len(ps))]
        return self.allowed

    def completion_weights(self, top: int, allowed: list[set[int]]) -> Callable[[int, int], int]:
        """``completion_weight`` for every pair (i < j) from its vertex terms, ``allowed`` as
        :meth:`allowed_pairs` gives it: the same values, far faster for a whole round."""
        sb, gb = self.score_bits, self.group_bits
        term = [((not p.bye_ok) << sb) + self.shifts[p.score] for p in self.players]
        in_top = [p.score >= top for p in self.players]
        unit = 1 << sb

        def weight(i: int, j: int) -> int:
            if j not in allowed[i]:
                return 0
            return ((unit + term[i] + term[j]) << gb) | (in_top[i] and in_top[j])
        return weight

    def outside_weights(self, allowed: list[set[int]]) -> Callable[[int, int], int]:
        """``weight(i, j, False, False)`` for every pair (i < j) from its vertex terms (the duals of
        :meth:`outside_duals` are twice them), ``allowed`` as :meth:`allowed_pairs` gives it."""
        duals = self.outside_duals()

        def weight(i: int, j: int) -> int:
            return (duals[i] + duals[j]) >> 1 if j in allowed[i] else 0
        return weight

    def completion_duals(self, top: int) -> list[int]:
        """Vertex duals under which every :meth:`completion_weight` edge is feasible and all but
        those between the top score group and the rest are tight (the weights are sums of vertex
        terms plus the top-group bit): the matching's best start."""
        out = []
        for p in self.players:
            term = ((not p.bye_ok) << self.score_bits) + self.shifts[p.score]
            out.append((((1 << self.score_bits) + 2 * term) << self.group_bits) + (p.score >= top))
        return out

    def outside_duals(self) -> list[int]:
        """Vertex duals making every edge of weight ``weight(hi, lo, False, False)`` (both players
        outside the bracket: completion, PAB candidacy, C.9) tight: those weights are sums of vertex
        terms."""
        gb, sb, pr = self.group_bits, self.score_bits, self.played_rounds
        below_c9 = 4 * gb + 2 * gb * min(pr, 2) + 2 * sb * min(pr, 2) + 3 * gb + 1
        below_t = 2 * (gb + sb) + 2 * gb + below_c9
        out = []
        for i, p in enumerate(self.players):
            d = (1 + 2 * (not self.candidate[i])) << below_t
            if self.c9 and p.score == self.bye_score:
                d += (2 * self.c9_rank[p.played]) << below_c9
            out.append(d)
        return out

    def weight_row(self, his: list[int], lo: int, in_bracket: bool, in_next: bool) -> list[int]:
        """``[weight(hi, lo, in_bracket, in_next) for hi in his]`` (each ``hi`` < ``lo``, pairing order),
        computed once per pair of player classes; needs :meth:`allowed_pairs` called first (the
        C.1/C.3 check). ``c9_rank`` must not change once ``c9`` is set (the engine sets it once)."""
        if self.c9 != self._memo_c9:
            self._memo = {}
            self._memo_c9 = self.c9
        memo, kind, cand, allowed = self._memo, self._kind, self.candidate, self.allowed
        stride = 2 * self._kinds
        key_lo = (2 * kind[lo] + cand[lo]) * 4 + 2 * in_bracket + in_next
        out = []
        for hi in his:
            if lo not in allowed[hi]:
                out.append(0)
                continue
            key = (2 * kind[hi] + cand[hi]) * stride * 4 + key_lo
            wt = memo.get(key)
            if wt is None:
                wt = memo[key] = self._fields(hi, lo, in_bracket, in_next)
            out.append(wt)
        return out

    def weight(self, hi: int, lo: int, in_bracket: bool, in_next: bool) -> int:
        """The weight of the edge between ``players[hi]`` and ``players[lo]`` (hi ranks higher) when
        ``lo`` is in the bracket being paired (``in_bracket``) or in the next score group
        (``in_next``); 0 when the absolute criteria forbid the pair."""
        if not may_meet(self.players[hi], self.players[lo], self.threshold):
            return 0
        return self._fields(hi, lo, in_bracket, in_next)

    def _fields(self, hi: int, lo: int, in_bracket: bool, in_next: bool) -> int:
        h, l = self.players[hi], self.players[lo]
        gb, sb, sh = self.group_bits, self.score_bits, self.shifts
        r = 1 + (not self.candidate[hi]) + (not self.candidate[lo])
        r = ((r << gb) | in_bracket) << sb
        if in_bracket:
            r |= 1 << sh[h.score]
        r = ((r << gb) | in_next) << sb
        if in_next:
            r |= 1 << sh[h.score]
        r <<= 2 * gb
        if self.c9:
            if h.score == self.bye_score:
                r += self.c9_rank[h.played]
            if l.score == self.bye_score:
                r += self.c9_rank[l.played]
        r = _colour_fields(r, l, h, in_bracket, gb)
        pr = self.played_rounds
        for back in (1, 2):
            if pr < back:
                continue
            r <<= gb
            if in_bracket:
                r += (l.floats[back - 1] == FLOAT_DOWN) + (h.score <= l.score and h.floats[back - 1] == FLOAT_DOWN)
            r <<= gb
            if in_bracket:
                r += not (h.score > l.score and l.floats[back - 1] == FLOAT_UP)
        for back in (1, 2):
            if pr < back:
                continue
            r <<= sb
            if in_bracket:
                if l.floats[back - 1] == FLOAT_DOWN:
                    r += 1 << sh[l.score]
                if h.floats[back - 1] == FLOAT_DOWN:
                    r += 1 << sh[h.score]
            r <<= sb
            if in_bracket and not (l.floats[back - 1] == FLOAT_UP and h.score > l.score):
                r += 1 << sh[h.score]
        return r << (3 * gb + 1)

    def exchange_weight(self, base: int, hi_remainder_index: int, remainder_pairs: int) -> int:
        """``base`` plus the low-order preferences used while choosing exchanges in a remainder
        (C.04.3 B.3-B.4: fewest exchanges, then the smallest difference of exchanged sequence
        numbers); 0 stays 0."""
        if not base:
            return 0
        addend = ((int(hi_remainder_index < remainder_pairs) << (2 * self.group_bits)) - hi_remainder_index) << 1
        return base + addend


def _colour_fields(r: int, p: RoundPlayer, o: RoundPlayer, mask: bool, width: int) -> int:
    """Append the four colour fields (C.10-C.13) for the lower player p against the higher o."""
    r <<= width
    r += mask and (not p.absolute_imbalance or not o.absolute_imbalance or p.color_pref != o.color_pref)
    r <<= width
    if mask:
        if p.imbalance == o.imbalance:
            rep_ok = p.repeated == NO_COLOR or p.repeated != o.repeated
        else:
            rep_ok = (o if p.imbalance > o.imbalance else p).repeated != invert(p.color_pref)
        r += not p.absolute or not o.absolute or p.color_pref != o.color_pref or rep_ok
    r <<= width
    r += mask and preferences_compatible(p.color_pref, o.color_pref)
    r <<= width
    r += mask and (
        (not p.strong and not p.absolute) or (not o.strong and not o.absolute)
        or (p.absolute and o.absolute) or p.color_pref != o.color_pref
    )
    return r
